"""The explorer window, driven for real on a private Xvfb display:
  (a) scripted screenshots have the window's size; with one opacity the overlay
      is brightest where `vitscope attention` says the weights are highest, and
      with fade (the default) weak patches show the bare photo, strong ones not;
  (b) real X mouse clicks and key presses (xdotool) change the selection;
  (c) opening a broken image or model keeps the previous one and shows the error;
  (d) figure export and F12 screenshots get descriptive names and never overwrite, and
      the window's figure equals `vitscope export`'s for the same selection;
  (e) a Questions page's figure likewise equals `vitscope explain -o`'s;
  (f) File > Get a model… (script `get-model`) downloads the default model from a
      file:// mirror into $XDG_DATA_HOME/vitscope/models and opens it; a transfer
      that stops half-way (an HTTP mirror on 127.0.0.1), a 404 and a cancelled
      download (Escape in the dialog) leave no partial folder and keep the open model;
      two windows getting one model at once: the second waits for the first, both open it.
  (g) the Questions pages on what attention is (global, dynamic, permutation, position,
      cross, mlp) open from a script and draw something of their own; a second photo
      (`compare PATH`) runs beside the first, and a broken one changes nothing.
  (h) `size 448` runs the window at another input size (a 28 x 28 grid, the photo
      agreeing with `vitscope attention --size 448`);
  (i) the Questions pages open from a script and draw; a click on a dot of the heads
      page's distance plot selects that layer and head.
Names of tests as arguments (or $VITSCOPE_WINDOW_TESTS, comma-separated) run only those.
Run by ctest with VITSCOPE_BIN and VITSCOPE_SOURCE_DIR; prints "N passed, M failed, K skipped"."""
import csv
import filecmp
import io
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from loopback_mirror import LoopbackMirror  # noqa: E402
from script_support import BIN, CHELSEA, DOG, MODEL, MODEL_NAME, SRC, Tally  # noqa: E402
from window_support import DEADLINE, Window, run_window_tests, patch_box, patch_centre, read_state  # noqa: E402

LAYER, HEAD, ROW, COL = 8, 1, 5, 7
PROPERTY_PAGES = ["global", "dynamic", "permutation", "position", "cross", "mlp"]


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


def scripted_window(xvfb, tmp, name, commands, *options, env=None, size="1920x1080"):
    """The window on dog.jpg and the default model, running `commands` from tmp/name.txt."""
    script = os.path.join(tmp, name + ".txt")
    with open(script, "w") as f:
        f.write(commands)
    return Window(xvfb, BIN, [DOG, "--model", MODEL, *options, "--script", script], tmp, env=env, size=size)


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


