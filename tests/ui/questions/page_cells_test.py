#!/usr/bin/env python3
"""The Questions pages' cells coloured from numbers, checked against the numbers.

`vitscope explain -o` records in the PNG (text chunk "vitscope:cells") where a
page coloured cells from numbers; this test samples every drawn cell's centre
and compares its colour with the colormap of a NumPy recomputation from the
checkpoint (never with the program's own numbers), so a drawing bug (a wrong
texture extent, a transposed mosaic, a shifted cell) fails here.

The Position page's grid of small maps: small map p's cell k is the cosine of
position p's embedding with position k's, on the blue-white-red colormap
(knots as defined in src/ui/widgets/vector_strip.cpp). Checked at the model's
own grid (14 x 14: a 196-texel mosaic in 256-texel storage, the case that
broke) and at --size 288 (18 x 18, interpolated embeddings).
Runs without a display server (EGL).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally

import pos_embed_np  # noqa: E402
import safetensors_np  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_cells_")
RING = 4 * 2 + 1  # the selection ring's reach beyond a small map: 4 logical px at the figure's density 2, + antialiasing

# The diverging colormap: blue (-1) .. white (0) .. red (+1), five knots, linear between.
KNOTS = np.array([[0.150, 0.280, 0.620], [0.530, 0.680, 0.880], [0.965, 0.965, 0.965],
                  [0.930, 0.560, 0.460], [0.690, 0.090, 0.150]])


def diverging(v):
    """8-bit colours of values v in [-1, 1] (any shape)."""
    x = np.clip(0.5 + 0.5 * np.asarray(v, dtype=np.float64), 0, 1) * 4
    i = np.minimum(x.astype(int), 3)
    a = (x - i)[..., None]
    return np.floor((KNOTS[i] + (KNOTS[i + 1] - KNOTS[i]) * a) * 255 + 0.5)


def reference_cosines(size):
    """Every patch position's embedding against every other's (grid^2 x grid^2),
    from the checkpoint, resampled as timm does for another input size."""
    tensors, _ = safetensors_np.load(os.path.join(MODEL, "model.safetensors"))
    pos = tensors["pos_embed"][0].astype(np.float64)[1:]          # ViT-Ti: CLS's row first
    own = int(round(len(pos) ** 0.5))
    grid = size // 16
    if grid != own:
        pos = pos_embed_np.resize_pos_embed(pos, 0, own, grid, antialias=True)
    u = pos / np.linalg.norm(pos, axis=1, keepdims=True)
    return u @ u.T, grid


def figure(name, *args):
    out = os.path.join(TMP, name + ".png")
    r = subprocess.run([BIN, "explain", DOG, "--model", MODEL, "-o", out, *args], env=NO_DISPLAY, capture_output=True,
                       text=True, timeout=300)
    if not check(f"{name}: explain -o exits 0", r.returncode == 0, r.stderr):
        return None, None
    im = Image.open(out)
    return np.asarray(im.convert("RGB")).astype(np.float64), json.loads(im.info.get("vitscope:cells", "[]"))


def check_small_maps(name, size, patch):
    cos, g = reference_cosines(size)
    args = ["--question", "position", "--patch", f"{patch[0]},{patch[1]}"] + (["--size", str(size)] if size != 224 else [])
    pixels, cells = figure(name, *args)
    if pixels is None:
        return
    block = next((c for c in cells if c["name"] == "position/small_maps"), None)
    if not check(f"{name}: the figure records its small maps ({[c['name'] for c in cells]})", block is not None):
        return
    check(f"{name}: {g} x {g} small maps of {g} x {g} cells", block["grid"] == g and block["maps"] == g, block)
    check(f"{name}: cells of at least 3 px ({block['cell']:.2f})", block["cell"] >= 3)
    # Centre pixel of small map p's cell k, for every p and k.
    p = np.arange(g * g)
    mr, mc = np.divmod(p, g)
    x = block["x0"] + mc[:, None] * block["step"] + ((p[None, :] % g) + 0.5) * block["cell"]
    y = block["y0"] + mr[:, None] * block["step"] + ((p[None, :] // g) + 0.5) * block["cell"]
    xi, yi = np.floor(x).astype(int), np.floor(y).astype(int)
    inside = (xi >= 0) & (yi >= 0) & (xi < pixels.shape[1]) & (yi < pixels.shape[0])
    if not check(f"{name}: every cell inside the figure", inside.all()):
        return
    drawn = pixels[yi, xi]                                         # (g², g², 3)
    expected = diverging(cos)
    err = np.abs(drawn - expected).max(axis=2)
    # The query's small map is outlined by a ring reaching RING px beyond it: on a
    # fine grid it covers the edge cells of the maps around it, which are left out.
    q = patch[0] * g + patch[1]
    qx, qy = block["x0"] + patch[1] * block["step"], block["y0"] + patch[0] * block["step"]
    side = g * block["cell"]
    under_ring = (x > qx - RING) & (x < qx + side + RING) & (y > qy - RING) & (y < qy + side + RING)
    under_ring[q, :] = False
    err[under_ring] = 0
    worst = np.unravel_index(np.argmax(err), err.shape)
    check(f"{name}: every one of the {g ** 4 - under_ring.sum()} cells not under the query's ring has its cosine's "
          f"colour within 3/255 (worst {err.max():.0f} at map {divmod(worst[0], g)} cell {divmod(worst[1], g)})",
          err.max() <= 3)
    drawn = np.where(under_ring[..., None], expected, drawn)
    # The same read back as numbers: the colour nearest along the colormap, a chunk of cells at a time.
    ramp_v = np.linspace(-1, 1, 801)
    ramp = diverging(ramp_v)
    flat = drawn.reshape(-1, 3)
    decoded = np.concatenate([ramp_v[np.argmin(((chunk[:, None, :] - ramp[None]) ** 2).sum(2), axis=1)]
                              for chunk in np.array_split(flat, max(1, len(flat) // 2000))]).reshape(cos.shape)
    derr = np.abs(decoded - cos)
    check(f"{name}: decoded cosines within 0.02 of NumPy's (worst {derr.max():.4f})", derr.max() < 0.02)
    # The query's own small map: its own cell is the reddest (cosine 1).
    own = drawn[q, q]
    check(f"{name}: the query's own cell in its small map is the cosine-1 red {own.tolist()}",
          np.abs(own - diverging(1.0)).max() <= 3)


def main():
    if not tally.check_model():
        return tally.finish()
    check_small_maps("position 224", 224, (5, 3))
    check_small_maps("position 288", 288, (2, 15))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
