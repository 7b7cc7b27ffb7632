"""vitscope lab RUN --csv on short real runs made here: every row's weights
against `vitscope attention --model RUN/step_N` (the class token's and the
squares' queries), accuracy and loss against log.csv, the position-similarity
columns against NumPy on each checkpoint's pos_embed, a run without positions
saying it has none, `-o DIR` slides (a GIF frame per checkpoint, a PNG per
chosen checkpoint with the sentences as its description, index.html), and bad
input refused with one line and exit 2."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, Tally  # noqa: E402

MARGIN = 0.1  # session/lab/lab_numbers.h: kPositionMargin


def run(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True, timeout=600, **kw)


def squares_of(png):
    """Patches (row-major on the 8 x 8 grid) whose 8 x 8 px are one flat colour, in reading order."""
    a = np.asarray(Image.open(png).convert("RGB")).astype(int)
    cells = a.reshape(8, 8, 8, 8, 3).transpose(0, 2, 1, 3, 4).reshape(64, 64, 3)
    return [p for p in range(64) if (cells[p] == cells[p][0]).all()]


def pos_embed(model_dir):
    data = open(os.path.join(model_dir, "model.safetensors"), "rb").read()
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + n])
    t = header["pos_embed"]
    a, b = t["data_offsets"]
    return np.frombuffer(data[8 + n + a:8 + n + b], dtype="<f4").reshape(t["shape"]).reshape(-1, t["shape"][-1])


def near_far(pos):
    """Mean cosine of neighbouring patch positions and of positions 4 or more apart (rows or columns)."""
    p = pos[1:65].astype(np.float64)
    if not np.abs(p).max():
        return None
    unit = p / np.linalg.norm(p, axis=1, keepdims=True)
    cos = unit @ unit.T
    near, far = [], []
    for i in range(64):
        for j in range(i + 1, 64):
            dr, dc = abs(i // 8 - j // 8), abs(i % 8 - j % 8)
            if dr + dc == 1:
                near.append(cos[i, j])
            elif max(dr, dc) >= 4:
                far.append(cos[i, j])
    return np.mean(near), np.mean(far)


def attention_row(model, photo, layer, head, query):
    r = run(["attention", photo, "--model", model, "--layer", str(layer), "--head", str(head), "--query", str(query)])
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return np.array([float(x["weight"]) for x in csv.DictReader(io.StringIO(r.stdout))])


def main():
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="vitscope_lab_cli_") as tmp:
        rundir = os.path.join(tmp, "sc")
        nopos = os.path.join(tmp, "sc_no_position")
        for args in (["-o", rundir], ["--no-position", "-o", nopos]):
            r = run(["train", "--task", "same_colour", "--steps", "30", "--threads", "1", *args])
            tally.check(f"train {' '.join(args)} exits 0", r.returncode == 0, r.stderr[-300:])
        log = {int(x["step"]): x for x in csv.DictReader(open(os.path.join(rundir, "log.csv")))}
        sample = 3
        r = run(["lab", rundir, "--csv", "-", "--sample", str(sample)])
        tally.check("lab RUN --csv - --sample 3 exits 0", r.returncode == 0, r.stderr)
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        header = r.stdout.splitlines()[0] if r.stdout else ""
        tally.check("the header starts as the issue names it",
                    header.startswith("step,layer,head,query,weight_square1,weight_square2,weight_background,accuracy,loss"),
                    header)
        tally.check(f"a row per checkpoint x layer x head x query ({len(log)} x 4 x 4 x 3)", len(rows) == len(log) * 48,
                    len(rows))
        tally.check("accuracy and loss are log.csv's",
                    rows and all(abs(float(x["accuracy"]) - float(log[int(x["step"])]["accuracy"])) < 1e-6
                                 and abs(float(x["loss"]) - float(log[int(x["step"])]["loss"])) < 1e-5 for x in rows))

        photo = os.path.join(rundir, "samples", f"sample_{sample:03d}.png")
        squares = squares_of(photo)
        tally.check("the sample has two squares", len(squares) == 2, squares)
        s1, s2 = 1 + squares[0], 1 + squares[1]
        by_key = {(int(x["step"]), int(x["layer"]), int(x["head"]), x["query"]): x for x in rows}
        steps = sorted(log)
        worst, checked = 0.0, 0
        for step in (steps[0], steps[len(steps) // 2], steps[-1]):
            model = os.path.join(rundir, f"step_{step:06d}")
            for layer in range(4):
                for head in range(4):
                    for query, token in (("cls", "cls"), ("square1", s1), ("square2", s2)):
                        if query != "cls" and head % 2:  # the squares' queries on half the heads: time
                            continue
                        w = attention_row(model, photo, layer, head, token)
                        background = w[1:].sum() - w[s1] - w[s2]
                        x = by_key[(step, layer, head, query)]
                        got = [float(x["weight_square1"]), float(x["weight_square2"]), float(x["weight_background"])]
                        worst = max(worst, *np.abs(np.array(got) - [w[s1], w[s2], background]))
                        checked += 1
        tally.check(f"{checked} rows' weights are vitscope attention's (cls and the squares' queries; worst {worst:.1e})",
                    checked == 3 * 16 + 3 * 8 * 2 and worst < 2e-5, worst)

        # The position-similarity columns against NumPy on each checkpoint's pos_embed.
        worst, holds_ok = 0.0, True
        for step in steps:
            want = near_far(pos_embed(os.path.join(rundir, f"step_{step:06d}")))
            x = by_key[(step, 0, 0, "cls")]
            worst = max(worst, abs(float(x["position_near"]) - want[0]), abs(float(x["position_far"]) - want[1]))
            holds_ok &= (x["position_holds"] == "yes") == (want[0] - want[1] >= MARGIN)
        tally.check(f"position_near and position_far are NumPy's cosines at every checkpoint (worst {worst:.1e})",
                    worst < 1e-5, worst)
        tally.check(f"position_holds says whether near - far >= {MARGIN}", holds_ok)
        first = by_key[(steps[0], 0, 0, "cls")]
        tally.check("at step 0 (random positions) the grid claim does not hold", first["position_holds"] == "no", first)

        r = run(["lab", nopos, "--csv", os.path.join(tmp, "nopos.csv")])
        nrows = list(csv.DictReader(open(os.path.join(tmp, "nopos.csv")))) if r.returncode == 0 else []
        tally.check("without positions: --csv FILE written, position_holds 'none' on every row",
                    nrows and all(x["position_holds"] == "none" and x["position_near"] == "" for x in nrows), r.stderr)

        # Slides: -o DIR at a small size, two chosen checkpoints.
        slides = os.path.join(tmp, "slides")
        r = run(["lab", rundir, "-o", slides, "--window-size", "960x540", "--steps", f"0,{steps[-1]}", "--query", "cls"])
        tally.check("lab RUN -o DIR exits 0", r.returncode == 0, r.stderr[-400:])
        if r.returncode == 0:
            gif = Image.open(os.path.join(slides, "timeline.gif"))
            tally.check(f"timeline.gif: a 960 x 540 frame per checkpoint ({len(log)})",
                        gif.size == (960, 540) and getattr(gif, "n_frames", 1) == len(log), (gif.size, getattr(gif, "n_frames", 1)))
            names = sorted(n for n in os.listdir(slides) if n.endswith(".png"))
            tally.check("a PNG per chosen checkpoint", names == [f"step_{steps[0]:06d}.png", f"step_{steps[-1]:06d}.png"], names)
            if names:
                png = Image.open(os.path.join(slides, names[-1]))
                text = png.text.get("Description", "")
                tally.check("... each at slide size, the lab's sentences as its description",
                            png.size == (960, 540) and "class token" in text and "Held-out accuracy" in text, text[:200])
            html = open(os.path.join(slides, "index.html")).read()
            tally.check("index.html shows them with the sentences as captions",
                        all(n in html for n in names) and "Held-out accuracy" in html)

        for name, args, said in (("no --csv", ["lab", rundir], "--csv"),
                                 ("not a run", ["lab", tmp, "--csv", "-"], "not a training run"),
                                 ("sample out of range", ["lab", rundir, "--csv", "-", "--sample", "512"], "--sample"),
                                 ("an existing file without --force", ["lab", rundir, "--csv", os.path.join(tmp, "nopos.csv")], ""),
                                 ("-o onto an existing folder", ["lab", rundir, "-o", tmp], ""),
                                 ("a bad --query", ["lab", rundir, "-o", os.path.join(tmp, "new"), "--query", "2"], "--query")):
            r = run(args)
            lines = r.stderr.strip().splitlines()
            tally.check(f"{name}: exit 2 with one line{' naming ' + said if said else ''}",
                        r.returncode == 2 and len(lines) == 1 and said in lines[0], (r.returncode, r.stderr))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
