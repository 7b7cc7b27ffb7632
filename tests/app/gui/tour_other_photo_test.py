#!/usr/bin/env python3
"""The tour in a real window (Xvfb) on a photo that is not the tour's own
(chelsea.png; other-query: relevant, other-pin: top):
  - Next pressed every scripted turn (every 2 frames) from the first frame,
    before the model has even run: no state the window writes shows a step
    on a patch other than the relevant one `vitscope tour --claims` names
    (tests/session/tour_claims_test.py checks that one against NumPy); while
    the choice is made off the window's thread the card says what it
    computes and the step asked for is pending, and the tour reaches its
    last step once the choice arrives;
  - Back from the last step to the first: each step's whole state (layer,
    head, query, pinned key, map, tab, page, math step, scale) equal to the
    one Next showed;
  - "One raw score" pins the patch key the row on show weighs most, leaving
    out the query and the high-norm tokens entering the layer, as NumPy finds
    it on the dumped weights and the float64 reference's token states, and
    says how it ranks against the row's argmax.
Prints "N passed, M failed"."""
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, MODEL, SRC, Tally  # noqa: E402
from tour_claims_np import high_norm  # noqa: E402
from window_support import run_script  # noqa: E402

import vit_reference  # noqa: E402

TOP_KEY_STEP = 3  # "One raw score" (0-based), pin=8,2 on the tour's photo, the top key elsewhere
STATE_KEYS = ("layer", "head", "query", "pinned_key", "map", "tab", "question", "math_step")


def run(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], check=True, capture_output=True, text=True, timeout=600)


def step_queries():
    """Per step of the shipped tour (0-based): 'cls' or 'patch' for the query it shows (a step without
    query= keeps the one before)."""
    out, current = [], None
    for line in open(os.path.join(SRC, "assets", "tours", "first-look.tour"), encoding="utf-8"):
        key, _, value = (x.strip() for x in line.partition(":"))
        if key == "step":
            out.append(current)
        elif key == "state" and out:
            for w in value.split():
                if w.startswith("query="):
                    current = "cls" if w == "query=cls" else "patch"
            out[-1] = current
    return out


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    kinds = step_queries()
    last = len(kinds) - 1
    with tempfile.TemporaryDirectory(prefix="vitscope_tour_other_") as tmp:
        claims = os.path.join(tmp, "claims.csv")
        run("tour", CHELSEA, "--claims", claims)
        with open(claims, newline="") as f:
            rows = list(csv.DictReader(f))
        relevant = {int(r["query"]) for r in rows if r["claim"] != "high_norm_tokens"}
        tally.check(f"`tour --claims` names one query for every patch step ({sorted(relevant)})", len(relevant) == 1,
                    relevant)
        relevant = min(relevant)

        # Next every turn from the first frame, more turns than steps (the choice takes a while), then Back.
        script = ("tour default\n" + "tour next\n" * (3 * len(kinds)) + "wait\n" + "tour next\nwait\n" * len(kinds) +
                  "frames 3\n" + "tour back\nwait\nframes 2\n" * last + "frames 3\nquit\n")
        code, seen, output = run_script(BIN, [CHELSEA, "--model", MODEL], script, tmp)
        tally.check("the scripted window exits 0", code == 0, output if code else "")
        shown = [s for s in seen if s.get("tour_step", -1) >= 0]
        wrong = [(s["tour_step"], s["query"]) for s in shown if s["tokens"] and kinds[s["tour_step"]] == "patch" and
                 s["query"] != relevant]
        tally.check(f"no state shows a patch step on any query but {relevant} ({len(shown)} states)", not wrong,
                    wrong[:5])
        pending = [s for s in shown if s["tour_pending_step"] >= 0]
        tally.check(f"Next waited for the query ({len(pending)} states with a step pending) and the card said what it "
                    "computes", pending and all(s["tour_status"] for s in pending) and
                    all(s["tour_step"] < s["tour_pending_step"] for s in pending),
                    [(s["tour_step"], s["tour_pending_step"], s["tour_status"]) for s in pending[:2]])
        reached = next((i for i, s in enumerate(shown) if s["tour_step"] == last), None)
        if not tally.check(f"the tour reached its last step ({last + 1})", reached is not None,
                           sorted({s["tour_step"] for s in shown})):
            return tally.finish()
        # The last state at each step on the way forward, and on the way back (the states after the last step).
        forward, back = {}, {}
        for s in shown[:reached + 1]:
            if s["tokens"] and s["tour_pending_step"] < 0:  # Next may leave a step before the window is idle
                forward[s["tour_step"]] = s
        turned = False
        for s in shown[reached:]:
            turned |= s["tour_step"] < last
            if turned and s["ready"]:
                back[s["tour_step"]] = s
        tally.check("Next stopped at every step and Back at every step", sorted(forward) == list(range(last + 1)) and
                    sorted(back) == list(range(last)), (sorted(forward), sorted(back)))
        differ = [(i, k, forward[i].get(k), back[i].get(k)) for i in sorted(back) if i in forward
                  for k in STATE_KEYS + ("style",) if forward[i].get(k) != back[i].get(k)]
        tally.check("Back shows each step exactly as Next did (layer, head, query, pin, map, tab, page, math step, "
                    "style)", not differ, differ[:4])

        state = forward.get(TOP_KEY_STEP)
        if state is None:
            return tally.finish()
        dump = os.path.join(tmp, "dump")
        run("dump", CHELSEA, "-o", dump)
        meta = json.load(open(os.path.join(dump, "meta.json")))
        prefix = meta["prefix"]
        attn = np.load(os.path.join(dump, "attn.npy"))
        model = vit_reference.load_timm(MODEL)
        r = vit_reference.forward(model, np.load(os.path.join(dump, "input.npy")).astype(np.float64), keep_states=True)
        layer, head, query = state["layer"], state["head"], state["query"]
        left_out = high_norm(r["x_in"][layer], prefix) | {query}
        row = attn[layer, head, query].astype(np.float64)
        keys = [j for j in range(prefix, row.size) if j not in left_out]
        top = max(keys, key=lambda j: row[j])
        tally.check(f"'One raw score' pins the top patch key of layer {layer} head {head}'s row ({top}, "
                    f"{len(left_out) - 1} long tokens left out)", state["pinned_key"] == top, state["pinned_key"])
        text = state["tour_key_sentence"]
        argmax = int(np.argmax(row))
        said_best = "matches best in this head" in text
        tally.check(f"its key sentence calls it the best match only if it is the row's argmax ({argmax})",
                    said_best == (argmax == top) and ("ranks first" in text) == (argmax != top), text)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