PAGES = ("heads", "quadratic", "cls", "relevance")


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
            # The relevance page runs 1 backward and 286 forward passes on one core: minutes on a busy CI machine.
            assert w.proc.wait(timeout=600) == 0, f"exit code {w.proc.returncode}: {w.output()}"
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
        elif name == "relevance":  # the top-5 classes to explain
            assert len(targets) == 5 and all(k.startswith("class ") for k in targets), targets
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
            state = w.wait_still("page_targets")  # the page lays itself out again for the head it shows
            x, y = state["page_targets"][f"L{layer} H{head}"]
            w.click(x, y)
            state = w.wait_for(lambda s: (s["layer"], s["head"]) == (layer, head),
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
            state = w.wait_for(lambda s: (s["row"], s["col"]) == (row, col),
                               what=f"the click on patch ({row}, {col}) to select it")
            assert state["query"] == 1 + row * state["grid"] + col
        w.xdotool("mousemove", "--window", win, "5", "5")  # off the photo: no hover marks
        w.xdotool("key", "Right")
        w.wait_for(lambda s: (s["row"], s["col"]) == (10, 3), what="the Right arrow to move the query")
        w.xdotool("key", "Next")  # PageDown
        w.wait_for(lambda s: s["layer"] == 1, what="PageDown to go to layer 1")
        w.xdotool("key", "c")
        w.wait_for(lambda s: s["query"] == 0 and s["row"] == -1, what="C to make CLS the query")
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
        w.wait_for(lambda s: os.path.exists(shot), what="the screenshot after the error")
        # The same for a truncated photo and a model folder that is not one, through real key presses:
        # Ctrl+O opens the in-app browser, the path is typed, Enter opens it.
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        w.xdotool("key", "Escape")  # nothing pinned: harmless
        w.xdotool("key", "ctrl+o")
        w.wait_for(lambda s: s["browser"] == "image" and s["text_input"],
                   what="the file browser's path field to take the keyboard")
        w.xdotool("key", "ctrl+a")
        w.xdotool("type", "--delay", "5", truncated)
        w.xdotool("key", "Return")
        state = w.wait_for(lambda s: "truncated.jpg" in s["last_error"], what="the truncated image's error")
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
        w.wait_for(lambda s: os.path.exists(figure), what="the exported figure")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        expected = [os.path.join(tmp, f"dog_L{LAYER}_H{HEAD}_r{ROW}c{COL}_window{n}.png") for n in ("", "_2")]
        for path in expected:
            w.xdotool("key", "F12")
            w.wait_for(lambda s: os.path.exists(path), what=os.path.basename(path))
        w.xdotool("key", "ctrl+e")
        default_figure = os.path.join(tmp, f"dog_L{LAYER}_H{HEAD}_r{ROW}c{COL}.png")
        w.wait_for(lambda s: os.path.exists(default_figure), what=os.path.basename(default_figure))
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


def test_question_figure(xvfb, tmp):
    """A Questions page's Export figure: the page's experiments run first, names that describe the page and
    never overwrite, and the same PNG as `vitscope explain -o` for the same selection."""
    figure = os.path.join(tmp, "page.png")
    w = scripted_window(xvfb, tmp, "page", f"select {ROW},{COL}\nlayer {LAYER}\nhead {HEAD}\nquestion scaling\n"
                        f"export-question {figure}\nexport-question\nexport-question\n")
    named = [os.path.join(tmp, f"dog_L{LAYER}_H{HEAD}_r{ROW}c{COL}_scaling{n}.png") for n in ("", "_2")]
    try:
        for path in [figure, *named]:
            w.wait_for(lambda s: os.path.exists(path), timeout=300, what=os.path.basename(path))
        state = w.wait_for(lambda s: s["exporting"] == "", what="the exports to finish")
        assert state["tab"] == "questions" and state["question"] == "scaling", state
        assert not state["last_error"], state["last_error"]
        # The figure ran the page's experiment on the window's runner, as its Run button would.
        assert any(k.startswith("dot-product-control") for k in state["experiment_results"]), state
    finally:
        w.close()
    cli_figure = os.path.join(tmp, "cli.png")
    subprocess.run([BIN, "explain", DOG, "--question", "scaling", "--layer", str(LAYER), "--head", str(HEAD),
                    "--patch", f"{ROW},{COL}", "--model", MODEL, "-o", cli_figure], check=True, capture_output=True,
                   timeout=600)
    window_png, cli_png = Image.open(figure), Image.open(cli_figure)
    for key in ("Title", "Description", "vitscope:question"):
        assert window_png.text.get(key) == cli_png.text.get(key), (key, window_png.text, cli_png.text)
    assert np.array_equal(np.asarray(window_png), np.asarray(cli_png)), "the window's and the command line's page figures differ"
    assert np.array_equal(np.asarray(window_png), np.asarray(Image.open(named[1]))), "two exports of one state differ"


def test_export_lesson(xvfb, tmp):
    """File > Export lesson page (the script's export-lesson): the same page as `vitscope lesson` for the same
    photo, model and selection, byte for byte; without a path, a name that describes it, never overwriting."""
    page = os.path.join(tmp, "lesson.html")
    w = scripted_window(xvfb, tmp, "lesson", f"select 5,3\nlayer 3\nhead 2\nexport-lesson {page}\nexport-lesson\nexport-lesson\n")
    named = [os.path.join(tmp, f"dog_L3_H2_r5c3_lesson{n}.html") for n in ("", "_2")]
    try:
        for path in [page, *named]:
            w.wait_for(lambda s: os.path.exists(path), timeout=300, what=os.path.basename(path))
        state = w.wait_for(lambda s: s["ready"], what="the window")
        assert not state["last_error"], state["last_error"]
    finally:
        w.close()
    cli_page = os.path.join(tmp, "cli.html")
    subprocess.run([BIN, "lesson", DOG, "--layer", "3", "--head", "2", "--patch", "5,3", "--model", MODEL, "-o", cli_page],
                   check=True, capture_output=True, timeout=600)
    window_bytes = open(page, "rb").read()
    assert window_bytes == open(cli_page, "rb").read(), "the window's and the command line's lesson pages differ"
    assert window_bytes == open(named[1], "rb").read(), "two exports of one state differ"


def model_folders(models):
    """What a models folder holds but the downloads' lock files (.FOLDER.lock, left for the next download)."""
    return sorted(n for n in os.listdir(models) if not n.endswith(".lock")) if os.path.isdir(models) else []


def test_get_model(xvfb, tmp):
    # A mirror with the default model in it, served as a file:// URL; downloads go to a fresh XDG_DATA_HOME.
    served = os.path.join(tmp, "mirror")
    shutil.copytree(MODEL, os.path.join(served, MODEL_NAME))
    data = os.path.join(tmp, "data")
    models = os.path.join(data, "vitscope", "models")
    got = os.path.join(models, MODEL_NAME)
    shot = os.path.join(tmp, "get_model.png")
    w = scripted_window(xvfb, tmp, "get", f"get-model {MODEL_NAME}\nscreenshot {shot}\n",
                        env={"XDG_DATA_HOME": data, "VITSCOPE_MODEL_MIRROR": "file://" + served})
    try:
        state = w.wait_for(lambda s: s["model"] == got and s["ready"], what="the downloaded model to open")
        assert state["last_error"] == "" and state["download"]["error"] == "", state
        assert not state["get_model"], "the dialog stays open after a download that worked"
        assert model_folders(models) == [MODEL_NAME], os.listdir(models)
        for f in ("model.safetensors", "config.json"):
            assert filecmp.cmp(os.path.join(served, MODEL_NAME, f), os.path.join(got, f), shallow=False), f
        w.wait_for(lambda s: os.path.exists(shot), what="the screenshot")
    finally:
        w.close()

    # The mirror over HTTP on the loopback, stopping model.safetensors half-way: one line, nothing kept.
    fresh = os.path.join(tmp, "data2")
    with LoopbackMirror(served, cut={"model.safetensors"}) as mirror:
        w = scripted_window(xvfb, tmp, "cut", f"get-model {MODEL_NAME}\n",
                            env={"XDG_DATA_HOME": fresh, "VITSCOPE_MODEL_MIRROR": mirror.url})
        try:
            state = w.wait_for(lambda s: s["download"]["error"], what="the half-way download's error")
            assert "half-way" in state["download"]["error"] and "model.safetensors" in state["download"]["error"], state
            assert "half-way" in state["last_error"] and "\n" not in state["last_error"], state["last_error"]
            assert state["model"] == MODEL and state["ready"], state
            assert model_folders(os.path.join(fresh, "vitscope", "models")) == [], "a partial folder was left"
        finally:
            w.close()
        # A model the server does not have (HTTP 404): one line naming the file asked for.
        w = scripted_window(xvfb, tmp, "missing", "get-model facebook/dino-vits16\nquit\n",
                            env={"XDG_DATA_HOME": fresh, "VITSCOPE_MODEL_MIRROR": mirror.url})
        try:
            assert w.proc.wait(timeout=300) == 0, w.output()
            state = read_state(w.state_file)
            assert "dino-vits16/pytorch_model.bin: not found" in state["last_error"], state["last_error"]
            assert state["model"] == MODEL and model_folders(os.path.join(fresh, "vitscope", "models")) == [], state
        finally:
            w.close()

    # Slowly served (2 MB/s): Escape in the dialog cancels; nothing is kept, the model stays.
    fresh = os.path.join(tmp, "data3")
    with LoopbackMirror(served, bytes_per_second=2_000_000) as mirror:
        w = scripted_window(xvfb, tmp, "cancel", f"get-model {MODEL_NAME}\n",
                            env={"XDG_DATA_HOME": fresh, "VITSCOPE_MODEL_MIRROR": mirror.url})
        try:
            state = w.wait_for(lambda s: s["download"]["done_mb"] > 1 and s["download"]["seconds_left"] > 0,
                               what="the download under way")
            total = os.path.getsize(os.path.join(served, MODEL_NAME, "model.safetensors")) / 1e6
            assert state["get_model"] and state["download"]["model"] == MODEL_NAME, state
            assert abs(state["download"]["total_mb"] - total) < 0.01, (state["download"], total)
            # The download's own temporary folder beside the destination (vit::OutputFolder's name).
            temps = [n for n in model_folders(os.path.join(fresh, "vitscope", "models"))
                     if n.startswith(f".{MODEL_NAME}.vitscope-") and n.endswith(".tmp")]
            assert len(temps) == 1, os.listdir(os.path.join(fresh, "vitscope", "models"))
            w.xdotool("windowfocus", "--sync", w.window_id())
            w.xdotool("key", "Escape")
            state = w.wait_for(lambda s: not s["download"]["model"], what="the cancel")
            assert "Cancelled" in state["download"]["error"] and "Cancelled" in state["last_error"], state
            assert state["download"]["done_mb"] < total - 1, "it ran to the end instead"
            assert not state["get_model"] and state["model"] == MODEL and state["ready"], state
            assert model_folders(os.path.join(fresh, "vitscope", "models")) == [], "a partial folder was left"
        finally:
            w.close()

    # Two windows get the model at once from a slow mirror (issue 33: they shared FOLDER.partial and both
    # failed): one downloads, the other waits for it, then both open the model; nothing else is left.
    fresh = os.path.join(tmp, "data4")
    with LoopbackMirror(served, bytes_per_second=8_000_000) as mirror:
        env = {"XDG_DATA_HOME": fresh, "VITSCOPE_MODEL_MIRROR": mirror.url}
        first = scripted_window(xvfb, tmp, "first", f"get-model {MODEL_NAME}\n", env=env)
        second = None
        try:
            first.wait_for(lambda s: s["download"]["done_mb"] > 0.5, what="the first download under way")
            second = scripted_window(xvfb, tmp, "second", f"get-model {MODEL_NAME}\n", env=env)
            second.wait_for(lambda s: s["download"]["stage"] == "Waiting", what="the second to wait")
            got4 = os.path.join(fresh, "vitscope", "models", MODEL_NAME)
            for w in (first, second):
                state = w.wait_for(lambda s: s["model"] == got4 and s["ready"], timeout=180, what="the model to open")
                assert state["last_error"] == "" and state["download"]["error"] == "", state
            assert model_folders(os.path.join(fresh, "vitscope", "models")) == [MODEL_NAME]
            assert filecmp.cmp(os.path.join(served, MODEL_NAME, "model.safetensors"),
                               os.path.join(got4, "model.safetensors"), shallow=False)
            assert mirror.requests.count(f"/{MODEL_NAME}/model.safetensors") == 1, mirror.requests
        finally:
            first.close()
            if second:
                second.close()


def page_pixels(path):
    """The Questions page's part of a 1920 x 1080 screenshot (right of the photo and heads panels)."""
    img = np.asarray(Image.open(path).convert("RGB")).astype(np.int16)
    assert img.shape[:2] == (1080, 1920), img.shape
    return img[60:1040, int(1920 * 0.62) + 230:1900]


def assert_drawn(path):
    """Not blank: the page holds text and pictures (many colours, much variation)."""
    page = page_pixels(path)
    colours = len(np.unique(page.reshape(-1, 3), axis=0))
    assert page.std() > 20 and colours > 200, f"{path}: std {page.std():.1f}, {colours} colours"


def watch_states(w, until, timeout=600):
    """Every state the window writes until until(state) holds (or it exits): polled often, so brief ones count."""
    import time
    seen, deadline = [], time.time() + timeout
    while time.time() < deadline:
        state = read_state(w.state_file)
        if state is not None and (not seen or state != seen[-1]):
            seen.append(state)
            if until(state):
                return seen
        if w.proc.poll() is not None:
            return seen
        time.sleep(0.02)
    raise AssertionError(f"timed out; last state {seen[-1] if seen else None}")


def every_state(xvfb, tmp, name, commands, *options):
    """Runs the script (which ends with quit) in the window; every state the window wrote, in order."""
    w = scripted_window(xvfb, tmp, name, commands, *options)
    try:
        seen = watch_states(w, lambda s: False)
        assert w.proc.wait(timeout=60) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    return seen


def test_property_pages(xvfb, tmp):
    """Each page from a script, with the second photo there; the state names it and the page is drawn."""
    xvfb.park_pointer()
    shots = {name: os.path.join(tmp, f"page_{name}.png") for name in PROPERTY_PAGES}
    commands = f"select {ROW},{COL}\nlayer 0\nhead 1\ncompare {CHELSEA}\n"
    for name in PROPERTY_PAGES:
        # wait: the pages that start an experiment (dynamic, permutation) show its result.
        commands += f"question {name}\nframes 10\nwait\nframes 5\nscreenshot {shots[name]}\nframes 10\n"
    seen = every_state(xvfb, tmp, "pages", commands + "quit\n")
    shown = [s["question"] for s in seen if s["tab"] == "questions"]
    for name in PROPERTY_PAGES:
        assert name in shown, f"the state file never showed question {name}: {shown}"
    final = seen[-1]
    assert final["last_error"] == "", final["last_error"]
    assert final["compare_image"] == CHELSEA and final["compare_ready"], final
    # The experiment the permutation page started on its own finished: the shuffle.
    results = " ".join(final["experiment_results"])
    assert "shuffle seed 0#" in results, final["experiment_results"]
    for name, path in shots.items():
        assert_drawn(path)
    # Each page draws something of its own.
    pages = {name: page_pixels(path) for name, path in shots.items()}
    for i, a in enumerate(PROPERTY_PAGES):
        for b in PROPERTY_PAGES[i + 1:]:
            assert np.abs(pages[a] - pages[b]).mean() > 2, f"pages {a} and {b} look the same"


def test_compare_photo(xvfb, tmp):
    """compare PATH runs a second photo with the same model; a broken one leaves both photos and the selection."""
    garbage = os.path.join(tmp, "garbage.png")
    with open(garbage, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n but nothing after the signature" * 5)
    shot = os.path.join(tmp, "after_error.png")
    commands = (f"select 4,6\nquestion dynamic\ncompare {CHELSEA}\nframes 5\n"
                f"compare {garbage}\nframes 5\nscreenshot {shot}\nframes 5\n"
                f"open-model {MODEL}\nframes 5\nquit\n")  # a model opened again re-runs both photos
    w = scripted_window(xvfb, tmp, "compare", commands)
    try:
        seen = watch_states(w, lambda s: False)
        assert w.proc.wait(timeout=60) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    ready = [s for s in seen if s["compare_ready"]]
    assert ready, "the second photo never became ready"
    good = ready[0]
    assert good["compare_image"] == CHELSEA and good["image"] == DOG, good
    assert good["last_error"] == "", good["last_error"]
    errors = [s for s in seen if s["last_error"] and s["ready"]]  # not while the model is opened again
    assert errors, "the broken second photo gave no error"
    final = errors[-1]
    assert "garbage.png" in final["last_error"] and "second photo" in final["last_error"], final["last_error"]
    # Untouched: both photos, their runs, the selection.
    assert final["image"] == DOG and final["ready"], final
    assert final["compare_image"] == CHELSEA and final["compare_ready"], final
    assert final["compare_generation"] == good["compare_generation"], (good, final)
    assert (final["row"], final["col"], final["question"]) == (4, 6, "dynamic"), final
    # The model opened again: both photos run through it (the second photo's run is new) and stay ready.
    last = seen[-1]
    assert last["ready"] and last["compare_ready"] and last["last_error"] == "", last
    assert last["compare_generation"] > good["compare_generation"], (good, last)
    assert last["compare_image"] == CHELSEA and last["image"] == DOG, last
    assert os.path.exists(shot)
    # The error is on the screen: the dark red banner (0.35, 0.09, 0.08) over the photo panel.
    img = np.asarray(Image.open(shot).convert("RGB")).astype(np.int16)
    banner = img[20:200, :int(1920 * 0.40)]
    red = (np.abs(banner[..., 0] - 89) < 12) & (np.abs(banner[..., 1] - 23) < 12) & (np.abs(banner[..., 2] - 20) < 12)
    assert red.sum() > 5000, f"no error banner: {red.sum()} banner pixels"


def tour_file(path):
    """The shipped tour read independently of vitscope: its dog region and each step's declared state."""
    region, steps = [], []
    for line in open(path, encoding="utf-8"):
        key, _, value = line.strip().partition(":")
        if key == "region dog":
            for item in value.split():
                row, cols = item.split(",")
                first, _, last = cols.partition("-")
                region += [(int(row), c) for c in range(int(first), int(last or first) + 1)]
        elif key == "step":
            steps.append({})
        elif key == "state" and steps:
            steps[-1].update(w.split("=") for w in value.split())
        elif key.endswith("choose") and steps:  # the layer and head are chosen on the photo
            steps[-1]["chosen"] = "yes"
    return region, steps


def test_tour(xvfb, tmp):
    """The shipped tour from a script, step by step: the state each step declares, the card's numbers against
    NumPy (the dog's-ear share), the tour's keys, and a malformed tour refused before a window opens."""
    import vit_reference
    path = os.path.join(SRC, "assets", "tours", "first-look.tour")
    region, steps = tour_file(path)
    xvfb.park_pointer()
    shot = os.path.join(tmp, "tour_softmax.png")
    commands = "tour default\nframes 3\n" + "".join(
        f"tour next\nwait\nframes 3\n{f'screenshot {shot}' if i == 6 else ''}\n" for i in range(1, len(steps)))
    slides = os.path.join(tmp, "slides")  # File > Export tour as slides, after the tour
    seen = every_state(xvfb, tmp, "tour", commands + f"tour exit\nframes 3\nexport-tour {slides}\nframes 3\nquit\n")
    by_step = {}
    for state in seen:
        if state["tour_step"] >= 0 and state["ready"]:
            by_step[state["tour_step"]] = state  # the last state written at each step
    assert sorted(by_step) == list(range(len(steps))), sorted(by_step)
    assert seen[-1]["tour_step"] == -1, "tour exit left the tour on"
    assert seen[-1]["last_error"] == "" and sorted(os.listdir(slides)) == sorted(
        [f"step_{i + 1:02d}.png" for i in range(len(steps))] + ["index.html", "claims.csv"]), (seen[-1]["last_error"],
                                                                                                slides)
    names = {"tab": "tab", "layer": "layer", "head": "head", "map": "map"}
    for i, declared in enumerate(steps):
        state = by_step[i]
        for key, value in declared.items():
            if key in ("layer", "head") and "chosen" in declared:
                continue  # tests/session/tour_claims_test.py checks the choice against NumPy
            if key in names:
                assert str(state[names[key]]) == value, f"step {i}: {key} {state[names[key]]} != {value}"
            elif key == "question":
                assert (state["tab"], state["question"]) == ("questions", value), f"step {i}: {state['question']}"
            elif key == "query":
                want = (-1, -1) if value == "cls" else tuple(map(int, value.split(",")))
                assert (state["row"], state["col"]) == want, f"step {i}: query {state['row']},{state['col']}"
            elif key == "pin":
                assert (state["pinned_key"] == -1) == (value == "none"), f"step {i}: pin {state['pinned_key']}"
        assert state["tour_text"] and not any("{" in p for p in state["tour_text"]), state["tour_text"]
    # The softmax step names the share of the ear's patch weight on the dog outside the ear's 3 x 3
    # neighbourhood, and the dog's share of the patches there: NumPy on vitscope's own input.
    softmax = 6  # "Softmax: the weights on the photo", the step the screenshot shows
    text = " ".join(by_step[softmax]["tour_text"])
    dumped = os.path.join(tmp, "dump")
    subprocess.run([BIN, "dump", DOG, "-o", dumped, "--model", MODEL], check=True, capture_output=True, timeout=300)
    model = vit_reference.load_timm(MODEL)
    r = vit_reference.forward(model, np.load(os.path.join(dumped, "input.npy")))
    state = by_step[softmax]
    query = r["prefix"] + state["row"] * r["grid"] + state["col"]
    row = r["attn"][state["layer"], state["head"], query]
    patches = row[r["prefix"]:]
    far = [(rr, cc) for rr, cc in region if max(abs(rr - state["row"]), abs(cc - state["col"])) > 1]
    share = sum(patches[rr * r["grid"] + cc] for rr, cc in far) / patches.sum()
    area = len(far) / (r["grid"] ** 2 - 9)
    print(f"    the ear (patch {state['row']},{state['col']}) in layer {state['layer']} head {state['head']}: "
          f"{share:.1%} of its patch weight on the dog beyond its 3 x 3 neighbourhood, where the dog has {area:.1%} "
          "of the patches (NumPy)")
    assert f"get {round(100 * area)}%" in text and f"puts {round(100 * share)}%" in text, text
    assert_drawn(shot)
    # The keys: → and ← step, Esc leaves.
    w = scripted_window(xvfb, tmp, "tour_keys", "tour default\nframes 3\n", size="1280x800")
    try:
        w.wait_for(lambda s: s["ready"] and s["tour_step"] == 0, what="the tour's first step")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        w.xdotool("mousemove", "--window", win, "5", "5")
        for key, step in (("Right", 1), ("Right", 2), ("Left", 1)):
            w.xdotool("key", key)
            w.wait_for(lambda s, step=step: s["tour_step"] == step, what=f"step {step} after {key}")
        w.xdotool("key", "Escape")
        w.wait_for(lambda s: s["tour_step"] == -1, what="the tour gone after Esc")
    finally:
        w.close()
    # A broken tour file: one line naming the file and the line, exit 2, no window needed.
    bad = os.path.join(tmp, "bad.tour")
    with open(bad, "w") as f:
        f.write("title: x\nstep: one\nstate: layer=many\ntext: t\n")
    r = subprocess.run([BIN, DOG, "--model", MODEL, "--tour", bad, "--no-settings"], capture_output=True, text=True,
                       timeout=60, env={k: v for k, v in os.environ.items() if k != "DISPLAY"})
    assert r.returncode == 2 and r.stderr.strip() == f"vitscope: error: {bad}:3: layer 'many' is not a number from 0 to 1000", r.stderr


def glyph_height(pixels):
    """The height in pixels of the menu bar's "File": the first run of rows with text ink at the window's
    top left (the panel titles below it start after a gap)."""
    region = pixels[:80, :60, :3].astype(np.float64).mean(axis=2)
    rows = np.flatnonzero((region > 150).any(axis=1))
    if not len(rows):
        return 0
    gaps = np.flatnonzero(np.diff(rows) > 1)
    last = rows[gaps[0]] if len(gaps) else rows[-1]
    return int(last - rows[0] + 1)


def thumb_contrast(pixels, rect):
    """Luminance spread (99th minus 1st percentile, 0..1) inside a thumbnail's middle (the model's crop)."""
    x, y, w, h = rect
    box = (int(x + w * 0.25), int(y + h * 0.1), int(x + w * 0.75), int(y + h * 0.9))
    rgb = pixels[box[1]:box[3], box[0]:box[2], :3].astype(np.float64) / 255
    lum = 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]
    return float(np.percentile(lum, 99) - np.percentile(lum, 1))


def test_sweep_path(xvfb, tmp):
    """File > Record a sweep path, three clicks (script selects), File > Export sweep: a GIF along them."""
    gif = os.path.join(tmp, "path.gif")
    seen = every_state(xvfb, tmp, "sweep", "layer 3\nhead 2\nwait\nrecord-path on\nselect 5,3\nselect 5,4\n"
                                            f"select 6,4\nrecord-path off\nselect 9,9\nexport-sweep {gif}\nframes 2\nquit\n")
    final = seen[-1]
    assert final["last_error"] == "", final["last_error"]
    assert final["sweep_path"] == [[5, 3], [5, 4], [6, 4]] and not final["recording_sweep_path"], final["sweep_path"]
    assert any(s["recording_sweep_path"] for s in seen), "the state never showed the recording"
    im = Image.open(gif)
    assert im.n_frames == 3 and im.info.get("loop") == 0, (im.n_frames, im.info)


def test_first_run_offers_the_tour(xvfb, tmp):
    """A first run (settings in an empty config folder) shows the offer; a remembered answer, or a run without
    settings, does not."""
    config = os.path.join(tmp, "config")
    os.makedirs(os.path.join(config, "vitscope"))
    state_file = os.path.join(tmp, "first_run.json")
    env = dict(xvfb.env(), XDG_CONFIG_HOME=config)
    for remembered, offered in ((None, False), (True, True)):
        if remembered is not None:
            with open(os.path.join(config, "vitscope", "settings.json"), "w") as f:
                json.dump({"tour_offered": remembered}, f)
        proc = subprocess.Popen([BIN, DOG, "--model", MODEL, "--window-size", "1280x800", "--state-file", state_file],
                                cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            import time
            deadline, state = time.time() + DEADLINE, None
            while time.time() < deadline and not (state and state.get("ready")):
                time.sleep(0.1)
                state = read_state(state_file)
            assert state and state["ready"], state
            assert state["tour_offered"] == offered, (remembered, state["tour_offered"])
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            os.remove(state_file)


def test_first_run_offer_buttons(xvfb, tmp):
    """Clicking the first run's offer: "Not now" closes it with no tour; "Take the tour" starts the tour at its
    first step. Either way the answer is remembered in the settings file, and the next run does not ask again."""
    for button, tour_step in (("not now", -1), ("take", 0)):
        config = os.path.join(tmp, f"config {button}")
        os.makedirs(os.path.join(config, "vitscope"))
        settings = os.path.join(config, "vitscope", "settings.json")
        w = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp, size="1280x800", env={"XDG_CONFIG_HOME": config},
                   settings=True)
        try:
            state = w.wait_for(lambda s: s.get("ready") and len(s["tour_offer_buttons"]) == 2,
                               what="the first run's offer")
            assert not state["tour_offered"] and state["tour_step"] == -1, state
            win = w.window_id()
            w.xdotool("windowfocus", "--sync", win)
            x, y = state["tour_offer_buttons"][button]
            w.click(x, y)
            state = w.wait_for(lambda s: s["tour_offered"], what=f"the click on {button!r}")
            assert state["tour_step"] == tour_step and not state["tour_offer_buttons"], state
            w.pause(1)
            assert read_state(w.state_file)["tour_step"] == tour_step
            w.press_ctrl_q()  # quitting writes the settings
            w.proc.wait(timeout=DEADLINE)
        finally:
            w.close()
        with open(settings) as f:
            assert json.load(f)["tour_offered"] is True, button
        again = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp, size="1280x800", env={"XDG_CONFIG_HOME": config},
                       settings=True)
        try:
            again.wait_for(lambda s: s.get("ready"), what="the next run")
            again.pause(1)  # frames after the first with the trace, where the offer would show
            state = read_state(again.state_file)
            assert state["tour_offered"] and not state["tour_offer_buttons"], state
        finally:
            again.close()


