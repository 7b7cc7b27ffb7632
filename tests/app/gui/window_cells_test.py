#!/usr/bin/env python3
"""The window's maps checked against the numbers, cell by cell, under Xvfb.

The window opens a patchwork photo (tests/support/drawn_colours.py: one colour a
patch, so the photo under every cell centre is known) with a patch as the
query, and a script takes screenshots and exports the figure. Every cell
centre is sampled where the state file says the photo and the heads strip's
thumbnails are drawn (image_view, head_thumbs, with the crop and photo size),
and compared with what the overlay shader must draw for the attention rows
`vitscope attention` prints, each head's and their mean:

  photo, style opacity=1 fade=off grid=off   exactly the colormap of the row
      against its largest patch weight (no photo in it: the exact check)
  photo, the default style                   the blend with the photo,
      opacity 0.7 times t (fade)
  photo, smooth=on opacity=1 fade=off grid=off   the bilinear program: at
      each cell centre and on the borders between horizontal neighbours,
      the colormap of the row interpolated between the centres at that
      pixel (within a pixel of where it is drawn)
  thumbnails                                 each head's row, and the mean of
      the three (the last thumbnail), at opacity 0.85 without fade, each
      against its own largest weight (src/ui/panels/heads_panel.cpp's style)
  the layers x heads grid                    the same style for the query's
      row in every layer (attn.npy of `vitscope dump`), each head and the
      mean, where the state file's layer_grid says each cell is
  the exported figure (script `export`)      drawn by another path
      (gfx/figure.cpp): the map panel opaque (the colormap alone), the photo
      panel blended as the window's; where from its "vitscope:layout" chunk

Within 3/255 per channel, the query's 3 x 3 left out (its outline).
Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR."""
import csv
import io
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from drawn_colours import GRID, blend, colormap, VIRIDIS, patchwork, sample, worst  # noqa: E402
from script_support import BIN, MODEL, Tally  # noqa: E402
from window_support import Window, read_state, run_window_tests  # noqa: E402

LAYER, HEAD, ROW, COL = 6, 1, 5, 3
tally = Tally()


def attention(photo, head):
    """The query's patch weights from `vitscope attention`, (14, 14)."""
    out = subprocess.run([BIN, "attention", photo, "--layer", str(LAYER), "--head", str(head), "--patch",
                          f"{ROW},{COL}", "--model", MODEL], check=True, capture_output=True, text=True,
                         timeout=300).stdout
    w = np.zeros((GRID, GRID))
    for r in csv.DictReader(io.StringIO(out)):
        if int(r["row"]) >= 0:
            w[int(r["row"]), int(r["col"])] = float(r["weight"])
    return w


def every_layer(photo, tmp):
    """The query's patch weights in every layer and head from `vitscope dump`, (layers, heads, 14, 14)."""
    out = os.path.join(tmp, "dump")
    subprocess.run([BIN, "dump", photo, "-o", out, "--model", MODEL], check=True, capture_output=True, timeout=300)
    attn = np.load(os.path.join(out, "attn.npy")).astype(np.float64)
    prefix = attn.shape[-1] - GRID * GRID
    q = prefix + ROW * GRID + COL
    return attn[:, :, q, prefix:].reshape(attn.shape[0], attn.shape[1], GRID, GRID)


def compare(label, drawn, expected):
    if drawn is None:
        tally.check(f"{label}: the cells are inside the picture", False)
        return
    err, at = worst(drawn, expected, skip=(ROW, COL))
    tally.check(f"{label}: every cell within 3/255 of the numbers' colour (worst {err:.0f} at {at}: "
                f"{drawn[at].tolist()} vs {expected[at].tolist()})", err <= 3)


