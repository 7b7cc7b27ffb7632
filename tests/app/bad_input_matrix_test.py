"""The bad-input matrix: inputs at the edge of what vitscope accepts, run
through the real binary on the real default model. Each row expects either a
refusal (exit 2, nothing on stdout, one stderr line `vitscope: error: ...`
naming the cause, no output file left behind) or a sensible result (exit 0)
where the input is valid. cli_test.py has the basic refusals (missing, empty,
truncated, not an image, broken safetensors headers); this extends it.
The window rows (when the binary has a window and Xvfb is installed) check
that a bad photo or model keeps what was open and shows the error.
Prints one line per row and a closing `N passed, M failed, K skipped`; a
skipped row (no window in the build, Xvfb missing) fails the run."""
import contextlib
import csv
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import warnings
import zlib

import numpy as np
from PIL import Image, ImageOps

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MIRROR, MODEL, MODEL_NAME, SRC, Tally

COFFEE = os.path.join(SRC, "assets", "coffee.png")
tally = Tally()
check = tally.check


# --- running vitscope ---------------------------------------------------------------------------

class Run:
    def __init__(self, rc, out, err, max_rss_mb, seconds):
        self.rc, self.out, self.err, self.max_rss_mb, self.seconds = rc, out, err, max_rss_mb, seconds

    def __repr__(self):
        return f"exit {self.rc}, stderr {self.err.strip()[:300]!r}, stdout {self.out[:120]!r}"


def run(*args, env_extra=None, timeout=300):
    """Runs vitscope; rc is -SIG when a signal ended it, None on a timeout. Peak RSS from wait4."""
    env = dict(os.environ)
    env.update(env_extra or {})
    start = time.time()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([BIN, *args], stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        rc, rss_kb = None, 0
        while time.time() - start < timeout:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                rss_kb = usage.ru_maxrss
                break
            time.sleep(0.02)
        else:
            p.kill()
            p.wait()
        p.returncode = rc if rc is not None else -9  # reaped above: keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        return Run(rc, out.read().decode(errors="replace"), err.read().decode(errors="replace"), rss_kb / 1024,
                   time.time() - start)


def is_refusal(r, must_mention):
    err = r.err.strip()
    return (r.rc == 2 and r.out == "" and len(err.splitlines()) == 1 and err.startswith("vitscope: error: ")
            and all(m.lower() in err.lower() for m in must_mention))


def expect_refusal(name, args, *must_mention, outputs=(), env_extra=None, timeout=300):
    """Exit 2 with one line naming the cause; none of `outputs` (nor OUT.tmp) exists afterwards."""
    r = run(*args, env_extra=env_extra, timeout=timeout)
    left = [p for o in outputs for p in (o, o + ".tmp") if os.path.exists(p)]
    check(name + " -> refused", is_refusal(r, must_mention) and not left,
          f"{r}" + (f", left behind {left}" if left else "") + (" (timed out)" if r.rc is None else ""))
    return r


def classify(image, *extra, model=MODEL, env_extra=None, timeout=300):
    return run("classify", image, "--model", model, "--top", "5", *extra, env_extra=env_extra, timeout=timeout)


def top(r):
    """[(label, probability)] of a classify run's output."""
    rows = [l.split("\t") for l in r.out.strip().splitlines()]
    return [(l[2], float(l[1])) for l in rows if len(l) == 3]


def sensible(r):
    t = top(r)
    probs = [p for _, p in t]
    return (r.rc == 0 and r.err == "" and len(t) == 5 and all(0 <= p <= 1 for p in probs)
            and probs == sorted(probs, reverse=True) and sum(probs) <= 1 + 1e-4)


def expect_result(name, r, ok=True, detail=""):
    check(name + " -> works", r.rc == 0 and sensible(r) and ok, f"{r} {detail}")


def model_input(tmp, image):
    """The preprocessed model input vitscope computes for a photo (from `dump`), or None."""
    out = tempfile.mkdtemp(dir=tmp)
    shutil.rmtree(out)
    r = run("dump", image, "-o", out, "--model", MODEL)
    return np.load(os.path.join(out, "input.npy")) if r.rc == 0 else None


def decoded_photo(tmp, image):
    """The photo as vitscope decoded it (`dump`'s photo.npy, upright), or None."""
    out = tempfile.mkdtemp(dir=tmp)
    shutil.rmtree(out)
    r = run("dump", image, "-o", out, "--model", MODEL)
    return np.load(os.path.join(out, "photo.npy")) if r.rc == 0 else None


