#!/usr/bin/python3
"""The models of the peer benchmark as ONNX (for ONNX Runtime) and as vitscope model folders.

    /usr/bin/python3 bench/peers/export_onnx.py [--out /tmp/vitscope_peers]
        [--cases ti224,ti448,s224,b224] [--seed 0] [--force] [--no-check]

Cases are a model and an input size: ti (the default model, the pretrained
ViT-Ti/16), s (ViT-S/16: width 384, 6 heads, depth 12, MLP 1536) and b
(ViT-B/16: width 768, 12 heads, depth 12, MLP 3072), each at 224 or 448 px
(ti224, ti448, s224, s448, b224, b448). ViT-S and ViT-B have random weights
(numpy default_rng(--seed); as timm initialises them: every Linear weight, the
patch embedding and the position embeddings normal with std 0.02, the class
token std 1e-6, biases 0, LayerNorm weight 1 and bias 0; 1000 classes), written
to --out as folders vitscope loads (model.safetensors with timm names and the
default model's config.json with the sizes changed), e.g.
/tmp/vitscope_peers/vit_small_patch16_224.random_seed0.

Each case is exported from torchvision's VisionTransformer with the folder's
weights (bench/peers/torch_vit.py: the same model compare_pytorch.py times;
position embeddings resampled for 448 px as timm and vitscope do for a timm
model: bicubic, align_corners=False, antialias=True) to --out/CASE.onnx
(opset 17, input pixel_values [1, 3, S, S], output logits [1, 1000]). Unless
--no-check, ONNX Runtime (node bench/peers/ort_time.mjs) then runs the file on
seeded noise and its logits must equal PyTorch's to 1e-4 relative (max |diff|
over max |logit|); a file that fails is not kept. Existing files are kept
unless --force. Never write into the repository: the files are large.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_vit  # noqa: E402  (sets OpenBLAS's environment, then loads NumPy and torch: first of those)

import numpy as np  # noqa: E402
import torch  # noqa: E402

safetensors_np = torch_vit.safetensors_np
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = "/tmp/vitscope_peers"
OPSET = 17
TOLERANCE = 1e-4  # ONNX Runtime's logits against PyTorch's, relative to the largest |logit|

# Shapes of the random-weight models (timm's vit_small / vit_base, patch 16).
SHAPES = {
    "s": {"architecture": "vit_small_patch16_224", "dim": 384, "heads": 6, "depth": 12, "mlp": 1536},
    "b": {"architecture": "vit_base_patch16_224", "dim": 768, "heads": 12, "depth": 12, "mlp": 3072},
}
MODEL_NAMES = {"ti": "ViT-Ti/16", "s": "ViT-S/16", "b": "ViT-B/16"}
ALL_CASES = ["ti224", "ti448", "s224", "s448", "b224", "b448"]
DEFAULT_CASES = ["ti224", "ti448", "s224", "b224"]


def parse_case(case):
    """'ti448' -> ('ti', 448)."""
    for key in MODEL_NAMES:
        if case.startswith(key) and case[len(key):].isdigit() and key + case[len(key):] in ALL_CASES:
            return key, int(case[len(key):])
    raise ValueError(f"unknown case '{case}' (one of {', '.join(ALL_CASES)})")


def random_model_dir(out, key, seed):
    return os.path.join(out, f"{SHAPES[key]['architecture']}.random_seed{seed}")


def model_dir(out, key, seed, default_dir=None):
    """The vitscope model folder of a case's model."""
    return (default_dir or torch_vit.default_model_dir()) if key == "ti" else random_model_dir(out, key, seed)


def onnx_path(out, case):
    return os.path.join(out, f"{case}.onnx")


def random_tensors(shape, seed, grid=14, patch=16, classes=1000):
    """timm names, timm's init (see the module docstring), float32."""
    rng = np.random.default_rng(seed)
    d, m = shape["dim"], shape["mlp"]
    normal = lambda *s, std=0.02: rng.normal(0.0, std, size=s).astype(np.float32)  # noqa: E731
    zeros = lambda *s: np.zeros(s, np.float32)  # noqa: E731
    ones = lambda *s: np.ones(s, np.float32)  # noqa: E731
    t = {
        "cls_token": normal(1, 1, d, std=1e-6),
        "pos_embed": normal(1, 1 + grid * grid, d),
        "patch_embed.proj.weight": normal(d, 3, patch, patch),
        "patch_embed.proj.bias": zeros(d),
    }
    for i in range(shape["depth"]):
        b = f"blocks.{i}."
        t.update({
            b + "norm1.weight": ones(d), b + "norm1.bias": zeros(d),
            b + "attn.qkv.weight": normal(3 * d, d), b + "attn.qkv.bias": zeros(3 * d),
            b + "attn.proj.weight": normal(d, d), b + "attn.proj.bias": zeros(d),
            b + "norm2.weight": ones(d), b + "norm2.bias": zeros(d),
            b + "mlp.fc1.weight": normal(m, d), b + "mlp.fc1.bias": zeros(m),
            b + "mlp.fc2.weight": normal(d, m), b + "mlp.fc2.bias": zeros(d),
        })
    t.update({"norm.weight": ones(d), "norm.bias": zeros(d),
              "head.weight": normal(classes, d), "head.bias": zeros(classes)})
    return t


