#!/usr/bin/python3
"""`vitscope explain --csv` for the pages on what attention is (global,
dynamic, permutation, position, cross, mlp) against independent float64 NumPy
versions built on vit_reference.py, on the real default model.

Run by ctest as `/usr/bin/python3 tests/reference/property_questions_test.py`
with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR (see reference_test.py); a missing
default model fails. The reference runs on vitscope's own model input
(`vitscope dump`'s input.npy), so these checks are about the computations,
not the preprocessing.

What is compared, and how closely:
  global       mass per distance band and on the farthest quarter: 1e-4 absolute
  dynamic      Jensen-Shannon divergence (bits) dog vs chelsea, every layer/head: 1e-4 absolute
  permutation  the patches shuffled with the same seeded permutation (MT19937 and
               Fisher-Yates written out here from their definitions). The
               with-positions difference is a real difference between two runs:
               1e-3 relative to it (it is a max over final states of size ~10,
               where float32 and float64 forwards differ by ~1e-4). The
               without-positions difference is pure rounding: float64 gives
               ~1e-13, float32 ~1e-5, so the check is that vitscope's is below
               1e-3 and at least 1e4 times smaller than the with-positions one,
               and the reference's below 1e-9. Top-1 labels equal.
  position     cosine of every patch position's embedding with the query's, at
               224 px and at 448 px (bicubically interpolated): 1e-5 absolute
  cross        queries from dog.jpg, keys/values from chelsea.png: scores 1e-4
               relative to the row's max |score|, weights 1e-5 absolute
  mlp          the norms of the token's path through a block: 1e-4 relative;
               the MLP-alone and zeroed-before-the-MLP checks below 1e-4
               (exactly 0 in float64); zeroed-before-attention 1e-3 relative
Each check prints PASS or FAIL, then "N passed, M failed, K skipped".
"""
import atexit
import csv
import io
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
import vit_reference as ref  # noqa: E402
from check_runner import Checks, Failure  # noqa: E402
from script_support import MODEL  # noqa: E402

