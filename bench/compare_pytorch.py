#!/usr/bin/python3
"""vitscope's forward pass against PyTorch on the same CPU, same model, same image.

Loads the default model's safetensors (timm names) into
torchvision.models.VisionTransformer, preprocesses one photo with timm's eval
transform through PIL/torchvision, times PyTorch's plain forward
(torch.inference_mode, 2 threads, median of --runs), checks that PyTorch's
top-1 agrees with `vitscope classify`, and runs vitscope's Google Benchmark
binary (BM_ForwardTrace and BM_ForwardPlain at 224 and 448 px, 2 s each), the
two taking turns over --rounds so that both see the same machine, and prints
one table. The PyTorch side is bench/peers/torch_vit.py, shared with
bench/peers/compare_peers.py (ONNX Runtime as a third peer).

    /usr/bin/python3 bench/compare_pytorch.py [--model DIR] [--image PATH]
        [--bench build/bench/vitscope_bench] [--vitscope build/vitscope]
        [--runs 50] [--rounds 5] [--sizes 224,448] [--check-reference]

--check-reference also compares PyTorch's float32 logits and per-head attention
with tests/reference/vit_reference.py's float64 forward (validates the
reference). Use Debian's /usr/bin/python3 (python3-torch, python3-torchvision).
"""
import argparse
import os
import shlex
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
# torch_vit sets OpenBLAS's environment (--threads, OPENBLAS_CORETYPE) before it
# loads NumPy and torch: it comes first.
from torch_vit import (SOURCE_DIR, best_thread_split, build_torchvision, default_model_dir,  # noqa: E402
                       print_torch_environment, run_bench, time_forward, torch_preprocess, vitscope_top1)
import numpy as np  # noqa: E402
import torch  # noqa: E402

import vit_reference  # noqa: E402  (tests/reference, on the path through torch_vit)


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
    print_torch_environment()
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
            # Two seconds per benchmark, as the binary's own default was before
            # it honoured --benchmark_min_time.
            bench_run = run_bench(a.bench, a.model, a.threads, quiet=r > 0, extra_args=["--benchmark_min_time=2"])
            for key, ms in (bench_run or {}).items():
                bench_times.setdefault(key, []).extend(ms)
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
