"""What the script tests share: where the vitscope binary, the sources and the
default model are, and the PASS/FAIL tally ending in "N passed, M failed"."""
import os

SRC = os.environ.get("VITSCOPE_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("VITSCOPE_BIN") or os.path.join(SRC, "build", "vitscope")
MODEL_NAME = "vit_tiny_patch16_224.augreg_in21k_ft_in1k"
MIRROR = os.environ.get("VITSCOPE_MODEL_MIRROR") or os.path.normpath(os.path.join(SRC, "..", "shared", "models"))
# $VITSCOPE_MODEL (scripts/model_env.sh sets it), else the mirror's copy.
MODEL = os.environ.get("VITSCOPE_MODEL") or os.path.join(MIRROR, MODEL_NAME)
DOG = os.path.join(SRC, "assets", "dog.jpg")
# The config files the Hugging Face hub serves (README there), beside the mirror.
HUB_CONFIGS = os.environ.get("VITSCOPE_HUB_CONFIGS") or os.path.normpath(os.path.join(SRC, "..", "shared", "hub_configs"))


class Tally:
    """check() prints one PASS or FAIL line per check; finish() the totals and the exit code."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else ": " + str(detail)), flush=True)
        return ok

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
