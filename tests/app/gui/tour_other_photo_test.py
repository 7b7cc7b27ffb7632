#!/usr/bin/env python3
"""The tour in a real window (Xvfb) on a photo that is not the tour's own
(chelsea.png; other-query: relevant, other-pin: top):
  - the query the window's tour takes is the relevant patch `vitscope tour
    --claims` names (tests/session/tour_claims_test.py checks that one against NumPy):
    the window makes the choice off its thread, shows the file's patch
    meanwhile, and the step takes the choice when it arrives;
  - while it waits the step shows the file's patch (5, 3), and a script's
    `wait` waits for the choice;
  - "One raw score" pins the patch key the row on show weighs most, leaving
    out the query and the high-norm tokens entering the layer, as NumPy finds
    it on the dumped weights and the float64 reference's token states.
Prints "N passed, M failed"."""
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, MODEL, Tally  # noqa: E402
from tour_claims_np import high_norm  # noqa: E402
from window_support import run_script  # noqa: E402

import vit_reference  # noqa: E402

TOP_KEY_STEP = 3  # "One raw score" (0-based), pin=8,2 on the tour's photo, the top key elsewhere


def run(*args):
    return subprocess.run([BIN, *args, "--model", MODEL], check=True, capture_output=True, text=True, timeout=600)


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    with tempfile.TemporaryDirectory(prefix="vitscope_tour_other_") as tmp:
        claims = os.path.join(tmp, "claims.csv")
        run("tour", CHELSEA, "--claims", claims)
        with open(claims, newline="") as f:
            relevant = int(next(r for r in csv.DictReader(f) if r["step"] == "2")["query"])

        script = "tour default\nwait\nframes 3\n" + "tour next\nwait\nframes 3\n" * TOP_KEY_STEP + "quit\n"
        code, seen, output = run_script(BIN, [CHELSEA, "--model", MODEL], script, tmp)
        tally.check("the scripted window exits 0", code == 0, output if code else "")
        by_step = {}
        for s in seen:
            if s["tour_step"] >= 0 and s["ready"]:
                by_step[s["tour_step"]] = s
        tally.check("a state was written at every step", sorted(by_step) == list(range(TOP_KEY_STEP + 1)),
                    sorted(by_step))
        # The file's patch (5, 3) meanwhile; the script's `wait` waited for the choice (step 2's last state).
        waiting = [(s["tour_step"], s["row"], s["col"]) for s in seen if s.get("tour_relevant_waiting")]
        tally.check(f"while step 2 waits for its query it shows the file's patch ({len(waiting)} states)",
                    len(waiting) > 0 and all(x == (1, 5, 3) for x in waiting), waiting)
        step1 = by_step.get(1, {})
        tally.check(f"step 2's query is the relevant patch the command line chose ({relevant})",
                    step1.get("query") == relevant, step1.get("query"))

        state = by_step.get(TOP_KEY_STEP)
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
        text = " ".join(state["tour_text"])
        tally.check("its card names that key as the one the query matches best", "matches best" in text, text)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
