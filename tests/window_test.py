"""The explorer window, driven for real on a private Xvfb display:
  (a) scripted screenshots have the window's size; with one opacity the overlay
      is brightest where `vitscope attention` says the weights are highest, and
      with fade (the default) weak patches show the bare photo, strong ones not;
  (b) real X mouse clicks and key presses (xdotool) change the selection;
  (c) opening a broken image or model keeps the previous one and shows the error;
  (d) figure export and F12 screenshots get descriptive names and never overwrite, and
      the window's figure equals `vitscope export`'s for the same selection;
  (e) `size 448` runs the window at another input size (a 28 x 28 grid, the photo
      agreeing with `vitscope attention --size 448`);
  (f) the Questions pages open from a script and draw; a click on a dot of the heads
      page's distance plot selects that layer and head.
Names of tests as arguments run only those.
Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR; prints "N passed, M failed"."""
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


def trace_weights(layer, head, row, col, size=None):
    """The weights of the query's row from the command line: {(row, col): weight} over patches."""
    extra = ["--size", str(size)] if size else []
    out = subprocess.run([BIN, "attention", DOG, "--layer", str(layer), "--head", str(head), "--patch", f"{row},{col}",
                          "--model", MODEL, *extra], check=True, capture_output=True, text=True, timeout=300).stdout
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


def test_scripted_screenshot(xvfb, tmp, size=None, row=ROW, col=COL):
    """At the model's own size, or (size) after the script's `size` command changed the input for the window."""
    xvfb.park_pointer()  # no hover outline on the photo
    shots = {name: os.path.join(tmp, name + ".png") for name in ("fade", "flat", "photo")}
    commands = ((f"size {size}\nselect {row},{col}\nlayer {LAYER}\nhead {HEAD}\n" if size else "") +
                f"frames 3\nscreenshot {shots['fade']}\n"                        # the default style: fade on
                f"style fade=off\nframes 3\nscreenshot {shots['flat']}\n"      # one opacity for all patches
                f"style opacity=0\nframes 3\nscreenshot {shots['photo']}\n")   # the photo alone
    w = scripted_window(xvfb, tmp, "shots", commands, "--select", f"{ROW},{COL}", "--layer", str(LAYER),
                        "--head", str(HEAD), "--quit")
    try:
        assert w.proc.wait(timeout=300) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    state = read_state(w.state_file)
    assert (state["layer"], state["head"], state["row"], state["col"]) == (LAYER, HEAD, row, col), state
    assert state["last_error"] == "", state["last_error"]
    if size:
        assert (state["input_size"], state["grid"], state["tokens"]) == (size, size // 16, 1 + (size // 16) ** 2), state
    px = {}
    for name, path in shots.items():
        img = Image.open(path)
        assert img.size == (1920, 1080), img.size
        px[name] = np.asarray(img.convert("RGB"))

    weights = trace_weights(LAYER, HEAD, row, col, size)
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


def test_input_size(xvfb, tmp):
    """`size 448` re-runs the model on a 28 x 28 grid; the photo shows what `vitscope attention --size 448` computes.
    A size whose trace exceeds the memory budget is refused with the reason, and the window keeps what it had."""
    test_scripted_screenshot(xvfb, tmp, size=448, row=12, col=17)
    os.environ["VITSCOPE_MEMORY_BUDGET"] = "300M"  # ViT-Ti at 640 px: 0.42 GiB; at 224 px far less
    try:
        w = scripted_window(xvfb, tmp, "too_large", "select 4,4\nsize 640\nquit\n")
    finally:
        del os.environ["VITSCOPE_MEMORY_BUDGET"]
    try:
        assert w.proc.wait(timeout=300) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    state = read_state(w.state_file)
    assert "memory budget" in state["last_error"] and "640" in state["last_error"], state["last_error"]
    assert (state["input_size"], state["grid"], state["row"], state["col"]) == (224, 14, 4, 4), state
    assert state["ready"], state


PAGES = ("heads", "quadratic", "cls")


def page_region(pixels):
    """The Questions page: the right-hand panel right of the list of questions, below the tab bar."""
    h, w = pixels.shape[:2]
    return pixels[int(0.15 * h):int(0.95 * h), int(0.745 * w):w - 10]


def test_question_pages(xvfb, tmp):
    """Each page opens from the script, reports itself in the state file and draws something of its own."""
    xvfb.park_pointer()
    regions = {}
    for name in ("math",) + PAGES:
        shot = os.path.join(tmp, name + ".png")
        opening = "tab math" if name == "math" else f"question {name}\nwait"
        w = scripted_window(xvfb, tmp, name, f"{opening}\nframes 5\nscreenshot {shot}\nquit\n")
        try:
            assert w.proc.wait(timeout=300) == 0, f"exit code {w.proc.returncode}: {w.output()}"
        finally:
            w.close()
        state = read_state(w.state_file)
        assert state["last_error"] == "" and state["ready"], state
        if name == "math":
            assert state["tab"] == "math", state
        else:
            assert (state["tab"], state["question"]) == ("questions", name), state
        targets = state["page_targets"]
        if name == "heads":  # a dot per layer and head of ViT-Ti, inside the window
            assert len(targets) == 12 * 3 and all(0 < x < 1920 and 0 < y < 1080 for x, y in targets.values()), targets
        else:
            assert targets == {}, targets
        pixels = np.asarray(Image.open(shot).convert("RGB")).astype(np.float64)
        assert pixels.shape == (1080, 1920, 3), pixels.shape
        regions[name] = page_region(pixels)
    background = np.median(regions["math"].reshape(-1, 3), axis=0)
    for name in PAGES:
        inked = float((np.abs(regions[name] - background).sum(axis=2) > 40).mean())
        assert inked > 0.03, f"the {name} page is nearly empty: {inked:.3f} of its pixels differ from the background"
        for other in ("math",) + PAGES:
            if other != name:
                diff = float(np.abs(regions[name] - regions[other]).mean())
                assert diff > 2, f"the {name} page looks like the {other} one (mean difference {diff:.2f})"


def test_click_distance_dot(xvfb, tmp):
    """Clicking a head's dot on the heads page's distance plot selects that layer and head."""
    w = scripted_window(xvfb, tmp, "dot", "layer 2\nhead 0\nquestion heads\n")
    try:
        state = w.wait_for(lambda s: s.get("ready") and s["question"] == "heads" and s["page_targets"],
                           what="the heads page's distance dots")
        assert (state["layer"], state["head"]) == (2, 0), state
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        for layer, head in [(9, 2), (4, 1)]:
            x, y = state["page_targets"][f"L{layer} H{head}"]
            w.xdotool("mousemove", "--window", win, str(int(round(x))), str(int(round(y))))
            w.xdotool("click", "1")
            state = w.wait_for(lambda s: (s["layer"], s["head"]) == (layer, head), timeout=30,
                               what=f"the click on the dot of layer {layer}, head {head}")
            assert state["map"] == "head" and state["tab"] == "questions", state
    finally:
        w.close()


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
    if not tally.check(f"the default model at {MODEL}", os.path.isdir(MODEL), "set VITSCOPE_MODEL or VITSCOPE_MODEL_MIRROR"):
        return tally.finish()
    tests = [test_scripted_screenshot, test_mouse_and_keys, test_broken_files_keep_the_previous, test_export_names,
             test_input_size, test_question_pages, test_click_distance_dot]
    if sys.argv[1:]:  # some of them, by name
        tests = [t for t in tests if t.__name__ in sys.argv[1:]]
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
