#!/usr/bin/env python3
"""`vitscope explain IMAGE --question NAME -o OUT.png`: each Questions page's
figure, drawn offscreen without a display server (DISPLAY unset; EGL).

For every page the window has (the PAGE lines of src/vit/analysis/question_list.inc,
so pages added later are covered too): a well-formed PNG 2048 px wide, the
page's question as its Title and the model, photo and selection in its
Description, not blank, and the same picture twice for the same selection (but for the
page that times the forward pass); the pages that need a second photo get chelsea.png
as --compare and are refused cleanly without it.
Then the questions without a page of their own (rollout and ablation draw the
page that shows them) and the bad-input rows, which follow `vitscope export`'s
rules: nothing written, nothing replaced, no temporary file left behind.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, MODEL_NAME, NO_DISPLAY, Tally, source, window_pages

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_page_figure_")
WIDTH = 2048                 # 1024 logical pixels at 2 pixels each
SHOWN_ON = {"rollout": "cls", "ablation": "heads", "perturbation": "relevance"}   # explain's questions drawn by another page
MIDDOT = "\u00b7"


# Pages whose figure needs a second photo (File > Compare with…).
TWO_PHOTO_PAGES = {"dynamic", "cross"}
# Pages that time the forward pass on this machine: two runs show two measurements.
MEASURED_PAGES = {"quadratic"}
NO_SELECTION = {"relevance"}  # pages whose figure names no selection (issue 32, item 8)
# Pages whose study runs hundreds of forward passes (occlusion, perturbation
# curves): drawn at 112 px (7 x 7 patches), 16 times cheaper, the same page.
# tests/reference/relevance_test.py checks their numbers at 224 px.
SMALL_INPUT = {"relevance": ["--size", "112"], "perturbation": ["--size", "112"]}


def vitscope(*args, env=NO_DISPLAY):
    return subprocess.run([BIN, *args, "--model", MODEL], env=env, capture_output=True, text=True, timeout=600)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def page_titles():
    """Each question's title, as the one list (src/vit/analysis/question_list.inc) words it."""
    return dict(re.findall(r'^(?:PAGE|ANSWER)\((\w+),\s*"((?:[^"\\]|\\.)*)"', source("src/vit/analysis/question_list.inc"),
                           re.M))


def explain_questions():
    """Every --question explain knows, from its refusal of an unknown one."""
    r = vitscope("explain", DOG, "--question", "no-such-question", "--csv", os.path.join(TMP, "x.csv"))
    return re.search(r"\(known: ([^)]*)\)", r.stderr).group(1).split(", ")


def nothing_left(path):
    return not os.path.exists(path) and not os.path.exists(path + ".tmp")


def refused(r):
    """Exit 2 and one line `vitscope: error: ...`."""
    return r.returncode == 2 and r.stderr.startswith("vitscope: error: ") and r.stderr.count("\n") == 1


def check_figure(name, path, page, title, selection, photos="dog.jpg"):
    try:
        Image.open(path).verify()
        check(f"{name}: a well-formed PNG", True)
    except Exception as e:  # noqa: BLE001 - any complaint from PIL is the failure
        check(f"{name}: a well-formed PNG", False, str(e))
        return None
    im = Image.open(path)
    check(f"{name}: {WIDTH} px wide, taller than its caption ({im.size[0]} x {im.size[1]})",
          im.size[0] == WIDTH and im.size[1] > 400)
    check(f"{name}: Title is the page's question", im.info.get("Title") == title, im.info.get("Title"))
    caption = im.info.get("Description", "")
    if page in NO_SELECTION:  # a class's relevance: the layer, head and query on show have nothing to do with it
        check(f"{name}: Description names the model and the photo, no layer, head or query",
              caption == f"{MODEL_NAME} {MIDDOT} {photos}", caption)
    else:
        check(f"{name}: Description names the model, the photo and the selection",
              caption == f"{MODEL_NAME} {MIDDOT} {photos} {MIDDOT} {selection}", caption)
    check(f"{name}: Software and the page's name", im.info.get("Software") == "vitscope" and
          im.info.get("vitscope:question") == page, im.info)
    # Kept as bytes, the colours packed in one integer: the same numbers as in float64, five times quicker
    # (over fifty figures this was a minute of the test).
    px = np.asarray(im.convert("RGB"))
    # Text and plots: many pixels far from the background, in more than a few colours.
    background = tuple(int(v) for v in px[2, 2])
    # Drawn for print, as `vitscope export`'s figures: a white page.
    check(f"{name}: a white page for print", background == (255, 255, 255), background)
    ink = np.abs(px.astype(np.int16) - np.array(background, np.int16)).sum(axis=2) > 60
    colours = len(np.unique(px.reshape(-1, 3)[::7].astype(np.uint32) @ np.array([65536, 256, 1], np.uint32)))
    check(f"{name}: not blank (std {px.std():.1f}, {ink.mean():.1%} ink, {colours} colours)",
          px.std() > 5 and ink.mean() > 0.01 and colours > 50)
    rows_with_ink = np.flatnonzero(ink.any(axis=1))
    check(f"{name}: the page reaches the bottom margin (last ink {im.size[1] - rows_with_ink[-1]} px above it)",
          len(rows_with_ink) and 20 <= im.size[1] - rows_with_ink[-1] <= 120)
    return px


