#!/usr/bin/python3
"""The relevance page in the real window on a private Xvfb display: opened from
a script, it computes the maps and curves for the model's top-1 on its own
(off the window's thread), then a real click (xdotool) on another of the
top-5 classes explains that one: the state names the new class, its study
runs, and the page's pictures change (the class-specific maps and curves).
Screenshots are kept in $VITSCOPE_KEEP_SHOTS when set (to look at them).
Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR."""
import os
import shutil
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402
from window_support import Window, Xvfb  # noqa: E402


def study_done(cls):
    return lambda s: any(k.startswith(f"relevance-c{cls}#") for k in s.get("experiment_results", []))


def page(path, size):
    img = np.asarray(Image.open(path).convert("RGB")).astype(np.float64)
    w, h = size
    assert img.shape == (h, w, 3), img.shape
    return img[int(0.15 * h):int(0.95 * h), int(0.745 * w):w - 10]


def run(xvfb, tmp, size):
    w_px, h_px = size
    first = os.path.join(tmp, "top1.png")
    script = os.path.join(tmp, "open.txt")
    with open(script, "w") as f:
        # At 112 px (7 x 7 patches) a class's study is 49 + 90 forward passes of 50 tokens
        # instead of 196 + 90 of 197: the page and its clicks are the same, the test a minute
        # instead of seven (tests/reference/relevance_test.py checks the numbers at 224 px).
        f.write(f"size 112\nwait\nquestion relevance\nwait\nframes 5\nscreenshot {first}\n")
    xvfb.park_pointer()
    w = Window(xvfb, BIN, [DOG, "--model", MODEL, "--script", script], tmp, size=f"{w_px}x{h_px}")
    try:
        state = w.wait_for(lambda s: s.get("ready") and s.get("question") == "relevance" and
                           len(s.get("page_targets", {})) == 5 and os.path.exists(first), timeout=600,
                           what="the relevance page with its five classes")
        assert (state["input_size"], state["grid"]) == (112, 7), (state["input_size"], state["grid"])
        top1 = state["relevance_class"]
        classes = sorted(state["page_targets"])
        assert top1 == -1, f"the page opens on the model's top-1: {top1}"
        done = w.wait_for(lambda s: any(k.startswith("relevance-c") for k in s.get("experiment_results", [])),
                          timeout=600, what="the top-1's study")
        assert done["last_error"] == "", done["last_error"]
        key = next(k for k in done["experiment_results"] if k.startswith("relevance-c"))
        top1_index = int(key[len("relevance-c"):].split("#")[0])
        assert f"class {top1_index}" in classes, (top1_index, classes)
        # Click another of the top-5.
        second = next(k for k in classes if k != f"class {top1_index}")
        index = int(second.split()[1])
        x, y = state["page_targets"][second]
        w.click(x, y)
        w.wait_for(lambda s: s["relevance_class"] == index, what=f"relevance_class {index} after the click")
        w.wait_for(study_done(index), timeout=600, what=f"the study of class {index}")
        xvfb.park_pointer()
        other = w.f12()
    finally:
        w.close()
    a, b = page(first, size), page(other, size)
    background = np.median(a.reshape(-1, 3), axis=0)
    inked = float((np.abs(a - background).sum(axis=2) > 40).mean())
    assert inked > 0.05, f"the page is nearly empty ({inked:.3f} inked)"
    diff = float(np.abs(a - b).mean())
    assert diff > 1, f"explaining class {index} changed nothing on the page (mean difference {diff:.2f})"
    keep = os.environ.get("VITSCOPE_KEEP_SHOTS")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(first, os.path.join(keep, f"relevance_{w_px}x{h_px}_top1.png"))
        shutil.copy(other, os.path.join(keep, f"relevance_{w_px}x{h_px}_class{index}.png"))
    print(f"    {w_px}x{h_px}: page {inked:.2f} inked; class {index} vs top-1: mean difference {diff:.1f}")


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    xvfb = Xvfb()
    try:
        for size in ((1920, 1080), (1280, 720)):
            with tempfile.TemporaryDirectory(prefix="vitscope_relevance_window_") as tmp:
                try:
                    run(xvfb, tmp, size)
                    tally.check(f"relevance page at {size[0]}x{size[1]}: opens, computes, a click changes the class", True)
                except Exception as e:  # noqa: BLE001
                    import traceback
                    traceback.print_exc()
                    tally.check(f"relevance page at {size[0]}x{size[1]}", False, str(e))
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
