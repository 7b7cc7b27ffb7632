"""scripts/fetch_model.sh and the known-models list (assets/models.json):
  - every known name asks the hub for the files ../shared/hub_configs/README.md
    lists for its repository (model.safetensors first where main has it, else
    pytorch_model.bin only; the size shown is the hub's);
  - with a mirror folder (or file:// URL) it copies the model whole, keeps what
    is there, refuses unknown names and missing mirror entries without leaving
    a partial folder;
  - over HTTP (a mirror on 127.0.0.1): a 404 for model.safetensors falls back to
    pytorch_model.bin; a transfer that stops half-way is one error line and
    leaves no folder; a folder of the model's name holding the user's files is
    refused before any download and kept as it was."""
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from loopback_mirror import LoopbackMirror  # noqa: E402
from script_support import HUB_CONFIGS, MIRROR, MODEL_NAME as NAME, SRC, Tally  # noqa: E402

SCRIPT = os.path.join(SRC, "scripts", "fetch_model.sh")
tally = Tally()
check = tally.check

# The known names the project promises (issue 9, item 6).
PROMISED = {
    "vit_tiny_patch16_224.augreg_in21k_ft_in1k", "vit_small_patch16_224.augreg_in21k_ft_in1k",
    "vit_base_patch16_224.augreg2_in21k_ft_in1k", "facebook/deit-tiny-patch16-224", "facebook/dino-vits16",
    "vit_small_patch14_reg4_dinov2.lvd142m", "facebook/dino-vits8", "facebook/dino-vitb16",
    "facebook/deit-small-distilled-patch16-224", "facebook/dinov2-small", "facebook/dinov2-with-registers-small",
    "google/vit-base-patch16-224",
}
BOTH = ["model.safetensors", "pytorch_model.bin"]


def script(*args, **env):
    e = dict(os.environ)
    e.pop("VITSCOPE_MODEL_MIRROR", None)
    e.update(env)
    return subprocess.run(["bash", SCRIPT, *args], env=e, capture_output=True, text=True, timeout=300)


