#!/usr/bin/env python3
"""The window in the lecture hall, driven for real on a private Xvfb display:
  (a) predict, then reveal (classroom mode, 1280 x 720): real clicks on the
      Predict button hide the maps (changing the head changes no pixel of the
      photo), clicks on three patches mark them, Reveal shows the map again and
      the state file's weight on the marked patches equals NumPy's sum of the
      weights `vitscope attention` prints for them, the share of patches 3/196;
  (b) lesson files: a window saves a lesson (layer, head, visible heads, mean,
      query, pin, page, classroom mode, comparison photo, style, temperature,
      input size), a new window opens it (`vitscope lesson.vitscope`) and its
      state file reports the same window; a lesson with the photo embedded
      opens after the photo is gone; in a running window a missing photo, a
      newer version and a malformed file each leave one line naming the cause
      and the selection as it was; at start-up they exit 2 with that line;
  (d) View > Side by side: two panes on one colour scale whose top is the larger of the two rows' largest
      patch weight `vitscope attention` prints;
  (c) the matrix page (Questions > matrix): the mouse over a cell names its query and key with the weight
      `vitscope attention` prints; a click on a row makes its token the query;
  (e) the tour's card in classroom mode at 1920 x 1080, on the softmax step: it starts with its key
      sentence (the claim with its shares) inside it, no map on the screen under it and the math panel's two
      softmax maps whole on the screen; the real H key shows the rest of its sentences (the card grows, the
      key sentence stays inside it, still no map under it); H again folds it back to the same height.
Names of tests as arguments run only those. Prints "N passed, M failed, K skipped"."""
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, Tally  # noqa: E402
from window_support import Window, overlap, run_window_tests, patch_centre, read_state  # noqa: E402

LAYER, ROW, COL = 8, 5, 7
MARKS = [(4, 7), (5, 8), (10, 3)]


def attention_weights(layer, head, row, col):
    out = subprocess.run([BIN, "attention", DOG, "--layer", str(layer), "--head", str(head), "--patch", f"{row},{col}",
                          "--model", MODEL], check=True, capture_output=True, text=True, timeout=300).stdout
    return {(int(r["row"]), int(r["col"])): float(r["weight"]) for r in csv.DictReader(io.StringIO(out))
            if int(r["row"]) >= 0}


def screenshot(w, win, tmp, before):
    """F12 with the pointer parked off every map; the new PNG in the export folder (tmp)."""
    w.xvfb.park_pointer()
    w.pause(0.3)
    path = w.f12()
    return path, before | {path}


def photo_region(path, state):
    x, y, w, h = (int(round(v)) for v in state["image_view"])
    return np.asarray(Image.open(path).convert("RGB"))[y:y + h, x:x + w].astype(np.int16)


