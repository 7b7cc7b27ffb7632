#!/usr/bin/env python3
"""A modifier held before the window had the keyboard still counts (window_input.cpp).

ImGui 1.86 learns that Ctrl is down only from Ctrl's own press; a person who
holds Ctrl while clicking into the window, or while it opens, then presses Q,
meant Ctrl+Q. Real keys on a private Xvfb (xdotool through XTEST, as a
keyboard): Ctrl goes down at the display before vitscope starts, then Q.

  held:    Ctrl down before the window opened, then Q: the window quits (0).
  control: no Ctrl, Q: the Questions tab shows (Q's own shortcut) and the
           window stays open: the key reaches the window, and only Ctrl
           makes it quit."""
import os
import subprocess
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402
from window_support import DEADLINE, Window, run_window_tests  # noqa: E402


def display_keys(xvfb, *args):
    """Keys at the display (XTEST), as a keyboard presses them, not sent to one window."""
    subprocess.run(["xdotool", *args], env=xvfb.env(), check=True, capture_output=True, timeout=30)


def open_window(xvfb, tmp):
    w = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp)
    w.wait_for(lambda s: s["ready"] and not s["busy"] and s["tab"] != "questions", timeout=300, what="the photo")
    return w


def test_ctrl_held_before_the_window_opened(xvfb, tmp):
    display_keys(xvfb, "keydown", "ctrl")
    try:
        w = open_window(xvfb, tmp)
        try:
            w.window_id()  # shown, and so given the keyboard
            display_keys(xvfb, "key", "q")
            code = w.proc.wait(timeout=DEADLINE)
            assert code == 0, f"exit code {code}: {w.output()[-600:]}"
        except subprocess.TimeoutExpired:
            raise AssertionError("Ctrl (held before the window opened) + Q did not quit")
        finally:
            w.close()
    finally:
        display_keys(xvfb, "keyup", "ctrl")


def test_q_alone_does_not_quit(xvfb, tmp):
    w = open_window(xvfb, tmp)
    try:
        w.window_id()
        display_keys(xvfb, "key", "q")
        w.wait_for(lambda s: s["tab"] == "questions", what="Q's Questions tab")
        assert w.proc.poll() is None, f"Q alone closed the window ({w.proc.returncode})"
    finally:
        w.close()


if __name__ == "__main__":
    sys.exit(run_window_tests(Tally(), [test_ctrl_held_before_the_window_opened, test_q_alone_does_not_quit],
                              "vitscope_modifier_"))
