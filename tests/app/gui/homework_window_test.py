#!/usr/bin/env python3
"""File > Export homework in a real window (Xvfb), through the script's
export-homework (the menu item's action): on chelsea.png the folder holds
homework.html (the lesson page with one element per exercise), worksheet.html
and answer_key.csv, and the key is byte for byte the one `vitscope exercises
--key` writes for the same photo (whose answers tests/app/commands/exercises_test.py checks
against NumPy). A second export into the same folder is refused with the
folder as it was. Prints "N passed, M failed"."""
import json
import os
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, MODEL, Tally  # noqa: E402
from window_support import run_script  # noqa: E402


def main():
    tally = Tally()
    if not tally.check_model():
        return tally.finish()
    with tempfile.TemporaryDirectory(prefix="vitscope_homework_window_") as tmp:
        key = subprocess.run([BIN, "exercises", CHELSEA, "--key", "-", "--model", MODEL], capture_output=True,
                             text=True, timeout=300)
        tally.check("vitscope exercises --key - runs", key.returncode == 0, key.stderr)
        out = os.path.join(tmp, "week3")
        export = f"wait\nexport-homework {out}\nframes 3\nquit\n"
        code, seen, output = run_script(BIN, [CHELSEA, "--model", MODEL], export, tmp)
        tally.check("the window exits 0 and says where it saved", code == 0 and "Saved the homework" in seen[-1]["status"],
                    (code, seen[-1]["status"] if seen else None, output[-500:]))
        files = sorted(os.listdir(out)) if os.path.isdir(out) else []
        tally.check("the folder: homework.html, worksheet.html, answer_key.csv",
                    files == ["answer_key.csv", "homework.html", "worksheet.html"], files)
        if files:
            tally.check("answer_key.csv is what vitscope exercises --key writes for the photo",
                        open(os.path.join(out, "answer_key.csv")).read() == key.stdout)
            rows = key.stdout.strip().splitlines()[1:]
            page = open(os.path.join(out, "homework.html"), encoding="utf-8").read()
            start = page.index('<script type="application/json" id="lesson-data">') + len(
                '<script type="application/json" id="lesson-data">')
            data = json.loads(page[start:page.index("</script>", start)])
            exercises = data.get("exercises") or []
            tally.check(f"homework.html carries the {len(rows)} exercises, numbered as in the key",
                        [e.get("n") for e in exercises] == list(range(1, len(rows) + 1)),
                        [sorted(e) for e in exercises[:1]])
        # Again into the same folder: refused, the folder as it was.
        code, _, output = run_script(BIN, [CHELSEA, "--model", MODEL], export, tmp)
        tally.check("a second export into that folder: the script ends with exit 2, the folder as it was",
                    code == 2 and sorted(os.listdir(out)) == files, (code, output[-300:]))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