def test_predict_then_reveal(xvfb, tmp):
    script = os.path.join(tmp, "predict.txt")
    with open(script, "w") as f:
        f.write(f"layer {LAYER}\nhead 1\nselect {ROW},{COL}\nwait\nframes 3\n")
    w = Window(xvfb, BIN, [DOG, "--model", MODEL, "--classroom", "--script", script], tmp, size="1280x720")
    try:
        state = w.wait_for(lambda s: s.get("ready") and "Predict" in s["predict_buttons"] and s["layer"] == LAYER and
                           s["row"] == ROW, what="the Predict button")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        state = w.wait_still("predict_buttons")  # the caption and legend wrap a frame after the photo's run
        w.click(*state["predict_buttons"]["Predict"])
        state = w.wait_for(lambda s: s["prediction"]["phase"] == "predicting" and "Reveal" in s["predict_buttons"],
                           what="the click on Predict")
        shots = set()
        hidden_1, shots = screenshot(w, win, tmp, shots)
        w.xdotool("key", "--window", win, "bracketright")  # the next head: a visible map would change
        state = w.wait_for(lambda s: s["head"] == 2, what="] for head 2")
        w.pause(0.5)
        hidden_2, shots = screenshot(w, win, tmp, shots)
        a, b = photo_region(hidden_1, state), photo_region(hidden_2, state)
        assert np.array_equal(a, b), f"the photo changed with the head while hidden: {np.abs(a - b).max()}"
        print(f"    hidden: the photo's {a.shape[1]} x {a.shape[0]} px identical for heads 1 and 2")

        for i, (row, col) in enumerate(MARKS):
            w.click(*patch_centre(state, row, col))
            w.wait_for(lambda s: len(s["prediction"]["marked"]) == i + 1, what=f"mark {i + 1}")
        state = w.wait_for(lambda s: s["prediction"]["marked"] == [list(m) for m in MARKS], what="three marked patches")
        assert state["query"] == 1 + ROW * 14 + COL, "marking moved the query"
        assert "weight_on_marked" not in state["prediction"], "numbers before the reveal"
        w.click(*state["predict_buttons"]["Reveal"])
        state = w.wait_for(lambda s: s["prediction"]["phase"] == "revealed", what="the click on Reveal")
        p = state["prediction"]
        weights = attention_weights(LAYER, 2, ROW, COL)
        on_marked = float(np.sum([weights[m] for m in MARKS], dtype=np.float64))
        on_patches = float(np.sum(list(weights.values()), dtype=np.float64))
        print(f"    revealed: {p['weight_on_marked']:.6f} on the marks (NumPy {on_marked:.6f}), "
              f"share {p['area_share']:.4f}, ratio {p['ratio']:.2f}; {p['sentence']}")
        assert abs(p["weight_on_marked"] - on_marked) < 1e-5, (p, on_marked)
        assert abs(p["area_share"] - 3 / 196) < 1e-12, p
        assert abs(p["even_spread"] - on_patches * 3 / 196) < 1e-5, (p, on_patches)
        assert "3 of 196" in p["sentence"], p["sentence"]
        shown, shots = screenshot(w, win, tmp, shots)
        # The sentence under the bar may have reflowed the panel: the photo where it is now, and the
        # hidden photo scaled to that size.
        revealed = photo_region(shown, read_state(w.state_file))
        hidden = np.asarray(Image.fromarray(b.astype(np.uint8)).resize((revealed.shape[1], revealed.shape[0]),
                                                                        Image.BILINEAR)).astype(np.int16)
        diff = np.abs(revealed - hidden).mean()
        print(f"    revealed map: mean |difference| from the hidden photo {diff:.1f} levels")
        assert diff > 5, diff
        shutil.copy(shown, os.path.join(os.environ.get("VITSCOPE_KEEP_SHOTS", tmp), "predict_revealed.png"))
    finally:
        w.close()


# What a lesson must bring back, as the state file names it.
LESSON_KEYS = ["layer", "head", "visible_heads", "map", "query", "pinned_key", "image", "model", "tab",
               "question", "classroom", "math_step", "compare_image", "temperature", "input_size", "style", "grid"]


def run_script(xvfb, tmp, name, args, commands, size="1280x720"):
    """Runs the script (ending in quit) in a new window; every state it wrote, in order. Embedded photos are
    unpacked into tmp/cache."""
    script = os.path.join(tmp, name + ".txt")
    with open(script, "w") as f:
        f.write(commands)
    w = Window(xvfb, BIN, [*args, "--script", script], tmp, size=size, env={"XDG_CACHE_HOME": os.path.join(tmp, "cache")})
    try:
        code, seen = w.states_until_exit()
        assert code == 0, f"exit code {code}: {w.output()}"
        return seen
    finally:
        w.close()


def same_value(v):
    """Paths compare as the files they name (the lesson stores them absolute and normalised)."""
    return os.path.normpath(os.path.abspath(v)) if isinstance(v, str) and os.sep in v else v


