#!/usr/bin/python3
"""`vitscope explain --csv` (the follow-up questions of the Questions tab)
against independent NumPy versions, on the real default model and dog.jpg.

Run by ctest as `/usr/bin/python3 tests/reference/explain_why_test.py` with
VITSCOPE_BIN and VITSCOPE_SOURCE_DIR; the default model from $VITSCOPE_MODEL or
the mirror (script_support.py). A missing model fails.

The reference runs vit_reference.py's float64 forward on vitscope's own model
input (`vitscope dump`), once as the model computes it and once with one head
removed, and computes from its attention, Q, K and token states, written here
from the definitions (not from vitscope's C++):
  heads     mean attention distance (patch queries, patch keys renormalised,
            patch-centre distances in input pixels) and spread 1 / sum a^2
  scaling   std of all N^2 raw and scaled scores per head; share of query rows
            whose largest weight exceeds 0.99 with and without the scaling
  cls       CLS's weight on itself (mean of heads), the logit lens and the token norms
  rollout   Abnar & Zuidema: (mean of heads + I) / 2, rows renormalised,
            multiplied from the first layer up; the CLS row
  ablation  top-5 before and after removing one head
Tolerance 1e-4 (absolute for weights and probabilities, relative for
distances, spreads and standard deviations). A saturation share may differ
only by rows whose largest weight is within 1e-5 of 0.99 (float32 against
float64), a label only where two classes tie within 1e-4.
"""
import csv
import io
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
import vit_reference  # noqa: E402
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402

TOL = 1e-4
ABLATE = (3, 1)  # layer, head
tally = Tally()


def run(*args):
    r = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(f"vitscope {' '.join(map(str, args))} exited {r.returncode}: {r.stderr.strip()}")


def explain_csv(tmp, question, *extra):
    out = os.path.join(tmp, question + ".csv")
    run("explain", DOG, "--model", MODEL, "--question", question, "--csv", out, *extra)
    with open(out, encoding="utf-8", newline="") as f:
        text = f.read()
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def close(a, b, relative=False):
    return abs(a - b) <= TOL * (max(1.0, abs(b)) if relative else 1.0)


def worst(pairs, relative=False):
    """Largest |a - b| (scaled as close() does) and whether all are within TOL."""
    errs = [abs(a - b) / (max(1.0, abs(b)) if relative else 1.0) for a, b in pairs]
    return max(errs), all(e <= TOL for e in errs)


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def label(model, i):
    return model.labels[i] if i < len(model.labels) else f"class {i}"


def same_label(got, probs, model, k):
    """The k-th class (0-based) of the reference, or a class tied with it within TOL."""
    order = np.argsort(-probs)
    return any(got == label(model, int(c)) for c in order if abs(probs[c] - probs[order[k]]) <= TOL)


# ----------------------------------------------------------------------------
# The reference numbers, from the definitions


def mean_distance_and_spread(r, patch):
    g, p = r["grid"], r["prefix"]
    rows, cols = np.divmod(np.arange(g * g), g)
    dist = patch * np.hypot(rows[:, None] - rows[None, :], cols[:, None] - cols[None, :])
    a = r["attn"][:, :, p:, :]                      # (L, H, patch queries, all keys)
    pk = a[..., p:]                                 # patch keys only
    renorm = pk / pk.sum(axis=-1, keepdims=True)
    distance = (renorm * dist).sum(axis=-1).mean(axis=-1)
    spread = (1.0 / (a * a).sum(axis=-1)).mean(axis=-1)
    return distance, spread


