"""What the interactive benchmarks share: the binary, model and sample photos,
the window run on a private Xvfb with a generated script and --frame-stats,
the machine's load, and a one-line summary of samples (median and spread).
Benchmarks, not tests: nothing here asserts a time."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SRC, "tests"))
from window_support import Xvfb  # noqa: E402  (the private X server the window tests use)

MODEL_NAME = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"
SHARED = os.path.normpath(os.path.join(SRC, "..", "shared"))


def default_model():
    """$VITSCOPE_MODEL, else models/<default>, else the shared copy beside the checkout."""
    for m in (os.environ.get("VITSCOPE_MODEL"), os.path.join(SRC, "models", MODEL_NAME),
              os.path.join(SHARED, "models", MODEL_NAME)):
        if m and os.path.isfile(os.path.join(m, "model.safetensors")):
            return m
    sys.exit("no model: set VITSCOPE_MODEL or run scripts/fetch_model.sh")


def sample_photos():
    """The sample photos (assets/ and ../shared/images/), one per name, sorted."""
    found = {}
    for d in (os.path.join(SRC, "assets"), os.path.join(SHARED, "images")):
        if os.path.isdir(d):
            for name in sorted(os.listdir(d)):
                if name.lower().endswith((".jpg", ".png")) and name not in found:
                    found[name] = os.path.join(d, name)
    return [found[n] for n in sorted(found)]


def arguments(description, runs=None, runs_help=""):
    """The scripts' shared options; with runs, also --runs (that default) and --sizes."""
    p = argparse.ArgumentParser(description=description)
    if runs is not None:
        p.add_argument("--runs", type=int, default=runs, help=runs_help)
        p.add_argument("--sizes", default="224,448")
    p.add_argument("--bin", default=os.environ.get("VITSCOPE_BIN") or os.path.join(SRC, "build", "vitscope"))
    p.add_argument("--model", default=None, help="model folder (default: the default model)")
    p.add_argument("--window-size", default="1920x1080")
    p.add_argument("--no-wait-idle", action="store_true", help="the timing scripts: start at once, even beside other jobs")
    return p


def load():
    """'1.23 0.98 0.77' from /proc/loadavg: the machine's load beside the figures."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_ticks():
    """(busy, total) clock ticks of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]   # idle + iowait
    return sum(v) - idle, sum(v)


def process_ticks(pid):
    """utime + stime of a process and its threads in clock ticks, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def wait_idle(limit=600, busy=0.15):
    """Waits (up to `limit` seconds) for a 5-second stretch with the CPUs at most `busy` used,
    so the figures are not another job's; says how long it waited and what it found."""
    start = time.time()
    while True:
        b0, t0 = cpu_ticks()
        time.sleep(5)
        b1, t1 = cpu_ticks()
        share = (b1 - b0) / max(1, t1 - t0)
        if share <= busy or time.time() - start > limit:
            print(f"(waited {time.time() - start:.0f} s for an idle machine: CPUs {100 * share:.0f}% busy over the last 5 s)")
            return share


def vm_status(pid, field):
    """A field of /proc/PID/status in KiB (VmRSS, VmHWM), or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class RunResult:
    def __init__(self, stats, rss_samples, output, cpu):
        self.stats = stats              # the --frame-stats JSON
        self.rss_samples = rss_samples  # (seconds, VmRSS KiB) read from outside every 0.25 s
        self.output = output
        self.cpu = cpu                  # CPU use during the run, in cores: total, ours (window + Xvfb), others

    def load_line(self):
        c = self.cpu
        return (f"CPU during the run: {c['total']:.2f} of {c['cores']} cores busy, of which the window and Xvfb "
                f"{c['ours']:.2f}, other processes {c['others']:.2f}; load average {load()}")


def run_window(args, photo, script_text, timeout=1800):
    """The window on `photo` under a private Xvfb running `script_text` (it must end in quit),
    with --frame-stats; /proc/PID/status read from outside meanwhile."""
    with tempfile.TemporaryDirectory(prefix="vitscope_interactive_") as tmp:
        script = os.path.join(tmp, "bench.script")
        stats = os.path.join(tmp, "stats.json")
        with open(script, "w") as f:
            f.write(script_text)
        xvfb = Xvfb(*map(int, args.window_size.split("x")))
        try:
            xvfb.park_pointer()  # off every map: no hover re-renders
            cmd = [args.bin, photo, "--model", args.model or default_model(), "--no-settings",
                   "--window-size", args.window_size, "--script", script, "--frame-stats", stats]
            log = tempfile.TemporaryFile(dir=tmp)
            proc = subprocess.Popen(cmd, cwd=tmp, env=xvfb.env(), stdout=log, stderr=subprocess.STDOUT)
            samples = []
            start = time.time()
            busy0, total0 = cpu_ticks()
            ours = {}

            def watch():
                while proc.poll() is None:
                    kib = vm_status(proc.pid, "VmRSS")
                    if kib:
                        samples.append((time.time() - start, kib))
                    for pid in (proc.pid, xvfb.proc.pid):
                        ticks = process_ticks(pid)
                        if ticks is not None:
                            ours[pid] = ticks
                    time.sleep(0.25)
            ours_before = {pid: process_ticks(pid) or 0 for pid in (xvfb.proc.pid,)}
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            try:
                rc = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                rc = "timeout"
            watcher.join()
            busy1, total1 = cpu_ticks()
            cores = os.cpu_count()
            per_core = max(1, total1 - total0) / cores
            own = sum(t - ours_before.get(pid, 0) for pid, t in ours.items())
            cpu = {"cores": cores, "total": (busy1 - busy0) / per_core, "ours": own / per_core}
            cpu["others"] = max(0.0, cpu["total"] - cpu["ours"])
            log.seek(0)
            output = log.read().decode(errors="replace")
            if rc != 0:
                sys.exit(f"vitscope exited with {rc}: {output}")
            with open(stats) as f:
                return RunResult(json.load(f), samples, output, cpu)
        finally:
            xvfb.close()


def spread(values, unit="ms"):
    """'median 41.2 ms (min 38.0, quartiles 40.1-43.5, max 60.3; n=10)'."""
    v = sorted(values)
    if not v:
        return "no samples"
    if len(v) >= 4:
        q = statistics.quantiles(v, n=4)
        quart = f", quartiles {q[0]:.1f}-{q[2]:.1f}"
    else:
        quart = ""
    return f"median {statistics.median(v):.1f} {unit} (min {v[0]:.1f}{quart}, max {v[-1]:.1f}; n={len(v)})"
