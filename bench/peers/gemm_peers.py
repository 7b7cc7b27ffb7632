#!/usr/bin/python3
"""The linear layers' products alone, one thread: vitscope's GEMM tile
(vitscope_bench's BM_Gemm for the kernel set this CPU runs, weights packed
once) against OpenBLAS's sgemm through NumPy (the BLAS Debian's PyTorch and
NumPy use), on the model's shapes, in turns.

    /usr/bin/python3 bench/peers/gemm_peers.py [--rounds 3] [--bench build/bench/vitscope_bench]

Per round, each engine in turn (the order alternating): every shape (m
tokens x n outputs x k inputs, the BM_Gemm list) timed for about half a
second; the table gives the median GFLOP/s over the rounds and vitscope's
ratio to OpenBLAS. OpenBLAS gets OPENBLAS_NUM_THREADS=1 before NumPy loads;
vitscope VITSCOPE_THREADS=1 (BM_Gemm is single-threaded anyway).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads OpenBLAS
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
SHAPES = [(197, 576, 192), (197, 768, 192), (197, 192, 768), (785, 576, 192), (785, 768, 192), (785, 192, 768),
          (197, 1152, 384), (197, 3072, 768)]


def openblas_round():
    """GFLOP/s per shape: C = A W^T + b as a linear layer computes it (A m x k, W n x k)."""
    rng = np.random.default_rng(1)
    out = {}
    for m, n, k in SHAPES:
        a = rng.standard_normal((m, k), dtype=np.float32)
        w = rng.standard_normal((n, k), dtype=np.float32)
        b = rng.standard_normal(n, dtype=np.float32)
        c = np.empty((m, n), np.float32)
        np.matmul(a, w.T, out=c)  # warm-up
        runs, start = 0, time.perf_counter()
        while time.perf_counter() - start < 0.5:
            np.matmul(a, w.T, out=c)
            c += b
            runs += 1
        out[(m, n, k)] = 2.0 * m * n * k * runs / (time.perf_counter() - start) * 1e-9
    return out


def vitscope_round(bench):
    env = dict(os.environ, VITSCOPE_THREADS="1")
    text = subprocess.run([bench, "--benchmark_filter=BM_Gemm/(v3|v4)/", "--benchmark_format=json"], env=env,
                          check=True, capture_output=True, text=True).stdout
    out = {}
    for b in json.loads(text)["benchmarks"]:
        if b.get("error_occurred"):
            continue
        shape = tuple(int(part.split(":")[1]) for part in b["name"].split("/")[2:5])
        out.setdefault(b["name"].split("/")[1], {})[shape] = b["GFLOP/s"]  # the counter is already GFLOP per second
    # The widest set this CPU runs (v4 when it has AVX-512).
    return out.get("v4") or out.get("v3"), "v4" if "v4" in out else "v3"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bench", default=os.path.join(SOURCE_DIR, "build", "bench", "vitscope_bench"))
    args = parser.parse_args()
    ours, theirs, kernel_set = [], [], "?"
    for r in range(args.rounds):
        for engine in (("vitscope", "openblas") if r % 2 == 0 else ("openblas", "vitscope")):
            if engine == "openblas":
                theirs.append(openblas_round())
            else:
                result, kernel_set = vitscope_round(args.bench)
                ours.append(result)
        print(f"round {r + 1} of {args.rounds} done ({time.strftime('%H:%M:%S')}; load {os.getloadavg()[0]:.2f})",
              file=sys.stderr)
    print(f"| m x n x k | OpenBLAS (NumPy {np.__version__}) | vitscope {kernel_set} | vitscope / OpenBLAS |")
    print("|---|---|---|---|")
    for shape in SHAPES:
        o = statistics.median(x[shape] for x in ours)
        t = statistics.median(x[shape] for x in theirs)
        print(f"| {shape[0]} x {shape[1]} x {shape[2]} | {t:.1f} GFLOP/s | {o:.1f} GFLOP/s | {o / t:.2f} |")


if __name__ == "__main__":
    main()
