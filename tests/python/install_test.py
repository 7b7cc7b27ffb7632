#!/usr/bin/env python3
"""An installed vitscope stands alone (issue 37, item 6).

`cmake --install BUILD --prefix P` into a temporary prefix; then the installed
copy runs from another folder with the source tree out of reach: in a private
mount namespace (`unshare -rm`, no privilege needed) an empty tmpfs is mounted
over the source tree, so any read of it fails. There, with $VITSCOPE_MODEL
unset, on a photo copied out beforehand:
  - `info` finds the default model in the mirror the build was configured
    with, and in the user's data folder ($XDG_DATA_HOME/vitscope/models) first
    once a copy is there;
  - `classify`, `tour --claims` print what the build's copy prints from the
    source tree (the same numbers), as do `exercises --key` (when assets/
    has exercises, installed too); `tour -o DIR` draws its slides (the
    installed shaders) and `lesson` writes a page holding the installed
    web/lesson/lesson.js; the window's known-model list and sample photos are
    not needed on the command line and are checked as installed files.
The same runs with a copy of the binary but no share/vitscope beside it fail
naming the hidden source tree: what the test tells apart is real.
The installed Python module, run the same way: `import vitscope` is the
prefix's, Model() finds the mirror's model, the top-1 label (the installed
class names) is classify's; the installed example runs on a folder.
Also: the man page renders and lists every subcommand `vitscope --help` lists,
and the bash completion completes subcommands and flags.
"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL_NAME, SRC, Tally  # noqa: E402

t = Tally()
BUILD = os.path.dirname(os.path.abspath(BIN))


def cache_value(name):
    with open(os.path.join(BUILD, "CMakeCache.txt"), encoding="utf-8") as f:
        m = re.search(r"^" + name + r":\w+=(.*)$", f.read(), re.M)
    return m.group(1) if m else ""


def base_env(xdg):
    """No model named: the program's own lookup decides. No display: slides use EGL."""
    drop = ("VITSCOPE_MODEL", "VITSCOPE_MODEL_MIRROR", "VITSCOPE_SHADER_DIR", "VITSCOPE_WEB_DIR",
            "VITSCOPE_LABELS_DIR", "DISPLAY", "WAYLAND_DISPLAY")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["XDG_DATA_HOME"] = xdg
    return env


def hidden(cmd, cwd, env):
    """cmd (a shell line) with an empty tmpfs over the source tree, in a private mount namespace."""
    script = f"mount -t tmpfs vitscope-hidden '{SRC}' && cd '{cwd}' && {cmd}"
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], env=env, capture_output=True, text=True,
                          timeout=600)


def run(args, cwd, env=None):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


probe = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs x '{SRC}' && ls -A '{SRC}'"],
                       capture_output=True, text=True)
if probe.returncode != 0:
    t.skip("a private mount namespace (unshare -rm) with a tmpfs over the source tree", probe.stderr.strip())
    sys.exit(t.finish())
t.check("inside the namespace the source tree is empty", probe.stdout.strip() == "", probe.stdout[:200])

mirror = cache_value("VITSCOPE_MODEL_MIRROR_DIR")
mirror_model = os.path.join(mirror, MODEL_NAME)
if not t.check("the build knows a model mirror holding the default model",
               mirror and os.path.isfile(os.path.join(mirror_model, "model.safetensors")), mirror):
    sys.exit(t.finish())

