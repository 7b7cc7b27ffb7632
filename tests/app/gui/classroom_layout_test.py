#!/usr/bin/env python3
"""Classroom mode fits a projector: under Xvfb, the real window walks every tour
step and every Questions page, in classroom mode at 1024 x 768, 1280 x 720 and
1920 x 1080 and in the normal mode at 1280 x 720 and 1920 x 1080, and the state
file's clipped_text (the texts of a frame cut by their window, column or cell,
or broken inside a word) must be empty on each. Also: the tour drives the
one-step math panel (a step that declares math=scale shows the Scale step), the
tour card's buttons are on the screen at every step, and the light theme
(View > Theme) is reported and remembered in the settings file. At every tour
step the card lies over no map on the screen (the panel under it gives up the
card's room). Classroom mode: the photo at least 360 px tall on every screen
outside the tour and 252 px at every step, the card never over it, and each
step's key sentence whole inside the card (the state file's image_view,
tour_card, tour_key_rect); on each Questions page that draws maps, the first
of them on the screen, and on every page its first figure (plot, table, map
or picture: the state file's page_figure) whole inside the window and the
page's visible area (the prose folded beneath the figures).

One window per size, the steps walked by its script, so the test stays short."""
import os
import sys
import tempfile
import traceback

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, Tally, source, window_pages  # noqa: E402
from window_support import Window, Xvfb, overlap, read_state  # noqa: E402

SIZES_ALL = [("classroom", "1024x768"), ("classroom", "1280x720"), ("classroom", "1920x1080"),
         ("normal", "1280x720"), ("normal", "1920x1080")]
# VITSCOPE_CLASSROOM_SIZES=classroom:1024x768,normal:1280x720 runs some of them.
SIZES = [tuple(x.split(":")) for x in os.environ.get("VITSCOPE_CLASSROOM_SIZES", "").split(",") if x] or SIZES_ALL
# The one-step math panel's steps, in order (the contract of a tour file's math= key).
MATH_STEPS = ["query", "key", "score", "scale", "softmax", "value", "output"]


def tour_steps():
    """(title, declared math step or None) of each step of the tour that ships."""
    steps = []
    for line in source("assets/tours/first-look.tour").splitlines():
        if line.startswith("step:"):
            steps.append([line[5:].strip(), None])
        elif line.startswith("state:") and steps:
            for word in line[6:].split():
                if word.startswith("math="):
                    steps[-1][1] = word[5:]
    return steps


def watch(w, timeout=900):
    """Every state the window writes until it exits, polled often so that each step's last one is seen."""
    import time
    seen, deadline = [], time.time() + timeout
    while time.time() < deadline:
        state = read_state(w.state_file)
        if state is not None and (not seen or state != seen[-1]):
            seen.append(state)
        if w.proc.poll() is not None:
            state = read_state(w.state_file)
            if state is not None and state != seen[-1]:
                seen.append(state)
            return seen
        time.sleep(0.02)
    raise AssertionError("timed out")


def walk(xvfb, tmp, mode, size, pages, steps):
    """One window at this size: every tour step, then every page; the last state of each, by screen."""
    name = f"{mode}_{size}"
    commands = f"compare {CHELSEA}\nselect 5,3\nlayer 3\nhead 2\nwait\ntour default\nframes 3\nwait\nframes 4\n"
    commands += "tour next\nwait\nframes 4\n" * (len(steps) - 1)
    commands += "tour exit\nframes 3\n"
    for page in pages:
        commands += f"question {page}\nframes 3\nwait\nframes 4\n"
    commands += "tab math\nwait\nframes 4\ntab whatifs\nwait\nframes 4\nquit\n"
    script = os.path.join(tmp, name + ".txt")
    with open(script, "w") as f:
        f.write(commands)
    options = ["--classroom"] if mode == "classroom" else []
    w = Window(xvfb, BIN, [DOG, "--model", MODEL, *options, "--script", script], tmp, size=size)
    try:
        seen = watch(w)
        assert w.proc.wait(timeout=60) == 0, f"exit code {w.proc.returncode}: {w.output()}"
    finally:
        w.close()
    screens = {}
    for s in seen:
        if not s["ready"] or s["busy"]:
            continue
        if s["tour_step"] >= 0:
            screens[f"tour step {s['tour_step'] + 1} ({s['tour_step_title']})"] = s
        elif s["tab"] == "questions":
            screens[f"page {s['question']}"] = s
        elif s["tab"] in ("math", "whatifs"):
            screens[f"tab {s['tab']}"] = s
    return screens


def inside(a, b):
    """Whether the (x, y, w, h) rectangle a lies within b (to a pixel)."""
    return a[0] >= b[0] - 1 and a[1] >= b[1] - 1 and a[0] + a[2] <= b[0] + b[2] + 1 and a[1] + a[3] <= b[1] + b[3] + 1


