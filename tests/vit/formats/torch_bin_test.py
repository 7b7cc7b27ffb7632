"""pytorch_model.bin through the real binary and the real default model.

torch.save (Debian's python3-torch) writes the default model's weights, read
from its model.safetensors with tests/reference/safetensors_np.py, into model
folders beside the same config.json: in F32, F16 and BF16, with non-contiguous
and shared storages, as Parameters inside a training checkpoint with pickle
protocol 4, and in the Hugging Face layout. vitscope's `attention` and
`classify` on each must equal those of the safetensors model holding the same
values, to the last digit. Then the bad files: a .bin whose pickle calls
posix.system (os.system) or __builtin__.eval (eval), truncated, missing a storage, a
storage shorter than its tensor, the legacy pre-1.6 format: each refused with
exit code 2 and one line naming the cause, and nothing executed.

The exact comparisons run with VITSCOPE_ISA=v3: the AVX-512 kernels' sums
depend on where the heap puts each buffer (Eigen peels to 64-byte alignment,
the buffers are 32-byte aligned), so under them two loads of the same weights
through different readers agree to about 1e-6, not bit for bit. That is
checked too, with the default kernels.
"""
import collections
import csv
import io
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import zipfile

import torch

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
import safetensors_np  # noqa: E402
from script_support import BIN, DOG, MIRROR, MODEL, SRC, Tally  # noqa: E402

tally = Tally()
check = tally.check
COFFEE = os.path.join(SRC, "assets", "coffee.png")


def run(*args, isa="v3"):
    env = dict(os.environ)
    env.pop("VITSCOPE_ISA", None)
    if isa:
        env["VITSCOPE_ISA"] = isa
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=300)


def outputs(model, isa="v3"):
    """attention (two queries, two layers) and classify of the model on two photos."""
    runs = [run("attention", DOG, "--model", model, "--layer", "5", "--head", "1", "--patch", "5,7", isa=isa),
            run("attention", COFFEE, "--model", model, "--layer", "11", "--head", "2", "--query", "cls", isa=isa),
            run("classify", DOG, "--model", model, "--top", "5", isa=isa)]
    return [(r.returncode, r.stdout, r.stderr) for r in runs]


def same_outputs(name, model, reference):
    got = outputs(model)
    ok = all(g[0] == 0 for g in got) and got == reference
    check(name, ok, next((g[2] or "output differs" for g, r in zip(got, reference) if g != r), ""))


def folder(tmp, name, source=MODEL):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for f in ("config.json", "preprocessor_config.json"):
        if os.path.exists(os.path.join(source, f)):
            shutil.copy(os.path.join(source, f), d)
    return d


def state_dict(values, dtype=torch.float32):
    sd = collections.OrderedDict((k, torch.from_numpy(v.copy()).to(dtype)) for k, v in values.items())
    sd._metadata = collections.OrderedDict({"": {"version": 1}})  # as module.state_dict() returns it
    return sd


def expect_refusal(name, model, must_mention, photo=DOG):
    r = run("classify", photo, "--model", model)
    err = r.stderr.strip()
    ok = (r.returncode == 2 and r.stdout == "" and len(err.splitlines()) == 1
          and err.startswith("vitscope: error: ") and all(m in err for m in must_mention))
    check(name, ok, f"exit {r.returncode}, stderr {err!r}")