with tempfile.TemporaryDirectory(prefix="vitscope-install-") as tmp:
    prefix = os.path.join(tmp, "prefix")
    work = os.path.join(tmp, "work")
    xdg = os.path.join(tmp, "xdg")
    os.makedirs(work)
    os.makedirs(xdg)
    shutil.copy(DOG, os.path.join(work, "dog.jpg"))

    r = run(["cmake", "--install", BUILD, "--prefix", prefix], cwd=tmp)
    t.check("cmake --install exits 0", r.returncode == 0, r.stderr[-500:])
    share = os.path.join(prefix, "share", "vitscope")
    for rel in ["bin/vitscope", "share/vitscope/shaders/overlay.frag", "share/vitscope/web/lesson/lesson.html",
                "share/vitscope/web/lesson/lesson.js", "share/vitscope/labels/imagenet-1k.txt",
                "share/vitscope/tours/first-look.tour", "share/vitscope/models.json",
                "share/vitscope/photos/dog.jpg", "share/vitscope/photos/LICENSES.md",
                "share/man/man1/vitscope.1", "share/bash-completion/completions/vitscope"]:
        t.check(f"installed {rel}", os.path.isfile(os.path.join(prefix, rel)))
    installed = os.path.join(prefix, "bin", "vitscope")
    env = base_env(xdg)

    # The default model: the mirror (the user's folder is empty), then the user's copy.
    r = hidden(f"'{installed}' info", work, env)
    t.check("info runs with the source tree hidden", r.returncode == 0, r.stderr.strip())
    t.check("info's model is the build's mirror", f"model: {mirror_model}\n" in r.stdout, r.stdout[:300])
    user_model = os.path.join(xdg, "vitscope", "models", MODEL_NAME)
    os.makedirs(os.path.dirname(user_model))
    os.symlink(mirror_model, user_model)
    r = hidden(f"'{installed}' info", work, env)
    t.check("the user's data folder comes before the mirror", f"model: {user_model}\n" in r.stdout,
            r.stdout[:300] + r.stderr)
    os.remove(user_model)

    # The same numbers as the build's copy reading the source tree.
    build_env = base_env(xdg)
    expected = run([BIN, "classify", "dog.jpg", "--top", "3"], cwd=work, env=build_env)
    r = hidden(f"'{installed}' classify dog.jpg --top 3", work, env)
    t.check("classify runs hidden", r.returncode == 0, r.stderr.strip())
    t.check("classify prints the build's top 3", expected.returncode == 0 and r.stdout == expected.stdout,
            f"{r.stdout!r} vs {expected.stdout!r}")

    expected = run([BIN, "tour", "dog.jpg", "--claims", "build.csv"], cwd=work, env=build_env)
    r = hidden(f"'{installed}' tour dog.jpg --claims installed.csv", work, env)
    t.check("tour --claims (the shipped tour) runs hidden", r.returncode == 0, r.stderr.strip())
    same = r.returncode == 0 and expected.returncode == 0 and \
        filecmp.cmp(os.path.join(work, "build.csv"), os.path.join(work, "installed.csv"), shallow=False)
    t.check("its claims are the build's", same)

    r = hidden(f"'{installed}' tour dog.jpg -o slides", work, env)
    t.check("tour -o DIR draws its slides hidden (installed shaders)", r.returncode == 0, r.stderr.strip())
    slides = os.path.join(work, "slides")
    pngs = [n for n in os.listdir(slides) if n.endswith(".png")] if os.path.isdir(slides) else []
    t.check("the slides folder has index.html and a PNG a step",
            os.path.isfile(os.path.join(slides, "index.html")) and len(pngs) >= 10, sorted(pngs)[:3])

    if os.path.isdir(os.path.join(SRC, "assets", "exercises")):
        shipped = sorted(os.listdir(os.path.join(SRC, "assets", "exercises")))
        t.check("the exercises are installed", sorted(os.listdir(os.path.join(share, "exercises"))) == shipped,
                shipped)
        expected = run([BIN, "exercises", "dog.jpg", "--key", "build-key.csv"], cwd=work, env=build_env)
        r = hidden(f"'{installed}' exercises dog.jpg --key installed-key.csv", work, env)
        t.check("exercises (the shipped homework) runs hidden", r.returncode == 0, r.stderr.strip())
        same = r.returncode == 0 and expected.returncode == 0 and \
            filecmp.cmp(os.path.join(work, "build-key.csv"), os.path.join(work, "installed-key.csv"), shallow=False)
        t.check("its answer key is the build's", same, expected.stderr.strip())

    r = hidden(f"'{installed}' lesson dog.jpg -o lesson.html", work, env)
    t.check("lesson runs hidden (installed web files)", r.returncode == 0, r.stderr.strip())
    page = open(os.path.join(work, "lesson.html"), encoding="utf-8").read() if r.returncode == 0 else ""
    with open(os.path.join(share, "web", "lesson", "lesson.js"), encoding="utf-8") as f:
        script_line = next(line for line in f.read().splitlines() if len(line.strip()) > 30)
    t.check("the page holds the installed lesson.js", script_line in page)

    # The Python module installed beside the binary, run hidden as the binary was.
    site = [os.path.join(root, d) for root, dirs, _ in os.walk(os.path.join(prefix, "lib")) for d in dirs
            if d == "vitscope" and root.endswith("site-packages")]
    if cache_value("VITSCOPE_SANITIZE"):
        print("(a sanitizer build has no Python module: its checks are left out)")
    elif t.check("the Python module is in P/lib/pythonX.Y/site-packages/vitscope", len(site) == 1, site):
        py_env = dict(env, PYTHONPATH=os.path.dirname(site[0]))
        top1 = run([BIN, "classify", "dog.jpg", "--top", "1"], cwd=work, env=build_env).stdout.split("\t")[-1].strip()
        snippet = ("import vitscope; m = vitscope.Model(); r = m.run('dog.jpg'); "
                   "print(vitscope.__file__); print(m.path); print(m.labels[int(r.logits.argmax())])")
        r = hidden(f'/usr/bin/python3 -c "{snippet}"', work, py_env)
        lines = r.stdout.splitlines()
        t.check("import vitscope runs hidden", r.returncode == 0 and len(lines) == 3, r.stderr.strip()[-300:])
        if len(lines) == 3:
            t.check("the module imported is the installed one", lines[0].startswith(site[0]), lines[0])
            t.check("Model() finds the mirror's model", lines[1] == mirror_model, lines[1])
            t.check("its top-1 label (installed labels) is classify's", lines[2] == top1, f"{lines[2]!r} vs {top1!r}")
        example = os.path.join(share, "examples", "fig7_study.py")
        t.check("the example is installed", os.path.isfile(example))
        photos = os.path.join(work, "photos")
        os.makedirs(photos)
        shutil.copy(DOG, photos)
        r = hidden(f"/usr/bin/python3 '{example}' photos", work, py_env)
        t.check("the example runs hidden on a folder of photos", r.returncode == 0 and
                r.stdout.startswith("layer,head,mean_distance_px"), r.stderr.strip()[-300:])

    # The same binary without share/vitscope beside it reads the source tree, so it fails when hidden.
    bare = os.path.join(tmp, "bare", "bin")
    os.makedirs(bare)
    shutil.copy(installed, bare)
    r = hidden(f"'{os.path.join(bare, 'vitscope')}' tour dog.jpg --claims bare.csv", work, env)
    t.check("a copy with no share/vitscope fails on the hidden tree (exit 2, names it)",
            r.returncode == 2 and SRC in r.stderr, r.stderr.strip())

    # The man page: renders, and names every subcommand `vitscope --help` lists.
    usage = run([BIN, "--help"], cwd=work).stdout
    subcommands = sorted(set(re.findall(r"(?:^|usage: )\s*vitscope ([a-z]+)[ \n]", usage, re.M)))
    man = run(["man", "-l", os.path.join(prefix, "share", "man", "man1", "vitscope.1")], cwd=work,
              env=dict(os.environ, MANWIDTH="100", MANPAGER="cat", PAGER="cat"))
    if man.returncode != 0 and "not found" in (man.stderr or ""):
        man = run(["groff", "-man", "-Tutf8", os.path.join(prefix, "share", "man", "man1", "vitscope.1")], cwd=work)
    t.check("the man page renders with NAME and SYNOPSIS", "NAME" in man.stdout and "SYNOPSIS" in man.stdout,
            man.stderr[:200])
    t.check(f"--help lists subcommands ({len(subcommands)})", len(subcommands) >= 8, subcommands)
    missing = [s for s in subcommands if not re.search(r"vitscope\s+" + s + r"\b", man.stdout)]
    t.check("the man page's synopsis has every subcommand --help lists", not missing, missing)

    # Bash completion: subcommands, a subcommand's flags, --question's names.
    completion = os.path.join(prefix, "share", "bash-completion", "completions", "vitscope")

    def complete(*words):
        line = " ".join(f"'{w}'" for w in words)
        script = (f"source '{completion}'; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
                  "_vitscope; printf '%s\\n' \"${COMPREPLY[@]}\"")
        return run(["bash", "-c", script], cwd=work).stdout.split()

    t.check("completion: 'cl' -> classify", complete("vitscope", "cl") == ["classify"])
    t.check("completion: classify's --to -> --top", complete("vitscope", "classify", "dog.jpg", "--to") == ["--top"])
    t.check("completion: --question he -> heads",
            complete("vitscope", "explain", "dog.jpg", "--question", "he") == ["heads"])
    t.check("completion: a photo", "dog.jpg" in complete("vitscope", "classify", "do"))

sys.exit(t.finish())
