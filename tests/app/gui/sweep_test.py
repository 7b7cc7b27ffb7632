#!/usr/bin/env python3
"""`vitscope sweep IMAGE --layer L --head H -o OUT.gif`: the query moving over
the patches as an animated GIF, drawn without a display server.

Along a three-patch --path with --frames: a looping GIF of three frames and the
same three figures as PNGs, the query's outline moving; one colour scale for
every frame (the figures' value_max equals the largest patch weight of the
three rows `vitscope attention` prints, and the colour bar's pixels are the
same in every frame). Without --path: every patch, row by row. Then the
refusals: exit 2, one line, no OUT, no OUT.tmp, no frames folder.
"""
import atexit
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_sweep_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
PATH = [(5, 3), (5, 4), (6, 4)]


def vitscope(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=600)


def largest_patch_weight(row, col):
    r = vitscope("attention", DOG, "--layer", "3", "--head", "2", "--patch", f"{row},{col}")
    return max(float(x["weight"]) for x in csv.DictReader(io.StringIO(r.stdout)) if int(x["row"]) >= 0)


def nothing_left(out, frames=None):
    return (not os.path.exists(out) and not os.path.exists(out + ".tmp") and
            (frames is None or (not os.path.exists(frames) and not os.path.exists(frames + ".partial"))))


def main():
    out, frames = os.path.join(TMP, "path.gif"), os.path.join(TMP, "frames")
    path = ";".join(f"{r},{c}" for r, c in PATH)
    r = vitscope("sweep", DOG, "--layer", "3", "--head", "2", "--path", path, "--frame-size", "256", "-o", out,
                 "--frames", frames)
    check("a three-patch path: exits 0 without a display", r.returncode == 0, r.stderr)
    gif = Image.open(out)
    check("a looping GIF89a of three frames, 150 ms each", gif.n_frames == 3 and gif.info.get("loop") == 0 and
          gif.info.get("duration") == 150 and gif.info.get("version") == b"GIF89a", (gif.n_frames, gif.info))
    names = sorted(os.listdir(frames)) if os.path.isdir(frames) else []
    check("--frames: the three figures as PNGs", names == ["frame_001.png", "frame_002.png", "frame_003.png"], names)
    pngs = [Image.open(os.path.join(frames, n)) for n in names]
    layouts = [json.loads(p.info["vitscope:layout"]) for p in pngs]
    top = max(largest_patch_weight(rr, cc) for rr, cc in PATH)
    check("one colour scale: 0 to the largest patch weight of the sweep (vitscope attention)",
          all(l["normalization"] == "absolute" and l["value_min"] == 0 and abs(l["value_max"] - top) < 1e-6
              for l in layouts), ([l["value_max"] for l in layouts], top))
    lines = r.stderr.strip().splitlines()
    check("it says so (on stderr), after its progress lines", lines[-1:] == [f"{out}: 3 frames, one colour scale 0..{top:.3f}"]
          and all(line.startswith("vitscope: sweep frames: ") for line in lines[:-1]) and len(lines) > 1, r.stderr)
    x, y, w, h = layouts[0]["colorbar"]
    bars = [np.asarray(p.convert("RGB"))[y:y + h, x:x + w] for p in pngs]
    check("the colour bar is the same pixels in every frame", all(np.array_equal(bars[0], b) for b in bars[1:]))
    px = [np.asarray(p.convert("RGB")).astype(np.int16) for p in pngs]
    check("the frames differ (the query moves)", all(np.abs(a - b).mean() > 0.1 for a, b in zip(px, px[1:])))
    check("each frame names its query", all(f"query patch ({rr}, {cc})" in p.info["Description"]
                                            for p, (rr, cc) in zip(pngs, PATH)), [p.info["Description"] for p in pngs])
    frame0 = np.asarray(gif.convert("RGB")).astype(np.int16)
    check("the GIF's first frame is the first figure (256 colours: within a few levels)",
          frame0.shape == px[0].shape and np.abs(frame0 - px[0]).mean() < 10, np.abs(frame0 - px[0]).mean())

    every = os.path.join(TMP, "every.gif")
    r = vitscope("sweep", DOG, "--layer", "0", "--mean-heads", "--frame-size", "128", "--delay", "40", "-o", every)
    check("no --path: every patch, row by row", r.returncode == 0 and Image.open(every).n_frames == 14 * 14,
          r.stderr)

    bad = os.path.join(TMP, "bad.gif")
    rows = [
        ("-o not a .gif", ["--head", "2", "-o", os.path.join(TMP, "bad.png")], ".gif", os.path.join(TMP, "bad.png")),
        ("an existing OUT without --force", ["--head", "2", "-o", out], "exists", None),
        ("--path not ROW,COL (the message names --path)", ["--head", "2", "--path", "5;3", "-o", bad],
         "--path expects ROW,COL;ROW,COL", bad),
        ("--path beyond any grid", ["--head", "2", "--path", "5,3;999999,0", "-o", bad], "--path expects", bad),
        ("--path off the grid", ["--head", "2", "--path", "5,3;14,0", "-o", bad], "outside", bad),
        ("both --head and --mean-heads", ["--head", "2", "--mean-heads", "-o", bad], "--head", bad),
        ("--head out of range", ["--head", "3", "-o", bad], "--head", bad),
        ("--frames an existing folder", ["--head", "2", "--frames", frames, "-o", bad], "exists", bad),
    ]
    for what, args, says, target in rows:
        r = vitscope("sweep", DOG, "--layer", "3", *args)
        ok = r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr and "--patch" not in r.stderr
        check(f"{what}: exit 2, one line naming it, nothing written",
              ok and (target is None or nothing_left(target, os.path.join(TMP, "none"))), r.stderr.strip())
    check("the refused runs left the earlier GIF and frames as they were",
          Image.open(out).n_frames == 3 and len(os.listdir(frames)) == 3)
    colliding_outputs()
    return tally.finish()


def colliding_outputs():
    """-o and --frames on one path, or one inside the other (issue 33, item 9): it wrote the GIF, then
    failed on the frames with "exists; pass --force" (also with --force). Refused before any work (the
    photo is not even read: a missing one is not what is reported), naming both; --force is not offered."""
    k = os.path.join(TMP, "k.gif")
    missing = os.path.join(TMP, "no_such_photo.jpg")
    cases = [
        ("-o k.gif --frames k.gif", ["-o", k, "--frames", k], "are the same path", [k]),
        ("the same with --force", ["-o", k, "--frames", k, "--force"], "are the same path", [k]),
        ("--frames k.gif/ (a trailing slash)", ["-o", k, "--frames", k + "/"], "are the same path", [k]),
        ("--frames inside -o", ["-o", k, "--frames", os.path.join(k, "frames")], "lies inside -o", [k]),
        ("-o inside --frames", ["-o", os.path.join(TMP, "f", "k.gif"), "--frames", os.path.join(TMP, "f")],
         "lies inside --frames", [os.path.join(TMP, "f")]),
    ]
    for what, args, says, targets in cases:
        for photo in (DOG, missing):
            r = vitscope("sweep", photo, "--layer", "3", "--head", "2", *args)
            ok = (r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr and
                  "--force" not in r.stderr and all(nothing_left(t) for t in targets))
            check(f"{what}{' (photo missing)' if photo == missing else ''}: exit 2, one line, nothing written",
                  ok and not any(n.startswith(".k.gif") for n in os.listdir(TMP)), r.stderr.strip())


if __name__ == "__main__":
    sys.exit(main())
