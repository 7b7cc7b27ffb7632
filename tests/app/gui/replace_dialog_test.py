#!/usr/bin/env python3
"""The window's "Replace the file?" question with real clicks and keys (issue 24).

The window's own exports pick a free name; the question comes when a file of
that name appears between the choice and the write. A Questions page's Export
figure button leaves that gap open while the page's experiments run (the heads
page's ablation table: 37 forward passes, a few seconds): each test
clicks the button for real (xdotool, at the spot the state file reports),
waits until the state file names the export, and puts a file of that name
there itself, as another program would. Then:

  keep:      the question shows (state `replace_question`, and in an F12
             screenshot the dialog's buttons, over a veiled window); a real click
             on "Keep it" leaves the file byte for byte;
  escape:    Esc counts as "Keep it"; then Ctrl+E where the figure's name is a
             dangling symlink: the next free name, no question, the link kept;
  replace:   a real click on "Replace" writes the figure over it (a PNG of the
             page, not the bytes put there);
  photo, model:  while the question shows, the file is swapped for a symlink
             to the open photo, or to the open model's config.json: "Replace"
             is refused with one line naming the protected file, and the photo
             and the model's files are unchanged.

One window per case (the experiments' results are kept for the photo on
show, so a second export of the page would write at once)."""
import hashlib
import os
import shutil
import subprocess
import sys
import time

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402
from window_support import DEADLINE, Window, read_state, run_window_tests  # noqa: E402

PAGE = "heads"
T0 = time.monotonic()


def log(what):
    """Progress with the time since the start, on stderr (where a slow CI run spends its time)."""
    print(f"  {time.monotonic() - T0:6.1f} s  {what}", file=sys.stderr, flush=True)
PLANTED = b"not a figure: a file another program wrote meanwhile\n"


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def setup(tmp):
    """The photo and a model folder of our own in tmp (config.json copied, the weights linked):
    a bug that wrote over them would not reach the shared files."""
    photo = os.path.join(tmp, "photos", "dog.jpg")
    os.makedirs(os.path.dirname(photo))
    shutil.copyfile(DOG, photo)
    model = os.path.join(tmp, "model")
    os.makedirs(model)
    for name in os.listdir(MODEL):
        src = os.path.join(MODEL, name)
        if name == "config.json":
            shutil.copyfile(src, os.path.join(model, name))
        else:
            os.symlink(os.path.realpath(src), os.path.join(model, name))
    exports = os.path.join(tmp, "exports")
    os.makedirs(exports)
    return photo, model, exports


def start(xvfb, tmp):
    photo, model, exports = setup(tmp)
    script = os.path.join(tmp, "script.txt")
    with open(script, "w") as f:
        f.write(f"select 5,3\nlayer 3\nhead 2\nquestion {PAGE}\nwait\nframes 3\n")
    # The export folder is the working folder ('.', no settings file).
    w = Window(xvfb, BIN, [photo, "--model", model, "--script", script], exports)
    return w, photo, model, exports


def settled(s):
    return s["ready"] and not s["busy"] and s["tab"] == "questions" and s["question"] == PAGE and \
        "export figure" in s["page_export_button"] and not s["exporting"]


def ask(w, exports):
    """Clicks the page's Export figure; once the window has chosen the name, a file of that name appears.
    Returns (the state with the question showing, the path)."""
    state = w.wait_for(settled, timeout=300, what="the heads page")
    log("the heads page")
    assert not state["replace_question"], state["replace_question"]
    win = w.window_id()
    x, y = state["page_export_button"]["export figure"]
    w.click(x, y)
    deadline = time.time() + DEADLINE
    name = None
    while time.time() < deadline and not name:  # polled often: the experiments take a second or two
        s = read_state(w.state_file)
        if s and s["exporting"]:
            name = s["exporting"]
        else:
            time.sleep(0.01)
    assert name, "the click started no export"
    log("exporting " + name)
    path = os.path.join(exports, name)
    try:
        with open(path, "xb") as f:  # 'x': had the window written it already, this fails
            f.write(PLANTED)
    except FileExistsError:
        raise AssertionError(f"the window wrote {name} before the test could put a file there: the page's "
                             "experiments ran faster than the state file could be read (choose a slower page)")
    state = w.wait_for(lambda s: (s["replace_question"] and len(s["replace_buttons"]) == 2) or s["last_error"],
                       timeout=300, what="the replace question")
    assert not state["last_error"], "no question but an error: " + state["last_error"]
    assert os.path.samefile(os.path.join(exports, state["replace_question"]), path), (state["replace_question"], path)
    assert not state["exporting"], state["exporting"]
    log("the question")
    return state, path, win


def answered(w):
    # (The experiments ran before the question: whatever follows the answer takes a frame or two.)
    return w.wait_for(lambda s: not s["replace_question"] and not s["exporting"] and not s["replace_buttons"],
                      what="the question to be answered")


