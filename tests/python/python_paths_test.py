#!/usr/bin/env python3
"""The Python module takes what Python programs hand it (issue 44, item 10).

From BUILD/python, with the default model:
  - paths as str, bytes and os.PathLike, a photo and a model folder whose
    names are not UTF-8 included (as bytes, as os.fsdecode's str with
    surrogate escapes, as a pathlib.Path): the same numbers as the plain
    photo, for run, preprocess and gradients, and Model(folder); a damaged
    photo with such a name raises vitscope.Error showing its bytes as \\xNN;
  - wrong types raise TypeError naming what is accepted (run(None), a number,
    a dict, size=288.0, a class None or True, Model(5));
  - integer, boolean and complex arrays are refused (TypeError naming the
    dtype), never cast; float16 and float64 arrays are taken as float32;
  - a NUL in a path raises vitscope.Error (a ValueError) naming it, even
    when the name cut at the NUL is a photo ("dog\\0.jpg" beside "dog");
  - the file system's refusals raise its exceptions, which are also
    vitscope.Error: FileNotFoundError (photo, model folder), IsADirectoryError
    (a folder as a photo), NotADirectoryError (a file as a model folder, a
    file on the way), PermissionError (an unreadable photo and model folder,
    checked as an unprivileged user when the test runs as root), each with
    errno and the path as given; a damaged or empty photo stays a plain
    vitscope.Error;
  - the GIL is released while a photo is read, decoded and preprocessed: a
    second thread ticking every 2 ms pauses no more than a quarter of the
    call on a 60-megapixel JPEG written here.
"""
import errno
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
from PIL import Image

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, Tally  # noqa: E402

t = Tally()
PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(BIN)), "python")
sys.path.insert(0, PYTHON_DIR)
try:
    import vitscope  # noqa: E402
except ImportError as e:
    t.check("import vitscope from the build's python/ folder", False, e)
    sys.exit(t.finish())

t.check_model()
model = vitscope.Model(MODEL)
plain = model.run(DOG)
top = int(plain.logits.argmax())
plain_grads = model.gradients(DOG, top)


