#!/usr/bin/env python3
"""The Questions pages' maps over the photo, checked against the numbers.

`vitscope explain -o` records in the PNG (text chunk "vitscope:cells", see
src/ui/widgets/drawn_cells.h) where each map over the photo has its model
crop's cells ("PAGE/ID"). This test samples every cell's centre and compares
its colour with what the overlay shader (shaders/overlay.frag) must give for
numbers recomputed here, never read back from the drawing code: the
shader's blend of the colormap with the photo, on patchwork photos whose
pixel under every cell centre is known (tests/support/drawn_colours.py; their
texture is padded, so a drawing that ignores the photo's extent of it
fails). The numbers:

  cls/cls_map (12)  CLS's row of head H in every layer (attn.npy of `vitscope
                    dump`), each map against its own largest patch weight,
                    opacity 1 fading with the weight (the strip's style)
  cls/rollout       Abnar & Zuidema's rollout, computed here from attn.npy:
                    per layer (mean of heads + I) / 2, rows renormalised,
                    multiplied from layer 0 up; CLS's row; opacity 0.7, fade
  cls/last          the last layer's CLS row of head H; opacity 0.7, fade
  global/example    layer 0's head with the most patch weight beyond the
                    query's 3 x 3 neighbourhood (recomputed), on the absolute
                    scale 0 .. 4/196, no fade, opacity 0.7
  position/large    the query position's embedding cosines (from the
                    checkpoint), diverging on +-max|cos|, fading with |2t-1|
  cross/a, cross/b  A's own row, and A's query against B's keys
                    (softmax(q k^T / sqrt(d)) from q.npy and k.npy), on B
  cross/cross, own  the output vectors as strips of cells (no photo): that
                    softmax times B's values (v.npy), and A's own (out.npy),
                    on one diverging scale, +-the larger's max |value|
  mlp/strip         the query's path through block 4 as strips: each head's
                    output (out.npy) on one scale; what attention adds
                    (W_O o + b) and what the MLP adds (the block's output
                    less its input and that, NumPy forward pass) on another
  dynamic/a, b      the query's row on each photo, for the head whose rows
                    differ most between the photos (largest Jensen-Shannon
                    divergence, recomputed), each against its own largest weight
  matrix/weights    one head's N x N weights from the page's --csv (checked
                    against attn.npy), log scale over 3 decades below the
                    largest, no photo: the colormap alone
  permutation/...   without position embeddings (the page's default): the
                    shuffled input's map on the mosaic, put back, and the
                    photo's own, from the float64 NumPy forward pass on the
                    input shuffled by the seeded MT19937 rule

Within 3/255 per channel at every cell but the query's 3 x 3 (its outline).
Runs without a display server (EGL).
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

import property_questions_test as pq  # noqa: E402  (the shuffle: MT19937 as std::mt19937)
import safetensors_np  # noqa: E402
import vit_reference  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_maps_")
HEAD, QUERY = 1, (5, 3)


def vitscope(*args):
    r = subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(f"vitscope {' '.join(args[:2])}: {r.stderr.strip()}")


def dump(photo, colours, name):
    out = os.path.join(TMP, name)
    vitscope("dump", photo, "-o", out)
    d = {k: np.load(os.path.join(out, k + ".npy")).astype(np.float64) for k in ("attn", "q", "k", "v", "out", "input")}
    d.update(json.load(open(os.path.join(out, "meta.json"))))
    # The premise: the model's input is the patchwork, one colour a patch (at the patch centres: resampled).
    centres = d["input"][:, 8::16, 8::16].transpose(1, 2, 0)  # (14, 14, 3), (x/255 - .5)/.5
    check(f"{name}: the model's input is the patchwork, one colour a patch",
          d["grid"] == GRID and np.abs((centres * 0.5 + 0.5) * 255 - colours).max() < 1.5)
    return d


def figure(name, *args):
    out = os.path.join(TMP, name + ".png")
    r = subprocess.run([BIN, "explain", *args, "--model", MODEL, "-o", out], env=NO_DISPLAY, capture_output=True,
                       text=True, timeout=300)
    if not check(f"{name}: explain -o exits 0", r.returncode == 0, r.stderr):
        return None, []
    im = Image.open(out)
    return np.asarray(im.convert("RGB")).astype(np.float64), json.loads(im.info.get("vitscope:cells", "[]"))


def check_map(label, pixels, block, expected, skip=None):
    """Samples every cell centre of one recorded map against expected (14, 14, 3)."""
    if not check(f"{label}: recorded on a {GRID} x {GRID} grid", block["grid"] == GRID and block["maps"] == 1, block):
        return
    drawn = sample(pixels, block["x0"], block["y0"], block["cell"], block["cell"])
    if not check(f"{label}: inside the figure", drawn is not None):
        return
    err, at = worst(drawn, expected, skip)
    check(f"{label}: every cell's colour within 3/255 of the numbers' (worst {err:.0f} at {at}: "
          f"{drawn[at].tolist()} vs {expected[at].tolist()})", err <= 3)


def blocks(cells, name):
    return [c for c in cells if c["name"] == name]


def weights(row):
    """Patch weights on the grid and t against the map's largest (RowMax)."""
    w = row.reshape(GRID, GRID)
    return w, w / w.max()


