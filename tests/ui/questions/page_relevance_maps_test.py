#!/usr/bin/env python3
"""The relevance page's four maps, sampled cell by cell against its own CSV.

`vitscope explain PHOTO --question relevance --class 1 -o FIG.png --csv
OUT.csv` in one run (one class, one computation): the figure records each map
over the photo as "relevance/relevance_map" (drawn_cells.h), in the page's
order attention_last, rollout, grad_rollout, occlusion, and the CSV has the
four maps' numbers per patch (tests/reference/relevance_test.py checks those
against PyTorch). Each cell centre must be the overlay shader's blend of the
photo with the colormap of that number on the map's own scale (the page sets
each map against its own largest value; occlusion, which can be negative, on
the diverging map over +-max|value|), at opacity 0.7 fading with the value
(|2t - 1| on the diverging map), within 3/255. The photo is a patchwork
(tests/support/drawn_colours.py), so the photo under every cell centre is known.
About a minute: the page runs the backward pass, 196 occlusion forwards and
the perturbation curves. Runs without a display server (EGL).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from drawn_colours import DIVERGING, GRID, VIRIDIS, blend, colormap, patchwork, sample, worst
from script_support import BIN, MODEL, NO_DISPLAY, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_relevance_maps_")
METHODS = ["attention_last", "rollout", "grad_rollout", "occlusion"]


def colour_bar_below(pixels, block, knots):
    """Rows below the map's grid: the first whose run of non-white pixels through the grid's centre column is
    at least as wide as the grid and shows the colormap's low, middle and top colours at its left end, middle
    and right end (within 12/255). Its distance below the grid, or None."""
    ends = [np.floor(colormap(knots, np.array([t]))[0] * 255 + 0.5) for t in (0.0, 0.5, 1.0)]
    width = block["cell"] * GRID
    cx, bottom = int(block["x0"] + width / 2), int(block["y0"] + width)
    for y in range(bottom + 1, min(bottom + 600, pixels.shape[0])):
        ink = np.abs(pixels[y] - 255).max(axis=1) > 6
        if not ink[cx]:
            continue
        a, b = cx, cx
        while a > 0 and ink[a - 1]:
            a -= 1
        while b + 1 < len(ink) and ink[b + 1]:
            b += 1
        if b - a < 0.9 * width:
            continue
        probes = [pixels[y, a + 4], pixels[y, (a + b) // 2], pixels[y, b - 4]]
        if all(np.abs(p - e).max() <= 12 for p, e in zip(probes, ends)):
            return y - bottom
    return None


def main():
    if not tally.check_model():
        return tally.finish()
    photo = os.path.join(TMP, "patchwork.png")
    colours = patchwork(photo, 1)
    fig, table = os.path.join(TMP, "relevance.png"), os.path.join(TMP, "relevance.csv")
    r = subprocess.run([BIN, "explain", photo, "--question", "relevance", "--class", "1", "--model", MODEL, "-o", fig,
                        "--csv", table], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)
    if not check("explain -o and --csv exit 0", r.returncode == 0, r.stderr):
        return tally.finish()
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    check(f"the CSV has a row per patch ({len(rows)})", len(rows) == GRID * GRID)
    values = {m: np.zeros((GRID, GRID)) for m in METHODS}
    for row in rows:
        for m in METHODS:
            values[m][int(row["row"]), int(row["col"])] = float(row[m])
    im = Image.open(fig)
    pixels = np.asarray(im.convert("RGB")).astype(np.float64)
    maps = [c for c in json.loads(im.info.get("vitscope:cells", "[]")) if c["name"] == "relevance/relevance_map"]
    if not check(f"the figure records the four maps ({len(maps)})", len(maps) == 4):
        return tally.finish()
    for m, block in zip(METHODS, maps):
        v = values[m]
        if m == "occlusion":
            extent = np.abs(v).max() or 1.0
            t = (v + extent) / (2 * extent)
            expected = blend(colours, t, 0.7 * np.abs(2 * t - 1), DIVERGING)
        else:
            t = v / v.max()
            expected = blend(colours, t, 0.7 * t)
        drawn = sample(pixels, block["x0"], block["y0"], block["cell"], block["cell"])
        if not check(f"{m}: a {GRID} x {GRID} map inside the figure", drawn is not None and block["grid"] == GRID):
            continue
        err, at = worst(drawn, expected)
        check(f"{m}: every cell within 3/255 of its number's colour (worst {err:.0f} at {at}: {drawn[at].tolist()} vs "
              f"{expected[at].tolist()})", err <= 3)
        # Its own colour bar under it (issue 32, item 8), as wide as the photo on show.
        found = colour_bar_below(pixels, block, DIVERGING if m == "occlusion" else VIRIDIS)
        check(f"{m}: a colour bar of its own colormap under the map ({'%d px below' % found if found else 'none'})",
              found is not None)
    # The curves' legends above the plots, not over the curves (issue 32, item 8): no text-dark pixel inside
    # either plotting area (the curves are coloured, the grid faint), the legend's dark text above it.
    plots = [c for c in json.loads(im.info.get("vitscope:cells", "[]")) if c["name"] in ("relevance/positive", "relevance/negative")]
    check(f"the figure records the two curve plots ({len(plots)})", len(plots) == 2)
    for c in plots:
        x0, x1 = int(c["x0"]), int(c["x0"] + c["cell"])
        y0, y1 = int(c["y0"]), int(c["y0"] + c["cell_h"])
        inside = (pixels[y0 + 4:y1 - 4, x0 + 4:x1 - 4].max(axis=2) < 60).sum()
        above = (pixels[max(0, y0 - 120):y0 - 2, max(0, x0 - 100):x1].max(axis=2) < 60).sum()
        check(f"{c['name']}: no legend or label text inside the curves' area ({inside} dark pixels), the legend "
              f"above it ({above})", inside == 0 and above > 200)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