def ocr_words(path):
    """The words tesseract reads on a figure, as its TSV rows (level ... text): one run per figure, on one
    thread (its OpenMP threads spun for three times the CPU on a busy machine)."""
    r = subprocess.run(["tesseract", path, "-", "tsv"], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, OMP_THREAD_LIMIT="1"))
    rows = [line.split("\t") for line in r.stdout.splitlines()[1:]]
    return [w for w in rows if len(w) == 12 and w[11].strip()]


def read_figure(words):
    """The words drawn on a figure, read back from its pixels by OCR, lower case."""
    return " ".join(w[11] for w in words).lower()


def line_reach(words, width, first_word):
    """How far right (a share of the width) the OCR line starting with first_word reaches; 0 when not found."""
    for w in words:
        if w[11] == first_word:
            same = [x for x in words if x[2:5] == w[2:5]]  # block, paragraph, line
            return max(int(x[6]) + int(x[8]) for x in same) / width
    return 0.0


def ocr_calls(pages):
    """The figures figure_words reads, beyond the pages' own: global from its central patch and from a corner."""
    return {patch: ("explain", DOG, "--question", "global", "--patch", patch,
                    "-o", os.path.join(TMP, f"ocr_global_{patch.replace(',', '_')}.png"))
            for patch in ("7,7", "0,0") if "global" in pages}


def figure_words(pages, done, calls):
    """What a figure for print must not say (a prompt to click a button it does not have) and must say
    (why a distance band's bar is empty), read from the drawn pixels."""
    figures = ([os.path.join(TMP, "heads.png")] if "heads" in pages else []) + [c[-1] for c in calls.values()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        words = dict(zip(figures, pool.map(ocr_words, figures)))
    if "heads" in pages:
        text = read_figure(words[figures[0]])  # the page's own figure, the window's first selection
        check("heads figure: OCR reads its title (the check can see text)", "several heads buy" in text, text[:200])
        check("heads figure: no 'Choose a head' prompt and no 'Remove head' buttons",
              "choose a head" not in text and "remove head" not in text, text)
    if "global" in pages:
        # From the central patch (7, 7) of the 14 x 14 grid no patch is 8 or more away: the 8+ bar is empty
        # and the figure says why; from a corner every band has patches and no such note is drawn.
        notes = {patch: done[call].returncode == 0 and "empty because the band is" in read_figure(words[call[-1]])
                 for patch, call in calls.items()}
        check("global figure: the note on an empty band shows for (7, 7), whose 8+ band is empty, not for (0, 0)",
              notes == {"7,7": True, "0,0": False}, notes)
        # A note uses the page's width (it wrapped at half the page when text was measured at the
        # fonts' rasterised size, twice the drawn one).
        centre = calls["7,7"][-1]
        reach = line_reach(words[centre], Image.open(centre).width if os.path.exists(centre) else 1, "Shaded:")
        check(f"global figure: the note under the bars runs across the page ({reach:.0%} of the width)", reach > 0.8,
              reach)


def run_side_by_side(calls):
    """Runs the vitscope calls (tuples of arguments), as many at once as there are cores, each on one thread
    (VITSCOPE_THREADS=1: the forward pass is the same bit for bit, and two pools of workers on two cores spent
    the relevance study's CPU three times over); each process writes its own files, so the order changes
    nothing but the time. {call: CompletedProcess}."""
    calls = sorted(calls, key=lambda call: "--size" not in call)  # the studies first: none is left alone at the end
    env = dict(NO_DISPLAY, VITSCOPE_THREADS="1")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(calls, pool.map(lambda call: vitscope(*call, env=env), calls)))