def rollout_cls(attn):
    eye = np.eye(attn.shape[-1])
    r = eye
    for layer in attn:
        a = (layer.mean(axis=0) + eye) / 2
        r = (a / a.sum(axis=1, keepdims=True)) @ r
    return r[0]


def check_cls(photo, colours, d):
    pixels, cells = figure("cls", photo, "--question", "cls", "--query", "cls", "--layer", "11", "--head", str(HEAD))
    if pixels is None:
        return
    p = d["prefix"]
    strip = blocks(cells, "cls/cls_map")
    if check(f"cls: the strip records {len(d['attn'])} maps ({len(strip)})", len(strip) == len(d["attn"])):
        for layer, block in enumerate(strip):
            _, t = weights(d["attn"][layer, HEAD, 0, p:])
            check_map(f"cls strip layer {layer}", pixels, block, blend(colours, t, t))  # opacity 1, fade
    for name, row in (("rollout", rollout_cls(d["attn"])[p:]), ("last", d["attn"][-1, HEAD, 0, p:])):
        found = blocks(cells, "cls/" + name)
        if check(f"cls: the {name} map is recorded", len(found) == 1, [c["name"] for c in cells]):
            _, t = weights(row)
            check_map(f"cls {name}", pixels, found[0], blend(colours, t, 0.7 * t))
    return pixels, cells


def check_global(photo, colours, d):
    pixels, cells = figure("global", photo, "--question", "global", "--patch", f"{QUERY[0]},{QUERY[1]}")
    found = blocks(cells, "global/example") if pixels is not None else []
    if not check("global: the example map is recorded", len(found) == 1, [c["name"] for c in cells]):
        return
    p = d["prefix"]
    q = p + QUERY[0] * GRID + QUERY[1]
    rows, cols = np.indices((GRID, GRID))
    near = (np.abs(rows - QUERY[0]) <= 1) & (np.abs(cols - QUERY[1]) <= 1)
    beyond = [d["attn"][0, h, q, p:].reshape(GRID, GRID)[~near].sum() / d["attn"][0, h, q, p:].sum()
              for h in range(d["attn"].shape[1])]
    head = int(np.argmax(beyond))
    w = d["attn"][0, head, q, p:].reshape(GRID, GRID)
    check_map(f"global example (layer 0 head {head})", pixels, found[0],
              blend(colours, w / (4 / GRID ** 2), np.full(w.shape, 0.7)), skip=QUERY)


def check_position(photo, colours):
    pixels, cells = figure("position", photo, "--question", "position", "--patch", f"{QUERY[0]},{QUERY[1]}")
    found = blocks(cells, "position/large") if pixels is not None else []
    if not check("position: the large map is recorded", len(found) == 1, [c["name"] for c in cells]):
        return
    tensors, _ = safetensors_np.load(os.path.join(MODEL, "model.safetensors"))
    pos = tensors["pos_embed"][0].astype(np.float64)[1:]
    u = pos / np.linalg.norm(pos, axis=1, keepdims=True)
    cos = (u @ u[QUERY[0] * GRID + QUERY[1]]).reshape(GRID, GRID)
    extent = np.abs(cos).max()
    t = (cos + extent) / (2 * extent)
    check_map("position large", pixels, found[0], blend(colours, t, 0.7 * np.abs(2 * t - 1), DIVERGING), skip=QUERY)


