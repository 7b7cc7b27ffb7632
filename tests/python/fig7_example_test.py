#!/usr/bin/env python3
"""examples/fig7_study.py (the Python module's example, issue 37 item 5): its
table of mean attention distances over assets/ against the same quantity
computed here from `vitscope dump`'s attn.npy and meta.json, photo by photo,
written out from the definition (patch centres in pixels, weights over patch
keys renormalised, the mean over patch queries), not from the example's code.
Also: one row per layer and head, min <= mean <= max, and an empty folder
refused with a message and a non-zero exit."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, MODEL, SRC, Tally  # noqa: E402

t = Tally()
t.check_model()
EXAMPLE = os.path.join(SRC, "examples", "fig7_study.py")
ENV = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(BIN)), "python"))
ASSETS = os.path.join(SRC, "assets")

r = subprocess.run([sys.executable, EXAMPLE, ASSETS, "--model", MODEL], env=ENV, capture_output=True, text=True,
                   timeout=600)
t.check("the example exits 0", r.returncode == 0, r.stderr[-500:])
rows = list(csv.DictReader(io.StringIO(r.stdout)))
table = {(int(row["layer"]), int(row["head"])): row for row in rows}

photos = sorted(n for n in os.listdir(ASSETS) if n.lower().endswith((".jpg", ".jpeg", ".png", ".webp")))
t.check("assets/ has photos", len(photos) >= 3, photos)
distances = []
with tempfile.TemporaryDirectory(prefix="vitscope-fig7-") as tmp:
    for i, name in enumerate(photos):
        out = os.path.join(tmp, str(i))
        d = subprocess.run([BIN, "dump", os.path.join(ASSETS, name), "-o", out, "--model", MODEL],
                           capture_output=True, text=True)
        if not t.check(f"dump {name}", d.returncode == 0, d.stderr.strip()):
            continue
        meta = json.load(open(os.path.join(out, "meta.json")))
        attn = np.load(os.path.join(out, "attn.npy")).astype(np.float64)
        grid, prefix = meta["grid"], meta["prefix"]
        patch = 224 // grid   # the default model's 224 px input
        centre = np.array([((k // grid) + 0.5) * patch for k in range(grid * grid)]), \
            np.array([((k % grid) + 0.5) * patch for k in range(grid * grid)])
        dist = np.sqrt((centre[0][:, None] - centre[0][None, :]) ** 2 + (centre[1][:, None] - centre[1][None, :]) ** 2)
        layers, heads = attn.shape[:2]
        per = np.zeros((layers, heads))
        for l in range(layers):
            for h in range(heads):
                w = attn[l, h, prefix:, prefix:]
                per[l, h] = np.mean(np.sum(w * dist, axis=1) / np.sum(w, axis=1))
        distances.append(per)

expected = np.mean(distances, axis=0)
t.check("one row per layer and head", len(rows) == expected.size and len(table) == expected.size, len(rows))
worst = max((abs(float(table[(l, h)]["mean_distance_px"]) - expected[l, h])
             for l in range(expected.shape[0]) for h in range(expected.shape[1]) if (l, h) in table), default=np.inf)
t.check("each mean distance is the one computed from dump's attn.npy (within 0.001 px)", worst <= 1e-3, worst)
t.check("min <= mean <= max in every row",
        all(float(r_["min_px"]) <= float(r_["mean_distance_px"]) <= float(r_["max_px"]) for r_ in rows))
lo = [float(table[(l, h)]["min_px"]) for l in range(expected.shape[0]) for h in range(expected.shape[1])]
t.check("min is the smallest photo's value", np.allclose(lo, np.min(distances, axis=0).ravel(), atol=1e-3))

with tempfile.TemporaryDirectory() as empty:
    r = subprocess.run([sys.executable, EXAMPLE, empty, "--model", MODEL], env=ENV, capture_output=True, text=True)
    t.check("an empty folder is refused with a message", r.returncode != 0 and "no photos" in r.stderr, r.stderr)

sys.exit(t.finish())