def check_smooth(pixels, s, t):
    """The smooth map at every cell centre and on the border between each cell and its right neighbour (row
    centres): the colormap of t interpolated between the cell centres as the shader does it at that pixel's
    centre (edge values held beyond the outer centres); the best of the pixel and its eight neighbours, since
    where the window places the map is known to about a pixel."""
    x, y, width, height = s["image_view"]
    pw, ph = s["photo_size"]
    cx, cy, cw, ch = s["crop"]
    x0, y0 = x + cx * width / pw, y + cy * height / ph
    cell_w, cell_h = cw * width / pw / GRID, ch * height / ph / GRID

    def interpolated(px, py):
        p = np.array([(px + 0.5 - x0) / cell_w, (py + 0.5 - y0) / cell_h]) - 0.5
        i = np.floor(p).astype(int)
        f = p - i
        at = lambda r, c: t[min(max(r, 0), GRID - 1), min(max(c, 0), GRID - 1)]  # noqa: E731
        top = at(i[1], i[0]) + (at(i[1], i[0] + 1) - at(i[1], i[0])) * f[0]
        bottom = at(i[1] + 1, i[0]) + (at(i[1] + 1, i[0] + 1) - at(i[1] + 1, i[0])) * f[0]
        return top + (bottom - top) * f[1]

    worst_err, where = 0.0, None
    for r in range(GRID):
        py = int(np.floor(y0 + (r + 0.5) * cell_h))
        for c, along in [(c, "centre") for c in range(GRID)] + [(c, "border") for c in range(GRID - 1)]:
            if abs(r - ROW) <= 1 and abs(c - COL) <= 1:  # the query's outline
                continue
            px = int(np.floor(x0 + (c + (0.5 if along == "centre" else 1.0)) * cell_w))
            err = min(np.abs(pixels[py, px, :3].astype(np.float64) -
                             np.floor(colormap(VIRIDIS, interpolated(px + dx, py + dy)) * 255 + 0.5)).max()
                      for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            if err > worst_err:
                worst_err, where = err, (r, c, along)
    tally.check(f"photo, smooth: every cell centre and border between horizontal neighbours within 3/255 of "
                f"the interpolated colour (worst {worst_err:.0f} at {where})", worst_err <= 3)


def test_drawn_cells(xvfb, tmp):
    photo = os.path.join(tmp, "patchwork.png")
    colours = patchwork(photo, 3)
    heads = [attention(photo, h) for h in range(3)]
    shots = {k: os.path.join(tmp, k + ".png") for k in ("default", "opaque", "smooth")}
    figure = os.path.join(tmp, "figure.png")
    script = os.path.join(tmp, "cells.txt")
    with open(script, "w") as f:
        f.write(f"frames 3\nscreenshot {shots['default']}\nexport {figure}\n"
                f"style opacity=1 fade=off grid=off\nframes 3\nscreenshot {shots['opaque']}\n"
                f"style smooth=on\nframes 3\nscreenshot {shots['smooth']}\n")
    xvfb.park_pointer()  # no hover outline on a map
    w = Window(xvfb, BIN, [photo, "--model", MODEL, "--select", f"{ROW},{COL}", "--layer", str(LAYER), "--head",
                           str(HEAD), "--script", script, "--quit"], tmp)
    try:
        assert w.proc.wait(timeout=300) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    s = read_state(w.state_file)
    assert s["last_error"] == "", s["last_error"]
    assert (s["grid"], s["layer"], s["head"], s["row"], s["col"]) == (GRID, LAYER, HEAD, ROW, COL), s
    px = {k: np.asarray(Image.open(p).convert("RGB")) for k, p in shots.items()}

    # Where the crop's cells are in a picture of the whole photo drawn at (x, y) w x h.
    pw, ph = s["photo_size"]
    cx, cy, cw, ch = s["crop"]

    def cells(pixels, x, y, width, height):
        sx, sy = width / pw, height / ph
        return sample(pixels, x + cx * sx, y + cy * sy, cw * sx / GRID, ch * sy / GRID)

    row = heads[HEAD]
    t = row / row.max()
    compare("photo, opacity 1 without fade (the colormap alone)", cells(px["opaque"], *s["image_view"]),
            np.floor(colormap(VIRIDIS, t) * 255 + 0.5))
    compare("photo, the default style (0.7 x t over the photo)", cells(px["default"], *s["image_view"]),
            blend(colours, t, 0.7 * t))
    check_smooth(px["smooth"], s, t)
    thumbs = s["head_thumbs"]
    tally.check(f"the heads strip has 3 heads and the mean ({len(thumbs)})", len(thumbs) == 4)
    for i, rect in enumerate(thumbs[:4]):
        w_i = heads[i] if i < 3 else np.mean(heads, axis=0)
        ti = w_i / w_i.max()
        name = f"thumbnail of head {i}" if i < 3 else "thumbnail of the mean"
        for shot in ("default", "opaque"):  # the thumbnails keep their own opacity in either style
            compare(f"{name} ({shot} style)", cells(px[shot], *rect), blend(colours, ti, np.full(ti.shape, 0.85)))

    # The layers x heads grid: each layer's heads, then their mean, in the thumbnails' style.
    rows = every_layer(photo, tmp)
    layers, heads_n = rows.shape[:2]
    grid = s["layer_grid"]
    if tally.check(f"the grid has {layers} x ({heads_n} heads + the mean) cells ({len(grid)})",
                   len(grid) == layers * (heads_n + 1)):
        worst_seen = []
        for i, rect in enumerate(grid):
            layer, col = divmod(i, heads_n + 1)
            w_i = rows[layer, col] if col < heads_n else rows[layer].mean(axis=0)
            drawn = cells(px["default"], *rect)
            if drawn is None:
                worst_seen.append((float("inf"), layer, col))
                continue
            err, _ = worst(drawn, blend(colours, w_i / w_i.max(), np.full(w_i.shape, 0.85)), skip=(ROW, COL))
            worst_seen.append((err, layer, col))
        err, layer, col = max(worst_seen)
        tally.check(f"every cell of the {len(grid)} grid maps within 3/255 of its numbers' colour (worst {err:.0f} "
                    f"in layer {layer}, {'head ' + str(col) if col < heads_n else 'the mean'})", err <= 3)

    # The exported figure: another drawing path, with its layout in the PNG.
    img = Image.open(figure)
    layout = json.loads(img.info["vitscope:layout"])
    fig = np.asarray(img.convert("RGB"))
    mx, my, mw, mh = layout["map_panel"]
    compare("exported figure, map panel (opaque)", sample(fig, mx, my, mw / GRID, mh / GRID),
            np.floor(colormap(VIRIDIS, t) * 255 + 0.5))
    (px0, py0, _, _), (kx, ky, kw, kh) = layout["photo_panel"], layout["crop_in_photo_panel"]
    compare("exported figure, photo panel (0.7 x t over the photo)",
            sample(fig, px0 + kx, py0 + ky, kw / GRID, kh / GRID), blend(colours, t, 0.7 * t))


if __name__ == "__main__":
    sys.exit(run_window_tests(tally, [test_drawn_cells], "vitscope_window_cells_"))
