#!/usr/bin/env python3
"""The homework in the lesson page (`vitscope lesson IMAGE --exercises FILE`,
issue 35 item 3) in real browsers, on dog.jpg and chelsea.png with the sample
exercises (assets/exercises/first-look.exercises):

1. The page's data holds each exercise's setting but no computed answer: no
   top_key key, no weight, scaled score or region answer (a choice's answer
   is the teacher's and is there); the page without --exercises has none.
2. tests/support/browser/homework_browser.mjs (puppeteer-core, Debian's chromium)
   answers every exercise right in one fresh page and wrong in another, with
   real clicks on the exercise's photo and the CLS button, typing and radio
   buttons; the right answers come from `vitscope exercises --key` (the
   region: the query's 3 heaviest patches from `vitscope attention`; wrong:
   its 3 lightest, the top_key wrong answer the lightest patch). Checked:
   every verdict, the page's own answer against the key's (top_key: the same
   token, or the key's token among the page's documented near-ties; weight
   and scaled_score within the exercise's tolerance; the region's ratio
   within 2 % of NumPy's from `vitscope attention`), the arithmetic shown,
   text that is not a number (a note, the text kept, no verdict), the
   downloaded CSV row by row, a reload keeping every checked answer (the
   browser's storage), a phone's tap, no request, no script error.
3. The same two passes in Debian's Firefox ESR on dog.jpg (the CSV read from
   the download link's Blob).
HOMEWORK_SHOTS=DIR keeps the screenshots (homework_desktop.png, homework_phone.png).
"""
import atexit
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, SRC, Tally
from browser_support import CHROMIUM, FIREFOX, driver, install_puppeteer  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_homework_browser_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
GRID, PREFIX = 14, 1


def run(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)


