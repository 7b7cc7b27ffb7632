"""The explorer window, driven for real on a private Xvfb display:
  (a) scripted screenshots have the window's size; with one opacity the overlay
      is brightest where `vitscope attention` says the weights are highest, and
      with fade (the default) weak patches show the bare photo, strong ones not;
  (b) real X mouse clicks and key presses (xdotool) change the selection;
  (c) opening a broken image or model keeps the previous one and shows the error;
  (d) figure export and F12 screenshots get descriptive names and never overwrite, and
      the window's figure equals `vitscope export`'s for the same selection.
Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR; prints "N passed, M failed, K skipped"."""
import csv
import io
import os
import subprocess
import sys
import tempfile
import traceback

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402
from window_support import Window, Xvfb, patch_box, patch_centre, read_state  # noqa: E402

LAYER, HEAD, ROW, COL = 8, 1, 5, 7


def trace_weights(layer, head, row, col):
    """The weights of the query's row from the command line: {(row, col): weight} over patches."""
    out = subprocess.run([BIN, "attention", DOG, "--layer", str(layer), "--head", str(head), "--patch", f"{row},{col}",
                          "--model", MODEL], check=True, capture_output=True, text=True, timeout=300).stdout
    return {(int(r["row"]), int(r["col"])): float(r["weight"]) for r in csv.DictReader(io.StringIO(out))
            if int(r["row"]) >= 0}


def luminance(pixels, box):
    x0, y0, x1, y1 = box
    rgb = pixels[y0:y1, x0:x1, :3].astype(np.float64) / 255.0
    return float((0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]).mean())


def scripted_window(xvfb, tmp, name, commands, *options):
    """The window on dog.jpg and the default model, running `commands` from tmp/name.txt."""
    script = os.path.join(tmp, name + ".txt")
    with open(script, "w") as f:
        f.write(commands)
    return Window(xvfb, BIN, [DOG, "--model", MODEL, *options, "--script", script], tmp)