SOURCE_DIR = os.environ.get("VITSCOPE_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
BIN = os.environ.get("VITSCOPE_BIN", "")
DOG = os.path.join(SOURCE_DIR, "assets", "dog.jpg")
CHELSEA = os.path.join(SOURCE_DIR, "assets", "chelsea.png")
TMP = tempfile.mkdtemp(prefix="vitscope_property_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
checks = Checks()
check = checks.add




def model_dir():
    path = MODEL  # the program's lookup: $VITSCOPE_MODEL, else models/<name> in the source tree
    if not os.path.isfile(os.path.join(path, "model.safetensors")):
        raise Failure(f"default model missing: no {path}/model.safetensors (set VITSCOPE_MODEL)")
    return path


def run(args):
    cmd = [BIN] + [str(a) for a in args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise Failure(f"`{' '.join(cmd)}` exited {r.returncode}: {r.stderr.strip()[-500:]}")
    return r.stdout


def explain(image, question, *args):
    out = os.path.join(TMP, f"{question}_{len(os.listdir(TMP))}.csv")
    cmd = ["explain", image, "--question", question, "--model", model_dir(), *args, "--csv", out]
    run(cmd)
    print(f"    $ vitscope {' '.join(str(a) for a in cmd)}")
    with open(out, encoding="utf-8") as f:
        text = f.read()
    return text.splitlines()[0].split(","), list(csv.DictReader(io.StringIO(text)))


_cache = {}


def model():
    if "model" not in _cache:
        _cache["model"] = ref.load_timm(model_dir())
    return _cache["model"]


def model_input(image, size=None):
    """vitscope's own model input for IMAGE (dump's input.npy)."""
    key = ("input", image, size)
    if key not in _cache:
        out = tempfile.mkdtemp(prefix="dump_", dir=TMP)
        run(["dump", image, "-o", out, "--model", model_dir()] + (["--size", size] if size else []))
        _cache[key] = np.load(os.path.join(out, "input.npy")).astype(np.float64)
    return _cache[key]


def forward(image, position_embeddings=True):
    key = ("forward", image, position_embeddings)
    if key not in _cache:
        _cache[key] = ref.forward(model(), model_input(image), keep_states=True,
                                  position_embeddings=position_embeddings)
    return _cache[key]


def expect(problems, name, got, want, tol):
    err = abs(float(got) - float(want))
    if not err <= tol:
        problems.append(f"{name}: vitscope {float(got):.8g}, reference {float(want):.8g} (|diff| {err:.2e} > {tol:.0e})")
    return err


def token_of(r, row, col):
    return r["prefix"] + row * r["grid"] + col


# ----------------------------------------------------------------------------
# Independent versions of the computations


class MT19937:
    """The Mersenne Twister of Matsumoto and Nishimura (1998), 32-bit outputs,
    seeded as C++'s std::mt19937(seed)."""

    def __init__(self, seed):
        self.mt = [seed & 0xFFFFFFFF]
        for i in range(1, 624):
            prev = self.mt[-1]
            self.mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
        self.index = 624

    def __call__(self):
        if self.index >= 624:
            for i in range(624):
                y = (self.mt[i] & 0x80000000) | (self.mt[(i + 1) % 624] & 0x7FFFFFFF)
                self.mt[i] = self.mt[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & 0xFFFFFFFF


def shuffle_permutation(n, seed):
    """to[p] = where patch p goes: Fisher-Yates from the end, entry i swapped
    with draw mod (i + 1) (vitscope's documented rule)."""
    draw, to = MT19937(seed), list(range(n))
    for i in range(n - 1, 0, -1):
        j = draw() % (i + 1)
        to[i], to[j] = to[j], to[i]
    return np.array(to)


def move_patches(image, patch, to):
    g = image.shape[-1] // patch
    out = np.empty_like(image)
    for src, dst in enumerate(to):
        sy, sx, dy, dx = (src // g) * patch, (src % g) * patch, (dst // g) * patch, (dst % g) * patch
        out[:, dy:dy + patch, dx:dx + patch] = image[:, sy:sy + patch, sx:sx + patch]
    return out


def unshuffled_difference(a, b, to, prefix):
    """Max |A[i,j] - A'[t(i),t(j)]| and max |F[i] - F'[t(i)]|, t moving patches by `to`."""
    t = np.concatenate([np.arange(prefix), prefix + to])
    attn = np.abs(a["attn"] - b["attn"][:, :, t][:, :, :, t]).max()
    final = np.abs(a["final"] - b["final"][t]).max()
    return max(attn, final)


def chebyshev(r, i, j):
    g, p = r["grid"], r["prefix"]
    return max(abs((i - p) // g - (j - p) // g), abs((i - p) % g - (j - p) % g))


def bands_and_far_quarter(r, layer, head, query):
    """Patch-key mass by Chebyshev band (0, 1, 2-3, 4-7, 8+) and on the farthest
    quarter (ceil(P/4) patches by distance, then squared Euclidean distance,
    both descending, then token index ascending)."""
    g, p = r["grid"], r["prefix"]
    w = r["attn"][layer, head, query]
    edges = [(0, 0), (1, 1), (2, 3), (4, 7), (8, 10 ** 9)]
    bands = [0.0] * 5
    ranked = []
    for j in range(p, r["tokens"]):
        d = chebyshev(r, query, j)
        bands[next(k for k, (lo, hi) in enumerate(edges) if lo <= d <= hi)] += w[j]
        e2 = ((j - p) // g - (query - p) // g) ** 2 + ((j - p) % g - (query - p) % g) ** 2
        ranked.append((-d, -e2, j))
    ranked.sort()
    far = sum(w[j] for _, _, j in ranked[:math.ceil(g * g / 4)])
    return bands, far


def jsd_bits(p, q):
    p, q = p / p.sum(), q / q.sum()
    m = (p + q) / 2
    kl = lambda a: float(np.sum(a[a > 0] * np.log2(a[a > 0] / m[a > 0])))  # noqa: E731
    return (kl(p) + kl(q)) / 2


def position_cosines(grid, query_pos):
    m = model()
    pos = m.t["pos_embed"][0]
    pre = m.embed_prefix if m.pos_has_prefix else 0
    if grid != m.pos_grid:
        pos = ref.resample_pos_embed(pos, pre, m.pos_grid, grid)
    patches = pos[pre:]
    u = patches / np.linalg.norm(patches, axis=1, keepdims=True)
    return u @ u[query_pos]


def block_parts(r, layer, token):
    """The token's path through block `layer`, from the reference's states."""
    m, t, b = model(), model().t, f"blocks.{layer}."
    act = ref.gelu_erf
    ls = lambda name, y: t[b + name + ".gamma"] * y if b + name + ".gamma" in t else y  # noqa: E731
    x = r["x_in"][layer]
    heads = r["out"][layer][:, token]  # (H, dh)
    attn = ls("ls1", ref.linear(heads.reshape(-1), t, b + "attn.proj"))
    mid = x[token] + attn
    mlp_in = ref.layer_norm(mid, t[b + "norm2.weight"], t[b + "norm2.bias"], m.eps)
    mlp = ls("ls2", ref.linear(act(ref.linear(mlp_in, t, b + "mlp.fc1")), t, b + "mlp.fc2"))
    parts = {f"head_{h}": np.linalg.norm(heads[h]) for h in range(m.heads)}
    parts.update(attention_output=np.linalg.norm(attn), residual_before=np.linalg.norm(x[token]),
                 residual_after_attention=np.linalg.norm(mid), mlp_output=np.linalg.norm(mlp),
                 residual_after=np.linalg.norm(mid + mlp))
    # What-if: every other token zeroed after LN1; this token's attention output.
    def attention_output(h_in):
        n, H, dh = h_in.shape[0], m.heads, m.head_dim
        qkv = ref.linear(h_in, t, b + "attn.qkv")
        q, k, v = (qkv[:, i * m.dim:(i + 1) * m.dim].reshape(n, H, dh).transpose(1, 0, 2) for i in range(3))
        a = ref.softmax(q[:, token:token + 1] @ k.transpose(0, 2, 1) / math.sqrt(dh))  # (H, 1, N)
        return ls("ls1", ref.linear((a @ v)[:, 0].reshape(-1), t, b + "attn.proj"))

    h_in = ref.layer_norm(x, t[b + "norm1.weight"], t[b + "norm1.bias"], m.eps)
    zeroed = np.zeros_like(h_in)
    zeroed[token] = h_in[token]
    parts["attention_others_zeroed_max_abs_diff"] = np.abs(attention_output(zeroed) - attention_output(h_in)).max()
    return parts


# ----------------------------------------------------------------------------
# Checks


@check
def mt19937_matches_the_standard():
    """C++11 requires the 10000th output of a default-seeded mt19937 to be 4123659995."""
    draw = MT19937(5489)
    for _ in range(9999):
        draw()
    v = draw()
    return [] if v == 4123659995 else [f"the 10000th output is {v}, not 4123659995"]


@check
def global_bands():
    r = forward(DOG)
    header, rows = explain(DOG, "global", "--patch", "5,7")
    problems = []
    want_header = ["layer", "head", "mass_same", "mass_1", "mass_2_3", "mass_4_7", "mass_8_plus", "mass_far_quarter",
                   "mass_beyond_3_without_high_norm", "mass_high_norm"]
    if header != want_header:
        return [f"header {header}, expected {want_header}"]
    L, H = r["attn"].shape[:2]
    if [(int(x["layer"]), int(x["head"])) for x in rows] != [(l, h) for l in range(L) for h in range(H)]:
        return ["rows are not every (layer, head) in order"]
    worst = 0.0
    q = token_of(r, 5, 7)
    for x in rows:
        l, h = int(x["layer"]), int(x["head"])
        bands, far = bands_and_far_quarter(r, l, h, q)
        for name, want in zip(want_header[2:7], bands):
            worst = max(worst, expect(problems, f"layer {l} head {h} {name}", x[name], want, 1e-4))
        worst = max(worst, expect(problems, f"layer {l} head {h} far quarter", x["mass_far_quarter"], far, 1e-4))
        # Without the high-norm tokens entering the layer (10 x the median patch norm of the NumPy states).
        p, g = r["prefix"], r["grid"]
        norms = np.linalg.norm(r["x_in"][l][p:], axis=1)
        high = norms >= 10 * np.median(norms)
        rows_, cols_ = np.divmod(np.arange(g * g), g)
        qr, qc = divmod(q - p, g)
        w = r["attn"][l, h, q, p:].astype(np.float64)
        far3 = np.maximum(abs(rows_ - qr), abs(cols_ - qc)) > 3
        worst = max(worst, expect(problems, f"layer {l} head {h} beyond 3 without high-norm",
                                  x["mass_beyond_3_without_high_norm"], w[far3 & ~high].sum(), 1e-4))
        worst = max(worst, expect(problems, f"layer {l} head {h} on the high-norm tokens", x["mass_high_norm"],
                                  w[high].sum(), 1e-4))
        if abs(sum(bands) + r["attn"][l, h, q, :r["prefix"]].sum() - 1) > 1e-9:
            problems.append("reference bands and prefix do not sum to 1")
    print(f"    max |diff| {worst:.1e} over {len(rows)} rows; layer 0 head 1: "
          + ", ".join(f"{k} {rows[1][k]}" for k in want_header[2:]))
    return problems


@check
def dynamic_jsd():
    a, b = forward(DOG), forward(CHELSEA)
    header, rows = explain(DOG, "dynamic", "--compare", CHELSEA, "--patch", "5,7")
    if header != ["layer", "head", "jsd"]:
        return [f"header {header}"]
    q, problems, worst = token_of(a, 5, 7), [], 0.0
    for x in rows:
        l, h = int(x["layer"]), int(x["head"])
        worst = max(worst, expect(problems, f"layer {l} head {h} jsd", x["jsd"],
                                  jsd_bits(a["attn"][l, h, q], b["attn"][l, h, q]), 1e-4))
    js = [float(x["jsd"]) for x in rows]
    print(f"    max |diff| {worst:.1e}; JSD from {min(js):.3f} to {max(js):.3f} bits over {len(rows)} heads")
    if len(rows) != a["attn"].shape[0] * a["attn"].shape[1]:
        problems.append(f"{len(rows)} rows")
    return problems


@check
def permutation_shuffle():
    seed = 5
    header, rows = explain(DOG, "permutation", "--seed", seed)
    want_header = ["with_pos_max_abs_diff", "without_pos_max_abs_diff", "top1_with_pos", "top1_without_pos"]
    if header != want_header or len(rows) != 1:
        return [f"header {header}, {len(rows)} rows"]
    x, m, image = rows[0], model(), model_input(DOG)
    to = shuffle_permutation(m.pos_grid ** 2, seed)
    mosaic = move_patches(image, m.patch, to)
    base, base_np = forward(DOG), forward(DOG, position_embeddings=False)
    shuf = ref.forward(m, mosaic)
    shuf_np = ref.forward(m, mosaic, position_embeddings=False)
    with_pos = unshuffled_difference(base, shuf, to, m.prefix)
    without_pos = unshuffled_difference(base_np, shuf_np, to, m.prefix)
    got_with, got_without = float(x["with_pos_max_abs_diff"]), float(x["without_pos_max_abs_diff"])
    print(f"    with positions: vitscope {got_with:.6g}, reference {with_pos:.6g}; without: vitscope "
          f"{got_without:.2e}, reference {without_pos:.2e}")
    problems = []
    expect(problems, "with_pos_max_abs_diff", got_with, with_pos, 1e-3 * with_pos)
    if not got_without < 1e-3 or not got_without * 1e4 < got_with:
        problems.append(f"without positions vitscope's difference {got_without:.2e} is not rounding-sized")
    if not without_pos < 1e-9:
        problems.append(f"the reference's own without-positions difference is {without_pos:.2e}")
    labels = m.labels
    for name, r in (("top1_with_pos", base), ("top1_without_pos", base_np)):
        want = labels[int(np.argmax(r["logits"]))]
        if x[name] != want:
            problems.append(f"{name}: vitscope {x[name]!r}, reference {want!r}")
    print(f"    top-1 with positions {x['top1_with_pos']!r}, without {x['top1_without_pos']!r}")
    return problems


@check
def position_similarity():
    problems = []
    for size, patch in ((None, "5,7"), (448, "11,3")):
        args = ["--patch", patch] + (["--size", size] if size else [])
        header, rows = explain(DOG, "position", *args)
        if header != ["row", "col", "cosine"]:
            return [f"header {header}"]
        grid = (size or 224) // model().patch
        r0, c0 = map(int, patch.split(","))
        want = position_cosines(grid, r0 * grid + c0)
        if [(int(x["row"]), int(x["col"])) for x in rows] != [(r, c) for r in range(grid) for c in range(grid)]:
            problems.append(f"{size or 224} px: rows are not every grid position in raster order")
            continue
        got = np.array([float(x["cosine"]) for x in rows])
        err = np.abs(got - want).max()
        print(f"    {size or 224} px ({grid} x {grid}): max |diff| {err:.1e}; cosine with itself {got[r0 * grid + c0]:.6f}")
        if not err <= 1e-5:
            problems.append(f"{size or 224} px: cosines differ by up to {err:.2e}")
    return problems


@check
def cross_attention():
    a, b = forward(DOG), forward(CHELSEA)
    layer, head = 8, 1
    header, rows = explain(DOG, "cross", "--compare", CHELSEA, "--patch", "5,7", "--layer", layer, "--head", head)
    if header != ["key", "row", "col", "score", "scaled", "weight"]:
        return [f"header {header}"]
    q = token_of(a, 5, 7)
    s = b["k"][layer, head] @ a["q"][layer, head, q]
    scaled = s / math.sqrt(model().head_dim)
    w = ref.softmax(scaled)
    problems = []
    if [int(x["key"]) for x in rows] != list(range(b["tokens"])):
        return ["one row per token of B, in order, expected"]
    got = {k: np.array([float(x[k]) for x in rows]) for k in ("score", "scaled", "weight")}
    scale = np.abs(s).max()
    errs = {"score": np.abs(got["score"] - s).max() / scale, "scaled": np.abs(got["scaled"] - scaled).max() / scale,
            "weight": np.abs(got["weight"] - w).max()}
    print(f"    score (relative to max |score| {scale:.2f}) {errs['score']:.1e}, scaled {errs['scaled']:.1e}, "
          f"weight {errs['weight']:.1e}; weight on B's CLS {w[0]:.4f}, largest on B's patch {int(np.argmax(w[1:]))}")
    if errs["score"] > 1e-4 or errs["scaled"] > 1e-4:
        problems.append(f"scores differ: {errs}")
    if errs["weight"] > 1e-5:
        problems.append(f"weights differ by {errs['weight']:.2e}")
    if not all(int(x["row"]) == (int(x["key"]) - 1) // 14 and int(x["col"]) == (int(x["key"]) - 1) % 14
               for x in rows[1:]) or (rows[0]["row"], rows[0]["col"]) != ("-1", "-1"):
        problems.append("row,col are not B's grid positions")
    return problems


@check
def mlp_token_path():
    r, problems = forward(DOG), []
    for layer, patch in ((0, "5,7"), (11, "0,13")):
        header, rows = explain(DOG, "mlp", "--patch", patch, "--layer", layer)
        if header != ["part", "norm"]:
            return [f"header {header}"]
        got = {x["part"]: float(x["norm"]) for x in rows}
        r0, c0 = map(int, patch.split(","))
        want = block_parts(r, layer, token_of(r, r0, c0))
        order = [f"head_{h}" for h in range(model().heads)] + [
            "attention_output", "residual_before", "residual_after_attention", "mlp_output", "residual_after",
            "mlp_alone_max_abs_diff", "mlp_others_zeroed_max_abs_diff", "attention_others_zeroed_max_abs_diff"]
        if [x["part"] for x in rows] != order:
            problems.append(f"layer {layer}: parts {[x['part'] for x in rows]}, expected {order}")
            continue
        for part in order[:-3]:
            expect(problems, f"layer {layer} {part}", got[part], want[part], 1e-4 * max(1.0, want[part]))
        a_z = want["attention_others_zeroed_max_abs_diff"]
        expect(problems, f"layer {layer} attention_others_zeroed", got["attention_others_zeroed_max_abs_diff"], a_z,
               1e-3 * a_z)
        for part in ("mlp_alone_max_abs_diff", "mlp_others_zeroed_max_abs_diff"):
            if not got[part] < 1e-4:
                problems.append(f"layer {layer} {part} = {got[part]:.2e}: the MLP is per token, rounding expected")
        print(f"    layer {layer} patch {patch}: " + ", ".join(f"{k} {got[k]:.4g}" for k in order))
    return problems


def main():
    return checks.run(BIN)


if __name__ == "__main__":
    sys.exit(main())
