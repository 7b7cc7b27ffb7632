#!/usr/bin/env python3
"""Classroom mode's live exercise (issue 35, item 4) in a real window under
Xvfb, through real X clicks and typing (xdotool) on the places the state file
reports. The sample exercises run on chelsea.png (not the file's own photo:
the query is chosen by relevance, the pinned key by weight), once answered
wrong and once right. The right answers come from `vitscope exercises --key`
(checked against NumPy in exercises_test.py); the revealed arithmetic is
checked against `vitscope attention` for the same layer, head and query
(score, scaled score, weight of the key), and a revealed weight is read back
from the screen by OCR. Bad input: a typed answer in another format is one
note and keeps the text; an exercises file with an error is one line and the
exercise on show stays as it was. Prints "N passed, M failed"."""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, MODEL, SRC, Tally  # noqa: E402
from window_support import Window, Xvfb, patch_centre, read_state, run_script  # noqa: E402

SIZE = "1280x720"  # a lecture room's projector


def key_rows():
    r = subprocess.run([BIN, "exercises", CHELSEA, "--key", "-", "--model", MODEL], capture_output=True, text=True,
                       timeout=300, check=True)
    return list(csv.DictReader(io.StringIO(r.stdout)))


def attention(layer, head, query):
    """The command line's row: key -> {row, col, score, scaled, weight}."""
    heads = ["--mean-heads"] if head == "mean" else ["--head", str(head)]  # map=mean: the mean of the heads
    r = subprocess.run([BIN, "attention", CHELSEA, "--layer", str(layer), *heads, "--query", str(query),
                        "--model", MODEL], capture_output=True, text=True, timeout=300, check=True)
    return {int(d["key"]): {k: float(v) for k, v in d.items()} for d in csv.DictReader(io.StringIO(r.stdout))}


class Live:
    """The running window, driven through real input on the state file's places."""

    def __init__(self, w):
        self.w = w
        self.win = w.window_id()
        w.xdotool("windowfocus", "--sync", self.win)

    def state(self):
        return read_state(self.w.state_file)

    def live(self):
        return self.state()["live_exercise"]

    def click(self, name):
        self.w.wait_for(lambda s: name in s["live_exercise"].get("targets", {}), what=f"the {name} button")
        s = self.w.wait_still("live_exercise", seconds=0.3)  # laid out for this exercise, not scrolling
        x, y, w, h = s["live_exercise"]["targets"][name]
        self.w.click(x + w / 2, y + h / 2)

    def key(self, *keys):
        self.w.xdotool("key", *keys)

    def type(self, text):
        self.w.xdotool("type", "--delay", "20", text)

    def wait(self, pred, what):
        return self.w.wait_for(lambda s: pred(s["live_exercise"]), what=what)["live_exercise"]

    def go_to(self, n):
        """Exercise n (1-based) through the Previous and Next buttons."""
        while True:
            now = self.live()["exercise"]
            if now == n:
                return self.wait(lambda e: e["exercise"] == n and e["phase"] == "answering" and "reveal" in e["targets"],
                                 f"exercise {n} ready")
            self.click("next" if now < n else "previous")
            self.wait(lambda e: e["exercise"] != now, f"leaving exercise {now}")

    def reveal(self):
        self.click("reveal")
        return self.wait(lambda e: e["phase"] == "revealed", "the reveal")


def screenshot(live, tmp, name):
    """F12: the whole window as a student sees it, moved to tmp/name."""
    live.w.xdotool("mousemove", "--window", live.win, "5", "5")  # no tooltip over the photo
    live.key("F12")

    def saved(s):  # the earlier screenshots were moved away: the one named now is this one
        m = re.search(r"Saved screenshot (.*)$", s["status"])
        return m and os.path.exists(m.group(1)) and m.group(1)
    saved = saved(live.w.wait_for(saved, what="F12's screenshot"))
    path = os.path.join(tmp, name)
    os.replace(saved, path)
    return path


def photo_change(a, b, view):
    """The share of the photo's pixels that two screenshots show differently (by over 40 in R+G+B): the
    map's colours where one has the map and the other the bare photo; the marks (a few
    patch outlines) change well under 1 %."""
    import numpy as np
    from PIL import Image
    x, y, w, h = (int(round(v)) for v in view)
    pa = np.asarray(Image.open(a).convert("RGB"), dtype=float)[y:y + h, x:x + w]
    pb = np.asarray(Image.open(b).convert("RGB"), dtype=float)[y:y + h, x:x + w]
    return float((np.abs(pa - pb).sum(axis=2) > 40).mean())


