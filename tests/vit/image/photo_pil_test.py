#!/usr/bin/python3
"""vitscope's decoded photos against PIL's: every pixel equal.

vitscope's side is `vitscope dump IMAGE -o DIR`: DIR/photo.npy holds the photo
as the model pipeline received it (height x width x 3 bytes, upright). PIL's
side is ImageOps.exif_transpose(Image.open(path)).convert("RGB") from Debian's
python3-pil. Cases:
  * PIL and vitscope load the same libjpeg-turbo and libwebp files (what ldd
    resolves for both), so equal settings must give equal pixels;
  * every JPEG in assets/, every JPEG and WebP in fuzz/corpus/image/;
  * JPEGs written by PIL in every flavour a camera or a program writes:
    baseline and progressive, 4:4:4 / 4:2:2 / 4:2:0 at odd sizes, grey, CMYK,
    qualities 30 to 100, noise (the hardest for rounding) and a photo;
  * the eight EXIF orientations, in JPEG, PNG (eXIf chunk) and WebP;
  * WebP: lossy and lossless, with and without alpha, animated (the first
    frame), odd sizes.

Run with /usr/bin/python3 (python3-pil, python3-numpy). Needs VITSCOPE_BIN and
the default model (dump runs it). Exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import numpy as np
    from PIL import Image, ImageOps, features
    import PIL
except ImportError as error:  # CI installs these; a missing one is a failure, not a skip
    print(f"FAIL: {error} (install python3-pil and python3-numpy, run with /usr/bin/python3)")
    sys.exit(1)

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, MODEL, SRC, Tally

tally = Tally()
check = tally.check


def libraries(path):
    """{soname: real path} of the shared libraries ldd resolves for a binary or module."""
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
    return {m[1]: os.path.realpath(m[2]) for m in re.finditer(r"^\s*(\S+) => (\S+)", out, re.M)}


def same_libraries():
    pil_dir = Path(PIL.__file__).parent
    ours = libraries(BIN)
    pil = {}
    for module in list(pil_dir.glob("_imaging.*.so")) + list(pil_dir.glob("_webp.*.so")):
        pil.update(libraries(module))
    for soname in ("libjpeg.so.62", "libwebp.so.7", "libwebpdemux.so.2"):
        check(f"PIL and vitscope load the same {soname}", soname in ours and ours.get(soname) == pil.get(soname),
              f"vitscope {ours.get(soname)}, PIL {pil.get(soname)}")
    check("PIL reads JPEG with libjpeg-turbo and has WebP (animated too)",
          features.check("libjpeg_turbo") and features.check("webp") and features.check("webp_anim"),
          f"PIL {PIL.__version__}")


def vitscope_photo(path, out_dir):
    run = subprocess.run([BIN, "dump", str(path), "-o", str(out_dir), "--model", MODEL, "--force"], capture_output=True, text=True)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip()}"
    return np.load(out_dir / "photo.npy")


def pil_photo(path):
    with Image.open(path) as im:
        return np.asarray(ImageOps.exif_transpose(im).convert("RGB"))


def compare(label, path, tmp):
    ours = vitscope_photo(path, tmp / f"dump_{tally.passed + tally.failed}")
    ref = pil_photo(path)
    if isinstance(ours, str):
        return check(label, False, ours)
    if ours.shape != ref.shape:
        return check(label, False, f"shape {ours.shape}, PIL {ref.shape}")
    diff = np.abs(ours.astype(int) - ref)
    return check(label, diff.max() == 0,
                 f"{(diff > 0).mean():.2%} of values differ, max {diff.max()} at (y, x, c) = "
                 f"{np.unravel_index(diff.argmax(), diff.shape)}")


def noise(w, h, seed, mode="RGB"):
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, size=(h, w, 4 if mode == "RGBA" else 3), dtype=np.uint8), mode)


def photo(w, h):
    with Image.open(Path(SRC) / "assets" / "dog.jpg") as im:
        return im.convert("RGB").resize((w, h), Image.BICUBIC)


def main():
    if not BIN or not os.access(BIN, os.X_OK):
        sys.exit(f"FAIL: VITSCOPE_BIN must name the vitscope executable (got {BIN!r})")
    if not (Path(MODEL) / "config.json").is_file():
        sys.exit(f"FAIL: the default model is not at {MODEL} (set VITSCOPE_MODEL)")
    same_libraries()
    with tempfile.TemporaryDirectory(prefix="vitscope_photo_pil_") as tmp:
        tmp = Path(tmp)
        source = Path(SRC)
        seeds = source / "fuzz" / "corpus" / "image"
        for path in sorted((source / "assets").glob("*.jpg")) + sorted(seeds.glob("*.jpg")) + sorted(seeds.glob("*.webp")):
            compare(f"{path.relative_to(source)} equals PIL's", path, tmp)

        jpegs = [  # (name, image, save options)
            ("noise 4:4:4 q95", noise(61, 47, 1), dict(quality=95, subsampling=0)),
            ("noise 4:2:2 q75", noise(61, 47, 2), dict(quality=75, subsampling=1)),
            ("noise 4:2:0 q50", noise(61, 47, 3), dict(quality=50, subsampling=2)),
            ("noise 4:2:0 q100 progressive", noise(33, 65, 4), dict(quality=100, subsampling=2, progressive=True)),
            ("noise 4:2:2 q30 progressive", noise(65, 33, 5), dict(quality=30, subsampling=1, progressive=True)),
            ("photo 4:2:0 q85", photo(331, 250), dict(quality=85)),
            ("photo 4:2:0 q85 progressive optimized", photo(250, 331), dict(quality=85, progressive=True, optimize=True)),
            ("photo grey q90", photo(129, 97).convert("L"), dict(quality=90)),
            ("photo grey progressive", photo(97, 129).convert("L"), dict(quality=90, progressive=True)),
            ("photo CMYK q90", photo(129, 97).convert("CMYK"), dict(quality=90)),
            ("photo CMYK progressive", photo(97, 129).convert("CMYK"), dict(quality=90, progressive=True)),
            ("1 x 1", noise(1, 1, 6), dict(quality=90)),
        ]
        for name, image, options in jpegs:
            path = tmp / (re.sub(r"\W+", "_", name) + ".jpg")
            image.save(path, "JPEG", **options)
            compare(f"JPEG {name} equals PIL's", path, tmp)

        # The eight orientations: the photo is turned as exif_transpose turns it.
        stored = photo(53, 37)
        for orientation in range(1, 9):
            exif = Image.Exif()
            exif[0x0112] = orientation
            for fmt, options in (("jpg", dict(quality=90)), ("png", {}), ("webp", dict(lossless=True))):
                path = tmp / f"orientation_{orientation}.{fmt}"
                stored.save(path, exif=exif.tobytes(), **options)
                compare(f"EXIF orientation {orientation} in {fmt.upper()} turned as exif_transpose turns it", path, tmp)

        webps = [  # (name, image or frames, save options)
            ("lossy q80", photo(131, 97), dict(quality=80)),
            ("lossy q20 odd size", noise(37, 23, 7), dict(quality=20)),
            ("lossless", noise(37, 23, 8), dict(lossless=True)),
            ("lossless with alpha", noise(37, 23, 9, "RGBA"), dict(lossless=True)),
            ("lossy with alpha", noise(37, 23, 10, "RGBA"), dict(quality=70)),
            ("animated lossy (first frame)", [photo(64, 48), noise(64, 48, 11)], dict(quality=80)),
            ("animated lossless (first frame)", [noise(40, 30, 12), photo(40, 30)], dict(lossless=True)),
        ]
        for name, image, options in webps:
            path = tmp / (re.sub(r"\W+", "_", name) + ".webp")
            if isinstance(image, list):
                image[0].save(path, "WEBP", save_all=True, append_images=image[1:], duration=100, **options)
            else:
                image.save(path, "WEBP", **options)
            compare(f"WebP {name} equals PIL's", path, tmp)
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
