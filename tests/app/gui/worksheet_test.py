#!/usr/bin/env python3
"""`vitscope exercises IMAGE --key KEY.csv -o SHEET.html|.pdf|.png` (issue 50,
item 1): the paper worksheet on dog.jpg and chelsea.png with the sample
exercises.
  - one section per exercise (data-exercise N as in the key), its title from
    the exercises file, its question as the key's exercise sets it (the query
    named as "(row, col)", as the key's query_patch);
  - the printed numbers suffice: every computed exercise is answered here from
    the numbers the sheet prints alone (top_key: the largest printed q·k or
    mean weight, every other key's below it; weight: exp(q·k / √dₖ) / Z, or
    the mean of the heads'; scaled_score: q·k / √dₖ), and each answer is one
    the key accepts;
  - top_key and predict_region: the photo with the patch grid and the query
    outlined at the key's query (row, col); the numeric kinds an answer line
    saying the precision; choice its options, none marked;
  - no answer in it: no weight or scaled score of the key to 2-6 decimals, no
    checked option, nothing saying which is right; no instruction that needs
    a screen (click, tap, button, hover, page);
  - the PDF (cairo) on A4 and on Letter: its page size, every printed number
    in its text (pdftotext), every page rendered (pdftoppm) with ink on it and
    the photo in colour; the PNG: the A4 pages stacked at 150 dpi;
  - refusals: -o not .html/.pdf/.png, --paper a5, -o the same file as --key:
    exit 2, one line, nothing written.
"""
import csv
import html
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, SRC, Tally

tally = Tally()
check = tally.check
EXERCISES = os.path.join(SRC, "assets", "exercises", "first-look.exercises")
GRID, PREFIX = 14, 1
A4, LETTER = (595.28, 841.89), (612, 792)


def vitscope(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)


def given_numbers(body):
    return {m[0]: float(m[1]) for m in re.findall(r'data-given="([^"]+)" data-value="([^"]+)"', body)}


def solve(kind, g, mean):
    """The answer from the printed numbers alone, as a student with a calculator would."""
    if kind == "top_key":
        prefix = "mean_weight@" if mean else "score@"
        cands = {int(k[len(prefix):]): v for k, v in g.items() if k.startswith(prefix)}
        best = max(cands, key=cands.get)
        return best if cands[best] > g["other_max"] else None
    if kind == "weight":
        if mean:
            heads = sorted({k.split("@h")[1] for k in g if "@h" in k})
            return sum(math.exp(g[f"score@h{h}"] / g["sqrt_dk"]) / g[f"z@h{h}"] for h in heads) / len(heads)
        return math.exp(g["score"] / g["sqrt_dk"]) / g["z"]
    if kind == "scaled_score":
        return g["score"] / g["sqrt_dk"]
    if kind == "score":
        return g["scaled"] * g["sqrt_dk"]
    if kind == "exp":
        return math.exp(g["score"] / g["sqrt_dk"])
    if kind == "z":
        return sum(math.exp(v) for k, v in g.items() if k.startswith("scaled@")) + g["rest"]
    return None


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def check_pdf(name, pdf, paper, numbers, tmp):
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info)[1])
    w, h = (float(x) for x in re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info).groups())
    want = A4 if paper == "a4" else LETTER
    print(f"    {name}: the {paper} PDF has {pages} pages of {w:.0f} x {h:.0f} pt")
    check(f"{name}: the {paper} PDF's pages are {paper} ({want[0]:.0f} x {want[1]:.0f} pt), 2 or more",
          pages >= 2 and abs(w - want[0]) < 1 and abs(h - want[1]) < 1, info)
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
    missing = [n for n in numbers if n not in text]
    check(f"{name}: every number the worksheet gives is in the {paper} PDF's text ({len(numbers)})", not missing, missing[:5])
    check(f"{name}: the {paper} PDF says (row, column) and holds every exercise",
          "(row, column)" in text and all(f"{i}. " in text for i in range(1, 11)), text[:300])
    out = os.path.join(tmp, f"{name}_{paper}")
    subprocess.run(["pdftoppm", "-r", "40", "-png", pdf, out], check=True)
    shots = sorted(f for f in os.listdir(tmp) if f.startswith(f"{name}_{paper}") and f.endswith(".png"))
    from PIL import Image
    inked, coloured = 0, 0
    for f in shots:
        im = Image.open(os.path.join(tmp, f)).convert("RGB")
        px = list(im.getdata())
        inked += sum(1 for p in px if sum(p) < 300) > 50
        coloured += sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) > 40) > 200
    check(f"{name}: pdftoppm renders the {paper} PDF's {len(shots)} pages, each with ink, the photo in colour",
          len(shots) == pages and inked == pages and coloured >= 1, (len(shots), inked, coloured))


