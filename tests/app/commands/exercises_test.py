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
  - predict_region's head: the head of any layer with the largest
    selective_reach for the query (NumPy), its ratio the file's (default 2).
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
from tour_claims_np import high_norm, selective_reach

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
            out.append({"state": {}, "choose": None, "answer": None, "ratio": None})
        elif out and key == "kind":
            out[-1]["kind"] = value
        elif out and key == "state":
            out[-1]["state"].update(kv.split("=", 1) for kv in value.split())
        elif out and key in ("choose", "other-choose"):
            out[-1]["choose"] = value
        elif out and key in ("answer", "ratio"):
            out[-1][key] = value
    return out


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
    check(f"{name}: the key's columns", header == ["exercise", "kind", "layer", "head", "query", "key", "answer",
                                                   "tolerance"], header)
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
            check(f"{where}: the file's answer, no selection", (row["answer"], row["layer"], row["query"]) ==
                  (ex["answer"], "", ""), row)
            continue
        query = token(st["query"], grid, prefix) if own or st["query"] == "cls" else relevant
        layer, head = int(row["layer"]), int(row["head"])
        if ex["choose"] == "selective_reach":
            best = max(((selective_reach(attn[l, h, query], grid, prefix, query, entering[l])[0], l, h)
                        for l in range(attn.shape[0]) for h in range(attn.shape[1])))
            check(f"{where}: the head with the largest selective_reach (NumPy: layer {best[1]} head {best[2]})",
                  (layer, head) == best[1:], (layer, head))
        else:
            check(f"{where}: layer and head as the file sets them", (str(layer), str(head)) ==
                  (st.get("layer"), st.get("head")), (layer, head))
        if not check(f"{where}: the query ({query})", int(row["query"]) == query, row["query"]):
            continue
        w = attn[layer, head, query]
        if kind == "top_key":
            check(f"{where}: the answer is the argmax over every key ({int(np.argmax(w))})",
                  int(row["answer"]) == int(np.argmax(w)) and row["key"] == "", row)
        elif kind == "predict_region":
            check(f"{where}: no answer, the ratio {ex['ratio'] or 2}", row["answer"] == "" and
                  float(row["tolerance"]) == float(ex["ratio"] or 2), row)
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
         "answer: names option 1 to 2"),
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
        refusals(tmp)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
