#!/usr/bin/env python3
"""The sweep's animations keep the figure's colours.

`vitscope sweep --frames DIR` writes each frame's exact PNG beside the
animation. The GIF, decoded by giflib itself (giflib_frames.py), is compared
with them frame by frame:
  - 99 % of the pixels within 24 levels in every channel;
  - every cell of the map panel (the map alone, opaque) within 12 levels of a
    colour of the colormap, read off the PNG's own colour bar, and every cell
    of the photo panel (map blended with the photo) within 12 levels of the
    PNG's cell: no cell turns into a colour of neither;
  - the colour bar not banded: along its middle row no step between
    neighbours over 8 levels (the PNG's is 2), no pixel more than 4 levels
    from the PNG's bar, and no run of one colour over three times the PNG's.
Without and with --dither. The WebP, decoded by libwebp (PIL's WebP plugin is
libwebp's WebPAnimDecoder), is lossless: every frame equals its PNG exactly.
The frames are 720 px by default, with caption text at least 14 px tall.
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from giflib_frames import gif_frames  # noqa: E402
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_sweep_colours_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
PATH = "5,3;5,4;6,4"


def sweep(out, frames, *extra):
    return subprocess.run([BIN, "sweep", DOG, "--layer", "3", "--head", "2", "--path", PATH, "-o", out,
                           "--frames", frames, "--model", MODEL, *extra], env=NO_DISPLAY, capture_output=True, text=True,
                          timeout=600)


def exact_frames(frames):
    names = sorted(os.listdir(frames))
    pngs = [Image.open(os.path.join(frames, n)) for n in names]
    return [np.asarray(p.convert("RGB")) for p in pngs], [json.loads(p.info["vitscope:layout"]) for p in pngs]


def cells(panel, grid, inner=0.4):
    """The central `inner` of each of the grid's cells in a panel rectangle: (y0, y1, x0, x1)."""
    x, y, w, h = panel
    m = (1 - inner) / 2
    for r in range(grid):
        for c in range(grid):
            yield (int(y + (r + m) * h / grid), int(y + (r + 1 - m) * h / grid),
                   int(x + (c + m) * w / grid), int(x + (c + 1 - m) * w / grid))


def longest_run(row):
    best = run = 1
    for a, b in zip(row, row[1:]):
        run = run + 1 if np.array_equal(a, b) else 1
        best = max(best, run)
    return best


