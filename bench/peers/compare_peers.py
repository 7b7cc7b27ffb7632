#!/usr/bin/python3
"""vitscope's forward pass against ONNX Runtime and PyTorch: same CPU, models, input.

    /usr/bin/python3 bench/peers/compare_peers.py [--rounds 5] [--runs 20]
        [--cases ti224,ti448,s224,b224] [--threads 2] [--bench build/bench/vitscope_bench]
        [--vitscope build/vitscope] [--out /tmp/vitscope_peers]

Cases (bench/peers/export_onnx.py): ti224 and ti448, the default model
(pretrained ViT-Ti/16) at 224 and 448 px; s224 and b224, ViT-S/16 and ViT-B/16
with random weights at 224 px (s448, b448 too if asked for). The ONNX files and
the random models' folders are made in --out by export_onnx.py first if any is
missing.

Per case, first the check that all three compute the same thing on the same
input: `vitscope dump` preprocesses the photo (assets/dog.jpg, which
vitscope_bench times) and runs the forward pass; its input is fed to PyTorch
(torchvision's VisionTransformer with the same weights) and ONNX Runtime, and
the logits are compared with PyTorch's (max |diff| over max |logit|; ONNX
Runtime must be within 1e-4), with the top-1 classes.

Then, for each thread count in --threads (2, 1 or 2,1) and each case, in
--rounds rounds, in turns so that all see the same machine (the order of the
three rotates from round to round):
- ONNX Runtime 1.x CPU (node bench/peers/ort_time.mjs: intraOpNumThreads =
  threads, interOpNumThreads 1, sequential, graph optimisation 'all'; a new
  process each round): 5 warm-up runs, then --runs timed runs;
- vitscope (bench/vitscope_bench, BM_ForwardTrace and BM_ForwardPlain at the
  case's size, VITSCOPE_MODEL and VITSCOPE_THREADS set; a new process each
  round): as ONNX Runtime, 5 warm-up forward passes, then --runs timed ones,
  one per Google Benchmark repetition (--benchmark_repetitions, a minimal
  --benchmark_min_time, so that each repetition is one pass);
- PyTorch (the same code as bench/compare_pytorch.py: torch.inference_mode,
  OpenBLAS's environment set before it loads, the fastest split of PyTorch's
  and OpenBLAS's threads on that many cores, chosen per case): --runs timed
  runs after 2 warm-up runs.
The table's medians are over all runs of all rounds, for every engine alike
(until 2026-12-02 vitscope's were over the rounds' means of two or three
passes each: a mean where the others had medians); its spread is
(largest - smallest) / median of the per-round medians, per engine.
"""
import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_vit  # noqa: E402  (sets OpenBLAS's environment, then loads NumPy and torch: first of those)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import export_onnx  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = torch_vit.SOURCE_DIR
ENGINES = ("ort", "vitscope", "torch")
ORT_WARMUP = 5
VITSCOPE_WARMUP = 5  # forward passes before the timed ones, as ONNX Runtime's warm-up runs
TORCH_WARMUP = 2


