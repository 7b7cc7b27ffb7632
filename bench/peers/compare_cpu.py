#!/usr/bin/python3
"""vitscope against ONNX Runtime on one thread, by CPU time: for a machine
shared with other work, where wall times measure the other processes too.

    /usr/bin/python3 bench/peers/compare_cpu.py [--rounds 5] [--cases ti224,ti448]
        [--bench build/bench/vitscope_bench [--bench OTHER_BUILD/bench/vitscope_bench]]
        [--out /tmp/vitscope_peers] [--runs 10] [--repetitions 5]

One thread each (ONNX Runtime intraOpNumThreads 1; VITSCOPE_THREADS=1), so a
process's CPU time is the work of one forward pass and nothing else: ONNX
Runtime's per-run process.cpuUsage() (ort_time.mjs' median_cpu_ms), vitscope's
Google Benchmark cpu_time of BM_ForwardTrace and BM_ForwardPlain (the calling
thread, which on one thread does all the work), median of --repetitions. The
engines take turns in every round, the order rotating; each --bench is one
more vitscope (e.g. a build before a change), named by its folder. The ONNX
files come from export_onnx.py (compare_peers.py's cases). Prints the load
average, per-round figures and a markdown table of medians over the rounds,
with the spread of the round figures ((largest - smallest) / median).

CPU time is not wall time: a cache emptied by another process while ours
waited still costs CPU time, so figures on a loaded machine run higher than on
an idle one; both engines see the same machine, turn by turn.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.dirname(os.path.dirname(HERE))
SIZES = {"ti224": 224, "ti448": 448}


def ort_cpu_ms(node, onnx, runs):
    out = subprocess.run([node, os.path.join(HERE, "ort_time.mjs"), onnx, "--threads", "1", "--runs", str(runs)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["median_cpu_ms"]


def vitscope_cpu_ms(bench, size, repetitions, model):
    env = dict(os.environ, VITSCOPE_THREADS="1", VITSCOPE_MODEL=model)
    out = subprocess.run([bench, f"--benchmark_filter=Forward(Trace|Plain)/{size}/", "--benchmark_format=json",
                          f"--benchmark_repetitions={repetitions}", "--benchmark_min_time=0.05"],
                         capture_output=True, text=True, check=True, env=env).stdout
    per = {"trace": [], "plain": []}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "iteration":
            per["trace" if "Trace" in b["name"] else "plain"].append(b["cpu_time"])
    return {k: statistics.median(v) for k, v in per.items()}


def spread(values):
    return (max(values) - min(values)) / statistics.median(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cases", default="ti224,ti448")
    ap.add_argument("--bench", action="append", help="vitscope_bench binaries (default build/bench/vitscope_bench)")
    ap.add_argument("--out", default="/tmp/vitscope_peers")
    ap.add_argument("--runs", type=int, default=10, help="ONNX Runtime's timed runs per round")
    ap.add_argument("--repetitions", type=int, default=5, help="vitscope_bench repetitions per round")
    ap.add_argument("--model", default=os.environ.get("VITSCOPE_MODEL") or os.path.join(
        SOURCE_DIR, "..", "shared", "models", "vit_tiny_patch16_224.augreg_in21k_ft_in1k"))
    ap.add_argument("--node", default="node")
    a = ap.parse_args()
    benches = a.bench or [os.path.join(SOURCE_DIR, "build", "bench", "vitscope_bench")]
    names = [os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(b)))) or b for b in benches]
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = []
    for case in a.cases.split(","):
        onnx = os.path.join(a.out, case + ".onnx")
        if not os.path.exists(onnx):
            sys.exit(f"compare_cpu.py: {onnx} is missing: run bench/peers/export_onnx.py --cases {case}")
        figures = {"ort": []}
        for n in names:
            figures[n + " trace"], figures[n + " plain"] = [], []
        for r in range(a.rounds):
            turns = ["ort"] + list(range(len(benches)))
            turns = turns[r % len(turns):] + turns[:r % len(turns)]
            for t in turns:
                if t == "ort":
                    figures["ort"].append(ort_cpu_ms(a.node, onnx, a.runs))
                else:
                    v = vitscope_cpu_ms(benches[t], SIZES[case], a.repetitions, a.model)
                    figures[names[t] + " trace"].append(v["trace"])
                    figures[names[t] + " plain"].append(v["plain"])
            print(f"{case} round {r + 1}: " + ", ".join(f"{k} {v[-1]:.1f}" for k, v in figures.items()), flush=True)
        rows.append((case, {k: (statistics.median(v), spread(v)) for k, v in figures.items()}))
    print(f"load average after: {os.getloadavg()}")
    for case, f in rows:
        ort = f["ort"][0]
        print(f"\n{case}, one thread, CPU ms per forward (median of {a.rounds} rounds, spread of the rounds)")
        print("| engine | CPU ms | spread | / ONNX Runtime |\n|---|---|---|---|")
        for k, (m, s) in f.items():
            print(f"| {k} | {m:.2f} | {100 * s:.0f}% | {m / ort:.3f} |")


if __name__ == "__main__":
    main()