def quit_window(w):
    assert w.proc.poll() is None, f"vitscope exited ({w.proc.returncode}) before Ctrl+Q: {w.output()[-600:]}"
    w.press_ctrl_q()
    try:
        code = w.proc.wait(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        s = read_state(w.state_file) or {}
        raise AssertionError(f"Ctrl+Q: still running after {DEADLINE} s; status {s.get('status')!r}, busy {s.get('busy')}, "
                             f"experiment {s.get('experiment_running')!r}, exporting {s.get('exporting')!r}; "
                             f"output: {w.output()[-600:]}")
    assert code == 0, f"exit code {code}: {w.output()}"


def test_keep_it(xvfb, tmp):
    w, photo, model, exports = start(xvfb, tmp)
    try:
        state = w.wait_for(settled, timeout=300, what="the heads page")
        win = w.window_id()
        w.xvfb.park_pointer()
        w.pause(0.3)
        plain = w.f12()
        state, path, win = ask(w, exports)
        w.xvfb.park_pointer()
        w.pause(0.3)
        asked = w.f12()  # F12 works while the question shows
        # The screenshot shows the dialog: its buttons where the state file says, over a veiled window.
        a = np.asarray(Image.open(asked).convert("RGB"), dtype=np.float64)
        b = np.asarray(Image.open(plain).convert("RGB"), dtype=np.float64)
        for name, (x, y) in state["replace_buttons"].items():
            x, y = int(x), int(y)
            patch_a, patch_b = a[y - 4:y + 5, x - 20:x + 21], b[y - 4:y + 5, x - 20:x + 21]
            assert np.abs(patch_a - patch_b).mean() > 10, f"no {name} button drawn at {x},{y}"
        # The modal's veil over the rest of the window (lighter on the dark theme): the menu bar, away from the dialog.
        corner_a, corner_b = a[:60, :200].mean(), b[:60, :200].mean()
        assert abs(corner_a - corner_b) > 3, f"no veil over the window behind the question ({corner_a:.1f} vs {corner_b:.1f})"
        assert open(path, "rb").read() == PLANTED
        w.click(*state["replace_buttons"]["keep"])
        state = answered(w)
        w.pause(0.5)  # nothing is written later either
        assert open(path, "rb").read() == PLANTED, "Keep it changed the file"
        assert not state["last_error"], state["last_error"]
        quit_window(w)
    finally:
        w.close()


def test_escape_keeps_it(xvfb, tmp):
    w, photo, model, exports = start(xvfb, tmp)
    try:
        state, path, win = ask(w, exports)
        w.xvfb.park_pointer()
        w.pause(0.3)
        w.xdotool("key", "--window", win, "Escape")
        answered(w)
        w.pause(0.5)
        assert open(path, "rb").read() == PLANTED, "Esc changed the file"
        # Ctrl+E (a real key) where its name is a symlink to nothing: a taken name, so the figure goes to
        # the next free one, without a question, and the link stays as it was.
        link = os.path.join(exports, "dog_L3_H2_r5c3.png")
        os.symlink("nowhere.png", link)
        w.xdotool("key", "--window", win, "ctrl+e")
        state = w.wait_for(lambda s: s["status"].startswith("Saved figure") or s["replace_question"] or s["last_error"],
                           what="Ctrl+E's figure")
        assert not state["replace_question"] and not state["last_error"], (state["replace_question"], state["last_error"])
        assert os.path.samefile(state["status"].split(" ", 2)[2], os.path.join(exports, "dog_L3_H2_r5c3_2.png")), state["status"]
        assert os.path.islink(link) and os.readlink(link) == "nowhere.png", "the dangling link was replaced"
        quit_window(w)
    finally:
        w.close()


def test_replace(xvfb, tmp):
    w, photo, model, exports = start(xvfb, tmp)
    try:
        state, path, win = ask(w, exports)
        w.click(*state["replace_buttons"]["replace"])
        answered(w)
        state = w.wait_for(lambda s: s["status"].startswith("Saved figure"), timeout=300, what="the figure")
        assert not state["last_error"], state["last_error"]
        data = open(path, "rb").read()
        assert data != PLANTED and data.startswith(b"\x89PNG\r\n\x1a\n"), "Replace did not write the figure"
        png = Image.open(path)
        png.load()
        assert png.text.get("vitscope:question") == PAGE, png.text
        assert os.path.samefile(state["status"].split(" ", 2)[2], path), state["status"]
        # The one file asked about, and no other name in the folder (no figure beside it, no temporary).
        figures = [n for n in os.listdir(exports) if not n.startswith("state.json") and "_window" not in n]
        assert figures == [os.path.basename(path)], figures
        quit_window(w)
    finally:
        w.close()


def protected_case(xvfb, tmp, target_of):
    """While the question shows, the file becomes a link to a protected file; Replace must refuse."""
    w, photo, model, exports = start(xvfb, tmp)
    try:
        target = target_of(photo, model)
        before = {p: digest(p) for p in [photo, os.path.join(model, "config.json")]}
        state, path, win = ask(w, exports)
        os.remove(path)
        os.symlink(target, path)
        w.click(*state["replace_buttons"]["replace"])
        answered(w)
        state = w.wait_for(lambda s: s["last_error"] or s["status"].startswith("Saved figure"), timeout=300,
                           what="the refusal")
        error = state["last_error"]
        assert error, f"Replace wrote over a link to a protected file: {state['status']}"
        # One line naming what is protected: the photo, or the model's folder.
        assert "\n" not in error and "never writes over" in error, error
        assert os.path.basename(target) in error or os.path.dirname(target) in error, error
        assert after_digests(before) == before, "a protected file was written"
        assert os.path.islink(path) and os.readlink(path) == target, "the link was replaced"
        quit_window(w)
        assert after_digests(before) == before, "a protected file was written"
    finally:
        w.close()


def after_digests(before):
    return {p: digest(p) for p in before}


def test_replace_never_the_photo(xvfb, tmp):
    protected_case(xvfb, tmp, lambda photo, model: photo)


def test_replace_never_the_models_files(xvfb, tmp):
    protected_case(xvfb, tmp, lambda photo, model: os.path.join(model, "config.json"))


if __name__ == "__main__":
    tests = [test_keep_it, test_escape_keeps_it, test_replace, test_replace_never_the_photo,
             test_replace_never_the_models_files]
    only = os.environ.get("REPLACE_TESTS")  # e.g. REPLACE_TESTS=test_replace,test_keep_it
    if only:
        tests = [t for t in tests if t.__name__ in only.split(",")]
    sys.exit(run_window_tests(Tally(), tests, "vitscope_replace_"))