def page_calls(page):
    """The calls the page's checks read: its refusal without --compare (pages of two photos), its figure,
    the same figure again and one for a chosen selection. {name: call}."""
    out = os.path.join(TMP, page + ".png")
    extra = ["--compare", CHELSEA] if page in TWO_PHOTO_PAGES else []
    extra += SMALL_INPUT.get(page, [])
    row, col = 5, (3 if page in SMALL_INPUT else 7)
    calls = {
        "first": ("explain", DOG, "--question", page, *extra, "-o", out),
        "chosen": ("explain", DOG, "--question", page, *extra, "--layer", "8", "--head", "1", "--patch", f"{row},{col}",
                   "-o", os.path.join(TMP, page + "_chosen.png")),
    }
    if page not in MEASURED_PAGES:  # a page that times the forward pass draws other numbers each time
        calls["again"] = ("explain", DOG, "--question", page, *extra, "-o", os.path.join(TMP, page + "_again.png"))
    if page in TWO_PHOTO_PAGES:
        calls["no compare"] = ("explain", DOG, "--question", page, "-o", os.path.join(TMP, page + "_no_compare.png"))
    return calls


def main():
    if not os.path.isfile(os.path.join(MODEL, "model.safetensors")):
        check(f"model {MODEL_NAME} at {MODEL} (set VITSCOPE_MODEL or VITSCOPE_MODEL_MIRROR)", False)
        return tally.finish()
    pages, titles = window_pages(), page_titles()
    check(f"the window's pages are found in the list: {pages}", len(pages) > 0 and all(p in titles for p in pages))

    # Every call that needs no other's file first, side by side (about 50 processes: one at a time they took
    # 4 minutes, issue 44); then the checks, in the order they always had.
    calls = {page: page_calls(page) for page in pages}
    figure_calls = ocr_calls(pages)
    both_png, both_csv = os.path.join(TMP, "both.png"), os.path.join(TMP, "both.csv")
    both_call = ("explain", DOG, "--question", pages[0], "-o", both_png, "--csv", both_csv)
    others = {q: ("explain", DOG, "--question", q, "--layer", "3", "--head", "1", *SMALL_INPUT.get(q, []),
                  "-o", os.path.join(TMP, "q_" + q + ".png")) for q in explain_questions() if q not in pages}
    bad_calls = refusal_calls(pages[0])
    done = run_side_by_side([c for page in pages for c in calls[page].values()] + list(figure_calls.values()) +
                            [both_call] + list(others.values()) + [call for _, call, _ in bad_calls])

    # Every page, the window's starting selection, then another one.
    for page in pages:
        c = calls[page]
        out = c["first"][-1]
        if page in TWO_PHOTO_PAGES:
            # Their figures need the second photo: refused cleanly without one.
            r = done[c["no compare"]]
            check(f"{page} without --compare: refused in one line, nothing written",
                  refused(r) and "--compare" in r.stderr and nothing_left(c["no compare"][-1]), r.stderr)
        r = done[c["first"]]
        check(f"{page}: exits 0 without a display", r.returncode == 0, r.stderr)
        if r.returncode != 0:
            continue
        check(f"{page}: says what it wrote", r.stderr.startswith(f"{out}: {WIDTH} x "), r.stderr)  # status on stderr
        check(f"{page}: no temporary file left", not os.path.exists(out + ".tmp"))
        photos = "dog.jpg and chelsea.png" if page in TWO_PHOTO_PAGES else "dog.jpg"
        first = check_figure(page, out, page, titles[page], f"layer 0 {MIDDOT} head 0 {MIDDOT} query CLS", photos)
        if "again" in c:
            again = c["again"][-1]
            check(f"{page}: the same picture for the same selection", os.path.exists(again) and first is not None and
                  np.array_equal(first, np.asarray(Image.open(again).convert("RGB"))))
        r = done[c["chosen"]]
        row, col = (int(x) for x in c["chosen"][c["chosen"].index("--patch") + 1].split(","))
        grid = 7 if page in SMALL_INPUT else 14
        check(f"{page} --layer 8 --head 1 --patch {row},{col}: exits 0", r.returncode == 0, r.stderr)
        if r.returncode == 0:
            check_figure(page + " (chosen)", c["chosen"][-1], page, titles[page],
                         f"layer 8 {MIDDOT} head 1 {MIDDOT} query patch ({row}, {col}) (token {row * grid + col + 1})", photos)

    figure_words(pages, done, figure_calls)

    # The figure and the numbers at once: both written.
    r = done[both_call]
    check("-o with --csv writes both", r.returncode == 0 and os.path.exists(both_png) and os.path.exists(both_csv),
          r.stderr)

    # Questions without a page of their own: the page that shows them, or a refusal naming the pages.
    for q, call in others.items():
        out, r = call[-1], done[call]
        page = SHOWN_ON.get(q)
        if page in pages:
            check(f"{q}: draws the {page} page", r.returncode == 0, r.stderr)
            if r.returncode == 0:
                check_figure(q, out, page, titles[page], f"layer 3 {MIDDOT} head 1 {MIDDOT} query CLS")
        else:
            check(f"{q}: no page in this build, so refused, naming the pages (exit 2, one line, no file)",
                  refused(r) and "no page" in r.stderr and pages[0] in r.stderr and nothing_left(out),
                  f"rc={r.returncode} {r.stderr.strip()}")

    # Refusals: nothing written, nothing replaced.
    for what, call, says in bad_calls:
        r = done[call]
        check(f"{what}: exit 2, one error line naming it, no file", refused(r) and (not says or says in r.stderr) and
              nothing_left(os.path.join(TMP, "bad.png")) and nothing_left(os.path.join(TMP, "bad.jpg")),
              f"rc={r.returncode} {r.stderr.strip()}")
    # Then the calls that need another's file: one after the other.
    page = pages[0]
    out = os.path.join(TMP, page + ".png")
    if os.path.exists(out):
        before = sha(out)
        r = vitscope("explain", DOG, "--question", page, "-o", out)
        check("an existing OUT without --force: exit 2, says to pass --force, file unchanged",
              refused(r) and "exists; pass --force to replace it" in r.stderr and sha(out) == before, r.stderr)
        r = vitscope("explain", DOG, "--question", page, "--layer", "5", "-o", out, "--force")
        check("--force replaces it", r.returncode == 0 and sha(out) != before, r.stderr)
    return tally.finish()


