#!/usr/bin/python3
"""The perturbation test over every sample photo: for each photo, the model's
top-1 class, and for each map (last layer's attention, rollout, gradient-
weighted rollout, occlusion, a seeded random order) the area under the curve
x 100, most relevant removed first (lower is better) and least relevant first
(higher is better), then the means over the photos and the ordering of the
maps. Runs `vitscope explain --question perturbation`, as a researcher's batch
would.

    bench/relevance_batch.py [--bin build/vitscope] [--seed S] [PHOTO ...]

Without photos: every photo in $VITSCOPE_IMAGES, else ../shared/images beside
the checkout (the sample photos), else assets/.
"""
import argparse
import csv
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
METHODS = ("attention_last", "rollout", "grad_rollout", "occlusion", "random")


def top1(binary, photo):
    out = subprocess.run([binary, "classify", photo, "--top", "1"], capture_output=True, text=True, check=True).stdout
    rank, prob, label = out.strip().split("\t")
    return label, float(prob)


def areas(binary, photo, label, seed, path):
    start = time.monotonic()
    run = subprocess.run([binary, "explain", photo, "--question", "perturbation", "--class", label, "--seed", str(seed),
                          "--csv", path], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{os.path.basename(photo)}: {run.stderr.strip()}")
    seconds = time.monotonic() - start
    curves = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            curves.setdefault((r["method"], r["order"]), []).append(float(r["probability"]))
    return {k: 100 * sum((p[i] + p[i + 1]) / 2 * 0.1 for i in range(len(p) - 1)) for k, p in curves.items()}, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "vitscope"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("photos", nargs="*")
    a = ap.parse_args()
    folders = [os.environ.get("VITSCOPE_IMAGES", ""), os.path.join(SRC, "..", "shared", "images"), os.path.join(SRC, "assets")]
    folder = next(f for f in folders if f and glob.glob(os.path.join(f, "*.[jp][pn]g")))
    photos = a.photos or sorted(glob.glob(os.path.join(folder, "*.[jp][pn]g")))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for index, photo in enumerate(photos):
            label, p = top1(a.bin, photo)
            # vitscope never replaces a file without --force: one CSV a photo.
            area, seconds = areas(a.bin, photo, label, a.seed, os.path.join(tmp, f"curves-{index}.csv"))
            rows.append(area)
            print(f"{os.path.basename(photo):14s} {label[:28]:28s} p={p:.3f}  ({seconds:.1f} s)")
            for order in ("positive", "negative"):
                print(f"    {order:8s} " + "  ".join(f"{m} {area[(m, order)]:6.2f}" for m in METHODS))
    print(f"\nmeans over {len(rows)} photos (area x 100):")
    for order, better in (("positive", "lower"), ("negative", "higher")):
        mean = {m: sum(r[(m, order)] for r in rows) / len(rows) for m in METHODS}
        ranked = sorted(METHODS, key=lambda m: mean[m], reverse=(order == "negative"))
        print(f"  {order} ({better} is better): " + ", ".join(f"{m} {mean[m]:.2f}" for m in ranked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
