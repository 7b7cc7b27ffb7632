#!/usr/bin/env python3
"""Lessons against hostile files (issue 33, items 4, 5, 6 and 10).

At start-up, without a display: a bad lesson is refused before any window
would open, exit 2 and one line `vitscope: error: L.vitscope: ...` naming the
cause (input_size 17 or 4096, a photo `../../../../etc/passwd`, embedded bytes
that are not an image, an embedded 20000 x 20000 PNG, a comparison photo that
is not an image, whole numbers of 2^64 - 1, a photo that is a folder or a
FIFO); a good lesson, also of a pytorch_model.bin model and through a tour's
`lesson:` step, gets as far as opening the window (and fails only there).
Under Xvfb: File > Open lesson of a bad lesson leaves the window as it was
(photo, model, selection, size); a photo whose name is not UTF-8 is saved in
a lesson that reopens it, and in the settings at exit; a script whose
save-lesson-with-photo cannot embed a 45 MiB photo exits 2 naming the
embedding limit, and writes nothing.
"""
import base64
import collections
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, DOG, MODEL, NO_DISPLAY, Tally  # noqa: E402
from window_support import Window, Xvfb  # noqa: E402

tally = Tally()
check = tally.check
HUGE = 18446744073709551615  # 2^64 - 1: read as a signed 64-bit number it is -1


def lesson(**fields):
    """A good lesson of dog.jpg on the default model, with `fields` changed."""
    base = {"vitscope_lesson": 1, "photo": DOG, "model": MODEL, "input_size": 224, "layer": 3, "head": 1,
            "visible_heads": [0, 1, 2], "map": "head", "query": 5, "pinned_key": -1, "tab": "math",
            "question": "scaling", "classroom": False, "math_step": 1, "compare_photo": "",
            "style": {"colormap": "viridis", "normalization": "row-max", "opacity": 0.6, "fade": True,
                      "bilinear": True, "grid": True},
            "temperature": 1.0}
    base.update(fields)
    return base


def write_lesson(tmp, name, **fields):
    path = os.path.join(tmp, name + ".vitscope")
    with open(path, "w") as f:
        json.dump(lesson(**fields), f)
    return path


def png_header_only(width, height):
    """A PNG's signature and IHDR claiming width x height, and no pixels."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk


def padded_png(path, megabytes):
    """dog.jpg as a PNG of about `megabytes` MiB: a private ancillary chunk every decoder skips."""
    from PIL import Image
    Image.open(DOG).convert("RGB").save(path)
    data = open(path, "rb").read()
    pad = b"\0" * (megabytes << 20)
    chunk = struct.pack(">I", len(pad)) + b"vsPd" + pad + struct.pack(">I", zlib.crc32(b"vsPd" + pad))
    with open(path, "wb") as f:
        f.write(data[:33] + chunk + data[33:])  # after the signature and IHDR


def bin_model(tmp):
    """The default model with its weights as pytorch_model.bin (torch.save) and no model.safetensors."""
    import torch
    import safetensors_np
    values, _ = safetensors_np.load(os.path.join(MODEL, "model.safetensors"))
    d = os.path.join(tmp, "bin_model")
    os.makedirs(d)
    for f in ("config.json", "preprocessor_config.json"):
        if os.path.exists(os.path.join(MODEL, f)):
            shutil.copy(os.path.join(MODEL, f), d)
    sd = collections.OrderedDict((k, torch.from_numpy(v.copy())) for k, v in values.items())
    torch.save(sd, os.path.join(d, "pytorch_model.bin"))
    return d


def start(args, cache):
    """vitscope ARGS without a display, embedded photos unpacked into `cache`."""
    return subprocess.run([BIN, *args, "--no-settings"], env=dict(NO_DISPLAY, XDG_CACHE_HOME=cache),
                          capture_output=True, text=True, timeout=300)


def refused_at_startup(name, path, cause, cache):
    r = start([path], cache)
    lines = r.stderr.strip().splitlines()
    check(f"at start-up: {name}: exit 2, one line naming the lesson and the cause, before any window",
          r.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"vitscope: error: {path}: ")
          and cause in lines[0] and "window" not in lines[0], f"exit {r.returncode}, stderr {r.stderr!r}")


def opens_at_startup(name, args, cache):
    """Without a display the only error left for a good lesson is the window's."""
    r = start(args, cache)
    check(f"at start-up: {name}: accepted (only the window cannot open here)",
          r.returncode == 2 and r.stderr.startswith("vitscope: error: cannot open a window"), r.stderr)