def raises(name, call, kind, words=(), also=()):
    """call() raises exactly kind (and is an instance of each of also), its message holding words: the exception."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 - which exception it is, is the check
        ok = type(e) is kind and all(isinstance(e, k) for k in also) and all(w in str(e) for w in words)
        t.check(name, ok, f"{type(e).__module__}.{type(e).__name__}: {e}")
        return e
    t.check(name, False, "no exception")
    return None


tmp = tempfile.mkdtemp(prefix="vitscope-py-paths-")
tmpb = os.fsencode(tmp)
try:
    # Names that are not UTF-8: the bytes a camera or an old file system may write.
    photo = os.path.join(tmpb, b"dog-\xe9t\xe9.jpg")  # Latin-1 "dog-ete"
    shutil.copyfile(DOG, photo)
    as_str = os.fsdecode(photo)  # "dog-\udce9t\udce9.jpg"
    for label, path in (("bytes", photo), ("an os.fsdecode str", as_str), ("a pathlib.Path", pathlib.Path(as_str)),
                        ("a pathlib.Path of a UTF-8 name", pathlib.Path(DOG))):
        try:
            run = model.run(path)
            t.check(f"run() of a photo named by {label}: the plain photo's numbers",
                    np.array_equal(run.logits, plain.logits) and np.array_equal(run.attention, plain.attention))
        except Exception as e:  # noqa: BLE001
            t.check(f"run() of a photo named by {label}", False, f"{type(e).__name__}: {e}")
    try:
        x, crop = model.preprocess(photo)
        t.check("preprocess() of a bytes path that is not UTF-8", np.array_equal(x, plain.input) and crop == plain.crop)
        grads = model.gradients(as_str, top)
        t.check("gradients() of an os.fsdecode path", np.array_equal(grads.attention, plain_grads.attention))
    except Exception as e:  # noqa: BLE001
        t.check("preprocess() and gradients() of a name that is not UTF-8", False, f"{type(e).__name__}: {e}")

    folder = os.path.join(tmpb, b"model-\xff")
    os.symlink(os.fsencode(os.path.abspath(MODEL)), folder)
    for label, path in (("bytes", folder), ("an os.fsdecode str", os.fsdecode(folder)),
                        ("a pathlib.Path", pathlib.Path(os.fsdecode(folder)))):
        try:
            other = vitscope.Model(path)
            t.check(f"Model() of a folder named by {label} that is not UTF-8",
                    other.info["path"] == os.fsdecode(folder) and
                    np.array_equal(other.run(photo).logits, plain.logits), other.info["path"])
        except Exception as e:  # noqa: BLE001
            t.check(f"Model() of a folder named by {label} that is not UTF-8", False, f"{type(e).__name__}: {e}")

    damaged = os.path.join(tmpb, b"bad-\xff.jpg")
    with open(damaged, "wb") as f:
        f.write(b"not a photo at all\n")
    raises("a damaged photo whose name is not UTF-8: vitscope.Error showing the bytes as \\xff",
           lambda: model.run(damaged), vitscope.Error, ["bad-\\xff.jpg", "not an image"])

    # Wrong types: TypeError naming what is accepted.
    x = plain.input
    raises("run(None) is a TypeError", lambda: model.run(None), TypeError, ["path", "float array", "NoneType"])
    raises("run(5) is a TypeError", lambda: model.run(5), TypeError, ["path", "float array", "int"])
    raises("run(3.0) is a TypeError", lambda: model.run(3.0), TypeError, ["path", "float array", "float"])
    raises("run({}) is a TypeError", lambda: model.run({"a": 1}), TypeError, ["path", "float array", "dict"])
    raises("preprocess(None) is a TypeError", lambda: model.preprocess(None), TypeError, ["path", "NoneType"])
    raises("gradients(None, class) is a TypeError", lambda: model.gradients(None, top), TypeError, ["path", "float array"])
    raises("Model(5) is a TypeError", lambda: vitscope.Model(5), TypeError, ["path", "int"])
    raises("size=288.0 is a TypeError", lambda: model.run(DOG, size=288.0), TypeError, ["size", "int", "float"])
    raises("a class None is a TypeError", lambda: model.gradients(x, None), TypeError, ["index", "label", "NoneType"])
    raises("a class True is a TypeError", lambda: model.gradients(x, True), TypeError, ["index", "label", "bool"])

    # Arrays: floats are taken, nothing else is cast silently.
    for dtype in (np.int32, np.uint8, np.bool_, np.complex64):
        name = np.dtype(dtype).name
        raises(f"a {name} array is refused, not cast", lambda: model.run(x.astype(dtype)), TypeError, [name, "float"])
    raises("an int array is refused by gradients() too", lambda: model.gradients(x.astype(np.int64), top), TypeError,
           ["int64"])
    t.check("a float64 array is taken as float32", np.array_equal(model.run(x.astype(np.float64)).logits, plain.logits))
    half = model.run(x.astype(np.float16))
    t.check("a float16 array is taken (the same top-1)", int(half.logits.argmax()) == top)
    t.check("a nested list of floats is taken", np.array_equal(model.run(x.tolist()).logits, plain.logits))

    # A NUL cut the name short at the C++ side: "dog\0.jpg" opened "dog".
    shutil.copyfile(DOG, os.path.join(tmp, "dog"))
    cut = os.path.join(tmp, "dog\0.jpg")
    raises("a NUL in a str path is refused, naming it", lambda: model.run(cut), vitscope.Error,
           ["NUL", "dog\\0.jpg"], [ValueError])
    raises("a NUL in a bytes path is refused", lambda: model.preprocess(os.fsencode(cut)), vitscope.Error, ["NUL"])
    raises("a NUL in gradients()' path is refused", lambda: model.gradients(cut, top), vitscope.Error, ["NUL"])
    raises("a NUL in a model folder is refused", lambda: vitscope.Model(MODEL + "\0x"), vitscope.Error, ["NUL"])

    # The file system's refusals.
    missing = os.path.join(tmp, "no-such-photo.jpg")
    e = raises("a missing photo is a FileNotFoundError (and a vitscope.Error, a ValueError)",
               lambda: model.run(missing), vitscope.FileNotFoundError, [missing],
               [FileNotFoundError, vitscope.Error, ValueError])
    t.check("... with errno ENOENT and the path as given", e is not None and e.errno == errno.ENOENT and
            e.filename == missing, e and (e.errno, e.filename))
    e = raises("a missing bytes path: FileNotFoundError naming the bytes",
               lambda: model.preprocess(os.fsencode(missing) + b"\xff"), vitscope.FileNotFoundError, [],
               [FileNotFoundError])
    t.check("... its filename the bytes given", e is not None and e.filename == os.fsencode(missing) + b"\xff")
    raises("a missing photo in gradients() is a FileNotFoundError", lambda: model.gradients(pathlib.Path(missing), top),
           vitscope.FileNotFoundError, [missing])
    raises("a missing model folder is a FileNotFoundError", lambda: vitscope.Model(os.path.join(tmp, "no-model")),
           vitscope.FileNotFoundError, ["no-model"], [FileNotFoundError, vitscope.Error])
    raises("a folder as a photo is an IsADirectoryError", lambda: model.run(tmp), vitscope.IsADirectoryError, [tmp],
           [IsADirectoryError, vitscope.Error])
    raises("a file as a model folder is a NotADirectoryError", lambda: vitscope.Model(DOG),
           vitscope.NotADirectoryError, [DOG], [NotADirectoryError, vitscope.Error])
    raises("a file on a photo's way is a NotADirectoryError", lambda: model.run(os.path.join(DOG, "x.jpg")),
           vitscope.NotADirectoryError, [], [NotADirectoryError])
    empty = os.path.join(tmp, "empty.jpg")
    open(empty, "wb").close()
    raises("an empty photo stays a vitscope.Error, not an OSError", lambda: model.run(empty), vitscope.Error, ["empty"])

    # An unreadable photo and model folder: as this user, or as nobody when root reads everything.
    locked = os.path.join(tmp, "locked.jpg")
    shutil.copyfile(DOG, locked)
    locked_folder = os.path.join(tmp, "locked-model")
    os.mkdir(locked_folder)
    os.chmod(locked, 0)
    os.chmod(locked_folder, 0)
    os.chmod(tmp, 0o755)
    probe = """if True:
        import json, sys
        sys.path.insert(0, sys.argv[1])
        import vitscope
        out = {}
        for key, call in (("photo", lambda: vitscope.Model(sys.argv[2]).run(sys.argv[3])),
                          ("model", lambda: vitscope.Model(sys.argv[4]))):
            try:
                call()
                out[key] = "no exception"
            except Exception as e:
                out[key] = [type(e).__module__ + "." + type(e).__name__, isinstance(e, PermissionError),
                            isinstance(e, vitscope.Error), e.errno if isinstance(e, OSError) else None, str(e)]
        print(json.dumps(out))
    """
    nobody = os.geteuid() == 0

    def as_nobody():
        os.setgroups([])
        os.setresgid(65534, 65534, 65534)
        os.setresuid(65534, 65534, 65534)

    r = subprocess.run([sys.executable, "-c", probe, PYTHON_DIR, os.path.abspath(MODEL), locked, locked_folder],
                       capture_output=True, text=True, preexec_fn=as_nobody if nobody else None, timeout=300)
    who = "as nobody (the test runs as root)" if nobody else "as this user"
    try:
        seen = json.loads(r.stdout)
    except ValueError:
        seen = {}
        t.check(f"the unreadable-file probe runs {who}", False, r.stderr.strip()[-500:])
    for key, what in (("photo", "an unreadable photo"), ("model", "an unreadable model folder")):
        got = seen.get(key)
        t.check(f"{what} is a PermissionError (and a vitscope.Error), {who}",
                isinstance(got, list) and got[0] == "vitscope.PermissionError" and got[1] and got[2] and
                got[3] == errno.EACCES, got)

    # The GIL while a big photo is read, decoded and preprocessed.
    big = os.path.join(tmp, "big.jpg")
    side = 7800  # 60.8 megapixels, under the 64-megapixel limit
    ramp = Image.linear_gradient("L").resize((side, side))
    Image.merge("RGB", (ramp, ramp.transpose(Image.Transpose.ROTATE_90), ramp.transpose(Image.Transpose.FLIP_TOP_BOTTOM))
                ).save(big, quality=90)
    del ramp
    ticks, stop = [], threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.002)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    start = time.perf_counter()
    big_run = model.run(big)
    end = time.perf_counter()
    time.sleep(0.05)
    stop.set()
    ticker.join()
    during = [s for s in ticks if start <= s <= end]
    stamps = [start, *during, end]
    pause = max(b - a for a, b in zip(stamps, stamps[1:]))
    took = end - start
    t.check("the big photo runs", big_run.grid == plain.grid, big_run.grid)
    t.check(f"another thread keeps ticking while a 60-megapixel JPEG decodes (longest pause "
            f"{pause * 1000:.0f} ms of {took * 1000:.0f} ms)", pause <= max(0.25 * took, 0.05),
            f"{len(during)} ticks during the call")
finally:
    for root, dirs, _ in os.walk(tmpb):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    shutil.rmtree(tmpb)

sys.exit(t.finish())