def wrong_token(row, grid, right):
    """A patch the query does not weigh most: the lowest-weight patch."""
    patches = [k for k in row if k >= 1 and k != right]
    return min(patches, key=lambda k: row[k]["weight"])


def answer(live, tally, e, row, correct, grid):
    """Gives exercise e's answer (right or wrong) through the window's own input; returns the verdict."""
    kind, n = e["kind"], int(e["exercise"])
    state = live.state()
    if kind == "choice":
        # Several right options: each clicked (a click ticks one); wrong: one option that is not all of them.
        right = [int(x) for x in e["answer"].split()]
        options = right if correct else [1 if right != [1] else 2]
        for option in options:
            live.click(f"option {option}")
        live.wait(lambda x: x["given"]["options"] == options, f"options {options} chosen")
        return live.reveal()
    if kind == "top_key":
        token = int(e["answer"]) if correct else wrong_token(row, grid, int(e["answer"]))
        if token == 0:
            live.click("CLS")
        else:
            live.w.click(*patch_centre(state, (token - 1) // grid, (token - 1) % grid))
        live.wait(lambda x: x["given"]["key"] == token, f"key {token} picked")
        return live.reveal()
    if kind == "predict_region":
        ranked = sorted((k for k in row if k >= 1), key=lambda k: row[k]["weight"], reverse=correct)
        marked = ranked[:3]
        for k in marked:
            live.w.click(*patch_centre(state, (k - 1) // grid, (k - 1) % grid))
        live.wait(lambda x: len(x["given"]["marked"]) == 3, "three patches marked")
        v = live.reveal()
        on_patches = sum(row[k]["weight"] for k in row if k >= 1)
        expected = sum(row[k]["weight"] for k in marked) / (3 / grid ** 2 * on_patches)
        tally.check(f"exercise {n} ({'top' if correct else 'bottom'} 3 patches): the ratio is the attention CSV's "
                    f"weight on them against an even spread ({expected:.3f})",
                    abs(v["verdict"]["region"]["ratio"] - expected) < 1e-3 * max(1, expected), v["verdict"].get("region"))
        return v
    # weight, scaled_score: typed into the field, Enter checks it.
    low, high = (float(x) for x in e["accepted"].split())
    truth, tol = float(e["answer"]), (high - low) / 2
    text = f"{truth:.4f}" if correct else f"{truth + 5 * tol:.4f}"
    live.click("answer field")
    live.w.wait_for(lambda s: s["text_input"], what="the answer field to take the keyboard")
    live.key("ctrl+a", "BackSpace")
    live.type(text)
    live.wait(lambda x: x["given"]["typed"] == text, f"{text} typed")
    live.key("Return")
    return live.wait(lambda x: x["phase"] == "revealed", "Enter to reveal")


def check_arithmetic(tally, n, v, row):
    """The revealed steps against the command line's attention row for the same key."""
    a = v["verdict"]["arithmetic"]
    k = a["key"]
    ok = (abs(a["score"] - row[k]["score"]) < 1e-3 * max(1, abs(row[k]["score"])) and
          abs(a["scaled"] - row[k]["scaled"]) < 1e-4 * max(1, abs(row[k]["scaled"])) and
          abs(a["weight"] - row[k]["weight"]) < 1e-6 and
          abs(a["scaled"] * a["sqrt_dk"] - a["score"]) < 1e-3 * max(1, abs(a["score"])) and
          abs(a["exp"] / a["z"] - a["weight"]) < 1e-6)
    tally.check(f"exercise {n}: the revealed score, ÷√dₖ, exp ÷ Z and weight are the attention CSV's for key {k}",
                ok, (a, row[k]))


def test_sample_right_and_wrong(tally, xvfb, tmp, rows):
    script = os.path.join(tmp, "open.txt")
    with open(script, "w") as f:
        f.write("wait\nexercises default\n")
    w = Window(xvfb, BIN, [CHELSEA, "--model", MODEL, "--classroom", "--script", script], tmp, size=SIZE)
    try:
        w.wait_for(lambda s: s.get("ready") and s["live_exercise"]["phase"] == "answering", what="the live exercise")
        live = Live(w)
        grid = live.state()["grid"]
        tally.check(f"exercise 1 of {len(rows)} is on, in classroom mode", live.live()["exercise"] == 1 and live.live()["count"] == len(rows)
                    and live.state()["classroom"], live.live())
        cache = {}
        for correct in (False, True):
            for e in rows:
                n = int(e["exercise"])
                x = live.go_to(n)
                hides = x["kind"] != "choice"
                tally.check(f"exercise {n} ({e['kind']}): the maps hidden while answering{'' if hides else ' (not for a choice)'}",
                            x["maps_hidden"] == hides, x["maps_hidden"])
                before = screenshot(live, tmp, f"before{n}.png") if correct and e["kind"] == "top_key" and n == 3 else None
                row = None
                if e["layer"]:
                    key = (e["layer"], e["head"], e["query"])
                    if key not in cache:
                        cache[key] = attention(*key)
                    row = cache[key]
                if e["kind"] in ("weight", "scaled_score") and correct:
                    # Another format first: one note, the text kept, nothing checked.
                    live.click("answer field")
                    live.w.wait_for(lambda s: s["text_input"], what="the answer field")
                    live.type("about 0.3")
                    live.click("reveal")
                    y = live.wait(lambda y: y["note"], "the note on a misformatted answer")
                    tally.check(f"exercise {n}: 'about 0.3' is one line of note, still answering, the text kept",
                                y["phase"] == "answering" and "\n" not in y["note"] and "not a number" in y["note"] and
                                y["given"]["typed"] == "about 0.3", y)
                # The audit of a settled frame (scrolling limits follow the content a frame later).
                cut = live.w.wait_still("clipped_text", seconds=0.5)["clipped_text"]
                v = answer(live, tally, e, row, correct, grid)
                d = v["verdict"]
                cut += live.w.wait_still("clipped_text", seconds=0.5)["clipped_text"]
                tally.check(f"exercise {n}: no text cut or broken inside a word at {SIZE}, asking or revealed", not cut, cut)
                tally.check(f"exercise {n} ({e['kind']}) answered {'right' if correct else 'wrong'}: the verdict says so",
                            d["correct"] == correct, d)
                if e["kind"] == "choice":
                    tally.check(f"exercise {n}: the revealed options are the key's",
                                d["answer"]["options"] == [int(x) for x in e["answer"].split()], d)
                elif e["kind"] == "top_key":
                    tally.check(f"exercise {n}: the revealed key is the key's", d["answer"]["key"] == int(e["answer"]), d)
                    if e["head"] != "mean":  # the mean of the heads has no one head's arithmetic
                        check_arithmetic(tally, n, v, row)
                elif e["kind"] in ("weight", "scaled_score"):
                    tally.check(f"exercise {n}: the revealed {e['kind']} is the key's ({e['answer']}), key {e['key']}",
                                abs(d["answer"]["value"] - float(e["answer"])) < 1e-6 * max(1, abs(float(e["answer"])))
                                and d["answer"]["key"] == int(e["key"]), d)
                    check_arithmetic(tally, n, v, row)
                if before:
                    after = screenshot(live, tmp, f"after{n}.png")
                    change = photo_change(before, after, live.state()["image_view"])
                    tally.check(f"exercise {n}: the photo's pixels change on Reveal (the map hidden before, same "
                                f"layer, head and query after): {100 * change:.0f} % of its pixels", change > 0.05, change)
                if e["layer"]:
                    s = live.state()
                    tally.check(f"exercise {n}: revealed, the photo shows the map of layer {e['layer']}, head {e['head']}, "
                                f"query {e['query']}", not v["maps_hidden"] and s["maps_on_screen"] and
                                (s["layer"], s["query"]) == (int(e["layer"]), int(e["query"]))
                                and (s["map"] == "mean" if e["head"] == "mean" else s["head"] == int(e["head"])),
                                (s["layer"], s["head"], s["query"], s.get("map"), s["maps_on_screen"]))
                if correct and e["kind"] == "weight" and n == 4:
                    shot = screenshot(live, tmp, "weight.png")
                    text = subprocess.run(["tesseract", shot, "-"], capture_output=True, text=True, timeout=300).stdout
                    shown = f"{float(e['answer']):.4f}"
                    tally.check(f"exercise {n}: OCR reads 'Right.' and the weight {shown} on the screen",
                                "Right." in text and shown in text, text[-800:])
        # Esc ends it: the explorer again, the maps back.
        live.w.xdotool("mousemove", "--window", live.win, "5", "5")
        live.key("Escape")
        s = w.wait_for(lambda s: s["live_exercise"]["phase"] == "off", what="Esc to end the exercise")
        tally.check("Esc ends it: no tour left on, the maps back", s["tour_step"] == -1 and s["maps_on_screen"], s["tour_step"])
    finally:
        w.close()


def ocr_word(path, word):
    """The centre of the first OCR word box reading `word` in a screenshot; None when not read."""
    r = subprocess.run(["tesseract", path, "-", "tsv"], capture_output=True, text=True, timeout=300)
    for line in r.stdout.splitlines()[1:]:
        f = line.split("\t")
        if len(f) == 12 and f[11].strip() == word:
            return int(f[6]) + int(f[8]) / 2, int(f[7]) + int(f[9]) / 2
    return None


def test_own_file_through_the_menu(tally, xvfb, tmp):
    """File > Exercises in class, from a file…: the menu item found on the screen by OCR, clicked, the
    file's path typed into the browser, Return: the teacher's own file runs."""
    own = os.path.join(tmp, "week3.exercises")
    with open(os.path.join(SRC, "assets", "exercises", "first-look.exercises")) as f:
        text = f.read()
    with open(own, "w") as f:
        f.write(text.replace("title: One patch's attention: homework", "title: Week 3"))
    w = Window(xvfb, BIN, [CHELSEA, "--model", MODEL, "--classroom"], tmp, size=SIZE)
    try:
        w.wait_for(lambda s: s.get("ready"), what="the first forward pass")
        live = Live(w)
        menu = ocr_word(screenshot(live, tmp, "window.png"), "File")
        tally.check("the menu bar's File (OCR)", menu is not None)
        if menu is None:
            return
        live.w.click(*menu)
        w.pause(1)  # the menu opens on the next frames
        w.xdotool("key", "F12")
        s = w.wait_for(lambda s: "Saved screenshot" in s["status"] and os.path.exists(
            re.search(r"Saved screenshot (.*)$", s["status"]).group(1)), what="F12 with the menu open")
        path = re.search(r"Saved screenshot (.*)$", s["status"]).group(1)
        at = ocr_word(path, "file…") or ocr_word(path, "file...")
        tally.check("the File menu shows 'Exercises in class, from a file…' (OCR)", at is not None)
        if at is None:
            return
        live.w.click(*at)
        w.wait_for(lambda s: s["browser"] == "exercises", what="the browser for an exercises file")
        w.xdotool("key", "ctrl+a")
        w.xdotool("type", "--delay", "5", own)
        w.xdotool("key", "Return")
        s = w.wait_for(lambda s: s["live_exercise"]["phase"] != "off" or s["last_error"], what="the file to run")
        tally.check("the teacher's file runs live from the browser, at its first exercise",
                    s["live_exercise"].get("path") == own and s["live_exercise"]["exercise"] == 1 and not s["last_error"],
                    (s["live_exercise"].get("path"), s["last_error"]))
    finally:
        w.close()


def test_bad_file_keeps_the_exercise(tally, tmp):
    bad = os.path.join(tmp, "bad.exercises")
    with open(bad, "w") as f:
        f.write("title: Broken\nexercise: one\nkind: top_key\nstate: layer=3 head=2 query=5,3\ntext: Which key?\n"
                "exercise: two\nkind: guess\ntext: ?\n")
    far = os.path.join(tmp, "far.exercises")
    with open(far, "w") as f:
        f.write("title: Too deep\nexercise: one\nkind: top_key\nstate: layer=40 head=0 query=5,3\ntext: Which key?\n")
    script = (f"wait\nexercises default\nexercise next\nanswer 1.5\nexercises {bad}\nframes 2\nexercises {far}\n"
              "frames 2\nquit\n")
    code, seen, output = run_script(BIN, [CHELSEA, "--model", MODEL, "--classroom"], script, tmp)
    errors = [s["last_error"] for s in seen if s["last_error"]]
    tally.check("an unknown kind: one line naming the file and line", code == 0 and any(
        e.startswith(bad + ":7:") and "unknown kind" in e and "\n" not in e for e in errors), (code, errors, output[-300:]))
    tally.check("a layer the model does not have: one line naming the exercise", any(
        "exercise 1 'one'" in e and "layer 40" in e and "\n" not in e for e in errors), errors)
    last = seen[-1]["live_exercise"]
    tally.check("the exercise on show stays: exercise 2 with 1.5 typed", last["phase"] == "answering" and
                last["exercise"] == 2 and last["given"]["typed"] == "1.5" and last["path"].endswith("first-look.exercises"),
                last)


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    rows = key_rows()
    tally.check("the key has the sample's 11 exercises over 5 kinds",
                len(rows) == 11 and {r["kind"] for r in rows} == {"choice", "top_key", "weight", "scaled_score", "predict_region"})
    xvfb = Xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="vitscope_live_exercise_") as tmp:
            test_sample_right_and_wrong(tally, xvfb, tmp, rows)
        with tempfile.TemporaryDirectory(prefix="vitscope_live_exercise_menu_") as tmp:
            test_own_file_through_the_menu(tally, xvfb, tmp)
        with tempfile.TemporaryDirectory(prefix="vitscope_live_exercise_bad_") as tmp:
            test_bad_file_keeps_the_exercise(tally, tmp)
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
