"""Every input bounded and every quoted byte escaped (issue 44): @LIST files
refused as they are read past their bounds (/dev/zero, /dev/urandom, an
endless pipe, a 10 MB list), sweep --path refused past its frame limit
before any work and showing progress, and bytes quoted from an exercises
file, a model's config and a photo's name never reach the terminal raw."""
import os
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, MODEL, NO_DISPLAY, Tally

TERMINAL_CONTROLS = (b"\x1b", b"\x07", b"\xc2\x9b", b"\x08")


def refused_quickly(tally, name, args, want, stdin=None, limit_s=60):
    """Exit 2 with one line naming `want`, within limit_s seconds, its memory bounded by ulimit -v (2 GiB)."""
    start = time.monotonic()
    r = subprocess.run(["bash", "-c", 'ulimit -v 2097152; exec "$@"', "-", BIN, *args], capture_output=True, text=True,
                       stdin=stdin, timeout=limit_s)
    took = time.monotonic() - start
    tally.check(f"{name}: refused in one line naming the cause", r.returncode == 2 and r.stderr.count("\n") == 1
                and want in r.stderr and r.stderr.startswith("vitscope: error: "), (r.returncode, r.stderr[:300]))
    tally.check(f"{name}: at once ({took:.1f} s)", took < limit_s)
    return r.stderr


def raw_controls(data):
    return [c for c in TERMINAL_CONTROLS if c in data]


def main():
    tally = Tally()
    tally.check_model()
    with tempfile.TemporaryDirectory() as tmp:
        # @LIST bounds, checked while reading.
        refused_quickly(tally, "@/dev/zero", ["classify", "@/dev/zero"], "NUL byte")
        refused_quickly(tally, "@/dev/urandom", ["classify", "@/dev/urandom"], "@/dev/urandom")
        yes = subprocess.Popen(["yes", "x"], stdout=subprocess.PIPE)
        refused_quickly(tally, "yes x | classify @/dev/stdin", ["classify", "@/dev/stdin"], "over 100000 photos", stdin=yes.stdout)
        yes.kill()
        yes.wait()
        big = os.path.join(tmp, "big.txt")
        with open(big, "w") as f:
            f.write("photo_0000.jpg\n" * 700000)  # 10.5 MB
        refused_quickly(tally, "a 10 MB list", ["classify", "@" + big], "over 100000 photos")
        with open(big, "w") as f:
            f.write(("#" + "x" * 98 + "\n") * 180000)  # 18 MB of comment lines
        refused_quickly(tally, "an 18 MB list", ["classify", "@" + big], "over 16 MiB")
        with open(big, "w") as f:
            f.write("a" * 5000 + "\n")
        refused_quickly(tally, "a 5000-byte line", ["classify", "@" + big], "line 1 is over 4096 bytes")
        small = os.path.join(tmp, "small.txt")
        with open(small, "w") as f:
            f.write(f"# two photos\n{CHELSEA}\n\n{CHELSEA}\r\n")
        r = subprocess.run([BIN, "classify", "@" + small, "--top", "1"], capture_output=True, text=True)
        tally.check("a list within bounds still works", r.returncode == 0 and r.stdout.count("\n") == 3, r.stderr)
        with open(small, "w") as f:
            f.write(f"{CHELSEA}\n")
        with open(small) as list_file:
            r = subprocess.run([BIN, "classify", "@/dev/stdin", "--top", "1"], capture_output=True, text=True, stdin=list_file)
        tally.check("@/dev/stdin is read once (the output rule and the command see the same photos)",
                    r.returncode == 0 and r.stdout.count("\n") == 1 and "cat" in r.stdout, (r.stdout, r.stderr))

        # sweep --path: refused past its limit before the model loads; progress while drawing.
        path = ";".join(f"{i % 14},{i // 14 % 14}" for i in range(20000))
        refused_quickly(tally, "sweep --path of 20,000 points", ["sweep", CHELSEA, "--layer", "0", "--head", "0",
                        "--path", path, "-o", os.path.join(tmp, "s.gif")], "over 2500 patches", limit_s=20)
        tally.check("sweep --path of 20,000 points: nothing written", not os.path.exists(os.path.join(tmp, "s.gif")))
        r = subprocess.run([BIN, "sweep", CHELSEA, "--layer", "0", "--head", "0", "--path", "5,3;5,4;6,4", "--frame-size", "128",
                            "-o", os.path.join(tmp, "s.gif")], capture_output=True, text=True, env=NO_DISPLAY, timeout=600)
        tally.check("sweep shows its progress on stderr", r.returncode == 0 and "sweep frames: 100% (3 of 3)" in r.stderr, r.stderr)

        # Quoted bytes cannot drive the terminal: an exercises file's title, a config's value, a photo's name.
        hostile = "T\x1b]0;HACKED\x07\x1b[2J\xc2\x9b31m"
        ex = os.path.join(tmp, "hostile.exercises")
        with open(ex, "w", encoding="utf-8") as f:
            f.write(f"title: {hostile}\n\nexercise: {hostile}\nkind: {hostile}\ntext: x\n")
        r = subprocess.run([BIN, "exercises", CHELSEA, "--exercises", ex, "--key", os.path.join(tmp, "k.csv")], capture_output=True)
        tally.check("an exercise's title in an error: refused", r.returncode == 2, r.stderr)
        tally.check("an exercise's title in an error: escaped", not raw_controls(r.stderr) and b"\\x1b]0;HACKED\\x07" in r.stderr,
                    r.stderr)
        model = os.path.join(tmp, "model")
        os.mkdir(model)
        for name in os.listdir(MODEL):
            os.symlink(os.path.join(MODEL, name), os.path.join(model, name))
        os.remove(os.path.join(model, "config.json"))
        with open(os.path.join(model, "config.json"), "wb") as f:
            f.write(b'{"architecture": "vit_tiny_patch16_224", "num_classes": 1000, "model_args": {"act_layer": "\x1b[2J\x1b]0;X\x07"}}')
        r = subprocess.run([BIN, "classify", CHELSEA, "--model", model], capture_output=True)
        tally.check("a config.json's bytes in an error: escaped", r.returncode == 2 and not raw_controls(r.stderr), r.stderr)
        odd = os.path.join(tmp, "cat\x1b[2J.png")
        with open(odd, "wb") as f:
            f.write(b"not a photo \x1b]0;HACKED\x07")
        r = subprocess.run([BIN, "classify", odd, CHELSEA, "--top", "1"], capture_output=True)
        tally.check("a photo's name in the progress and error lines: escaped", r.returncode == 1
                    and not raw_controls(r.stderr) and b"cat\\x1b[2J.png" in r.stderr, r.stderr)

        # Exit codes: every photo failing is "nothing done" (2), with no header-only table.
        table = os.path.join(tmp, "t.tsv")
        r = subprocess.run([BIN, "classify", odd, odd, "-o", table], capture_output=True, text=True)
        tally.check("all photos failed: exit 2, saying so", r.returncode == 2 and "all 2 photos failed" in r.stderr
                    and "the others are done" not in r.stderr, r.stderr)
        tally.check("all photos failed: no table written", not os.path.exists(table))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
