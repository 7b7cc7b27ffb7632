#!/usr/bin/env python3
"""`vitscope exercises IMAGE --key KEY.csv`: the answer key of the homework
that ships (assets/exercises/first-look.exercises) on dog.jpg and three
photos with no dog, every answer recomputed here from its definition:
  - the file read independently of vitscope's parser (kind, state, choose,
    answer per exercise);
  - the query: the file's patch on dog.jpg; on other photos the relevant patch
    `vitscope tour --claims` names (tests/session/tour_claims_test.py checks that one);
  - the key of weight and scaled_score: the file's patch (or CLS) on dog.jpg;
    on other photos (other-pin: top) the patch key with the largest weight,
    leaving out the query and the tokens entering the layer at least 10 x the
    median patch norm (NumPy on `dump --arrays residual_in`);
  - top_key: the argmax of the dumped weights over every key, CLS included;
    weight: the dumped weight; scaled_score: q · k / sqrt(d_k) in float64 from
    the dumped q and k; choice: the file's answer;
  - predict_region's head: the head of any layer whose content_reach for the
    query beats its baselines most (NumPy, the head's position-only kernel
    included), its ratio the file's (default 2).
Then the refusals: an unknown kind, a layer or head out of range, a query off
the grid, a question that gives its answer away, a file that is not there:
exit 2, one line naming the file and line or exercise, no key written.
"""
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, SRC, Tally
from tour_claims_np import choice_score, content_reach, high_norm

tally = Tally()
check = tally.check
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
PHOTOS = [DOG, CHELSEA, os.path.join(SRC, "assets", "eagle.jpg"), os.path.join(SRC, "assets", "astronaut.png")]


def vitscope(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)


def read_exercises(path):
    """[{kind, state: {k: v}, choose, answer, ratio}] in file order."""
    out = []
    for line in open(path, encoding="utf-8"):
        key, sep, value = line.strip().partition(":")
        if not sep or key.startswith("#"):
            continue
        key, value = key.strip(), value.strip()
        if key == "exercise":
            out.append({"state": {}, "choose": None, "answer": None, "ratio": None, "tolerance": None})
        elif out and key == "kind":
            out[-1]["kind"] = value
        elif out and key == "state":
            out[-1]["state"].update(kv.split("=", 1) for kv in value.split())
        elif out and key in ("choose", "other-choose"):
            out[-1]["choose"] = value
        elif out and key in ("answer", "ratio", "tolerance"):
            out[-1][key] = value
    return out


def patch_name(token, grid, prefix):
    return "CLS" if token < prefix else f"({(token - prefix) // grid}, {(token - prefix) % grid})"


def token(value, grid, prefix):
    if value == "cls":
        return 0
    r, c = map(int, value.split(","))
    return prefix + r * grid + c