def test_classroom(xvfb, tmp):
    """--classroom and the P key: type half again as large (a measured glyph height), one layer's heads as
    large heatmaps with contrast, no layers x heads grid."""
    xvfb.park_pointer()
    shots, states = {}, {}
    for mode, options in (("normal", ()), ("classroom", ("--classroom",))):
        shots[mode] = os.path.join(tmp, f"{mode}.png")
        seen = every_state(xvfb, tmp, mode, f"select 5,3\nlayer 3\nhead 2\nwait\nframes 3\nscreenshot {shots[mode]}\n"
                                            "frames 2\nquit\n", *options)
        states[mode] = seen[-1]
    assert not states["normal"]["classroom"] and states["classroom"]["classroom"], states
    pixels = {mode: np.asarray(Image.open(path).convert("RGB")) for mode, path in shots.items()}
    normal, large = glyph_height(pixels["normal"]), glyph_height(pixels["classroom"])
    print(f"    menu text: {normal} px tall, {large} px in classroom mode")
    assert normal >= 8 and large >= 1.4 * normal, (normal, large)
    for mode in shots:
        thumbs = states[mode]["head_thumbs"]
        assert len(thumbs) == 4, thumbs  # ViT-Ti's 3 heads and their mean
        contrast = [thumb_contrast(pixels[mode], r) for r in thumbs]
        print(f"    {mode}: thumbnails {thumbs[0][2]:.0f} px wide, luminance spread {[round(c, 2) for c in contrast]}")
        assert min(contrast) > 0.3, contrast
    assert states["classroom"]["head_thumbs"][0][2] >= 1.5 * states["normal"]["head_thumbs"][0][2], "classroom thumbnails"
    # The key toggles it in a live window.
    w = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp)
    try:
        w.wait_for(lambda s: s.get("ready"), what="the first forward pass")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        w.xdotool("mousemove", "--window", win, "5", "5")
        w.xdotool("key", "p")
        w.wait_for(lambda s: s["classroom"], what="P to turn classroom mode on")
        w.xdotool("key", "period")  # the math panel's next step
        w.wait_for(lambda s: s["math_step"] == 2, what=". for the math panel's step 2")
        w.xdotool("key", "p")
        w.wait_for(lambda s: not s["classroom"], what="P again to turn it off")
    finally:
        w.close()


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    tests = [test_scripted_screenshot, test_mouse_and_keys, test_broken_files_keep_the_previous, test_export_names,
             test_question_figure, test_get_model, test_property_pages, test_compare_photo,
             test_input_size, test_question_pages, test_click_distance_dot, test_tour, test_classroom,
             test_first_run_offers_the_tour, test_first_run_offer_buttons, test_sweep_path, test_export_lesson]
    only = sys.argv[1:] or [n for n in os.environ.get("VITSCOPE_WINDOW_TESTS", "").split(",") if n]
    if only:  # some of them, by name
        tests = [t for t in tests if t.__name__ in only]
    return run_window_tests(tally, tests, "vitscope_window_")


if __name__ == "__main__":
    sys.exit(main())
