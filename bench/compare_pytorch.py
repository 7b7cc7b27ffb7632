#!/usr/bin/python3
"""vitscope's forward pass against PyTorch on the same CPU, same model, same image.

Loads the default model's safetensors (timm names) into
torchvision.models.VisionTransformer, preprocesses one photo with timm's eval
transform through PIL/torchvision, times PyTorch's plain forward
(torch.inference_mode, 2 threads, median of --runs), checks that PyTorch's
top-1 agrees with `vitscope classify`, and runs vitscope's Google Benchmark
binary (BM_ForwardTrace/224, BM_ForwardTrace/448, BM_ForwardPlain/224), the
two taking turns over --rounds so that both see the same machine, and prints
one table.

    /usr/bin/python3 bench/compare_pytorch.py [--model DIR] [--image PATH]
        [--bench build/bench/vitscope_bench] [--vitscope build/vitscope]
        [--runs 50] [--rounds 5] [--sizes 224,448] [--check-reference]

--check-reference also compares PyTorch's float32 logits and per-head attention
with tests/reference/vit_reference.py's float64 forward (validates the
reference). Use Debian's /usr/bin/python3 (python3-torch, python3-torchvision).
"""
import argparse
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


def _threads_from_argv(default="2"):
    for i, arg in enumerate(sys.argv):
        if arg == "--threads" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if arg.startswith("--threads="):
            return arg.split("=", 1)[1]
    return default


if __name__ == "__main__":
    # Debian's torch calls OpenBLAS (own pthread pool, not governed by
    # torch.set_num_threads) for Linear layers: cap both pools before loading it,
    # or the two oversubscribe the cores.
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(_var, _threads_from_argv())
    # Debian's OpenBLAS 0.3.21 does not know this CPU generation (Sapphire
    # Rapids) and may fall back to its SSE3 "Prescott" kernels, 3-5x slower;
    # on AVX-512 CPUs name the kernels it has for them, for a fair peer.
    with open("/proc/cpuinfo", encoding="utf-8") as _f:
        _flags = next((line.split() for line in _f if line.startswith("flags")), [])
    if all(f in _flags for f in ("avx512f", "avx512bw", "avx512dq", "avx512vl")):
        os.environ.setdefault("OPENBLAS_CORETYPE", "SkylakeX")

import numpy as np  # noqa: E402  (loads OpenBLAS: after the environment above)
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402
from PIL import Image  # noqa: E402
from torchvision import transforms  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "reference"))
import safetensors_np  # noqa: E402
import vit_reference  # noqa: E402

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
    """timm's resample_abs_pos_embed: bicubic, align_corners=False, antialias=True."""
    old = int(round(math.sqrt(pos.shape[1] - prefix)))
    if old == new_grid:
        return pos
    pre, grid = pos[:, :prefix], pos[:, prefix:]
    grid = grid.reshape(1, old, old, -1).permute(0, 3, 1, 2)
    grid = F.interpolate(grid.float(), size=(new_grid, new_grid), mode="bicubic", align_corners=False, antialias=True)
    grid = grid.permute(0, 2, 3, 1).reshape(1, new_grid * new_grid, -1)
    return torch.cat([pre, grid], dim=1)


def build_torchvision(model_dir, size):
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
    missing, unexpected = model.load_state_dict(sd, strict=True), None
    del missing, unexpected
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


def torch_attention(model, x):
    """Per-layer per-head softmax weights from torchvision's own attention module."""
    captured = []
    hooks = [layer.ln_1.register_forward_hook(lambda m, i, o: captured.append(o))
             for layer in model.encoder.layers]
    with torch.inference_mode():
        logits = model(x)[0]
        attn = []
        for layer, y in zip(model.encoder.layers, captured):
            _, w = layer.self_attention(y, y, y, need_weights=True, average_attn_weights=False)
            attn.append(w[0])
    for h in hooks:
        h.remove()
    return logits.double().numpy(), torch.stack(attn).double().numpy()


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


