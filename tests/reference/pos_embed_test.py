#!/usr/bin/python3
"""DINOv2 position embeddings at other grids, as each library resizes them.

For the hub's own configs (../shared/hub_configs: facebook/dinov2-small and
-base, timm's vit_small_patch14_reg4_dinov2.lvd142m; the Dinov2WithRegisters
and timm plain-DINOv2 configs derived from them, whose hub files were not
found) a one-block checkpoint is written here with the real layouts and sizes
(37 x 37 position grid, width 384 or 768, patch 14) and random weights
(seeded; uniform position embeddings in [-1, 1]), never committed. `vitscope
dump --size S` writes the position embeddings its run added (pos_embed.npy);
they are compared, at 224 px (16 x 16, downsampling), 518 px (37 x 37, the
trained grid, unchanged) and 560 px (40 x 40, upsampling), with:
  * pos_embed_np.py, float64 NumPy written from the definitions: 1e-5;
  * torch.nn.functional.interpolate itself (Debian's python3-torch), called
    as the library calls it (timm and Dinov2WithRegisters: antialias=True;
    transformers' Dinov2: antialias=False): 1e-5;
  * and the NumPy reference against torch: 1e-5.
The token layout of each run (prefix, registers, tokens) is checked from
meta.json, and a few configs that disagree with their weights are refused
through the real binary (exit 2, one line).

Run by ctest with /usr/bin/python3, VITSCOPE_BIN and VITSCOPE_SOURCE_DIR.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
import pos_embed_np  # noqa: E402
import safetensors_np  # noqa: E402
from script_support import BIN, HUB_CONFIGS, SRC, Tally  # noqa: E402

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the check against torch is then a failure, not a skip
    torch = None

TOL = 1e-5
PHOTO = os.path.join(SRC, "assets", "chelsea.png")
tally = Tally()
check = tally.check


def hub_config(repo):
    with open(os.path.join(HUB_CONFIGS, repo, "config.json"), encoding="utf-8") as f:
        return json.load(f)


def block_tensors(rng, dim, names):
    """One transformer block's weights under a layout's names (small values)."""
    t = {}
    mlp = 4 * dim

    def lin(name, out, inp):
        t[name + ".weight"] = rng.uniform(-0.02, 0.02, (out, inp))
        t[name + ".bias"] = rng.uniform(-0.02, 0.02, out)

    for norm in (names["norm1"], names["norm2"]):
        t[norm + ".weight"] = np.ones(dim)
        t[norm + ".bias"] = np.zeros(dim)
    if "qkv" in names:
        lin(names["qkv"], 3 * dim, dim)
    else:
        for n in ("query", "key", "value"):
            lin(names["attn"] + n, dim, dim)
    lin(names["proj"], dim, dim)
    lin(names["fc1"], mlp, dim)
    lin(names["fc2"], dim, mlp)
    for ls in (names["ls1"], names["ls2"]):
        t[ls] = np.full(dim, 0.1)
    return t


def hf_checkpoint(rng, dim, registers, pos):
    l = "encoder.layer.0."
    t = {"embeddings.cls_token": rng.uniform(-1, 1, (1, 1, dim)),
         "embeddings.mask_token": np.zeros((1, dim))}
    if registers:
        t["embeddings.register_tokens"] = rng.uniform(-1, 1, (1, registers, dim))
    t["embeddings.position_embeddings"] = pos[None]
    t["embeddings.patch_embeddings.projection.weight"] = rng.uniform(-0.02, 0.02, (dim, 3, 14, 14))
    t["embeddings.patch_embeddings.projection.bias"] = np.zeros(dim)
    t.update(block_tensors(rng, dim, {
        "norm1": l + "norm1", "norm2": l + "norm2", "attn": l + "attention.attention.",
        "proj": l + "attention.output.dense", "fc1": l + "mlp.fc1", "fc2": l + "mlp.fc2",
        "ls1": l + "layer_scale1.lambda1", "ls2": l + "layer_scale2.lambda1"}))
    t["layernorm.weight"], t["layernorm.bias"] = np.ones(dim), np.zeros(dim)
    return t


def timm_checkpoint(rng, dim, registers, pos):
    t = {"cls_token": rng.uniform(-1, 1, (1, 1, dim))}
    if registers:
        t["reg_token"] = rng.uniform(-1, 1, (1, registers, dim))
    t["pos_embed"] = pos[None]
    t["patch_embed.proj.weight"] = rng.uniform(-0.02, 0.02, (dim, 3, 14, 14))
    t["patch_embed.proj.bias"] = np.zeros(dim)
    b = "blocks.0."
    t.update(block_tensors(rng, dim, {
        "norm1": b + "norm1", "norm2": b + "norm2", "qkv": b + "attn.qkv", "proj": b + "attn.proj",
        "fc1": b + "mlp.fc1", "fc2": b + "mlp.fc2", "ls1": b + "ls1.gamma", "ls2": b + "ls2.gamma"}))
    t["norm.weight"], t["norm.bias"] = np.ones(dim), np.zeros(dim)
    return t


def cases():
    """(name, config, layout, dim, registers, pos rows before the grid, antialias)."""
    small, base = hub_config("facebook__dinov2-small"), hub_config("facebook__dinov2-base")
    reg = copy.deepcopy(small)
    reg.update(model_type="dinov2_with_registers", architectures=["Dinov2WithRegistersModel"], num_register_tokens=4)
    timm_reg4 = hub_config("timm__vit_small_patch14_reg4_dinov2.lvd142m")
    timm_plain = copy.deepcopy(timm_reg4)
    timm_plain["architecture"] = "vit_small_patch14_dinov2"
    for c in (small, base, reg):
        c["num_hidden_layers"] = 1  # one block is enough to run; the embeddings are the hub's sizes
    return [("hf dinov2-small", small, "hf", 384, 0, 1, False),
            ("hf dinov2-base", base, "hf", 768, 0, 1, False),
            ("hf dinov2-with-registers (small)", reg, "hf", 384, 4, 1, True),
            ("timm vit_small_patch14_reg4_dinov2", timm_reg4, "timm", 384, 4, 0, True),
            ("timm vit_small_patch14_dinov2", timm_plain, "timm", 384, 0, 1, True)]


def write_folder(root, name, config, layout, dim, registers, lead, seed):
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-1, 1, (lead + 37 * 37, dim)).astype(np.float32)
    make = hf_checkpoint if layout == "hf" else timm_checkpoint
    folder = os.path.join(root, name.replace(" ", "_").replace("(", "").replace(")", ""))
    os.makedirs(folder)
    stored = safetensors_np.save(os.path.join(folder, "model.safetensors"), make(rng, dim, registers, pos))
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
    pos_name = "embeddings.position_embeddings" if layout == "hf" else "pos_embed"
    return folder, stored[pos_name][0]


def vitscope(*args):
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, timeout=600)


def torch_resize(grid, n_out, antialias):
    """As timm / transformers call it: float32, (1, D, g, g), size=(n, n)."""
    x = torch.from_numpy(np.ascontiguousarray(grid.transpose(2, 0, 1)[None], dtype=np.float32))
    y = F.interpolate(x, size=(n_out, n_out), mode="bicubic", align_corners=False, antialias=antialias)
    return y[0].numpy().transpose(1, 2, 0).astype(np.float64)


def compare(root, case, seed):
    name, config, layout, dim, registers, lead, antialias = case
    folder, pos = write_folder(root, name, config, layout, dim, registers, lead, seed)
    grid37 = pos[lead:].reshape(37, 37, dim).astype(np.float64)
    sizes = (224, 518, 560) if dim == 384 else (224, 518)
    for size in sizes:
        g = size // 14
        label = f"{name} at {size} px ({37}x37 -> {g}x{g}, antialias={antialias})"
        out = os.path.join(root, f"dump_{seed}_{size}")
        r = vitscope("dump", PHOTO, "-o", out, "--model", folder, "--size", size)
        if not check(label + ": dump runs", r.returncode == 0, r.stderr.strip()):
            continue
        with open(os.path.join(out, "meta.json"), encoding="utf-8") as f:
            meta = json.load(f)
        check(label + ": tokens 1 + registers + grid",
              (meta["grid"], meta["prefix"], meta["registers"], meta["tokens"]) == (g, 1 + registers, registers, 1 + registers + g * g),
              meta)
        got_all = np.load(os.path.join(out, "pos_embed.npy")).astype(np.float64)
        # vitscope keeps a zero CLS row where timm's reg4 pos_embed has none
        check(label + ": prefix rows kept", got_all.shape == (1 + g * g, dim) and
              np.array_equal(got_all[:1], pos[:1] if lead else np.zeros((1, dim))), got_all.shape)
        got = got_all[1:].reshape(g, g, dim)
        ref = pos_embed_np.resize_grid(grid37, g, antialias)
        err = np.abs(got - ref).max()
        check(label + f": against the NumPy reference (max diff {err:.2e})", err <= TOL, err)
        if g == 37:
            check(label + ": the trained grid comes back unchanged", np.array_equal(got, grid37))
        if torch is None:
            check(label + ": torch is there to compare with", False, "python3-torch is missing")
            continue
        th = torch_resize(grid37, g, antialias)
        err_t, err_rt = np.abs(got - th).max(), np.abs(ref - th).max()
        check(label + f": against torch F.interpolate (max diff {err_t:.2e})", err_t <= TOL, err_t)
        check(label + f": NumPy reference against torch (max diff {err_rt:.2e})", err_rt <= TOL, err_rt)
        if g != 37:
            other = pos_embed_np.resize_grid(grid37, g, not antialias)
            gap = np.abs(other - ref).max()
            check(label + f": the other kernel would differ ({gap:.2e}), so the check tells them apart", gap > 100 * TOL, gap)


def expect_refused(root, label, config, tensors, *words):
    folder = os.path.join(root, "bad_" + label.replace(" ", "_"))
    os.makedirs(folder)
    safetensors_np.save(os.path.join(folder, "model.safetensors"), tensors)
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)
    r = vitscope("info", "--model", folder)
    lines = r.stderr.strip().splitlines()
    ok = (r.returncode == 2 and not r.stdout and len(lines) == 1 and lines[0].startswith("vitscope: error: ")
          and all(w in lines[0] for w in words))
    check("refused: " + label, ok, f"exit {r.returncode}, stderr {r.stderr.strip()!r}")


def bad_inputs(root):
    rng = np.random.default_rng(7)
    small = hub_config("facebook__dinov2-small")
    small["num_hidden_layers"] = 1
    reg = dict(small, model_type="dinov2_with_registers", architectures=["Dinov2WithRegistersModel"],
               num_register_tokens=4)
    pos = rng.uniform(-1, 1, (1 + 37 * 37, 384))
    expect_refused(root, "num_register_tokens 4, weights with 2", reg, hf_checkpoint(rng, 384, 2, pos),
                   "4 register tokens", "num_register_tokens", "2")
    expect_refused(root, "Dinov2Model config, weights with registers", small, hf_checkpoint(rng, 384, 4, pos),
                   "0 register tokens", "model_type dinov2")
    no_scale = {k: v for k, v in hf_checkpoint(rng, 384, 0, pos).items() if "layer_scale" not in k}
    expect_refused(root, "Dinov2 without layer scale weights", small, no_scale, "layer scale", "layer_scale1.lambda1")
    timm_reg4 = hub_config("timm__vit_small_patch14_reg4_dinov2.lvd142m")
    expect_refused(root, "timm reg4 name, weights without reg_token", timm_reg4,
                   timm_checkpoint(rng, 384, 0, rng.uniform(-1, 1, (37 * 37, 384))), "4 register tokens", "reg4")
    expect_refused(root, "dinov2-giant (SwiGLU)", hub_config("facebook__dinov2-giant"),
                   hf_checkpoint(rng, 384, 0, pos), "use_swiglu_ffn", "SwiGLU")


def main():
    if not BIN or not os.path.exists(BIN):
        print(f"FAIL vitscope binary not found at {BIN!r} (set VITSCOPE_BIN)")
        return 1
    if not os.path.isdir(HUB_CONFIGS):
        print(f"FAIL hub configs not found at {HUB_CONFIGS} (set VITSCOPE_HUB_CONFIGS)")
        return 1
    with tempfile.TemporaryDirectory(prefix="vitscope_pos_embed_") as root:
        for seed, case in enumerate(cases()):
            compare(root, case, seed)
        bad_inputs(root)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
