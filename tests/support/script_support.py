"""What the script tests share: where the vitscope binary, the sources and the
default model are, and the PASS/FAIL/SKIP tally ending in
"N passed, M failed, K skipped"."""
import os
import re
import subprocess

SRC = os.environ.get("VITSCOPE_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("VITSCOPE_BIN") or os.path.join(SRC, "build", "vitscope")
MODEL_NAME = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"
# The folder of model copies CI keeps beside the checkout: scripts/fetch_model.sh
# copies from it, and a few tests read the variants only it holds (HF layouts).
MIRROR = os.environ.get("VITSCOPE_MODEL_MIRROR") or os.path.normpath(os.path.join(SRC, "..", "shared", "models"))
# The program's own lookup (vit::default_model_dir): $VITSCOPE_MODEL (scripts/model_env.sh
# sets it), else models/<name> in the source tree. A missing model fails the test.
MODEL = os.environ.get("VITSCOPE_MODEL") or os.path.join(SRC, "models", MODEL_NAME)
DOG = os.path.join(SRC, "assets", "dog.jpg")
CHELSEA = os.path.join(SRC, "assets", "chelsea.png")
# The config files the Hugging Face hub serves (README there), beside the mirror.
HUB_CONFIGS = os.environ.get("VITSCOPE_HUB_CONFIGS") or os.path.normpath(os.path.join(SRC, "..", "shared", "hub_configs"))
# The environment without a display server: what must draw offscreen (EGL) is run so, and browsers headless.
NO_DISPLAY = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}


def run_vitscope(*args, env_extra=None, cwd=None, timeout=300):
    """The vitscope binary with these arguments (each passed through str) in this environment plus
    env_extra: its CompletedProcess, output as text."""
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, env=dict(os.environ, **(env_extra or {})),
                          cwd=cwd, timeout=timeout)


def source(path):
    """A file of the source tree, as text."""
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return f.read()


def window_pages():
    """The Questions pages the window has, in order: the PAGE lines of the one list (question_list.inc)."""
    return re.findall(r"^PAGE\((\w+),", source("src/vit/analysis/question_list.inc"), re.M)


class Tally:
    """check() prints one PASS or FAIL line per check, skip() a SKIP line;
    finish() the totals and the exit code. A skipped check fails the run
    unless it was skipped because the test runs as root (as_root, when
    os.geteuid() == 0), so a missing tool or a build without the window
    cannot pass unnoticed."""

    def __init__(self):
        self.passed = self.failed = self.skipped = self.unexcused = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + str(detail)), flush=True)
        return ok

    def skip(self, name, reason, as_root=False):
        """A check that could not run. It fails the run unless as_root (root can do what it
        checks, e.g. read an unreadable file) and the test really runs as root."""
        excused = as_root and os.geteuid() == 0
        self.skipped += 1
        self.unexcused += 0 if excused else 1
        print(f"SKIP {name}: {reason}" + ("" if excused else " (a skip fails the run)"), flush=True)

    def check_model(self):
        """The first check of a test that runs the default model: a missing model fails, never skips."""
        return self.check(f"the default model at {MODEL}", os.path.isfile(os.path.join(MODEL, "model.safetensors")),
                          "set VITSCOPE_MODEL (scripts/test.sh does)")

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped")
        return 1 if self.failed or self.unexcused else 0