def without_high_norm(r, patch):
    """Per layer and head: the mean distance (px) and the share beyond 3 patches with the high-norm tokens
    entering the layer left out (as keys and queries), the share beyond 3 with them, and the share of the
    patch queries' weight on them."""
    attn, prefix, grid = r["attn"], r["prefix"], r["grid"]
    rows, cols = np.divmod(np.arange(grid * grid), grid)
    dist = patch * np.hypot(rows[:, None] - rows[None], cols[:, None] - cols[None])
    cheb = np.maximum(abs(rows[:, None] - rows[None]), abs(cols[:, None] - cols[None]))
    L, H = attn.shape[:2]
    out = {k: np.zeros((L, H)) for k in ("distance", "beyond_3", "beyond_3_without", "high_norm_share")}
    for l in range(L):
        norms = np.linalg.norm(r["x_in"][l][prefix:], axis=1)
        high = norms >= 10 * np.median(norms)
        kept = ~high
        for h in range(H):
            a = attn[l, h][prefix:, prefix:].astype(np.float64)
            out["high_norm_share"][l, h] = a[:, high].sum(axis=1).mean()
            out["beyond_3"][l, h] = (a * (cheb > 3)).sum(axis=1).mean()
            ak = a[np.ix_(kept, kept)]
            out["beyond_3_without"][l, h] = (ak * (cheb[np.ix_(kept, kept)] > 3)).sum(axis=1).mean()
            mass = ak.sum(axis=1)
            d = (ak * dist[np.ix_(kept, kept)]).sum(axis=1)
            out["distance"][l, h] = (d[mass > 0] / mass[mass > 0]).mean()
    return out


def scaling(r):
    q, k, attn = r["q"], r["k"], r["attn"]
    raw = q @ k.transpose(0, 1, 3, 2)               # (L, H, N, N)
    dk = q.shape[-1]
    raw_std = raw.reshape(raw.shape[0], raw.shape[1], -1).std(axis=-1)
    raw_max = softmax(raw).max(axis=-1)             # without the scaling
    scaled_max = attn.max(axis=-1)
    return raw_std, raw_std / math.sqrt(dk), raw_max, scaled_max


def rollout_cls(r):
    n = r["tokens"]
    result = np.eye(n)
    for a in r["attn"]:
        mix = 0.5 * a.mean(axis=0) + 0.5 * np.eye(n)
        mix /= mix.sum(axis=-1, keepdims=True)
        result = mix @ result
    return result[0]


def logit_lens(model, r):
    t = model.t
    probs = []
    for l in range(model.depth):
        state = r["x_in"][l + 1] if l + 1 < model.depth else r["x_out"]
        normed = vit_reference.layer_norm(state[0], t["norm.weight"], t["norm.bias"], model.eps)
        probs.append(softmax(normed @ t["head.weight"].T + t["head.bias"]))
    return probs


# ----------------------------------------------------------------------------


def check_heads(tmp, model, r):
    header, rows = explain_csv(tmp, "heads")
    tally.check("heads: header", header == ["layer", "head", "mean_distance_px", "spread_keys",
                                            "mean_distance_px_without_high_norm", "beyond_3",
                                            "beyond_3_without_high_norm", "high_norm_share"], header)
    tally.check("heads: one row per layer and head", len(rows) == model.depth * model.heads, len(rows))
    distance, spread = mean_distance_and_spread(r, model.patch)
    d_err, d_ok = worst([(float(row[2]), distance[int(row[0]), int(row[1])]) for row in rows], relative=True)
    s_err, s_ok = worst([(float(row[3]), spread[int(row[0]), int(row[1])]) for row in rows], relative=True)
    print(f"    mean distance: layer 0 {distance[0].round(1)} px, layer 11 {distance[-1].round(1)} px; "
          f"max relative error {d_err:.1e}; spread max relative error {s_err:.1e}")
    tally.check("heads: mean attention distance matches NumPy (1e-4 relative)", d_ok, f"{d_err:.2e}")
    tally.check("heads: spread matches NumPy (1e-4 relative)", s_ok, f"{s_err:.2e}")
    # The high-norm columns: the tokens entering each layer at least 10 x the median patch norm (NumPy states).
    want = without_high_norm(r, model.patch)
    bad = []
    for row in rows:
        l, h = int(row[0]), int(row[1])
        for i, name in ((4, "distance"), (5, "beyond_3"), (6, "beyond_3_without"), (7, "high_norm_share")):
            w = want[name][l, h]
            if abs(float(row[i]) - w) > 1e-4 * max(abs(w), 1.0):
                bad.append(f"L{l}H{h} {name}: {row[i]} vs {w:.6f}")
    late = [(l, h) for l in range(model.depth) for h in range(model.heads) if want["high_norm_share"][l, h] > 0.1]
    print("    without the high-norm tokens: " + "; ".join(
        f"L{l}H{h} {distance[l, h]:.0f} -> {want['distance'][l, h]:.0f} px, beyond 3 {want['beyond_3'][l, h]:.2f} -> "
        f"{want['beyond_3_without'][l, h]:.2f} (they take {want['high_norm_share'][l, h]:.2f})" for l, h in late[:4]))
    tally.check(f"heads: the distances and shares without the high-norm tokens match NumPy ({len(late)} heads give "
                "them over 10% of their weight)", not bad, bad[:3])


