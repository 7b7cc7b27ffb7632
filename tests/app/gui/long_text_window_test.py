#!/usr/bin/env python3
"""Text from outside the program is bounded where the window draws it (issue 24):
a file name of 255 bytes (the file system's limit) deep in folders whose path
is thousands of bytes long, a model whose config.json has an id2label entry of
100,000 characters, a model whose every class name is 1000 bytes (the most
config.json may have), a lesson file with a field of 300,000 bytes, and errors
that quote such paths and fields.

The real window under Xvfb walks them by script; on every state it writes
(polled often), the window is alive and `longest_text` (the longest text one item
drew, from the clip audit's hooks on every ImGui text call) stays within
ui::kShownTextBytes; on every settled one `clipped_text` names only the long texts themselves
(cut at the panel's side: they are wider than any window), never a text of the
window's own. At the end the window quits with 0."""
import json
import os
import shutil
import sys
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MIRROR, MODEL_NAME, Tally, source  # noqa: E402
from window_support import Window, read_state, run_window_tests  # noqa: E402

HF_MODEL = os.path.join(MIRROR, MODEL_NAME + "-hf")   # the default model with a transformers config (id2label)
FOLDER = "f" * 200 + "é" * 20                          # 240 bytes; é is two bytes in UTF-8
NAME = "dog_" + "ü" * 123 + ".jpg"                     # 254 bytes
LESSON_FIELD = 300_000                                 # bytes of a lesson's "map" field
LABEL = "label" + "ä" * 495                            # 995 bytes; with "0001" before it 999: one word wider than any panel


def shown_limit():
    """ui::kShownTextBytes, read from the header."""
    for line in source("src/ui/widgets/bounded_text.h").splitlines():
        if "kShownTextBytes =" in line:
            return int(line.split("=")[1].strip().rstrip(";"))
    raise AssertionError("no kShownTextBytes in bounded_text.h")


def deep_folder(root, levels):
    """root/FOLDER/FOLDER/... made one level at a time (os.makedirs would pass PATH_MAX in one call)."""
    path = root
    for _ in range(levels):
        path = os.path.join(path, FOLDER)
        os.mkdir(path)
    return path


def model_copy(tmp, name, labels):
    """The -hf model with these class names (a list, or a function of the index), the weights linked."""
    folder = os.path.join(tmp, name)
    os.mkdir(folder)
    for f in os.listdir(HF_MODEL):
        if f != "config.json":
            os.symlink(os.path.realpath(os.path.join(HF_MODEL, f)), os.path.join(folder, f))
    with open(os.path.join(HF_MODEL, "config.json")) as f:
        config = json.load(f)
    n = len(config["id2label"])
    config["id2label"] = {str(i): labels(i) for i in range(n)}
    config["label2id"] = {v: int(k) for k, v in config["id2label"].items()}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, ensure_ascii=False)
    return folder


