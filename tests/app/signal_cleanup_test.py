"""No signal or limit leaves a partial file (issue 44): a reader that goes
away (SIGPIPE, `vitscope … 2>&1 | head -1`) and a file-size limit (SIGXFSZ,
`ulimit -f`) end export, dump, lesson, tour slides and train as SIGINT
does: every temporary removed, and a multi-file output (a folder of figures,
a dump's folder, a slide folder) either whole or absent."""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, NO_DISPLAY, SRC, Tally

DUMP_FILES = {"meta.json", "attn.npy", "q.npy", "logits.npy"}  # among what a finished dump folder holds


def leftovers(folder):
    found = []
    for root, dirs, files in os.walk(folder):
        found += [os.path.join(root, n) for n in dirs + files if "vitscope-" in n or n.endswith(".tmp")]
    return found


def shell(command, cwd):
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=cwd, env=NO_DISPLAY, timeout=900)


def main():
    tally = Tally()
    tally.check_model()
    with tempfile.TemporaryDirectory() as tmp:
        photos = os.path.join(tmp, "photos")
        os.mkdir(photos)
        for p in (CHELSEA, DOG, os.path.join(SRC, "assets", "eagle.jpg")):
            shutil.copy(p, photos)
        b = shlex.quote(BIN)

        # SIGPIPE: the second progress line meets a closed pipe.
        r = shell(f"{b} export photos --layer 3 --head 1 --patch 5,5 -o figs 2>&1 | head -1", tmp)
        tally.check("export FOLDER | head -1: no folder and no temporary",
                    not os.path.exists(os.path.join(tmp, "figs")) and not leftovers(tmp), os.listdir(tmp))
        r = shell(f"{b} dump photos -o d 2>&1 | head -1", tmp)
        d = os.path.join(tmp, "d")
        partial = [n for n in (os.listdir(d) if os.path.isdir(d) else [])
                   if not DUMP_FILES <= set(os.listdir(os.path.join(d, n)))]
        tally.check("dump FOLDER | head -1: no partial photo folder", not partial, partial)
        tally.check("dump FOLDER | head -1: no temporary", not leftovers(tmp), leftovers(tmp))
        r = shell(f"{b} classify photos 2>&1 | head -1", tmp)
        tally.check("classify FOLDER | head -1: ends quietly", r.stdout.startswith("vitscope: [1/3]"), r.stdout)

        # SIGXFSZ: a 100 KB file-size limit, far below each output.
        limited = {
            "lesson": (f"{b} lesson {shlex.quote(CHELSEA)} -o l.html", "l.html"),
            "dump": (f"{b} dump {shlex.quote(CHELSEA)} -o dumped", "dumped"),
            "export": (f"{b} export {shlex.quote(CHELSEA)} --layer 3 --head 1 --patch 5,5 -o e.png", "e.png"),
            "export FOLDER": (f"{b} export photos --layer 3 --head 1 --patch 5,5 -o figs2", "figs2"),
            "tour slides": (f"{b} tour {shlex.quote(CHELSEA)} -o slides --classroom", "slides"),
            "train": (f"{b} train --task same_colour --steps 2 --threads 1 -o run", "run"),
        }
        for name, (command, output) in limited.items():
            r = shell(f"ulimit -f 100; {command}", tmp)
            tally.check(f"ulimit -f: {name} stopped", r.returncode != 0, (r.returncode, r.stderr[-300:]))
            tally.check(f"ulimit -f: {name} leaves no output and no temporary",
                        not os.path.exists(os.path.join(tmp, output)) and not leftovers(tmp), os.listdir(tmp))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
