#!/usr/bin/env python3
"""The lesson page in a real browser: Debian's chromium, headless, with a
fresh profile and no network.

1. --dump-dom on OUT.html#layer=3&head=2&patch=5,3 (the dog's ear): the page's
   `weights` table, one row per key, against `vitscope attention`: every
   weight within the bound the page states for it (16-bit q and k; derived in
   web/lesson/lesson_math.js), the rows' key, row and col the same. Links as
   mail clients and course sites write them (issue 44): #...patch=5%2C3 is
   the ear with no note; #layer=3=junk is refused in a visible note.
2. Through the DevTools protocol (puppeteer-core from npm, installed with
   `npm ci` into tests/support/browser, driving /usr/bin/chromium): the fragment's
   selection, a real mouse click on another patch, hover, arrow keys,
   PageDown, the mean of the heads, a phone's taps; no request leaves the
   file, no script error; screenshots at 1280 x 720, 1920 x 1080 and a
   phone's 390 x 844 with the heatmap's brightest patch where the numbers put
   it; the first-map and new-query times printed (BENCHMARKS.md), never
   asserted. LESSON_SHOTS=DIR keeps the screenshots.
3. The same desktop session in Debian's Firefox ESR (WebDriver BiDi): the
   fragment, the click, the keys, no request, no error.
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
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally
from browser_support import CHROMIUM, FIREFOX, driver, install_puppeteer  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_lesson_browser_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def attention(layer, head, row, col):
    r = subprocess.run([BIN, "attention", DOG, "--layer", str(layer), "--head", str(head), "--patch", f"{row},{col}",
                        "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)
    return list(csv.DictReader(io.StringIO(r.stdout)))


def dump_dom(page, fragment):
    profile = tempfile.mkdtemp(prefix="profile_", dir=TMP)
    r = subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=20000",
                        "--dump-dom", "file://" + page + fragment], capture_output=True, text=True, timeout=300)
    return r.stdout


def selection(dom):
    """The layer, head and query the page shows, from its weights table's data attributes."""
    m = re.search(r'<table id="weights" data-layer="([^"]*)" data-head="([^"]*)" data-query="([^"]*)"', dom)
    return m.groups() if m else None


def link_note(dom):
    return re.search(r'<p id="link-note"[^>]*>([^<]*)</p>', dom)


def weights_rows(dom):
    rows = []
    for m in re.finditer(r'<tr data-key="(\d+)" data-row="(-?\d+)" data-col="(-?\d+)" data-weight="([^"]+)"'
                         r'(?: data-bound="([^"]+)")?', dom):
        rows.append({"key": int(m[1]), "row": int(m[2]), "col": int(m[3]), "weight": float(m[4]),
                     "bound": float(m[5]) if m[5] else None})
    return rows


def brightest_patch_is_heat(shot, rect, grid, row, col):
    """In a screenshot, the patch with the row's largest weight is drawn in the colour bar's top colour."""
    img = np.asarray(Image.open(shot).convert("RGB"), dtype=np.float64)
    scale = img.shape[1] / rect["viewport"]
    cx = (rect["left"] + (col + 0.5) / grid * rect["width"]) * scale
    cy = (rect["top"] + (row + 0.5) / grid * rect["height"]) * scale
    patch = img[int(cy) - 3:int(cy) + 4, int(cx) - 3:int(cx) + 4].reshape(-1, 3).mean(axis=0)
    return patch  # viridis' top is (253, 231, 37) at 80% over the photo: red and green high, blue low


