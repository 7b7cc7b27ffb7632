#!/usr/bin/env python3
"""A font or a shader vitscope cannot use stops it at start: one line naming
the file, exit 2, nothing written (issue 44). Export and the window alike.

Fonts (VITSCOPE_FONT): DejaVu Sans cut at 5,000, 50,000 and 300,000 bytes
(the lengths at which export crashed with SIGSEGV, SIGABRT and SIGSEGV), cut
just after its table directory and one byte short, and /etc/passwd (which the
window took silently); the intact copy draws the figure.
Shaders (VITSCOPE_SHADER_DIR): a copy of the shaders folder with
colorbar.frag removed, and one with overlay.frag broken; the intact copy
draws the figure and opens the window. Before, the window opened on such a
folder with every map blank, said Ready and exited 0.
Export draws offscreen (EGL, no display); the window runs on a private Xvfb."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "support")]
from script_support import BIN, DOG, MODEL, NO_DISPLAY, SRC, Tally  # noqa: E402
from window_support import Window, Xvfb  # noqa: E402

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
tally = Tally()


def one_error_line(r, *names):
    """Exit 2 and stderr one error line that names each of `names`."""
    return (r.returncode == 2 and r.stderr.startswith("vitscope: error: ") and r.stderr.count("\n") == 1
            and all(n in r.stderr for n in names))


def export(out, env):
    return subprocess.run([BIN, "export", DOG, "--model", MODEL, "--layer", "8", "--head", "1", "--patch", "5,7",
                           "-o", out], capture_output=True, text=True, env=dict(NO_DISPLAY, **env), timeout=300)


def window(xvfb, env, cwd):
    """The window with `env`; it must stop by itself: a window still open after two minutes took it."""
    try:
        return subprocess.run([BIN, DOG, "--model", MODEL, "--no-settings"], capture_output=True, text=True, cwd=cwd,
                              env=dict(xvfb.env(), **env), timeout=120)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(e.cmd, "still open after 120 s", "", "")


def no_files_but(folder, keep):
    return sorted(os.listdir(folder)) == sorted(keep)


def broken_fonts(tmp):
    with open(DEJAVU, "rb") as f:
        font = f.read()
    directory_end = 12 + 16 * struct.unpack(">H", font[4:6])[0]
    fonts = {}
    for name, length in [("cut_5000.ttf", 5000), ("cut_50000.ttf", 50000), ("cut_300000.ttf", 300000),
                         ("cut_after_directory.ttf", directory_end), ("one_byte_short.ttf", len(font) - 1)]:
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(font[:length])
        fonts[name] = path
    fonts["passwd"] = "/etc/passwd"
    return fonts


def test_fonts(xvfb, tmp):
    fonts = broken_fonts(tmp)
    out_dir = os.path.join(tmp, "out")
    os.mkdir(out_dir)
    out = os.path.join(out_dir, "figure.png")
    for name, path in fonts.items():
        r = export(out, {"VITSCOPE_FONT": path})
        tally.check(f"export with VITSCOPE_FONT={name}: one line naming the file, exit 2, no file",
                    one_error_line(r, "VITSCOPE_FONT", path, "not a usable TrueType font")
                    and no_files_but(out_dir, []), f"rc={r.returncode} {r.stderr.strip()[-300:]}")
    r = export(out, {"VITSCOPE_FONT": fonts["cut_300000.ttf"]})
    tally.check("... the cut font's line says which table runs past the end",
                "table glyf runs past the end of the file" in r.stderr, r.stderr.strip())
    for name in ("cut_50000.ttf", "passwd"):
        r = window(xvfb, {"VITSCOPE_FONT": fonts[name]}, tmp)
        tally.check(f"window with VITSCOPE_FONT={name}: one line naming the file, exit 2",
                    one_error_line(r, "VITSCOPE_FONT", fonts[name], "not a usable TrueType font"),
                    f"rc={r.returncode} {r.stderr.strip()[-300:]}")
    intact = os.path.join(tmp, "DejaVuSans copy.ttf")
    shutil.copy(DEJAVU, intact)
    r = export(out, {"VITSCOPE_FONT": intact})
    tally.check("export with the intact font copied: exit 0, the figure written",
                r.returncode == 0 and no_files_but(out_dir, ["figure.png"]), r.stderr.strip()[-300:])


def shader_folders(tmp):
    folders = {}
    for case in ("intact", "colorbar_removed", "overlay_broken"):
        folders[case] = os.path.join(tmp, case)
        shutil.copytree(os.path.join(SRC, "shaders"), folders[case])
    os.remove(os.path.join(folders["colorbar_removed"], "colorbar.frag"))
    with open(os.path.join(folders["overlay_broken"], "overlay.frag"), "a") as f:
        f.write("\nthis line is not GLSL;\n")
    return folders


def test_shaders(xvfb, tmp):
    folders = shader_folders(tmp)
    out_dir = os.path.join(tmp, "out")
    os.mkdir(out_dir)
    out = os.path.join(out_dir, "figure.png")
    names = {"colorbar_removed": os.path.join(folders["colorbar_removed"], "colorbar.frag"),
             "overlay_broken": "overlay.frag"}
    for case, names_file in names.items():
        env = {"VITSCOPE_SHADER_DIR": folders[case]}
        r = export(out, env)
        tally.check(f"export with {case}: one line naming the file, exit 2, no file",
                    one_error_line(r, names_file) and no_files_but(out_dir, []),
                    f"rc={r.returncode} {r.stderr.strip()[-300:]}")
        r = window(xvfb, env, tmp)
        tally.check(f"window with {case}: one line naming the file, exit 2",
                    one_error_line(r, names_file), f"rc={r.returncode} {r.stderr.strip()[-300:]}")
    r = export(out, {"VITSCOPE_SHADER_DIR": folders["intact"]})
    tally.check("export with the intact shaders copied: exit 0, the figure written",
                r.returncode == 0 and no_files_but(out_dir, ["figure.png"]), r.stderr.strip()[-300:])
    w = Window(xvfb, BIN, [DOG, "--model", MODEL], tmp, env={"VITSCOPE_SHADER_DIR": folders["intact"]})
    try:
        w.wait_for(lambda s: s["ready"] and not s["busy"], timeout=300, what="the photo")
        tally.check("window with the intact shaders copied: opens and shows the photo", w.proc.poll() is None)
    finally:
        w.close()


def main():
    xvfb = Xvfb()
    try:
        for test in (test_fonts, test_shaders):
            with tempfile.TemporaryDirectory(prefix="vitscope-unusable-") as tmp:
                test(xvfb, tmp)
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