def write_random_model(folder, key, seed, default_dir):
    """A vitscope model folder with random weights of SHAPES[key]; its
    config.json is the default model's with the sizes changed."""
    shape = SHAPES[key]
    with open(os.path.join(default_dir, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    cfg["architecture"] = shape["architecture"]
    cfg["num_features"] = shape["dim"]
    cfg["model_args"] = dict(cfg.get("model_args", {}), embed_dim=shape["dim"], depth=shape["depth"],
                             num_heads=shape["heads"])
    cfg["pretrained_cfg"] = dict(cfg.get("pretrained_cfg", {}), tag=f"random_seed{seed}")
    tensors = random_tensors(shape, seed)
    _, header = safetensors_np.read_header(os.path.join(default_dir, "model.safetensors"))
    header.pop("__metadata__", None)
    assert set(header) == set(tensors), "the random model's tensor names differ from the default model's"
    tmp = folder + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    safetensors_np.save(os.path.join(tmp, "model.safetensors"), tensors,
                        metadata={"format": "pt", "vitscope": f"random weights, seed {seed}, bench/peers/export_onnx.py"})
    with open(os.path.join(tmp, "config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=2)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(tmp, folder)
    print(f"wrote {folder} ({MODEL_NAMES[key]}, random weights, seed {seed}, "
          f"{sum(v.size for v in tensors.values()) / 1e6:.1f} M parameters)")


def relative_error(got, want):
    return float(np.abs(np.asarray(got, np.float64) - want).max() / np.abs(want).max())


def ort_logits(onnx, x, node="node", threads=2):
    """ONNX Runtime's logits for input x ([1, 3, S, S] float32), through ort_time.mjs."""
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "x.f32"), os.path.join(tmp, "logits.f32")
        np.ascontiguousarray(x, "<f4").tofile(inp)
        cmd = [node, os.path.join(HERE, "ort_time.mjs"), onnx, "--input", inp, "--threads", str(threads),
               "--warmup", "0", "--runs", "1", "--logits-out", out]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"ort_time.mjs failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}")
        return np.fromfile(out, "<f4")


def noise_input(size, seed):
    return np.random.default_rng(seed).uniform(-1, 1, size=(1, 3, size, size)).astype(np.float32)


def export_case(out, case, seed, default_dir, check=True, force=False, node="node"):
    """Writes out/CASE.onnx (and the random model folder it needs). Returns
    ONNX Runtime's relative logits error against PyTorch, or None unchecked."""
    key, size = parse_case(case)
    folder = model_dir(out, key, seed, default_dir)
    if key != "ti" and (force or not os.path.isfile(os.path.join(folder, "model.safetensors"))):
        write_random_model(folder, key, seed, default_dir)
    path = onnx_path(out, case)
    if os.path.isfile(path) and not force:
        print(f"{path} exists (--force to write it again)")
        return None
    model, _ = torch_vit.build_torchvision(folder, size)
    x = noise_input(size, seed)
    tmp = path + ".tmp.onnx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torchvision's shape asserts become constants: true for a fixed size
        torch.onnx.export(model, torch.from_numpy(x), tmp, opset_version=OPSET, input_names=["pixel_values"],
                          output_names=["logits"], do_constant_folding=True)
    err = None
    if check:
        with torch.inference_mode():
            want = model(torch.from_numpy(x))[0].double().numpy()
        got = ort_logits(tmp, x, node)
        err = relative_error(got, want)
        ok = err <= TOLERANCE
        print(f"{case}: ONNX Runtime vs PyTorch logits on seeded noise: max rel diff {err:.2e}, "
              f"top-1 {int(got.argmax())} / {int(want.argmax())} -> {'PASS' if ok else 'FAIL'}")
        if not ok:
            os.remove(tmp)
            raise RuntimeError(f"{case}: ONNX export disagrees with PyTorch ({err:.2e} > {TOLERANCE})")
    os.replace(tmp, path)
    print(f"wrote {path} ({os.path.getsize(path) / 1e6:.0f} MB, opset {OPSET}, {MODEL_NAMES[key]} at {size} px)")
    return err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--cases", default=",".join(DEFAULT_CASES), help=f"any of {','.join(ALL_CASES)}")
    ap.add_argument("--model", default=torch_vit.default_model_dir(), help="the default model's folder (ti)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--force", action="store_true", help="write existing files again")
    ap.add_argument("--no-check", action="store_true", help="do not run the exports with ONNX Runtime")
    ap.add_argument("--node", default="node")
    a = ap.parse_args()
    cases = [c for c in a.cases.split(",") if c]
    for c in cases:
        parse_case(c)
    out = os.path.abspath(a.out)
    if out == torch_vit.SOURCE_DIR or out.startswith(torch_vit.SOURCE_DIR + os.sep):
        sys.exit(f"export_onnx: --out {out} is inside the repository; the files are large, put them elsewhere")
    if not a.no_check and not os.path.isdir(os.path.join(HERE, "node_modules", "onnxruntime-node")):
        sys.exit(f"export_onnx: onnxruntime-node is not installed: (cd {HERE} && npm ci --ignore-scripts), "
                 "or pass --no-check")
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(2)
    print(f"torch {torch.__version__}, opset {OPSET}, out {out}")
    for c in cases:
        export_case(out, c, a.seed, a.model, check=not a.no_check, force=a.force, node=a.node)


if __name__ == "__main__":
    main()