def check_photo(path, exercises, tmp):
    name = os.path.basename(path)
    key_csv = os.path.join(tmp, name + "_key.csv")
    r = vitscope("exercises", path, "--key", key_csv)
    if not check(f"{name}: exercises --key exits 0", r.returncode == 0, r.stderr.strip()):
        return
    with open(key_csv, newline="") as f:
        reader = csv.DictReader(f)
        header, rows = reader.fieldnames, list(reader)
    check(f"{name}: the key's columns", header == ["exercise", "kind", "layer", "head", "query", "query_patch", "key",
                                                   "key_patch", "answer", "accepted", "tolerance", "as_asked", "marking",
                                                   "weights", "variant"], header)
    check(f"{name}: one row per exercise, in order", [int(x["exercise"]) for x in rows] ==
          list(range(1, len(exercises) + 1)), [x["exercise"] for x in rows])
    dump = os.path.join(tmp, name + "_dump")
    r = vitscope("dump", path, "-o", dump, "--arrays", "attn,q,k,residual_in")
    if not check(f"{name}: dump", r.returncode == 0, r.stderr.strip()):
        return
    import json
    meta = json.load(open(os.path.join(dump, "meta.json")))
    grid, prefix, d_k = meta["grid"], meta["prefix"], meta["head_dim"]
    attn, q, k = (np.load(os.path.join(dump, a + ".npy")).astype(np.float64) for a in ("attn", "q", "k"))
    entering = [high_norm(x, prefix) for x in np.load(os.path.join(dump, "residual_in.npy")).astype(np.float64)]
    own = name == "dog.jpg"
    relevant = None
    if not own:
        claims = os.path.join(tmp, name + "_claims.csv")
        vitscope("tour", path, "--claims", claims)
        relevant = int(next(x for x in csv.DictReader(open(claims, newline="")) if x["step"] == "2")["query"])

    for ex, row in zip(exercises, rows):
        n, kind, st = row["exercise"], ex["kind"], ex["state"]
        where = f"{name} exercise {n} ({kind})"
        if not check(f"{where}: the kind", row["kind"] == kind, row["kind"]):
            continue
        if kind == "choice":
            options = sorted(int(x) for x in ex["answer"].replace(",", " ").split())
            check(f"{where}: the file's answer(s), no selection", (row["answer"], row["accepted"], row["layer"], row["query"])
                  == (" ".join(map(str, options)),) * 2 + ("", ""), row)
            continue
        query = token(st["query"], grid, prefix) if own or st["query"] == "cls" else relevant
        mean = st.get("map") == "mean"
        layer, head = int(row["layer"]), (row["head"] if mean else int(row["head"]))
        check(f"{where}: the query's patch beside its token", row["query_patch"] == patch_name(int(row["query"]), grid, prefix),
              row["query_patch"])
        if ex["choose"] == "content_reach":
            scores = [(choice_score("content_reach", *content_reach(attn[l, h], grid, prefix, query, entering[l])), l, h)
                      for l in range(attn.shape[0]) for h in range(attn.shape[1])]
            top = max(x[0] for x in scores)
            best = next(x for x in scores if x[0] == top)  # ties: the first
            check(f"{where}: the head whose content_reach beats its baselines most (NumPy: layer {best[1]} head "
                  f"{best[2]}, {top:.2f} x)", (layer, head) == best[1:], (layer, head))
        elif mean:
            check(f"{where}: layer as the file sets it, head 'mean' (map=mean)", (str(layer), head) ==
                  (st.get("layer"), "mean"), (layer, head))
        else:
            check(f"{where}: layer and head as the file sets them", (str(layer), str(head)) ==
                  (st.get("layer"), st.get("head")), (layer, head))
        if not check(f"{where}: the query ({query})", int(row["query"]) == query, row["query"]):
            continue
        # map=mean: the mean of the layer's heads' weights (NumPy), not head 0's.
        w = attn[layer, :, query].mean(axis=0) if mean else attn[layer, head, query]
        if kind == "top_key":
            top = int(np.argmax(w))
            accepted = [int(x) for x in row["accepted"].split()]
            check(f"{where}: the answer is the argmax over every key ({top}), first of the accepted, its patch beside it",
                  int(row["answer"]) == top and row["key"] == str(top) and accepted[0] == top
                  and row["key_patch"] == patch_name(top, grid, prefix), row)
            # Every near-tie the key accepts is named with its weight, and is within 1 % of the top's weight.
            check(f"{where}: the near-ties ({accepted[1:]}) are close to the top and named in marking with their weights",
                  all(w[j] >= 0.97 * w[top] and f"{w[j]:.4f}" in row["marking"] for j in accepted[1:]), row["marking"])
        elif kind == "predict_region":
            weights = np.array([float(x) for x in row["weights"].split()])
            check(f"{where}: no answer, the ratio {ex['ratio'] or 2}, the row's patch weights for --grade",
                  row["answer"] == "" and float(row["tolerance"]) == float(ex["ratio"] or 2)
                  and weights.size == grid * grid and np.abs(weights - w[prefix:]).max() <= 1e-6 * max(1, w.max()), row["tolerance"])
            order = np.argsort(-w[prefix:], kind="stable")
            need = int(np.searchsorted(np.cumsum(w[prefix:][order]), w[prefix:].sum() / 2)) + 1
            region = " ".join(patch_name(prefix + int(j), grid, prefix) for j in order[:need])
            check(f"{where}: the model's region ({need} patches holding half the weight) and the rule in marking",
                  region in row["marking"] and "at least" in row["marking"], row["marking"][-200:])
        else:
            pin = st["pin"]
            if own or pin == "cls":
                key = token(pin, grid, prefix)
            else:
                left_out = entering[layer] | {query}
                key = max((j for j in range(prefix, w.size) if j not in left_out), key=lambda j: w[j])
            if not check(f"{where}: the key ({key})", int(row["key"]) == key, row["key"]):
                continue
            want = w[key] if kind == "weight" else q[layer, head, query] @ k[layer, head, key] / np.sqrt(d_k)
            check(f"{where}: the answer {float(row['answer']):.6g} against NumPy's {want:.6g}",
                  abs(float(row["answer"]) - want) <= 1e-5 * max(1, abs(want)), row["answer"])
            tol = ex["tolerance"] or {"weight": "0.001", "scaled_score": "0.01"}[kind]
            half = abs(want) * float(tol[:-1]) / 100 if tol.endswith("%") else float(tol)
            low, high = (float(x) for x in row["accepted"].split())
            check(f"{where}: accepted from {low:.6g} to {high:.6g} ({tol} as written), not 0",
                  row["tolerance"] == tol and abs(low - (want - half)) <= 1e-6 * max(1, abs(want)) + 1e-9
                  and abs(high - (want + half)) <= 1e-6 * max(1, abs(want)) + 1e-9 and low > 0, row)


