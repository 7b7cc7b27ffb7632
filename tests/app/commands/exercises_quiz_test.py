#!/usr/bin/env python3
"""The homework as a quiz an LMS imports (issue 50, item 6):
`vitscope exercises dog.jpg --variants 2 --key KEY.csv --moodle QUIZ.xml --gift QUIZ.txt`
on the sample exercises.

Moodle XML, read with Python's own XML parser (xml.etree), against Moodle's
documented format (docs.moodle.org/en/Moodle_XML_format): a <quiz> of
<question> elements; one category per exercise holding that exercise's
questions, one per variant; every question has a name, an HTML question text
and its answers; a numerical question's answer and tolerance equal the key's
(its answer, and half the width of its accepted interval); a multichoice
question's right options are the key's (a choice's options, top_key's
accepted keys), their fractions sum to 100 and each is one of Moodle's
allowed grades, <single> true exactly when one is right; every image the text
refers to (@@PLUGINFILE@@/NAME) is a <file> of that question holding a PNG;
predict_region is left out (said on standard error).

GIFT (docs.moodle.org/en/GIFT_format): each question ::NAME::TEXT {...}: a
numerical {#ANSWER:TOLERANCE} equal to the key's; a choice's options with =
for the right one (or %share% for several right).
"""
import base64
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, SRC, Tally

tally = Tally()
check = tally.check
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
ALLOWED = {100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5,
           11.11111, 10, 5, 0}


def allowed(fraction):
    return any(abs(abs(fraction) - a) < 1e-4 for a in ALLOWED)


def main():
    if not tally.check_model():
        return tally.finish()
    tmp = tempfile.mkdtemp(prefix="vitscope_quiz_")
    try:
        key_path, xml_path, gift_path = (os.path.join(tmp, n) for n in ("key.csv", "quiz.xml", "quiz.txt"))
        r = subprocess.run([BIN, "exercises", DOG, "--exercises", EXERCISES, "--variants", "2", "--key", key_path,
                            "--moodle", xml_path, "--gift", gift_path, "--model", MODEL],
                           env=NO_DISPLAY, capture_output=True, text=True, timeout=600)
        if not check("exercises --moodle --gift --variants 2: exit 0", r.returncode == 0, r.stderr):
            return tally.finish()
        key = {(k["variant"], int(k["exercise"])): k for k in csv.DictReader(open(key_path, newline=""))}
        asked = {v: e for v, e in key if key[v, e]["kind"] != "predict_region"}
        regions = sum(1 for k in key.values() if k["kind"] == "predict_region")
        check(f"standard error says the {regions} predict_region questions are left out",
              f"{regions} predict_region left out" in r.stderr, r.stderr)

        root = ET.parse(xml_path).getroot()
        check("the file is a Moodle <quiz>", root.tag == "quiz")
        category, seen = None, []
        for q in root.findall("question"):
            if q.get("type") == "category":
                category = q.find("category/text").text
                continue
            name = q.find("name/text").text
            m = re.match(r"(\d+)\. .* \(dog\.jpg, variant (\d+)\)$", name)
            if not check(f"question '{name}': named exercise and variant", m is not None):
                continue
            e, v = int(m[1]), m[2]
            k = key[v, e]
            seen.append((v, e))
            check(f"{name}: in its exercise's category", category is not None and category.startswith("$course$/vitscope/dog.jpg/")
                  and category.split("/")[-1].startswith(f"{e}. "), category)
            text = q.find("questiontext/text").text or ""
            files = {f.get("name"): f for f in q.findall("questiontext/file")}
            refs = re.findall(r"@@PLUGINFILE@@/([^\"]+)", text)
            check(f"{name}: every image it shows is its own file, a PNG",
                  all(n in files and files[n].get("encoding") == "base64"
                      and base64.b64decode(files[n].text).startswith(b"\x89PNG") for n in refs)
                  and (bool(refs) == (k["kind"] != "choice")), (refs, list(files)))
            answers = q.findall("answer")
            if q.get("type") == "numerical":
                low, high = (float(x) for x in k["accepted"].split())
                a = answers[0]
                check(f"{name}: numerical, its answer and tolerance the key's ({k['answer']} ± {(high - low) / 2:.6g})",
                      len(answers) == 1 and a.get("fraction") == "100" and abs(float(a.find("text").text) - float(k["answer"]))
                      <= 1e-9 * max(1, abs(float(k["answer"]))) and abs(float(a.find("tolerance").text) - (high - low) / 2)
                      <= 1e-9 * max(1, high - low), (a.find("text").text, a.find("tolerance").text))
            else:
                fractions = [float(a.get("fraction")) for a in answers]
                options = [a.find("text").text for a in answers]
                right = [o for o, f in zip(options, fractions) if f > 0]
                if k["kind"] == "choice":  # the options in the file's order (not shuffled): the key's numbers
                    want = [options[int(i) - 1] for i in k["accepted"].split()]
                else:  # top_key: the accepted keys among the options
                    want = [o for o in options if o in k["marking"]]
                    check(f"{name}: the key's answer ({k['as_asked']}) is a right option", k["as_asked"] in right, right)
                check(f"{name}: multichoice, the key's right options, fractions summing to 100, each allowed",
                      q.get("type") == "multichoice" and right == want and abs(sum(f for f in fractions if f > 0) - 100) < 1e-3
                      and all(allowed(f) for f in fractions)
                      and (q.find("single").text == "true") == (len(right) == 1), (right, want, fractions))
        check("one question per variant of every exercise but predict_region", sorted(seen) == sorted(asked.items()) or
              sorted(seen) == sorted(k for k in key if key[k]["kind"] != "predict_region"), len(seen))

        gift = open(gift_path, encoding="utf-8").read()
        blocks = re.findall(r"::((?:[^:\\]|\\.)+)::((?:[^{\\]|\\.)*)\{(.*?)\}\n", gift, re.S)
        check("GIFT: one question per variant of every exercise but predict_region",
              len(blocks) == len([k for k in key.values() if k["kind"] != "predict_region"]), len(blocks))
        for name, _, body in blocks:
            m = re.match(r"(\d+)\. .* \(dog\.jpg, variant (\d+)\)$", name.replace("\\", ""))
            k = key[m[2], int(m[1])]
            if body.startswith("#"):
                answer, tol = (float(x) for x in body[1:].split(":"))
                low, high = (float(x) for x in k["accepted"].split())
                check(f"GIFT {name}: numerical, the key's answer and tolerance",
                      abs(answer - float(k["answer"])) <= 1e-9 * max(1, abs(answer)) and abs(tol - (high - low) / 2) <= 1e-9 * max(1, tol),
                      body)
            elif k["kind"] == "choice":
                marks = re.findall(r"\n  (=|~%[0-9.]+%|~%-100%|~)", body)
                right = [i + 1 for i, m in enumerate(marks) if m == "=" or (m.startswith("~%") and m != "~%-100%")]
                check(f"GIFT {name}: the key's right options ({k['accepted']})",
                      right == [int(i) for i in k["accepted"].split()], (right, marks))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
