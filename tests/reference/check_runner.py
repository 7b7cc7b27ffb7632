"""The check runner the reference tests share. A check is a function that
returns its problems (an empty list: it passed) or raises Failure; run() calls
each in the order they were added, prints its PASS or FAIL line with the
problems under it, and ends with the tally's "N passed, M failed" line."""
import os
import traceback

from script_support import Tally


class Failure(Exception):
    """A check that cannot go on: its message is the problem."""


class Checks:
    def __init__(self):
        self.fns = []

    def add(self, fn):
        """As a decorator: registers fn, in order."""
        self.fns.append(fn)
        return fn

    def run(self, binary, preamble=""):
        tally = Tally()
        if not binary or not os.access(binary, os.X_OK):
            tally.check("setup", False, f"VITSCOPE_BIN={binary!r} is not an executable vitscope binary")
            return tally.finish()
        if preamble:
            print(preamble)
        for fn in self.fns:
            print(f"{fn.__name__}:", flush=True)
            try:
                problems = fn()
            except Failure as e:
                problems = [str(e)]
            except Exception:  # a crash in the test itself is a failure too
                problems = ["exception: " + traceback.format_exc().strip().replace("\n", "\n      ")]
            tally.check(fn.__name__, not problems)
            for p in problems:
                print(f"      - {p}")
        return tally.finish()