def hub_rows():
    """repository -> its 'weight files on the hub' cell, from the hub configs README's table."""
    rows = {}
    with open(os.path.join(HUB_CONFIGS, "README.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) == 4 and cells[0] not in rows:
                rows[cells[0]] = cells[3]
    return rows


# --- the list against the hub ---------------------------------------------------------------------

with open(os.path.join(SRC, "assets", "models.json")) as f:
    models = json.load(f)["models"]
check("the known names are the promised twelve", {m["name"] for m in models} == PROMISED,
      {m["name"] for m in models} ^ PROMISED)
r = script("--list")
check("--list prints them", r.returncode == 0 and set(r.stdout.split()) == PROMISED, r.stdout + r.stderr)

rows = hub_rows()
check("the hub README's table parsed", "facebook/dino-vits16" in rows and "google/vit-base-patch16-224" in rows,
      list(rows))
for m in models:
    cell = rows.get(m["repo"], "")
    only = re.search(r"(model\.safetensors|pytorch_model\.bin) [\d.]+ MB only", cell)
    expected = [only.group(1)] if only else BOTH
    sized = re.search(re.escape(expected[0]) + r" ([\d.]+) MB", cell)
    r = script("--urls", m["name"])
    lines = [tuple(line.split(" ", 1)) for line in r.stdout.splitlines()]
    hub = f"https://huggingface.co/{m['repo']}/resolve/main/"
    hf = m["repo"].split("/")[0] in ("facebook", "google")
    wanted = ([("weight", hub + w) for w in expected] + [("file", hub + "config.json")] +
              ([("optional", hub + "preprocessor_config.json")] if hf else []))
    check(f"{m['name']}: asks for {', '.join(expected)} (hub README: {cell[:70] or 'no row'})",
          r.returncode == 0 and lines == wanted, r.stdout + r.stderr)
    check(f"{m['name']}: size {m['size_mb']} is the hub's ({sized.group(1) if sized else 'not listed'})",
          (m["size_mb"] is None and sized is None) or (sized is not None and m["size_mb"] == float(sized.group(1))),
          cell)
    check(f"{m['name']}: folder is the repository's last part", m["folder"] == m["repo"].split("/")[-1])
    if re.search(r"\d MB", cell) and not only:   # where the hub lists files, the fallback is one of them
        check(f"{m['name']}: its fallback is on the hub", "pytorch_model.bin" in cell, cell)
check("dino-vits16 never asks for model.safetensors (its resolve/main 404s)",
      "model.safetensors" not in script("--urls", "facebook/dino-vits16").stdout)

def visible(folder):
    """The folder's entries but the hidden ones (the lock file fetches share stays)."""
    return sorted(n for n in os.listdir(folder) if not n.startswith("."))


def hidden_folders(folder):
    """A fetch's own folders left behind (there must be none)."""
    return [n for n in os.listdir(folder) if n.startswith(".") and os.path.isdir(os.path.join(folder, n))]


# --- a mirror folder ------------------------------------------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    for kind, mirror in (("folder", MIRROR), ("file:// URL", "file://" + MIRROR)):
        dest = os.path.join(tmp, kind.split()[0])
        r = script(NAME, VITSCOPE_MODEL_MIRROR=mirror, VITSCOPE_MODELS_DIR=dest)
        got = os.path.join(dest, NAME)
        check(f"copies the default model from a mirror {kind}", r.returncode == 0 and all(
            filecmp.cmp(os.path.join(MIRROR, NAME, f), os.path.join(got, f), shallow=False)
            for f in ("model.safetensors", "config.json")) and visible(dest) == [NAME], r.stderr)
    env = dict(VITSCOPE_MODEL_MIRROR=MIRROR, VITSCOPE_MODELS_DIR=os.path.join(tmp, "folder"))
    r = script(NAME, **env)
    check("a second run keeps what is there", r.returncode == 0 and "already there" in r.stdout, r.stdout + r.stderr)
    r = script("resnet50", **env)
    check("unknown name: exit 2, one line", r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
          and "unknown model" in r.stderr, r.stderr)
    r = script("facebook/dino-vits16", **env)
    check("name missing from the mirror: exit 2, nothing left", r.returncode == 2
          and visible(env["VITSCOPE_MODELS_DIR"]) == [NAME] and hidden_folders(env["VITSCOPE_MODELS_DIR"]) == [],
          r.stderr + str(os.listdir(tmp)))

# --- an HTTP mirror on the loopback -----------------------------------------------------------------

with tempfile.TemporaryDirectory() as tmp:
    served = os.path.join(tmp, "served")
    shutil.copytree(os.path.join(MIRROR, NAME), os.path.join(served, NAME))
    dest = os.path.join(tmp, "models")
    with LoopbackMirror(served) as mirror:
        r = script(NAME, VITSCOPE_MODEL_MIRROR=mirror.url + "/", VITSCOPE_MODELS_DIR=dest)
        check("downloads the default model over HTTP", r.returncode == 0 and filecmp.cmp(
            os.path.join(served, NAME, "model.safetensors"), os.path.join(dest, NAME, "model.safetensors"),
            shallow=False), r.stderr)
    # The first choice 404s: pytorch_model.bin is fetched instead.
    os.rename(os.path.join(served, NAME, "model.safetensors"), os.path.join(served, NAME, "pytorch_model.bin"))
    other = os.path.join(tmp, "fallback")
    with LoopbackMirror(served) as mirror:
        r = script(NAME, VITSCOPE_MODEL_MIRROR=mirror.url, VITSCOPE_MODELS_DIR=other)
        asked = [p.rsplit("/", 1)[-1] for p in mirror.requests]
    check("a 404 for model.safetensors falls back to pytorch_model.bin",
          r.returncode == 0 and asked[:2] == BOTH and sorted(os.listdir(os.path.join(other, NAME))) ==
          ["config.json", "pytorch_model.bin"], (r.stdout, r.stderr, asked))
    # A transfer that stops half-way: one line, nothing of it left.
    os.rename(os.path.join(served, NAME, "pytorch_model.bin"), os.path.join(served, NAME, "model.safetensors"))
    shutil.rmtree(dest)
    with LoopbackMirror(served, cut={"model.safetensors"}) as mirror:
        r = script(NAME, VITSCOPE_MODEL_MIRROR=mirror.url, VITSCOPE_MODELS_DIR=dest)
    check("a transfer that stops half-way: exit 2, one line naming the file", r.returncode == 2
          and len(r.stderr.strip().splitlines()) == 1 and "model.safetensors" in r.stderr, r.stderr)
    check("... no folder of it left", visible(dest) == [] and hidden_folders(dest) == [], os.listdir(dest))
    # A folder of the model's name holding the user's files (no weights): refused before any
    # download, every file kept (the script used to delete it to install the model).
    user = os.path.join(dest, NAME)
    os.makedirs(user)
    for name, text in (("config.json", "{}"), ("mynotes.txt", "notes"), ("week3.vitscope", "{}")):
        with open(os.path.join(user, name), "w") as f:
            f.write(text)
    with LoopbackMirror(served) as mirror:
        r = script(NAME, VITSCOPE_MODEL_MIRROR=mirror.url, VITSCOPE_MODELS_DIR=dest)
        asked = list(mirror.requests)
    check("a folder of the user's files under the model's name: exit 2, one line naming it, nothing fetched",
          r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and user in r.stderr and asked == [],
          (r.stderr, asked))
    check("... its files kept as they were", sorted(os.listdir(user)) == ["config.json", "mynotes.txt", "week3.vitscope"]
          and open(os.path.join(user, "mynotes.txt")).read() == "notes" and hidden_folders(dest) == [],
          os.listdir(user))

sys.exit(tally.finish())
