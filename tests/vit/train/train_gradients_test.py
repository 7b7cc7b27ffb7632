"""vitscope train --check-gradients against PyTorch autograd in float64: the
tiny ViT is rebuilt in torch from DIR/init (config.json, model.safetensors),
run on DIR/inputs.npy, and the gradient of the mean cross-entropy for every
tensor is compared with DIR/grad.<name>.npy (vitscope's, float32). With and
without position embeddings, on both tasks."""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, Tally

torch.set_default_dtype(torch.float64)


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        assert t["dtype"] == "F32", t["dtype"]
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(data[a:b], dtype="<f4").reshape(t["shape"]).astype(np.float64)
    return out


def torch_loss(cfg, p, x, y):
    """The model as timm's VisionTransformer computes it, written out in torch."""
    args = cfg["model_args"]
    dim, heads, depth, patch = args["embed_dim"], args["num_heads"], args["depth"], args["patch_size"]
    eps = 1e-6
    b = x.shape[0]
    t = torch.nn.functional.conv2d(x, p["patch_embed.proj.weight"], p["patch_embed.proj.bias"], stride=patch)
    t = t.flatten(2).transpose(1, 2)
    t = torch.cat([p["cls_token"].expand(b, -1, -1), t], dim=1) + p["pos_embed"]
    n = t.shape[1]
    dh = dim // heads
    for i in range(depth):
        q = lambda s: p[f"blocks.{i}.{s}"]
        h = torch.nn.functional.layer_norm(t, (dim,), q("norm1.weight"), q("norm1.bias"), eps)
        qkv = (h @ q("attn.qkv.weight").T + q("attn.qkv.bias")).reshape(b, n, 3, heads, dh).permute(2, 0, 3, 1, 4)
        a = torch.softmax(qkv[0] @ qkv[1].transpose(-1, -2) * dh ** -0.5, dim=-1)
        o = (a @ qkv[2]).transpose(1, 2).reshape(b, n, dim)
        t = t + o @ q("attn.proj.weight").T + q("attn.proj.bias")
        h = torch.nn.functional.layer_norm(t, (dim,), q("norm2.weight"), q("norm2.bias"), eps)
        h = torch.nn.functional.gelu(h @ q("mlp.fc1.weight").T + q("mlp.fc1.bias"))
        t = t + h @ q("mlp.fc2.weight").T + q("mlp.fc2.bias")
    z = torch.nn.functional.layer_norm(t[:, 0], (dim,), p["norm.weight"], p["norm.bias"], eps)
    logits = z @ p["head.weight"].T + p["head.bias"]
    return torch.nn.functional.cross_entropy(logits, y)


def check_run(tally, tmp, task, seed, extra):
    out = os.path.join(tmp, f"{task}_{seed}{''.join(extra)}")
    r = subprocess.run([BIN, "train", "--task", task, "--seed", str(seed), "--check-gradients", out] + extra,
                       capture_output=True, text=True)
    if not tally.check(f"{task} seed {seed} {extra}: --check-gradients exits 0", r.returncode == 0, r.stderr):
        return
    with open(os.path.join(out, "init", "config.json")) as f:
        cfg = json.load(f)
    weights = read_safetensors(os.path.join(out, "init", "model.safetensors"))
    params = {k: torch.tensor(v, requires_grad=True) for k, v in weights.items()}
    x = torch.tensor(np.load(os.path.join(out, "inputs.npy")).astype(np.float64))
    y = torch.tensor(np.load(os.path.join(out, "labels.npy")))
    tally.check(f"{task}: the batch is 64 images of 3 x 64 x 64 with labels 0/1",
                x.shape == (64, 3, 64, 64) and y.shape == (64,) and set(y.tolist()) <= {0, 1}, (x.shape, y.shape))
    loss = torch_loss(cfg, params, x, y)
    loss.backward()
    ours = float(open(os.path.join(out, "loss.txt")).read())
    tally.check(f"{task}: loss {ours:.6f} equals torch's {loss.item():.6f}", abs(ours - loss.item()) < 1e-5)
    grad_files = sorted(f for f in os.listdir(out) if f.startswith("grad."))
    tally.check(f"{task}: a gradient file for every one of the {len(params)} tensors",
                sorted(f"grad.{k}.npy" for k in params) == grad_files, set(grad_files) ^ {f"grad.{k}.npy" for k in params})
    worst = (0.0, "")
    for name, prm in params.items():
        path = os.path.join(out, f"grad.{name}.npy")
        if not os.path.exists(path):
            continue
        g = np.load(path).astype(np.float64)
        ref = prm.grad.numpy()
        # Relative to the tensor's largest gradient: float32 against float64.
        scale = max(np.abs(ref).max(), 1e-12)
        err = np.abs(g - ref).max() / scale
        if g.shape != ref.shape or not err < 1e-4:
            tally.check(f"{task}: gradient of {name}", False, f"shape {g.shape} vs {ref.shape}, relative error {err:.2e}")
        worst = max(worst, (err, name))
    tally.check(f"{task} {extra}: every gradient within 1e-4 of torch's (worst {worst[0]:.1e}, {worst[1]})",
                worst[0] < 1e-4)


def main():
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        check_run(tally, tmp, "same_colour", 3, [])
        check_run(tally, tmp, "left_of", 5, ["--no-position"])
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