def test_same_numbers(tmp, values):
    reference = outputs(MODEL)
    check("the safetensors model runs", all(r[0] == 0 for r in reference), reference[0][2])

    d = folder(tmp, "f32")
    torch.save(state_dict(values), os.path.join(d, "pytorch_model.bin"))
    same_outputs("F32 .bin: attention and classify equal the safetensors model's exactly", d, reference)
    info = run("info", "--model", d)
    check("info names the file and its format", info.returncode == 0 and
          f"weights: {os.path.join(d, 'pytorch_model.bin')} (PyTorch zip checkpoint (torch.save" in info.stdout, info.stdout)

    # The default kernels: the same to about 1e-6 (see the docstring).
    got, ref = outputs(d, isa=None), outputs(MODEL, isa=None)
    worst = 0.0
    for g, r in zip(got[:2], ref[:2]):
        for a, b in zip(csv.DictReader(io.StringIO(g[1])), csv.DictReader(io.StringIO(r[1]))):
            worst = max(worst, abs(float(a["weight"]) - float(b["weight"])))
    check("F32 .bin with the default kernels: attention weights within 1e-5 of the safetensors model's",
          all(g[0] == 0 for g in got) and worst <= 1e-5, f"max difference {worst}")

    for dtype, tag in ((torch.float16, "F16"), (torch.bfloat16, "BF16")):
        st = folder(tmp, "st_" + tag)
        safetensors_np.save(os.path.join(st, "model.safetensors"), values, {k: tag for k in values})
        d = folder(tmp, tag)
        torch.save(state_dict(values, dtype), os.path.join(d, "pytorch_model.bin"))
        same_outputs(f"{tag} .bin equals the same weights in {tag} safetensors exactly", d, outputs(st))

    # Views: 2-d weights transposed twice (strides (1, rows)); every bias a
    # slice of one shared storage (offsets); the position embedding a view
    # into a larger tensor; cls_token and norm.weight sharing one storage.
    sd = state_dict(values)
    biases = [k for k in sd if k.endswith(".bias")]
    shared = torch.cat([sd[k].reshape(-1) for k in biases])
    at = 0
    views = collections.OrderedDict()
    for k, t in sd.items():
        if k in biases:
            views[k] = shared[at:at + t.numel()].view(t.shape)
            at += t.numel()
        elif t.dim() == 2:
            views[k] = t.t().contiguous().t()
        else:
            views[k] = t
    big = torch.cat([torch.zeros(1, 3, sd["pos_embed"].shape[2]), sd["pos_embed"]], dim=1)
    views["pos_embed"] = big[:, 3:]
    pair = torch.cat([sd["cls_token"].reshape(-1), sd["norm.weight"]])
    views["cls_token"] = pair[:sd["cls_token"].numel()].view(sd["cls_token"].shape)
    views["norm.weight"] = pair[sd["cls_token"].numel():]
    check("the views are non-contiguous and share storages",
          not views["blocks.0.attn.qkv.weight"].is_contiguous() and views["pos_embed"].storage_offset() == 3 * 192
          and views["cls_token"].storage().data_ptr() == views["norm.weight"].storage().data_ptr())
    d = folder(tmp, "views")
    torch.save(views, os.path.join(d, "pytorch_model.bin"))
    saved = zipfile.ZipFile(os.path.join(d, "pytorch_model.bin")).namelist()
    check("torch.save wrote the shared storages once", sum("/data/" in n for n in saved) < len(views), len(saved))
    same_outputs("non-contiguous, offset and shared-storage tensors equal the safetensors model exactly", d, reference)

    # nn.Parameter values (torch._utils._rebuild_parameter) in {"state_dict": ..., "epoch": 7}, protocol 4.
    d = folder(tmp, "wrapped")
    params = collections.OrderedDict((k, torch.nn.Parameter(t)) for k, t in state_dict(values).items())
    torch.save({"state_dict": params, "epoch": 7}, os.path.join(d, "pytorch_model.bin"), pickle_protocol=4)
    same_outputs("Parameters in a training checkpoint, pickle protocol 4: equal exactly", d, reference)

    # The Hugging Face layout (ViTForImageClassification names, its own config).
    hf = os.path.join(MIRROR, "vit_tiny_patch16_224.augreg_in21k_ft_in1k-hf")
    if check("the Hugging Face copy of the default model is there", os.path.isdir(hf), hf):
        hf_values, _ = safetensors_np.load(os.path.join(hf, "model.safetensors"))
        d = folder(tmp, "hf", hf)
        torch.save(state_dict(hf_values), os.path.join(d, "pytorch_model.bin"))
        same_outputs("Hugging Face layout from a .bin equals its safetensors exactly", d, outputs(hf))
        info = run("info", "--model", d)
        check("info of the HF .bin: naming scheme hf-vit", "naming scheme: hf-vit" in info.stdout, info.stdout)

    # Both files: model.safetensors is read, a broken pytorch_model.bin beside it is not opened.
    d = folder(tmp, "both")
    os.symlink(os.path.abspath(os.path.join(MODEL, "model.safetensors")), os.path.join(d, "model.safetensors"))
    with open(os.path.join(d, "pytorch_model.bin"), "wb") as f:
        f.write(b"not a zip")
    info = run("info", "--model", d)
    check("with both files, safetensors is preferred", info.returncode == 0 and "(safetensors)" in info.stdout,
          info.stdout + info.stderr)
    return os.path.join(tmp, "f32", "pytorch_model.bin")


