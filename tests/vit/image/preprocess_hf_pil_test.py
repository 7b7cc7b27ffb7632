#!/usr/bin/python3
"""vitscope's model input under Hugging Face preprocessors, against an
independent NumPy + PIL reimplementation of transformers' image processors.

The reference follows transformers' PIL path (ViTImageProcessor,
DeiTImageProcessor, BitImageProcessor .preprocess, image_transforms.py):
  * which processor: image_processor_type, else feature_extractor_type
    ("...FeatureExtractor" -> "...ImageProcessor"), else config.json's model_type;
    the processor's defaults under the file's keys (ViT has no crop step);
  * get_size_dict: an int size is {height, width} (BitImageProcessor's size:
    the shortest edge); get_resize_output_image_size: the other side
    int(edge * long / short);
  * resize: the uint8 array through PIL's Image.resize and back (8-bit);
  * center_crop: offset (size - crop) // 2, or zero padding ceil((crop - size) / 2)
    before the image when it is smaller;
  * rescale: float64 product, cast to float32; normalize: float32.
vitscope's side is `vitscope dump IMAGE -o DIR` (input.npy and meta.json's crop).

Preprocessors: every preprocessor_config.json in ../shared/hub_configs (the
files the hub serves: DeiT distilled, google ViT, DINO ViT-S/8), the
ViT-Ti HF-layout model's own, none at all (ViTImageProcessor's and
DeiTImageProcessor's defaults), and made-up files for what the hub ones do not
reach: BitImageProcessor's shortest edge, nearest resampling, padding, odd
crop offsets, other rescale factors, do_rescale / do_normalize false.
Photos: the PNGs in assets/ (must match to 1e-5; they match bit for bit), the
JPEGs decoded by PIL and saved as PNG (the same), the JPEG files themselves
(two decoders: a few levels allowed), and noise images in awkward shapes.
Weights come from the ViT-Ti HF-layout model in the mirror (the input does not
depend on them). Run with /usr/bin/python3; exits 1 on any failure.
"""
import json
import math
import os
import shutil
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
from script_support import BIN, HUB_CONFIGS, MIRROR, SRC, Tally

HF_MODEL = Path(MIRROR) / "vit_tiny_patch16_224.augreg_in21k_ft_in1k-hf"
EXACT = 1e-5
JPEG_MAX_LEVELS = 3      # stb_image against libjpeg: a level or two per pixel, left after resizing
JPEG_MEAN_LEVELS = 0.3

IMAGENET_STANDARD = [0.5, 0.5, 0.5]
DEFAULTS = {  # transformers' __init__ defaults of each processor
    "ViTImageProcessor": dict(do_resize=True, size={"height": 224, "width": 224}, resample=2, do_center_crop=False,
                              crop_size={"height": 224, "width": 224}, do_rescale=True, rescale_factor=1 / 255,
                              do_normalize=True, image_mean=IMAGENET_STANDARD, image_std=IMAGENET_STANDARD),
    "DeiTImageProcessor": dict(do_resize=True, size={"height": 256, "width": 256}, resample=3, do_center_crop=True,
                               crop_size={"height": 224, "width": 224}, do_rescale=True, rescale_factor=1 / 255,
                               do_normalize=True, image_mean=IMAGENET_STANDARD, image_std=IMAGENET_STANDARD),
    "BitImageProcessor": dict(do_resize=True, size={"shortest_edge": 224}, resample=3, do_center_crop=True,
                              crop_size={"height": 224, "width": 224}, do_rescale=True, rescale_factor=1 / 255,
                              do_normalize=True, image_mean=[0.48145466, 0.4578275, 0.40821073],
                              image_std=[0.26862954, 0.26130258, 0.27577711]),
}
IMAGENET = {"image_mean": [0.485, 0.456, 0.406], "image_std": [0.229, 0.224, 0.225]}

# Made-up preprocessor files: (name, model_type, file or None for none at all).
MADE_UP = [
    ("no file, vit", "vit", None),
    ("no file, deit", "deit", None),
    # The file names its processor, so ViT weights serve (a dinov2 model_type would ask for DINOv2 weights).
    ("Bit shortest edge 256, crop 224 (the DINOv2 hub setting)", "vit",
     {"image_processor_type": "BitImageProcessor", "size": {"shortest_edge": 256},
      "crop_size": {"height": 224, "width": 224}, "do_center_crop": True, "resample": 3, **IMAGENET}),
    ("Bit int size 200 < crop 224 (padding), nearest", "vit",
     {"image_processor_type": "BitImageProcessor", "size": 200, "crop_size": 224, "resample": 0}),
    ("DeiT squash 259 x 301, crop 224 (odd offsets), bilinear, rescale 0.002, no normalise", "vit",
     {"image_processor_type": "DeiTImageProcessor", "size": {"height": 259, "width": 301}, "crop_size": 224,
      "resample": 2, "rescale_factor": 0.002, "do_normalize": False}),
    ("ViT [160, 160] nearest, no rescale, mean = std = 127.5", "vit",
     {"image_processor_type": "ViTImageProcessorFast", "size": [160, 160], "resample": 0, "do_rescale": False,
      "image_mean": [127.5, 127.5, 127.5], "image_std": [127.5, 127.5, 127.5]}),
]