def cpu_model():
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def cmake_build_type(binary):
    """CMAKE_BUILD_TYPE of the build folder holding `binary`, or '?'."""
    d = os.path.dirname(os.path.abspath(binary))
    for _ in range(4):
        try:
            with open(os.path.join(d, "CMakeCache.txt"), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("CMAKE_BUILD_TYPE:"):
                        return line.split("=", 1)[1].strip() or "(none)"
        except OSError:
            pass
        d = os.path.dirname(d)
    return "?"


def source_revision():
    r = subprocess.run(["git", "-C", SOURCE_DIR, "describe", "--always", "--dirty"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


def ort_package_version():
    try:
        with open(os.path.join(HERE, "node_modules", "onnxruntime-node", "package.json"), encoding="utf-8") as f:
            return json.load(f)["version"]
    except (OSError, KeyError, ValueError):
        return None


def run_ort(node, onnx, inp, threads, runs, warmup=ORT_WARMUP, logits_out=None, quiet=True):
    cmd = [node, os.path.join(HERE, "ort_time.mjs"), onnx, "--input", inp, "--threads", str(threads),
           "--warmup", str(warmup), "--runs", str(runs)]
    if logits_out:
        cmd += ["--logits-out", logits_out]
    if not quiet:
        print("$ " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"ort_time.mjs failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}")
    return json.loads(r.stdout)


def vitscope_dump(binary, image, model_dir, size):
    """vitscope's preprocessed input ([1, 3, S, S]) and logits for the photo."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "trace")
        cmd = [binary, "dump", image, "-o", out, "--model", model_dir, "--size", str(size)]
        print("$ " + shlex.join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"vitscope dump failed (exit {r.returncode}): {r.stderr.strip()}")
        x = np.load(os.path.join(out, "input.npy")).astype(np.float32)[None]
        logits = np.load(os.path.join(out, "logits.npy")).astype(np.float64)
    return x, logits


class Case:
    def __init__(self, name, out, seed, default_dir):
        self.name = name
        self.key, self.size = export_onnx.parse_case(name)
        self.model_dir = export_onnx.model_dir(out, self.key, seed, default_dir)
        self.onnx = export_onnx.onnx_path(out, name)
        self.input_file = os.path.join(out, "inputs", f"{name}.f32")
        self.label = f"{export_onnx.MODEL_NAMES[self.key]}{'' if self.key == 'ti' else ' (random)'}"
        self.model = self.x = None
        self.split = {}  # threads -> (torch threads, OpenBLAS threads)
        self.check = {}


def prepare(case, a):
    """PyTorch's model, the input every engine gets, and the logits check."""
    case.model, cfg = torch_vit.build_torchvision(case.model_dir, case.size)
    x_torch = torch_vit.torch_preprocess(a.image, cfg["pretrained_cfg"], case.size).numpy()
    have_vitscope = os.path.isfile(a.vitscope)
    if have_vitscope:
        x, v_logits = vitscope_dump(a.vitscope, a.image, case.model_dir, case.size)
        case.check["preprocess"] = float(np.abs(x - x_torch).max())
    else:
        print(f"(no vitscope binary at {a.vitscope}: PyTorch's preprocessing is the input; vitscope's logits not checked)")
        x, v_logits = x_torch, None
    case.x = torch.from_numpy(np.ascontiguousarray(x))
    os.makedirs(os.path.dirname(case.input_file), exist_ok=True)
    np.ascontiguousarray(x, "<f4").tofile(case.input_file)
    with torch.inference_mode():
        t_logits = case.model(case.x)[0].double().numpy()
    with tempfile.TemporaryDirectory() as tmp:
        lf = os.path.join(tmp, "logits.f32")
        res = run_ort(a.node, case.onnx, case.input_file, max(a.threads), runs=1, warmup=0, logits_out=lf, quiet=False)
        o_logits = np.fromfile(lf, "<f4").astype(np.float64)
    case.check["ort_version"] = res.get("ort_version")
    case.check["ort_rel"] = export_onnx.relative_error(o_logits, t_logits)
    case.check["top1"] = {"torch": int(t_logits.argmax()), "ort": int(o_logits.argmax())}
    if v_logits is not None:
        case.check["vitscope_rel"] = export_onnx.relative_error(v_logits, t_logits)
        case.check["top1"]["vitscope"] = int(v_logits.argmax())
    labels = cfg.get("label_names", [])
    name = lambda i: f"{i} {labels[i]!r}" if i < len(labels) else str(i)  # noqa: E731
    p = torch.from_numpy(t_logits).softmax(-1)
    print(f"{case.name}: PyTorch top-1 {name(case.check['top1']['torch'])} p={float(p.max()):.4f}; "
          f"ONNX Runtime max rel diff {case.check['ort_rel']:.2e}, top-1 {case.check['top1']['ort']}"
          + (f"; vitscope max rel diff {case.check['vitscope_rel']:.2e}, top-1 {case.check['top1']['vitscope']}, "
             f"input vs PyTorch's preprocessing max |diff| {case.check['preprocess']:.2e}" if v_logits is not None else ""))
    ok = case.check["ort_rel"] <= export_onnx.TOLERANCE and len(set(case.check["top1"].values())) == 1
    case.check["ok"] = ok
    if not ok:
        print(f"  {case.name}: the engines DISAGREE (ONNX Runtime tolerance {export_onnx.TOLERANCE:g}, or top-1)")


def vitscope_runs(runs):
    """vitscope_bench's arguments for one forward pass per repetition: the warm-up ones, then `runs`."""
    return ["--benchmark_min_time=0.000001", f"--benchmark_repetitions={VITSCOPE_WARMUP + runs}"]


def spread(values):
    if len(values) < 2:
        return None
    return (max(values) - min(values)) / statistics.median(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=20, help="timed runs per round for ONNX Runtime and PyTorch")
    ap.add_argument("--cases", default=",".join(export_onnx.DEFAULT_CASES),
                    help=f"any of {','.join(export_onnx.ALL_CASES)}")
    ap.add_argument("--threads", default="2", help="2, 1 or 2,1: each engine on that many threads")
    ap.add_argument("--bench", default=os.path.join(SOURCE_DIR, "build", "bench", "vitscope_bench"))
    ap.add_argument("--vitscope", default=os.path.join(SOURCE_DIR, "build", "vitscope"))
    ap.add_argument("--out", default=export_onnx.DEFAULT_OUT, help="the exports' folder (export_onnx.py --out)")
    ap.add_argument("--model", default=torch_vit.default_model_dir(), help="the default model's folder (ti)")
    ap.add_argument("--image", default=os.path.join(SOURCE_DIR, "assets", "dog.jpg"))
    ap.add_argument("--seed", type=int, default=0, help="the random models' seed (export_onnx.py --seed)")
    ap.add_argument("--node", default="node")
    a = ap.parse_args()
    a.threads = [int(t) for t in a.threads.split(",") if t]
    cases = [c for c in a.cases.split(",") if c]
    for c in cases:
        export_onnx.parse_case(c)
    if not os.path.isfile(a.bench):
        sys.exit(f"compare_peers: no benchmark binary at {a.bench}: build target vitscope_bench or pass --bench")
    if not ort_package_version():
        sys.exit(f"compare_peers: onnxruntime-node is not installed: (cd {HERE} && npm ci --ignore-scripts)")
    a.out = os.path.abspath(a.out)

    print("$ " + shlex.join([sys.executable] + sys.argv))
    load_before = os.getloadavg()
    print(f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} on {os.cpu_count()} cpus"
          + ("  (busy machine: timings are not meaningful)" if load_before[0] > 0.5 else "") + "\n")

    os.makedirs(a.out, exist_ok=True)
    torch.set_num_threads(max(a.threads))
    all_cases = [Case(c, a.out, a.seed, a.model) for c in cases]
    for case in all_cases:
        if not (os.path.isfile(case.onnx) and os.path.isfile(os.path.join(case.model_dir, "model.safetensors"))):
            print(f"{case.name}: exporting (export_onnx.py --out {a.out} --cases {case.name})")
            export_onnx.export_case(a.out, case.name, a.seed, a.model, node=a.node)
    for case in all_cases:
        prepare(case, a)
    print()
    for threads in a.threads:
        for case in all_cases:
            print(f"{case.name}: PyTorch's thread split on {threads} cores:")
            case.split[threads] = torch_vit.best_thread_split(case.model, case.x, threads, runs=5)
    print()

    # per (threads, case): engine -> list of per-round figures; ort/torch also every run
    rounds = {}
    every = {}
    context = {}
    for r in range(a.rounds):
        order = ENGINES[r % 3:] + ENGINES[:r % 3]
        for threads in a.threads:
            for case in all_cases:
                key = (threads, case.name)
                per = rounds.setdefault(key, {"ort": [], "torch": [], "trace": [], "plain": []})
                runs = every.setdefault(key, {"ort": [], "torch": []})
                line = []
                for engine in order:
                    if engine == "ort":
                        res = run_ort(a.node, case.onnx, case.input_file, threads, a.runs)
                        context.setdefault("ort", res)
                        per["ort"].append(res["median_ms"])
                        runs["ort"] += res["runs"]
                        line.append(f"ORT {res['median_ms']:.2f}")
                    elif engine == "torch":
                        torch_vit.set_thread_split(*case.split[threads])
                        t = torch_vit.time_forward(case.model, case.x, a.runs, warmup=TORCH_WARMUP)
                        per["torch"].append(statistics.median(t))
                        runs["torch"] += t
                        line.append(f"PyTorch {statistics.median(t):.2f}")
                    else:
                        ctx = {}
                        res = torch_vit.run_bench(a.bench, case.model_dir, threads, quiet=r > 0,
                                                  bench_filter=f"^BM_Forward(Trace|Plain)/{case.size}(/|$)",
                                                  extra_args=vitscope_runs(a.runs), context=ctx)
                        if ctx:
                            context.setdefault(f"vitscope{threads}", ctx)
                        for name, col in (("BM_ForwardTrace", "trace"), ("BM_ForwardPlain", "plain")):
                            timed = (res or {}).get((name, case.size), [])[VITSCOPE_WARMUP:]
                            if timed:
                                per[col].append(statistics.median(timed))
                                runs.setdefault(col, []).extend(timed)
                                line.append(f"vitscope {col} {statistics.median(timed):.2f}")
                print(f"round {r + 1}/{a.rounds}, {threads} thread{'s' if threads > 1 else ''}, {case.name}: "
                      + ", ".join(line) + " ms")
    load_after = os.getloadavg()

    print("\n## Environment\n")
    print(f"- CPU: {cpu_model()}, {os.cpu_count()} cpus; load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f} (1 min)")
    ort = context.get("ort", {})
    print(f"- ONNX Runtime {ort.get('ort_version', ort_package_version())} (onnxruntime-node, CPU execution provider, "
          f"node {ort.get('node_version', '?')}); session options {json.dumps(ort.get('options', {}))}; "
          f"{ORT_WARMUP} warm-up runs")
    print(f"- PyTorch {torch.__version__}, torchvision {torch_vit.torchvision.__version__}, "
          f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, "
          f"BLAS loaded: {', '.join(torch_vit.loaded_blas()) or '?'}; thread splits (PyTorch, OpenBLAS): "
          + "; ".join(f"{c.name}@{t}: {c.split[t]}" for t in a.threads for c in all_cases))
    for threads in a.threads:
        ctx = context.get(f"vitscope{threads}", {})
        print(f"- vitscope_bench ({a.bench}), VITSCOPE_THREADS={threads}: kernels {ctx.get('kernels', '?')}, "
              f"threads {ctx.get('threads', '?')}, {ctx.get('num_cpus', '?')} cpus @ {ctx.get('mhz_per_cpu', '?')} MHz, "
              f"{' '.join(vitscope_runs(a.runs))} (the first {VITSCOPE_WARMUP} left out); CMAKE_BUILD_TYPE {cmake_build_type(a.bench)}, source tree now at {source_revision()}")
    print(f"- input: {a.image} as vitscope preprocesses it; {a.rounds} rounds, {a.runs} timed runs per round "
          f"(ONNX Runtime, PyTorch)")

    print("\n## Same logits\n")
    print("| case | model | px | ORT vs PyTorch, max rel diff | vitscope vs PyTorch, max rel diff | "
          "top-1 PyTorch / ORT / vitscope | input vs PyTorch's preprocessing |")
    print("|---|---|---|---|---|---|---|")
    for c in all_cases:
        k, top = c.check, c.check["top1"]
        vrel = f"{k['vitscope_rel']:.1e}" if "vitscope_rel" in k else "-"
        pre = f"{k['preprocess']:.1e}" if "preprocess" in k else "-"
        print(f"| {c.name} | {c.label} | {c.size} | {k['ort_rel']:.1e} | {vrel} | "
              f"{top['torch']} / {top['ort']} / {top.get('vitscope', '-')}{'' if k['ok'] else ' DISAGREE'} | {pre} |")

    print("\n## Times (median ms)\n")
    print("| case | model | px | threads | ORT | PyTorch | vitscope trace | vitscope plain | trace / ORT | "
          "trace / PyTorch | plain / ORT | spread of round medians ORT / PyTorch / trace / plain |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    f = lambda v: f"{v:.2f}" if v is not None else "-"  # noqa: E731
    pct = lambda v: f"{100 * v:.0f}%" if v is not None else "-"  # noqa: E731
    for threads in a.threads:
        for c in all_cases:
            per, runs = rounds[(threads, c.name)], every[(threads, c.name)]
            med = lambda v: statistics.median(v) if v else None  # noqa: E731
            o, t = med(runs["ort"]), med(runs["torch"])
            tr, pl = med(runs.get("trace", [])), med(runs.get("plain", []))
            ratio = lambda x, y: f"{x / y:.2f}" if x is not None and y else "-"  # noqa: E731
            print(f"| {c.name} | {c.label} | {c.size} | {threads} | {f(o)} | {f(t)} | {f(tr)} | {f(pl)} | "
                  f"**{ratio(tr, o)}** | {ratio(tr, t)} | {ratio(pl, o)} | "
                  f"{' / '.join(pct(spread(per[e])) for e in ('ort', 'torch', 'trace', 'plain'))} |")
    if not all(c.check["ok"] for c in all_cases):
        print("\nSome engines disagree on the logits (see above): their times do not compare.")
        sys.exit(1)


if __name__ == "__main__":
    main()