def test_lesson_round_trip(xvfb, tmp):
    lesson = os.path.join(tmp, "class.vitscope")
    embedded = os.path.join(tmp, "embedded.vitscope")
    photo = os.path.join(tmp, "my dog.jpg")
    shutil.copy(DOG, photo)
    saved = run_script(xvfb, tmp, "save", [photo, "--model", MODEL, "--classroom"],
                       f"size 448\nlayer 6\nhead 2\ntoggle-head 1\nmean\nselect 9,20\npin 3,4\ncompare {CHELSEA}\n"
                       "style colormap=magma scale=log opacity=0.4 fade=off smooth=off grid=off\ntemperature 2\n"
                       f"question global\nwait\nsave-lesson {lesson}\nsave-lesson-with-photo {embedded}\nframes 2\nquit\n")[-1]
    assert saved["last_error"] == "", saved["last_error"]
    assert saved["grid"] == 28 and saved["compare_ready"], saved
    with open(lesson) as f:
        text = json.load(f)
    assert text["vitscope_lesson"] == 1 and "photo_embedded" not in text, sorted(text)
    assert os.path.getsize(lesson) < 4096, os.path.getsize(lesson)

    opened = run_script(xvfb, tmp, "open", [lesson], "wait\nframes 3\nquit\n")[-1]
    differ = {k: (saved[k], opened[k]) for k in LESSON_KEYS if same_value(saved[k]) != same_value(opened[k])}
    assert not differ, differ
    assert opened["last_error"] == "", opened["last_error"]
    print(f"    reopened: {len(LESSON_KEYS)} fields equal (L{opened['layer']} H{opened['head']}, "
          f"{opened['input_size']} px, page {opened['question']})")

    os.remove(photo)  # the embedded copy still opens; the plain one cannot
    again = run_script(xvfb, tmp, "embedded", [embedded], "wait\nframes 3\nquit\n")[-1]
    same = {k: (saved[k], again[k]) for k in LESSON_KEYS if k != "image" and same_value(saved[k]) != same_value(again[k])}
    assert not same and again["image"] != photo and os.path.isfile(again["image"]), (same, again["image"])

    r = subprocess.run([BIN, lesson, "--no-settings"], env=xvfb.env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr == f"vitscope: error: {lesson}: the photo {photo} is missing\n", r.stderr


def test_lesson_bad_files(xvfb, tmp):
    good = os.path.join(tmp, "good.vitscope")
    seen = run_script(xvfb, tmp, "good", [DOG, "--model", MODEL], f"layer 3\nselect 2,2\nwait\nsave-lesson {good}\nquit\n")
    with open(good) as f:
        lesson = json.load(f)
    bad = {}
    for name, edit, says in (("missing photo", {"photo": "/nowhere/dog.jpg"}, "the photo /nowhere/dog.jpg is missing"),
                             ("newer", {"vitscope_lesson": 7}, "lesson version 7 is newer than this vitscope reads"),
                             ("malformed", None, "not valid JSON")):
        path = os.path.join(tmp, name.replace(" ", "_") + ".vitscope")
        with open(path, "w") as f:
            f.write(json.dumps(dict(lesson, **edit)) if edit else json.dumps(lesson)[:-20])
        bad[name] = (path, says)
    commands = "layer 5\nhead 1\nselect 7,7\nwait\n" + "".join(f"open-lesson {p}\nframes 40\n" for p, _ in bad.values())
    seen = run_script(xvfb, tmp, "bad", [DOG, "--model", MODEL], commands + "quit\n")
    errors = [s["last_error"] for s in seen if s["last_error"]]
    for name, (path, says) in bad.items():
        line = f"{path}: {says}"
        assert any(e.startswith(line) and "\n" not in e for e in errors), (name, errors)
        r = subprocess.run([BIN, path, "--no-settings"], env=xvfb.env(), capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stderr.startswith(f"vitscope: error: {line}") and r.stderr.count("\n") == 1, \
            (name, r.returncode, r.stderr)
    final = seen[-1]
    assert (final["layer"], final["head"], final["row"], final["col"]) == (5, 1, 7, 7), final
    assert final["image"] == DOG, final["image"]
    print(f"    {len(bad)} bad lessons: {len(set(errors))} distinct one-line errors, selection kept")


def test_tour_step_from_lesson(xvfb, tmp):
    """A tour step with lesson: FILE opens that lesson (photo, model, selection; no second photo when the lesson
    has none) and then sets the step's own keys over it; a tour naming a bad lesson is refused in one line."""
    lesson = os.path.join(tmp, "chelsea.vitscope")
    run_script(xvfb, tmp, "save_for_tour", [CHELSEA, "--model", MODEL],
               f"layer 6\nhead 1\nselect 4,4\nquestion global\nwait\nsave-lesson {lesson}\nframes 2\nquit\n")
    tour = os.path.join(tmp, "from_lesson.tour")
    with open(tour, "w") as f:
        f.write("title: From a lesson\n\nstep: Where we are\nstate: layer=0\ntext: The photo you opened.\n\n"
                "step: The cat from yesterday\nlesson: chelsea.vitscope\nstate: tab=math head=2\n"
                "text: The lesson's photo, layer and query, with head 2.\n")
    seen = run_script(xvfb, tmp, "tour_lesson", [DOG, "--model", MODEL],
                      f"compare {CHELSEA}\nwait\ntour {tour}\nframes 3\ntour next\nframes 3\nwait\nframes 3\nquit\n")
    assert any(s["compare_ready"] for s in seen), "the second photo never opened"
    final = seen[-1]
    assert final["last_error"] == "", final["last_error"]
    got = (final["image"], final["tour_step"], final["layer"], final["head"], final["row"], final["col"], final["tab"],
           final["compare_ready"])
    assert got == (CHELSEA, 1, 6, 2, 4, 4, "math", False), got
    print(f"    tour step 2 opened the lesson: {os.path.basename(final['image'])}, L{final['layer']} "
          f"H{final['head']} (the step's), query ({final['row']}, {final['col']}), second photo dropped")

    bad = os.path.join(tmp, "bad_lesson.tour")
    with open(bad, "w") as f:
        f.write("title: Bad\n\nstep: Nowhere\nlesson: missing.vitscope\ntext: Never shown.\n")
    r = subprocess.run([BIN, DOG, "--model", MODEL, "--tour", bad, "--no-settings"], env=xvfb.env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith(f"vitscope: error: {bad}:3: step 'Nowhere': ") and \
        "missing.vitscope" in r.stderr and r.stderr.count("\n") == 1, (r.returncode, r.stderr)
    seen = run_script(xvfb, tmp, "bad_tour_lesson", [DOG, "--model", MODEL], f"layer 5\nwait\ntour {bad}\nframes 3\nquit\n")
    errors = [s["last_error"] for s in seen if s["last_error"]]
    assert errors and errors[-1].startswith(f"{bad}:3:") and seen[-1]["layer"] == 5 and seen[-1]["tour_step"] == -1, \
        (errors, seen[-1]["layer"], seen[-1]["tour_step"])


def attention_rows(layer, head, query):
    """{key: weight} of one query token's row, from `vitscope attention`."""
    out = subprocess.run([BIN, "attention", DOG, "--layer", str(layer), "--head", str(head), "--query", str(query),
                          "--model", MODEL], check=True, capture_output=True, text=True, timeout=300).stdout
    return {int(r["key"]): float(r["weight"]) for r in csv.DictReader(io.StringIO(out))}


def test_matrix_hover(xvfb, tmp):
    """The matrix page: the mouse over a cell names its query and key, and the state file's weight is the one
    `vitscope attention` prints; a click on a row makes its token the query."""
    script = os.path.join(tmp, "matrix.txt")
    with open(script, "w") as f:
        f.write(f"layer {LAYER}\nhead 1\nselect {ROW},{COL}\nquestion matrix\nwait\nframes 3\n")
    w = Window(xvfb, BIN, [DOG, "--model", MODEL, "--script", script], tmp, size="1920x1080")
    try:
        state = w.wait_for(lambda s: s.get("ready") and "matrix top left" in s["page_targets"], what="the matrix page")
        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        (x0, y0), (x1, _) = state["page_targets"]["matrix top left"], state["page_targets"]["matrix bottom right"]
        first_row, first_col, cells = state["matrix"]["window"]
        assert (first_row, first_col, cells) == (0, 0, 197), state["matrix"]
        cell = (x1 - x0) / cells
        print(f"    the matrix: {x1 - x0:.0f} px a side, {cell:.2f} px a cell")
        query = 1 + ROW * 14 + COL
        rows = attention_rows(LAYER, 1, query)
        for key in (0, query, max(rows, key=rows.get)):
            w.xdotool("mousemove", "--window", win, str(int(x0 + (key - first_col + 0.5) * cell)),
                      str(int(y0 + (query - first_row + 0.5) * cell)))
            state = w.wait_for(lambda s: s["matrix"]["hover"] and s["matrix"]["hover"]["key"] == key,
                               what=f"the hover on key {key}")
            h = state["matrix"]["hover"]
            assert h["query"] == query and abs(h["weight"] - rows[key]) < 1e-6, (h, rows[key])
            print(f"    hover: query {h['query']} key {h['key']} weight {h['weight']:.6f} (attention: {rows[key]:.6f})")
        row = 40
        w.xdotool("mousemove", "--window", win, str(int(x0 + 5.5 * cell)), str(int(y0 + (row + 0.5) * cell)))
        w.xdotool("click", "1")
        state = w.wait_for(lambda s: s["query"] == row, what="the click on row 40")
    finally:
        w.close()


def test_side_by_side(xvfb, tmp):
    """View > Side by side (script `side-by-side 8,1/3,2`): two panes, one scale whose top is the larger of the two
    rows' largest patch weight `vitscope attention` prints; `off` brings the panels back."""
    shot = os.path.join(os.environ.get("VITSCOPE_KEEP_SHOTS", tmp), "side_by_side.png")
    seen = run_script(xvfb, tmp, "side", [DOG, "--model", MODEL],
                      f"select {ROW},{COL}\nwait\nside-by-side 8,1/3,2\nframes 3\nscreenshot {shot}\nframes 2\n"
                      "side-by-side off\nframes 2\nquit\n", size="1280x720")
    opened = [s for s in seen if s["side_by_side"]["open"]]
    assert opened, "never opened"
    sb = opened[-1]["side_by_side"]
    assert (sb["left"], sb["right"]) == ({"layer": 8, "head": 1, "photo": "open"},
                                         {"layer": 3, "head": 2, "photo": "open"}), sb
    top = max(max(attention_weights(8, 1, ROW, COL).values()), max(attention_weights(3, 2, ROW, COL).values()))
    assert abs(sb["value_max"] - top) < 1e-6, (sb["value_max"], top)
    assert not seen[-1]["side_by_side"]["open"], seen[-1]["side_by_side"]
    print(f"    one scale 0..{sb['value_max']:.4f} (attention: {top:.4f})")


def softmax_maps(state):
    """The math panel's maps (its column, under the heads strip): full (x, y, w, h) and on-screen part."""
    column = state["tour_card"][0] - 20  # the card sits in the math panel's column
    strip_end = max(t[1] + t[3] for t in state["head_thumbs"])
    return [(m[:4], m[4:]) for m in state["maps_on_screen"] if m[0] > column and m[1] > strip_end]


def test_tour_card_folds(xvfb, tmp):
    script = os.path.join(tmp, "tour.txt")
    with open(script, "w") as f:
        f.write("select 5,3\nwait\ntour default\nframes 3\nwait\n" + "tour next\nframes 3\n" * 6 + "wait\nframes 4\n")
    w = Window(xvfb, BIN, [DOG, "--model", MODEL, "--classroom", "--script", script], tmp, size="1920x1080")
    try:
        state = w.wait_for(lambda s: s.get("ready") and s["tour_step_title"].startswith("Softmax") and s["tour_card"],
                           what="the tour's softmax step")
        state = w.wait_still("maps_on_screen")
        maps = softmax_maps(state)
        assert len(maps) == 2, state["maps_on_screen"]
        assert state["tour_text_folded"], "classroom mode's card starts with its key sentence alone"
        card = state["tour_card"]
        key = state["tour_key_rect"]
        assert "35%" in state["tour_key_sentence"] or "%" in state["tour_key_sentence"], state["tour_key_sentence"]
        assert key and key[1] >= card[1] and key[1] + key[3] <= card[1] + card[3] + 1, (key, card)
        under = [m for m in state["maps_on_screen"] if overlap(m[4:], card) > 0]
        assert not under, f"maps under the card {card}: {under}"
        whole = [abs(v[2] * v[3] - m[2] * m[3]) < 1 for m, v in maps]
        assert all(whole), f"the softmax maps cut off with the card's key sentence up: {maps}"

        win = w.window_id()
        w.xdotool("windowfocus", "--sync", win)
        w.xvfb.park_pointer()
        w.xdotool("key", "--window", win, "h")
        state = w.wait_for(lambda s: not s["tour_text_folded"], what="H showing the rest of the card")
        state = w.wait_still("maps_on_screen")
        opened = state["tour_card"]
        assert opened[3] > card[3] * 1.5, f"the card with all its text is {opened[3]:.0f} px tall against {card[3]:.0f}"
        under = [m for m in state["maps_on_screen"] if overlap(m[4:], opened) > 0]
        assert not under, f"maps under the opened card {opened}: {under}"
        key = state["tour_key_rect"]
        assert key and key[1] >= opened[1] and key[1] + key[3] <= opened[1] + opened[3] + 1, (key, opened)
        print(f"    card {card[2]:.0f} x {card[3]:.0f} px (its key sentence) over no map, both softmax maps whole; "
              f"opened by H: {opened[3]:.0f} px tall, over no map")

        w.xdotool("key", "--window", win, "h")
        state = w.wait_for(lambda s: s["tour_text_folded"], what="H folding the card again")
        state = w.wait_still("tour_card")
        assert abs(state["tour_card"][3] - card[3]) < 1, (state["tour_card"], card)
    finally:
        w.close()


def test_classroom_slides_from_the_menu(xvfb, tmp):
    """File > Export tour as slides (the script's export-tour) in classroom mode: 1280 x 720 slides, as
    `vitscope tour --classroom` draws them; outside classroom mode 1920 x 1080."""
    sizes = {}
    for mode, extra in (("classroom", ["--classroom"]), ("plain", [])):
        slides = os.path.join(tmp, mode)
        script = os.path.join(tmp, mode + ".txt")
        with open(script, "w") as f:
            f.write(f"wait\nexport-tour {slides}\nframes 3\nquit\n")
        w = Window(xvfb, BIN, [DOG, "--model", MODEL, *extra, "--script", script], tmp)
        code, _ = w.states_until_exit()
        assert code == 0, w.output()[-500:]
        sizes[mode] = {Image.open(p).size for p in glob.glob(os.path.join(slides, "step_*.png"))}
    assert sizes == {"classroom": {(1280, 720)}, "plain": {(1920, 1080)}}, sizes
    print(f"    slides from the window: {sizes}")


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    tests = [test_predict_then_reveal, test_lesson_round_trip, test_lesson_bad_files, test_tour_step_from_lesson,
             test_matrix_hover, test_side_by_side, test_tour_card_folds, test_classroom_slides_from_the_menu]
    only = sys.argv[1:]
    if only:
        tests = [t for t in tests if t.__name__ in only]
    return run_window_tests(tally, tests, "vitscope_lecture_")


if __name__ == "__main__":
    sys.exit(main())
