#!/usr/bin/python3
"""The relevance page's numbers against PyTorch, computed independently from
the same model input (vitscope's input.npy, as the reference test does):

  gradients_*     `vitscope dump --class C` writes d logit_C / d A for every
                  layer and head, and d logit_C / d each block's input and the
                  last block's output; PyTorch autograd (float64, vit_torch.py)
                  on the default model (two classes, two photos), the DeiT-Tiny
                  of the mirror, and seeded synthetic checkpoints with a
                  distillation token, with registers and layer scale.
                  Tolerance: max |diff| <= 1e-4 x max |reference| per tensor.
  maps_*          `vitscope explain --question relevance --class C --csv`:
                  attention_last, rollout and grad_rollout from the torch
                  forward's weights and gradients in NumPy; occlusion from
                  torch forwards with one patch zeroed (16 patches spread over
                  the grid, to keep the test to seconds).
  perturbation_*  `--question perturbation --seed S`: every curve's first
                  point, and steps 1, 4 and 9 from torch forwards with the
                  patches removed in the order of the
                  relevance CSV's maps (ties by token order) and of numpy's
                  MT19937 (the same generator as std::mt19937) for random.
  refused_*       --class missing, an unknown name, an index out of range:
                  one line, exit 2, no file written.
"""
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
from check_runner import Checks, Failure  # noqa: E402
from script_support import BIN, DOG, CHELSEA, MIRROR, MODEL  # noqa: E402
import reference_test  # noqa: E402  (the synthetic checkpoints)
import vit_reference  # noqa: E402
from vit_torch import TorchViT  # noqa: E402

GRAD_RTOL = 1e-4        # the bound, relative to the tensor's largest value
MAP_RTOL = 1e-5         # attention_last, rollout: float32 weights vs float64
GRAD_MAP_RTOL = 1e-4    # grad_rollout: float32 trace x float32-stored gradients
PROB_TOL = 2e-5         # probabilities, float32 forwards on both sides (measured 3e-8)
OCCLUDED = list(range(0, 196, 13))   # the patches whose occlusion torch recomputes
CURVE_STEPS = (1, 4, 9)              # the steps of every curve torch recomputes
DOG_CLASS, BICYCLE_CLASS = 249, 444   # malamute (the top-1 on dog.jpg), bicycle-built-for-two (second)
TMP = tempfile.mkdtemp(prefix="vitscope_relevance_")
checks = Checks()
check = checks.add


def run(*args, expect=0):
    r = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=600)
    if r.returncode != expect:
        raise Failure(f"vitscope {' '.join(map(str, args))} exited {r.returncode}: {r.stderr.strip()[-400:]}")
    return r


def dump(image, cls, model=None):
    out = tempfile.mkdtemp(prefix="dump_", dir=TMP)
    run("dump", image, "-o", out, "--class", cls, *(["--model", model] if model else []))
    return {n: np.load(os.path.join(out, n + ".npy")).astype(np.float64)
            for n in ("input", "attn", "grad_attn", "grad_x_in", "grad_x_out")}


def rel(got, ref):
    return float(np.abs(got - ref).max() / np.abs(ref).max())


def compare_gradients(image, cls, model_dir, label):
    d = dump(image, cls, model_dir)
    model = vit_reference.load_timm(model_dir or MODEL)
    _, _, g_attn, g_x_in, g_x_out = TorchViT(model).gradients(d["input"], int(cls))
    problems = []
    if np.abs(g_attn).max() == 0:
        problems.append("the reference gradient is zero: the test would prove nothing")
    worst = max(rel(d["grad_attn"][l], g_attn[l]) for l in range(model.depth))
    worst_x = max(rel(d["grad_x_in"][l], g_x_in[l]) for l in range(model.depth))
    out = rel(d["grad_x_out"], g_x_out)
    print(f"    {label}: d/dA worst layer {worst:.2e}, d/dx_in worst layer {worst_x:.2e}, d/dx_out {out:.2e}")
    for name, v in (("attention weights", worst), ("block inputs", worst_x), ("last block output", out)):
        if not v <= GRAD_RTOL:
            problems.append(f"{label}: gradient wrt {name} differs by {v:.2e} of its largest value")
    return problems


@check
def gradients_default_model_dog_two_classes():
    return (compare_gradients(DOG, DOG_CLASS, None, "dog.jpg, malamute") +
            compare_gradients(DOG, BICYCLE_CLASS, None, "dog.jpg, bicycle-built-for-two"))


@check
def gradients_default_model_chelsea():
    return compare_gradients(CHELSEA, 285, None, "chelsea.png, Egyptian cat")


