"""`vitscope dump` for research (issue 37, item 4), on the real binary and the
default model: meta.json's fields (paths, version, kernels, each array's axes
and units, the class) and no timing (two runs give the same bytes); --arrays
chooses, bit for bit the default dump's numbers; --float16 is float32 rounded
to float16; each block's residual stream and parts against an independent
float64 recomputation from the safetensors weights (LayerNorm, q from ln1,
W_O, the MLP); several photos give one folder per photo."""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, MODEL, SRC, Tally

tally = Tally()
check = tally.check
EAGLE = os.path.join(SRC, "assets", "eagle.jpg")


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=600)


def weights():
    data = open(os.path.join(MODEL, "model.safetensors"), "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(body[a:b], dtype=np.float32).reshape(t["shape"]).astype(np.float64)
    return out


def layer_norm(x, w, b, eps=1e-6):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    return torch.nn.functional.gelu(torch.from_numpy(x)).numpy()  # erf form, float64


def files_of(d):
    return sorted(os.listdir(d))


def rel_err(a, b):
    return float(np.abs(a - b).max() / max(1e-12, np.abs(b).max()))


def main():
    tally.check_model()
    with tempfile.TemporaryDirectory(prefix="vitscope-dump-") as tmp:
        checks(tmp)
    return tally.finish()


def checks(tmp):
    full = os.path.join(tmp, "full")
    r = run("dump", DOG, "-o", full)
    check("dump: default arrays and meta.json", r.returncode == 0 and files_of(full) == sorted(
        ["photo.npy", "input.npy", "attn.npy", "q.npy", "k.npy", "v.npy", "out.npy", "pos_embed.npy", "logits.npy",
         "meta.json"]), (r.stderr, files_of(full) if os.path.isdir(full) else None))
    meta = json.load(open(os.path.join(full, "meta.json")))
    version = run("--version").stdout.splitlines()
    check("meta.json: vitscope_version and kernels as --version says",
          "vitscope " + meta.get("vitscope_version", "?") == version[0] and "kernels: " + meta.get("kernels", "?") ==
          version[1], (meta.get("vitscope_version"), meta.get("kernels"), version))
    check("meta.json: model and photo as absolute paths", meta.get("model") == os.path.abspath(MODEL) and
          meta.get("photo") == os.path.abspath(DOG), (meta.get("model"), meta.get("photo")))
    check("meta.json: no timing field", not any("second" in k or "time" in k for k in meta), list(meta))
    check("meta.json: no class without --class", "class" not in meta)
    arrays = meta.get("arrays", {})
    check("meta.json: every file's axes, dtype and units", sorted(arrays) == sorted(
        f for f in files_of(full) if f.endswith(".npy")) and all(
        len(a["axes"]) == np.load(os.path.join(full, f)).ndim and a["units"] and
        a["dtype"] == str(np.load(os.path.join(full, f)).dtype) for f, a in arrays.items()), arrays)
    check("meta.json: attn's axes", arrays.get("attn.npy", {}).get("axes") == ["layer", "head", "query", "key"])
    again = os.path.join(tmp, "again")
    run("dump", DOG, "-o", again)
    check("two runs: the same bytes in every file", all(
        open(os.path.join(full, f), "rb").read() == open(os.path.join(again, f), "rb").read() for f in files_of(full)))

    # --arrays: only those, bit for bit the default dump's.
    chosen = os.path.join(tmp, "chosen")
    names = "attn,q,residual_in,residual_out,ln1,attn_proj,residual_mid,ln2,mlp"
    r = run("dump", DOG, "-o", chosen, "--arrays", names)
    check("--arrays: exactly those files and meta.json", r.returncode == 0 and files_of(chosen) == sorted(
        [n + ".npy" for n in names.split(",")] + ["meta.json"]), (r.stderr, files_of(chosen) if os.path.isdir(chosen) else None))
    for n in ("attn", "q"):
        check(f"--arrays {n}: bit for bit the default dump's",
              np.array_equal(np.load(os.path.join(chosen, n + ".npy")), np.load(os.path.join(full, n + ".npy"))))
    a = {n: np.load(os.path.join(chosen, n + ".npy")).astype(np.float64) for n in names.split(",")}
    out = np.load(os.path.join(full, "out.npy")).astype(np.float64)
    L, N, D = a["residual_in"].shape
    check("residual arrays: layers x tokens x width", (L, N, D) == (12, 197, 192), a["residual_in"].shape)
    check("residual_out[l] == residual_in[l+1], bit for bit",
          np.array_equal(a["residual_out"][:-1], a["residual_in"][1:]))
    W = weights()
    H = 3
    for l in (0, 5, L - 1):
        p = f"blocks.{l}."
        x = a["residual_in"][l]
        ln1 = layer_norm(x, W[p + "norm1.weight"], W[p + "norm1.bias"])
        check(f"layer {l}: ln1 = LayerNorm1(residual_in) in float64", rel_err(a["ln1"][l], ln1) < 1e-5,
              rel_err(a["ln1"][l], ln1))
        qkv = ln1 @ W[p + "attn.qkv.weight"].T + W[p + "attn.qkv.bias"]
        q = qkv[:, :D].reshape(N, H, D // H).transpose(1, 0, 2)
        check(f"layer {l}: q.npy = ln1 W_q + b (the dump's own q)", rel_err(a["q"][l], q) < 1e-5, rel_err(a["q"][l], q))
        context = out[l].transpose(1, 0, 2).reshape(N, D)
        proj = context @ W[p + "attn.proj.weight"].T + W[p + "attn.proj.bias"]
        check(f"layer {l}: attn_proj = W_O [out heads] + b", rel_err(a["attn_proj"][l], proj) < 1e-5,
              rel_err(a["attn_proj"][l], proj))
        mid = x + proj
        check(f"layer {l}: residual_mid = residual_in + attn_proj", rel_err(a["residual_mid"][l], mid) < 1e-5)
        ln2 = layer_norm(a["residual_mid"][l], W[p + "norm2.weight"], W[p + "norm2.bias"])
        check(f"layer {l}: ln2 = LayerNorm2(residual_mid)", rel_err(a["ln2"][l], ln2) < 1e-5, rel_err(a["ln2"][l], ln2))
        mlp = gelu(a["ln2"][l] @ W[p + "mlp.fc1.weight"].T + W[p + "mlp.fc1.bias"]) @ W[p + "mlp.fc2.weight"].T + \
            W[p + "mlp.fc2.bias"]
        check(f"layer {l}: mlp = fc2(GELU(fc1(ln2)))", rel_err(a["mlp"][l], mlp) < 1e-5, rel_err(a["mlp"][l], mlp))
        check(f"layer {l}: residual_out = residual_mid + mlp",
              rel_err(a["residual_out"][l], a["residual_mid"][l] + a["mlp"][l]) < 1e-6)
    final = layer_norm(a["residual_out"][-1], W["norm.weight"], W["norm.bias"])
    logits = final[0] @ W["head.weight"].T + W["head.bias"]
    check("the last residual_out through the final norm and head gives the dump's logits",
          rel_err(np.load(os.path.join(full, "logits.npy")), logits) < 1e-5)

    # --float16: float32 rounded to float16; the photo stays bytes.
    half = os.path.join(tmp, "half")
    r = run("dump", DOG, "-o", half, "--arrays", "photo,attn,residual_in", "--float16")
    h = {n: np.load(os.path.join(half, n + ".npy")) for n in ("photo", "attn", "residual_in")}
    check("--float16: float16 arrays, equal to float32's rounding", r.returncode == 0 and h["attn"].dtype == np.float16
          and np.array_equal(h["attn"], np.load(os.path.join(full, "attn.npy")).astype(np.float16)) and
          np.array_equal(h["residual_in"], a["residual_in"].astype(np.float32).astype(np.float16)), r.stderr)
    check("--float16: the photo still uint8, bit for bit", h["photo"].dtype == np.uint8 and
          np.array_equal(h["photo"], np.load(os.path.join(full, "photo.npy"))))
    check("--float16: meta says so", json.load(open(os.path.join(half, "meta.json")))["arrays"]["attn.npy"]["dtype"]
          == "float16")

    # --class: the class in meta.json, the gradients chosen; grad x activation formed.
    cls = os.path.join(tmp, "cls")
    r = run("dump", DOG, "-o", cls, "--class", "malamute", "--arrays", "grad_x_in,residual_in")
    m = json.load(open(os.path.join(cls, "meta.json"))) if r.returncode == 0 else {}
    check("--class: class and class_label in meta.json", m.get("class") == 249 and m.get("class_label") == "malamute",
          (r.stderr, m.get("class"), m.get("class_label")))
    if r.returncode == 0:
        g, x = np.load(os.path.join(cls, "grad_x_in.npy")), np.load(os.path.join(cls, "residual_in.npy"))
        check("grad_x_in and residual_in have one shape (grad x activation)", g.shape == x.shape and np.isfinite(g * x).all())
    for args, named in [(["--arrays", "attn,bogus"], "bogus"), (["--arrays", "grad_attn"], "needs --class"),
                        (["--arrays", "attn,attn"], "twice")]:
        d = os.path.join(tmp, "refused")
        r = run("dump", DOG, "-o", d, *args)
        check(f"dump {' '.join(args)}: refused naming {named!r}, nothing written", r.returncode == 2 and
              named in r.stderr and not os.path.exists(d), r.stderr)

    # Several photos: one folder per photo, each as dumped alone.
    many = os.path.join(tmp, "many")
    r = run("dump", DOG, EAGLE, "-o", many, "--arrays", "attn")
    check("two photos: many/dog and many/eagle", r.returncode == 0 and files_of(many) == ["dog", "eagle"], r.stderr)
    if r.returncode == 0:
        check("many/dog/attn.npy = the single dump's", np.array_equal(np.load(os.path.join(many, "dog", "attn.npy")),
                                                                     np.load(os.path.join(full, "attn.npy"))))
        check("many/eagle/meta.json names the eagle", json.load(open(os.path.join(many, "eagle", "meta.json")))["photo"]
              == os.path.abspath(EAGLE))


if __name__ == "__main__":
    sys.exit(main())
