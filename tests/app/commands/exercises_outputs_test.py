#!/usr/bin/env python3
"""`vitscope exercises IMAGE --key KEY.csv -o SHEET.html` writes both outputs or
neither, and refuses what it cannot ask right, on real files and the real model:
  - a worksheet that cannot be written (a link to /dev/full: no space left)
    leaves no key (it used to exit 2 after the key was written), and a key
    that cannot be written leaves no worksheet; no temporaries are left;
  - a question whose placeholder has no value on the photo ({query_rank} on
    the file's own photo, whose query is not chosen by relevance) is refused
    naming the exercise and the placeholder, nothing written (the worksheet
    used to print the question without its text); on another photo, where
    the query is chosen by relevance, the same file fills it;
  - `lesson:` is refused in one line by `exercises` and `lesson --exercises`
    alike, and the lesson named is never read (no byte of /etc/passwd shown).
"""
import os
import re
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "support")]
from script_support import CHELSEA, DOG, MODEL, NO_DISPLAY, Tally, run_vitscope

tally = Tally()
check = tally.check

BASE = ("title: T\nphoto: dog.jpg\nother-query: relevant\n"
        "exercise: E\nkind: top_key\nstate: layer=3 head=2 query=5,3 pin=none\n"
        "text: Which key does query {query} weigh most in layer {layer}, head {head}?\n")


def vitscope(*args):
    return run_vitscope(*args, "--model", MODEL, env_extra=NO_DISPLAY, timeout=600)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def one_line(r):
    return r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def leftovers(folder):
    return sorted(n for n in os.listdir(folder) if ".vitscope-" in n)


def write_order(tmp):
    exercises = write(os.path.join(tmp, "plain.exercises"), BASE)
    for broken in ("sheet", "key"):
        folder = os.path.join(tmp, "full_" + broken)
        os.mkdir(folder)
        key, sheet = os.path.join(folder, "key.csv"), os.path.join(folder, "sheet.html")
        os.symlink("/dev/full", sheet if broken == "sheet" else key)
        other = key if broken == "sheet" else sheet
        r = vitscope("exercises", DOG, "--exercises", exercises, "--key", key, "-o", sheet)
        check(f"a {broken} on a full device: exit 2, one line naming the device", one_line(r) and
              "/dev/full" in r.stderr and "No space left" in r.stderr, f"rc={r.returncode} {r.stderr.strip()}")
        check(f"a {broken} on a full device: the other output is not written", not os.path.exists(other),
              sorted(os.listdir(folder)))
        check(f"a {broken} on a full device: no temporaries left", leftovers(folder) == [], leftovers(folder))
    # The control: both written when both can be.
    key, sheet = os.path.join(tmp, "key.csv"), os.path.join(tmp, "sheet.html")
    r = vitscope("exercises", DOG, "--exercises", exercises, "--key", key, "-o", sheet)
    check("both writable: exit 0, the key and the worksheet written", r.returncode == 0 and os.path.getsize(key) > 0 and
          os.path.getsize(sheet) > 0, r.stderr.strip())


def unfilled_placeholder(tmp):
    exercises = write(os.path.join(tmp, "rank.exercises"),
                      BASE.replace("text: Which", "text: Query {query} ranks {query_rank} by relevance. Which"))
    key, sheet = os.path.join(tmp, "rank_key.csv"), os.path.join(tmp, "rank_sheet.html")
    r = vitscope("exercises", DOG, "--exercises", exercises, "--key", key, "-o", sheet)
    check("{query_rank} on the file's own photo: exit 2, one line naming the exercise and the placeholder",
          one_line(r) and "exercise 1 'E': {query_rank} has no value on this photo" in r.stderr,
          f"rc={r.returncode} {r.stderr.strip()}")
    check("{query_rank} on the file's own photo: no key, no worksheet", not os.path.exists(key) and not os.path.exists(sheet))
    r = vitscope("exercises", CHELSEA, "--exercises", exercises, "--key", key, "-o", sheet)
    text = open(sheet, encoding="utf-8").read() if os.path.exists(sheet) else ""
    check("{query_rank} on another photo (query chosen by relevance): exit 0, the worksheet asks with the rank",
          r.returncode == 0 and re.search(r"ranks \d+ by relevance", text) is not None, r.stderr.strip())


def lesson_line(tmp):
    exercises = write(os.path.join(tmp, "lesson.exercises"), BASE + "lesson: /etc/passwd\n")
    want = "lesson.exercises:8: an exercises file takes no lesson:"
    key = os.path.join(tmp, "lesson_key.csv")
    r = vitscope("exercises", DOG, "--exercises", exercises, "--key", key)
    check("lesson: refused by exercises: exit 2, one line, no key", one_line(r) and want in r.stderr and
          "root:" not in r.stderr and not os.path.exists(key), f"rc={r.returncode} {r.stderr.strip()}")
    page = os.path.join(tmp, "lesson.html")
    r = vitscope("lesson", DOG, "-o", page, "--exercises", exercises)
    check("lesson: refused by lesson --exercises the same way, no page", one_line(r) and want in r.stderr and
          "root:" not in r.stderr and not os.path.exists(page), f"rc={r.returncode} {r.stderr.strip()}")


def main():
    if not tally.check_model():
        return tally.finish()
    with tempfile.TemporaryDirectory(prefix="vitscope_exercises_outputs_") as tmp:
        write_order(tmp)
        unfilled_placeholder(tmp)
        lesson_line(tmp)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