def test_scripted_screenshot(xvfb, tmp):
    xvfb.park_pointer()  # no hover outline on the photo
    shots = {name: os.path.join(tmp, name + ".png") for name in ("fade", "flat", "photo")}
    commands = (f"frames 3\nscreenshot {shots['fade']}\n"                        # the default style: fade on
                f"style fade=off\nframes 3\nscreenshot {shots['flat']}\n"      # one opacity for all patches
                f"style opacity=0\nframes 3\nscreenshot {shots['photo']}\n")   # the photo alone
    w = scripted_window(xvfb, tmp, "shots", commands, "--select", f"{ROW},{COL}", "--layer", str(LAYER),
                        "--head", str(HEAD), "--quit")
    try:
        assert w.proc.wait(timeout=300) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    state = read_state(w.state_file)
    assert (state["layer"], state["head"], state["row"], state["col"]) == (LAYER, HEAD, ROW, COL), state
    assert state["last_error"] == "", state["last_error"]
    px = {}
    for name, path in shots.items():
        img = Image.open(path)
        assert img.size == (1920, 1080), img.size
        px[name] = np.asarray(img.convert("RGB"))

    weights = trace_weights(LAYER, HEAD, ROW, COL)
    grid = state["grid"]
    assert len(weights) == grid * grid
    boxes = {rc: patch_box(state, *rc) for rc in weights}
    ranked = sorted(weights, key=weights.get, reverse=True)

    # Fade off: viridis runs from dark purple (0) to bright yellow (the row's
    # largest weight), so the most attended patches must be among the brightest.
    lum = {rc: luminance(px["flat"], box) for rc, box in boxes.items()}
    brightest = sorted(lum.values(), reverse=True)
    assert lum[ranked[0]] >= brightest[max(0, len(brightest) // 20 - 1)], \
        f"highest-weight patch {ranked[0]} has luminance {lum[ranked[0]]:.3f}; top 5% start at {brightest[len(brightest) // 20 - 1]:.3f}"
    top = np.mean([lum[rc] for rc in ranked[:5]])
    rest = np.mean([lum[rc] for rc in ranked[len(ranked) // 2:]])
    assert top > rest + 0.1, f"top-5 weight patches {top:.3f} vs the lower half {rest:.3f}"

    # Fade on: a patch departs from the bare photo in proportion to its weight,
    # so the weakest half looks like the photo and the strongest patch does not.
    def change(rc):
        x0, y0, x1, y1 = boxes[rc]
        a, b = (px[k][y0:y1, x0:x1].astype(np.float64) / 255 for k in ("fade", "photo"))
        return float(np.abs(a - b).mean())
    weak = np.mean([change(rc) for rc in ranked[len(ranked) // 2:]])
    strong = change(ranked[0])
    assert weak < 0.05 and strong > 4 * weak, f"fade: weakest half changed by {weak:.3f}, strongest patch by {strong:.3f}"


def test_mouse_and_keys(xvfb, tmp):
    w = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp)
    try:
        state = w.wait_for(lambda s: s.get("ready"), what="the first forward pass")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        for row, col in [(3, 9), (10, 2)]:
            x, y = patch_centre(state, row, col)
            w.xdotool("mousemove", "--window", win, str(int(x)), str(int(y)))
            w.xdotool("click", "1")
            state = w.wait_for(lambda s: (s["row"], s["col"]) == (row, col), timeout=30,
                               what=f"the click on patch ({row}, {col}) to select it")
            assert state["query_token"] == 1 + row * state["grid"] + col
        w.xdotool("mousemove", "--window", win, "5", "5")  # off the photo: no hover marks
        w.xdotool("key", "Right")
        w.wait_for(lambda s: (s["row"], s["col"]) == (10, 3), timeout=30, what="the Right arrow to move the query")
        w.xdotool("key", "Next")  # PageDown
        w.wait_for(lambda s: s["layer"] == 1, timeout=30, what="PageDown to go to layer 1")
        w.xdotool("key", "c")
        w.wait_for(lambda s: s["query_token"] == 0 and s["row"] == -1, timeout=30, what="C to make CLS the query")
    finally:
        w.close()


def test_broken_files_keep_the_previous(xvfb, tmp):
    garbage = os.path.join(tmp, "broken.jpg")
    with open(garbage, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 this is not really a JPEG" * 10)
    truncated = os.path.join(tmp, "truncated.jpg")
    with open(DOG, "rb") as f, open(truncated, "wb") as g:
        g.write(f.read()[:3000])
    shot = os.path.join(tmp, "broken.png")
    w = scripted_window(xvfb, tmp, "broken", f"select 4,4\nopen-image {garbage}\nscreenshot {shot}\n")
    try:
        state = w.wait_for(lambda s: s.get("ready") and s["last_error"], what="the broken image's error")
        assert state["image"] == DOG, f"the photo changed to {state['image']}"
        assert "broken.jpg" in state["last_error"], state["last_error"]
        assert (state["row"], state["col"]) == (4, 4), "the selection was lost"
        assert state["model"] == MODEL
        w.wait_for(lambda s: os.path.exists(shot), timeout=30, what="the screenshot after the error")
        # The same for a truncated photo and a model folder that is not one, through real key presses:
        # Ctrl+O opens the in-app browser, the path is typed, Enter opens it.
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        w.xdotool("key", "Escape")  # nothing pinned: harmless
        w.xdotool("key", "ctrl+o")
        w.wait_for(lambda s: s["browser"] == "image" and s["text_input"], timeout=30,
                   what="the file browser's path field to take the keyboard")
        w.xdotool("key", "ctrl+a")
        w.xdotool("type", "--delay", "5", truncated)
        w.xdotool("key", "Return")
        state = w.wait_for(lambda s: "truncated.jpg" in s["last_error"], timeout=60, what="the truncated image's error")
        assert state["image"] == DOG and state["ready"], state
    finally:
        w.close()

    w = scripted_window(xvfb, tmp, "badmodel", f"open-model {tmp}\nquit\n")
    try:
        assert w.proc.wait(timeout=300) == 0, w.output()
        state = read_state(w.state_file)
        assert state["model"] == MODEL and state["ready"], state
        assert "model" in state["last_error"].lower(), state["last_error"]
    finally:
        w.close()


def test_export_names(xvfb, tmp):
    figure = os.path.join(tmp, "figure.png")
    w = scripted_window(xvfb, tmp, "export", f"select {ROW},{COL}\nlayer {LAYER}\nhead {HEAD}\nexport {figure}\n")
    try:
        w.wait_for(lambda s: s.get("ready") and (s["row"], s["col"], s["layer"]) == (ROW, COL, LAYER))
        w.wait_for(lambda s: os.path.exists(figure), timeout=60, what="the exported figure")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        expected = [os.path.join(tmp, f"dog_L{LAYER}_H{HEAD}_r{ROW}c{COL}_window{n}.png") for n in ("", "_2")]
        for path in expected:
            w.xdotool("key", "F12")
            w.wait_for(lambda s: os.path.exists(path), timeout=60, what=os.path.basename(path))
        w.xdotool("key", "ctrl+e")
        default_figure = os.path.join(tmp, f"dog_L{LAYER}_H{HEAD}_r{ROW}c{COL}.png")
        w.wait_for(lambda s: os.path.exists(default_figure), timeout=60, what=os.path.basename(default_figure))
        assert Image.open(expected[0]).size == (1920, 1080)
        assert Image.open(figure).size[0] > 0
    finally:
        w.close()
    # The command line's figure of the same selection is the same picture, caption included.
    cli_figure = os.path.join(tmp, "cli.png")
    subprocess.run([BIN, "export", DOG, "--layer", str(LAYER), "--head", str(HEAD), "--patch", f"{ROW},{COL}",
                    "--model", MODEL, "-o", cli_figure], check=True, capture_output=True, timeout=300)
    window_png, cli_png = Image.open(figure), Image.open(cli_figure)
    assert window_png.text.get("Description") == cli_png.text.get("Description"), (window_png.text, cli_png.text)
    assert window_png.text.get("Title") == cli_png.text.get("Title"), (window_png.text, cli_png.text)
    assert np.array_equal(np.asarray(window_png), np.asarray(cli_png)), "the window's and the command line's figures differ"


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    tests = [test_scripted_screenshot, test_mouse_and_keys, test_broken_files_keep_the_previous, test_export_names]
    xvfb = Xvfb()
    try:
        for t in tests:
            with tempfile.TemporaryDirectory(prefix="vitscope_window_") as tmp:
                try:
                    t(xvfb, tmp)
                    tally.check(t.__name__, True)
                except Exception:
                    tally.check(t.__name__, False)
                    traceback.print_exc()
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