def as_pil_sees_it(tmp, image):
    """vitscope's pixels equal ImageOps.exif_transpose(Image.open(image)).convert("RGB")."""
    ours = decoded_photo(tmp, image)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PIL warns about the EXIF rows' damaged blocks (in open() already)
        with Image.open(image) as im:
            ref = np.asarray(ImageOps.exif_transpose(im).convert("RGB"))
    return ours is not None and ours.shape == ref.shape and np.array_equal(ours, ref)


def same_input(tmp, a, b):
    """Both photos give the model exactly the same input tensor."""
    x, y = model_input(tmp, a), model_input(tmp, b)
    return x is not None and y is not None and np.array_equal(x, y)


def same_ranking(a, b, tol=1e-4):
    """The same top-5 labels in the same order, probabilities equal within tol."""
    ta, tb = top(a), top(b)
    return len(ta) == len(tb) == 5 and all(la == lb and abs(pa - pb) <= tol for (la, pa), (lb, pb) in zip(ta, tb))


def has_gui():
    r = run("export", DOG, "--model", MODEL, "--layer", "0", "--head", "0", "--query", "cls", "-o", "/nonexistent/x.png")
    return "no graphics" not in r.err


# --- inputs -------------------------------------------------------------------------------------

def png(width, height, bit_depth=8, colour=2, rows=None):
    """A PNG written by hand (PIL cannot write 16-bit RGB), with zero pixels unless rows are given."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    if rows is None:
        rows = b"".join(b"\0" + bytes(width * channels * bit_depth // 8) for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def png16_from(rgb8):
    """The 8-bit RGB array as a 16-bit PNG whose high bytes are the 8-bit values (v * 257)."""
    h, w, _ = rgb8.shape
    wide = (rgb8.astype(">u2") * 257).astype(">u2")
    rows = b"".join(b"\0" + wide[y].tobytes() for y in range(h))
    return png(w, h, 16, 2, rows)


def write(tmp, name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    return json.loads(data[8:8 + n]), 8 + n, data


def model_copy(tmp, name, config_edit=None, weights_edit=None):
    """A copy of the default model folder; config_edit(cfg) edits config.json,
    weights_edit(header, data_start, bytearray) edits model.safetensors in place."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    cfg = json.load(open(os.path.join(MODEL, "config.json")))
    if config_edit:
        config_edit(cfg)
    json.dump(cfg, open(os.path.join(d, "config.json"), "w"))
    if weights_edit:
        header, start, data = read_safetensors(os.path.join(MODEL, "model.safetensors"))
        data = bytearray(data)
        weights_edit(header, start, data)
        open(os.path.join(d, "model.safetensors"), "wb").write(data)
    else:
        os.symlink(os.path.abspath(os.path.join(MODEL, "model.safetensors")), os.path.join(d, "model.safetensors"))
    return d


def set_value(header, start, data, tensor, index, value):
    t = header[tensor]
    assert t["dtype"] == "F32"
    off = start + t["data_offsets"][0] + 4 * index
    data[off:off + 4] = struct.pack("<f", value)


# --- the rows -----------------------------------------------------------------------------------

