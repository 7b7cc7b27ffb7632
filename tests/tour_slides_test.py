#!/usr/bin/env python3
"""`vitscope tour IMAGE -o DIR`: the shipped tour as a slide deck, drawn
without a display server (DISPLAY unset; EGL).

One 1920 x 1080 PNG per step of assets/tours/first-look.tour (counted here by
reading the file), each titled with its step and carrying the step's text, not
blank, each different from the one before; an index.html that parses and
shows every slide in order. Then the refusals: an existing DIR, a folder that
is not there, a malformed tour: exit 2, one line, nothing left behind (no DIR,
no DIR.partial).
"""
import atexit
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

from script_support import BIN, DOG, MODEL, SRC, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_tour_slides_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
TOUR = os.path.join(SRC, "assets", "tours", "first-look.tour")


def vitscope(*args):
    return subprocess.run([BIN, "tour", DOG, *args, "--model", MODEL], env=ENV, capture_output=True, text=True,
                          timeout=600)


def step_titles(path):
    with open(path, encoding="utf-8") as f:
        return [line.split(":", 1)[1].strip() for line in f if line.startswith("step:")]


class Slides(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.headings, self._in_h2 = [], [], False

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))
        self._in_h2 = tag == "h2"

    def handle_data(self, data):
        if self._in_h2:
            self.headings.append(data)
            self._in_h2 = False


def refused(r, says, out):
    return (r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr and
            not os.path.exists(out + ".partial"))


def main():
    titles = step_titles(TOUR)
    out = os.path.join(TMP, "slides")
    r = vitscope("-o", out)
    check("exits 0 without a display", r.returncode == 0, r.stderr)
    check("says what it wrote",
          r.stdout.strip() == f"{out}: {len(titles)} slides (1920 x 1080), index.html and claims.csv", r.stdout)
    names = [f"step_{i + 1:02d}.png" for i in range(len(titles))]
    check("one PNG per step, index.html and claims.csv, nothing else",
          os.path.isdir(out) and sorted(os.listdir(out)) == sorted(names + ["index.html", "claims.csv"]),
          os.listdir(out) if os.path.isdir(out) else "no folder")
    check("no DIR.partial left", not os.path.exists(out + ".partial"))
    previous = None
    for name, title in zip(names, titles):
        path = os.path.join(out, name)
        if not os.path.isfile(path):
            continue
        im = Image.open(path)
        px = np.asarray(im.convert("RGB")).astype(np.int16)
        ok = (im.size == (1920, 1080) and im.info.get("Title") == title and im.info.get("Software") == "vitscope"
              and len(im.info.get("Description", "")) > 40 and "{" not in im.info["Description"])
        check(f"{name}: 1920 x 1080, titled '{title}', with the step's text", ok, (im.size, im.info))
        check(f"{name}: not blank", px.std() > 20, px.std())
        if previous is not None:
            check(f"{name}: differs from the slide before", np.abs(px - previous).mean() > 0.5,
                  np.abs(px - previous).mean())
        previous = px
    parser = Slides()
    with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
        parser.feed(f.read())
    check("index.html shows every slide in order, under its title",
          [i.get("src") for i in parser.images] == names and
          [h.split(". ", 1)[1] for h in parser.headings] == titles, (parser.images[:2], parser.headings[:2]))
    share = Image.open(os.path.join(out, names[6])).info.get("Description", "")
    check("the softmax slide names the share on the dog, computed", "of its patch weight on the dog" in share and
          "%" in share, share)

    # Refusals: nothing written, nothing half-written.
    r = vitscope("-o", out)
    check("an existing DIR: refused, left as it was", refused(r, "exists already", out) and
          len(os.listdir(out)) == len(names) + 2, r.stderr)
    missing = os.path.join(TMP, "no", "slides")
    r = vitscope("-o", missing)
    check("DIR in a folder that is not there: refused", refused(r, "does not exist", missing) and
          not os.path.exists(missing), r.stderr)
    bad = os.path.join(TMP, "bad.tour")
    with open(bad, "w") as f:
        f.write("title: x\nstep: one\ntext: the {nonsense}\n")
    target = os.path.join(TMP, "bad_slides")
    r = vitscope("--tour", bad, "-o", target)
    check("a malformed tour: refused naming its line, nothing written",
          refused(r, f"{bad}:3: unknown placeholder {{nonsense}}", target) and not os.path.exists(target), r.stderr)
    r = vitscope("-o", os.path.join(TMP, "x"), "--tour", os.path.join(TMP, "absent.tour"))
    check("a tour file that is not there: refused", refused(r, "absent.tour: not found", os.path.join(TMP, "x")),
          r.stderr)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