def check_two_photos(photo, colours, d, photo_b, colours_b, d_b):
    p = d["prefix"]
    q = p + QUERY[0] * GRID + QUERY[1]
    sel = ["--patch", f"{QUERY[0]},{QUERY[1]}", "--layer", "4", "--head", str(HEAD), "--compare", photo_b]
    pixels, cells = figure("cross", photo, "--question", "cross", *sel)
    a, b = (blocks(cells, n) for n in ("cross/a", "cross/b")) if pixels is not None else ([], [])
    if check("cross: both maps recorded", len(a) == 1 and len(b) == 1, [c["name"] for c in cells]):
        _, t = weights(d["attn"][4, HEAD, q, p:])
        check_map("cross a (own row)", pixels, a[0], blend(colours, t, 0.7 * t), skip=QUERY)
        s = d_b["k"][4, HEAD] @ d["q"][4, HEAD, q] / np.sqrt(d["q"].shape[-1])
        w = np.exp(s - s.max())
        _, t = weights((w / w.sum())[p:])
        check_map("cross b (A's query over B's keys)", pixels, b[0], blend(colours_b, t, 0.7 * t))
        # The two output vectors as strips of cells on one diverging scale: A's query over B's values, and A's own.
        strips = [blocks(cells, "cross/" + n) for n in ("cross", "own")]
        if check("cross: both output strips recorded", all(len(v) == 1 for v in strips), [c["name"] for c in cells]):
            vectors = [("cross", (w / w.sum()) @ d_b["v"][4, HEAD]), ("own", d["out"][4, HEAD, q])]
            check_strips("cross strip", pixels, [b_[0] for b_ in strips], vectors,
                         max(np.abs(v).max() for _, v in vectors))
    pixels, cells = figure("dynamic", photo, "--question", "dynamic", *sel)
    a, b = (blocks(cells, n) for n in ("dynamic/a", "dynamic/b")) if pixels is not None else ([], [])
    if check("dynamic: both maps recorded", len(a) == 1 and len(b) == 1, [c["name"] for c in cells]):
        pa, pb = d["attn"][:, :, q], d_b["attn"][:, :, q]       # (layers, heads, tokens)
        m = (pa + pb) / 2
        kl = lambda x: np.where(x > 0, x * np.log(np.where(x > 0, x, 1) / m), 0).sum(axis=-1)  # noqa: E731
        jsd = 0.5 * kl(pa) + 0.5 * kl(pb)
        layer, head = np.unravel_index(np.argmax(jsd), jsd.shape)   # ties: the first, as the page
        for block, dd, col, which in ((a[0], d, colours, "a"), (b[0], d_b, colours_b, "b")):
            _, t = weights(dd["attn"][layer, head, q, p:])
            check_map(f"dynamic {which} (layer {layer} head {head})", pixels, block, blend(col, t, 0.7 * t), skip=QUERY)


def check_matrix(photo, d):
    """The matrix page: every weight of one head, log scale over 3 decades below the largest, no photo."""
    out = os.path.join(TMP, "matrix.csv")
    pixels, cells = figure("matrix", photo, "--question", "matrix", "--layer", "4", "--head", str(HEAD), "--patch",
                           f"{QUERY[0]},{QUERY[1]}", "--csv", out)
    found = blocks(cells, "matrix/weights") if pixels is not None else []
    n = d["attn"].shape[-1]
    if not check("matrix: the matrix is recorded", len(found) == 1 and found[0]["grid"] == n, cells):
        return
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    a = np.zeros((n, n))
    for r in rows:
        a[int(r["query"]), int(r["key"])] = float(r["weight"])
    check(f"matrix: the CSV has the {n} x {n} weights, those of attn.npy", len(rows) == n * n and
          np.abs(a - d["attn"][4, HEAD]).max() < 1e-5)
    t = np.clip(np.log(np.maximum(a, 1e-30) / a.max()) / np.log(1000) + 1, 0, 1)
    b = found[0]
    centre = (np.arange(n) + 0.5) * b["cell"]
    x, y = np.floor(b["x0"] + centre).astype(int), np.floor(b["y0"] + centre).astype(int)
    drawn = pixels[y[:, None], x[None, :]]
    err = np.abs(drawn - np.floor(colormap(VIRIDIS, t) * 255 + 0.5)).max(axis=2)
    q = d["prefix"] + QUERY[0] * GRID + QUERY[1]
    err[q - 1:q + 2] = 0  # the selected query's row is outlined
    at = np.unravel_index(np.argmax(err), err.shape)
    check(f"matrix: every one of the {n * n} cells (cell {b['cell']:.1f} px) has its weight's colour within 3/255 "
          f"(worst {err.max():.0f} at query {at[0]}, key {at[1]})", err.max() <= 3)


