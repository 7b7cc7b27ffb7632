#!/usr/bin/env python3
"""Huge windows (issue 33, item 8) under Xvfb (Mesa llvmpipe, which draws at
most 16384 x 16384 pixels):

  --window-size 12000x12000, 16384x16384   the window opens, the model runs,
      and it quits with 0: the photo panel is larger than the photo layers'
      16 M-pixel budget (it crashed in gfx::PhotoLayers::slot_for, SIGSEGV)
  --window-size 20000x20000, 32767x300     a framebuffer beyond what this
      OpenGL draws (GL_MAX_TEXTURE_SIZE, GL_MAX_VIEWPORT_DIMS): one line
      naming the limit and the size to give instead, exit 2, no state file
  --window-size 40000x300                  beyond X11's largest window: the
      option's one line, exit 2

Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR."""
import os
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, MODEL, Tally  # noqa: E402
from window_support import Xvfb, read_state  # noqa: E402

tally = Tally()
check = tally.check
BUDGET = 16 << 20  # the photo layers' pixels (src/gfx/photo_layers.cpp)


def run(xvfb, tmp, size):
    """The window at `size`, a script that waits for the model and quits; (result, state or None)."""
    script = os.path.join(tmp, "wait.txt")
    with open(script, "w") as f:
        f.write("wait\nquit\n")
    state = os.path.join(tmp, f"state_{size}.json")
    r = subprocess.run([BIN, "--no-settings", "--model", MODEL, "--window-size", size, "--script", script,
                        "--state-file", state], env=xvfb.env(), cwd=tmp, capture_output=True, text=True, timeout=300)
    return r, read_state(state)


def one_line_refusal(r, *says):
    lines = r.stderr.splitlines()
    return (r.returncode == 2 and len(lines) == 1 and lines[0].startswith("vitscope: error: ") and
            all(s in lines[0] for s in says))


def main():
    xvfb = Xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="vitscope_window_size_") as tmp:
            for size in ("12000x12000", "16384x16384"):
                r, state = run(xvfb, tmp, size)
                check(f"{size}: the window runs and quits with 0 (no signal)", r.returncode == 0,
                      f"exit {r.returncode}: {r.stderr[-500:]}")
                view = (state or {}).get("image_view") or [0, 0, 0, 0]
                check(f"{size}: the model ran; the photo panel ({view[2]:.0f} x {view[3]:.0f}) is over the layers' budget",
                      bool(state and state.get("ready")) and view[2] * view[3] > BUDGET, view)
            for size in ("20000x20000", "32767x300"):
                r, state = run(xvfb, tmp, size)
                check(f"{size}: refused in one line naming the OpenGL limit and what to give, exit 2, no window state",
                      one_line_refusal(r, f"--window-size {size}", "GL_MAX_TEXTURE_SIZE", "draws at most 16384 x 16384",
                                       "give at most 16384x") and state is None, r.stderr.strip())
            r, state = run(xvfb, tmp, "40000x300")
            check("40000x300: the option's own refusal, exit 2", one_line_refusal(r, "--window-size expects WxH",
                                                                                 "32767x32767", "'40000x300'"),
                  r.stderr.strip())
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
