#!/usr/bin/env python3
"""The Python module (import vitscope, python/) against the command line and
against an independent float64 reference (issue 37, item 5).

From BUILD/python (where the build puts the module), on dog.jpg and
chelsea.png with the default model:
  - model.run(path) gives the very floats `vitscope dump` writes: input,
    attention, q, k, v, out, logits (and residual_in/residual_out when this
    dump offers them), and with parts=True ln1, attn_proj, residual_mid, ln2,
    mlp (dump --arrays); model.gradients(path, class) those of `dump --class`;
    at --size 288 too;
  - the same run against tests/reference: vit_reference.forward in float64
    NumPy on the run's own input (attention 1e-5 absolute, q/k/v 1e-4 of each
    layer's largest value, logits 1e-3 of the largest, the residual stream,
    ln1 and the final tokens 1e-4 of their largest; residual_mid = input +
    attn_proj, output = residual_mid + mlp), and vit_torch's float64 autograd
    for the gradients (1e-4 of each tensor's largest value);
  - properties: each attention row sums to 1; out = attention @ v;
    residual[0] is the embedding the reference computes; run(array) of
    run(path).input gives the same floats, and a float64 array the same;
  - bad input: a wrong shape, a side not a multiple of the patch, a NaN input,
    size= different from the array's side, a missing photo, a missing model
    folder and an unknown class each raise vitscope.Error (a ValueError) with
    a message naming the problem.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, Tally  # noqa: E402

t = Tally()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(BIN)), "python"))
try:
    import vitscope  # noqa: E402
except ImportError as e:
    t.check("import vitscope from the build's python/ folder", False, e)
    sys.exit(t.finish())
import vit_reference  # noqa: E402
from vit_torch import TorchViT  # noqa: E402

t.check("vitscope comes from the build", vitscope.__file__.startswith(os.path.dirname(os.path.abspath(BIN))),
        vitscope.__file__)
t.check_model()
model = vitscope.Model(MODEL)
reference = vit_reference.load_timm(MODEL)
info = model.info
t.check("Model.info names the model's shape", (info["layers"], info["heads"], info["dim"]) ==
        (reference.depth, reference.heads, reference.dim), info)
t.check("Model.labels has a name a class", len(model.labels) == info["num_classes"] == 1000)

dump_help = subprocess.run([BIN, "dump", "--help"], capture_output=True, text=True).stdout


def dump(photo, out, *extra):
    r = subprocess.run([BIN, "dump", photo, "-o", out, "--model", MODEL, *extra], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"vitscope dump {photo} {' '.join(extra)}: {r.stderr.strip()}")
    return {n[:-4]: np.load(os.path.join(out, n)) for n in os.listdir(out) if n.endswith(".npy")}


def same(name, ours, theirs):
    ok = ours.shape == theirs.shape and ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
    detail = "" if ok else (f"shape {ours.shape} vs {theirs.shape}" if ours.shape != theirs.shape
                            else f"max |diff| {np.abs(ours.astype(np.float64) - theirs).max():.3g}")
    return t.check(name, ok, detail)


def relative(a, b):
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30))


PARTS = ("ln1", "attn_proj", "residual_mid", "ln2", "mlp")


def check_against_dump(label, photo, size=None):
    extra = ["--size", str(size)] if size else []
    run = model.run(photo, size=size, parts=True)
    top = int(run.logits.argmax())
    grads = model.gradients(photo, top, size=size)
    with tempfile.TemporaryDirectory(prefix="vitscope-py-") as tmp:
        d = dump(photo, os.path.join(tmp, "d"), "--class", str(top), *extra)
        for ours, theirs in (("input", "input"), ("attention", "attn"), ("q", "q"), ("k", "k"), ("v", "v"),
                             ("out", "out"), ("logits", "logits")):
            same(f"{label}: run().{ours} is dump's {theirs}.npy", run[ours], d[theirs])
        same(f"{label}: gradients().attention is dump's grad_attn.npy", grads.attention, d["grad_attn"])
        same(f"{label}: gradients().x_in is dump's grad_x_in.npy", grads.x_in, d["grad_x_in"])
        same(f"{label}: gradients().x_out is dump's grad_x_out.npy", grads.x_out, d["grad_x_out"])
        if "residual_in" in dump_help:
            r = dump(photo, os.path.join(tmp, "r"), "--arrays", "residual_in,residual_out," + ",".join(PARTS), *extra)
            same(f"{label}: run().residual[:-1] is dump's residual_in.npy", run.residual[:-1], r["residual_in"])
            same(f"{label}: run().residual[1:] is dump's residual_out.npy", run.residual[1:], r["residual_out"])
            for name in PARTS:
                same(f"{label}: run(parts=True).{name} is dump's {name}.npy", run[name], r[name])
        else:
            t.check(f"{label}: this dump has --arrays residual_in,...,mlp", False, "not in `vitscope dump --help`")
    return run, grads, top


def check_against_reference(label, run, grads, top):
    ref = vit_reference.forward(reference, run.input.astype(np.float32), keep_states=True)
    err = np.abs(run.attention - ref["attn"]).max()
    t.check(f"{label}: attention within 1e-5 of the float64 reference", err <= 1e-5, f"{err:.2e}")
    for name in ("q", "k", "v"):
        worst = max(relative(run[name][l], ref[name][l]) for l in range(reference.depth))
        t.check(f"{label}: {name} within 1e-4 of each layer's largest |value|", worst <= 1e-4, f"{worst:.2e}")
    rel = relative(run.logits, ref["logits"])
    t.check(f"{label}: logits within 1e-3 of the largest |logit|", rel <= 1e-3, f"{rel:.2e}")
    t.check(f"{label}: the same top-1 as the reference", int(np.argmax(ref["logits"])) == top)
    stream = np.concatenate([ref["x_in"], ref["x_out"][None]])
    rel = max(relative(run.residual[l], stream[l]) for l in range(len(stream)))
    t.check(f"{label}: the residual stream within 1e-4 of each layer's largest |value|", rel <= 1e-4, f"{rel:.2e}")
    ln1 = np.stack([vit_reference.layer_norm(stream[l], reference.t[f"blocks.{l}.norm1.weight"],
                                             reference.t[f"blocks.{l}.norm1.bias"], reference.eps)
                    for l in range(reference.depth)])
    rel = max(relative(run.ln1[l], ln1[l]) for l in range(reference.depth))
    t.check(f"{label}: ln1 within 1e-4 of the reference's LayerNorm of each block's input", rel <= 1e-4, f"{rel:.2e}")
    x_in = run.residual[:-1].astype(np.float64)
    rel = relative(x_in + run.attn_proj, run.residual_mid)
    t.check(f"{label}: residual_mid = block input + attn_proj", rel <= 1e-6, f"{rel:.2e}")
    rel = relative(run.residual_mid.astype(np.float64) + run.mlp, run.residual[1:])
    t.check(f"{label}: the block's output = residual_mid + mlp", rel <= 1e-6, f"{rel:.2e}")
    rel = relative(run.final, ref["final"])
    t.check(f"{label}: final tokens within 1e-4", rel <= 1e-4, f"{rel:.2e}")
    logit, _, g_attn, g_x_in, g_x_out = TorchViT(reference).gradients(run.input, top)
    t.check(f"{label}: the gradient's logit is the reference's", abs(grads.logit - logit) <= 1e-3 * abs(logit),
            f"{grads.logit} vs {logit}")
    for name, ours, theirs in (("attention", grads.attention, g_attn), ("x_in", grads.x_in, g_x_in),
                               ("x_out", grads.x_out, g_x_out)):
        rel = relative(ours, theirs)
        t.check(f"{label}: d logit / d {name} within 1e-4 of its largest (autograd, float64)", rel <= 1e-4,
                f"{rel:.2e}")


def check_properties(label, run):
    rows = np.abs(run.attention.astype(np.float64).sum(-1) - 1).max()
    t.check(f"{label}: every attention row sums to 1", rows <= 1e-5, f"{rows:.2e}")
    err = np.abs(np.einsum("lhqk,lhkd->lhqd", run.attention.astype(np.float64), run.v) - run.out).max()
    t.check(f"{label}: out = attention @ v", err <= 1e-5, f"{err:.2e}")
    embedded, grid = vit_reference.embed(reference, run.input)
    t.check(f"{label}: residual[0] is the embedding (patches, CLS, positions)",
            grid == run.grid and relative(run.residual[0], embedded) <= 1e-5)
    again = model.run(run.input)
    t.check(f"{label}: run(array) of run(path).input is the same run",
            all(np.array_equal(again[k], run[k]) for k in ("attention", "q", "residual", "logits")))
    wide = model.run(run.input.astype(np.float64))
    t.check(f"{label}: a float64 array is taken as float32", np.array_equal(wide.logits, run.logits))


for label, photo in (("dog.jpg", DOG), ("chelsea.png", CHELSEA)):
    run, grads, top = check_against_dump(label, photo)
    check_against_reference(label, run, grads, top)
    check_properties(label, run)

run, grads, top = check_against_dump("dog.jpg at size 288", DOG, size=288)
t.check("size=288 runs an 18 x 18 grid", run.grid == 18 and run.attention.shape[-1] == 18 * 18 + 1)
x, crop = model.preprocess(DOG, size=288)
t.check("preprocess(path, size) is the run's input", np.array_equal(x, run.input) and crop == run.crop)


def refused(name, call, words):
    try:
        call()
    except vitscope.Error as e:
        return t.check(name, isinstance(e, ValueError) and all(w in str(e) for w in words), str(e))
    except Exception as e:  # noqa: BLE001 - any other exception is the failure
        return t.check(name, False, f"{type(e).__name__}: {e}")
    return t.check(name, False, "no error")


x = model.run(DOG).input
refused("a (224, 224) array is refused", lambda: model.run(np.zeros((224, 224), np.float32)), ["(3, S, S)", "(224, 224)"])
refused("a side of 100 is refused", lambda: model.run(np.zeros((3, 100, 100), np.float32)), ["100", "patch size 16"])
bad = x.copy()
bad[0, 5, 5] = np.nan
refused("a NaN input is refused", lambda: model.run(bad), ["finite"])
refused("size= unlike the array's side is refused", lambda: model.run(x, size=288), ["288", "224"])
refused("a missing photo is refused", lambda: model.run("/nonexistent/photo.jpg"), ["/nonexistent/photo.jpg"])
refused("a missing model folder is refused", lambda: vitscope.Model("/nonexistent/model"), ["/nonexistent/model"])
refused("an unknown class is refused", lambda: model.gradients(x, "no such class"), ["no such class"])
refused("a class out of range is refused", lambda: model.gradients(x, 5000), ["5000"])

sys.exit(t.finish())