@check
def gradients_deit_tiny():
    folder = os.path.join(MIRROR, "deit_tiny_patch16_224.pipevit_lnq")
    if not os.path.isdir(folder):
        raise Failure(f"{folder} is missing")
    return compare_gradients(DOG, DOG_CLASS, folder, "DeiT-Tiny, dog.jpg")


def synthetic(name, **kind):
    folder = os.path.join(TMP, name)
    reference_test.make_synthetic(folder, seed=77, **kind)
    image = reference_test.synthetic("f32")[1]
    return folder, image


@check
def gradients_synthetic_distillation_token():
    folder, image = synthetic("dist", dist=True)
    return compare_gradients(image, 3, folder, "distillation token")


@check
def gradients_synthetic_registers_layer_scale():
    folder, image = synthetic("reg_ls", registers=4, layer_scale=True)
    return compare_gradients(image, 1, folder, "4 registers + layer scale")


# ----------------------------------------------------------------------------
# Maps and perturbation curves on dog.jpg


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


_torch_dog = {}


def torch_dog(cls):
    """(input, TorchViT float64, float32, attn, grad_attn, prefix) for dog.jpg."""
    if cls not in _torch_dog:
        d = dump(DOG, cls)
        model = vit_reference.load_timm(MODEL)
        _, attn, g_attn, _, _ = TorchViT(model).gradients(d["input"], cls)
        _torch_dog[cls] = (d["input"], TorchViT(model, torch.float32), attn, g_attn, model.prefix)
    return _torch_dog[cls]


def without(image, patches, patch=16):
    x = image.copy()
    g = x.shape[-1] // patch
    for p in patches:
        r, c = divmod(p, g)
        x[:, r * patch:(r + 1) * patch, c * patch:(c + 1) * patch] = 0
    return x


def reference_maps(cls):
    image, net32, attn, g_attn, prefix = torch_dog(cls)
    L, n = attn.shape[0], attn.shape[-1]
    last = attn[L - 1, :, 0, prefix:].mean(axis=0)
    roll = np.eye(n)
    for l in range(L):
        a = 0.5 * attn[l].mean(axis=0) + 0.5 * np.eye(n)
        roll = (a / a.sum(axis=1, keepdims=True)) @ roll
    grad = np.eye(n)
    for l in range(L):
        grad = grad + np.clip(g_attn[l] * attn[l], 0, None).mean(axis=0) @ grad
    # Occlusion at a spread of patches (every 13th, 16 of them): a torch
    # forward each, the test's time kept to seconds.
    p0 = net32.probabilities([image], cls)[0]
    occl = np.full(n - prefix, np.nan)
    occl[OCCLUDED] = p0 - net32.probabilities([without(image, [p]) for p in OCCLUDED], cls)
    return {"attention_last": last, "rollout": roll[0, prefix:], "grad_rollout": grad[0, prefix:], "occlusion": occl}


_relevance = {}


def relevance_csv(cls):
    if cls not in _relevance:
        out = os.path.join(TMP, f"relevance_{cls}.csv")
        run("explain", DOG, "--question", "relevance", "--class", cls, "--csv", out)
        _relevance[cls] = read_csv(out)
    return _relevance[cls]


def compare_maps(cls, label):
    rows = relevance_csv(cls)
    problems = []
    if [r["token"] for r in rows] != [str(1 + p) for p in range(196)] or rows[13]["row"] != "0" or rows[14]["col"] != "0":
        problems.append("rows are not the 196 patch tokens in order with their grid row and col")
    ref = reference_maps(cls)
    for name, tol in (("attention_last", MAP_RTOL), ("rollout", MAP_RTOL), ("grad_rollout", GRAD_MAP_RTOL),
                      ("occlusion", None)):
        got = np.array([float(r[name]) for r in rows])
        if tol is None:
            err = float(np.abs(got[OCCLUDED] - ref[name][OCCLUDED]).max())
            ok = err <= PROB_TOL
        else:
            err = rel(got, ref[name])
            ok = err <= tol
        print(f"    {label} {name}: {'max |diff|' if tol is None else 'relative'} {err:.2e}")
        if not ok:
            problems.append(f"{label}: {name} differs from the reference by {err:.2e}")
    return problems


@check
def maps_dog_against_torch():
    return compare_maps(DOG_CLASS, "malamute") + compare_maps(BICYCLE_CLASS, "bicycle-built-for-two")


@check
def maps_class_specific_only_where_they_should_be():
    a, b = relevance_csv(DOG_CLASS), relevance_csv(BICYCLE_CLASS)
    problems = []
    for name in ("attention_last", "rollout"):
        if any(x[name] != y[name] for x, y in zip(a, b)):
            problems.append(f"{name} changes with the class: it cannot, it is computed before the classifier")
    for name in ("grad_rollout", "occlusion"):
        va, vb = (np.array([float(r[name]) for r in rows]) for rows in (a, b))
        corr = np.corrcoef(va, vb)[0, 1]
        print(f"    {name}: correlation between the two classes' maps {corr:.3f}")
        if np.array_equal(va, vb):
            problems.append(f"{name} is the same for both classes")
    return problems