def size_dict(size, default_to_square):
    """transformers' get_size_dict."""
    if isinstance(size, int):
        return {"height": size, "width": size} if default_to_square else {"shortest_edge": size}
    if isinstance(size, (list, tuple)):
        return {"height": size[0], "width": size[1]}
    return dict(size)


def processor(pre, model_type):
    """The processor and its settings, as AutoImageProcessor would build it."""
    name = pre.get("image_processor_type") or pre.get("feature_extractor_type")
    if name:
        name = name.replace("FeatureExtractor", "ImageProcessor")
        name = name[:-len("Fast")] if name.endswith("Fast") else name
    else:
        name = ("DeiTImageProcessor" if model_type == "deit" else
                "BitImageProcessor" if model_type.startswith("dinov2") else "ViTImageProcessor")
    p = dict(DEFAULTS[name])
    p.update({k: v for k, v in pre.items() if k in p})
    if name == "ViTImageProcessor":
        p["do_center_crop"] = False  # ViTImageProcessor.preprocess has no crop step
    p["size"] = size_dict(p["size"], default_to_square=name != "BitImageProcessor")
    p["crop_size"] = size_dict(p["crop_size"], default_to_square=True)
    p["name"] = name
    return p


def reference(img, p):
    """(3, S, S) float32 and the crop rectangle on the photo, as transformers computes them."""
    arr = np.asarray(img.convert("RGB"))
    h, w = arr.shape[:2]
    oh, ow = h, w
    if p["do_resize"]:
        s = p["size"]
        if "shortest_edge" in s:  # get_resize_output_image_size(default_to_square=False)
            short, long = (w, h) if w <= h else (h, w)
            new_short, new_long = s["shortest_edge"], int(s["shortest_edge"] * long / short)
            oh, ow = (new_long, new_short) if w <= h else (new_short, new_long)
        else:
            oh, ow = s["height"], s["width"]
        arr = np.array(Image.fromarray(arr).resize((ow, oh), resample=p["resample"]))
    top = left = 0
    if p["do_center_crop"]:  # image_transforms.center_crop
        ch, cw = p["crop_size"]["height"], p["crop_size"]["width"]
        top, left = (oh - ch) // 2, (ow - cw) // 2
        if top >= 0 and top + ch <= oh and left >= 0 and left + cw <= ow:
            arr = arr[top:top + ch, left:left + cw]
        else:
            nh, nw = max(ch, oh), max(cw, ow)
            padded = np.zeros((nh, nw, 3), arr.dtype)
            tp, lp = math.ceil((nh - oh) / 2), math.ceil((nw - ow) / 2)
            padded[tp:tp + oh, lp:lp + ow] = arr
            arr = padded[max(0, top + tp):min(nh, top + tp + ch), max(0, left + lp):min(nw, left + lp + cw)]
    x = arr
    if p["do_rescale"]:
        x = (x.astype(np.float64) * p["rescale_factor"]).astype(np.float32)
    if p["do_normalize"]:
        x = x.astype(np.float32)
        x = (x - np.array(p["image_mean"], np.float32)) / np.array(p["image_std"], np.float32)
    x = x.astype(np.float32)
    size = x.shape[0]
    sx, sy = ow / w, oh / h
    return x.transpose(2, 0, 1), (left / sx, top / sy, size / sx, size / sy)


def in_levels(diff, p):
    """Input differences (3, S, S) as 8-bit pixel levels, channel by channel."""
    per_level = np.ones(3)
    if p["do_rescale"]:
        per_level *= p["rescale_factor"]
    if p["do_normalize"]:
        per_level /= np.array(p["image_std"], np.float64)
    return diff / per_level[:, None, None]


def noise(w, h, seed):
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8), "RGB")