def refusal_calls(page):
    """(what, call, what its line must name) for each bad input: nothing may be written."""
    bad = os.path.join(TMP, "bad.png")
    folder = os.path.join(TMP, "a_folder.png")
    os.mkdir(folder)
    rows = [
        ("unknown question", ["--question", "nonsense", "-o", bad], "nonsense"),
        ("OUT not a .png", ["--question", page, "-o", os.path.join(TMP, "bad.jpg")], "PNG"),
        ("OUT's folder missing", ["--question", page, "-o", os.path.join(TMP, "no", "x.png")], "does not exist"),
        ("OUT a folder", ["--question", page, "-o", folder], "directory"),
        ("--layer 12", ["--question", page, "--layer", "12", "-o", bad], "--layer"),
        ("--head 3", ["--question", page, "--head", "3", "-o", bad], "--head"),
        ("--patch 14,0", ["--question", page, "--patch", "14,0", "-o", bad], "--patch"),
        ("--patch with --query", ["--question", page, "--patch", "1,1", "--query", "cls", "-o", bad], "--patch"),
        ("--compare", ["--question", page, "--compare", DOG, "-o", bad], "--compare"),
        ("--size 100", ["--question", page, "--size", "100", "-o", bad], "--size"),
    ]
    calls = [(what, ("explain", DOG, *args), says) for what, args, says in rows]
    calls.append(("a missing IMAGE", ("explain", os.path.join(TMP, "missing.jpg"), "--question", page, "-o", bad), ""))
    return calls


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
