"""The command line's contract per subcommand (issue 37, items 1, 2, 3 and 7),
against the real binary and the default model: unknown options, options of
another command and extra arguments refused with exit 2 and one line naming
them; `COMMAND --help` / `-h` print that command's usage (exit 0); `--version`
names the version and the kernel set; `-` is standard output; several photos
(a list, a folder, @LIST) in one run give one table with a first column
`image`, and a photo that fails is reported and skipped with exit 1; outputs
into a FIFO, through a symlink (the link kept, its target replaced), and into
a character device through a link with --force (never replaced); bad
environment variables refused."""
import csv
import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, SRC, Tally, run_vitscope as run

tally = Tally()
check = tally.check
EAGLE = os.path.join(SRC, "assets", "eagle.jpg")
COFFEE = os.path.join(SRC, "assets", "coffee.png")

# Each command, with the arguments that make it run (a photo, and whatever it needs besides).
COMMANDS = {
    "classify": [DOG],
    "attention": [DOG, "--layer", "1", "--head", "0", "--query", "cls"],
    "explain": [DOG, "--question", "heads"],
    "dump": [DOG, "-o", "unused"],
    "export": [DOG, "--layer", "1", "--head", "0", "--query", "cls", "-o", "unused.png"],
    "info": [],
    "tour": [DOG, "--claims", "unused.csv"],
    "lesson": [DOG, "-o", "unused.html"],
    "sweep": [DOG, "--layer", "1", "--head", "0", "-o", "unused.gif"],
}


def one_line_error(r, code=2):
    err = r.stderr.strip()
    return r.returncode == code and r.stdout == "" and len(err.splitlines()) == 1 and err.startswith("vitscope: error: ")


def test_strictness(tmp):
    for name, args in COMMANDS.items():
        r = run(name, *args, "--bogus-flag", "5", cwd=tmp)
        check(f"{name} --bogus-flag: refused naming it", one_line_error(r) and "--bogus-flag" in r.stderr, r.stderr)
        h = run(name, *args, "--help", cwd=tmp)
        check(f"{name} --help: its usage on stdout, exit 0", h.returncode == 0 and h.stdout.startswith(
            f"usage: vitscope {name}") and h.stderr == "", (h.returncode, h.stdout[:80], h.stderr))
        h2 = run(name, "-h")
        check(f"{name} -h: the same usage", h2.returncode == 0 and h2.stdout == h.stdout, h2.stderr)
        check(f"{name}: nothing written by the refused or help runs", os.listdir(tmp) == [], os.listdir(tmp))
    # The cases, each named in its line.
    for args, named in [(["classify", DOG, "--top", "1", "--bogus-flag", "5"], "--bogus-flag"),
                        (["classify", DOG, "--layer", "3"], "does not take --layer"),
                        (["dump", DOG, "-o", os.path.join(tmp, "d"), "--only", "attn"], "--only"),
                        (["attention", DOG, "--layer", "1", "--head", "0", "--query", "cls", "--question", "x"],
                         "does not take --question"),
                        (["info", "extra"], "unexpected argument 'extra'"),
                        (["lesson", DOG, EAGLE, "-o", os.path.join(tmp, "l.html")], f"unexpected argument '{EAGLE}'"),
                        (["classify", DOG, "--top"], "--top needs a value"),
                        (["classify", DOG, "--force=1"], "--force takes no value"),
                        (["classify", DOG, "--top", "1", "--top", "2"], "--top given twice"),
                        (["clasify", DOG], "unknown command 'clasify'")]:
        r = run(*args)
        check(f"{' '.join(a if a not in (DOG, EAGLE) else os.path.basename(a) for a in args)}: exit 2 naming "
              f"{named!r}", one_line_error(r) and named in r.stderr, (r.returncode, r.stderr))
    check("nothing written", os.listdir(tmp) == [], os.listdir(tmp))
    for words in (["--version"], ["-V"], ["version"]):
        r = run(*words)
        lines = r.stdout.splitlines()
        check(f"vitscope {words[0]}: version and kernels", r.returncode == 0 and len(lines) == 2 and
              lines[0].startswith("vitscope 0.") and lines[1].startswith("kernels: ") and r.stderr == "", r)
    r = run("--version", env_extra={"VITSCOPE_ISA": "eigen"})
    check("--version names the kernel set VITSCOPE_ISA picks", "kernels: Eigen" in r.stdout, r.stdout)
    r = run("--help")
    check("vitscope --help lists every command and the environment variables", r.returncode == 0 and all(
        f"usage: vitscope {c}" in r.stdout for c in COMMANDS) and "VITSCOPE_THREADS" in r.stdout, r.stdout[:200])
    r = run("help", "dump")
    check("vitscope help dump = dump --help", r.returncode == 0 and r.stdout == run("dump", "-h").stdout)


