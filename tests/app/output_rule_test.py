#!/usr/bin/env python3
"""Issue 24 end to end: vitscope never destroys a user's file and never dies
on a text file.

Command line: `explain --csv` onto the photo, onto the model's config.json
(refused even with --force; both unchanged), onto an existing file (refused
without --force, replaced with it); `export -o` onto the photo with --force;
`-o d.jpg/x.png` naming d.jpg as a file; a 255-byte name refused before any
work; concurrent `export` runs on one name (without --force exactly one
wins, with it each run writes the file whole) and two `tour` runs on one
folder; SIGINT and SIGTERM in the middle of `vitscope tour` (no temporary
left); tours with a 20,000-character title, 25,000 steps, a region listing a
patch 44 times, an unclosed '{' (refused, one line) and a byte order mark
(works); VITSCOPE_MEMORY_BUDGET=1e30; configs that contradict the weights
(num_heads 4 on ViT-Ti, class_token false, input_size [1, 224, 224], one
mean, crop_pct 1e-6); a symlink loop named as one.

Window (Xvfb): the script's export verbs onto the open photo or an existing
file fail with one line naming the script's line, the files unchanged; a
settings.json that is a FIFO does not hang the window.

Every refusal: exit 2, one stderr line `vitscope: error: ...`, and no file
left in the folder but the ones that were there.
"""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, Tally

tally = Tally()
check = tally.check
TMP = tempfile.mkdtemp(prefix="vitscope_output_rule_")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)


def run(*args, env=None, timeout=600):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(NO_DISPLAY, **(env or {})))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def listing(folder):
    return sorted(os.listdir(folder))


def refused(r, says):
    lines = r.stderr.splitlines()
    return r.returncode == 2 and len(lines) == 1 and lines[0].startswith("vitscope: error: ") and says in lines[0]


def folder(name):
    path = os.path.join(TMP, name)
    os.mkdir(path)
    return path


def private_model(name, edit=None):
    """A model folder of our own: the weights linked, config.json copied (and edited)."""
    path = folder(name)
    os.symlink(os.path.join(MODEL, "model.safetensors"), os.path.join(path, "model.safetensors"))
    with open(os.path.join(MODEL, "config.json")) as f:
        cfg = json.load(f)
    if edit:
        edit(cfg)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(cfg, f)
    return path


def command_line_outputs():
    work = folder("cli")
    photo = os.path.join(work, "d.jpg")
    shutil.copy(DOG, photo)
    model = private_model("model")
    config = os.path.join(model, "config.json")
    photo_bytes, config_bytes = read(photo), read(config)
    explain = ["explain", photo, "--question", "scaling", "--model", model]

    r = run(*explain, "--csv", photo)
    check("explain --csv onto the photo: refused", refused(r, "never writes over it"), r.stderr)
    r = run(*explain, "--csv", photo, "--force")
    check("... even with --force, the photo unchanged", refused(r, "never writes over it") and read(photo) == photo_bytes,
          r.stderr)
    r = run(*explain, "--csv", config, "--force")
    check("explain --csv onto the model's config.json with --force: refused, unchanged",
          refused(r, "the open model's folder") and read(config) == config_bytes, r.stderr)
    os.symlink(photo, os.path.join(work, "alias.png"))
    r = run("export", photo, "--layer", "0", "--head", "0", "--query", "cls", "--model", model, "-o",
            os.path.join(work, "alias.png"), "--force")
    check("export -o a link to the photo with --force: refused, photo unchanged",
          refused(r, "never writes over it") and read(photo) == photo_bytes, r.stderr)

    mine = os.path.join(work, "mine.csv")
    with open(mine, "w") as f:
        f.write("my own numbers\n")
    r = run(*explain, "--csv", mine)
    check("explain --csv onto an existing file: refused without --force", refused(r, "exists; pass --force") and
          read(mine) == b"my own numbers\n", r.stderr)
    r = run(*explain, "--csv", mine, "--force")
    check("... replaced with --force", r.returncode == 0 and read(mine).startswith(b"layer,"), r.stderr)

    r = run(*explain, "-o", os.path.join(photo, "x.png"))
    check("-o d.jpg/x.png: names d.jpg as a file", refused(r, "d.jpg is a file, not a folder"), r.stderr)
    long_name = os.path.join(work, "n" * 251 + ".png")
    r = run(*explain[:-2], "--model", os.path.join(TMP, "no-such-model"), "-o", long_name)
    check("a legal 255-byte -o name: refused before any work (the model is not even looked for)",
          refused(r, "the name is 255 bytes"), r.stderr)
    check("nothing left in the folder but what was there",
          listing(work) == ["alias.png", "d.jpg", "mine.csv"], listing(work))


