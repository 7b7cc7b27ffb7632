#!/usr/bin/env python3
"""`vitscope lesson IMAGE -o OUT.html`: the lesson page as a file, without a
browser (tests/web/lesson_page_browser_test.py opens it in chromium).

dog.jpg on the default model: one self-contained file (no URL anywhere, no
src/href attribute in a tag, no <link>, no @import), at most 8 MB; its q, k and v are
`vitscope dump`'s float32 values rounded to 16 bits, bit for bit, in the
documented layout; its photo is the model input's crop (against the model's
own input, un-normalised); its top-5 are `vitscope classify --top 5`'s; the
tour's steps carry filled-in text and the state the window has at each step
(the softmax step: the ear, patch 5,3, and the head its claim chose on the photo, as
`vitscope tour --claims` reports it). --size 448 gives a 28 x 28 grid.
Refusals: exit 2, one line `vitscope: error: ...`, no OUT, no OUT.tmp, and an
existing OUT unchanged.
"""
import atexit
import base64
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
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_lesson_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
EIGHT_MB = 8 * 1000 * 1000


def vitscope(*args, env=None):
    return subprocess.run([BIN, *args, "--model", MODEL], env=env or NO_DISPLAY, capture_output=True, text=True, timeout=600)


def page_data(html):
    m = re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def refused(name, args, out, cause, env=None, before=None):
    """Exit 2, one stderr line naming the cause, no OUT.tmp, OUT absent or as it was."""
    r = vitscope(*args, env=env)
    lines = r.stderr.strip().splitlines()
    one_line = len(lines) == 1 and lines[0].startswith("vitscope: error: ") and cause in lines[0]
    untouched = (not os.path.exists(out)) if before is None else open(out, "rb").read() == before
    check(f"refused: {name}", r.returncode == 2 and one_line and untouched and not os.path.exists(out + ".tmp"),
          f"exit {r.returncode}, stderr {r.stderr!r}")


MARKERS = "{{TITLE}} /*{{LESSON_CSS}}*/ {{LESSON_DATA}} //{{LESSON_MATH_JS}} //{{LESSON_JS}}"


def markers_in_names():
    """The template's markers inside a photo's name and a tour's titles (issue
    33): filled in one pass, so the page's data and scripts stay whole and the
    names come back as written."""
    photo_name = "{{TITLE}}{{LESSON_DATA}}{{LESSON_CSS}}{{LESSON_JS}}.jpg"  # a file name holds no '/'
    photo = os.path.join(TMP, photo_name)
    shutil.copy(DOG, photo)
    tour = os.path.join(TMP, "markers.tour")
    with open(tour, "w") as f:
        f.write(f"title: {MARKERS}\nstep: {MARKERS}\nstate: tab=math layer=0 head=0 query=cls pin=none map=head\n"
                "panel: photo\ntext: The photo.\n")
    out = os.path.join(TMP, "markers.html")
    r = vitscope("lesson", photo, "-o", out, "--tour", tour)
    check("a photo and a tour named with every marker: the page is written", r.returncode == 0, r.stderr)
    if r.returncode != 0:
        return
    html = open(out, encoding="utf-8").read()
    try:
        data = page_data(html)
    except (ValueError, AttributeError) as e:
        check("markers in names: the page's data is JSON", False, e)
        return
    check("markers in names: the photo's name and the tour's titles come back as written",
          data["photo"] == photo_name and data["tour"]["title"] == MARKERS and data["tour"]["steps"][0]["title"] == MARKERS,
          (data["photo"], data["tour"]))
    check("markers in names: each script once, outside the data",
          html.count("const LessonMath") == 1 and html.count("lessonTimings") >= 1
          and "const LessonMath" not in json.dumps(data) and "lessonTimings" not in json.dumps(data))
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    check("markers in names: the <title> is the photo's name alone", title == "vitscope lesson: " + photo_name, title[:200])