def first_figures(tally, mode, size, screens):
    """Every Questions page leads with its figure: the first plot, table, map or picture it draws lies whole inside
    the window and inside the part of the page on the screen (the state file's page_figure: the figure's x, y, w, h,
    then its part inside the page's clip)."""
    width, height = (int(v) for v in size.split("x"))
    pages = {k: s["page_figure"] for k, s in screens.items() if k.startswith("page ")}
    off = {}
    for k, fig in pages.items():
        r = fig["rect"]
        if len(r) != 8 or r[2] <= 0 or r[3] <= 0:
            off[k] = f"no figure drawn: {fig}"
            continue
        whole = all(abs(a - b) <= 1 for a, b in zip(r[:4], r[4:]))
        if not whole or not inside(r[:4], (0, 0, width, height)):
            off[k] = (fig["kind"], [round(v) for v in r])
    kinds = sorted({fig["kind"] for fig in pages.values() if fig["kind"]})
    tally.check(f"{mode} {size}: the first figure of each of the {len(pages)} Questions pages whole on the screen "
                f"({', '.join(kinds)})", pages and not off, f"{off}")


def photo_room(tally, mode, size, screens):
    """Classroom mode gives the photo the room: at least 360 px tall on every screen but the tour's (the state
    file's image_view), at least 252 px at every tour step with the card never over it, and each step's key
    sentence (the claim with its number) drawn whole inside the card, where the class reads it without
    scrolling."""
    tour = {k: s for k, s in screens.items() if k.startswith("tour step")}
    rest = {k: s for k, s in screens.items() if not k.startswith("tour step")}
    small = {k: s["image_view"][3] for k, s in rest.items() if s["image_view"][3] < 360}
    tally.check(f"{mode} {size}: the photo at least 360 px tall on the {len(rest)} screens outside the tour", not small,
                f"{small}")
    small = {k: s["image_view"][3] for k, s in tour.items() if s["image_view"][3] < 252}
    tally.check(f"{mode} {size}: the photo at least 252 px tall at every tour step", not small, f"{small}")
    over = {k: s["tour_card"] for k, s in tour.items() if s["tour_card"] and overlap(s["image_view"], s["tour_card"]) > 0}
    tally.check(f"{mode} {size}: the card over the photo at no tour step", not over, f"{over}")
    keyed = {k: s for k, s in tour.items() if s["tour_key_sentence"]}
    bad = {k: (s["tour_key_rect"], s["tour_card"]) for k, s in keyed.items()
           if not s["tour_key_rect"] or not inside(s["tour_key_rect"], s["tour_card"])}
    tally.check(f"{mode} {size}: the key sentence inside the card at each of the {len(keyed)} steps that have one",
                not bad and len(keyed) >= 10, f"{bad}")
    claims = [k for k, s in keyed.items() if "%" in s["tour_key_sentence"]]
    tally.check(f"{mode} {size}: the softmax step leads with its claim's shares",
                any("Softmax" in k for k in claims), f"{claims}")
    # Questions pages lead with their figure: on a page that draws maps (CLS's layers, the global page's
    # head, the position embeddings, the relevance maps...), the topmost of them is on the screen, not
    # below the fold under the page's prose.
    below = {}
    for k, s in screens.items():
        if not k.startswith("page "):
            continue
        column = s["image_view"][0] + s["image_view"][2]
        strip_end = max((t[1] + t[3] for t in s["head_thumbs"]), default=0)
        maps = sorted((m for m in s["maps_on_screen"] if m[0] > column and m[1] > strip_end), key=lambda m: m[1])
        if maps and (maps[0][6] <= 0 or maps[0][7] <= 0):
            below[k] = maps[0]
    tally.check(f"{mode} {size}: every Questions page that draws maps shows its first on the screen", not below,
                f"{below}")
    heights = sorted(round(s["image_view"][3]) for s in screens.values())
    print(f"    photo heights {heights[0]}..{heights[-1]} px; key sentences on {len(keyed)} of {len(tour)} steps")


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    pages, steps = window_pages(), tour_steps()
    wanted = [f"tour step {i + 1} ({t})" for i, (t, _) in enumerate(steps)] + [f"page {p}" for p in pages] + \
        ["tab math", "tab whatifs"]
    xvfb = Xvfb(1920, 1080)
    try:
        for mode, size in SIZES:
            with tempfile.TemporaryDirectory(prefix="vitscope_classroom_") as tmp:
                try:
                    screens = walk(xvfb, tmp, mode, size, pages, steps)
                except Exception:
                    traceback.print_exc()
                    tally.check(f"{mode} {size}: the window walked the tour and the pages", False)
                    continue
                missing = [k for k in wanted if k not in screens]
                tally.check(f"{mode} {size}: every tour step and page shown", not missing, f"never seen: {missing}")
                cut = {k: screens[k]["clipped_text"] for k in wanted if k in screens and screens[k]["clipped_text"]}
                for k, texts in cut.items():
                    print(f"    {k}: {texts}")
                tally.check(f"{mode} {size}: no text cut or broken on any of {len(screens)} screens", not cut)
                covered = {k: [m for m in s["maps_on_screen"] if overlap(m[4:], s["tour_card"])]
                           for k, s in screens.items() if k.startswith("tour step") and s["tour_card"]}
                covered = {k: v for k, v in covered.items() if v}
                tally.check(f"{mode} {size}: the tour's card over no map at any step", not covered, f"{covered}")
                if mode == "classroom":
                    photo_room(tally, mode, size, screens)
                    first_figures(tally, mode, size, screens)
                    wrong = []
                    for i, (title, math) in enumerate(steps):
                        s = screens.get(f"tour step {i + 1} ({title})")
                        if s and math and s["math_step"] != MATH_STEPS.index(math) + 1:
                            wrong.append((title, math, s["math_step"]))
                    tally.check(f"{mode} {size}: the tour moves the math panel to each step's math step", not wrong,
                                f"{wrong}")
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