def mt19937_scores(seed, n):
    # numpy's legacy seeding of a 32-bit seed is init_genrand, as std::mt19937(seed);
    # a full-range uint32 draw is the generator's raw output.
    return np.random.RandomState(seed).randint(0, 2 ** 32, size=n, dtype=np.uint64).astype(np.float64)


def ranking(scores, most_first):
    return sorted(range(len(scores)), key=lambda p: (-scores[p] if most_first else scores[p], p))


@check
def perturbation_dog_against_torch():
    cls, seed = DOG_CLASS, 7
    out = os.path.join(TMP, "perturbation.csv")
    run("explain", DOG, "--question", "perturbation", "--class", cls, "--seed", seed, "--csv", out)
    rows = read_csv(out)
    maps = {m: np.array([float(r[m]) for r in relevance_csv(cls)]) for m in
            ("attention_last", "rollout", "grad_rollout", "occlusion")}
    maps["random"] = mt19937_scores(seed, 196)
    image, net32, *_ = torch_dog(cls)
    want_keys = [(m, o, f"{i / 10:.1f}") for m in maps for o in ("positive", "negative") for i in range(10)]
    got_keys = [(r["method"], r["order"], r["fraction"]) for r in rows]
    if got_keys != want_keys:
        return [f"rows are not methods x orders x fractions 0.0..0.9 in order: {got_keys[:3]}..."]
    # Every curve at a few steps (the removals of the others are the same code).
    inputs, picked = [], []
    for j, (m, order, i) in enumerate((m, o, i) for m in maps for o in ("positive", "negative") for i in range(10)):
        if i in CURVE_STEPS:
            inputs.append(without(image, ranking(maps[m], order == "positive")[:i * 196 // 10]))
            picked.append(j)
    ref = net32.probabilities(inputs, cls)
    got = np.array([float(r["probability"]) for r in rows])
    p0 = net32.probabilities([image], cls)[0]
    err = max(float(np.abs(got[picked] - ref).max()), float(np.abs(got[::10] - p0).max()))
    problems = [] if err <= PROB_TOL else [f"curves differ from torch by {err:.2e}"]
    areas = {}
    for j in range(0, len(got), 10):
        p = got[j:j + 10]
        areas[(rows[j]["method"], rows[j]["order"])] = float(np.sum((p[1:] + p[:-1]) / 2 * 0.1))
    print(f"    max |diff| {err:.2e}; areas x100 (positive / negative):")
    for m in maps:
        print(f"      {m:15s} {100 * areas[(m, 'positive')]:6.2f} / {100 * areas[(m, 'negative')]:6.2f}")
    # a seed changes the random order and nothing else
    out2 = os.path.join(TMP, "perturbation_seed8.csv")
    run("explain", DOG, "--question", "perturbation", "--class", cls, "--seed", 8, "--csv", out2)
    other = read_csv(out2)
    if any(a != b for a, b in zip(rows, other) if a["method"] != "random"):
        problems.append("--seed changed a curve other than random")
    if all(a == b for a, b in zip(rows, other) if a["method"] == "random"):
        problems.append("--seed did not change the random curve")
    return problems


# ----------------------------------------------------------------------------
# Bad input


def expect_refused(label, args, words):
    out = os.path.join(TMP, f"refused_{label}.csv")
    r = subprocess.run([BIN, "explain", DOG, *args, "--csv", out], capture_output=True, text=True, timeout=600)
    problems = []
    lines = r.stderr.strip().splitlines()
    if r.returncode != 2:
        problems.append(f"{label}: exit {r.returncode}, expected 2")
    if len(lines) != 1 or not lines[0].startswith("vitscope: error: ") or not all(w in lines[0] for w in words):
        problems.append(f"{label}: stderr {r.stderr!r}, expected one error line naming {words}")
    if os.path.exists(out):
        problems.append(f"{label}: {out} was written")
    return problems


@check
def refused_bad_class():
    return (expect_refused("missing", ["--question", "relevance"], ["--class"]) +
            expect_refused("missing_perturbation", ["--question", "perturbation"], ["--class"]) +
            expect_refused("unknown_name", ["--question", "relevance", "--class", "flying teapot"], ["flying teapot"]) +
            expect_refused("index_1000", ["--question", "perturbation", "--class", "1000"], ["1000", "0..999"]) +
            expect_refused("negative", ["--question", "relevance", "--class", "-3"], ["-3"]))


if __name__ == "__main__":
    sys.exit(checks.run(BIN, f"vitscope {BIN}\nmodel {MODEL}\n"))