def jacobian_norm(a):
    """Frobenius norm of d softmax / d scores, built as the matrix diag(a) - a a^T."""
    return np.linalg.norm(np.diag(a) - np.outer(a, a))


def check_scaling(tmp, model, r):
    query_rc = (5, 7)
    header, rows = explain_csv(tmp, "scaling", "--patch", f"{query_rc[0]},{query_rc[1]}")
    want = ["layer", "head", "raw_std", "scaled_std", "saturated_share_raw", "saturated_share_scaled",
            "jacobian_norm_raw", "jacobian_norm_scaled"]
    tally.check("scaling: header", header == want, header)
    tally.check("scaling: one row per layer and head", len(rows) == model.depth * model.heads, len(rows))
    raw_std, scaled_std, raw_max, scaled_max = scaling(r)
    e1, ok1 = worst([(float(x[2]), raw_std[int(x[0]), int(x[1])]) for x in rows], relative=True)
    e2, ok2 = worst([(float(x[3]), scaled_std[int(x[0]), int(x[1])]) for x in rows], relative=True)
    tally.check("scaling: std of the raw scores matches NumPy", ok1, f"{e1:.2e}")
    tally.check("scaling: std of the scaled scores matches NumPy", ok2, f"{e2:.2e}")
    n = r["tokens"]
    bad = []
    for x in rows:
        l, h = int(x[0]), int(x[1])
        for got, maxima, name in ((float(x[4]), raw_max[l, h], "raw"), (float(x[5]), scaled_max[l, h], "scaled")):
            want_share = (maxima > 0.99).mean()
            ambiguous = (np.abs(maxima - 0.99) < 1e-5).sum()
            if abs(got - want_share) > ambiguous / n + 1e-9:
                bad.append(f"layer {l} head {h} {name}: {got} vs {want_share}")
    print(f"    raw std {raw_std.min():.1f}..{raw_std.max():.1f}, scaled {scaled_std.min():.2f}..{scaled_std.max():.2f}; "
          f"saturated rows: raw {(raw_max > 0.99).mean():.1%}, scaled {(scaled_max > 0.99).mean():.1%} of all")
    tally.check("scaling: saturated shares match NumPy", not bad, bad[:3])
    # The query's softmax Jacobian: raw = softmax(q.k) (the what-if), scaled = the trace's weights.
    query = r["prefix"] + query_rc[0] * r["grid"] + query_rc[1]
    raw_rows = np.einsum("lhd,lhnd->lhn", r["q"][:, :, query, :], r["k"])
    raw_rows = softmax(raw_rows)
    pairs_raw, pairs_scaled = [], []
    for x in rows:
        l, h = int(x[0]), int(x[1])
        pairs_raw.append((float(x[6]), jacobian_norm(raw_rows[l, h])))
        pairs_scaled.append((float(x[7]), jacobian_norm(r["attn"][l, h, query])))
    e3, ok3 = worst(pairs_raw)
    e4, ok4 = worst(pairs_scaled)
    print(f"    softmax Jacobian norm of patch {query_rc}: scaled {min(p[1] for p in pairs_scaled):.3f}.."
          f"{max(p[1] for p in pairs_scaled):.3f}, raw {min(p[1] for p in pairs_raw):.3f}..{max(p[1] for p in pairs_raw):.3f}; "
          f"max errors {e4:.1e}, {e3:.1e}")
    tally.check("scaling: the query's softmax Jacobian norm without the scaling matches NumPy", ok3, f"{e3:.2e}")
    tally.check("scaling: the query's softmax Jacobian norm with the scaling matches NumPy", ok4, f"{e4:.2e}")