def test_startup(tmp):
    folder = os.path.join(tmp, "folder.jpg")
    os.mkdir(folder)
    fifo = os.path.join(tmp, "fifo.jpg")
    os.mkfifo(fifo)
    emb_none = base64.b64encode(b"these bytes are not an image").decode()
    emb_huge = base64.b64encode(png_header_only(20000, 20000)).decode()
    gone = os.path.join(tmp, "gone", "photo.png")
    cases = [("input_size 17", write_lesson(tmp, "s17", input_size=17), "not a multiple of the patch size"),
             ("input_size 4096", write_lesson(tmp, "s4096", input_size=4096), "over the memory budget"),
             ("photo ../../../../etc/passwd", write_lesson(tmp, "passwd", photo="../../../../etc/passwd"),
              "/etc/passwd is not an image"),
             ("embedded bytes that are no image", write_lesson(tmp, "emb", photo=gone, photo_embedded=emb_none),
              "the photo embedded in the lesson (photo.png)"),
             ("an embedded 20000 x 20000 PNG", write_lesson(tmp, "emb_huge", photo=gone, photo_embedded=emb_huge),
              "64-megapixel limit"),
             ("a comparison photo that is no image", write_lesson(tmp, "cmp", compare_photo="/etc/passwd"),
              "second photo"),
             ("layer 2^64 - 1", write_lesson(tmp, "layer", layer=HUGE), f'"layer" is {HUGE}, outside'),
             ("pinned_key 2^64 - 1", write_lesson(tmp, "pin", pinned_key=HUGE), f'"pinned_key" is {HUGE}, outside'),
             ("a photo that is a folder", write_lesson(tmp, "folder", photo=folder), f"{folder} is a folder"),
             ("a photo that is a FIFO", write_lesson(tmp, "fifo", photo=fifo), f"{fifo} is a FIFO"),
             ("a photo that is /dev/zero", write_lesson(tmp, "zero", photo="/dev/zero"), "/dev/zero is a device")]
    cache = os.path.join(tmp, "cache")
    for name, path, cause in cases:
        refused_at_startup(name, path, cause, cache)
    check("embedded bytes that are no image are not unpacked", not os.path.exists(cache), os.listdir(tmp))

    opens_at_startup("a good lesson", [write_lesson(tmp, "good")], cache)
    model = bin_model(tmp)
    opens_at_startup("a lesson of a pytorch_model.bin model", [write_lesson(tmp, "bin", model=model)], cache)
    tour = os.path.join(tmp, "bin.tour")
    with open(tour, "w") as f:
        f.write("title: From a lesson\n\nstep: The lesson\nlesson: bin.vitscope\ntext: The lesson's photo.\n")
    opens_at_startup("a tour whose lesson: step names a pytorch_model.bin model",
                     [DOG, "--model", MODEL, "--tour", tour], cache)


def run_window(xvfb, tmp, name, args, commands, env=None, settings=False):
    """Runs the script (ending in quit) in a window; (exit code, output, every state written in order)."""
    script = os.path.join(tmp, name + ".txt")
    with open(script, "w") as f:
        f.write(commands)
    w = Window(xvfb, BIN, [*args, "--script", script], tmp, size="1280x720", env=env, settings=settings)
    try:
        code, seen = w.states_until_exit()
        return code, w.output(), seen
    finally:
        w.close()


def test_window_keeps_its_state(xvfb, tmp):
    """File > Open lesson of a bad lesson: one line, and the window exactly as it was."""
    bad = {"a comparison photo that is no image": (write_lesson(tmp, "w_cmp", photo=CHELSEA, layer=2, head=0,
                                                               compare_photo="/etc/passwd"),
                                                  "Could not open the second photo: /etc/passwd is not an image"),
           "input_size 17": (write_lesson(tmp, "w_s17", photo=CHELSEA, layer=2, head=0, input_size=17),
                             "input size 17 px is not a multiple of the patch size"),
           "a photo that is no image": (write_lesson(tmp, "w_passwd", photo="/etc/passwd", layer=2),
                                        "Could not open image: /etc/passwd is not an image")}
    commands = "layer 5\nhead 1\nselect 7,7\nwait\n" + "".join(f"open-lesson {p}\nframes 20\n" for p, _ in bad.values())
    code, output, seen = run_window(xvfb, tmp, "bad", [DOG, "--model", MODEL], commands + "quit\n")
    errors = [s["last_error"] for s in seen if s["last_error"]]
    for name, (_, cause) in bad.items():
        path = bad[name][0]
        check(f"open-lesson, {name}: one line naming the lesson file, then the cause",
              any(e.startswith(path + ": ") and cause in e and "\n" not in e for e in errors), errors)
    final = seen[-1] if seen else {}
    kept = (final.get("image"), final.get("model"), final.get("layer"), final.get("head"), final.get("row"),
            final.get("col"), final.get("input_size"), final.get("compare_image"))
    check("open-lesson of bad lessons: photo, model, selection, size and second photo as they were",
          code == 0 and kept == (DOG, MODEL, 5, 1, 7, 7, 224, ""), (code, kept, output[-300:]))
    check("open-lesson of bad lessons: never showed the lesson's photo", all(s["image"] != CHELSEA for s in seen))


