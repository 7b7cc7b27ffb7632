#!/usr/bin/env python3
"""One variant of the homework per student (issue 50, item 3), on dog.jpg with
the sample exercises (assets/exercises/first-look.exercises, whose vary:
lines move a head or a query by one a student):
  - `vitscope lesson --exercises FILE --students roster.csv -o DIR` writes one
    page per student, named after the student, the name and the variant in
    the page's data; student i gets variant i + 1;
  - `vitscope exercises --students roster.csv --key KEY.csv` writes one key
    covering every variant; each variant's settings are the pages' own, and
    follow the stated rule (head + v - 1 mod the heads; the query v - 1
    patches on in row-major order), everything else as variant 1;
  - every variant's answer checked against `vitscope attention` on its own
    layer, head and query (top_key the argmax, weight the weight, the
    scaled score q·k / √dₖ from the attention CSV's scaled column);
  - two students' pages give different answers to each exercise that varies;
  - --grade on a hand-in written here for variant 2 (its code computed here
    with FNV-1a, independently of the page) gives every mark, and the same
    answers graded as variant 1 do not;
  - refusals: a roster without a name column, --variants 0, --students
    without --exercises: exit 2, one line, nothing written.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, SRC, Tally

tally = Tally()
check = tally.check
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
GRID, PREFIX, HEADS = 14, 1, 3
STUDENTS = ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


def vitscope(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)


def page_data(path):
    with open(path) as f:
        return json.loads(re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', f.read(), re.S)[1])


def varies(path):
    """exercise number -> the words of its vary: line."""
    out, n = {}, 0
    for line in open(path, encoding="utf-8"):
        key, _, value = line.strip().partition(":")
        if key == "exercise":
            n += 1
        elif key == "vary":
            out[n] = value.split()
    return out


def fnv1a(text):
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


cache = {}


def attention(layer, head, query):
    if (layer, head, query) not in cache:
        heads = ["--mean-heads"] if head == "mean" else ["--head", str(head)]
        r = vitscope("attention", DOG, "--layer", str(layer), *heads, "--query", str(query))
        cache[layer, head, query] = {int(d["key"]): d for d in csv.DictReader(io.StringIO(r.stdout))}
    return cache[layer, head, query]


def main():
    if not tally.check_model():
        return tally.finish()
    tmp = tempfile.mkdtemp(prefix="vitscope_variants_")
    try:
        roster = os.path.join(tmp, "roster.csv")
        with open(roster, "w") as f:
            f.write("name,class\n" + "".join(f"{s},2b\n" for s in STUDENTS))
        pages_dir, key_path = os.path.join(tmp, "pages"), os.path.join(tmp, "key.csv")
        r = vitscope("lesson", DOG, "--exercises", EXERCISES, "--students", roster, "-o", pages_dir)
        if not check("lesson --students: exit 0", r.returncode == 0, r.stderr):
            return tally.finish()
        files = sorted(os.listdir(pages_dir))
        check("one page per student, named after the student and variant", files == [
            "homework-Ada_Lovelace-v1.html", "homework-Alan_Turing-v2.html", "homework-Grace_Hopper-v3.html"], files)
        pages = {int(re.search(r"-v(\d)\.html", f)[1]): page_data(os.path.join(pages_dir, f)) for f in files}
        check("each page carries its student's name and variant",
              [(pages[v]["student"], pages[v]["variant"]) for v in (1, 2, 3)] == [(s, str(v)) for v, s in
                                                                                   zip((1, 2, 3), STUDENTS)])
        r = vitscope("exercises", DOG, "--exercises", EXERCISES, "--students", roster, "--key", key_path)
        if not check("exercises --students --key: exit 0", r.returncode == 0, r.stderr):
            return tally.finish()
        key = list(csv.DictReader(open(key_path, newline="")))
        by = {(int(k["variant"]), int(k["exercise"])): k for k in key}
        n = max(e for _, e in by)
        check(f"one key covers the 3 variants x {n} exercises", sorted(by) == [(v, e) for v in (1, 2, 3)
                                                                               for e in range(1, n + 1)], len(key))
        vary = varies(EXERCISES)
        for v in (1, 2, 3):
            for ex in pages[v]["exercises"]:
                k = by[v, ex["n"]]
                head = "mean" if ex.get("mean") else str(ex.get("head", ""))
                check(f"variant {v} exercise {ex['n']}: the page's setting is the key's",
                      (str(ex.get("layer", "")), head, str(ex.get("query", "")), str(ex.get("key", "")))
                      == (k["layer"], k["head"], k["query"], k["key"] if ex["kind"] != "top_key" else ""), (ex, k))
        for (v, e), k in sorted(by.items()):
            base = by[1, e]
            if k["kind"] in ("choice",):
                continue
            words = vary.get(e, [])
            want_head = base["head"] if "head" not in words or base["head"] == "mean" else str((int(base["head"]) + v - 1) % HEADS)
            q0 = int(base["query"]) - PREFIX
            want_query = str(PREFIX + (q0 + v - 1) % (GRID * GRID)) if "query" in words else base["query"]
            check(f"variant {v} exercise {e} ({k['kind']}, vary: {' '.join(words) or '-'}): by the stated rule",
                  (k["layer"], k["head"], k["query"]) == (base["layer"], want_head, want_query), (k, base))
            row = attention(int(k["layer"]), k["head"], int(k["query"]))
            if k["kind"] == "top_key":
                top = max(row, key=lambda j: float(row[j]["weight"]))
                check(f"variant {v} exercise {e}: top_key is vitscope attention's argmax ({top})", int(k["answer"]) == top, k)
            elif k["kind"] == "weight":
                w = float(row[int(k["key"])]["weight"])
                check(f"variant {v} exercise {e}: the weight is vitscope attention's ({w:.6g})",
                      abs(float(k["answer"]) - w) <= 1e-6 * max(1, w), k["answer"])
            elif k["kind"] == "scaled_score":
                sc = float(row[int(k["key"])]["scaled"])
                check(f"variant {v} exercise {e}: the scaled score is vitscope attention's ({sc:.6g})",
                      abs(float(k["answer"]) - sc) <= 1e-4 * max(1, abs(sc)), k["answer"])
        for e, words in sorted(vary.items()):
            one, two = by[1, e], by[2, e]
            differ = (one["answer"], one["accepted"], one["weights"]) != (two["answer"], two["accepted"], two["weights"])
            check(f"exercise {e} (vary: {' '.join(words)}): students 1 and 2 have different answers", differ,
                  (one["answer"], two["answer"]))

        # A hand-in for variant 2 with every right answer, its code computed here.
        rows = []
        for e in range(1, n + 1):
            k = by[2, e]
            if k["kind"] in ("weight", "scaled_score"):
                answer = k["answer"]
            elif k["kind"] == "predict_region":
                w = [float(x) for x in k["weights"].split()]
                answer = " ".join(str(PREFIX + j) for j in sorted(range(len(w)), key=lambda j: -w[j])[:3])
            else:
                answer = k["answer"]
            rows.append((e, by[2, e]["kind"], answer, "yes"))
        for variant, name in (("2", "ok"), ("1", "as variant 1")):
            code = fnv1a(f"vitscope hand-in 1\n{STUDENTS[1]}\n{variant}" + "".join(f"\n{e}\t{a}\t{c}" for e, _, a, c in rows))
            path = os.path.join(tmp, f"handin_{variant}.csv")
            with open(path, "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["student", "variant", "exercise", "kind", "answer", "correct", "code"])
                w.writerows([STUDENTS[1], variant, e, kind, a, c, code] for e, kind, a, c in rows)
        out = os.path.join(tmp, "grades.csv")
        r = vitscope("exercises", "--grade", key_path, os.path.join(tmp, "handin_2.csv"), os.path.join(tmp, "handin_1.csv"),
                     "-o", out)
        grades = list(csv.DictReader(open(out, newline=""))) if r.returncode == 0 else []
        if check("--grade on two hand-ins: exit 0", len(grades) == 2, r.stderr):
            g2, g1 = grades
            heavy = next(e for e in range(1, n + 1) if by[2, e]["kind"] == "predict_region")
            check("variant 2's right answers: the code (computed here) matches, every mark but perhaps the region's",
                  g2["code"] == "ok" and g2["variant"] == "2"
                  and all(g2[str(e)] == "1" for e in range(1, n + 1) if e != heavy), g2)
            check("the same answers graded as variant 1: the varied exercises' marks are lost",
                  g1["code"] == "ok" and int(g1["total"]) < int(g2["total"]), (g1["total"], g2["total"]))

        bad = os.path.join(tmp, "bad_roster.csv")
        with open(bad, "w") as f:
            f.write("who\nAda\n")
        for args, what in ((["lesson", DOG, "--exercises", EXERCISES, "--students", bad, "-o", os.path.join(tmp, "b1")],
                            "a roster without a name column"),
                           (["lesson", DOG, "--exercises", EXERCISES, "--variants", "0", "-o", os.path.join(tmp, "b2")],
                            "--variants 0"),
                           (["lesson", DOG, "--students", roster, "-o", os.path.join(tmp, "b3")], "--students without --exercises")):
            r = vitscope(*args)
            check(f"refused: {what}: exit 2, one line, nothing written", r.returncode == 2
                  and len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(args[-1]), r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
