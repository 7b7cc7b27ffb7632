"""An independent NumPy (float64) Vision Transformer forward pass, written from
the equations of Dosovitskiy et al. (2021) and timm's VisionTransformer, not
from vitscope's C++. The reference test compares vitscope's numbers with it.

Only timm's naming scheme is read (patch_embed.proj, cls_token, pos_embed,
blocks.N.{norm1, attn.qkv, attn.proj, ls1, norm2, mlp.fc1, mlp.fc2, ls2}, norm,
head; optional dist_token/head_dist for DeiT and reg_token for register models).

    x_0 = [cls; (dist;) patches W_p^T + b_p] + pos      (registers after CLS, no pos)
    per block:
      x = x + ls1 * proj(MHSA(LN1(x)))
      x = x + ls2 * fc2(GELU_erf(fc1(LN2(x))))
    final LN; logits = head(LN(x)[CLS])

    MHSA: q, k, v from the fused qkv (rows q|k|v, heads contiguous in each),
          A_h = softmax(q_h k_h^T / sqrt(d_k)), o_h = A_h v_h, heads concatenated.

Also here, for the tests: the position embedding grid resampled as timm's
resample_abs_pos_embed does (F.interpolate(mode='bicubic', antialias=True),
in pos_embed_np.py) and timm's eval preprocessing through PIL.
"""
import json
import math
import os

import numpy as np

try:  # run as a script from anywhere, or imported as a module
    from . import pos_embed_np, safetensors_np  # type: ignore
except ImportError:  # pragma: no cover
    import pos_embed_np  # type: ignore
    import safetensors_np  # type: ignore

_erf = np.frompyfunc(math.erf, 1, 1)


# ----------------------------------------------------------------------------
# Model loading (timm names)


class TimmViT:
    """The weights of a timm ViT as float64 arrays plus what config.json says."""

    def __init__(self, tensors, config):
        self.config = config
        self.t = {k: np.asarray(v, dtype=np.float64) for k, v in tensors.items()}
        t = self.t
        w = t["patch_embed.proj.weight"]  # [dim, 3, p, p]
        self.dim, _, self.patch, _ = w.shape
        self.depth = 0
        while f"blocks.{self.depth}.attn.qkv.weight" in t:
            self.depth += 1
        margs = config.get("model_args", {}) or {}
        heads = margs.get("num_heads") or config.get("num_heads")
        if not heads:
            raise ValueError("config.json does not say num_heads")
        self.heads = int(heads)
        self.head_dim = self.dim // self.heads
        self.eps = float(config.get("layer_norm_eps", 1e-6))
        self.has_dist = "dist_token" in t
        self.num_registers = t["reg_token"].shape[1] if "reg_token" in t else 0
        self.embed_prefix = 1 + (1 if self.has_dist else 0)  # tokens with a position embedding row
        self.prefix = self.embed_prefix + self.num_registers
        pos_len = t["pos_embed"].shape[1]
        # timm's no_embed_class models keep position embeddings for the patches only
        self.pos_has_prefix = round(math.sqrt(pos_len)) ** 2 != pos_len
        n_patch_pos = pos_len - (self.embed_prefix if self.pos_has_prefix else 0)
        self.pos_grid = int(round(math.sqrt(n_patch_pos)))
        assert self.pos_grid ** 2 == n_patch_pos, "pos_embed is not a square grid"
        self.labels = config.get("label_names") or []
        self.pretrained_cfg = config.get("pretrained_cfg", {}) or {}


def load_timm(model_dir):
    tensors, _ = safetensors_np.load(os.path.join(model_dir, "model.safetensors"))
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    return TimmViT(tensors, config)


# ----------------------------------------------------------------------------
# Position embeddings at another grid: timm's resample_abs_pos_embed, torch's
# antialiased bicubic (pos_embed_np.py)


def resample_pos_embed(pos, prefix, old_grid, new_grid):
    """pos: [prefix + old_grid^2, D] -> [prefix + new_grid^2, D]; prefix rows kept."""
    return pos_embed_np.resize_pos_embed(pos, prefix, old_grid, new_grid, antialias=True)


# ----------------------------------------------------------------------------
# The forward pass


def layer_norm(x, w, b, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)  # biased, as torch
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu_erf(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float64))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def linear(x, t, name):
    y = x @ t[name + ".weight"].T
    b = t.get(name + ".bias")
    return y if b is None else y + b


def embed(model, image, position_embeddings=True):
    """image: (3, S, S) normalised input -> (N, dim) tokens entering block 0.
    position_embeddings=False (a what-if): the patches get none; CLS (and the
    distillation token) keep their own row, as in vitscope's what-if."""
    t, p, d = model.t, model.patch, model.dim
    image = np.asarray(image, dtype=np.float64)
    c, h, w = image.shape
    if h != w or h % p:
        raise ValueError(f"input {h}x{w} is not a square multiple of the patch {p}")
    g = h // p
    # patches in raster order, each flattened as [c][y][x] like the conv weight
    patches = image.reshape(c, g, p, g, p).transpose(1, 3, 0, 2, 4).reshape(g * g, c * p * p)
    x = patches @ t["patch_embed.proj.weight"].reshape(d, -1).T + t["patch_embed.proj.bias"]
    pos = t["pos_embed"][0]
    pre = model.embed_prefix if model.pos_has_prefix else 0
    if g != model.pos_grid:
        pos = resample_pos_embed(pos, pre, model.pos_grid, g)
    prefix = [t["cls_token"][0]] + ([t["dist_token"][0]] if model.has_dist else [])
    if not position_embeddings:
        pos = np.concatenate([pos[:pre], np.zeros((g * g, d))], axis=0)
    if model.pos_has_prefix:
        x = np.concatenate(prefix + [x], axis=0) + pos
    else:
        x = np.concatenate(prefix + [x + pos], axis=0)
    if model.num_registers:
        x = np.concatenate([x[:model.embed_prefix], t["reg_token"][0], x[model.embed_prefix:]], axis=0)
    return x, g


