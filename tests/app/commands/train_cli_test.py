"""vitscope train on the command line: a short run's folder (config, log.csv,
step_NNNNNN/ checkpoints, samples/), the checkpoints opened by classify and
attention like any model, the same seed giving the same log.csv, Ctrl+C
keeping the checkpoints made so far, and bad input refused with one line,
exit 2 and nothing written."""
import csv
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, Tally


def temporaries(folder):
    """The temporary folders a run writes beside RUN (.RUN.vitscope-PID-N.tmp)."""
    return [n for n in os.listdir(folder) if "vitscope-" in n]


def run(args, **kw):
    return subprocess.run([BIN] + args, capture_output=True, text=True, **kw)


def refused(tally, name, args, tmp):
    before = sorted(os.listdir(tmp))
    r = run(args)
    lines = r.stderr.strip().splitlines()
    tally.check(f"{name}: exit 2 with one line", r.returncode == 2 and len(lines) == 1, (r.returncode, r.stderr))
    tally.check(f"{name}: nothing written", sorted(os.listdir(tmp)) == before, set(os.listdir(tmp)) ^ set(before))
    return lines[0] if lines else ""


def main():
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        r = run(["train", "--task", "same_colour", "-o", out, "--steps", "6", "--seed", "4", "--threads", "2"])
        tally.check("a 6-step run exits 0", r.returncode == 0, r.stderr)
        rows = list(csv.DictReader(open(os.path.join(out, "log.csv"))))
        tally.check("log.csv: step,loss,accuracy first", open(os.path.join(out, "log.csv")).readline().startswith("step,loss,accuracy,"))
        steps = [int(x["step"]) for x in rows]
        tally.check("log.csv: a row per checkpoint, steps 0 to 6", steps == [0, 1, 2, 3, 4, 5, 6], steps)
        folders = sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, "step_*")))
        tally.check("a step_NNNNNN folder per row", folders == [f"step_{s:06d}" for s in steps], folders)
        tally.check("accuracy in [0, 1] on the held-out set", all(0 <= float(x["accuracy"]) <= 1 for x in rows))
        config = open(os.path.join(out, "config")).read()
        for key in ("task = same_colour", "lr = ", "batch = 64", "held_out = 512", "width = 64", "heads = 4", "depth = 4",
                    "seed = 4", "weight_decay = "):
            tally.check(f"config states '{key.strip()}'", key in config)
        samples = list(csv.DictReader(open(os.path.join(out, "samples", "samples.csv"))))
        tally.check("samples/: every one of the 512 held-out samples as PNG", len(samples) == 512 and
                    len(glob.glob(os.path.join(out, "samples", "sample_*.png"))) == 512, len(samples))
        tally.check("samples.csv names PNGs that exist, labels as class names",
                    samples and all(os.path.isfile(os.path.join(out, "samples", s["file"])) for s in samples)
                    and {s["label"] for s in samples} <= {"same colour", "different colours"}, samples[:2])

        # The checkpoints open like any model.
        last = os.path.join(out, "step_000006")
        photo = os.path.join(out, "samples", samples[0]["file"])
        r = run(["classify", photo, "--model", last, "--top", "2"])
        tally.check("classify opens a checkpoint", r.returncode == 0 and ("same colour" in r.stdout) and ("different colours" in r.stdout),
                    r.stderr + r.stdout)
        r = run(["attention", photo, "--model", last, "--layer", "3", "--head", "0", "--query", "cls"])
        lines = r.stdout.strip().splitlines()
        tally.check("attention opens a checkpoint: 65 keys (CLS + 8 x 8 patches)", r.returncode == 0 and len(lines) == 66,
                    (r.returncode, r.stderr, len(lines)))
        r = run(["info", "--model", last])
        tally.check("info: 4 layers, 4 heads, width 64", r.returncode == 0 and all(k in r.stdout for k in ("layers: 4\n", "heads: 4\n", "width: 64\n", "tokens: 65")), r.stdout + r.stderr)

        # The window opens a checkpoint (a private X server; xvfb-run from Debian's xvfb).
        shot = os.path.join(tmp, "window.png")
        r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", BIN, photo, "--model", last, "--no-settings",
                            "--window-size", "1280x800", "--screenshot", shot, "--quit"], capture_output=True, text=True, timeout=600)
        tally.check("the window opens a checkpoint and takes a screenshot", r.returncode == 0 and os.path.getsize(shot) > 10000
                    if os.path.exists(shot) else False, r.stderr[-500:])

        # The same seed gives the same log.csv; another seed another.
        again = os.path.join(tmp, "again")
        run(["train", "--task", "same_colour", "-o", again, "--steps", "6", "--seed", "4", "--threads", "1"])
        tally.check("the same seed (1 thread instead of 2) gives the same log.csv",
                    open(os.path.join(out, "log.csv")).read() == open(os.path.join(again, "log.csv")).read())
        other = os.path.join(tmp, "other")
        run(["train", "--task", "same_colour", "-o", other, "--steps", "6", "--seed", "5"])
        tally.check("another seed gives another log.csv",
                    open(os.path.join(out, "log.csv")).read() != open(os.path.join(other, "log.csv")).read())

        # Bad input.
        line = refused(tally, "unknown task", ["train", "--task", "colour", "-o", os.path.join(tmp, "x")], tmp)
        tally.check("unknown task: the known ones named", "same_colour" in line and "left_of" in line, line)
        refused(tally, "--steps 0", ["train", "--task", "left_of", "-o", os.path.join(tmp, "x"), "--steps", "0"], tmp)
        refused(tally, "--steps huge", ["train", "--task", "left_of", "-o", os.path.join(tmp, "x"), "--steps", "100000000"], tmp)
        refused(tally, "--threads 0", ["train", "--task", "left_of", "-o", os.path.join(tmp, "x"), "--threads", "0"], tmp)
        refused(tally, "--lr -1", ["train", "--task", "left_of", "-o", os.path.join(tmp, "x"), "--lr", "-1"], tmp)
        refused(tally, "no -o", ["train", "--task", "left_of"], tmp)
        line = refused(tally, "existing RUN without --force", ["train", "--task", "left_of", "-o", out, "--steps", "1"], tmp)
        tally.check("existing RUN: --force named", "--force" in line, line)
        tally.check("existing RUN: left as it was", open(os.path.join(out, "log.csv")).read() == open(os.path.join(again, "log.csv")).read())
        r = run(["train", "--task", "left_of", "-o", out, "--steps", "2", "--force"])
        tally.check("--force replaces RUN", r.returncode == 0 and "task = left_of" in open(os.path.join(out, "config")).read()
                    and not os.path.exists(os.path.join(out, "step_000006")), r.stderr)

        # Ctrl+C keeps the checkpoints made so far.
        stopped = os.path.join(tmp, "stopped")
        p = subprocess.Popen([BIN, "train", "--task", "left_of", "-o", stopped, "--steps", "5000", "--threads", "1"],
                             stderr=subprocess.PIPE, text=True)
        seen = 0
        deadline = time.monotonic() + 300
        for line in p.stderr:  # wait for the checkpoint of step 3
            if line.startswith("step") and line.split()[1].startswith("3/"):
                seen = 3
                break
            if time.monotonic() > deadline:
                break
        p.send_signal(signal.SIGINT)
        rest = p.stderr.read()
        p.wait()
        tally.check("SIGINT: exit 130 with a note", seen == 3 and p.returncode == 130 and "interrupted" in rest, (p.returncode, rest))
        rows = list(csv.DictReader(open(os.path.join(stopped, "log.csv")))) if os.path.exists(os.path.join(stopped, "log.csv")) else []
        tally.check("SIGINT: RUN keeps log.csv from step 0 on, each row's checkpoint complete",
                    len(rows) >= 4 and all(os.path.isfile(os.path.join(stopped, f"step_{int(x['step']):06d}", "model.safetensors"))
                                           for x in rows), rows)
        tally.check("SIGINT: no temporary folder left", not temporaries(tmp), os.listdir(tmp))

        # A second Ctrl+C stops at once and keeps nothing: no RUN, no RUN.tmp-PID (it holds folders by then).
        hurried = os.path.join(tmp, "hurried")
        p = subprocess.Popen([BIN, "train", "--task", "left_of", "-o", hurried, "--steps", "5000", "--threads", "1"],
                             stderr=subprocess.PIPE, text=True)
        seen = False
        for line in p.stderr:  # step 2's checkpoint: the temporary folder holds step folders and samples/
            if line.startswith("step") and line.split()[1].startswith("2/"):
                seen = True
                break
        # Both signals inside step 3 (at least 0.1 s on one thread): right after the checkpoint's line the loop
        # checks for a stop at once, and a first signal there ends the run before the second comes.
        time.sleep(0.03)
        p.send_signal(signal.SIGINT)
        time.sleep(0.005)  # a signal sent while the same one is still pending is merged with it
        p.send_signal(signal.SIGINT)
        rest = p.stderr.read()
        p.wait()
        tally.check("second SIGINT: exit 130 at once with a note", seen and p.returncode == 130 and "interrupted again" in rest,
                    (p.returncode, rest))
        tally.check("second SIGINT: neither RUN nor its temporary folder left",
                    not os.path.exists(hurried) and not temporaries(tmp), os.listdir(tmp))

        # --check-gradients writes its folder and refuses an existing one.
        grads = os.path.join(tmp, "grads")
        r = run(["train", "--task", "left_of", "--check-gradients", grads])
        tally.check("--check-gradients writes init/, inputs.npy, labels.npy",
                    r.returncode == 0 and all(os.path.exists(os.path.join(grads, f)) for f in ("init/config.json", "inputs.npy", "labels.npy")),
                    r.stderr)
        refused(tally, "--check-gradients into an existing folder", ["train", "--task", "left_of", "--check-gradients", grads], tmp)
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
