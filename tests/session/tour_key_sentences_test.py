#!/usr/bin/env python3
"""The tour's key sentences, what classroom mode and the slides show bold and
alone, read as a class reads them: on every photo in assets/ (four of them
with no dog) and a mirrored dog.jpg (`vitscope tour PHOTO -o DIR`, the deck's
<p class="key"> paragraphs), each step has one, and each
  - stands alone: one sentence, not opening with a pronoun that points back
    at folded text (It, This, These, That, Those, They, Its, Their, Here);
  - has every placeholder filled (no "—", no "{");
  - says "high-norm" on the class-token step where its claim holds;
  - on a step with a claim, carries the claim's number as claims.csv has it.
The example keys against the row's argmax, from `vitscope dump`'s attn.npy:
  - the √dₖ step (claims.csv's unscaled_top_weight row gives its head and
    query) names the key the row weighs most, CLS where it is CLS;
  - step 4 on a photo that is not the tour's calls its key "the key this
    query's q matches best" only where it is the row's argmax; where the
    query's own key ranks first it says so, and the rank it gives ("K of N")
    is the key's rank by weight in the row.
"""
import atexit
import csv
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, SRC, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_tour_keys_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
ASSETS = os.path.join(SRC, "assets")
PRONOUNS = ("It", "This", "These", "That", "Those", "They", "Its", "Their", "Here", "So")


def run(*args):
    r = subprocess.run([BIN, *args, "--model", MODEL], env=NO_DISPLAY, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"vitscope {' '.join(args)}: {r.stderr.strip()}")
    return r


class Deck(html.parser.HTMLParser):
    """Per <section> of index.html: its heading and its key sentence."""

    def __init__(self):
        super().__init__()
        self.slides, self._tag, self._key = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.slides.append({"title": "", "key": ""})
        self._tag = tag
        self._key = tag == "p" and ("class", "key") in attrs

    def handle_endtag(self, tag):
        self._tag, self._key = None, False

    def handle_data(self, data):
        if not self.slides:
            return
        if self._tag == "h2":
            self.slides[-1]["title"] += data
        if self._key:
            self.slides[-1]["key"] += data


def token_of(name, grid, prefix):
    """'patch (r, c)' -> its token; 'CLS' -> 0."""
    m = re.fullmatch(r"patch \((\d+), (\d+)\)", name)
    return prefix + int(m[1]) * grid + int(m[2]) if m else (0 if name == "CLS" else None)


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?]) (?=[A-Z0-9])", text) if s]


def check_photo(photo, name):
    deck_dir = os.path.join(TMP, name + "_slides")
    run("tour", photo, "-o", deck_dir)
    deck = Deck()
    deck.feed(open(os.path.join(deck_dir, "index.html"), encoding="utf-8").read())
    with open(os.path.join(deck_dir, "claims.csv"), newline="") as f:
        claims = {int(r["step"]): r for r in csv.DictReader(f)}
    dump = os.path.join(TMP, name + "_dump")
    run("dump", photo, "-o", dump)
    meta = json.load(open(os.path.join(dump, "meta.json")))
    grid, prefix = meta["grid"], meta["prefix"]
    attn = np.load(os.path.join(dump, "attn.npy"))
    check(f"{name}: a key sentence on every one of the {len(deck.slides)} slides",
          len(deck.slides) >= 10 and all(s["key"] for s in deck.slides),
          [s["title"] for s in deck.slides if not s["key"]])
    for i, slide in enumerate(deck.slides, 1):
        key = slide["key"]
        where = f"{name} step {i} ({slide['title']})"
        first = key.split(" ")[0].strip(",:;")
        check(f"{where}: the key sentence stands alone: one sentence, no leading pronoun, every value filled "
              f"('{key[:60]}...')", first not in PRONOUNS and len(sentences(key)) == 1 and "—" not in key and
              "{" not in key, key)
        c = claims.get(i)
        if c and c["claim"] != "high_norm_tokens":
            v = float(c["value"])
            said = ({f"{v:.3f}"} if c["claim"] == "unscaled_top_weight" else
                    {f"{100 * v:.0f}%", f"{100 * v:.1f}%"})
            check(f"{where}: the key sentence carries {c['claim']}'s value ({sorted(said)[0]})",
                  any(x in key for x in said), key)
        if c and c["claim"] == "high_norm_tokens":
            ok = ("high-norm" in key and f"{float(c['value']):.1f}" in key) if int(c["holds"]) else \
                f"{float(c['value']):.1f}" in key
            check(f"{where}: the class-token key sentence names the high-norm tokens where they exist, with the "
                  f"longest norm {float(c['value']):.1f}", ok, key)
        if c and c["claim"] == "unscaled_top_weight":
            layer, head, query = int(c["layer"]), int(c["head"]), int(c["query"])
            row = attn[layer, head, query]
            top = int(np.argmax(row))
            m = re.search(r"(CLS|patch \(\d+, \d+\)) would take", key)
            named = token_of(m[1], grid, prefix) if m else None
            check(f"{where}: the √dₖ step names the row's argmax (token {top}: "
                  f"{'CLS' if top == 0 else 'a patch'}, weight {row[top]:.3f}) with its weight without and with the "
                  f"division", named == top and f"{float(c['baseline']):.3f}" in key, (named, key))
    if name != "dog.jpg":
        c2 = claims.get(2)
        key = deck.slides[3]["key"]
        m = re.search(r"against the key of (CLS|patch \(\d+, \d+\)), (.*), is the dot product", key)
        if check(f"{name} step 4: the key sentence names its key and how it ranks", c2 is not None and m is not None,
                 key):
            layer, head, query = int(c2["layer"]), int(c2["head"]), int(c2["query"])
            row = attn[layer, head, query].astype(np.float64)
            k = token_of(m[1], grid, prefix)
            top = int(np.argmax(row))
            rank = 1 + int((row > row[k]).sum())
            how = m[2]
            if "matches best in this head" in how:
                ok = k == top
            elif "after its own key, which ranks first" in how:
                ok = top == query and rank == 2
            else:
                ok = "ranks first" in how and (("the query's own key" in how) == (top == query))
            check(f"{name} step 4: '{how}' is right for key {k} (the row's argmax is {top}, the query {query}, the "
                  f"key ranks {rank} of {row.size})", ok and (rank == 1 or f"{rank} of {row.size}" in how), how)
    shutil.rmtree(dump)


def main():
    photos = sorted(os.path.join(ASSETS, f) for f in os.listdir(ASSETS) if f.endswith((".jpg", ".png")))
    no_dog = [p for p in photos if os.path.basename(p) != "dog.jpg"]
    check("assets/ holds at least four photos with no dog", len(no_dog) >= 4, no_dog)
    mirrored = os.path.join(TMP, "mirrored.png")
    Image.open(DOG).convert("RGB").transpose(Image.FLIP_LEFT_RIGHT).save(mirrored)
    for photo in photos + [mirrored]:
        check_photo(photo, os.path.basename(photo))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