def main():
    if not tally.check_model():
        return tally.finish()
    out = os.path.join(TMP, "dog.html")
    r = vitscope("lesson", DOG, "-o", out)
    check("vitscope lesson writes the page", r.returncode == 0 and os.path.isfile(out), r.stderr)
    if r.returncode != 0:
        return tally.finish()
    html = open(out, encoding="utf-8").read()
    size = os.path.getsize(out)
    print(f"    dog.jpg, default model, 224 px: {size / 1e6:.2f} MB")
    check("at most 8 MB for the default model at 224 px", size <= EIGHT_MB, size)
    outside = r"https?://|<[a-z][^>]*\s(?:src|href)\s*=|<link|@import|url\("
    check("self-contained: no URL, no src/href attribute, no <link>, no @import", not re.search(outside, html, re.I),
          re.findall(r".{0,30}(?:" + outside + r").{0,30}", html, re.I)[:3])
    check("the page's script is web/lesson's", "const LessonMath" in html and "lessonTimings" in html)

    data = page_data(html)
    meta = data["meta"]
    check("names the model and the photo", data["model"] == os.path.basename(os.path.normpath(MODEL))
          and data["photo"] == "dog.jpg", (data["model"], data["photo"]))
    check("the default model's shape", (meta["layers"], meta["heads"], meta["head_dim"], meta["tokens"], meta["grid"],
                                        meta["prefix"], meta["input_size"]) == (12, 3, 64, 197, 14, 1, 224), meta)

    dump = os.path.join(TMP, "dump")
    d = subprocess.run([BIN, "dump", DOG, "-o", dump, "--model", MODEL], env=NO_DISPLAY, capture_output=True, timeout=600)
    check("vitscope dump", d.returncode == 0, d.stderr)
    q, k, v = (np.load(os.path.join(dump, f"{n}.npy")) for n in ("q", "k", "v"))
    halves = np.frombuffer(base64.b64decode(data["qkv"]), dtype="<f2")
    stacked = np.stack([q, k, v], axis=2)  # layers, heads, (q, k, v), tokens, head_dim
    check("q, k, v are the trace's floats rounded to 16 bits, bit for bit, per layer, head, q|k|v",
          halves.size == stacked.size and np.array_equal(halves.view("<u2"), stacked.astype("<f2").reshape(-1).view("<u2")),
          f"{halves.size} halves for {stacked.size} values")
    rel = np.abs(halves.astype(np.float64).reshape(stacked.shape) - stacked) / np.maximum(np.abs(stacked), 2.0 ** -14)
    print(f"    largest relative change from rounding to 16 bits: {rel.max():.2e} (2^-11 = {2.0 ** -11:.2e})")

    m = re.match(r"data:image/jpeg;base64,(.*)", data["image"])
    photo = np.asarray(Image.open(io.BytesIO(base64.b64decode(m.group(1)))).convert("RGB"), dtype=np.float64)
    seen = np.load(os.path.join(dump, "input.npy")).transpose(1, 2, 0) * 0.5 + 0.5  # the model's mean and std are 0.5
    model_view = np.asarray(Image.fromarray((seen * 255).round().clip(0, 255).astype(np.uint8)).resize(
        photo.shape[:2][::-1], Image.BICUBIC), dtype=np.float64)
    diff = np.abs(photo - model_view).mean()
    print(f"    photo {photo.shape[1]} x {photo.shape[0]} px; mean difference from the model's input scaled up: {diff:.1f} levels")
    check("the photo is the model input's crop (square, 224 to 512 px, close to the model's input)",
          photo.shape[0] == photo.shape[1] and 224 <= photo.shape[0] <= 512 and diff < 8, (photo.shape, diff))

    c = subprocess.run([BIN, "classify", DOG, "--top", "5", "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True)
    want = [(line.split("\t")[2], float(line.split("\t")[1])) for line in c.stdout.strip().splitlines()]
    got = [(t["label"], t["probability"]) for t in data["top5"]]
    check("top-5 as vitscope classify", len(got) == 5 and all(a[0] == b[0] and abs(a[1] - b[1]) < 1e-6
                                                               for a, b in zip(got, want)), (got, want))

    tour = data["tour"]
    steps = tour["steps"] if tour else []
    check("the tour: every step's text filled in", steps and all(s["text"] and not any("{" in p for p in s["text"])
                                                                   for s in steps), tour and tour["title"])
    # The softmax step chooses its head on the photo: the page carries the one `tour --claims` reports.
    claims_csv = os.path.join(TMP, "claims.csv")
    subprocess.run([BIN, "tour", DOG, "--claims", claims_csv, "--model", MODEL], env=NO_DISPLAY, capture_output=True)
    with open(claims_csv) as f:
        rows = list(csv.DictReader(f))
    want = [(int(r["layer"]), int(r["head"]), int(r["query"])) for r in rows
            if r["claim"] == "region_beyond_neighbourhood"][:1]
    softmax = [s for s in steps if s["title"].startswith("Softmax")]
    check("the tour's softmax step: the ear (patch 5,3) and the head its claim chose",
          want and softmax and (softmax[0]["layer"], softmax[0]["head"], softmax[0]["query"]) == want[0]
          and want[0][2] == 1 + 5 * 14 + 3, (softmax[:1], want))
    check("the dog's sentences kept on dog.jpg", any("dog" in p for s in steps for p in s["text"]))

    r = vitscope("lesson", DOG, "-o", os.path.join(TMP, "no_tour.html"), "--no-tour")
    check("--no-tour: no tour in the page", r.returncode == 0 and page_data(
        open(os.path.join(TMP, "no_tour.html"), encoding="utf-8").read())["tour"] is None, r.stderr)

    big = os.path.join(TMP, "dog448.html")
    r = vitscope("lesson", DOG, "-o", big, "--size", "448")
    meta448 = page_data(open(big, encoding="utf-8").read())["meta"] if r.returncode == 0 else {}
    check("--size 448: a 28 x 28 grid, 785 tokens", (meta448.get("grid"), meta448.get("tokens"), meta448.get("input_size"))
          == (28, 785, 448), r.stderr or meta448)
    if r.returncode == 0:
        print(f"    at 448 px: {os.path.getsize(big) / 1e6:.2f} MB")

    markers_in_names()

    # Refusals.
    before = open(out, "rb").read()
    refused("an existing OUT without --force", ["lesson", DOG, "-o", out], out, "--force", before=before)
    r = vitscope("lesson", DOG, "-o", out, "--force", "--no-tour")
    check("--force replaces it", r.returncode == 0 and open(out, "rb").read() != before, r.stderr)
    missing = os.path.join(TMP, "missing.html")
    refused("a missing photo", ["lesson", os.path.join(TMP, "nothing.jpg"), "-o", missing], missing, "nothing.jpg")
    refused("an unwritable place", ["lesson", DOG, "-o", "/proc/self/lesson.html"], "/proc/self/lesson.html", "lesson.html")
    refused("a folder that does not exist", ["lesson", DOG, "-o", os.path.join(TMP, "no", "x.html")],
            os.path.join(TMP, "no", "x.html"), "does not exist")
    refused("not .html", ["lesson", DOG, "-o", os.path.join(TMP, "x.png")], os.path.join(TMP, "x.png"), ".html")
    refused("no -o", ["lesson", DOG], os.path.join(TMP, "none.html"), "-o")
    refused("a bad --size", ["lesson", DOG, "-o", missing, "--size", "100"], missing, "size")
    no_web = dict(NO_DISPLAY, VITSCOPE_WEB_DIR=os.path.join(TMP, "no_web"))
    refused("the page's files missing", ["lesson", DOG, "-o", missing], missing, "VITSCOPE_WEB_DIR", env=no_web)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
