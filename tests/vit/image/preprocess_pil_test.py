#!/usr/bin/python3
"""vitscope's model input checked against PIL itself.

The reference is timm's eval transform written out with PIL and numpy:
img.convert('RGB').resize((w, h), BICUBIC) with the shorter side at
floor(size / crop_pct), torchvision's centre crop, /255, normalise.
vitscope's side is `vitscope dump IMAGE -o DIR` (DIR/input.npy, meta.json).

Cases:
  * every photo in assets/, re-saved losslessly from PIL's own decode, so both
    sides resize the same pixels: the input must match bit for bit;
  * the photo files themselves, which must match bit for bit too: vitscope
    decodes JPEG with libjpeg-turbo as Pillow does (photo_pil_test.py);
  * generated noise images (the hardest case for rounding) in shapes that
    exercise upscaling, portrait, no-op passes, odd crop offsets, grey, RGBA
    and palette PNGs, and a 448 input.

Run with /usr/bin/python3 (Debian python3-pil and python3-numpy). Needs
VITSCOPE_BIN and the default model ($VITSCOPE_MODEL, else models/<name> in
the source tree). Exits 1 on any failure.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import numpy as np
    from PIL import Image
except ImportError as error:  # CI installs these; a missing one is a failure, not a skip
    print(f"FAIL: {error} (install python3-pil and python3-numpy, run with /usr/bin/python3)")
    sys.exit(1)

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import MODEL, MODEL_NAME, SRC  # noqa: E402

SOURCE = Path(SRC)
EXACT = 1e-6  # the same 8-bit pixels give the same float32 values
FILTERS = {"bicubic": Image.BICUBIC, "bilinear": Image.BILINEAR}


def model_dir():
    if not (Path(MODEL) / "config.json").is_file():
        sys.exit(f"FAIL: model {MODEL_NAME} not found at {MODEL} (set VITSCOPE_MODEL)")
    return Path(MODEL)


def pretrained_cfg(model):
    cfg = json.loads((model / "config.json").read_text())["pretrained_cfg"]
    return {"size": cfg["input_size"][-1], "crop_pct": cfg["crop_pct"], "interpolation": cfg["interpolation"],
            "mean": np.array(cfg["mean"], np.float32), "std": np.array(cfg["std"], np.float32)}


def reference(img, cfg, size):
    """timm eval transform with PIL + numpy: (3, size, size) float32 and the crop rectangle."""
    img = img.convert("RGB")
    w, h = img.size
    scale = math.floor(size / cfg["crop_pct"])
    short, long = (w, h) if w <= h else (h, w)
    new_short, new_long = scale, int(scale * long / short)  # torchvision Resize(int)
    new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    resized = img.resize((new_w, new_h), FILTERS[cfg["interpolation"]])
    assert new_w >= size and new_h >= size, "padding case not covered here"
    top, left = int(round((new_h - size) / 2.0)), int(round((new_w - size) / 2.0))  # CenterCrop
    pixels = np.asarray(resized, np.uint8)[top:top + size, left:left + size]
    x = (pixels.astype(np.float32) / np.float32(255) - cfg["mean"]) / cfg["std"]  # ToTensor, Normalize
    sx, sy = new_w / w, new_h / h
    return x.transpose(2, 0, 1), (left / sx, top / sy, size / sx, size / sy)


def vitscope_input(binary, model, path, out_dir, size):
    cmd = [binary, "dump", str(path), "-o", str(out_dir), "--model", str(model), "--force"]  # the folder is reused: its files are replaced
    if size:
        cmd += ["--size", str(size)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}: {run.stderr.strip()}")
    meta = json.loads((out_dir / "meta.json").read_text())
    return np.load(out_dir / "input.npy"), tuple(meta["crop"])


def noise(w, h, mode, seed):
    rng = np.random.default_rng(seed)
    bands = {"RGB": 3, "RGBA": 4, "L": 1}.get(mode, 1)
    data = rng.integers(0, 256, size=(h, w, bands), dtype=np.uint8)
    if mode == "P":
        img = Image.fromarray(data[..., 0] % 64, "P")
        img.putpalette(rng.integers(0, 256, size=64 * 3, dtype=np.uint8).tolist())
        return img
    return Image.fromarray(data[..., 0] if bands == 1 else data, mode)


def main():
    binary = os.environ.get("VITSCOPE_BIN")
    if not binary or not os.access(binary, os.X_OK):
        sys.exit(f"FAIL: VITSCOPE_BIN must name the vitscope executable (got {binary!r})")
    model = model_dir()
    cfg = pretrained_cfg(model)
    photos = sorted(p for p in (SOURCE / "assets").iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".bmp", ".gif"))
    if not photos:
        sys.exit(f"FAIL: no photos in {SOURCE / 'assets'}")

    failures, rows = [], []
    with tempfile.TemporaryDirectory(prefix="vitscope_pil_") as tmp:
        tmp = Path(tmp)

        def check(label, file, pil_image, size=0):
            ours, crop = vitscope_input(binary, model, file, tmp / f"dump_{len(rows)}", size)
            ref, ref_crop = reference(pil_image, cfg, size or cfg["size"])
            if ours.shape != ref.shape:
                failures.append(f"{label}: shape {ours.shape}, PIL {ref.shape}")
                rows.append((label, "shape", "", "", ""))
                return
            diff = np.abs(ours.astype(np.float64) - ref)
            levels = diff * float(cfg["std"].max()) * 255  # back to 8-bit levels
            rows.append((label, f"{diff.max():.3g}", f"{levels.max():.2f}", f"{levels.mean():.3f}", f"{(diff > EXACT).mean():.2%}"))
            if diff.max() > EXACT:
                worst = np.unravel_index(diff.argmax(), diff.shape)
                failures.append(f"{label}: max |diff| {diff.max():.3g} at (c, y, x) = {worst}, expected bit-exact")
            if max(abs(a - b) for a, b in zip(crop, ref_crop)) > 1e-5:
                failures.append(f"{label}: crop {crop}, expected {ref_crop}")

        for photo in photos:
            decoded = Image.open(photo)
            decoded.load()
            lossless = tmp / f"{photo.stem}_pil.png"
            decoded.convert("RGB").save(lossless)
            check(f"{photo.name} (PIL's pixels)", lossless, decoded)
            check(photo.name, photo, decoded)

        dog = Image.open(SOURCE / "assets" / "dog.jpg").convert("RGB")
        dog.save(tmp / "dog_448.png")
        check("dog.jpg (PIL's pixels) --size 448", tmp / "dog_448.png", dog, size=448)

        shapes = [  # (w, h, mode): why
            (100, 60, "RGB"),     # upscale both ways
            (300, 500, "RGB"),    # portrait
            (333, 248, "RGB"),    # no resize at all; left offset round(54.5) = 54
            (331, 260, "RGB"),    # small shrink; odd offsets
            (1000, 250, "RGB"),   # wide: long side shrinks 4x
            (249, 700, "RGB"),    # barely shrinks: filter just over its base width
            (1024, 1024, "RGB"),  # square, big shrink
            (640, 480, "L"),      # grey
            (500, 375, "RGBA"),   # alpha is dropped
            (400, 300, "P"),      # palette
        ]
        for seed, (w, h, mode) in enumerate(shapes):
            img = noise(w, h, mode, seed)
            path = tmp / f"noise_{w}x{h}_{mode}.png"
            img.save(path)
            check(f"noise {w}x{h} {mode}", path, img)

    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'max|diff|':>9}  {'levels max':>10}  {'mean':>5}  {'differ':>7}")
    for label, dmax, lmax, lmean, frac in rows:
        print(f"{label:<{width}}  {dmax:>9}  {lmax:>10}  {lmean:>5}  {frac:>7}")
    if failures:
        print("\nFAIL:\n  " + "\n  ".join(failures))
        return 1
    print(f"\nOK: {len(rows)} inputs match PIL bit for bit")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:
        print(f"FAIL: {error}")
        sys.exit(1)