class Call:
    """Pickles as a call of fn(*args): what a malicious checkpoint holds."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


class FakeStorage:
    """A storage reference as torch.save writes it, with any declared size."""

    def __init__(self, key, numel):
        self.key, self.numel = key, numel


def crafted_bin(path, numel, size, data):
    """A torch.save-format archive whose one tensor 'w' of 1-d `size` views a
    FloatStorage declared as `numel` elements holding `data` bytes."""
    class Tensor:
        def __reduce__(self):
            return torch._utils._rebuild_tensor_v2, (FakeStorage("0", numel), 0, size, (1,), False, collections.OrderedDict())
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=2)
    pickler.persistent_id = lambda obj: (("storage", torch.FloatStorage, obj.key, "cpu", obj.numel)
                                         if isinstance(obj, FakeStorage) else None)
    pickler.dump(collections.OrderedDict(w=Tensor()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", buf.getvalue())
        z.writestr("archive/data/0", data)
        z.writestr("archive/version", "3\n")


def test_refusals(tmp, values, good_bin):
    marker = os.path.join(tmp, "MARKER")
    # The globals as the file names them: os.system's __module__ is posix, and
    # protocol 2 writes builtins under its Python 2 name, __builtin__.
    for fn, arg, name in ((os.system, f"touch {marker}", "posix.system"),
                          (eval, f"open({marker!r}, 'w')", "__builtin__.eval")):
        d = folder(tmp, "evil_" + name)
        sd = state_dict({"cls_token": values["cls_token"]})
        sd["payload"] = Call(fn, arg)
        torch.save(sd, os.path.join(d, "pytorch_model.bin"))
        pkl = zipfile.ZipFile(os.path.join(d, "pytorch_model.bin")).read("pytorch_model/data.pkl")
        module, _, attr = name.partition(".")
        check(f"the crafted file really calls {name}", f"{module}\n{attr}\n".encode() in pkl)
        expect_refusal(f".bin calling {name} -> refused naming it", d, [f"refused the global {name}", "pytorch_model.bin"])
        check(f"... and nothing ran ({name})", not os.path.exists(marker))

    whole = open(good_bin, "rb").read()
    for cut, label in ((len(whole) // 2, "half"), (len(whole) - 10, "all but 10 bytes"), (100, "100 bytes")):
        d = folder(tmp, "cut_" + str(cut))
        with open(os.path.join(d, "pytorch_model.bin"), "wb") as f:
            f.write(whole[:cut])
        expect_refusal(f"truncated .bin ({label}) -> refused", d, ["pytorch_model.bin", "zip"])

    d = folder(tmp, "missing")
    with zipfile.ZipFile(good_bin) as src, zipfile.ZipFile(os.path.join(d, "pytorch_model.bin"), "w") as dst:
        for item in src.infolist():
            if not item.filename.endswith("/data/3"):
                dst.writestr(item, src.read(item.filename))
    expect_refusal(".bin missing a storage entry -> refused naming it", d, ["uses storage '3'", "no entry pytorch_model/data/3"])

    d = folder(tmp, "short")
    crafted_bin(os.path.join(d, "pytorch_model.bin"), 4, (5,), bytes(16))
    expect_refusal("storage shorter than its tensor -> refused", d, ["tensor 'w'", "reads past the end of storage '0'"])
    d = folder(tmp, "short_entry")
    crafted_bin(os.path.join(d, "pytorch_model.bin"), 5, (5,), bytes(16))
    expect_refusal("storage entry shorter than declared -> refused", d, ["storage '0'", "holds 16 bytes"])

    d = folder(tmp, "legacy")
    torch.save(state_dict({"cls_token": values["cls_token"]}), os.path.join(d, "pytorch_model.bin"),
               _use_new_zipfile_serialization=False)
    expect_refusal("legacy (pre-1.6) torch.save format -> refused, saying so", d, ["legacy torch.save file"])


def main():
    if not os.path.isfile(os.path.join(MODEL, "model.safetensors")):
        sys.exit(f"FAIL: the default model is not at {MODEL} (set VITSCOPE_MODEL or VITSCOPE_MODEL_MIRROR)")
    values, _ = safetensors_np.load(os.path.join(MODEL, "model.safetensors"))
    with tempfile.TemporaryDirectory(prefix="vitscope-torch-bin-") as tmp:
        good = test_same_numbers(tmp, values)
        test_refusals(tmp, values, good)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
