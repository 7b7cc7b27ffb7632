#!/usr/bin/env python3
"""`vitscope exercises IMAGE --key KEY.csv -o SHEET.html` (issue 35, item 2):
the printable worksheet on dog.jpg and chelsea.png with the sample exercises.
  - one section per exercise (data-exercise N as in the key), its title from
    the exercises file, its question as the key's exercise sets it (the
    query named in the text);
  - top_key and predict_region: the photo with the patch grid and the query
    outlined at the key's query (row, col); weight and scaled_score an answer
    line; choice its options, none marked;
  - no answer in it: no weight or scaled score the key holds, written to 2-6
    decimals, no top_key answer's patch name (unless the sheet names that
    token as a query or pinned key anyway), no checked option;
  - printed by Debian's chromium to PDF (pages counted);
  - refusals: -o not .html, -o the same file as --key: exit 2, one line,
    nothing written.
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, SRC, Tally

tally = Tally()
check = tally.check
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
GRID, PREFIX = 14, 1


def name_of(token):
    return "CLS" if token == 0 else f"patch ({(token - PREFIX) // GRID}, {(token - PREFIX) % GRID})"


def main():
    if not tally.check_model():
        return tally.finish()
    tmp = tempfile.mkdtemp(prefix="vitscope_worksheet_")
    try:
        titles = re.findall(r"^exercise:\s*(.+)$", open(EXERCISES).read(), re.M)
        for photo in (DOG, CHELSEA):
            name = os.path.basename(photo)
            key_path, sheet_path = os.path.join(tmp, name + ".csv"), os.path.join(tmp, name + ".html")
            r = subprocess.run([BIN, "exercises", photo, "--key", key_path, "-o", sheet_path, "--model", MODEL],
                               env=NO_DISPLAY, capture_output=True, text=True, timeout=600)
            if not check(f"{name}: vitscope exercises --key -o", r.returncode == 0 and os.path.exists(sheet_path), r.stderr):
                continue
            key = list(csv.DictReader(open(key_path)))
            sheet = open(sheet_path).read()
            text = re.sub(r'src="data:[^"]*"', 'src=""', sheet)  # the photo's bytes are not text
            sections = re.findall(r'<section class="exercise" data-exercise="(\d+)"><h2>\d+\. ([^<]*)</h2>(.*?)</section>', text, re.S)
            check(f"{name}: one section per exercise, numbered as in the key, titled as in the file",
                  [int(n) for n, _, _ in sections] == [int(k["exercise"]) for k in key]
                  and [t.replace("&amp;", "&") for _, t, _ in sections] == titles, [(n, t) for n, t, _ in sections][:3])
            named = set()
            for (n, _, body), k in zip(sections, key):
                kind = k["kind"]
                if k["query"]:
                    named.add(int(k["query"]))
                    check(f"{name}, exercise {n}: the question names its query", name_of(int(k["query"])) in body, body[:200])
                if k["key"] and kind != "top_key":
                    named.add(int(k["key"]))
                if kind in ("top_key", "predict_region"):
                    q = int(k["query"]) - PREFIX
                    rect = re.search(r'<rect class="query" x="(\d+)" y="(\d+)"', body)
                    lines = len(re.findall(r"<line ", body))
                    check(f"{name}, exercise {n} ({kind}): the photo, its {GRID} x {GRID} grid, the query outlined at its patch",
                          '<img src=""' in body and lines == 2 * (GRID - 1) and rect is not None
                          and (int(rect[1]), int(rect[2])) == (q % GRID, q // GRID), (rect and rect.groups(), lines))
                elif kind in ("weight", "scaled_score"):
                    check(f"{name}, exercise {n} ({kind}): an answer line, no photo", 'class="line"' in body and "<img" not in body)
                else:
                    check(f"{name}, exercise {n} (choice): the options, none marked",
                          body.count("<li>") >= 2 and "checked" not in body and "&#x2611;" not in body and "☑" not in body)
            answers = []
            for k in key:
                if k["kind"] in ("weight", "scaled_score"):
                    v = float(k["answer"])
                    answers += [f"{v:.{d}f}" for d in range(2, 7)]
            leaked = [a for a in answers if a in text]
            check(f"{name}: no weight or scaled score of the key appears (2-6 decimals)", not leaked, leaked)
            tops = [int(k["answer"]) for k in key if k["kind"] == "top_key"]
            shown = [t for t in tops if t not in named and name_of(t) in text]
            check(f"{name}: no top_key answer's token is named", not shown, [name_of(t) for t in shown])
            check(f"{name}: nothing says which is right", not re.search(r"correct|right answer|data-answer", text, re.I))
            if os.access(CHROMIUM, os.X_OK):
                pdf = os.path.join(tmp, name + ".pdf")
                subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile_{name}",
                                "--no-pdf-header-footer", f"--print-to-pdf={pdf}", "file://" + sheet_path],
                               capture_output=True, timeout=300)
                data = open(pdf, "rb").read() if os.path.exists(pdf) else b""
                pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
                print(f"    {name}: the worksheet prints on {pages} pages")
                check(f"{name}: chromium prints the worksheet to PDF", data.startswith(b"%PDF") and pages >= 2, pages)

        key_path, sheet_path = os.path.join(tmp, "k.csv"), os.path.join(tmp, "s.png")
        for args, what in ((["--key", key_path, "-o", sheet_path], "-o not .html"),
                           (["--key", os.path.join(tmp, "same.html"), "-o", os.path.join(tmp, "same.html")], "-o the --key file")):
            r = subprocess.run([BIN, "exercises", DOG, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)
            check(f"refused: {what}: exit 2, one line, nothing written",
                  r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(key_path)
                  and not os.path.exists(sheet_path) and not os.path.exists(os.path.join(tmp, "same.html")), r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
