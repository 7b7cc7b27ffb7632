#!/usr/bin/env python3
"""The shipped tour's claims, recomputed with NumPy from the dumped trace on
every sample photo in assets/ and on a mirrored copy of dog.jpg (the same
dog, but not the tour's photo).

For each photo: `vitscope tour PHOTO --claims OUT.csv` and `vitscope dump`.
From the tour file alone (read here, not through vitscope) the test knows
each step's query, its choose: criterion and its claim for this photo (own-
lines on dog.jpg, other- lines elsewhere). From attn.npy it recomputes:
  - the head each choose: picks: the largest criterion value over the layer
    asked for (or every layer), ties to the first;
  - the two fixed claims, written from their definitions:
      region_beyond_neighbourhood: the weight on the region's patches outside
        the query's 3 x 3 neighbourhood / the weight on all patch keys;
        baseline: those patches / the patches outside the neighbourhood
      beyond_neighbourhood: the patch weight outside the neighbourhood / the
        weight on patch keys; baseline: patches outside it / all patches
  - holds = value >= ratio x baseline;
  - high_norm_tokens, a claim about the step's layer (any query, CLS too):
      value = the largest patch token's norm leaving the layer, baseline = the
      median patch token's norm there, ratio 10 (a high-norm token is one at
      least 10 x the median), from token states of the float64 NumPy forward
      pass (tests/reference/vit_reference.py) on vitscope's own input.npy.
Every claims.csv row must match, and there must be one row per claim step.
The class-token step must show its holds: or fails: paragraph, with the
numbers as recomputed, and never the word "none".

Then the slides on a photo that is not the tour's: index.html shows every
caption as text, and no title, caption or PNG description says the tour's
region or its words ("dog", "ear").
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

from script_support import BIN, DOG, MODEL, SRC, Tally

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference"))
import vit_reference  # noqa: E402

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_tour_claims_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
ENV = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
TOUR = os.path.join(SRC, "assets", "tours", "first-look.tour")
ASSETS = os.path.join(SRC, "assets")


def run(*args):
    r = subprocess.run([BIN, *args, "--model", MODEL], env=ENV, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"vitscope {' '.join(args)}: {r.stderr.strip()}")
    return r


# ---------------------------------------------------------------------------
# The tour file, read independently of vitscope's parser


def patches_of(text):
    out = []
    for w in text.split():
        row, cols = w.split(",")
        first, _, last = cols.partition("-")
        out += [(int(row), c) for c in range(int(first), int(last or first) + 1)]
    return out


def criterion(text):
    words = text.split()
    c = {"kind": words[0], "region": None, "layer": None, "ratio": 1.0}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=")
            if k == "layer":
                first, _, last = v.partition("-")
                c[k] = range(int(first), int(last or first) + 1)
            else:
                c[k] = float(v)
        else:
            c["region"] = w
    return c


def read_tour(path):
    tour = {"regions": {}, "words": [], "steps": []}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = (s.strip() for s in line.partition(":"))
        if key == "photo":
            tour["photo"] = value
        elif key == "words":
            tour["words"] = value.lower().split()
        elif key.startswith("region "):
            tour["regions"][key[7:].strip()] = patches_of(value)
        elif key == "step":
            tour["steps"].append({"title": value, "state": {}, "choose": {}, "claim": {}})
        elif key == "state":
            tour["steps"][-1]["state"].update(w.split("=") for w in value.split())
        elif key.split("-")[-1] in ("choose", "claim"):
            kind = key.split("-")[-1]
            photos = ["own", "other"] if "-" not in key else [key.split("-")[0]]
            for p in photos:
                tour["steps"][-1][kind][p] = criterion(value)
    return tour


# ---------------------------------------------------------------------------
# The claims, from their definitions


def claim(attn_row, grid, prefix, query, kind, region):
    qr, qc = divmod(query - prefix, grid)
    w = attn_row[prefix:].astype(np.float64).reshape(grid, grid)
    rows, cols = np.indices((grid, grid))
    near = (np.abs(rows - qr) <= 1) & (np.abs(cols - qc) <= 1)
    if kind == "beyond_neighbourhood":
        return w[~near].sum() / w.sum(), (~near).sum() / near.size
    mask = np.zeros((grid, grid), bool)
    for r, c in region:
        if r < grid and c < grid:
            mask[r, c] = True
    mask &= ~near
    return w[mask].sum() / w.sum(), mask.sum() / (~near).sum()


def layer_norms(states, prefix):
    """Per layer: (largest, median) norm of the patch tokens leaving it."""
    norms = np.linalg.norm(states, axis=2)[:, prefix:]
    return [(float(n.max()), float(np.median(n))) for n in norms]


def expected_rows(tour, photo_name, attn, grid, prefix, norms):
    """What claims.csv must say: the tour's steps replayed on the dumped weights
    (and the NumPy forward pass's token norms)."""
    own = "own" if photo_name == tour["photo"] else "other"
    layer = head = query = 0
    rows = []
    for i, step in enumerate(tour["steps"]):
        st = step["state"]
        layer, head = int(st.get("layer", layer)), int(st.get("head", head))
        if "query" in st:
            q = st["query"]
            query = 0 if q == "cls" else prefix + int(q.split(",")[0]) * grid + int(q.split(",")[1])
        c = step["claim"].get(own)
        if c and c["kind"] == "high_norm_tokens":
            top, median = norms[layer]
            rows.append({"step": i + 1, "claim": c["kind"], "layer": layer, "head": head, "query": query,
                         "value": top, "baseline": median, "ratio": c["ratio"], "relative": True})
            continue
        if query < prefix:
            continue
        choose = step["choose"].get(own)
        if choose:
            region = tour["regions"].get(choose["region"], [])
            layers = choose["layer"] if choose["layer"] is not None else range(attn.shape[0])
            values = [(claim(attn[l, h, query], grid, prefix, query, choose["kind"], region)[0], l, h)
                      for l in layers for h in range(attn.shape[1])]
            best = max(v for v, _, _ in values)
            _, layer, head = next(x for x in values if x[0] == best)  # ties: the first
        c = step["claim"].get(own)
        if c:
            value, baseline = claim(attn[layer, head, query], grid, prefix, query, c["kind"],
                                    tour["regions"].get(c["region"], []))
            rows.append({"step": i + 1, "claim": c["kind"], "layer": layer, "head": head, "query": query,
                         "value": value, "baseline": baseline, "ratio": c["ratio"]})
    return rows


def compare(name, got, want):
    problems = []
    if [(r["step"], r["claim"]) for r in want] != [(int(r["step"]), r["claim"]) for r in got]:
        return [f"rows {[(r['step'], r['claim']) for r in got]} vs {[(r['step'], r['claim']) for r in want]}"]
    for g, w in zip(got, want):
        where = f"step {w['step']} {w['claim']}"
        if (int(g["layer"]), int(g["head"]), int(g["query"])) != (w["layer"], w["head"], w["query"]):
            problems.append(f"{where}: head L{g['layer']} H{g['head']} q{g['query']} vs L{w['layer']} H{w['head']} "
                            f"q{w['query']}")
            continue
        # Norms: float32 against float64 over 12 blocks, relative 1e-4 (the reference tests' tolerance for analyses).
        scale = max(abs(w["value"]), 1.0) if w.get("relative") else 1.0
        if abs(float(g["value"]) - w["value"]) > 2e-5 * scale or \
                abs(float(g["baseline"]) - w["baseline"]) > (1e-4 * scale if w.get("relative") else 1e-6):
            problems.append(f"{where}: value {g['value']} baseline {g['baseline']} vs {w['value']:.6f} "
                            f"{w['baseline']:.6f}")
        margin = w["value"] - w["ratio"] * w["baseline"]
        if abs(margin) > 2e-5 * scale * (50 if w.get("relative") else 1) and int(g["holds"]) != int(margin >= 0):
            problems.append(f"{where}: holds {g['holds']} vs {int(margin >= 0)}")
    return problems


# ---------------------------------------------------------------------------
# Slide text


class Captions(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.paragraphs, self._tag = [], [], None

    def handle_starttag(self, tag, attrs):
        self._tag = tag
        self.text += [v for k, v in attrs if k == "alt"]

    def handle_endtag(self, tag):
        self._tag = None

    def handle_data(self, data):
        if self._tag in ("h1", "h2", "p", "title"):
            self.text.append(data)
        if self._tag == "p":
            self.paragraphs.append(data)


def named_words(text, words):
    return sorted({w for w in re.findall(r"[a-z]+", text.lower()) if w in words})


def main():
    tour = read_tour(TOUR)
    check("the tour checks claims on both kinds of photo",
          any(s["claim"].get("own") for s in tour["steps"]) and any(s["claim"].get("other") for s in tour["steps"]))
    check("the class-token step claims high-norm tokens", any(s["claim"].get("other", {}).get("kind") == "high_norm_tokens"
                                                               for s in tour["steps"]))
    model = vit_reference.load_timm(MODEL)
    mirrored = os.path.join(TMP, "mirrored.png")
    Image.open(DOG).convert("RGB").transpose(Image.FLIP_LEFT_RIGHT).save(mirrored)
    photos = sorted(os.path.join(ASSETS, f) for f in os.listdir(ASSETS) if f.endswith((".jpg", ".png")))
    table = []
    for photo in photos + [mirrored]:
        name = os.path.basename(photo)
        out = os.path.join(TMP, name + ".csv")
        dump = os.path.join(TMP, name + "_dump")
        run("tour", photo, "--claims", out)
        run("dump", photo, "-o", dump)
        meta = json.load(open(os.path.join(dump, "meta.json")))
        attn = np.load(os.path.join(dump, "attn.npy"))
        r = vit_reference.forward(model, np.load(os.path.join(dump, "input.npy")).astype(np.float64), keep_states=True)
        norms = layer_norms(np.concatenate([r["x_in"][1:], r["x_out"][None]]), meta["prefix"])
        with open(out, newline="") as f:
            reader = csv.DictReader(f)
            header, got = reader.fieldnames, list(reader)
        check(f"{name}: claims.csv's columns", header == ["step", "claim", "layer", "head", "query", "value", "baseline",
                                                            "holds"], header)
        want = expected_rows(tour, name, attn, meta["grid"], meta["prefix"], norms)
        problems = compare(name, got, want)
        check(f"{name}: {len(want)} claims, each head, value, baseline and holds as NumPy recomputes them",
              len(want) > 0 and not problems, problems[:3])
        table += [f"{name} step {r['step']} {r['claim']} L{r['layer']}H{r['head']}: {float(r['value']):.3f} vs "
                  f"{float(r['baseline']):.3f} holds {r['holds']}" for r in got]
        shutil.rmtree(dump)
    print("\n".join("    " + t for t in table))

    # The slides on a photo that is not the tour's: captions as text, nothing names the dog.
    eagle = os.path.join(ASSETS, "eagle.jpg")
    slides = os.path.join(TMP, "eagle_slides")
    run("tour", eagle, "-o", slides)
    page = Captions()
    page.feed(open(os.path.join(slides, "index.html"), encoding="utf-8").read())
    check("index.html shows every step's caption as text", len(page.paragraphs) >= len(tour["steps"]) and
          all(len(p) > 20 for p in page.paragraphs), page.paragraphs[:2])
    words = set(tour["words"]) | set(tour["regions"])
    pngs = sorted(f for f in os.listdir(slides) if f.endswith(".png"))
    said = " ".join(page.text + [Image.open(os.path.join(slides, p)).info.get("Title", "") + " " +
                                 Image.open(os.path.join(slides, p)).info.get("Description", "") for p in pngs])
    check(f"no title, caption or description on eagle.jpg names {sorted(words)}", not named_words(said, words),
          named_words(said, words))
    with open(os.path.join(slides, "claims.csv")) as f, open(os.path.join(TMP, "eagle.jpg.csv")) as g:
        check("the slides' claims.csv is the one --claims writes", f.read() == g.read())
    # The class-token step says what its claim found, in words that depend on it, and never "none".
    with open(os.path.join(TMP, "eagle.jpg.csv"), newline="") as f:
        high = next((r for r in csv.DictReader(f) if r["claim"] == "high_norm_tokens"), None)
    said = [p for p in page.paragraphs if "times as long as the median patch" in p]
    if check("eagle.jpg: the class-token step has its high-norm claim and one paragraph about it",
             high is not None and len(said) == 1, said):
        opening = "A high-norm token here is" if int(high["holds"]) else "A high-norm token would be"
        check(f"eagle.jpg: the paragraph is the one for holds={high['holds']}, with the norms of claims.csv "
              f"({float(high['value']):.1f} against {float(high['baseline']):.1f}) and no 'none'",
              said[0].startswith(opening) and f"{float(high['value']):.1f}" in said[0] and
              f"{float(high['baseline']):.1f}" in said[0] and "none" not in said[0].lower(), said[0])
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