def concurrent_runs():
    work = folder("concurrent")
    out = os.path.join(work, "same.png")
    export = [BIN, "export", DOG, "--layer", "3", "--head", "1", "--patch", "5,5", "--size", "256", "--model", MODEL,
              "-o", out]
    for force in (False, True):
        if os.path.exists(out):
            os.remove(out)
        procs = [subprocess.Popen(export + (["--force"] if force else []), env=NO_DISPLAY, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(3)]
        results = [(p.wait(timeout=600), p.stderr.read()) for p in procs]
        codes = sorted(rc for rc, _ in results)
        data = read(out) if os.path.exists(out) else b""
        whole = data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")
        if force:
            check("3 runs with --force on one name: all succeed, the file one whole PNG",
                  codes == [0, 0, 0] and whole, results)
        else:
            losers = [e for rc, e in results if rc != 0]
            check("3 runs without --force on one name: exactly one succeeds, the others say it exists",
                  codes == [0, 2, 2] and whole and all("exists" in e and "Success" not in e for e in losers), results)
        check("... no temporary left", listing(work) == ["same.png"], listing(work))


def tour_file(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


STEP = "step: S{n}\nstate: layer={layer} head=0 query=cls\ntext: Layer {{layer}} of {{layers}}.\n"


def small_tour(steps, name):
    return tour_file(name, "title: T\nphoto: dog.jpg\n" + "".join(STEP.format(n=i, layer=i % 12) for i in range(steps)))


def tours():
    work = folder("tours")
    # Two runs on one folder: one wins, the other says it exists; nothing else left.
    two = small_tour(2, "two.tour")
    out = os.path.join(work, "slides")
    procs = [subprocess.Popen([BIN, "tour", DOG, "--tour", two, "-o", out, "--model", MODEL], env=NO_DISPLAY,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=600), p.stderr.read()) for p in procs]
    check("two tour runs on one folder: exactly one succeeds, the other says it exists",
          sorted(rc for rc, _ in results) == [0, 2] and any("exists" in e for _, e in results) and
          not any("pass --force" in e for _, e in results), results)  # a folder is never replaced: --force not offered
    check("... the folder whole, nothing else left", listing(work) == ["slides"] and
          listing(out) == ["claims.csv", "index.html", "step_01.png", "step_02.png"], (listing(work), listing(out)))

    # A signal in the middle: the run dies of it and its temporary folder goes with it.
    long_tour = small_tour(30, "long.tour")
    for sig in (signal.SIGINT, signal.SIGTERM):
        target = os.path.join(work, f"interrupted_{sig.name}")
        p = subprocess.Popen([BIN, "tour", DOG, "--tour", long_tour, "-o", target, "--model", MODEL], env=NO_DISPLAY,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        started = None
        deadline = time.time() + 300
        while time.time() < deadline and p.poll() is None and started is None:
            temps = [os.path.join(work, n) for n in os.listdir(work) if n.startswith(".interrupted")]
            if temps and os.path.isdir(temps[0]) and len(os.listdir(temps[0])) >= 2:
                started = temps[0]
            time.sleep(0.05)
        p.send_signal(sig)
        rc = p.wait(timeout=60)
        check(f"{sig.name} in the middle of `vitscope tour`: it dies of the signal", started is not None and rc == -sig,
              (started, rc))
        check("... and leaves no temporary folder", listing(work) == ["slides"], listing(work))

    # Tours that crashed or exhausted the program: refused at once, one line naming the line.
    cases = [
        ("a step title of 20,000 characters", "title: T\nstep: " + "W" * 20000 + "\ntext: x\n", ":2: the line is"),
        ("25,000 steps (400 KB: over the size limit)", "title: T\n" + "step: S\ntext: x\n" * 25000,
         "over the 256 KiB limit for a tour"),
        ("101 steps", "title: T\n" + "step: S\ntext: x\n" * 101, "more than 100 steps"),
        ("a region listing 0,0-13 44 times", "title: T\nregion dog:" + " 0,0-13" * 44 + "\nstep: S\ntext: {share:dog}\n",
         "lists patch 0,0 more than once"),
        ("text: {grid without its brace", "title: T\nstep: S\ntext: {grid\n", "has no closing '}'"),
    ]
    for what, text, says in cases:
        path = tour_file("bad.tour", text)
        target = os.path.join(work, "bad_slides")
        t0 = time.time()
        r = run("tour", DOG, "--tour", path, "-o", target, "--model", MODEL)
        check(f"tour with {what}: refused naming the file", refused(r, path) and says in r.stderr and
              not os.path.exists(target), r.stderr)
        check(f"... before any work ({time.time() - t0:.1f} s)", time.time() - t0 < 30)
    bom = tour_file("bom.tour", "\ufefftitle: With a BOM\nstep: One\ntext: {grid} by {grid}.\n")
    r = run("tour", DOG, "--tour", bom, "-o", os.path.join(work, "bom"), "--model", MODEL)
    check("a tour starting with a UTF-8 byte order mark works", r.returncode == 0 and
          listing(os.path.join(work, "bom")) == ["claims.csv", "index.html", "step_01.png"], r.stderr)


def text_inputs():
    r = run("info", "--model", MODEL, env={"VITSCOPE_MEMORY_BUDGET": "1e30"})
    check("VITSCOPE_MEMORY_BUDGET=1e30: refused naming the range", refused(r, "outside 16M to 64T"), r.stderr)
    r = run("info", "--model", MODEL, env={"VITSCOPE_MEMORY_BUDGET": "512M"})
    check("VITSCOPE_MEMORY_BUDGET=512M: works", r.returncode == 0, r.stderr)
    edits = [
        ("num_heads 4 on the tiny model", lambda c: c.setdefault("model_args", {}).update(num_heads=4),
         "'num_heads' 4 contradicts the architecture"),
        ("num_heads 192", lambda c: c.setdefault("model_args", {}).update(num_heads=192), "(3 heads)"),
        ("class_token false", lambda c: c.setdefault("model_args", {}).update(class_token=False), "'class_token'"),
        ("input_size [1, 224, 224]", lambda c: c["pretrained_cfg"].update(input_size=[1, 224, 224]), "[3, height, width]"),
        ("a one-element mean", lambda c: c["pretrained_cfg"].update(mean=[0.5]), "'pretrained_cfg.mean' must list 3"),
        ("crop_pct 1e-6", lambda c: c["pretrained_cfg"].update(crop_pct=1e-6), "crop_pct"),
    ]
    for i, (what, edit, says) in enumerate(edits):
        model = private_model(f"config_{i}", edit)
        r = run("classify", DOG, "--model", model)
        check(f"config with {what}: refused", refused(r, says) and "elongated" not in r.stderr, r.stderr)
    loop = os.path.join(TMP, "loop.jpg")
    os.symlink(loop, loop)
    r = run("classify", loop, "--model", MODEL)
    check("a symlink loop as the photo: named as one, not 'not found'",
          refused(r, "Too many levels of symbolic links"), r.stderr)


def window_scripts():
    try:
        from window_support import Xvfb
    except ImportError as e:
        tally.skip("the window's script verbs", f"window_support: {e}")
        return
    if shutil.which("Xvfb") is None:
        tally.skip("the window's script verbs", "no Xvfb")
        return
    work = folder("window")
    photo = os.path.join(work, "d.jpg")
    shutil.copy(DOG, photo)
    existing = os.path.join(work, "notes.png")
    with open(existing, "w") as f:
        f.write("my notes\n")
    slides = os.path.join(work, "slides")
    os.mkdir(slides)
    before = {p: read(p) for p in (photo, existing)}
    config = os.path.join(work, "config")
    os.makedirs(os.path.join(config, "vitscope"))
    os.mkfifo(os.path.join(config, "vitscope", "settings.json"))
    xvfb = Xvfb()
    try:
        cases = [("export", photo, "never writes over it"), ("screenshot", existing, "exists"),
                 ("export-sweep", existing, "exists"), ("export-question", photo, "never writes over it"),
                 ("export-tour", slides, "exists already"), ("save-lesson", photo, "never writes over it"),
                 ("save-lesson-with-photo", existing, "exists"), ("export-lesson", existing, "exists")]
        for n, (verb, path, says) in enumerate(cases):
            script = os.path.join(work, f"script_{n}.txt")
            with open(script, "w") as f:
                f.write(f"wait\n{verb} {path}\nquit\n")
            # The first run reads a settings.json that is a FIFO: it must start, warn and go on.
            settings = ["--no-settings"] if n else []
            env = dict(xvfb.env(), XDG_CONFIG_HOME=config)
            r = subprocess.run([BIN, photo, "--model", MODEL, "--script", script, "--window-size", "1280x720",
                                *settings], cwd=work, env=env, capture_output=True, text=True, timeout=300)
            errors = [l for l in r.stderr.splitlines() if l.startswith("vitscope: error:")]
            check(f"script `{verb} {os.path.basename(path)}`: exit 2, one line naming the script's line 2",
                  r.returncode == 2 and len(errors) == 1 and f"{script}:2: {verb}:" in errors[0] and says in errors[0]
                  and "pass --force" not in errors[0],  # a script's verbs have no --force: never offered
                  r.stderr[-600:])
            if n == 0:
                check("a settings.json that is a FIFO: the window opened anyway and said so",
                      "not a regular file" in r.stderr, r.stderr[-600:])
        check("the photo and the existing file unchanged, nothing new beside them",
              all(read(p) == b for p, b in before.items()) and listing(slides) == [] and
              [n for n in listing(work) if not n.startswith("script_")] == ["config", "d.jpg", "notes.png", "slides"],
              listing(work))
    finally:
        xvfb.close()


def main():
    if not tally.check_model():
        return tally.finish()
    command_line_outputs()
    text_inputs()
    concurrent_runs()
    tours()
    window_scripts()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
