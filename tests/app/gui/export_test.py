#!/usr/bin/env python3
"""`vitscope export`: the offscreen figure, checked against the model's numbers.

The figure's PNG carries its layout (text chunk "vitscope:layout"), so the
test finds the opaque map panel and the colour bar, reads each patch's colour
back to a colormap position using the bar in the same picture, and compares
those with the weights `vitscope attention` prints for the same query.
Runs without a display server (DISPLAY unset): rendering goes through EGL.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, MODEL_NAME, NO_DISPLAY, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_export_")


def vitscope(*args, env=None):
    return subprocess.run([BIN, *args, "--model", MODEL], env={**NO_DISPLAY, **(env or {})}, capture_output=True, text=True,
                          timeout=300)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def attention_weights(*query):
    """Patch weights as a grid, from `vitscope attention` (CSV key,row,col,score,scaled,weight)."""
    r = vitscope("attention", DOG, *query)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "key,row,col,score,scaled,weight", lines[0]
    rows = [line.split(",") for line in lines[1:]]
    patches = [(int(p[1]), int(p[2]), float(p[5])) for p in rows if int(p[1]) >= 0]
    grid = int(round(len(patches) ** 0.5))
    w = np.zeros((grid, grid))
    for row, col, weight in patches:
        w[row, col] = weight
    return w


def read_figure(path):
    im = Image.open(path)
    layout = json.loads(im.info["vitscope:layout"])
    return np.asarray(im.convert("RGB")).astype(np.float64), layout, im


def decode_map(pixels, layout):
    """Colormap position t in [0, 1] of every patch in the opaque map panel,
    by nearest colour along the figure's own colour bar."""
    bx, by, bw, bh = layout["colorbar"]
    bar = pixels[by + bh // 2, bx:bx + bw]                 # bw colours, t = (i + 0.5) / bw
    bar_t = (np.arange(bw) + 0.5) / bw
    mx, my, mw, mh = layout["map_panel"]
    g = layout["grid"]
    t = np.zeros((g, g))
    for r in range(g):
        for c in range(g):
            cx = int(mx + (c + 0.5) * mw / g)
            cy = int(my + (r + 0.5) * mh / g)
            colour = pixels[cy - 2:cy + 3, cx - 2:cx + 3].reshape(-1, 3).mean(0)
            t[r, c] = bar_t[np.argmin(((bar - colour) ** 2).sum(1))]
    return t


def spearman(a, b):
    def ranks(x):
        order = np.argsort(x, kind="stable")
        r = np.empty(len(x))
        r[order] = np.arange(len(x))
        for v in np.unique(x):          # ties share their mean rank
            r[x == v] = r[x == v].mean()
        return r
    ra, rb = ranks(np.ravel(a)), ranks(np.ravel(b))
    return float(np.corrcoef(ra, rb)[0, 1])


def check_map_matches(name, path, weights):
    pixels, layout, _ = read_figure(path)
    t = decode_map(pixels, layout)
    expected = weights / weights.max()                     # row-max normalisation
    # Ranks among patches an 8-bit colour can tell apart: below 1/256 of the
    # maximum they all share the colormap's first step, and their order is noise.
    visible = expected >= 1 / 256
    rho = spearman(weights[visible], t[visible])
    check(f"{name}: map colours rank like the weights over the {visible.sum()} visible patches "
          f"(Spearman {rho:.4f} > 0.95)", rho > 0.95 and visible.sum() >= 5)
    err = np.abs(t - expected)
    check(f"{name}: every patch's colour decodes to weight / max within 0.01 (worst {err.max():.4f})",
          err.max() < 0.01)
    top = np.unravel_index(np.argmax(weights), weights.shape)
    brightest = np.argwhere(t >= t.max() - 1e-9)
    check(f"{name}: brightest patch {brightest.tolist()} is the argmax weight patch {list(top)}",
          any(tuple(b) == tuple(top) for b in brightest))
    return pixels, layout


def main():
    if not tally.check_model():
        return tally.finish()
    tmp = TMP
    out = os.path.join(tmp, "out.png")
    base = ["export", DOG, "--layer", "8", "--head", "1", "--patch", "5,7", "-o", out]

    # The figure for one head.
    r = vitscope(*base)
    check("export exits 0 without a display", r.returncode == 0, r.stderr)
    if r.returncode != 0:
        return tally.finish()
    check("no temporary file left behind", not os.path.exists(out + ".tmp"))
    try:
        Image.open(out).verify()    # chunk CRCs, the text chunks' included
        check("a well-formed PNG", True)
    except Exception as e:          # noqa: BLE001 - any complaint from PIL is the failure
        check("a well-formed PNG", False, str(e))
    pixels, layout, im = read_figure(out)
    check("a PNG of the size its layout states", im.format == "PNG" and im.size == (layout["width"], layout["height"]),
          f"{im.format} {im.size} vs {layout['width']}x{layout['height']}")
    px, py, pw, ph = layout["photo_panel"]
    check("photo panel is 2048 px on its long side, photo's aspect kept",
          max(pw, ph) == 2048 and abs(pw / ph - 768 / 576) < 2e-3, f"{pw}x{ph}")
    caption = im.info.get("Description", "")
    check("caption names model, layer, head and query",
          MODEL_NAME in caption and "layer 8 \u00b7 head 1 \u00b7 query patch (5, 7) (token 78)" in caption, caption)
    below = pixels[py + ph + 10:, px:px + pw]
    check("caption text is drawn under the photo", (below.min(axis=2) < 100).sum() > 500)

    weights = attention_weights("--layer", "8", "--head", "1", "--patch", "5,7")
    check_map_matches("head 1", out, weights)

    # The query patch is outlined in white on the photo: the middle of each of its edges
    # and its corners (the outline is drawn only in a box around the patch: none cut off).
    cx, cy, cw, ch = layout["crop_in_photo_panel"]
    g = layout["grid"]
    left, right = px + cx + 7 * cw / g, px + cx + 8 * cw / g
    top, bottom = py + cy + 5 * ch / g, py + cy + 6 * ch / g
    mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
    points = {"left": (left, mid_y), "right": (right, mid_y), "top": (mid_x, top), "bottom": (mid_x, bottom),
              "top left": (left, top), "bottom right": (right, bottom)}
    for name, (x, y) in points.items():
        p = pixels[int(round(y)), int(round(x))]
        check(f"selected patch outlined in white on the photo: {name}", p.min() > 230, str(p))

    # Outside the crop the photo is dimmed (the strip left of the crop).
    photo = np.asarray(Image.open(DOG).convert("RGB").resize((pw, ph), Image.BILINEAR)).astype(np.float64)
    x1 = int(cx) - 8
    strip_fig = pixels[py + 20:py + ph - 20, px + 8:px + x1].mean()
    strip_photo = photo[20:ph - 20, 8:x1].mean()
    ratio = strip_fig / strip_photo
    check(f"photo outside the crop dimmed (brightness ratio {ratio:.2f} ~ 0.45)", 0.38 < ratio < 0.52)

    # Refusals: nothing written, nothing replaced.
    before = sha(out)
    r = vitscope(*base)
    check("exporting over an existing file exits 2", r.returncode == 2, f"rc={r.returncode}")
    check("... says to pass --force", "exists; pass --force to replace it" in r.stderr, r.stderr)
    check("... and leaves the file as it was", sha(out) == before)
    r = vitscope(*base, "--force", "--colormap", "magma")
    check("--force replaces it", r.returncode == 0 and sha(out) != before, r.stderr)
    if r.returncode == 0:
        _, layout, _ = read_figure(out)
        check("... with the options after it (--colormap magma)", layout["colormap"] == "magma", layout["colormap"])
        check_map_matches("magma", out, weights)

    bad = os.path.join(tmp, "bad.png")
    for what, args in [("--layer 12", ["--layer", "12", "--head", "0"]),
                       ("--head 3", ["--layer", "8", "--head", "3"]),
                       ("--head with --mean-heads", ["--layer", "8", "--head", "0", "--mean-heads"]),
                       ("--patch 14,0", ["--layer", "8", "--head", "0", "--patch", "14,0"]),
                       ("--colormap jet", ["--layer", "8", "--head", "0", "--colormap", "jet"])]:
        query = [] if "--patch" in args else ["--patch", "5,7"]
        r = vitscope("export", DOG, *args, *query, "-o", bad)
        one_line = r.stderr.startswith("vitscope: error: ") and r.stderr.count("\n") == 1
        check(f"bad {what}: exit 2, one error line, no file",
              r.returncode == 2 and one_line and not os.path.exists(bad) and not os.path.exists(bad + ".tmp"),
              f"rc={r.returncode} {r.stderr.strip()}")
    r = vitscope("export", DOG, "--layer", "8", "--head", "1", "--patch", "5,7", "-o", os.path.join(tmp, "no", "x.png"))
    check("missing output folder: exit 2", r.returncode == 2, r.stderr)
    for what, env, says in [("shader folder", {"VITSCOPE_SHADER_DIR": os.path.join(tmp, "none")}, "shader"),
                            ("font", {"VITSCOPE_FONT": os.path.join(tmp, "none.ttf")}, "font")]:
        r = vitscope("export", DOG, "--layer", "8", "--head", "1", "--patch", "5,7", "-o", bad, env=env)
        check(f"missing {what}: exit 2, says so, no file",
              r.returncode == 2 and says in r.stderr and not os.path.exists(bad) and not os.path.exists(bad + ".tmp"),
              f"rc={r.returncode} {r.stderr.strip()}")

    # Mean of heads, at a smaller size: the map is the average of the three rows.
    mean_png = os.path.join(tmp, "mean.png")
    r = vitscope("export", DOG, "--layer", "8", "--mean-heads", "--patch", "5,7", "--size", "1024", "-o", mean_png)
    check("--mean-heads --size 1024 exits 0", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        _, layout, im = read_figure(mean_png)
        check("--size 1024 sets the photo panel's long side",
              max(layout["photo_panel"][2:]) == 1024 and im.size == (layout["width"], layout["height"]))
        check("caption says mean of heads", "mean of heads" in im.info.get("Description", ""))
        mean_w = np.mean([attention_weights("--layer", "8", "--head", str(h), "--patch", "5,7") for h in range(3)], axis=0)
        check_map_matches("mean of heads", mean_png, mean_w)

    # CLS as the query: its row, no patch outlined.
    cls_png = os.path.join(tmp, "cls.png")
    r = vitscope("export", DOG, "--layer", "11", "--head", "0", "--query", "cls", "--size", "768", "-o", cls_png)
    check("--query cls exits 0", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        _, _, im = read_figure(cls_png)
        check("caption says query CLS", "query CLS" in im.info.get("Description", ""))
        check_map_matches("CLS", cls_png, attention_weights("--layer", "11", "--head", "0", "--query", "cls"))

    return tally.finish()


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
