#!/usr/bin/python3
"""Class names for models as the Hugging Face hub serves them.

timm's hub config.json carries no label_names, so vitscope ships the
ImageNet-1k names (assets/labels/imagenet-1k.txt) and uses them for a timm
model with 1000 classes. Checked with the hub's own config file (from
../shared/hub_configs) beside the default model's weights:
  * classify chelsea.png gives "Egyptian cat" top-1;
  * the name of every class index equals the mirror config's label_names
    (a head whose logits fall with the index makes `classify --top 1000` list
    the classes in index order);
  * info says where the names come from;
  * an installed vitscope (cmake --install) reads the installed copy;
  * an ImageNet-21k head (21843 classes) gets "class N" and a note in info;
  * an HF config keeps its id2label; a model without a head says so;
  * the DeiT-Tiny folder in the mirror still loads and runs.
Run with /usr/bin/python3; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, CHELSEA, HUB_CONFIGS, MIRROR, MODEL, SRC, Tally

import safetensors_np  # noqa: E402

HUB_TIMM_CONFIG = Path(HUB_CONFIGS) / "timm__vit_tiny_patch16_224.augreg_in21k_ft_in1k" / "config.json"

tally = Tally()
check = tally.check


def run(binary, *args, env=None):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=300, env=env)


def hub_folder(parent, config=HUB_TIMM_CONFIG):
    """The default model's weights beside the hub's config.json, as a user who fetched the hub repo has them."""
    folder = Path(parent) / "hub_timm"
    folder.mkdir()
    (folder / "model.safetensors").symlink_to(Path(MODEL) / "model.safetensors")
    (folder / "config.json").write_text(Path(config).read_text())
    return folder


def ranked(binary, folder, top=1000, env=None):
    r = run(binary, "classify", CHELSEA, "--model", str(folder), "--top", str(top), env=env)
    return r, [line.split("\t") for line in r.stdout.splitlines()]


def main():
    for path, what in ((HUB_TIMM_CONFIG, "the hub's timm config (set VITSCOPE_HUB_CONFIGS)"),
                       (Path(MODEL) / "model.safetensors", "the default model (set VITSCOPE_MODEL)")):
        if not path.is_file():
            print(f"FAIL: {what} is not at {path}")
            return 1
    hub_config = json.loads(HUB_TIMM_CONFIG.read_text())
    check("the hub's timm config has no label_names (why names are shipped)", "label_names" not in hub_config)
    mirror_names = json.loads((Path(MODEL) / "config.json").read_text())["label_names"]
    shipped = (Path(SRC) / "assets" / "labels" / "imagenet-1k.txt").read_text().split("\n")
    check("assets/labels/imagenet-1k.txt is the mirror config's 1000 names, in order",
          shipped[:-1] == mirror_names and shipped[-1] == "" and len(mirror_names) == 1000)

    with tempfile.TemporaryDirectory(prefix="vitscope_labels_") as tmp:
        folder = hub_folder(tmp)
        r, rows = ranked(BIN, folder, top=5)
        check("hub config: classify chelsea.png -> Egyptian cat", r.returncode == 0 and rows and rows[0][2] == "Egyptian cat",
              r.stdout + r.stderr)

        # Names by index: the hub config beside a head whose logits fall with the class index
        # (zero weights, bias -i / 100) ranks the classes 0, 1, ..., 999.
        tensors, _ = safetensors_np.load(str(Path(MODEL) / "model.safetensors"))
        ordered = Path(tmp) / "ordered"
        ordered.mkdir()
        tensors["head.weight"] = np.zeros_like(tensors["head.weight"])
        tensors["head.bias"] = -np.arange(1000, dtype=np.float32) / 100
        safetensors_np.save(str(ordered / "model.safetensors"), tensors)
        (ordered / "config.json").write_text(HUB_TIMM_CONFIG.read_text())
        r, rows = ranked(BIN, ordered)
        names = [row[2] for row in rows]
        check("hub config: the name of every class index 0..999 is the mirror config's",
              r.returncode == 0 and names == mirror_names,
              next((f"class {i}: {a!r} vs {b!r}" for i, (a, b) in enumerate(zip(names, mirror_names)) if a != b), r.stderr))

        info = run(BIN, "info", "--model", str(folder)).stdout
        check("info says the names are the shipped ImageNet-1k list",
              "class names: ImageNet-1k names shipped with vitscope" in info and "imagenet-1k.txt" in info, info)

        # An installed vitscope reads share/vitscope/labels: mark the installed copy to see it used.
        prefix = Path(tmp) / "prefix"
        inst = subprocess.run(["cmake", "--install", str(Path(BIN).parent), "--prefix", str(prefix)],
                              capture_output=True, text=True)
        installed = prefix / "share" / "vitscope" / "labels" / "imagenet-1k.txt"
        if check("cmake --install puts the names in share/vitscope/labels", inst.returncode == 0 and installed.is_file(),
                 inst.stdout[-400:] + inst.stderr[-400:]):
            names = installed.read_text().split("\n")
            names[285] = "Egyptian cat (installed copy)"
            installed.write_text("\n".join(names))
            r, rows = ranked(str(prefix / "bin" / "vitscope"), folder, top=1)
            check("the installed binary reads the installed names", rows and rows[0][2] == "Egyptian cat (installed copy)",
                  r.stdout + r.stderr)

        # ImageNet-21k: the same with a 21843-class head.
        in21k = Path(tmp) / "in21k"
        in21k.mkdir()
        tensors["head.weight"] = np.zeros((21843, tensors["head.weight"].shape[1]), np.float32)
        tensors["head.bias"] = -np.arange(21843, dtype=np.float32) / 100
        safetensors_np.save(str(in21k / "model.safetensors"), tensors)
        config = dict(hub_config, num_classes=21843)
        config["pretrained_cfg"] = dict(hub_config["pretrained_cfg"], num_classes=21843)
        (in21k / "config.json").write_text(json.dumps(config))
        info = run(BIN, "info", "--model", str(in21k)).stdout
        check("ImageNet-21k: info notes that no names are shipped",
              "classes: 21843" in info and "no names for ImageNet-21k's 21843 classes" in info, info)
        r, rows = ranked(BIN, in21k, top=3)
        check("ImageNet-21k: classify prints class N", r.returncode == 0 and rows and
              all(row[2] == f"class {i}" for i, row in enumerate(rows)), r.stdout + r.stderr)

    hf = Path(MIRROR) / "vit_tiny_patch16_224.augreg_in21k_ft_in1k-hf"
    r, rows = ranked(BIN, hf, top=1)
    info = run(BIN, "info", "--model", str(hf)).stdout
    check("HF config keeps its id2label", rows and rows[0][2] == "Egyptian cat" and "class names: id2label in config.json" in info,
          r.stdout + r.stderr + info)
    headless = Path(MIRROR) / "vit_tiny_patch16_224.augreg_in21k_ft_in1k-hf-vitmodel"
    r = run(BIN, "classify", CHELSEA, "--model", str(headless))
    info = run(BIN, "info", "--model", str(headless)).stdout
    check("a model without a classifier head: classify says so (exit 2), info too",
          r.returncode == 2 and "no classifier head" in r.stderr and "classes: 0 (no classifier head)" in info,
          r.stderr + info)
    deit = Path(MIRROR) / "deit_tiny_patch16_224.pipevit_lnq"
    r, rows = ranked(BIN, deit, top=1)
    check("the DeiT-Tiny folder loads and runs (chelsea -> Egyptian cat, as its README's reference)",
          r.returncode == 0 and rows and rows[0][2] == "Egyptian cat", r.stdout + r.stderr)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