def refusals(tmp):
    base = ("title: T\nphoto: dog.jpg\n"
            "exercise: E\nkind: weight\nstate: layer=3 head=2 query=5,3 pin=8,2\ntext: What weight?\n")
    cases = [
        ("an unknown kind", base.replace("kind: weight", "kind: guess"), "f.exercises:4: unknown kind 'guess'"),
        ("layer 12 of 12", base.replace("layer=3", "layer=12"), "exercise 1 'E': layer 12 is not in this model (0 to 11)"),
        ("head 3 of 3", base.replace("head=2", "head=3"), "exercise 1 'E': head 3 is not in this model (0 to 2)"),
        ("a query off the 14 x 14 grid", base.replace("query=5,3", "query=20,3"),
         "exercise 1 'E': query 20,3 is not on this photo's 14 × 14 grid"),
        ("a question that gives its answer away", base.replace("What weight?", "It is {weight}."),
         "{weight} would give the answer away"),
        ("a weight without a key", base.replace(" pin=8,2", ""), "state: sets no key"),
        ("a choice with its answer out of range", base.replace("kind: weight\nstate: layer=3 head=2 query=5,3 pin=8,2\n",
                                                              "kind: choice\noption: a\noption: b\nanswer: 3\n"),
         "f.exercises:3: exercise 'E': answer: names option 3, but the options are 1 to 2"),
        ("a choice with no answer", base.replace("kind: weight\nstate: layer=3 head=2 query=5,3 pin=8,2\n",
                                                 "kind: choice\noption: a\noption: b\n"),
         "f.exercises:3: exercise 'E': no answer: (the right option's number, 1 to 2"),
        ("map=mean on a scaled score", base.replace("kind: weight", "kind: scaled_score").replace("pin=8,2", "pin=8,2 map=mean"),
         "f.exercises:3: exercise 'E': map=mean has no q·k of its own: scaled_score needs one head"),
        ("a relative tolerance of 100%", base + "tolerance: 100%\n", "f.exercises:7: tolerance 100% would accept 0"),
        ("a tolerance that accepts 0 on this photo (as large as any weight)", base + "tolerance: 1\n",
         "f.exercises: exercise 1 'E': tolerance 1 accepts 0: the answer on this photo is "),
        ("a tolerance on a choice", base.replace("kind: weight\nstate: layer=3 head=2 query=5,3 pin=8,2\n",
                                                 "kind: choice\noption: a\noption: b\nanswer: 1\ntolerance: 0.1\n"),
         "tolerance: belongs to weight, score, scaled_score, exp and z"),
        ("step: instead of exercise:", base.replace("exercise: E", "step: E"), "f.exercises:3: an exercises file starts"),
    ]
    for what, text, message in cases:
        path = os.path.join(tmp, "f.exercises")
        with open(path, "w") as f:
            f.write(text)
        key = os.path.join(tmp, "bad_key.csv")
        r = vitscope("exercises", DOG, "--exercises", path, "--key", key)
        lines = r.stderr.strip().splitlines()
        check(f"refused: {what} (exit 2, one line, no key)", r.returncode == 2 and len(lines) == 1 and message in
              r.stderr and not os.path.exists(key), f"rc={r.returncode} {r.stderr.strip()}")
    r = vitscope("exercises", DOG, "--exercises", os.path.join(tmp, "missing.exercises"), "--key", "-")
    check("refused: a file that is not there", r.returncode == 2 and "missing.exercises" in r.stderr, r.stderr.strip())
    r = vitscope("exercises", DOG)
    check("refused: no --key", r.returncode == 2 and "--key" in r.stderr, r.stderr.strip())