def test_environment():
    for name, value, named in [("VITSCOPE_THREADS", "abc", "1 to 256"), ("VITSCOPE_THREADS", "0", "1 to 256"),
                               ("VITSCOPE_THREADS", "999", "1 to 256"), ("VITSCOPE_ISA", "avx9", "v4, v3 or eigen"),
                               ("VITSCOPE_MEMORY_BUDGET", "lots", "VITSCOPE_MEMORY_BUDGET"),
                               ("VITSCOPE_LABELS_DIR", "/nonexistent/labels", "existing folder"),
                               ("VITSCOPE_FONT", "/nonexistent.ttf", "font file"),
                               ("VITSCOPE_MODEL_MIRROR", "/nonexistent/mirror", "a folder")]:
        r = run("classify", DOG, "--top", "1", env_extra={name: value})
        check(f"{name}={value}: one line naming it, exit 2", one_line_error(r) and name in r.stderr and
              named in r.stderr, r.stderr)
    r = run("classify", DOG, "--top", "1", env_extra={"VITSCOPE_THREADS": "3"})
    check("VITSCOPE_THREADS=3 runs", r.returncode == 0 and r.stdout.startswith("1\t"), r.stderr)
    guide = open(os.path.join(SRC, "docs", "command-line-and-python.md"), encoding="utf-8").read()
    for name in ("VITSCOPE_THREADS", "VITSCOPE_ISA", "VITSCOPE_MEMORY_BUDGET", "VITSCOPE_MODEL", "VITSCOPE_MODEL_MIRROR",
                 "VITSCOPE_LABELS_DIR", "VITSCOPE_SHADER_DIR", "VITSCOPE_WEB_DIR", "VITSCOPE_FONT"):
        check(f"the command-line guide lists {name}", f"`{name}" in guide)


def classify_table(text):
    return [line.split("\t") for line in text.splitlines()]