def best_thread_split(model, x, threads, runs=10):
    """PyTorch at its fastest on `threads` cores: its own threads (elementwise
    ops, attention) and OpenBLAS's (the Linear layers) are two pools that
    oversubscribe the cores when both are `threads` wide, so every split is
    timed and the fastest is kept, for a fair peer."""
    set_blas = openblas_setter()
    splits = [(threads, threads)]
    if set_blas:
        splits = [(t, b) for t in range(1, threads + 1) for b in range(1, threads + 1)]
    results = []
    for torch_threads, blas_threads in splits:
        torch.set_num_threads(torch_threads)
        if set_blas:
            set_blas(blas_threads)
        ms = statistics.median(time_forward(model, x, runs, warmup=2))
        results.append((ms, torch_threads, blas_threads))
        print(f"  PyTorch threads {torch_threads}, OpenBLAS threads {blas_threads}: median {ms:.2f} ms over {runs}")
    ms, torch_threads, blas_threads = min(results)
    torch.set_num_threads(torch_threads)
    if set_blas:
        set_blas(blas_threads)
    print(f"  -> PyTorch threads {torch_threads}, OpenBLAS threads {blas_threads}"
          + ("" if set_blas else " (OpenBLAS not found: its threads stay as the environment set them)"))


def vitscope_top1(binary, image, model_dir):
    cmd = [binary, "classify", image, "--model", model_dir, "--top", "5"]
    print("$ " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(f"  vitscope classify failed (exit {r.returncode}): {r.stderr.strip()}")
        return None
    rows = [line.split("\t") for line in r.stdout.splitlines() if line.strip()]
    print("  " + "\n  ".join("\t".join(x) for x in rows))
    return rows[0][2], float(rows[0][1])


def run_bench(binary, model_dir, threads, quiet=False):
    cmd = [binary, "--benchmark_format=json", "--benchmark_filter=Forward"]
    env = dict(os.environ, VITSCOPE_MODEL=model_dir, VITSCOPE_THREADS=str(threads))
    if not quiet:
        print(f"$ VITSCOPE_MODEL={shlex.quote(model_dir)} VITSCOPE_THREADS={threads} " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        print(f"  benchmark failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}")
        return None
    data = json.loads(r.stdout)
    ctx = data.get("context", {})
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
        out[(m.group(1), int(m.group(2)))] = b["real_time"] * scale
    return out


def check_reference(model_dir, image, sizes):
    ok = True
    ref = vit_reference.load_timm(model_dir)
    for size in sizes:
        model, cfg = build_torchvision(model_dir, size)
        x = torch_preprocess(image, cfg["pretrained_cfg"], size)
        xr, _ = vit_reference.preprocess_pil(image, cfg["pretrained_cfg"], size)
        pre_err = float(np.abs(xr - x[0].numpy()).max())
        logits, attn = torch_attention(model, x)
        r = vit_reference.forward(ref, x[0].numpy())
        lerr = np.abs(r["logits"] - logits).max() / np.abs(r["logits"]).max()
        aerr = np.abs(r["attn"] - attn).max()
        good = pre_err == 0 and lerr < 1e-4 and aerr < 1e-4
        ok &= good
        print(f"reference vs PyTorch @{size}: preprocess max|diff| {pre_err:.2e}, "
              f"logits max rel {lerr:.2e}, attention max|diff| {aerr:.2e} "
              f"(worst layer {np.unravel_index(np.abs(r['attn'] - attn).argmax(), attn.shape)[:2]}) "
              f"-> {'PASS' if good else 'FAIL'}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=default_model_dir())
    ap.add_argument("--image", default=os.path.join(SOURCE_DIR, "assets", "chelsea.png"))
    ap.add_argument("--bench", default=os.path.join(SOURCE_DIR, "build", "bench", "vitscope_bench"))
    ap.add_argument("--vitscope", default=os.path.join(SOURCE_DIR, "build", "vitscope"))
    ap.add_argument("--runs", type=int, default=50, help="PyTorch forward passes per size, over all rounds")
    ap.add_argument("--rounds", type=int, default=5,
                    help="PyTorch and vitscope take turns this many times: the machine's speed drifts between minutes")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--sizes", default="224,448")
    ap.add_argument("--check-reference", action="store_true")
    ap.add_argument("--no-bench", action="store_true", help="PyTorch half only")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    if not os.path.isfile(os.path.join(a.model, "model.safetensors")):
        sys.exit(f"compare_pytorch: no model.safetensors in {a.model} (set --model or VITSCOPE_MODEL_MIRROR)")

    torch.set_num_threads(a.threads)
    print("$ " + shlex.join([sys.executable] + sys.argv))
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, threads {torch.get_num_threads()}")
    print(torch.__config__.parallel_info().strip())
    print("OPENBLAS_CORETYPE=" + os.environ.get("OPENBLAS_CORETYPE", "(unset: OpenBLAS detects the CPU)"))
    m = re.search(r"BLAS_INFO=([^,]+)", torch.__config__.show())
    print(f"BLAS_INFO={m.group(1) if m else '?'}; loaded: {', '.join(loaded_blas()) or '?'}")
    load = os.getloadavg()
    print(f"model {a.model}\nimage {a.image}\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cpus"
          + ("  (busy machine: timings are not meaningful)" if load[0] > 0.5 else "") + "\n")

    if a.check_reference and not check_reference(a.model, a.image, sizes):
        print("reference check FAILED")
        sys.exit(1)

    models = {size: build_torchvision(a.model, size) for size in sizes}
    inputs = {size: torch_preprocess(a.image, cfg["pretrained_cfg"], size) for size, (_, cfg) in models.items()}
    torch_top1 = None
    for size, (model, cfg) in models.items():
        with torch.inference_mode():
            p = model(inputs[size])[0].softmax(-1)
        i = int(p.argmax())
        label = cfg.get("label_names", [])[i] if i < len(cfg.get("label_names", [])) else str(i)
        print(f"PyTorch @{size}: top-1 {label!r} p={float(p[i]):.4f}")
        if size == 224:
            torch_top1 = (label, float(p[i]))
    if torch_top1 and os.path.isfile(a.vitscope):
        v = vitscope_top1(a.vitscope, a.image, a.model)
        if v:
            agree = v[0] == torch_top1[0] and abs(v[1] - torch_top1[1]) < 1e-3
            print(f"top-1: vitscope {v[0]!r} p={v[1]:.4f}, PyTorch {torch_top1[0]!r} p={torch_top1[1]:.4f} "
                  f"-> {'agree' if agree else 'DISAGREE'}\n")
    elif torch_top1:
        print(f"(no vitscope binary at {a.vitscope}: top-1 not compared; build target vitscope or pass --vitscope)\n")

    print(f"PyTorch's thread split on {a.threads} cores:")
    best_thread_split(models[sizes[0]][0], inputs[sizes[0]], a.threads)
    print()
    have_bench = not a.no_bench and os.path.isfile(a.bench)
    if a.no_bench:
        print("(--no-bench: vitscope benchmark not run)")
    elif not have_bench:
        print(f"(no benchmark binary at {a.bench}: build it with "
              f"`cmake --build build --target vitscope_bench` or pass --bench PATH; PyTorch numbers only)")
    # Rounds: PyTorch's share of runs at each size, then one vitscope benchmark
    # run, so both see the same machine; each side's median is over all rounds.
    torch_times = {size: [] for size in sizes}
    bench_times = {}
    for r in range(a.rounds):
        for size in sizes:
            torch_times[size] += time_forward(models[size][0], inputs[size], max(1, a.runs // a.rounds))
        if have_bench:
            for key, ms in (run_bench(a.bench, a.model, a.threads, quiet=r > 0) or {}).items():
                bench_times.setdefault(key, []).append(ms)
        print(f"round {r + 1}/{a.rounds}: PyTorch @224 median {statistics.median(torch_times[sizes[0]]):.2f} ms so far")
    torch_ms = {size: statistics.median(t) for size, t in torch_times.items()}
    bench = {key: statistics.median(v) for key, v in bench_times.items()} if bench_times else None
    print()
    for size in sizes:
        t = torch_times[size]
        print(f"PyTorch forward @{size}: median {statistics.median(t):.2f} ms, min {min(t):.2f} ms over {len(t)} runs")
    for (name, size), v in sorted(bench_times.items()):
        print(f"vitscope {name}/{size}: median {statistics.median(v):.2f} ms, min {min(v):.2f} ms over {len(v)} rounds")

    print()
    print(f"{'size':>5} {'PyTorch ms':>11} {'vitscope trace ms':>18} {'vitscope plain ms':>18} "
          f"{'trace/PyTorch':>14} {'plain/PyTorch':>14}")
    for size in sizes:
        t = torch_ms.get(size)
        tr = (bench or {}).get(("BM_ForwardTrace", size))
        pl = (bench or {}).get(("BM_ForwardPlain", size))
        f = lambda v: f"{v:.2f}" if v is not None else "-"  # noqa: E731
        r = lambda v: f"{v / t:.2f}" if v is not None and t else "-"  # noqa: E731
        print(f"{size:>5} {f(t):>11} {f(tr):>18} {f(pl):>18} {r(tr):>14} {r(pl):>14}")


if __name__ == "__main__":
    main()
