"""PyTorch side of the benchmarks, shared by bench/compare_pytorch.py and bench/peers/.

Importing this module first sets up OpenBLAS's environment (thread count from
the command line's --threads, the largest if it lists several; on AVX-512 CPUs
OPENBLAS_CORETYPE=SkylakeX), then loads NumPy and torch: import it before
anything else that loads NumPy. It builds torchvision's VisionTransformer from
a timm safetensors folder (position embeddings resampled as timm does), times
PyTorch's forward, finds its fastest thread split, and runs vitscope's
benchmark binary and `vitscope classify`.
"""
import ctypes
import json
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import time


def threads_from_argv(default="2"):
    """--threads N (or N,M,...: the largest) from sys.argv, as a string."""
    value = default
    for i, arg in enumerate(sys.argv):
        if arg == "--threads" and i + 1 < len(sys.argv):
            value = sys.argv[i + 1]
        elif arg.startswith("--threads="):
            value = arg.split("=", 1)[1]
    try:
        return str(max(int(t) for t in value.split(",") if t.strip()))
    except ValueError:
        return default


def configure_blas_environment(threads):
    """Before NumPy or torch load OpenBLAS. Debian's torch calls OpenBLAS (own
    pthread pool, not governed by torch.set_num_threads) for Linear layers: cap
    both pools, or the two oversubscribe the cores. Debian's OpenBLAS 0.3.21
    does not know this CPU generation (Sapphire Rapids) and may fall back to its
    SSE3 "Prescott" kernels, 3-5x slower; on AVX-512 CPUs name the kernels it
    has for them, for a fair peer. Variables already set are left alone."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(var, str(threads))
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        flags = next((line.split() for line in f if line.startswith("flags")), [])
    if all(f in flags for f in ("avx512f", "avx512bw", "avx512dq", "avx512vl")):
        os.environ.setdefault("OPENBLAS_CORETYPE", "SkylakeX")


if "numpy" in sys.modules or "torch" in sys.modules:
    print("torch_vit: NumPy or torch was loaded before torch_vit: OpenBLAS's environment is not set up",
          file=sys.stderr)
configure_blas_environment(threads_from_argv())

import numpy as np  # noqa: E402  (loads OpenBLAS: after the environment above)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402
from PIL import Image  # noqa: E402
from torchvision import transforms  # noqa: E402

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "reference"))
import safetensors_np  # noqa: E402

DEFAULT_MODEL = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"


def default_model_dir():
    mirror = os.environ.get("VITSCOPE_MODEL_MIRROR")
    if mirror:
        return os.path.join(mirror, DEFAULT_MODEL)
    return os.path.join(os.path.dirname(SOURCE_DIR), "shared", "models", DEFAULT_MODEL)


def timm_to_torchvision(tensors, depth, tv_keys):
    """timm state dict names -> torchvision VisionTransformer names."""
    mlp1 = "mlp.0" if any(".mlp.0." in k for k in tv_keys) else "mlp.linear_1"
    mlp2 = "mlp.3" if any(".mlp.3." in k for k in tv_keys) else "mlp.linear_2"
    m = {
        "patch_embed.proj.weight": "conv_proj.weight",
        "patch_embed.proj.bias": "conv_proj.bias",
        "cls_token": "class_token",
        "pos_embed": "encoder.pos_embedding",
        "norm.weight": "encoder.ln.weight",
        "norm.bias": "encoder.ln.bias",
        "head.weight": "heads.head.weight",
        "head.bias": "heads.head.bias",
    }
    for i in range(depth):
        s, d = f"blocks.{i}.", f"encoder.layers.encoder_layer_{i}."
        for a, b in [("norm1", "ln_1"), ("norm2", "ln_2"), ("attn.proj", "self_attention.out_proj"),
                     ("mlp.fc1", mlp1), ("mlp.fc2", mlp2)]:
            for p in ("weight", "bias"):
                m[f"{s}{a}.{p}"] = f"{d}{b}.{p}"
        m[s + "attn.qkv.weight"] = d + "self_attention.in_proj_weight"
        m[s + "attn.qkv.bias"] = d + "self_attention.in_proj_bias"
    return {m[k]: torch.from_numpy(np.ascontiguousarray(v, dtype=np.float32)) for k, v in tensors.items()}


def resample_pos_embed_torch(pos, new_grid, prefix=1):
    """timm's resample_abs_pos_embed: bicubic, align_corners=False, antialias=True
    (vitscope's PosResize::BicubicAntialias, which it uses for timm models)."""
    old = int(round(math.sqrt(pos.shape[1] - prefix)))
    if old == new_grid:
        return pos
    pre, grid = pos[:, :prefix], pos[:, prefix:]
    grid = grid.reshape(1, old, old, -1).permute(0, 3, 1, 2)
    grid = F.interpolate(grid.float(), size=(new_grid, new_grid), mode="bicubic", align_corners=False, antialias=True)
    grid = grid.permute(0, 2, 3, 1).reshape(1, new_grid * new_grid, -1)
    return torch.cat([pre, grid], dim=1)


def build_torchvision(model_dir, size):
    """(torchvision VisionTransformer in eval mode, the folder's config.json)."""
    tensors, _ = safetensors_np.load(os.path.join(model_dir, "model.safetensors"))
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    dim, _, patch, _ = tensors["patch_embed.proj.weight"].shape
    depth = sum(1 for k in tensors if k.endswith(".attn.qkv.weight"))
    heads = int(cfg["model_args"]["num_heads"])
    mlp = tensors["blocks.0.mlp.fc1.weight"].shape[0]
    classes = tensors["head.weight"].shape[0]
    model = torchvision.models.VisionTransformer(image_size=size, patch_size=patch, num_layers=depth,
                                                 num_heads=heads, hidden_dim=dim, mlp_dim=mlp,
                                                 num_classes=classes)  # LayerNorm eps 1e-6 by default
    sd = timm_to_torchvision(tensors, depth, model.state_dict().keys())
    sd["encoder.pos_embedding"] = resample_pos_embed_torch(sd["encoder.pos_embedding"], size // patch)
    model.load_state_dict(sd, strict=True)
    model.eval()
    return model, cfg


def torch_preprocess(path, pcfg, size):
    """timm's eval transform (transforms_factory, crop_mode center) via torchvision."""
    interp = {"bicubic": transforms.InterpolationMode.BICUBIC,
              "bilinear": transforms.InterpolationMode.BILINEAR}[pcfg.get("interpolation", "bicubic")]
    t = transforms.Compose([
        transforms.Resize(math.floor(size / float(pcfg.get("crop_pct", 0.875))), interpolation=interp),
        transforms.CenterCrop(size),
        transforms.ToTensor(),
        transforms.Normalize(pcfg["mean"], pcfg["std"]),
    ])
    return t(Image.open(path).convert("RGB")).unsqueeze(0)


def time_forward(model, x, runs, warmup=5):
    """The wall time of each of `runs` forward passes, ms."""
    with torch.inference_mode():
        for _ in range(warmup):
            model(x)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t0) * 1e3)
    return times