def test_several_photos(tmp):
    one = {p: classify_table(run("classify", p, "--top", "2").stdout) for p in (DOG, EAGLE, COFFEE)}
    check("classify one photo: two rows, no header", all(len(t) == 2 and t[0][0] == "1" for t in one.values()), one)
    r = run("classify", DOG, EAGLE, "--top", "2")
    rows = classify_table(r.stdout)
    check("classify two photos: header with image first, each photo's rows as alone",
          r.returncode == 0 and rows[0] == ["image", "rank", "probability", "label"] and
          rows[1:] == [[DOG] + x for x in one[DOG]] + [[EAGLE] + x for x in one[EAGLE]], r.stdout)
    check("progress on stderr, one line per photo", r.stderr.splitlines() == [
        f"vitscope: [1/2] {DOG}", f"vitscope: [2/2] {EAGLE}"], r.stderr)
    # A folder (name order) and a list file.
    folder = os.path.join(tmp, "photos")
    os.makedirs(folder)
    for p in (EAGLE, DOG):
        shutil.copy(p, folder)
    open(os.path.join(folder, "notes.txt"), "w").write("not a photo")
    r = run("classify", folder, "--top", "2")
    rows = classify_table(r.stdout)
    check("a folder: its photos in name order (dog, eagle), the text file left out",
          r.returncode == 0 and [row[0] for row in rows[1:]] == [os.path.join(folder, "dog.jpg")] * 2 +
          [os.path.join(folder, "eagle.jpg")] * 2 and [row[1:] for row in rows[1:3]] == one[DOG], r.stdout + r.stderr)
    lst = os.path.join(tmp, "list.txt")
    open(lst, "w").write(f"# photos\n{COFFEE}\n\n{DOG}\n")
    r = run("classify", "@" + lst, "--top", "2", "--csv", os.path.join(tmp, "list_out.tsv"))
    rows = classify_table(open(os.path.join(tmp, "list_out.tsv")).read())
    check("@list.txt: its photos in order, into --csv FILE, nothing on stdout",
          r.returncode == 0 and r.stdout == "" and [row[0] for row in rows[1:]] == [COFFEE] * 2 + [DOG] * 2, rows)
    # A photo that fails among good ones: reported, skipped, exit 1.
    bad = os.path.join(tmp, "broken.jpg")
    open(bad, "wb").write(b"\xff\xd8 not a jpeg")
    r = run("classify", DOG, bad, EAGLE, "--top", "2")
    rows = classify_table(r.stdout)
    err = r.stderr.splitlines()
    check("a failing photo: exit 1, the others in the table", r.returncode == 1 and
          [row[0] for row in rows[1:]] == [DOG] * 2 + [EAGLE] * 2, (r.returncode, r.stdout))
    check("the failing photo is named on stderr with 'skipped', and the end says some failed",
          any(bad in line and "skipped" in line for line in err) and "1 of 3 photos failed" in err[-1], err)
    r = run("classify", DOG, os.path.join(tmp, "missing.jpg"), "--top", "1")
    check("a missing photo among several: exit 1, named", r.returncode == 1 and "missing.jpg" in r.stderr, r.stderr)
    # A mistake in the options is refused once, before any photo (exit 2), not once per photo.
    r = run("attention", DOG, EAGLE, "--head", "1", "--patch", "5,7")
    check("attention with two photos and no --layer: exit 2, one line", one_line_error(r) and "--layer" in r.stderr,
          (r.returncode, r.stderr))
    # attention: one CSV, first column image, each photo's rows as alone.
    base = ["--layer", "3", "--head", "1", "--patch", "5,7"]
    alone = {p: run("attention", p, *base).stdout.splitlines() for p in (DOG, EAGLE)}
    r = run("attention", DOG, EAGLE, *base, "-o", "-")
    lines = r.stdout.splitlines()
    check("attention two photos: header image,key,...; each photo's rows as alone",
          r.returncode == 0 and lines[0] == "image," + alone[DOG][0] and
          lines[1:] == [f"{DOG},{x}" for x in alone[DOG][1:]] + [f"{EAGLE},{x}" for x in alone[EAGLE][1:]],
          lines[:2])
    # --mean-heads: the mean of every head's row.
    heads = [list(csv.DictReader(io.StringIO(run("attention", DOG, "--layer", "3", "--head", str(h), "--patch",
                                                 "5,7").stdout))) for h in range(3)]
    mean = list(csv.DictReader(io.StringIO(run("attention", DOG, "--layer", "3", "--mean-heads", "--patch",
                                               "5,7").stdout)))
    # Relative to the size of the value: scores near 25 print 9 significant digits.
    worst = max(abs(float(m[c]) - sum(float(h[i][c]) for h in heads) / 3) / max(1.0, abs(float(m[c])))
                for i, m in enumerate(mean) for c in ("score", "scaled", "weight"))
    check("attention --mean-heads = the mean of the three heads' rows (to 1e-6 relative)", worst < 1e-6, worst)
    # explain --mean-heads: the matrix and the cross-attention row averaged over the heads; ablation refuses it.
    for question, extra, cols in [("matrix", [], ("weight",)),
                                  ("cross", ["--compare", EAGLE, "--patch", "5,7"], ("score", "scaled", "weight"))]:
        per_head = [list(csv.DictReader(io.StringIO(run("explain", DOG, "--question", question, "--layer", "2", "--head",
                                                        str(h), *extra).stdout))) for h in range(3)]
        mean = list(csv.DictReader(io.StringIO(run("explain", DOG, "--question", question, "--layer", "2",
                                                   "--mean-heads", *extra).stdout)))
        names = [c for c in cols if mean and c in mean[0]]
        worst = max((abs(float(m[c]) - sum(float(h[i][c]) for h in per_head) / 3) / max(1.0, abs(float(m[c])))
                     for i, m in enumerate(mean) for c in names), default=1.0)
        check(f"explain --question {question} --mean-heads = the mean of the three heads' rows ({', '.join(names)}, "
              "1e-6 relative)", len(mean) == len(per_head[0]) > 0 and names and worst < 1e-6, worst)
    r = run("explain", DOG, "--question", "ablation", "--layer", "2", "--mean-heads")
    check("explain --question ablation --mean-heads: refused (it removes one head)", one_line_error(r) and
          "--head H" in r.stderr, r.stderr)
    # A long computation shows its progress on stderr, the table alone on stdout.
    r = run("explain", DOG, "--question", "relevance", "--class", "0", "--csv", "-")
    shown = [int(line.split("%")[0].rsplit(" ", 1)[1]) for line in r.stderr.splitlines() if "%" in line]
    check("explain --question relevance: occlusion's progress on stderr, rising to 100 %, the CSV alone on stdout",
          r.returncode == 0 and len(shown) >= 5 and shown == sorted(shown) and shown[-1] == 100 and
          r.stdout.startswith("token,") and "%" not in r.stdout, (r.stderr[-300:], r.stdout[:80]))
    # explain: one table with image first.
    r1 = run("explain", DOG, "--question", "heads", "--csv", "-")
    r = run("explain", DOG, EAGLE, "--question", "heads", "--csv", "-")
    lines, alone_lines = r.stdout.splitlines(), r1.stdout.splitlines()
    check("explain two photos: image column, the first photo's rows as alone",
          r.returncode == 0 and lines[0] == "image," + alone_lines[0] and
          lines[1:len(alone_lines)] == [f"{DOG},{x}" for x in alone_lines[1:]] and len(lines) == 2 * len(alone_lines) - 1,
          lines[:3])
    r = run("explain", DOG, EAGLE, "--question", "heads", "-o", os.path.join(tmp, "fig.png"))
    check("explain -o with two photos: refused (one figure)", one_line_error(r) and "one IMAGE" in r.stderr, r.stderr)
    # export: one PNG per photo in a new folder.
    out = os.path.join(tmp, "figs")
    r = run("export", DOG, EAGLE, "--layer", "3", "--head", "1", "--patch", "5,7", "--size", "256", "-o", out)
    check("export two photos: a folder with dog.png and eagle.png", r.returncode == 0 and
          sorted(os.listdir(out)) == ["dog.png", "eagle.png"] and r.stdout == "", (r.stderr, os.listdir(tmp)))
    r = run("export", DOG, EAGLE, "--layer", "3", "--head", "1", "--patch", "5,7", "--size", "256", "-o", out)
    check("export into that folder again: refused (a new folder), the folder as it was", one_line_error(r) and
          "exists already" in r.stderr and sorted(os.listdir(out)) == ["dog.png", "eagle.png"], r.stderr)
    out2 = os.path.join(tmp, "figs2")
    r = run("export", DOG, os.path.join(tmp, "missing.jpg"), "--layer", "3", "--head", "1", "--patch", "5,7", "--size",
            "256", "-o", out2)
    check("export with a missing photo: exit 1, the folder made whole with the other's figure, no temporary left",
          r.returncode == 1 and sorted(os.listdir(out2)) == ["dog.png"] and
          not [n for n in os.listdir(tmp) if n.startswith(".figs2") or "partial" in n], (r.stderr, os.listdir(tmp)))
    # Options the model cannot take are refused once, once the model is loaded, before any photo.
    for what, args, word in [("attention --layer 12", ["attention", DOG, EAGLE, "--layer", "12", "--head", "0",
                                                       "--patch", "1,1"], "--layer 12"),
                             ("export --head 3", ["export", DOG, EAGLE, "--layer", "1", "--head", "3", "--patch", "1,1",
                                                  "-o", os.path.join(tmp, "figs3")], "--head 3"),
                             ("dump --class zzz", ["dump", DOG, EAGLE, "--class", "zzz", "-o",
                                                   os.path.join(tmp, "d3")], "zzz")]:
        r = run(*args)
        check(f"{what} with two photos: exit 2, one line, nothing written", one_line_error(r) and word in r.stderr and
              "[1/2]" not in r.stderr and not os.path.exists(args[-1]), (r.returncode, r.stderr))


