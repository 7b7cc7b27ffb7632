#!/usr/bin/env python3
"""The Learning lab as a lecturer shows it (issue 49), on left_of runs of 500
steps trained here with and without position embeddings (with them the run
reaches about 1.000, without it stays at chance), in a real window under Xvfb:

- query on the class token: each head's weight on square 1, square 2 and the
  background are `vitscope attention --query cls` on that checkpoint's model;
  the class_token claim holds exactly at 4 x 2/64 or more and says so;
- auto: the layer and head the lab names are an exhaustive search's over
  `vitscope lab RUN --csv` at the step shown;
- the learned moment: its steps are the first checkpoint where that head's
  weight (CSV) reaches the threshold and the first where log.csv's accuracy
  passes 0.9;
- the sample judged: true label (samples.csv) and the answer `vitscope
  classify` gives; lab-next-wrong lands on a sample classify answers wrongly
  (or says there is none);
- the swap: at the last checkpoint with positions classify's answer flips on
  at least 90 % of 50 samples with their squares exchanged (NumPy), without
  positions the class probabilities are equal; the lab's swapped answer is
  classify's on the swapped picture, and without positions its class-token
  difference is at most 1e-5;
- the position claim against NumPy on the checkpoint's pos_embed (and "none"
  without positions);
- lab-export (File > Export the lab's timeline as slides) writes the slides;
- at 1280 x 720 and 1920 x 1080 no text is cut (clipped_text), the plots'
  last ticks included; VITSCOPE_LAB_SHOTS=DIR keeps the screenshots for a look,
  VITSCOPE_LAB_RUNS=DIR takes the two runs from DIR instead of training them.
Prints "N passed, M failed"."""
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
from script_support import BIN, Tally  # noqa: E402
from window_support import Window, Xvfb  # noqa: E402

REACH, ACCURATE, MARGIN = 4, 0.9, 0.1  # session/lab: kReachRatio, kAccurate, kPositionMargin
SHOTS = os.environ.get("VITSCOPE_LAB_SHOTS")  # a folder to keep the screenshots in


def run(args, **kw):
    r = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=900, **kw)
    if r.returncode != 0:
        raise AssertionError(f"{args[:3]}: {r.stderr[-500:]}")
    return r.stdout


def squares_of(png):
    a = np.asarray(Image.open(png).convert("RGB")).astype(int)
    cells = a.reshape(8, 8, 8, 8, 3).transpose(0, 2, 1, 3, 4).reshape(64, 64, 3)
    found = [p for p in range(64) if (cells[p] == cells[p][0]).all()]
    red = [p for p in found if cells[p][0][0] > 150 and cells[p][0][2] < 100]
    return red + [p for p in found if p not in red]  # left_of: the red square first


def swapped_png(png, out):
    a = np.asarray(Image.open(png).convert("RGB")).copy()
    p, q = squares_of(png)
    (pr, pc), (qr, qc) = divmod(p, 8), divmod(q, 8)
    cell_p = a[pr * 8:pr * 8 + 8, pc * 8:pc * 8 + 8].copy()
    a[pr * 8:pr * 8 + 8, pc * 8:pc * 8 + 8] = a[qr * 8:qr * 8 + 8, qc * 8:qc * 8 + 8]
    a[qr * 8:qr * 8 + 8, qc * 8:qc * 8 + 8] = cell_p
    Image.fromarray(a).save(out)
    return out


def classify(model, photos):
    """{photo: (label, {label: probability})} from one `vitscope classify` over all the photos."""
    out = run(["classify", *photos, "--model", model, "--top", "2"])
    rows = list(csv.reader(io.StringIO(out), delimiter="\t"))
    got = {}
    for r in rows[1:] if len(photos) > 1 else rows:
        photo, rank, prob, label = (r if len(photos) > 1 else [photos[0], *r])
        entry = got.setdefault(photo, [None, {}])
        if rank == "1":
            entry[0] = label
        entry[1][label] = float(prob)
    return got


