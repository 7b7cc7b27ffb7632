#!/usr/bin/python3
"""ONNX Runtime's own profile of one model, summed per operator type.

    node bench/peers/ort_time.mjs MODEL.onnx --input X.f32 --threads 2 --profile /tmp/ort_prof
    /usr/bin/python3 bench/peers/ort_profile.py /tmp/ort_prof_*.json [--skip 5]

The profile (a Chrome trace written by the session option enableProfiling)
holds one "model_run" event per run and one "<node>_kernel_time" event per
node; the warm-up runs (--skip, ort_time.mjs's --warmup) are left out. Prints,
per op type, the mean milliseconds per run and its share of the nodes' time,
and the mean model_run time.
"""
import argparse
import collections
import json
import statistics


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile")
    ap.add_argument("--skip", type=int, default=5, help="runs to leave out at the start (the warm-up)")
    a = ap.parse_args()
    with open(a.profile, encoding="utf-8") as f:
        events = json.load(f)
    runs = sorted((e for e in events if e.get("name") == "model_run"), key=lambda e: e["ts"])[a.skip:]
    if not runs:
        raise SystemExit("ort_profile.py: no model_run events after the warm-up in " + a.profile)
    first = runs[0]["ts"]
    per_op = collections.Counter()
    for e in events:
        if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time") and e["ts"] >= first:
            per_op[e.get("args", {}).get("op_name", "?")] += e["dur"]
    total = sum(per_op.values())
    print(f"{len(runs)} runs, model_run median {statistics.median(r['dur'] for r in runs) / 1e3:.2f} ms; "
          f"nodes {total / len(runs) / 1e3:.2f} ms per run")
    print("| op | ms per run | share |")
    print("|---|---|---|")
    for op, us in per_op.most_common():
        print(f"| {op} | {us / len(runs) / 1e3:.2f} | {100 * us / total:.1f}% |")


if __name__ == "__main__":
    main()
