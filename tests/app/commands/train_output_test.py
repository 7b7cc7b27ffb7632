"""vitscope train never deletes or replaces what it did not write (issue 44):
a folder that appears at RUN while it trains wins and the run is kept beside
it under a printed name; two runs into one folder both survive; --force
replaces only an earlier run of train (not a folder of notes, not a run with
a stranger in it), and a symlinked RUN keeps its link; a reader that goes
away (SIGPIPE) or a full disk leaves no temporary folder and names the
reason."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, Tally

TRAIN = [BIN, "train", "--task", "same_colour", "--threads", "1"]


def leftovers(folder):
    """Temporaries a run may leave beside its output: none may outlive it."""
    return [n for n in os.listdir(folder) if "vitscope-" in n or ".tmp" in n or ".old" in n]


def start(out, steps, *extra):
    return subprocess.Popen(TRAIN + ["-o", out, "--steps", str(steps), *extra], stderr=subprocess.PIPE, text=True)


def wait_for_checkpoint(p, deadline_s=300):
    """Reads the run's stderr up to its first checkpoint line (the temporary folder exists by then)."""
    deadline = time.monotonic() + deadline_s
    for line in p.stderr:
        if line.startswith("step "):
            return True
        if time.monotonic() > deadline:
            break
    return False


def is_run(folder):
    return os.path.isfile(os.path.join(folder, "log.csv")) and os.path.isdir(os.path.join(folder, "step_000000"))


def main():
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        # A folder made at RUN while training: left as it was; the run goes to RUN-2 and says so (exit 1).
        race = os.path.join(tmp, "race")
        p = start(race, 30)
        tally.check("race: training started", wait_for_checkpoint(p))
        os.mkdir(race)
        with open(os.path.join(race, "notes.txt"), "w") as f:
            f.write("notes\n")
        rest = p.stderr.read()
        p.wait()
        tally.check("race: the notes survive, untouched", open(os.path.join(race, "notes.txt")).read() == "notes\n"
                    and os.listdir(race) == ["notes.txt"], os.listdir(race))
        tally.check("race: the run is kept as race-2 and named", is_run(race + "-2") and "race-2" in rest, rest)
        tally.check("race: exit 1 (done, not where asked)", p.returncode == 1, p.returncode)
        tally.check("race: no temporary left", not leftovers(tmp), leftovers(tmp))

        # Two runs into one new folder at once: both runs survive, one in twice.
        twice = os.path.join(tmp, "twice")
        a, b = start(twice, 8), start(twice, 8, "--seed", "2")
        a_err, b_err = a.communicate()[1], b.communicate()[1]
        codes = sorted([a.returncode, b.returncode])
        tally.check("two runs into one folder: exit codes 0 and 1", codes == [0, 1], (a_err, b_err))
        tally.check("two runs into one folder: both kept (twice, twice-2)", is_run(twice) and is_run(twice + "-2"),
                    os.listdir(tmp))
        seeds = sorted(open(os.path.join(d, "config")).read().split("seed = ")[1].split()[0] for d in (twice, twice + "-2"))
        tally.check("two runs into one folder: one of each seed", seeds == ["1", "2"], seeds)

        # --force on a folder that is not a run: refused, nothing touched.
        mine = os.path.join(tmp, "mine")
        os.mkdir(mine)
        with open(os.path.join(mine, "notes.txt"), "w") as f:
            f.write("x\n")
        r = subprocess.run(TRAIN + ["-o", mine, "--steps", "2", "--force"], capture_output=True, text=True)
        tally.check("--force on a folder of notes: refused in one line", r.returncode == 2 and r.stderr.count("\n") == 1
                    and "not a run of vitscope train" in r.stderr, r.stderr)
        tally.check("--force on a folder of notes: the notes survive", os.listdir(mine) == ["notes.txt"], os.listdir(mine))

        # --force on an earlier run with a file of the user's inside: refused too.
        with open(os.path.join(twice, "my_notes.txt"), "w") as f:
            f.write("mine\n")
        r = subprocess.run(TRAIN + ["-o", twice, "--steps", "2", "--force"], capture_output=True, text=True)
        tally.check("--force on a run holding a stranger: refused naming it", r.returncode == 2 and "my_notes.txt" in r.stderr,
                    r.stderr)
        tally.check("--force on a run holding a stranger: left whole", is_run(twice)
                    and os.path.isfile(os.path.join(twice, "my_notes.txt")))
        os.remove(os.path.join(twice, "my_notes.txt"))

        # --force on an earlier run through a symlink: the target replaced, the link kept.
        link = os.path.join(tmp, "link")
        os.symlink(twice, link)
        r = subprocess.run(TRAIN + ["-o", link, "--steps", "3", "--force", "--seed", "7"], capture_output=True, text=True)
        tally.check("--force through a symlink: exit 0", r.returncode == 0, r.stderr)
        tally.check("--force through a symlink: the link is kept", os.path.islink(link) and os.readlink(link) == twice)
        tally.check("--force through a symlink: its target is the new run",
                    "seed = 7" in open(os.path.join(twice, "config")).read() and is_run(twice))
        tally.check("--force through a symlink: no temporary left", not leftovers(tmp), leftovers(tmp))

        # A reader that goes away: `train … 2>&1 | head -1` leaves neither RUN nor a temporary.
        piped = os.path.join(tmp, "piped")
        r = subprocess.run(f"'{BIN}' train --task same_colour --threads 1 --steps 40 -o '{piped}' 2>&1 | head -1",
                           shell=True, capture_output=True, text=True, timeout=600)
        tally.check("SIGPIPE: head saw the first line", r.stdout.startswith("training a"), r.stdout)
        tally.check("SIGPIPE: no RUN and no temporary left", not os.path.exists(piped) and not leftovers(tmp), os.listdir(tmp))

        # A full disk (a 3 MB tmpfs in a namespace of its own): one line with the reason, nothing left.
        disk = os.path.join(tmp, "disk")
        os.mkdir(disk)
        if shutil.which("unshare"):
            r = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=3m tmpfs '{disk}' && "
                                f"'{BIN}' train --task same_colour --threads 1 --steps 2 -o '{disk}/run'; "
                                f"echo exit=$?; ls -a '{disk}'"], capture_output=True, text=True, timeout=600)
            if "mount" in r.stderr and "exit=" not in r.stdout:
                tally.skip("full disk", "cannot mount a tmpfs here: " + r.stderr.strip(), as_root=False)
            else:
                tally.check("full disk: exit 2 naming the reason", "exit=2" in r.stdout and "No space left on device" in r.stderr,
                            (r.stdout, r.stderr))
                tally.check("full disk: nothing left on the disk", r.stdout.split("exit=2")[-1].split() == [".", ".."], r.stdout)
        else:
            tally.skip("full disk", "unshare (util-linux) is missing")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