def compare(name, gif_rgb, png, layout):
    """The checks of one frame; returns the figures printed for the record."""
    diff = np.abs(gif_rgb.astype(np.int16) - png.astype(np.int16)).max(axis=2)
    within = float((diff <= 24).mean())
    g = layout["grid"]
    bx, by, bw, bh = layout["colorbar"]
    bar_png, bar_gif = png[by + bh // 2, bx:bx + bw], gif_rgb[by + bh // 2, bx:bx + bw]
    colormap = np.unique(bar_png.reshape(-1, 3), axis=0).astype(np.int16)
    worst_map = 0
    for y0, y1, x0, x1 in cells(layout["map_panel"], g):
        mean = gif_rgb[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64).mean(axis=0)
        worst_map = max(worst_map, float(np.abs(colormap - mean).max(axis=1).min()))
    # The photo panel's cells: the crop inside the photo panel.
    px, py = layout["photo_panel"][:2]
    cx, cy, cw, ch = layout["crop_in_photo_panel"]
    worst_photo = 0
    for y0, y1, x0, x1 in cells((px + cx, py + cy, cw, ch), g):
        a = gif_rgb[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64).mean(axis=0)
        b = png[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64).mean(axis=0)
        worst_photo = max(worst_photo, float(np.abs(a - b).max()))
    distinct_png, distinct_gif = len(np.unique(bar_png, axis=0)), len(np.unique(bar_gif, axis=0))
    run_png, run_gif = longest_run(bar_png), longest_run(bar_gif)
    # A band is a step the eye sees: the largest jump between neighbours along the bar, and how far the bar is
    # from the exact one anywhere.
    step_png = int(np.abs(np.diff(bar_png.astype(np.int16), axis=0)).max())
    step_gif = int(np.abs(np.diff(bar_gif.astype(np.int16), axis=0)).max())
    off_bar = int(np.abs(bar_gif.astype(np.int16) - bar_png.astype(np.int16)).max())
    check(f"{name}: 99 % of pixels within 24 levels of the PNG", within >= 0.99, within)
    check(f"{name}: every map-panel cell within 12 levels of a colormap colour", worst_map <= 12, worst_map)
    check(f"{name}: every photo-panel cell within 12 levels of the PNG's", worst_photo <= 12, worst_photo)
    check(f"{name}: the colour bar not banded (steps of at most 8 levels, within 4 of the exact bar, no run over 3x the PNG's)",
          step_gif <= max(8, step_png) and off_bar <= 4 and run_gif <= 3 * run_png,
          (step_gif, step_png, off_bar, run_gif, run_png))
    return (within, float(diff.mean()), worst_map, worst_photo, distinct_gif, distinct_png, run_gif, run_png, step_gif,
            step_png, off_bar)


def main():
    if not tally.check_model():
        return tally.finish()
    for dither in (False, True):
        label = "dithered GIF" if dither else "GIF"
        out, frames = os.path.join(TMP, f"{label}.gif"), os.path.join(TMP, f"{label} frames")
        r = sweep(out, frames, *(["--dither"] if dither else []))
        if not check(f"{label}: written", r.returncode == 0, r.stderr):
            continue
        pngs, layouts = exact_frames(frames)
        decoded = gif_frames(out)
        check(f"{label}: giflib decodes as many frames as PNGs", len(decoded) == len(pngs) == 3, len(decoded))
        for i, ((rgb, colours), png, layout) in enumerate(zip(decoded, pngs, layouts)):
            figures = compare(f"{label} frame {i + 1}", rgb, png, layout)
            print("    %s frame %d: %d colours; %.4f within 24, mean |diff| %.2f; worst map cell %.1f from the "
                  "colormap, worst photo cell %.1f; bar %d/%d colours, longest run %d/%d px, largest step %d/%d, "
                  "%d from the exact bar" %
                  (label, i + 1, colours, *figures))

    out, frames = os.path.join(TMP, "sweep.webp"), os.path.join(TMP, "webp frames")
    r = sweep(out, frames)
    if check("WebP: written", r.returncode == 0, r.stderr):
        pngs, layouts = exact_frames(frames)
        webp = Image.open(out)
        check("WebP: an animation of three frames looping forever",
              webp.format == "WEBP" and webp.n_frames == 3 and webp.info.get("loop") == 0, (webp.n_frames, webp.info))
        for i, png in enumerate(pngs):
            webp.seek(i)
            rgb = np.asarray(webp.convert("RGB"))
            check(f"WebP frame {i + 1}: every pixel exactly the PNG's (lossless)", np.array_equal(rgb, png),
                  np.abs(rgb.astype(np.int16) - png).max())
            check(f"WebP frame {i + 1}: shown 150 ms", webp.info.get("duration") == 150, webp.info.get("duration"))
        print(f"    sizes: GIF {os.path.getsize(os.path.join(TMP, 'GIF.gif'))} B, "
              f"WebP {os.path.getsize(out)} B for 3 frames of {layouts[0]['width']} x {layouts[0]['height']}")
        check("the default frame is wide enough for a slide (at least 1200 px)", layouts[0]["width"] >= 1200,
              layouts[0]["width"])

    refused = os.path.join(TMP, "refused.webp")
    r = sweep(refused, os.path.join(TMP, "refused frames"), "--dither")
    check("--dither on a WebP: refused, nothing written",
          r.returncode == 2 and r.stderr.startswith("vitscope: error: ") and r.stderr.count("\n") == 1 and
          not os.path.exists(refused) and not os.path.exists(refused + ".tmp"), r.stderr)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