def new_kinds(tmp):
    """score, exp and z, map=mean and a relative tolerance on dog.jpg against NumPy from `vitscope dump`."""
    text = ("title: T\nphoto: dog.jpg\n"
            "exercise: S\nkind: score\nstate: layer=3 head=2 query=5,3 pin=8,2\ntext: q·k?\n"
            "exercise: E\nkind: exp\nstate: layer=3 head=2 query=5,3 pin=8,2\ntext: exp?\n"
            "exercise: Z\nkind: z\nstate: layer=3 head=2 query=5,3 pin=none\ntext: Z?\n"
            "exercise: M\nkind: weight\nstate: layer=10 query=5,3 pin=5,4 map=mean\ntolerance: 5%\ntext: The mean weight?\n")
    path, key_csv, dump = (os.path.join(tmp, n) for n in ("kinds.exercises", "kinds.csv", "kinds_dump"))
    with open(path, "w") as f:
        f.write(text)
    r = vitscope("exercises", DOG, "--exercises", path, "--key", key_csv)
    if not check("score, exp, z and map=mean: exercises --key exits 0", r.returncode == 0, r.stderr.strip()):
        return
    rows = list(csv.DictReader(open(key_csv, newline="")))
    vitscope("dump", DOG, "-o", dump, "--arrays", "attn,q,k")
    attn, q, k = (np.load(os.path.join(dump, a + ".npy")).astype(np.float64) for a in ("attn", "q", "k"))
    d_k = q.shape[-1]
    query, key = 1 + 5 * 14 + 3, 1 + 8 * 14 + 2
    scaled = q[3, 2, query] @ k[3, 2].T / np.sqrt(d_k)
    want = {"score": scaled[key] * np.sqrt(d_k), "exp": np.exp(scaled[key]), "z": np.exp(scaled).sum(),
            "weight": attn[10, :, query, 1 + 5 * 14 + 4].mean()}
    for row in rows:
        got, w = float(row["answer"]), want[row["kind"]]
        check(f"{row['kind']}{' (map=mean)' if row['head'] == 'mean' else ''}: {got:.6g} against NumPy's {w:.6g}",
              abs(got - w) <= 1e-4 * abs(w), row)
    m = rows[3]
    low, high = (float(x) for x in m["accepted"].split())
    check("map=mean with tolerance: 5%: accepted within 5 % of the answer, head 'mean'",
          m["head"] == "mean" and m["tolerance"] == "5%" and abs(low - 0.95 * want["weight"]) < 1e-6
          and abs(high - 1.05 * want["weight"]) < 1e-6, m)
    check("the key says the precision asked: 3 significant figures for 5 %, the weight as a percentage too",
          "(3 significant figures; " in m["as_asked"] and "%)" in m["as_asked"], m["as_asked"])


def main():
    if not tally.check_model():
        return tally.finish()
    exercises = read_exercises(EXERCISES)
    kinds = {e["kind"] for e in exercises}
    check(f"the sample has at least 8 exercises over at least 4 kinds ({len(exercises)}, {sorted(kinds)})",
          len(exercises) >= 8 and len(kinds) >= 4)
    with tempfile.TemporaryDirectory(prefix="vitscope_exercises_") as tmp:
        for photo in PHOTOS:
            check_photo(photo, exercises, tmp)
        new_kinds(tmp)
        refusals(tmp)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