def test_name_not_utf8(xvfb, tmp):
    """A photo named with bytes that are not UTF-8: the lesson and the settings keep the name byte for byte."""
    raw = os.path.join(tmp, "caf\udce9 \udcff.jpg")  # the bytes 0xe9 and 0xff, as Python spells them
    shutil.copy(DOG, raw)
    saved = os.path.join(tmp, "odd.vitscope")
    config = os.path.join(tmp, "config")
    env = {"XDG_CONFIG_HOME": config}
    code, output, seen = run_window(xvfb, tmp, "save_odd", [raw, "--model", MODEL],
                                    f"layer 4\nwait\nsave-lesson {saved}\nframes 2\nquit\n", env=env, settings=True)
    check("a photo named with non-UTF-8 bytes: save-lesson works, exit 0",
          code == 0 and os.path.isfile(saved) and seen and seen[-1]["last_error"] == "", (code, output[-400:]))
    if not os.path.isfile(saved):
        return
    with open(saved) as f:
        text = json.load(f)
    stored = base64.b64decode(text["photo"]["path_bytes"]) if isinstance(text["photo"], dict) else b""
    check("the lesson holds the name's bytes", stored == os.fsencode(raw), text["photo"])
    settings = os.path.join(config, "vitscope", "settings.json")
    image = json.load(open(settings)).get("image") if os.path.isfile(settings) else None
    check("the settings were saved at exit, with the name's bytes",
          isinstance(image, dict) and base64.b64decode(image["path_bytes"]) == os.fsencode(raw), image)
    code, output, seen = run_window(xvfb, tmp, "open_odd", [saved], "wait\nframes 2\nquit\n")
    final = seen[-1] if seen else {}
    check("the lesson reopens that very photo", code == 0 and final.get("ready") and final.get("layer") == 4
          and final.get("last_error") == "" and os.path.basename(final.get("image", "")).startswith("caf"),
          (code, final.get("image"), final.get("last_error"), output[-300:]))


def test_failing_save_ends_the_script(xvfb, tmp):
    """save-lesson-with-photo of a 45 MiB photo: exit 2, one line naming the embedding's limit, no file."""
    big = os.path.join(tmp, "big.png")
    padded_png(big, 45)
    out = os.path.join(tmp, "big.vitscope")
    code, output, seen = run_window(xvfb, tmp, "big", [big, "--model", MODEL],
                                    f"wait\nsave-lesson-with-photo {out}\nframes 2\nlayer 6\nquit\n")
    lines = [line for line in output.splitlines() if line.startswith("vitscope: error:")]
    check("save-lesson-with-photo over the limit: the script exits 2 naming the embedding limit",
          code == 2 and len(lines) == 1 and "save-lesson-with-photo" in lines[0]
          and "over the 32 MiB limit for a photo embedded in a lesson" in lines[0], (code, output[-500:]))
    check("save-lesson-with-photo over the limit: the script stopped there, nothing written",
          not os.path.exists(out) and all(s["layer"] != 6 for s in seen), os.listdir(tmp))


def main():
    if not tally.check_model():
        return tally.finish()
    with tempfile.TemporaryDirectory(prefix="vitscope_lesson_hostile_") as tmp:
        test_startup(tmp)
    xvfb = Xvfb()
    try:
        for t in (test_window_keeps_its_state, test_name_not_utf8, test_failing_save_ends_the_script):
            with tempfile.TemporaryDirectory(prefix="vitscope_lesson_hostile_") as tmp:
                t(xvfb, tmp)
    finally:
        xvfb.close()
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