def photo_decoder_rows(tmp):
    """JPEG (libjpeg-turbo), WebP (libwebp) and EXIF: refused where Pillow refuses, decoded as
    Pillow decodes where it decodes, and refused early where only a crafted file would go."""
    dog_bytes = open(DOG, "rb").read()
    small = Image.open(DOG).convert("RGB").resize((192, 144))
    webp = io.BytesIO()
    small.save(webp, "WEBP", quality=80)
    webp = webp.getvalue()
    cut = expect_refusal("truncated WebP", ["classify", write(tmp, "cut.webp", webp[:len(webp) // 2]), "--model", MODEL],
                   "cut.webp", "truncated")
    # A VP8X header with a 16384 x 16384 canvas and nothing after it: refused from the header.
    huge = b"RIFF" + struct.pack("<I", 22) + b"WEBPVP8X" + struct.pack("<I", 10) + bytes(4) + \
        (16383).to_bytes(3, "little") * 2
    r = expect_refusal("WebP header claiming 16384 x 16384", ["classify", write(tmp, "huge.webp", huge), "--model", MODEL],
                       "16384 x 16384", "64-megapixel", timeout=20)
    # Decoding would take 805 MB; the bound is the refusal of a small truncated file plus 100 MB
    # (a fixed bound would not hold under AddressSanitizer, whose process starts larger).
    limit = cut.max_rss_mb + 100
    check(f"WebP header claiming 16384 x 16384 -> refused before decoding (peak RSS < {limit:.0f} MB)",
          r.max_rss_mb < limit, f"{r.max_rss_mb:.0f} MB")

    # dog.jpg starts with its EXIF block (APP1). Its length field says 60000 in a file of 9000 bytes:
    # Pillow refuses it too ("Truncated File Read").
    lying = bytearray(dog_bytes[:9000])
    assert lying[2:4] == b"\xff\xe1" and lying[6:10] == b"Exif"
    lying[4:6] = struct.pack(">H", 60000)
    expect_refusal("EXIF block (APP1) longer than the file", ["classify", write(tmp, "long_exif.jpg", bytes(lying)),
                   "--model", MODEL], "long_exif.jpg", "APP1", "EXIF")
    # Inside the block: IFD0 claims 500 entries where the block holds a few. Read as Pillow reads
    # it (the entries that are there count; here orientation 6): the photo is turned upright.
    exif = Image.Exif()
    exif[0x0112] = 6
    block = bytearray(exif.tobytes())  # "Exif\0\0" + a big-endian TIFF block, IFD0 at offset 8
    assert block[6:8] == b"MM"
    block[14:16] = struct.pack(">H", 500)
    path = os.path.join(tmp, "exif_claims_500.jpg")
    small.save(path, quality=90, exif=bytes(block))
    expect_result("EXIF IFD claiming 500 entries (holds 1)", classify(path),
                  as_pil_sees_it(tmp, path) and decoded_photo(tmp, path).shape == (192, 144, 3),
                  "expected PIL's exif_transpose pixels, turned to 144 x 192")

    # A Huffman table declaring 16 x 255 codes: libjpeg refuses it, as it does for Pillow.
    bad = bytearray(dog_bytes)
    dht = bad.find(b"\xff\xc4")
    bad[dht + 5:dht + 21] = bytes([255] * 16)
    expect_refusal("corrupt JPEG (a bogus Huffman table)", ["classify", write(tmp, "bad_dht.jpg", bytes(bad)),
                   "--model", MODEL], "bad_dht.jpg", "damaged JPEG", "Huffman")
    # Damaged entropy-coded data is a warning in libjpeg: Pillow decodes the rest, and so does vitscope.
    noisy = bytearray(dog_bytes)
    sos = noisy.find(b"\xff\xda")
    for i in range(sos + 5000, sos + 5400, 7):
        if 0xFF not in (noisy[i], noisy[i] ^ 0x5A):  # no marker made or broken
            noisy[i] ^= 0x5A
    path = write(tmp, "noisy_scan.jpg", bytes(noisy))
    expect_result("JPEG with damaged scan data (decoded as Pillow decodes it)", classify(path),
                  as_pil_sees_it(tmp, path), "expected PIL's pixels")
    # A progressive JPEG whose first scan is repeated 600 times: Pillow would decode every copy;
    # vitscope stops at 500 (each scan re-decodes the frame: hours at 64 megapixels).
    prog = io.BytesIO()
    small.save(prog, "JPEG", quality=90, progressive=True)
    prog = prog.getvalue()
    first = prog.find(b"\xff\xda")
    second = prog.find(b"\xff\xda", first + 2)
    many = prog[:first] + prog[first:second] * 600 + prog[second:]
    expect_refusal("JPEG of 600 scans", ["classify", write(tmp, "many_scans.jpg", many), "--model", MODEL],
                   "many_scans.jpg", "500 scans", timeout=60)


def image_rows(tmp):
    dog = Image.open(DOG).convert("RGB")
    base = classify(DOG)
    expect_result("reference: dog.jpg", base)

    # A 1x1 photo is a photo: it upsamples to 248 and crops; every patch sees the same colour.
    one = write(tmp, "one_pixel.png", png(1, 1, rows=b"\0\x80\x40\x20"))
    r = classify(one)
    expect_result("1x1 PNG (upsampled to 248 px)", r)
    r = run("attention", one, "--model", MODEL, "--layer", "0", "--head", "0", "--query", "cls")
    rows = list(csv.DictReader(io.StringIO(r.out)))
    check("1x1 PNG attention -> 197 rows summing to 1", r.rc == 0 and len(rows) == 197
          and abs(sum(float(x["weight"]) for x in rows) - 1) < 1e-4, str(r))

    # 10000 x 16: the shorter side goes 16 -> 248, the longer 155000 px: 38 megapixels,
    # under the 64-megapixel limit, so it runs. It must stay within sane memory.
    wide = write(tmp, "wide_10000x16.png", png(10000, 16))
    r = classify(wide)
    expect_result(f"10000x16 PNG (resized to 155000x248, peak {r.max_rss_mb:.0f} MB)", r,
                  r.max_rss_mb < 2048, f"peak RSS {r.max_rss_mb:.0f} MB")
    # 100000 x 2 would resize to 12.4 million x 248 = 3 gigapixels: refused.
    expect_refusal("100000x2 PNG (would resize to 3 gigapixels)", ["classify", write(tmp, "wide_100000x2.png", png(100000, 2)),
                   "--model", MODEL], "100000 x 2", "elongated")
    expect_refusal("2x100000 PNG", ["classify", write(tmp, "tall_2x100000.png", png(2, 100000)), "--model", MODEL],
                   "2 x 100000")

    # 16-bit samples become 8-bit: a 16-bit PNG whose high bytes are the 8-bit photo gives the
    # model exactly the input the 8-bit photo gives.
    small = np.asarray(dog.resize((256, 192)))
    p8 = os.path.join(tmp, "dog8.png")
    Image.fromarray(small).save(p8)
    p16 = write(tmp, "dog16.png", png16_from(small))
    r8, r16 = classify(p8), classify(p16)
    expect_result("16-bit RGB PNG (same input as its 8-bit twin)", r16,
                  same_ranking(r8, r16) and same_input(tmp, p8, p16), r8.out)
    grey = np.asarray(dog.convert("L").resize((256, 192)))
    g8 = os.path.join(tmp, "grey8.png")
    Image.fromarray(grey).save(g8)
    g16 = write(tmp, "grey16.png", png(256, 192, 16, 0, b"".join(
        b"\0" + (grey[y].astype(">u2") * 257).astype(">u2").tobytes() for y in range(192))))
    r8, r16 = classify(g8), classify(g16)
    expect_result("16-bit grey PNG (same input as its 8-bit twin)", r16,
                  same_ranking(r8, r16) and same_input(tmp, g8, g16), r8.out)

    # JPEG flavours: the same DCT coefficients (same quality from the same pixels) in a
    # progressive file decode to the same pixels; CMYK (Adobe) converts back to RGB closely.
    base95 = os.path.join(tmp, "dog_q95.jpg")
    dog.save(base95, quality=95)
    prog = os.path.join(tmp, "dog_progressive.jpg")
    dog.save(prog, quality=95, progressive=True)
    rb, rp = classify(base95), classify(prog)
    expect_result("progressive JPEG (same input as baseline)", rp, same_ranking(rb, rp) and same_input(tmp, base95, prog),
                  rb.out)
    cmyk = os.path.join(tmp, "dog_cmyk.jpg")
    dog.convert("CMYK").save(cmyk, quality=95)
    rc = classify(cmyk)
    expect_result("CMYK JPEG (converted to RGB)", rc, top(rc)[:1] and top(rc)[0][0] == top(rb)[0][0]
                  and abs(top(rc)[0][1] - top(rb)[0][1]) < 0.05, rb.out)
    ycck = os.path.join(tmp, "dog_grey.jpg")
    dog.convert("L").save(ycck, quality=95)
    expect_result("greyscale JPEG", classify(ycck))

    # Animated GIF: the first frame is the photo. Same pixels as a still GIF of that frame.
    f1 = dog.resize((256, 192)).quantize(256)
    f2 = Image.open(COFFEE).convert("RGB").resize((256, 192)).quantize(256)
    anim = os.path.join(tmp, "animated.gif")
    f1.save(anim, save_all=True, append_images=[f2], duration=200, loop=0)
    still = os.path.join(tmp, "still.gif")
    f1.save(still)
    ra, rs = classify(anim), classify(still)
    expect_result("animated GIF (first frame used)", ra, same_ranking(ra, rs) and same_input(tmp, anim, still), rs.out)

    # Things that are not photo files at all.
    # A folder is its photos (issue 37): one holding none is refused (cli_contract_test runs one that holds some).
    empty_folder = os.path.join(tmp, "no_photos")
    os.makedirs(empty_folder)
    open(os.path.join(empty_folder, "notes.txt"), "w").write("not a photo")
    expect_refusal("a folder without photos as the photo", ["classify", empty_folder, "--model", MODEL], "without photos")
    fifo = os.path.join(tmp, "pipe.jpg")
    os.mkfifo(fifo)
    expect_refusal("a FIFO as the photo (must not wait for a writer)", ["classify", fifo, "--model", MODEL],
                   "pipe.jpg", timeout=20)
    expect_refusal("/dev/zero as the photo", ["classify", "/dev/zero", "--model", MODEL], "/dev/zero", timeout=20)
    tga = write(tmp, "text.tga", b"\0\0\x02" + b"\0" * 9 + b"\x10\0\x10\0\x18\0" + b"\x80" * 768)
    expect_refusal("a TGA (stb_image reads it, vitscope does not claim to)", ["classify", tga, "--model", MODEL],
                   "text.tga")

    # No partial output: a refused export leaves neither OUT.png nor OUT.png.tmp.
    if not has_gui():
        tally.skip("export of a truncated photo", "no graphics in this build")
        return base
    out = os.path.join(tmp, "figure.png")
    expect_refusal("export of a truncated photo", ["export", write(tmp, "cut.jpg", open(DOG, "rb").read()[:5000]),
                   "--model", MODEL, "--layer", "0", "--head", "0", "--query", "cls", "-o", out], "cut.jpg",
                   outputs=[out])
    return base


@contextlib.contextmanager
def meanwhile(change):
    """Calls change() over and over on another thread while the with-block runs."""
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            change()

    t = threading.Thread(target=loop)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


def changing_file_rows(tmp, base):
    # A model file truncated (and restored) in place while vitscope loads it. safetensors are
    # memory-mapped: touching a page past the new end of file raises SIGBUS unless the loader
    # guards against it. Every run must end in a result or a one-line error, never a signal.
    d = os.path.join(tmp, "changing_model")
    os.makedirs(d)
    shutil.copy(os.path.join(MODEL, "config.json"), d)
    path = os.path.join(d, "model.safetensors")
    whole = open(os.path.join(MODEL, "model.safetensors"), "rb").read()
    open(path, "wb").write(whole)

    def truncate_and_restore():
        cut = len(whole) // 3
        with open(path, "r+b") as f:
            f.truncate(cut)
        time.sleep(0.003)
        with open(path, "r+b") as f:
            f.seek(cut)
            f.write(whole[cut:])
        time.sleep(0.02)

    outcomes = {}
    with meanwhile(truncate_and_restore):
        for _ in range(30):
            r = run("info", "--model", d, timeout=120)
            kind = ("ok" if r.rc == 0 else "clean error" if is_refusal(r, ["model.safetensors"])
                    else f"exit {r.rc}" + (f" ({signal.Signals(-r.rc).name})" if r.rc and r.rc < 0 else ""))
            outcomes[kind] = outcomes.get(kind, 0) + 1
    check("model.safetensors truncated in place while loading (30 runs) -> result or clean error, never a signal",
          set(outcomes) <= {"ok", "clean error"}, str(outcomes))

    # A model folder whose file is replaced (written beside, renamed over) while loading: always whole.
    def replace():
        tmp_path = path + ".new"
        open(tmp_path, "wb").write(whole)
        os.replace(tmp_path, path)
        time.sleep(0.01)

    with meanwhile(replace):
        runs = [run("info", "--model", d, timeout=120) for _ in range(10)]
    check("model.safetensors replaced by rename while loading (10 runs) -> loads every time",
          all(r.rc == 0 for r in runs), str([r for r in runs if r.rc != 0][:1]))

    # A photo rewritten in place (dog.jpg, then coffee.png bytes, and back) while it is read:
    # each run classifies one of the two photos or refuses cleanly.
    photo = os.path.join(tmp, "changing.jpg")
    dog_bytes, coffee_bytes = open(DOG, "rb").read(), open(COFFEE, "rb").read()
    open(photo, "wb").write(dog_bytes)
    coffee_top = top(classify(COFFEE))[0][0]

    def rewrite():
        for b in (coffee_bytes, dog_bytes):
            with open(photo, "wb") as f:
                f.write(b)
            time.sleep(0.005)

    outcomes = {}
    with meanwhile(rewrite):
        for _ in range(20):
            r = classify(photo)
            kind = ("dog" if r.rc == 0 and top(r)[0][0] == top(base)[0][0] else
                    "coffee" if r.rc == 0 and top(r)[0][0] == coffee_top else
                    "clean error" if is_refusal(r, ["changing.jpg"]) else f"other: {r}")
            outcomes[kind] = outcomes.get(kind, 0) + 1
    check("photo rewritten in place while read (20 runs) -> one of the two photos or a clean error",
          all(k in ("dog", "coffee", "clean error") for k in outcomes), str(outcomes))


def model_rows(tmp):
    cls = lambda d: ["classify", DOG, "--model", d]
    nan = model_copy(tmp, "nan", weights_edit=lambda h, s, b: set_value(h, s, b, "blocks.3.attn.proj.weight", 100, float("nan")))
    expect_refusal("a NaN weight", cls(nan), "blocks.3.attn.proj.weight", "nan")
    inf = model_copy(tmp, "inf", weights_edit=lambda h, s, b: set_value(h, s, b, "norm.weight", 7, float("-inf")))
    expect_refusal("an infinite weight", cls(inf), "norm.weight")

    def edit(**kw):
        def f(cfg):
            for k, v in kw.items():
                if k == "label_names":
                    cfg[k] = v
                else:
                    cfg["model_args"][k] = v
        return f

    expect_refusal("config depth 6, weights 12 blocks", cls(model_copy(tmp, "depth", edit(depth=6))), "depth")
    expect_refusal("config width 384, weights 192", cls(model_copy(tmp, "width", edit(embed_dim=384))), "192")
    expect_refusal("config patch 32, weights 16", cls(model_copy(tmp, "patch", edit(patch_size=32))), "patch")
    def image_384(cfg):
        cfg["model_args"]["img_size"] = 384
        cfg["pretrained_cfg"]["input_size"] = [3, 384, 384]
    expect_refusal("config image 384, weights 224 (position embeddings)", cls(model_copy(tmp, "img", image_384)),
                   "pos_embed")
    expect_refusal("config names 999 classes, classifier has 1000",
                   cls(model_copy(tmp, "labels", edit(label_names=["x"] * 999))), "999")

    expect_refusal("config num_classes 500, classifier has 1000",
                   cls(model_copy(tmp, "num_classes", lambda cfg: cfg.update(num_classes=500))), "num_classes 500")

    # Hugging Face preprocessor_config.json beside the HF-layout weights.
    hf = os.path.join(MIRROR, "vit_tiny_patch16_224.augreg_in21k_ft_in1k-hf")
    def hf_copy(name, preprocessor):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        shutil.copy(os.path.join(hf, "config.json"), d)
        os.symlink(os.path.join(hf, "model.safetensors"), os.path.join(d, "model.safetensors"))
        json.dump(preprocessor, open(os.path.join(d, "preprocessor_config.json"), "w"))
        return d
    for name, pre, cause in [
            ("HF preprocessor resample 1 (LANCZOS)", {"resample": 1}, "resample 1"),
            ("HF preprocessor resample 4 (BOX)", {"resample": 4}, "resample 4"),
            ("HF preprocessor size 0", {"size": 0}, "'size' must be positive"),
            ("HF preprocessor size {height: 0, width: 224}", {"size": {"height": 0, "width": 224}}, "'size' must be positive"),
            ("HF preprocessor crop_size -1", {"image_processor_type": "DeiTImageProcessor", "crop_size": -1}, "'crop_size' must be positive"),
            ("HF preprocessor 224 x 320, nothing crops it", {"size": {"height": 224, "width": 320}}, "not square"),
            ("HF preprocessor of another model family", {"image_processor_type": "CLIPImageProcessor"}, "CLIPImageProcessor"),
            ("HF preprocessor rescale_factor 0", {"rescale_factor": 0}, "rescale_factor")]:
        expect_refusal(name, cls(hf_copy(f"hf_pre_{len(os.listdir(tmp))}", pre)), cause)
    expect_refusal("HF preprocessor without resize or crop, non-square photo",
                   ["classify", DOG, "--model", hf_copy("hf_no_resize", {"do_resize": False})], "square")
    expect_refusal("HF preprocessor size 1000000, crop 224 (a 10^12-pixel squash, refused before allocating)",
                   cls(hf_copy("hf_huge", {"image_processor_type": "DeiTImageProcessor", "size": 1000000,
                                           "crop_size": 224})), "64 megapixels", timeout=60)

    def huge_input(cfg):
        cfg["pretrained_cfg"]["input_size"] = [3, 100000, 100000]
    expect_refusal("config input size 100000 px", cls(model_copy(tmp, "huge_input", huge_input)), "100000", timeout=60)

    def fifo_config(d):
        os.remove(os.path.join(d, "config.json"))
        os.mkfifo(os.path.join(d, "config.json"))
    d = model_copy(tmp, "fifo_config")
    fifo_config(d)
    expect_refusal("config.json is a FIFO (must not wait for a writer)", cls(d), "config.json", timeout=20)
    d = model_copy(tmp, "fifo_weights")
    os.remove(os.path.join(d, "model.safetensors"))
    os.mkfifo(os.path.join(d, "model.safetensors"))
    expect_refusal("model.safetensors is a FIFO (must not wait for a writer)", cls(d), "model.safetensors", timeout=20)


def window_rows(tmp):
    """A bad photo or model opened in the window keeps what was open and shows the error."""
    if not shutil.which("Xvfb") or not shutil.which("xdotool"):
        tally.skip("window rows", "Xvfb or xdotool missing")
        return
    import window_support as ws
    if not has_gui():
        tally.skip("window rows", "no window in this build")
        return
    # window_test.py has garbage and truncated photos and a folder that is no model; these add
    # a photo refused from its header, one refused in preprocessing, and a model refused late.
    ihdr = struct.pack(">IIBBBBB", 10000, 10000, 8, 2, 0, 0, 0)
    huge = write(tmp, "win_huge.png", b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
                 + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr)))
    elongated = write(tmp, "win_wide.png", png(100000, 2))
    nan = model_copy(tmp, "win_nan", weights_edit=lambda h, s, b: set_value(h, s, b, "head.weight", 3, float("nan")))
    # File > Get a model… from a mirror on 127.0.0.1 that stops model.safetensors half-way.
    from loopback_mirror import LoopbackMirror
    served = os.path.join(tmp, "win_mirror")
    shutil.copytree(MODEL, os.path.join(served, MODEL_NAME))
    cut = LoopbackMirror(served, cut={"model.safetensors"})
    downloads = os.path.join(tmp, "win_data")
    cases = [("PNG header claiming 10000x10000", "open-image " + huge, "win_huge.png", "image", {}),
             ("100000x2 PNG", "open-image " + elongated, "100000 x 2", "image", {}),
             ("model with a NaN weight", "open-model " + nan, "head.weight", "model", {}),
             ("a download that stops half-way", "get-model " + MODEL_NAME, "half-way", "model",
              {"XDG_DATA_HOME": downloads, "VITSCOPE_MODEL_MIRROR": cut.url})]
    xvfb = ws.Xvfb()
    try:
        for name, command, mention, kept, env in cases:
            cwd = tempfile.mkdtemp(dir=tmp)
            script = os.path.join(cwd, "script.txt")
            open(script, "w").write(f"wait\n{command}\nwait\nframes 3\nquit\n")
            w = ws.Window(xvfb, BIN, [DOG, "--model", MODEL, "--script", script], cwd, env=env)
            try:
                rc = w.proc.wait(timeout=300)
            except subprocess.TimeoutExpired:
                w.proc.kill()
                rc = None
            state = ws.read_state(w.state_file) or {}
            ok = (rc == 0 and state.get("ready") and mention.lower() in state.get("last_error", "").lower()
                  and os.path.samefile(state.get("image") or "/", DOG)
                  and os.path.samefile(state.get("model") or "/", MODEL))
            if env:   # nothing of the download is left but the lock file downloads of the model share
                ok = ok and os.listdir(os.path.join(downloads, "vitscope", "models")) == [f".{MODEL_NAME}.lock"]
            check(f"window: {name} -> keeps the open {kept}, shows the error", ok,
                  f"exit {rc}, state {json.dumps({k: state.get(k) for k in ('image', 'model', 'last_error', 'ready')})}")
    finally:
        xvfb.close()
        cut.close()


def main():
    if not tally.check_model():
        sys.exit(tally.finish())
    with tempfile.TemporaryDirectory() as tmp:
        base = image_rows(tmp)
        photo_decoder_rows(tmp)
        model_rows(tmp)
        changing_file_rows(tmp, base)
        window_rows(tmp)
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