def main():
    tally = Tally()
    if not os.access(BIN, os.X_OK):
        print(f"FAIL: VITSCOPE_BIN must name the vitscope executable (got {BIN!r})")
        return 1
    if not (HF_MODEL / "model.safetensors").is_file():
        print(f"FAIL: the HF-layout model is not at {HF_MODEL} (set VITSCOPE_MODEL_MIRROR)")
        return 1
    hub_files = sorted(Path(HUB_CONFIGS).glob("*/preprocessor_config.json"))
    if len(hub_files) < 3:
        print(f"FAIL: the hub's preprocessor files are not in {HUB_CONFIGS} (set VITSCOPE_HUB_CONFIGS)")
        return 1
    hf_config = json.loads((HF_MODEL / "config.json").read_text())

    with tempfile.TemporaryDirectory(prefix="vitscope_hf_pil_") as tmp:
        tmp = Path(tmp)

        # Model folders: the HF model's weights with each preprocessor.
        cases = [("HF ViT-Ti model's own", HF_MODEL, processor(json.loads((HF_MODEL / "preprocessor_config.json").read_text()), "vit"))]
        for i, f in enumerate(hub_files):
            cases.append((f"hub {f.parent.name}", f, None))
        for name, model_type, pre in MADE_UP:
            cases.append((name, (model_type, pre), None))
        folders = []
        for i, (name, source, p) in enumerate(cases):
            if isinstance(source, Path) and source == HF_MODEL:
                folders.append((name, HF_MODEL, p, True))
                continue
            folder = tmp / f"model_{i}"
            folder.mkdir()
            (folder / "model.safetensors").symlink_to(HF_MODEL / "model.safetensors")
            config = dict(hf_config)
            if isinstance(source, Path):
                shutil.copy(source, folder / "preprocessor_config.json")
                pre, model_type = json.loads(source.read_text()), "vit"
            else:
                model_type, pre = source
                config["model_type"] = model_type
                if pre is not None:
                    (folder / "preprocessor_config.json").write_text(json.dumps(pre))
            (folder / "config.json").write_text(json.dumps(config))
            folders.append((name, folder, processor(pre or {}, model_type), pre is not None))

        photos = sorted(p for p in (Path(SRC) / "assets").iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
        inputs = []  # (label, file, PIL image, exact)
        for photo in photos:
            decoded = Image.open(photo)
            decoded.load()
            if photo.suffix.lower() == ".png":
                inputs.append((photo.name, photo, decoded, True))
            else:
                lossless = tmp / f"{photo.stem}_pil.png"
                decoded.convert("RGB").save(lossless)
                inputs.append((f"{photo.name} (PIL's pixels)", lossless, decoded, True))
                inputs.append((photo.name, photo, decoded, False))
        for seed, (w, h) in enumerate([(100, 60), (300, 500), (1000, 250), (201, 199)]):
            img = noise(w, h, seed)
            path = tmp / f"noise_{w}x{h}.png"
            img.save(path)
            inputs.append((f"noise {w}x{h}", path, img, True))

        worst_exact = 0.0
        for name, folder, p, has_file in folders:
            info = subprocess.run([BIN, "info", "--model", str(folder)], capture_output=True, text=True)
            line = next((l for l in info.stdout.splitlines() if l.startswith("preprocessing:")), "")
            shape = ("aspect kept" if "shortest_edge" in p["size"] else "aspect not kept") if p["do_resize"] else "no resize"
            tally.check(f"{name}: info names {p['name']} and says '{shape}'",
                        info.returncode == 0 and p["name"] in line and shape in line, info.stdout + info.stderr)
            noted = "preprocessing note: no preprocessor_config.json" in info.stdout
            tally.check(f"{name}: info {'has no' if has_file else 'has a'} note about defaults", noted != has_file, info.stdout)

            for label, file, img, exact in inputs:
                out = tmp / "dump"
                run = subprocess.run([BIN, "dump", str(file), "-o", str(out), "--model", str(folder), "--force"],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    tally.check(f"{name} / {label}: dump runs", False, run.stderr.strip())
                    continue
                ours = np.load(out / "input.npy")
                crop = json.loads((out / "meta.json").read_text())["crop"]
                ref, ref_crop = reference(img, p)
                if ours.shape != ref.shape:
                    tally.check(f"{name} / {label}: input shape", False, f"{ours.shape}, reference {ref.shape}")
                    continue
                diff = np.abs(ours.astype(np.float64) - ref)
                crop_ok = max(abs(a - b) for a, b in zip(crop, ref_crop)) <= 1e-5 * max(1.0, *map(abs, ref_crop))
                if exact:
                    worst_exact = max(worst_exact, float(diff.max()))
                    tally.check(f"{name} / {label}: max |diff| {diff.max():.2g}, crop {[round(c, 3) for c in crop]}",
                                diff.max() <= EXACT and crop_ok, f"crop {crop}, reference {ref_crop}")
                else:
                    levels = in_levels(diff, p)
                    tally.check(f"{name} / {label}: JPEG decoders differ by {levels.max():.2f} levels max, "
                                f"{levels.mean():.3f} mean", levels.max() <= JPEG_MAX_LEVELS + 1e-3 and
                                levels.mean() <= JPEG_MEAN_LEVELS and crop_ok, f"crop {crop}, reference {ref_crop}")
                shutil.rmtree(out)
        print(f"largest difference on exact inputs: {worst_exact:.3g}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