def pos_near_far(model_dir):
    data = open(os.path.join(model_dir, "model.safetensors"), "rb").read()
    n = int.from_bytes(data[:8], "little")
    t = json.loads(data[8:8 + n])["pos_embed"]
    a, b = t["data_offsets"]
    p = np.frombuffer(data[8 + n + a:8 + n + b], dtype="<f4").reshape(-1, t["shape"][-1])[1:65].astype(float)
    if not np.abs(p).max():
        return None
    u = p / np.linalg.norm(p, axis=1, keepdims=True)
    c = u @ u.T
    near = [c[i, j] for i in range(64) for j in range(i + 1, 64) if abs(i // 8 - j // 8) + abs(i % 8 - j % 8) == 1]
    far = [c[i, j] for i in range(64) for j in range(i + 1, 64) if max(abs(i // 8 - j // 8), abs(i % 8 - j % 8)) >= 4]
    return np.mean(near), np.mean(far)


def window_states(script, tmp, size):
    path = os.path.join(tmp, f"script_{size}.txt")
    open(path, "w").write(script)
    w_, h_ = (int(x) for x in size.split("x"))
    xvfb = Xvfb(w_, h_)
    try:
        w = Window(xvfb, BIN, ["--script", path], tmp, size=size)
        code, seen = w.states_until_exit(timeout=900)
        return code, seen, w.output()
    finally:
        xvfb.close()


def main():
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="vitscope_lab_lesson_") as tmp:
        runs = os.path.join(tmp, "runs")
        os.mkdir(runs)
        lo, nopos = os.path.join(runs, "lo"), os.path.join(runs, "lo_no_position")
        reuse = os.environ.get("VITSCOPE_LAB_RUNS")  # a folder holding lo and lo_no_position made as below: no training
        if reuse:
            for name in ("lo", "lo_no_position"):
                shutil.copytree(os.path.join(reuse, name), os.path.join(runs, name))
        jobs = [] if reuse else [subprocess.Popen([BIN, "train", "--task", "left_of", "--steps", "500", "--threads", "1", *extra, "-o", out],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                for extra, out in (([], lo), (["--no-position"], nopos))]
        for j in jobs:
            _, err = j.communicate(timeout=1800)
            if j.returncode != 0:
                raise AssertionError(err[-500:])
        log = list(csv.DictReader(open(os.path.join(lo, "log.csv"))))
        steps = [int(r["step"]) for r in log]
        last = steps[-1]
        labels = {r["file"]: r["label"] for r in csv.DictReader(open(os.path.join(lo, "samples", "samples.csv")))}
        tally.check(f"left_of with positions learns in 500 steps (held-out accuracy {log[-1]['accuracy']})",
                    float(log[-1]["accuracy"]) > 0.9, log[-1])

        # The swap, on the models themselves: 50 samples and the same with their squares exchanged.
        samples = [os.path.join(lo, "samples", f"sample_{i:03d}.png") for i in range(50)]
        swapped = [swapped_png(p, os.path.join(tmp, f"swapped_{i:03d}.png")) for i, p in enumerate(samples)]
        with_pos = classify(os.path.join(lo, f"step_{last:06d}"), samples + swapped)
        flips = sum(with_pos[a][0] != with_pos[b][0] for a, b in zip(samples, swapped))
        tally.check(f"with positions the answer flips on {flips} of 50 swapped samples (at least 45)", flips >= 45, flips)
        np_last = f"step_{int(list(csv.DictReader(open(os.path.join(nopos, 'log.csv'))))[-1]['step']):06d}"
        without = classify(os.path.join(nopos, np_last), samples + swapped)
        worst = max(abs(without[a][1][k] - without[b][1].get(k, -1)) for a, b in zip(samples, swapped) for k in without[a][1])
        tally.check(f"without positions every class probability is the same after the swap (worst {worst:.1e})",
                    worst <= 1e-5, worst)

        csv_rows = list(csv.DictReader(io.StringIO(run(["lab", lo, "--csv", "-", "--sample", "0"]))))
        table = {(int(r["step"]), int(r["layer"]), int(r["head"]), r["query"]): r for r in csv_rows}

        def weight(step, layer, head, query):
            r = table[(step, layer, head, query)]
            if query == "cls":
                return float(r["weight_square1"]) + float(r["weight_square2"])
            return float(r["weight_square2"] if query == "square1" else r["weight_square1"])

        mid = steps[len(steps) * 3 // 4]
        script = f"""wait
learning-lab {lo}
lab-query cls
lab-step {last}
frames 6
screenshot {tmp}/shot_SIZE_last.png
lab-step {mid}
frames 6
lab-layer auto
lab-query 0
frames 6
lab-query cls
lab-swap on
frames 6
lab-sample 1
frames 6
lab-next-wrong
frames 6
lab-export {tmp}/exported_SIZE
frames 3
learning-lab {nopos}
lab-query cls
lab-step last
lab-swap on
frames 6
screenshot {tmp}/shot_SIZE_nopos.png
quit
"""
        seen_by_size = {}
        for size in ("1280x720", "1920x1080"):
            code, seen, output = window_states(script.replace("SIZE", size), tmp, size)
            tally.check(f"{size}: the scripted window exits 0", code == 0, output[-800:])
            seen_by_size[size] = seen
            # Train's "into" field shows the window's folder, here a long temporary one: a text field scrolls.
            cut = sorted({t for s in seen if s.get("lab", {}).get("run") for t in map(str, s.get("clipped_text", []))
                          if not t.endswith(os.path.basename(tmp) + "/")})
            tally.check(f"{size}: no text of the lab cut or broken (the plots' last ticks included)", not cut, cut[:8])
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                for name in ("last", "nopos"):
                    p = os.path.join(tmp, f"shot_{size}_{name}.png")
                    if os.path.exists(p):
                        shutil.copy(p, SHOTS)

        # File > Export the lab's timeline as slides (lab-export): a GIF frame per checkpoint, the PNGs, index.html.
        exported = os.path.join(tmp, "exported_1920x1080")
        pngs = sorted(n for n in os.listdir(exported) if n.endswith(".png")) if os.path.isdir(exported) else []
        frames = getattr(Image.open(os.path.join(exported, "timeline.gif")), "n_frames", 0) if pngs else 0
        tally.check(f"lab-export: timeline.gif with a frame per checkpoint ({len(steps)}), the chosen PNGs, index.html",
                    frames == len(steps) and f"step_{steps[0]:06d}.png" in pngs and f"step_{last:06d}.png" in pngs
                    and os.path.isfile(os.path.join(exported, "index.html")), (frames, pngs))
        seen = seen_by_size["1280x720"]
        labs = [s["lab"] for s in seen if s.get("lab", {}).get("run") == lo and s["lab"]["sentences"]]

        def at(step, query, sample=0, swap=False):
            found = [l for l in labs if l["step"] == step and l["query"] == query and l["sample"] == sample
                     and l["swap"] == swap and l["layer_chosen"]]
            return found[-1] if found else None

        photo = samples[0]
        s1, s2 = (1 + p for p in squares_of(photo))
        for step in (last, mid):
            lab = at(step, "cls")
            if not lab:
                tally.check(f"the class token's view at step {step}", False, [(l["step"], l["query"]) for l in labs][-5:])
                continue
            # Auto: an exhaustive search over the CSV at the step shown.
            best = max(((weight(step, l_, h, "cls"), l_, h) for l_ in range(4) for h in range(4)))
            tally.check(f"step {step}: auto names layer {best[1]} head {best[2]} as an exhaustive search does",
                        (lab["layer"], lab["head"]) == (best[1], best[2]), (lab["layer"], lab["head"], best))
            model = os.path.join(lo, f"step_{step:06d}")
            worst = 0
            for h in range(4):
                r = run(["attention", photo, "--model", model, "--layer", str(lab["layer"]), "--head", str(h), "--query", "cls"])
                w = np.array([float(x["weight"]) for x in csv.DictReader(io.StringIO(r))])
                want = [w[s1], w[s2], w[1:].sum() - w[s1] - w[s2]]
                got = lab["shares"][h]
                worst = max(worst, *np.abs(np.array([got["square1"], got["square2"], got["background"]]) - want))
            tally.check(f"step {step}: each head's class-token weights on square 1, square 2, background are "
                        f"vitscope attention's (worst {worst:.1e})", worst < 2e-5, worst)
            claim = [s for s in lab["sentences"] if s["kind"] == "class_token"]
            value = best[0]
            holds = value >= REACH * 2 / 64
            tally.check(f"step {step}: the class-token claim ({100 * value:.0f} %) holds exactly at >= 4 x 2/64, "
                        "naming layer and head",
                        claim and claim[0]["holds"] == holds and abs(claim[0]["value"] - value) < 2e-5
                        and f"of layer {best[1]}" in claim[0]["text"] and f"head {best[2]}" in claim[0]["text"]
                        and ("no head singles out" in claim[0]["text"]) != holds, claim)
            # The learned moment against the CSV and log.csv.
            m = lab["moment"]
            threshold = REACH * 2 / 64
            learned = next((s for s in steps if weight(s, m["layer"], m["head"], "cls") >= threshold), -1)
            accurate = next((int(r["step"]) for r in log if float(r["accuracy"]) > ACCURATE), -1)
            moment = [s for s in lab["sentences"] if s["kind"] == "moment"]
            tally.check(f"step {step}: the learned moment is step {learned} for the head, {accurate} for the accuracy",
                        m and m["learned_step"] == learned and m["accurate_step"] == accurate and moment
                        and (learned < 0 or f"at step {learned:,}" in moment[0]["text"])
                        and f"at step {accurate:,}" in moment[0]["text"], (m, learned, accurate, moment))
            # The position claim against NumPy.
            want = pos_near_far(model)
            got = lab["positions"]
            tally.check(f"step {step}: the position claim is NumPy's (near {want[0]:.3f}, far {want[1]:.3f})",
                        got and abs(got["near"] - want[0]) < 1e-5 and abs(got["far"] - want[1]) < 1e-5
                        and got["holds"] == (want[0] - want[1] >= MARGIN), (got, want))

        # The square's query at the same step: auto over the other square.
        sq = at(mid, "square1")
        if sq:
            best = max(((weight(mid, l_, h, "square1"), l_, h) for l_ in range(4) for h in range(4)))
            tally.check("query on the red square: auto is the exhaustive search's layer and head",
                        (sq["layer"], sq["head"]) == (best[1], best[2]), (sq["layer"], sq["head"], best))
        else:
            tally.check("the red square's view", False)

        # The sample judged, and swapped, against classify.
        model = os.path.join(lo, f"step_{mid:06d}")
        judged = [l for l in labs if l["step"] == mid and l["swap"] and l["swapped"]]
        for l in judged[-2:]:
            photo_i = os.path.join(lo, "samples", os.path.basename(l["sample_path"]))
            c = classify(model, [photo_i, swapped_png(photo_i, os.path.join(tmp, "check_swap.png"))])
            c_orig, c_swap = c[photo_i][0], c[os.path.join(tmp, "check_swap.png")][0]
            verdict = [s for s in l["sentences"] if s["kind"] == "sample"]
            tally.check(f"sample {l['sample']}: true label and answer are samples.csv's and classify's, judged",
                        l["sample_label"] == labels[os.path.basename(photo_i)] and l["predicted"] == c_orig
                        and l["sample_right"] == (c_orig == l["sample_label"]) and verdict
                        and verdict[0]["text"].endswith("right." if l["sample_right"] else "wrong."), (l["predicted"], c_orig))
            tally.check(f"sample {l['sample']}: the swap's answers are classify's on the original and the swapped picture",
                        l["swapped"]["answer"] == c_orig and l["swapped"]["swapped_answer"] == c_swap,
                        (l["swapped"], c_orig, c_swap))
        tally.check("the swap was seen on two samples", len(judged) >= 2, len(judged))
        wrong = [l for l in labs if l["step"] == mid and l["sample"] not in (0, 1)]
        if wrong:
            l = wrong[-1]
            photo_i = os.path.join(lo, "samples", os.path.basename(l["sample_path"]))
            answer = classify(model, [photo_i])[photo_i][0]
            tally.check(f"next wrong: sample {l['sample']} is one classify answers wrongly",
                        answer != labels[os.path.basename(photo_i)] and not l["sample_right"], (answer, l["sample"]))
        else:
            notices = [l["notice"] for l in labs if l["notice"]]
            tally.check("next wrong: none left, and the lab says so", notices and "no wrong sample" in notices[-1], notices)

        np_labs = [s["lab"] for s in seen if s.get("lab", {}).get("run") == nopos and s["lab"].get("swapped")]
        if np_labs:
            l = np_labs[-1]
            pos = [s for s in l["sentences"] if s["kind"] == "positions"]
            tally.check("without positions: the class token's output is the same after the swap (at most 1e-5), "
                        "and the sentence says why",
                        l["swapped"]["cls_difference"] <= 1e-5 and any("permutation-equivariant" in s["text"]
                                                                       for s in l["sentences"] if s["kind"] == "swap"),
                        l["swapped"])
            tally.check("without positions: the position panel says there are none",
                        l["positions"] is None and pos and "no position embeddings" in pos[0]["text"], pos)
        else:
            tally.check("the no-position run's swap", False, [s["lab"]["run"] for s in seen[-3:]])
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