def test_long_names_and_labels(xvfb, tmp):
    limit = shown_limit()
    photos = deep_folder(tmp, 6)                   # a path of about 1,500 bytes
    photo = os.path.join(photos, NAME)
    shutil.copyfile(DOG, photo)
    missing = os.path.join(deep_folder(photos, 8), "gone_" + NAME)   # a path of about 3,600 bytes to no file
    huge = model_copy(tmp, "huge_label", lambda i: "x" * 100_000 if i == 0 else f"class {i}")
    kilo = model_copy(tmp, "kilo_labels", lambda i: f"{i:04d}{LABEL}")
    script = os.path.join(tmp, "script.txt")
    with open(script, "w") as f:
        f.write("wait\nframes 3\n"
                f"open-model {huge}\nwait\nframes 5\n"          # refused: one line, the model before stays
                f"open-model {kilo}\nwait\nframes 5\n"          # every class name 1000 bytes: the top-5 list
                "select 5,3\nwait\nquestion heads\nwait\nframes 5\n"
                "question cls\nwait\nframes 5\n"
                "question permutation\nwait\nframes 5\n"
                f"compare {os.path.relpath(photo, tmp)}\nwait\n"     # the two-photo pages name both photos
                "question cross\nwait\nframes 5\nquestion dynamic\nwait\nframes 5\ntab math\nframes 3\n")
    # A lesson file whose "map" is 300,000 bytes: refused with an error that quotes 80 characters of it.
    lesson = os.path.join(tmp, "long.vitscope")
    with open(lesson, "w") as f:
        json.dump({"vitscope_lesson": 1, "photo": "dog.jpg", "model": "m", "input_size": 224, "layer": 0, "head": 0,
                   "visible_heads": [0], "map": "m" * LESSON_FIELD}, f)
    # The long path goes last, by itself: a script line has at most 4096 bytes.
    with open(script, "a") as f:
        f.write("open-lesson long.vitscope\nwait\nframes 5\n"
                f"open-image {os.path.relpath(missing, tmp)}\nwait\nframes 5\nquit\n")
    w = Window(xvfb, BIN, [os.path.relpath(photo, tmp), "--model", HF_MODEL, "--script", script], tmp)
    seen = []
    try:
        # About 10 s: a window that stops answering on a long text (measuring it a character at a time) fails here.
        deadline = time.time() + 240
        while w.proc.poll() is None and time.time() < deadline:
            s = read_state(w.state_file)
            if s is not None and (not seen or s != seen[-1]):
                seen.append(s)
            time.sleep(0.02)
        if w.proc.poll() is None:
            last = seen[-1] if seen else {}
            raise AssertionError(f"the window did not finish its script in 240 s; last state: tab {last.get('tab')}, "
                                 f"error {last.get('last_error', '')[:200]!r}")
        assert w.proc.wait(timeout=60) == 0, f"exit code {w.proc.returncode}: {w.output()[-3000:]}"
        last = read_state(w.state_file)
        if last and last != seen[-1]:
            seen.append(last)
    finally:
        w.close()
    assert seen, "no state file"
    # Each step reached what it should.
    refused = [s for s in seen if "100000 bytes" in s["last_error"]]
    assert refused, "the 100,000-character class name was not refused: " + str({s["last_error"] for s in seen})
    assert all(s["model"] == HF_MODEL for s in refused), "the refused model replaced the open one"
    assert "\n" not in refused[0]["last_error"]
    assert any(s["model"] == kilo and s["ready"] for s in seen), "the model with 1000-byte class names did not open"
    assert any(s["question"] == "cls" and s["tab"] == "questions" and s["ready"] for s in seen)
    name_bytes = len(NAME.encode())
    for page in ("cross", "dynamic"):   # each draws the photos' names in its captions
        assert any(s["question"] == page and s["compare_ready"] and s["longest_text"] >= name_bytes for s in seen), \
            f"the {page} page did not draw the {name_bytes}-byte photo name"
    lesson_error = [s for s in seen if s["last_error"].startswith(os.path.join(tmp, "long.vitscope"))
                    or '"map" is' in s["last_error"]]
    assert lesson_error and '"map" is "' + "m" * 80 + '…"' in lesson_error[-1]["last_error"] \
        and len(lesson_error[-1]["last_error"]) < 1000, "the lesson's long field was not refused with a short quote"
    long_error = [s for s in seen if NAME in s["last_error"] or FOLDER in s["last_error"]]
    assert long_error, "opening the over-long path gave no error quoting it: " + seen[-1]["last_error"][:300]
    assert len(long_error[-1]["last_error"]) > limit, "the error that quotes the path is not longer than the bound"
    # On every state: nothing drawn longer than the bound, nothing but the long texts cut.
    ours = ("label", "f" * 10, "ü" * 10, "class name", "long.vitscope")
    # Nothing drawn longer than the bound, on any state.
    for s in seen:
        assert s["longest_text"] <= limit, f"a text of {s['longest_text']} bytes was drawn (bound {limit})"
    # Nothing but the long texts cut, on the last settled state of each screen (as the classroom walk: a
    # table or tab sizes itself over the frames after it first shows).
    screens = {}
    for s in seen:
        if s["ready"] and not s["busy"]:
            screens[(s["model"], s["tab"], s["question"], s["last_error"])] = s
    for s in screens.values():
        for finding in s["clipped_text"]:
            text = finding.split(" · ", 2)[-1]
            assert any(mark in text for mark in ours), \
                f"a text of the window's own was cut: {finding} (tab {s['tab']}, page {s['question']}, " \
                f"error {s['last_error'][:100]!r}, all: {s['clipped_text']})"
    drawn = max(s["longest_text"] for s in seen)
    whole = len(("0001" + LABEL).encode())
    assert drawn >= whole, f"the {whole}-byte class names were not drawn whole (longest text {drawn})"


if __name__ == "__main__":
    sys.exit(run_window_tests(Tally(), [test_long_names_and_labels], "vitscope_long_text_"))