def check_permutation(photo, colours, d):
    """The permutation page's three maps without position embeddings (the page's default): the shuffled
    input's own map on the mosaic, that map put back, the photo's own; from the NumPy forward pass."""
    seed = 7  # not the default 0: the figure draws the shuffle --seed asks for, as --csv computes it
    pixels, cells = figure("permutation", photo, "--question", "permutation", "--layer", "4", "--head", str(HEAD),
                           "--patch", f"{QUERY[0]},{QUERY[1]}", "--seed", str(seed))
    found = {n: blocks(cells, "permutation/" + n) for n in ("mosaic", "back", "own")} if pixels is not None else {}
    if not check("permutation: the three maps are recorded", all(len(v) == 1 for v in found.values()) and found,
                 [c["name"] for c in cells]):
        return
    model = vit_reference.load_timm(MODEL)
    to = pq.shuffle_permutation(GRID * GRID, seed)                   # to[p]: where patch p goes
    mosaic = pq.move_patches(d["input"], 16, to)
    p, q = d["prefix"], d["prefix"] + QUERY[0] * GRID + QUERY[1]
    shuffled = vit_reference.forward(model, mosaic, position_embeddings=False)["attn"][4, HEAD, p + to[q - p], p:]
    own = vit_reference.forward(model, d["input"], position_embeddings=False)["attn"][4, HEAD, q, p:]
    on_mosaic = np.empty_like(colours)
    on_mosaic.reshape(-1, 3)[to] = colours.reshape(-1, 3)            # the mosaic's patch to[p] is patch p's
    moved_q = divmod(int(to[q - p]), GRID)
    _, t = weights(shuffled)
    check_map("permutation mosaic (the shuffled input's map)", pixels, found["mosaic"][0],
              blend(on_mosaic, t, 0.7 * t), skip=moved_q)
    _, t = weights(shuffled[to])                                      # put back: patch p's weight is at to[p]
    check_map("permutation back (put back in order)", pixels, found["back"][0], blend(colours, t, 0.7 * t), skip=QUERY)
    _, t = weights(own)
    check_map("permutation own (without position embeddings)", pixels, found["own"][0], blend(colours, t, 0.7 * t),
              skip=QUERY)


def check_strips(label, pixels, strips, vectors, extent):
    """Each strip's cells against the diverging colour of its vector's numbers over +-extent."""
    for blk, (name, v) in zip(strips, vectors):
        x = np.floor(blk["x0"] + (np.arange(len(v)) + 0.5) * blk["cell"]).astype(int)
        drawn = pixels[int(blk["y0"] + blk["cell_h"] / 2), x]
        err = np.abs(drawn - np.floor(colormap(DIVERGING, 0.5 + 0.5 * v / extent) * 255 + 0.5)).max()
        check(f"{label} {name}: {len(v)} cells ({blk['cell']:.1f} px), each its number's colour within 3/255 "
              f"(worst {err:.0f})", blk["grid"] == len(v) and blk["rows"] == 1 and err <= 3)


def check_mlp(photo, d):
    """The MLP page's strips for the query in block 4: each head's output o_h (out.npy) on one scale, and what
    attention adds (W_O [o_1 .. o_H] + b) and what the MLP adds (the block's output minus its input and that),
    from the float64 NumPy forward pass, on another."""
    pixels, cells = figure("mlp", photo, "--question", "mlp", "--layer", "4", "--head", str(HEAD), "--patch",
                           f"{QUERY[0]},{QUERY[1]}")
    strips = blocks(cells, "mlp/strip") if pixels is not None else []
    heads = d["out"].shape[1]
    if not check(f"mlp: {heads} head strips and 2 for what is added ({len(strips)})", len(strips) == heads + 2):
        return
    model = vit_reference.load_timm(MODEL)
    r = vit_reference.forward(model, d["input"], keep_states=True)
    q = d["prefix"] + QUERY[0] * GRID + QUERY[1]
    o = r["out"][4][:, q]                                             # (heads, d_k)
    added = vit_reference.linear(o.reshape(-1), model.t, "blocks.4.attn.proj")
    mlp = r["x_in"][5][q] - r["x_in"][4][q] - added
    check("mlp: the head outputs are out.npy's", np.abs(o - d["out"][4][:, q]).max() < 1e-4)
    check_strips("mlp", pixels, strips[:heads], [(f"head {h}", o[h]) for h in range(heads)], np.abs(o).max())
    check_strips("mlp", pixels, strips[heads:], [("attention adds", added), ("MLP adds", mlp)],
                 max(np.abs(added).max(), np.abs(mlp).max()))


def main():
    if not tally.check_model():
        return tally.finish()
    photo, photo_b = os.path.join(TMP, "patchwork_a.png"), os.path.join(TMP, "patchwork_b.png")
    colours, colours_b = patchwork(photo, 1), patchwork(photo_b, 2)
    d, d_b = dump(photo, colours, "a"), dump(photo_b, colours_b, "b")
    check_cls(photo, colours, d)
    check_global(photo, colours, d)
    check_position(photo, colours)
    check_two_photos(photo, colours, d, photo_b, colours_b, d_b)
    check_matrix(photo, d)
    check_permutation(photo, colours, d)
    check_mlp(photo, d)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