def page_data(path):
    with open(path) as f:
        return json.loads(re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', f.read(), re.S)[1])


def attention_weights(photo, layer, head, query):
    heads = ["--mean-heads"] if head == "mean" else ["--head", str(head)]
    r = run("attention", photo, "--layer", str(layer), *heads, "--query", str(query))
    return np.array([float(row["weight"]) for row in csv.DictReader(io.StringIO(r.stdout))])


def rc(token):
    return (token - PREFIX) // GRID, (token - PREFIX) % GRID


def plan_for(photo, key, data):
    """The actions answering each exercise right and wrong, and what each pass must show."""
    right, wrong, expect, rows = [], [], {}, []
    first_number = True
    for row in key:
        n, kind = int(row["exercise"]), row["kind"]
        e = next(x for x in data["exercises"] if x["n"] == n)
        if kind == "choice":
            answer = [int(x) for x in row["answer"].split()]
            other = [1 if answer != [1] else 2]
            right.append({"n": n, "type": "options", "options": answer})
            wrong.append({"n": n, "type": "options", "options": other})
            expect[n] = {"right": " ".join(map(str, answer)), "wrong": " ".join(map(str, other))}
            continue
        head = "mean" if e.get("mean") else e["head"]
        w = attention_weights(photo, e["layer"], head, e["query"])
        # Opened before any Check: nothing on the page may show the answer (its weight to 4 decimals, its key's row).
        secrets = [f"{float(row['answer']):.4f}"] if kind in ("weight", "scaled_score") else []
        rows.append({"n": n, "layer": e["layer"], "head": head, "query": e["query"], "row": rc(e["query"])[0],
                     "col": rc(e["query"])[1], "secrets": secrets})
        if kind == "top_key":
            token = int(row["answer"])
            right.append({"n": n, "type": "prefix", "token": token} if token < PREFIX
                         else {"n": n, "type": "click", "row": rc(token)[0], "col": rc(token)[1]})
            low = PREFIX + int(np.argmin(w[PREFIX:]))
            wrong.append({"n": n, "type": "click", "row": rc(low)[0], "col": rc(low)[1]})
            expect[n] = {"right": str(token), "wrong": str(low), "key": token}
        elif kind in ("weight", "scaled_score"):
            value = float(row["answer"])
            low, high = (float(x) for x in row["accepted"].split())
            tol = (high - low) / 2
            typed = f"{value:.4f}" if value >= 0.01 else f"{100 * value:.3g}%"  # a small weight typed as a percentage
            off = f"{value + 10 * tol:.4f}"
            action = {"n": n, "type": "type", "text": typed}
            if first_number:
                action["first"] = "about a half"  # not a number: a note, nothing lost
                first_number = False
            right.append(action)
            wrong.append({"n": n, "type": "type", "text": off})
            expect[n] = {"right": typed, "wrong": off, "value": value, "tolerance": tol}
        elif kind == "predict_region":
            order = PREFIX + np.argsort(w[PREFIX:], kind="stable")
            heavy, light = sorted(order[-3:].tolist()), sorted(order[:3].tolist())
            right.append({"n": n, "type": "mark", "patches": [rc(j) for j in heavy]})
            wrong.append({"n": n, "type": "mark", "patches": [rc(j) for j in light]})
            ratio = lambda marked: w[marked].sum() / (len(marked) / GRID**2 * w[PREFIX:].sum())
            expect[n] = {"right": " ".join(map(str, heavy)), "wrong": " ".join(map(str, light)),
                         "ratio": {"right": ratio(heavy), "wrong": ratio(light)}, "pass": float(row["tolerance"])}
    return {"passes": {"right": right, "wrong": wrong}, "rows": rows,
            "students": {"right": "Ada Lovelace", "wrong": "Zoë O'Brien, 2b"}}, expect


def hidden_by(rows, r):
    """The first exercise whose row the selection r shows (as lesson_homework.js hides())."""
    for e in rows:
        if e["layer"] == r["layer"] and e["query"] == r["query"] and (
                e["head"] == "mean" or (r["head"] != "mean" and r["head"] == e["head"])):
            return e["n"]
    return None


def check_honest(name, p, plan, tokens):
    """Before any Check no row that answers an exercise is shown, by link or by input; after, the link opens."""
    for r in plan["rows"]:
        n, by = hidden_by(plan["rows"], r), hidden_by(plan["rows"], r)
        link, typed = p["before"]["link"][str(r["n"])], p["before"]["input"][str(r["n"])]
        at = (str(r["layer"]), str(r["head"]), str(r["query"]))
        check(f"{name}: exercise {r['n']}'s row by a link before Check: refused, said so, the page stays where it was",
              link["note"] is not None and f"exercise {by}'s question" in link["note"]
              and (link["layer"], link["head"], link["query"]) != at, link)
        check(f"{name}: exercise {r['n']}'s row chosen by hand before Check: no weight in the DOM, the math hidden, "
              f"no answer's text on the page", (typed["layer"], typed["head"], typed["query"]) == at and typed["weights"] == 0
              and typed["hidden"] == str(n) and "hidden" in typed["math"] and not typed["secrets"], typed)
    a = p["after"]
    check(f"{name}: after Check the same link opens the row and lists its {tokens} weights",
          a is not None and a["weights"] == tokens and a["hidden"] is None and not (a["note"] or "").count("question"), a)
    check(f"{name}: the homework is announced above the page's first screen", not p["banner"]["hidden"]
          and re.search(r"Homework: \d+ exercises", p["banner"]["text"]) and p["banner"]["top"] < 300, p["banner"])


def check_session(name, b, key, expect, plan=None):
    check(f"{name}: no request leaves the file", not b["requests"], b["requests"][:5])
    check(f"{name}: no script error", not b["errors"], b["errors"][:3])
    for pass_name in ("right", "wrong"):
        p = b["passes"][pass_name]
        if plan:
            check_honest(f"{name}, {pass_name}", p, plan, 197)
        check(f"{name}, {pass_name}: one element per exercise, data-exercise 1..N as in the key",
              p["elements"] == [int(r["exercise"]) for r in key], p["elements"])
        for row in key:
            n, kind = int(row["exercise"]), row["kind"]
            seen, want = p["exercises"][str(n)], expect[n]
            verdict = seen["verdict"]
            tag = f"{name}, {pass_name}: exercise {n} ({kind})"
            if kind == "predict_region":
                want_verdict = "right" if want["ratio"][pass_name] >= want["pass"] else "wrong"
                check(f"{tag}: the verdict follows the ratio {want['ratio'][pass_name]:.2f} against {want['pass']}",
                      verdict == want_verdict, seen)
                check(f"{tag}: the page's ratio within 2 % of NumPy's", seen["answer"] is not None and
                      abs(float(seen["answer"]) - want["ratio"][pass_name]) <= 0.02 * want["ratio"][pass_name],
                      (seen["answer"], want["ratio"][pass_name]))
                continue
            check(f"{tag}: the verdict is '{pass_name}'", verdict == pass_name, seen)
            if kind == "top_key":
                accepted = [int(x) for x in (seen["accepted"] or "").split()]
                same = seen["answer"] == str(want["key"])
                if not same:
                    print(f"    {tag}: a near-tie: the page's top {seen['answer']}, the key's {want['key']}, accepted {accepted}")
                check(f"{tag}: the page's top key is the key's (or the key's among the page's near-ties)",
                      same or want["key"] in accepted, seen)
                steps = 0 if row["head"] == "mean" else 5  # the mean of the heads has no one q·k
                check(f"{tag}: the arithmetic of that key is shown ({steps} steps)", seen["arithmetic"] == steps, seen)
                check(f"{tag}: the student's pick restated with its weight, beside the right key's",
                      re.search(r"Your answer: (patch \(\d+, \d+\)|CLS)[^,]*, weight [0-9.e-]+\.", seen["text"]) is not None, seen["text"][:200])
            elif kind in ("weight", "scaled_score"):
                check(f"{tag}: the page's value within the tolerance of the key's", seen["answer"] is not None
                      and abs(float(seen["answer"]) - want["value"]) <= want["tolerance"], (seen["answer"], want["value"]))
                check(f"{tag}: the arithmetic is shown (5 steps)", seen["arithmetic"] == 5, seen)
                check(f"{tag}: the student's answer restated as typed, the right one to the question's precision",
                      f"Your answer: {want[pass_name]}" in seen["text"] and "e-1" not in seen["text"].split("Your answer:")[1][:40]
                      and "999999" not in seen["text"] and "000000" not in seen["text"], seen["text"][:200])
                if seen.get("afterFirst"):
                    f = seen["afterFirst"]
                    check(f"{tag}: text that is not a number gives a note beside it, keeps the text, no verdict",
                          f["note"] is not None and "not a number" in f["note"] and f["typed"] == "about a half"
                          and f["verdict"] is None, f)
            else:
                check(f"{tag}: the teacher's answer is the page's, the student's pick restated, numbered",
                      seen["answer"] == row["answer"] and "Your answer: " + want[pass_name].split()[0] + "." in seen["text"], seen)
        # The hand-in: the student's name, the variant, each answer as typed, the verdict, one code.
        student = plan["students"][pass_name] if plan else None
        got = list(csv.DictReader(io.StringIO(p["download"]["csv"] or "")))
        rows = [{k: r[k] for k in ("exercise", "kind", "answer", "correct")} for r in got]
        want_rows = [{"exercise": r["exercise"], "kind": r["kind"], "answer": expect[int(r["exercise"])][pass_name],
                      "correct": "yes" if p["exercises"][r["exercise"]]["verdict"] == "right" else "no"} for r in key]
        check(f"{name}, {pass_name}: the hand-in holds every answer as typed and verdict, the name, variant 1, one code",
              (p["download"]["csv"] or "").startswith("student,variant,exercise,kind,answer,correct,code\n") and rows == want_rows
              and {(r["student"], r["variant"]) for r in got} == {(student, "1")}
              and len({r["code"] for r in got}) == 1 and re.fullmatch(r"[0-9a-f]{8}", got[0]["code"]),
              (p["download"]["name"], rows[:3], want_rows[:3]))
        check(f"{name}, {pass_name}: named after the student and the photo; refused without a name",
              p["download"]["name"].startswith("answers-" + re.sub(r"[^A-Za-z0-9_-]+", "_", student.replace("ë", "e")).strip("_"))
              and "name first" in p["download"]["refused"], (p["download"]["name"], p["download"]["refused"]))
        again = p.get("afterReload") or []
        check(f"{name}, {pass_name}: a reload keeps every checked answer (same verdict and page answer, locked)",
              [(x["verdict"], x["answer"], x["locked"]) for x in again]
              == [(p["exercises"][r["exercise"]]["verdict"], p["exercises"][r["exercise"]]["answer"], True) for r in key],
              again[:3])
        check(f"{name}, {pass_name}: after the last check the math panel shows its query",
              "query" in p["math"].lower(), p["math"][:80])


def check_grades(key_path, b, key):
    """`vitscope exercises --grade` on the browser's hand-ins, and on two edited after the page wrote them."""
    handins = {}
    for pass_name in ("right", "wrong"):
        path = os.path.join(TMP, f"handin_{pass_name}.csv")
        with open(path, "w", newline="") as f:
            f.write(b["passes"][pass_name]["download"]["csv"] or "")
        handins[pass_name] = path
    wrong = list(csv.DictReader(open(handins["wrong"], newline="")))
    fields = list(wrong[0].keys())

    def edited(name, change):
        rows = [dict(r) for r in wrong]
        change(rows)
        path = os.path.join(TMP, f"handin_{name}.csv")
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        return path

    def all_yes(rows):
        for r in rows:
            r["correct"] = "yes"
    numeric = next(k for k in key if k["kind"] == "weight")
    right_rows = {r["exercise"]: r for r in csv.DictReader(open(handins["right"], newline=""))}

    def right_answer(rows):
        for r in rows:
            if r["exercise"] == numeric["exercise"]:
                r["answer"] = right_rows[r["exercise"]]["answer"]
    handins["correct edited"] = edited("correct_edited", all_yes)
    handins["answer edited"] = edited("answer_edited", right_answer)
    out = os.path.join(TMP, "grades.csv")
    r = run("exercises", "--grade", key_path, *handins.values(), "-o", out)
    if not check("--grade on 4 hand-ins exits 0", r.returncode == 0 and os.path.exists(out), r.stderr):
        return
    grades = {g["handin"]: g for g in csv.DictReader(open(out, newline=""))}
    n = len(key)
    for pass_name in ("right", "wrong"):
        g = grades[handins[pass_name]]
        page = ["1" if x["correct"] == "yes" else "0" for x in csv.DictReader(open(handins[pass_name], newline=""))]
        check(f"--grade, the {pass_name} hand-in: code ok, every mark the page's verdict, the total their sum",
              g["code"] == "ok" and [g[str(i)] for i in range(1, n + 1)] == page and int(g["total"]) == page.count("1")
              and g["out_of"] == str(n), (g, page))
    w = grades[handins["wrong"]]
    g = grades[handins["correct edited"]]
    check("--grade, `correct` edited to yes everywhere: flagged MISMATCH, the marks still the answers' (the wrong ones')",
          g["code"] == "MISMATCH" and [g[str(i)] for i in range(1, n + 1)] == [w[str(i)] for i in range(1, n + 1)], g)
    g = grades[handins["answer edited"]]
    m = numeric["exercise"]
    check(f"--grade, exercise {m}'s answer edited to the right one under the old code: flagged, that mark recomputed",
          g["code"] == "MISMATCH" and g[m] == "1" and w[m] == "0", (g, w))
    check("--grade names each edited hand-in on standard error", r.stderr.count("does not match") == 2, r.stderr)


def main():
    if not tally.check_model():
        return tally.finish()
    if not check("chromium is installed (scripts/install_packages.sh)", os.access(CHROMIUM, os.X_OK), CHROMIUM):
        return tally.finish()
    if not install_puppeteer(check):
        return tally.finish()
    shots = os.environ.get("HOMEWORK_SHOTS") or os.path.join(TMP, "shots")
    os.makedirs(shots, exist_ok=True)

    plain = os.path.join(TMP, "plain.html")
    r = run("lesson", DOG, "-o", plain)
    check("the page without --exercises has no homework", r.returncode == 0 and "exercises" not in page_data(plain)
          and re.search(r'<section id="homework" hidden>', open(plain).read()) is not None, r.stderr)

    # A bad exercises file: refused before the model runs, one line naming the file and line, no page.
    bad, out = os.path.join(TMP, "bad.exercises"), os.path.join(TMP, "bad.html")
    with open(bad, "w") as f:
        f.write("title: t\nexercise: e\nkind: essay\ntext: Why?\n")
    r = run("lesson", DOG, "-o", out, "--exercises", bad)
    check("lesson --exercises with an unknown kind: exit 2, one line naming the file and line, no page",
          r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "bad.exercises:3" in r.stderr
          and not os.path.exists(out) and not os.path.exists(out + ".tmp"), r.stderr)

    for photo in (DOG, CHELSEA):
        name = os.path.basename(photo)
        key_path, page = os.path.join(TMP, name + ".key.csv"), os.path.join(TMP, name + ".html")
        r = run("exercises", photo, "--exercises", EXERCISES, "--key", key_path)
        if not check(f"{name}: vitscope exercises --key", r.returncode == 0, r.stderr):
            continue
        with open(key_path) as f:
            key = list(csv.DictReader(f))
        r = run("lesson", photo, "-o", page, "--exercises", EXERCISES)
        if not check(f"{name}: vitscope lesson --exercises", r.returncode == 0, r.stderr):
            continue
        data = page_data(page)
        ex = data["exercises"]
        check(f"{name}: the page holds every exercise's setting", [(e["n"], e["kind"]) for e in ex]
              == [(int(k["exercise"]), k["kind"]) for k in key] and all(e["text"] for e in ex))
        check(f"{name}: settings as the key's (layer, head, query, the pinned key)",
              all(str(e.get("layer", "")) == k["layer"] and str("mean" if e.get("mean") else e.get("head", "")) == k["head"]
                  and str(e.get("query", "")) == k["query"]
                  and str(e.get("key", "")) == (k["key"] if k["kind"] != "top_key" else "") for e, k in zip(ex, key)),
              [(e, k) for e, k in zip(ex, key)][:2])
        check(f"{name}: no computed answer in the page (a choice's only as a code)",
              all(("answer_code" in e) == (e["kind"] == "choice") and "answer" not in e and "answers" not in e for e in ex)
              and all("key" not in e for e in ex if e["kind"] == "top_key")
              and not any(k["answer"] in json.dumps(e) for e, k in zip(ex, key) if k["kind"] in ("weight", "scaled_score")))

        plan, expect = plan_for(photo, key, data)
        plan_path = os.path.join(TMP, name + ".plan.json")
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        out = os.path.join(shots, name)
        os.makedirs(out, exist_ok=True)
        r = subprocess.run(["node", driver("homework_browser.mjs"), page, out, plan_path],
                           env=dict(NO_DISPLAY, CHROMIUM=CHROMIUM), capture_output=True, text=True, timeout=600)
        if not check(f"{name}: the Chromium session ran", r.returncode == 0, r.stderr[-2000:]):
            continue
        b = json.loads(r.stdout.strip().splitlines()[-1])
        check_session(f"{name} in Chromium", b, key, expect, plan)
        check(f"{name}: the homework is announced on a phone's first screen", not b["phoneBanner"]["hidden"]
              and b["phoneBanner"]["bottom"] <= b["phoneBanner"]["screen"], b["phoneBanner"])
        if photo == DOG:
            check_grades(key_path, b, key)
        first = next(a for a in plan["passes"]["right"] if a["type"] in ("click", "prefix"))
        if first["type"] == "click":
            check(f"{name}: a phone's tap answers a top_key exercise", (b.get("phone") or {}).get("verdict") == "right", b.get("phone"))
        check(f"{name}: nothing wider than a phone's screen", b["phoneOverflow"] <= 0, b["phoneOverflow"])

        if photo == DOG and check("firefox-esr is installed", os.access(FIREFOX, os.X_OK), FIREFOX):
            os.makedirs(os.path.join(out, "firefox"), exist_ok=True)
            r = subprocess.run(["node", driver("homework_browser.mjs"), page, os.path.join(out, "firefox"),
                                plan_path], env=dict(NO_DISPLAY, FIREFOX=FIREFOX), capture_output=True, text=True, timeout=600)
            if check("dog.jpg: the Firefox session ran", r.returncode == 0, r.stderr[-2000:]):
                check_session("dog.jpg in Firefox", json.loads(r.stdout.strip().splitlines()[-1]), key, expect, plan)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