def loaded_blas():
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1]
                if re.search(r"(blas|lapack|mkl|dnnl|gomp|omp)[^/]*\.so", os.path.basename(p)):
                    libs.add(os.path.realpath(p))
    except OSError:
        pass
    return sorted(libs)


def openblas_setter():
    """openblas_set_num_threads of the OpenBLAS that torch (and NumPy) loaded, or None."""
    for path in loaded_blas():
        try:
            lib = ctypes.CDLL(path)
            return lib.openblas_set_num_threads
        except (OSError, AttributeError):
            continue
    return None


def set_thread_split(torch_threads, blas_threads):
    """PyTorch's own threads and (if found) OpenBLAS's."""
    torch.set_num_threads(torch_threads)
    set_blas = openblas_setter()
    if set_blas:
        set_blas(blas_threads)


def best_thread_split(model, x, threads, runs=10):
    """PyTorch at its fastest on `threads` cores: its own threads (elementwise
    ops, attention) and OpenBLAS's (the Linear layers) are two pools that
    oversubscribe the cores when both are `threads` wide, so every split is
    timed and the fastest is kept (and left set), for a fair peer. Returns
    (torch threads, OpenBLAS threads)."""
    set_blas = openblas_setter()
    splits = [(threads, threads)]
    if set_blas:
        splits = [(t, b) for t in range(1, threads + 1) for b in range(1, threads + 1)]
    results = []
    for torch_threads, blas_threads in splits:
        set_thread_split(torch_threads, blas_threads)
        ms = statistics.median(time_forward(model, x, runs, warmup=2))
        results.append((ms, torch_threads, blas_threads))
        print(f"  PyTorch threads {torch_threads}, OpenBLAS threads {blas_threads}: median {ms:.2f} ms over {runs}")
    ms, torch_threads, blas_threads = min(results)
    set_thread_split(torch_threads, blas_threads)
    print(f"  -> PyTorch threads {torch_threads}, OpenBLAS threads {blas_threads}"
          + ("" if set_blas else " (OpenBLAS not found: its threads stay as the environment set them)"))
    return torch_threads, blas_threads


def print_torch_environment():
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, threads {torch.get_num_threads()}")
    print(torch.__config__.parallel_info().strip())
    print("OPENBLAS_CORETYPE=" + os.environ.get("OPENBLAS_CORETYPE", "(unset: OpenBLAS detects the CPU)"))
    m = re.search(r"BLAS_INFO=([^,]+)", torch.__config__.show())
    print(f"BLAS_INFO={m.group(1) if m else '?'}; loaded: {', '.join(loaded_blas()) or '?'}")


def vitscope_top1(binary, image, model_dir):
    """(label, probability) of `vitscope classify`, or None."""
    cmd = [binary, "classify", image, "--model", model_dir, "--top", "5"]
    print("$ " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(f"  vitscope classify failed (exit {r.returncode}): {r.stderr.strip()}")
        return None
    rows = [line.split("\t") for line in r.stdout.splitlines() if line.strip()]
    print("  " + "\n  ".join("\t".join(x) for x in rows))
    return rows[0][2], float(rows[0][1])


def run_bench(binary, model_dir, threads, quiet=False, bench_filter="Forward", extra_args=(), context=None):
    """Runs vitscope's benchmark binary once: {(name, size): [real time in ms of each
    repetition, in order]}, or None if it failed. `context`, a dict, receives the
    binary's JSON context."""
    cmd = [binary, "--benchmark_format=json", f"--benchmark_filter={bench_filter}", *extra_args]
    env = dict(os.environ, VITSCOPE_MODEL=model_dir, VITSCOPE_THREADS=str(threads))
    if not quiet:
        print(f"$ VITSCOPE_MODEL={shlex.quote(model_dir)} VITSCOPE_THREADS={threads} " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        print(f"  benchmark failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}")
        return None
    data = json.loads(r.stdout)
    ctx = data.get("context", {})
    if context is not None:
        context.update(ctx)
    if not quiet:
        print(f"  context: {ctx.get('num_cpus')} cpus @ {ctx.get('mhz_per_cpu')} MHz, kernels {ctx.get('kernels', '?')}, {ctx.get('threads', '?')} threads")
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        m = re.match(r"(BM_\w+)/(\d+)", b["name"])
        if not m:
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        out.setdefault((m.group(1), int(m.group(2))), []).append(b["real_time"] * scale)
    return out