def main():
    if not tally.check_model():
        return tally.finish()
    tmp = tempfile.mkdtemp(prefix="vitscope_worksheet_")
    try:
        titles = re.findall(r"^exercise:\s*(.+)$", open(EXERCISES).read(), re.M)
        for photo in (DOG, CHELSEA):
            name = os.path.basename(photo)
            key_path, sheet_path = os.path.join(tmp, name + ".csv"), os.path.join(tmp, name + ".html")
            r = vitscope("exercises", photo, "--key", key_path, "-o", sheet_path)
            if not check(f"{name}: vitscope exercises --key -o", r.returncode == 0 and os.path.exists(sheet_path), r.stderr):
                continue
            key = list(csv.DictReader(open(key_path)))
            sheet = open(sheet_path).read()
            text = re.sub(r'src="data:[^"]*"', 'src=""', sheet)  # the photo's bytes are not text
            sections = re.findall(r'<section class="exercise" data-exercise="(\d+)"><h2>\d+\. ([^<]*)</h2>(.*?)</section>', text, re.S)
            check(f"{name}: one section per exercise, numbered as in the key, titled as in the file",
                  [int(n) for n, _, _ in sections] == [int(k["exercise"]) for k in key]
                  and [html.unescape(t) for _, t, _ in sections] == titles, [(n, t) for n, t, _ in sections][:3])
            printed = []
            for (n, _, body), k in zip(sections, key):
                kind = k["kind"]
                if k["query"]:
                    check(f"{name}, exercise {n}: the question names its query as the key does, {k['query_patch']}",
                          k["query_patch"] in html.unescape(body), body[:200])
                g = given_numbers(body)
                printed += re.findall(r'data-value="([^"]+)"', body)
                if kind in ("top_key", "predict_region"):
                    q = int(k["query"]) - PREFIX
                    rect = re.search(r'<rect class="query" x="(\d+)" y="(\d+)"', body)
                    lines = len(re.findall(r"<line ", body))
                    check(f"{name}, exercise {n} ({kind}): the photo, its {GRID} x {GRID} grid, the query outlined at its patch",
                          '<img src=""' in body and lines == 2 * (GRID - 1) and rect is not None
                          and (int(rect[1]), int(rect[2])) == (q % GRID, q // GRID), (rect and rect.groups(), lines))
                if kind == "choice":
                    check(f"{name}, exercise {n} (choice): the options numbered, none marked",
                          body.count("<li>") >= 2 and "<li>1. " in body and "checked" not in body and "☑" not in body)
                elif kind in ("weight", "scaled_score", "score", "exp", "z"):
                    check(f"{name}, exercise {n} ({kind}): an answer line saying the precision, no photo",
                          'class="line"' in body and "<img" not in body and re.search(r"Answer \(\d+ (decimals|significant)", body))
                if kind in ("choice", "predict_region"):
                    continue
                answer = solve(kind, g, k["head"] == "mean")
                if kind == "top_key":
                    accepted = [int(x) for x in k["accepted"].split()]
                    check(f"{name}, exercise {n} (top_key{', mean' if k['head'] == 'mean' else ''}): the largest printed "
                          f"number is a key the key accepts ({answer} in {accepted}), among {len(g) - 1} printed",
                          answer in accepted and len(g) >= 4, g)
                else:
                    low, high = (float(x) for x in k["accepted"].split())
                    check(f"{name}, exercise {n} ({kind}): from the printed numbers alone {answer:.6g}, within the key's "
                          f"{low:.6g} to {high:.6g}", answer is not None and low <= answer <= high, (g, k["answer"]))
            answers = []
            for k in key:
                if k["kind"] in ("weight", "scaled_score"):
                    v = float(k["answer"])
                    answers += [f"{v:.{d}f}" for d in range(2, 7)]
            visible = re.sub(r"<[^>]+>", " ", text)
            tokens = set(re.findall(r"-?\d+\.\d+", visible))  # whole numbers, not digits inside a longer one
            leaked = [a for a in answers if a in tokens]
            check(f"{name}: no weight or scaled score of the key appears (2-6 decimals)", not leaked, leaked)
            check(f"{name}: nothing says which is right", not re.search(r"correct|right answer|data-answer", text, re.I))
            screen = re.findall(r"\b(click|tap|button|hover|the page|screen)\b", visible, re.I)
            check(f"{name}: no instruction that needs a screen", not screen, screen[:5])

            if photo != DOG:
                continue
            for paper in ("a4", "letter"):
                pdf = os.path.join(tmp, f"{name}_{paper}.pdf")
                r = vitscope("exercises", photo, "--key", pdf + ".csv", "-o", pdf, "--paper", paper)
                if check(f"{name}: -o SHEET.pdf --paper {paper}", r.returncode == 0 and open(pdf, "rb").read(5) == b"%PDF-",
                         r.stderr):
                    check_pdf(name, pdf, paper, sorted(set(printed)), tmp)
            png = os.path.join(tmp, name + ".png")
            r = vitscope("exercises", photo, "--key", png + ".csv", "-o", png)
            if check(f"{name}: -o SHEET.png", r.returncode == 0 and os.path.exists(png), r.stderr):
                w, h = png_size(png)
                pages = round((h + 12) / (round(A4[1] * 150 / 72) + 12))
                check(f"{name}: the PNG is the A4 pages at 150 dpi, stacked ({w} x {h}: {pages} pages)",
                      w == round(A4[0] * 150 / 72) and pages >= 2 and h == pages * (round(A4[1] * 150 / 72) + 12) - 12, (w, h))

        key_path, sheet_path = os.path.join(tmp, "k.csv"), os.path.join(tmp, "s.txt")
        for args, what in ((["--key", key_path, "-o", sheet_path], "-o not .html, .pdf or .png"),
                           (["--key", key_path, "-o", os.path.join(tmp, "s.pdf"), "--paper", "a5"], "--paper a5"),
                           (["--key", os.path.join(tmp, "same.html"), "-o", os.path.join(tmp, "same.html")], "-o the --key file")):
            r = vitscope("exercises", DOG, *args)
            check(f"refused: {what}: exit 2, one line, nothing written",
                  r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and not os.path.exists(key_path)
                  and not os.path.exists(sheet_path) and not os.path.exists(os.path.join(tmp, "s.pdf"))
                  and not os.path.exists(os.path.join(tmp, "same.html")), r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