def main():
    if not tally.check_model():
        return tally.finish()
    if not check("chromium is installed (scripts/install_packages.sh)", os.access(CHROMIUM, os.X_OK), CHROMIUM):
        return tally.finish()
    page = os.path.join(TMP, "dog.html")
    r = subprocess.run([BIN, "lesson", DOG, "-o", page, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True,
                       timeout=600)
    if not check("vitscope lesson", r.returncode == 0, r.stderr):
        return tally.finish()

    # 1. The ear at layer 3, head 2 from the URL fragment, read from the dumped DOM.
    rows = weights_rows(dump_dom(page, "#layer=3&head=2&patch=5,3"))
    app = attention(3, 2, 5, 3)
    check("the weights table: one row per key, with its bound", len(rows) == len(app) == 197
          and all(x["bound"] is not None for x in rows), (len(rows), len(app)))
    if len(rows) == len(app):
        same_keys = all((x["key"], x["row"], x["col"]) == (int(a["key"]), int(a["row"]), int(a["col"]))
                        for x, a in zip(rows, app))
        check("keys, rows and cols as vitscope attention's (CLS at -1,-1)", same_keys and rows[0]["row"] == -1)
        errors = [abs(x["weight"] - float(a["weight"])) for x, a in zip(rows, app)]
        over = [(x["key"], e, x["bound"]) for x, e in zip(rows, errors) if e > x["bound"]]
        worst = max(range(len(errors)), key=lambda i: errors[i] / rows[i]["bound"])
        print(f"    ear, layer 3 head 2: largest |page - app| {max(errors):.2e}, largest bound {max(x['bound'] for x in rows):.2e},"
              f" worst error/bound {errors[worst] / rows[worst]['bound']:.3f} (key {worst})")
        check("every weight within the page's bound of vitscope attention's", not over, over[:5])
        check("the bound is tight enough to teach with (< 0.02 on every weight)", max(x["bound"] for x in rows) < 0.02)
        check("the weights sum to 1", abs(sum(x["weight"] for x in rows) - 1) < 1e-9)

    # 1b. What the window shows (issue 32, item 7), from the dumped DOM.
    dom = dump_dom(page, "#layer=3&head=2&patch=5,3")
    m = re.search(r"<td>Z</td><td class=\"num\">([^<]+)</td>", dom)
    z_app = sum(np.exp(float(a["scaled"])) for a in app)
    check("Z is Σ exp of the scaled scores, as the window shows it (not after the row's maximum was taken out)",
          m is not None and abs(float(m[1]) - z_app) <= 1e-3 * z_app, (m and m[1], z_app))
    check("the subtraction of the row's maximum is explained as a safeguard that cancels",
          'id="safeguard"' in dom and "cancels" in dom and "numerical safeguard" in dom)
    check("a patch query is outlined and the caption says so", "the query patch (5, 3) (outlined in blue)" in dom)
    check("the link's valid selection gives no note", re.search(r'<p id="link-note"[^>]*hidden', dom) is not None)
    grid = [(int(a), int(b)) for a, b in re.findall(r'<canvas data-layer="(\d+)" data-head="(\d+)"', dom)]
    check("the layers x heads grid has the window's orientation: a row per layer, the heads across",
          len(grid) == 36 and grid[:4] == [(0, 0), (0, 1), (0, 2), (1, 0)], grid[:4])
    sizes = [int(w) for w in re.findall(r'<canvas data-layer="\d+" data-head="\d+"[^>]* width="(\d+)"', dom)]
    thumbs = re.search(r'<div id="thumbs".*?</div>', dom, re.S)
    thumb_sizes = [int(w) for w in re.findall(r'<canvas width="(\d+)"', thumbs[0])] if thumbs else []
    check("thumbnails large enough to read the map (grid cells >= 80 px, the heads' >= 120 px; were 44 and 88)",
          len(sizes) == 36 and min(sizes) >= 80 and len(thumb_sizes) == 4 and min(thumb_sizes) >= 120, (sizes[:3], thumb_sizes))
    dom = dump_dom(page, "#layer=30&query=cls&head=2")
    note = link_note(dom)
    check("an invalid link value shows a visible note naming what was ignored",
          note is not None and "hidden" not in note[0] and "layer=30" in note[1] and "0–11" in note[1], note and note[0])
    check("the CLS query is labelled, not 'outlined'",
          "the query CLS (labelled on the map: it has no patch)" in dom and "CLS (outlined" not in dom)

    # 1c. Links as mail clients and course sites write them (issue 44): %2C is the comma; trailing junk is refused.
    with open(page) as f:
        start = json.loads(re.search(r'<script type="application/json" id="lesson-data">(.*?)</script>', f.read(), re.S)[1])["start"]
    dom = dump_dom(page, "#layer=3&head=1&patch=5%2C3")
    shown = selection(dom)
    check("#layer=3&head=1&patch=5%2C3 selects layer 3, head 1 and the ear (the comma percent-encoded), with no note",
          shown == ("3", "1", str(1 + 5 * 14 + 3)) and "the query patch (5, 3) (outlined in blue)" in dom
          and re.search(r'<p id="link-note"[^>]*hidden', dom) is not None, (shown, link_note(dom)))
    dom = dump_dom(page, "#layer=3=junk&head=1&patch=5,3")
    note = link_note(dom)
    check("#layer=3=junk is refused: a visible note names it and why, the layer stays the page's own",
          note is not None and "hidden" not in note[0] and "“layer=3=junk” (“3=junk” is not a whole number" in note[1]
          and (selection(dom) or ())[:2] == (str(start["layer"]), "1"), (note and note[0], selection(dom), start))

    # 2. Real events through the DevTools protocol.
    if not install_puppeteer(check):
        return tally.finish()
    shots = os.environ.get("LESSON_SHOTS") or os.path.join(TMP, "shots")
    os.makedirs(shots, exist_ok=True)
    r = subprocess.run(["node", driver("lesson_browser.mjs"), page, shots],
                       env=dict(NO_DISPLAY, CHROMIUM=CHROMIUM), capture_output=True, text=True, timeout=600)
    if not check("the browser session ran", r.returncode == 0, r.stderr[-2000:]):
        return tally.finish()
    b = json.loads(r.stdout.strip().splitlines()[-1])
    token = lambda row, col: 1 + row * 14 + col
    check("no request leaves the file", not b["requests"], b["requests"][:5])
    check("no script error", not b["errors"], b["errors"][:3])
    f = b["fromFragment"]
    check("the fragment selects layer 3, head 2, the ear", (f["layer"], f["head"], f["query"]) == ("3", "2", token(5, 3)), f)
    a = b["afterClick"]
    check("a mouse click on patch (9, 10) makes it the query", a["query"] == token(9, 10)
          and a["hash"] == "#layer=3&head=2&patch=9,10", a)
    check("hovering patch (2, 2) explains that key", b["afterHover"]["key"] == "patch (2, 2)", b["afterHover"])
    check("ArrowUp moves the query one row up", b["afterArrowUp"]["query"] == token(8, 10), b["afterArrowUp"])
    check("PageDown goes to the next layer", b["afterPageDown"]["layer"] == "4", b["afterPageDown"])
    check("the mean thumbnail shows the mean of the heads", b["afterMean"]["head"] == "mean", b["afterMean"])
    t = b["afterTourNext"]
    # The step chooses its head on the photo; `vitscope tour --claims` names the one it chose for the ear.
    claims = os.path.join(TMP, "claims.csv")
    subprocess.run([BIN, "tour", DOG, "--claims", claims, "--model", MODEL], capture_output=True)
    with open(claims) as f:
        chosen = [(r["layer"], r["head"]) for r in csv.DictReader(f) if r["claim"] == "region_beyond_neighbourhood"][:1]
    check("the tour's Next shows its second step and sets its state (the ear, the head chosen on the photo)",
          bool(chosen) and (t["layer"], t["head"], t["query"]) == (*chosen[0], token(5, 3)), (b["tourStep"], t, chosen))
    check("a phone's tap makes patch (8, 6) the query", b["phoneAfterTap"]["query"] == token(8, 6), b["phoneAfterTap"])
    check("with 'key' chosen, a tap explains patch (4, 4) and keeps the query",
          b["phoneAfterKeyTap"]["key"] == "patch (4, 4)" and b["phoneAfterKeyTap"]["query"] == token(8, 6),
          b["phoneAfterKeyTap"])
    check("nothing wider than a phone's screen", b["phoneOverflow"] <= 0, b["phoneOverflow"])
    # The screenshot at 1280 x 720: the ear's strongest patch in the colour bar's top colour.
    top = max(range(1, 197), key=lambda j: float(app[j]["weight"]))
    colour = brightest_patch_is_heat(os.path.join(shots, "desktop_1280.png"), b["photoRect"], 14, (top - 1) // 14, (top - 1) % 14)
    check(f"the screenshot: patch {(top - 1) // 14},{(top - 1) % 14} (the largest weight) drawn in viridis' top colour",
          colour[0] > 170 and colour[1] > 160 and colour[2] < 110, colour)
    for name in ("desktop_1280.png", "desktop_1920.png", "phone.png"):
        img = np.asarray(Image.open(os.path.join(shots, name)).convert("L"), dtype=np.float64)
        check(f"screenshot {name} is not blank", img.std() > 20, img.std())
    check("20 clicks on 20 patches: 20 new queries, each redrawn (the move there redraws the hovered key too)",
          b["newQueryClicks"]["distinct"] == 20 and b["newQueryClicks"]["renders"] >= 20, b["newQueryClicks"])
    median = lambda xs: sorted(xs)[len(xs) // 2]
    print(f"    {b['browser']}: first map {b['firstMapMs']:.0f} ms after navigation; new query (a click's whole redraw, "
          f"20 clicks): median {median(b['newQueryMs']):.1f} ms, worst {max(b['newQueryMs']):.1f} ms; the 36 heads' rows "
          f"alone: median {median(b['queryComputeMs']):.1f} ms; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    # 3. Firefox: the desktop part of the same session.
    if not check("firefox-esr is installed (scripts/install_packages.sh)", os.access(FIREFOX, os.X_OK), FIREFOX):
        return tally.finish()
    ff_shots = os.path.join(shots, "firefox")
    os.makedirs(ff_shots, exist_ok=True)
    r = subprocess.run(["node", driver("lesson_browser.mjs"), page, ff_shots],
                       env=dict(NO_DISPLAY, FIREFOX=FIREFOX), capture_output=True, text=True, timeout=600)
    if check("the Firefox session ran", r.returncode == 0, r.stderr[-2000:]):
        f = json.loads(r.stdout.strip().splitlines()[-1])
        print(f"    {f['browser']}: first map {f['firstMapMs']:.0f} ms, new query median {median(f['newQueryMs']):.0f} ms")
        check("Firefox: no request, no script error", not f["requests"] and not f["errors"], f["requests"][:3] + f["errors"][:3])
        check("Firefox: the fragment, a click, ArrowUp, PageDown",
              (f["fromFragment"]["query"], f["afterClick"]["query"], f["afterArrowUp"]["query"], f["afterPageDown"]["layer"])
              == (token(5, 3), token(9, 10), token(8, 10), "4"), f)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
