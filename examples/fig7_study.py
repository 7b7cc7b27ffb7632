#!/usr/bin/env python3
"""A Fig. 7-style study (Dosovitskiy et al., "An Image is Worth 16x16 Words",
Fig. 7 right): the mean attention distance of every layer and head, averaged
over a folder of photos, with vitscope's Python module.

    PYTHONPATH=build/python python3 examples/fig7_study.py assets/ > distances.csv
    python3 examples/fig7_study.py PHOTOS_DIR [--model DIR] [--size S]   (an installed module)

Writes CSV to stdout: layer,head,mean_distance_px,min_px,max_px (the mean over
the photos, and the smallest and largest photo's value). The mean attention
distance of a head on one photo: for each patch query, the sum over patch keys
of its attention weight times the distance between the two patches' centres
in input pixels (the weights over patch keys renormalised to 1, so that the
CLS token's share does not count as distance 0), averaged over the queries.
Small: a local head; about a third of the input's side: a head that looks
everywhere. A short summary per layer goes to stderr.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

import vitscope


def mean_attention_distance(run, patch):
    """(layers, heads): for each head, the attention-weighted patch distance in pixels, averaged over queries."""
    rows, cols = np.divmod(np.arange(run.grid * run.grid), run.grid)
    distance = np.hypot(rows[:, None] - rows[None, :], cols[:, None] - cols[None, :]) * patch
    a = run.attention[:, :, run.prefix:, run.prefix:].astype(np.float64)   # patch queries x patch keys
    a /= a.sum(-1, keepdims=True)
    return (a * distance).sum(-1).mean(-1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("photos", help="a folder of photos (.jpg, .jpeg, .png, .webp)")
    parser.add_argument("--model", help="a model folder (default: as `vitscope info` finds it)")
    parser.add_argument("--size", type=int, help="input size (a multiple of the patch size)")
    args = parser.parse_args()

    photos = sorted(p for p in Path(args.photos).iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png", ".webp"})
    if not photos:
        sys.exit(f"fig7_study: no photos in {args.photos}")
    model = vitscope.Model(args.model)
    per_photo = []
    for i, photo in enumerate(photos, 1):
        print(f"[{i}/{len(photos)}] {photo.name}", file=sys.stderr)
        per_photo.append(mean_attention_distance(model.run(photo, size=args.size), model.info["patch"]))
    d = np.stack(per_photo)                         # (photos, layers, heads)

    print("layer,head,mean_distance_px,min_px,max_px")
    for layer in range(d.shape[1]):
        for head in range(d.shape[2]):
            v = d[:, layer, head]
            print(f"{layer},{head},{v.mean():.3f},{v.min():.3f},{v.max():.3f}")
    for layer, heads in enumerate(d.mean(0)):
        print(f"layer {layer:2d}: heads from {heads.min():6.1f} to {heads.max():6.1f} px", file=sys.stderr)


if __name__ == "__main__":
    main()
