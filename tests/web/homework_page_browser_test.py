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
    r = run("attention", photo, "--layer", str(layer), "--head", str(head), "--query", str(query))
    return np.array([float(row["weight"]) for row in csv.DictReader(io.StringIO(r.stdout))])


def rc(token):
    return (token - PREFIX) // GRID, (token - PREFIX) % GRID


def plan_for(photo, key, data):
    """The actions answering each exercise right and wrong, and what each pass must show."""
    right, wrong, expect = [], [], {}
    first_number = True
    for row in key:
        n, kind = int(row["exercise"]), row["kind"]
        e = next(x for x in data["exercises"] if x["n"] == n)
        if kind == "choice":
            answer = int(row["answer"])
            right.append({"n": n, "type": "radio", "option": answer})
            wrong.append({"n": n, "type": "radio", "option": 1 if answer != 1 else 2})
            expect[n] = {"right": str(answer), "wrong": str(1 if answer != 1 else 2)}
            continue
        w = attention_weights(photo, e["layer"], e["head"], e["query"])
        if kind == "top_key":
            token = int(row["answer"])
            right.append({"n": n, "type": "prefix", "token": token} if token < PREFIX
                         else {"n": n, "type": "click", "row": rc(token)[0], "col": rc(token)[1]})
            low = PREFIX + int(np.argmin(w[PREFIX:]))
            wrong.append({"n": n, "type": "click", "row": rc(low)[0], "col": rc(low)[1]})
            expect[n] = {"right": str(token), "wrong": str(low), "key": token}
        elif kind in ("weight", "scaled_score"):
            value, tol = float(row["answer"]), float(row["tolerance"])
            typed = f"{value:.4f}"
            off = f"{value + 10 * tol:.4f}"
            action = {"n": n, "type": "type", "text": typed}
            if first_number:
                action["first"] = "about a half"  # not a number: a note, nothing lost
                first_number = False
            right.append(action)
            wrong.append({"n": n, "type": "type", "text": off})
            expect[n] = {"right": str(float(typed)), "wrong": str(float(off)), "value": value, "tolerance": tol}
        elif kind == "predict_region":
            order = PREFIX + np.argsort(w[PREFIX:], kind="stable")
            heavy, light = sorted(order[-3:].tolist()), sorted(order[:3].tolist())
            right.append({"n": n, "type": "mark", "patches": [rc(j) for j in heavy]})
            wrong.append({"n": n, "type": "mark", "patches": [rc(j) for j in light]})
            ratio = lambda marked: w[marked].sum() / (len(marked) / GRID**2 * w[PREFIX:].sum())
            expect[n] = {"right": " ".join(map(str, heavy)), "wrong": " ".join(map(str, light)),
                         "ratio": {"right": ratio(heavy), "wrong": ratio(light)}, "pass": float(row["tolerance"])}
    return {"passes": {"right": right, "wrong": wrong}}, expect


def check_session(name, b, key, expect):
    check(f"{name}: no request leaves the file", not b["requests"], b["requests"][:5])
    check(f"{name}: no script error", not b["errors"], b["errors"][:3])
    for pass_name in ("right", "wrong"):
        p = b["passes"][pass_name]
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
                check(f"{tag}: the arithmetic of that key is shown (5 steps)", seen["arithmetic"] == 5, seen)
            elif kind in ("weight", "scaled_score"):
                check(f"{tag}: the page's value within the tolerance of the key's", seen["answer"] is not None
                      and abs(float(seen["answer"]) - want["value"]) <= want["tolerance"], (seen["answer"], want["value"]))
                check(f"{tag}: the arithmetic is shown (5 steps)", seen["arithmetic"] == 5, seen)
                if seen.get("afterFirst"):
                    f = seen["afterFirst"]
                    check(f"{tag}: text that is not a number gives a note beside it, keeps the text, no verdict",
                          f["note"] is not None and "not a number" in f["note"] and f["typed"] == "about a half"
                          and f["verdict"] is None, f)
            else:
                check(f"{tag}: the teacher's answer is the page's", seen["answer"] == row["answer"], seen)
        # Numbers compared as numbers (the page writes 0.5 as JavaScript does, "0.5"; 0 as "0").
        same = lambda a, b: a == b or (re.fullmatch(r"[-+.0-9e]+", a or "x") and re.fullmatch(r"[-+.0-9e]+", b or "x")
                                       and float(a) == float(b))
        rows = [{**r, "answer": next((w for w in [expect[int(r["exercise"])][pass_name]] if same(w, r["answer"])), r["answer"])}
                for r in csv.DictReader(io.StringIO(p["download"]["csv"] or ""))]
        want_rows = [{"exercise": r["exercise"], "answer": expect[int(r["exercise"])][pass_name],
                      "correct": "yes" if p["exercises"][r["exercise"]]["verdict"] == "right" else "no"} for r in key]
        check(f"{name}, {pass_name}: the downloaded CSV (exercise,answer,correct) holds every answer and verdict",
              (p["download"]["csv"] or "").startswith("exercise,answer,correct\n") and rows == want_rows,
              (p["download"]["name"], rows[:3], want_rows[:3]))
        again = p.get("afterReload") or []
        check(f"{name}, {pass_name}: a reload keeps every checked answer (same verdict and page answer, locked)",
              [(x["verdict"], x["answer"], x["locked"]) for x in again]
              == [(p["exercises"][r["exercise"]]["verdict"], p["exercises"][r["exercise"]]["answer"], True) for r in key],
              again[:3])
        check(f"{name}, {pass_name}: after the last check the math panel shows its query",
              "query" in p["math"].lower(), p["math"][:80])


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
              all(str(e.get("layer", "")) == k["layer"] and str(e.get("head", "")) == k["head"]
                  and str(e.get("query", "")) == k["query"] and str(e.get("key", "")) == k["key"] for e, k in zip(ex, key)),
              [(e, k) for e, k in zip(ex, key)][:2])
        check(f"{name}: no computed answer in the page (only a choice's)",
              all(("answer" in e) == (e["kind"] == "choice") for e in ex)
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
        check_session(f"{name} in Chromium", b, key, expect)
        first = next(a for a in plan["passes"]["right"] if a["type"] in ("click", "prefix"))
        if first["type"] == "click":
            check(f"{name}: a phone's tap answers a top_key exercise", (b.get("phone") or {}).get("verdict") == "right", b.get("phone"))
        check(f"{name}: nothing wider than a phone's screen", b["phoneOverflow"] <= 0, b["phoneOverflow"])

        if photo == DOG and check("firefox-esr is installed", os.access(FIREFOX, os.X_OK), FIREFOX):
            os.makedirs(os.path.join(out, "firefox"), exist_ok=True)
            r = subprocess.run(["node", driver("homework_browser.mjs"), page, os.path.join(out, "firefox"),
                                plan_path], env=dict(NO_DISPLAY, FIREFOX=FIREFOX), capture_output=True, text=True, timeout=600)
            if check("dog.jpg: the Firefox session ran", r.returncode == 0, r.stderr[-2000:]):
                check_session("dog.jpg in Firefox", json.loads(r.stdout.strip().splitlines()[-1]), key, expect)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