def check_token_norms(rows, r):
    """The corners of late layers: per layer, the median patch norm of the
    tokens leaving the block, the largest over it, the patches above ten times
    it, and CLS's and the patch queries' weight on them (mean of heads)."""
    states = list(r["x_in"][1:]) + [r["x_out"]]
    prefix, problems, shown = r["prefix"], [], []
    for x, state in zip(rows, states):
        l = int(x[0])
        norm = np.linalg.norm(state, axis=1)[prefix:]
        median = np.median(norm)
        high = np.nonzero(norm > 10 * median)[0]
        near = np.abs(norm / median - 10) < 1  # too close to the threshold to compare float32 with float64
        a = r["attn"][l][:, :, prefix + high]
        cls_w, patch_w = a[:, 0].sum(-1).mean(), a[:, prefix:].sum(-1).mean()
        got = [int(j) for j in x[7].split()]
        if not close(float(x[5]), median, relative=True) or not close(float(x[6]), norm.max() / median, relative=True):
            problems.append(f"layer {l} median {x[5]} vs {median:.5f}, top/median {x[6]} vs {norm.max() / median:.3f}")
        if not near.any() and got != [int(j) + prefix for j in high]:
            problems.append(f"layer {l} high-norm tokens {got} vs {[int(j) + prefix for j in high]}")
        if not close(float(x[8]), cls_w) or not close(float(x[9]), patch_w):
            problems.append(f"layer {l} weight on them {x[8]}, {x[9]} vs {cls_w:.6f}, {patch_w:.6f}")
        shown.append(f"{l}: {len(high)} ({norm.max() / median:.0f}x, CLS {cls_w:.2f})")
    print("    high-norm patches by layer: " + ", ".join(shown[-6:]) + " (last 6)")
    tally.check("cls: token norms, high-norm patches and the weight on them match NumPy", not problems, problems[:3])


def check_cls(tmp, model, r):
    header, rows = explain_csv(tmp, "cls")
    tally.check("cls: header", header[:5] == ["layer", "cls_self_weight", "lens_top1", "lens_top1_prob", "final_top1_prob"],
                header)
    tally.check("cls: one row per layer", len(rows) == model.depth, len(rows))
    lens = logit_lens(model, r)
    final = int(np.argmax(r["logits"]))
    self_w = r["attn"][:, :, 0, 0].mean(axis=1)
    problems = []
    for x, p in zip(rows, lens):
        l = int(x[0])
        if not close(float(x[1]), self_w[l]):
            problems.append(f"layer {l} cls_self_weight {x[1]} vs {self_w[l]:.7f}")
        if not same_label(x[2], p, model, 0):
            problems.append(f"layer {l} lens top-1 {x[2]!r} vs {label(model, int(p.argmax()))!r}")
        if not close(float(x[3]), p.max()):
            problems.append(f"layer {l} lens_top1_prob {x[3]} vs {p.max():.7f}")
        if not close(float(x[4]), p[final]):
            problems.append(f"layer {l} final_top1_prob {x[4]} vs {p[final]:.7f}")
    print("    lens top-1 by layer: " + ", ".join(f"{x[2]} {float(x[3]):.2f}" for x in rows[-4:]) + " (last 4)")
    tally.check("cls: CLS self weight and logit lens match NumPy", not problems, problems[:3])
    check_token_norms(rows, r)
    last = softmax(r["logits"])
    tally.check("cls: the lens after the last block is the model's prediction",
                close(float(rows[-1][4]), last[final]), f"{rows[-1][4]} vs {last[final]}")