def reader_thread(path, into):
    def read():
        with open(path, "rb") as f:
            into.append(f.read())
    t = threading.Thread(target=read)
    t.start()
    return t


def test_outputs(tmp):
    alone = run("classify", DOG, "--top", "2").stdout
    r = run("classify", DOG, "--top", "2", "-o", "-")
    check("-o -: the table on stdout", r.returncode == 0 and r.stdout == alone, r)
    check("no file named '-' anywhere", not os.path.exists("-") and not os.path.exists(os.path.join(tmp, "-")))
    r0 = run("explain", DOG, "--question", "heads", cwd=tmp)
    r = run("explain", DOG, "--question", "heads", "--csv", "-", cwd=tmp)
    check("explain with no output named: the CSV on stdout, as --csv -", r0.returncode == 0 and r0.stdout == r.stdout,
          r0.stderr)
    check("explain --csv -: CSV on stdout, no file named '-'", r.returncode == 0 and r.stdout.startswith("layer,head")
          and not os.path.exists(os.path.join(tmp, "-")), r.stderr)
    # A FIFO is written into, and stays a FIFO.
    fifo = os.path.join(tmp, "out.fifo")
    os.mkfifo(fifo)
    got = []
    t = reader_thread(fifo, got)
    r = run("classify", DOG, "--top", "2", "--csv", fifo)
    t.join(30)
    check("a FIFO: the table through it, without --force", r.returncode == 0 and got and got[0].decode() == alone,
          (r.stderr, got))
    check("the FIFO is still a FIFO, and no temporary beside it", stat.S_ISFIFO(os.lstat(fifo).st_mode) and
          os.listdir(tmp) == ["out.fifo"], os.listdir(tmp))
    # A symlink to a file: the target replaced (with --force), the link kept.
    target = os.path.join(tmp, "target.tsv")
    open(target, "w").write("old\n")
    link = os.path.join(tmp, "stdout")  # the shape of /dev/stdout: a link to where the output goes
    os.symlink(target, link)
    r = run("classify", DOG, "--top", "2", "-o", link)
    check("through a link to an existing file, without --force: refused, the file as it was",
          one_line_error(r) and "--force" in r.stderr and open(target).read() == "old\n", r.stderr)
    r = run("classify", DOG, "--top", "2", "-o", link, "--force")
    check("through a link with --force: the link kept, its target holds the table",
          r.returncode == 0 and os.path.islink(link) and os.readlink(link) == target and open(target).read() == alone,
          (r.stderr, os.path.islink(link)))
    rel_dir = os.path.join(tmp, "rel")
    os.makedirs(os.path.join(rel_dir, "real"))
    os.symlink("real/new.csv", os.path.join(rel_dir, "dangling.csv"))
    r = run("attention", DOG, "--layer", "0", "--head", "0", "--query", "cls", "--csv",
            os.path.join(rel_dir, "dangling.csv"))
    check("a relative link to a file not there yet: the file made where it points, the link kept",
          r.returncode == 0 and os.path.islink(os.path.join(rel_dir, "dangling.csv")) and
          open(os.path.join(rel_dir, "real", "new.csv")).read().startswith("key,row,col"), r.stderr)
    # A link to a character device with --force: written into, the device never replaced.
    null_link = os.path.join(tmp, "null.csv")
    os.symlink("/dev/null", null_link)
    before = os.stat("/dev/null")
    r = run("explain", DOG, "--question", "heads", "--csv", null_link, "--force")
    after = os.stat("/dev/null")
    check("a link to /dev/null with --force: written into, /dev/null still the same character device",
          r.returncode == 0 and stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) ==
          (before.st_ino, before.st_rdev) and os.path.islink(null_link), r.stderr)
    # A link to the photo is refused even with --force.
    photo = os.path.join(tmp, "photo.jpg")
    shutil.copy(DOG, photo)
    os.symlink(photo, os.path.join(tmp, "to_photo.csv"))
    r = run("classify", photo, "--top", "1", "-o", os.path.join(tmp, "to_photo.csv"), "--force")
    check("a link to the photo being read: refused even with --force, the photo intact",
          one_line_error(r) and "never writes over" in r.stderr and open(photo, "rb").read() == open(DOG, "rb").read(),
          r.stderr)
    # Status lines go to stderr: stdout holds only data.
    png = os.path.join(tmp, "fig.png")
    r = run("export", DOG, "--layer", "1", "--head", "0", "--query", "cls", "--size", "256", "-o", png)
    check("export: its status line on stderr, nothing on stdout", r.returncode == 0 and r.stdout == "" and
          "fig.png" in r.stderr, (r.stdout, r.stderr))
    r = subprocess.run([BIN, "export", DOG, "--layer", "1", "--head", "0", "--query", "cls", "--size", "256", "-o", "-"],
                       capture_output=True, timeout=300)
    check("export -o -: the PNG on stdout", r.returncode == 0 and r.stdout.startswith(b"\x89PNG") and
          r.stdout == open(png, "rb").read(), r.stderr)
    # --mean-heads wherever --head is taken: the lesson page starts on the mean map.
    page = os.path.join(tmp, "mean.html")
    r = run("lesson", DOG, "--mean-heads", "--layer", "3", "-o", page)
    html = open(page, encoding="utf-8").read() if r.returncode == 0 else ""
    check("lesson --mean-heads: the page starts on the heads' mean at layer 3",
          '"layer":3,"mean":true' in html.replace(" ", ""), r.stderr)
    r = run("lesson", DOG, "--mean-heads", "--head", "1", "-o", os.path.join(tmp, "both.html"))
    check("lesson --head with --mean-heads: refused", one_line_error(r) and "--mean-heads" in r.stderr, r.stderr)
    r = run("dump", DOG, "-o", "-")
    check("dump -o -: refused (a folder)", one_line_error(r) and "folder" in r.stderr, r.stderr)


def main():
    tally.check_model()
    for name, fn in [("strict", test_strictness), ("photos", test_several_photos), ("outputs", test_outputs)]:
        with tempfile.TemporaryDirectory(prefix=f"vitscope-cli-{name}-") as tmp:
            fn(tmp)
    test_environment()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