def forward(model, image, keep_states=False, position_embeddings=True, ablate=None):
    """Returns a dict: grid, prefix, tokens, attn (L,H,N,N), q/k/v (L,H,N,dh),
    out (L,H,N,dh) = A v, logits (C,) or None, final (N, dim), and with
    keep_states the block inputs x_in (L,N,dim) and the last block's output
    x_out (N,dim, before the final norm). All float64.
    ablate=(layer, head): the what-if with that head's output o_h set to zero
    before the output projection (out still holds what the head computed)."""
    t, H, dh = model.t, model.heads, model.head_dim
    x, g = embed(model, image, position_embeddings)
    n = x.shape[0]
    act = gelu_tanh if model.config.get("gelu_tanh") or model.config.get("hidden_act") == "gelu_pytorch_tanh" else gelu_erf
    L = model.depth
    attn = np.zeros((L, H, n, n))
    q_all, k_all, v_all, o_all = (np.zeros((L, H, n, dh)) for _ in range(4))
    states = []
    for l in range(L):
        b = f"blocks.{l}."
        states.append(x.copy())
        y = layer_norm(x, t[b + "norm1.weight"], t[b + "norm1.bias"], model.eps)
        qkv = linear(y, t, b + "attn.qkv")  # (N, 3*dim): q | k | v, heads contiguous
        q, k, v = (qkv[:, i * model.dim:(i + 1) * model.dim].reshape(n, H, dh).transpose(1, 0, 2) for i in range(3))
        a = softmax(q @ k.transpose(0, 2, 1) / math.sqrt(dh))  # (H, N, N)
        o = a @ v  # (H, N, dh)
        attn[l], q_all[l], k_all[l], v_all[l], o_all[l] = a, q, k, v, o
        if ablate is not None and ablate[0] == l:
            o = o.copy()
            o[ablate[1]] = 0
        y = linear(o.transpose(1, 0, 2).reshape(n, model.dim), t, b + "attn.proj")
        x = x + (t[b + "ls1.gamma"] * y if b + "ls1.gamma" in t else y)
        y = layer_norm(x, t[b + "norm2.weight"], t[b + "norm2.bias"], model.eps)
        y = linear(act(linear(y, t, b + "mlp.fc1")), t, b + "mlp.fc2")
        x = x + (t[b + "ls2.gamma"] * y if b + "ls2.gamma" in t else y)
    final = layer_norm(x, t["norm.weight"], t["norm.bias"], model.eps)
    logits = None
    if "head.weight" in t:
        logits = linear(final[0], t, "head")
        if model.has_dist and "head_dist.weight" in t:
            logits = (logits + linear(final[1], t, "head_dist")) / 2
    r = dict(grid=g, prefix=model.prefix, tokens=n, attn=attn, q=q_all, k=k_all, v=v_all, out=o_all,
             logits=logits, final=final)
    if keep_states:
        r["x_in"] = np.stack(states)
        r["x_out"] = x
    return r


# ----------------------------------------------------------------------------
# timm's eval preprocessing, through PIL (for tests of vitscope's preprocessing)


def preprocess_pil(path, pretrained_cfg, input_size=None):
    """Resize the shorter side to floor(S / crop_pct) with PIL (bicubic or
    bilinear), centre crop S (torchvision's rounding), to [0,1], normalise.
    Returns ((3,S,S) float32, crop (x, y, w, h) in original pixels)."""
    from PIL import Image

    s = int(input_size or pretrained_cfg.get("input_size", [3, 224, 224])[-1])
    crop_pct = float(pretrained_cfg.get("crop_pct", 0.875))
    interp = {"bicubic": Image.BICUBIC, "bilinear": Image.BILINEAR}[pretrained_cfg.get("interpolation", "bicubic")]
    mean = np.array(pretrained_cfg.get("mean", [0.485, 0.456, 0.406]), dtype=np.float32)
    std = np.array(pretrained_cfg.get("std", [0.229, 0.224, 0.225]), dtype=np.float32)
    im = Image.open(path).convert("RGB")
    w, h = im.size
    short = math.floor(s / crop_pct)
    if w <= h:
        rw, rh = short, int(short * h / w)
    else:
        rw, rh = int(short * w / h), short
    if (rw, rh) != (w, h):
        im = im.resize((rw, rh), interp)
    top, left = int(round((rh - s) / 2.0)), int(round((rw - s) / 2.0))
    im = im.crop((left, top, left + s, top + s))
    a = np.asarray(im, dtype=np.uint8).astype(np.float32) / np.float32(255.0)
    a = (a - mean) / std  # as torchvision's Normalize on float32
    crop = (left * w / rw, top * h / rh, s * w / rw, s * h / rh)
    return np.ascontiguousarray(a.transpose(2, 0, 1), dtype=np.float32), crop


def classify(model, image, top=5):
    logits = forward(model, image)["logits"]
    p = softmax(logits)
    order = np.argsort(-p)[:top]
    return [(int(i), float(p[i]), model.labels[i] if i < len(model.labels) else str(i)) for i in order]


if __name__ == "__main__":  # python3 vit_reference.py MODEL_DIR IMAGE [SIZE]
    import sys

    m = load_timm(sys.argv[1])
    x, crop = preprocess_pil(sys.argv[2], m.pretrained_cfg, int(sys.argv[3]) if len(sys.argv) > 3 else None)
    for rank, (i, p, label) in enumerate(classify(m, x), 1):
        print(f"{rank}\t{p:.6f}\t{label}")