def check_rollout(tmp, model, r):
    header, rows = explain_csv(tmp, "rollout")
    tally.check("rollout: header", header == ["token", "row", "col", "rollout"], header)
    tally.check("rollout: one row per token", len(rows) == r["tokens"], len(rows))
    want = rollout_cls(r)
    g, p = r["grid"], r["prefix"]
    places = all((int(x[1]), int(x[2])) == (((int(x[0]) - p) // g, (int(x[0]) - p) % g) if int(x[0]) >= p else (-1, -1))
                 for x in rows)
    tally.check("rollout: tokens in order with their row and col (-1 for CLS)",
                places and [int(x[0]) for x in rows] == list(range(r["tokens"])))
    err, ok = worst([(float(x[3]), want[int(x[0])]) for x in rows])
    print(f"    rollout CLS row: CLS {want[0]:.3f}, patches sum {want[p:].sum():.3f}; max |diff| {err:.1e}")
    tally.check("rollout: CLS row of the rollout matches NumPy", ok, f"{err:.2e}")


def check_ablation(tmp, model, r, image):
    header, rows = explain_csv(tmp, "ablation", "--layer", ABLATE[0], "--head", ABLATE[1])
    tally.check("ablation: header", header == ["rank", "prob_before", "label_before", "prob_after", "label_after"], header)
    tally.check("ablation: top-5", [x[0] for x in rows] == ["1", "2", "3", "4", "5"], rows)
    before = softmax(r["logits"])
    after = softmax(vit_reference.forward(model, image, ablate=ABLATE)["logits"])
    problems = []
    for k, x in enumerate(rows):
        for got_p, got_label, probs, when in ((x[1], x[2], before, "before"), (x[3], x[4], after, "after")):
            if not close(float(got_p), np.sort(probs)[::-1][k]) or not same_label(got_label, probs, model, k):
                problems.append(f"rank {k + 1} {when}: {got_label} {got_p} vs "
                                f"{label(model, int(np.argsort(-probs)[k]))} {np.sort(probs)[::-1][k]:.7f}")
    top = int(before.argmax())
    print(f"    layer {ABLATE[0]} head {ABLATE[1]} removed: {label(model, top)} {before[top]:.4f} -> {after[top]:.4f}")
    tally.check("ablation: top-5 before and after match NumPy", not problems, problems[:3])
    tally.check("ablation: removing the head changes the prediction (the check is not vacuous)",
                abs(after[top] - before[top]) > 0.01, f"{before[top]} -> {after[top]}")


def main():
    if not os.path.isfile(os.path.join(MODEL, "model.safetensors")):
        tally.check("default model present", False, f"no {MODEL}/model.safetensors (set VITSCOPE_MODEL)")
        return tally.finish()
    model = vit_reference.load_timm(MODEL)
    with tempfile.TemporaryDirectory(prefix="vitscope_explain_why_") as tmp:
        dump = os.path.join(tmp, "dump")
        run("dump", DOG, "-o", dump, "--model", MODEL)
        image = np.load(os.path.join(dump, "input.npy"))
        r = vit_reference.forward(model, image, keep_states=True)
        for name, fn in (("heads", check_heads), ("scaling", check_scaling), ("cls", check_cls),
                         ("rollout", check_rollout)):
            print(f"{name}:")
            try:
                fn(tmp, model, r)
            except Exception as e:  # a crash in a check is a failure, not the end of the run
                tally.check(f"{name}: ran", False, e)
        print("ablation:")
        try:
            check_ablation(tmp, model, r, image)
        except Exception as e:
            tally.check("ablation: ran", False, e)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
