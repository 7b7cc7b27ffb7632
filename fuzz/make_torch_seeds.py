"""Seeds for fuzz_torch_bin, written by torch.save itself (Debian's python3-torch).

    make_torch_seeds.py tiny OUT            tiny state dicts (2 x 2 tensors, not
                                            weights): the committed fuzz/corpus/torch_bin/
    make_torch_seeds.py models SRC OUT      every SRC/*.safetensors (fuzz_make_seeds'
                                            synthetic models) as pytorch_model.bin

Each .bin also gives its data.pkl as a .pkl seed: fuzz_torch_bin interprets an
input that starts with a pickle's PROTO opcode as a bare data.pkl, since
mutations inside a zip rarely keep its directory intact. scripts/fuzz.sh runs
"models" at each run: weight files are never committed.
"""
import collections
import os
import sys
import zipfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
import safetensors_np  # noqa: E402


def save(obj, path, **kwargs):
    torch.save(obj, path, **kwargs)
    with zipfile.ZipFile(path) as z:
        pkl = [n for n in z.namelist() if n.endswith("/data.pkl")][0]
        data = z.read(pkl)
    with open(os.path.splitext(path)[0] + ".pkl", "wb") as f:
        f.write(data)


def tiny(out):
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
    sd = collections.OrderedDict(w=w, b=torch.tensor([0.25, -1.0]))
    sd._metadata = collections.OrderedDict({"": {"version": 1}})  # as module.state_dict() has
    save(sd, os.path.join(out, "f32_with_metadata.bin"))
    save({"w": w.half().t()}, os.path.join(out, "f16_transposed.bin"))  # strides (1, 2)
    base = torch.arange(6, dtype=torch.bfloat16).reshape(3, 2)
    save({"a": base[0], "b": base[2], "c": base[:, 1]}, os.path.join(out, "bf16_shared_storage.bin"))
    save({"w": w.double(), "steps": torch.tensor([7])}, os.path.join(out, "f64_and_int64.bin"))
    save({"w": torch.nn.Parameter(w)}, os.path.join(out, "parameter.bin"))
    save({"state_dict": {"w": w}, "epoch": 3}, os.path.join(out, "wrapped_state_dict.bin"))
    save({"w": w, "s": torch.tensor(2.0)}, os.path.join(out, "protocol4_scalar.bin"), pickle_protocol=4)


def models(src, out):
    for name in sorted(os.listdir(src)):
        if not name.endswith(".safetensors"):
            continue
        values, _ = safetensors_np.load(os.path.join(src, name))  # exact f32 of every dtype
        header = safetensors_np.read_header(os.path.join(src, name))[1]
        dtypes = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
        sd = collections.OrderedDict()
        for k, a in values.items():
            sd[k] = torch.from_numpy(a.copy()).to(dtypes[header[k]["dtype"]])
        stem = os.path.join(out, name[: -len(".safetensors")])
        save(sd, stem + ".bin")
        # The same weights as views: 2-d tensors transposed twice (non-contiguous
        # strides), and all biases slices of one shared storage.
        views = collections.OrderedDict()
        biases = [k for k in sd if k.endswith(".bias")]
        shared = torch.cat([sd[k].reshape(-1) for k in biases]) if biases else None
        at = 0
        for k, t in sd.items():
            if k in biases:
                views[k] = shared[at:at + t.numel()]
                at += t.numel()
            elif t.dim() == 2:
                views[k] = t.t().contiguous().t()
            else:
                views[k] = t
        save(views, stem + "_views.bin")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "tiny":
        os.makedirs(sys.argv[2], exist_ok=True)
        tiny(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "models":
        os.makedirs(sys.argv[3], exist_ok=True)
        models(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
