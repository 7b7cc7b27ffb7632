"""The Vision Transformer of vit_reference.py (the same equations, the same
timm weights) written with PyTorch tensors, so that autograd gives the
gradients vitscope's backward pass computes, and so that many inputs run as
one batch (occlusion and perturbation curves). Independent of vitscope's C++.

The embedding (patches, CLS, distillation token, registers, position
embeddings) is vit_reference.embed in NumPy: nothing is differentiated there.
"""
import math

import numpy as np
import torch

try:
    from . import vit_reference  # type: ignore
except ImportError:  # pragma: no cover
    import vit_reference  # type: ignore


class TorchViT:
    def __init__(self, model, dtype=torch.float64):
        self.model, self.dtype = model, dtype
        self.t = {k: torch.from_numpy(v).to(dtype) for k, v in model.t.items()}
        c = model.config
        self.tanh = bool(c.get("gelu_tanh") or c.get("hidden_act") == "gelu_pytorch_tanh")

    def _lin(self, x, name):
        y = x @ self.t[name + ".weight"].T
        b = self.t.get(name + ".bias")
        return y if b is None else y + b

    def _ln(self, x, name):
        return torch.nn.functional.layer_norm(x, x.shape[-1:], self.t[name + ".weight"], self.t[name + ".bias"],
                                              self.model.eps)

    def embed(self, images):
        """images: (B, 3, S, S) normalised -> (B, N, dim) tokens entering block 0."""
        return torch.from_numpy(np.stack([vit_reference.embed(self.model, im)[0] for im in images])).to(self.dtype)

    def forward(self, x, keep=None):
        """x: (B, N, dim) tokens. keep: a dict to fill with the tensors whose
        gradients are wanted ('attn': per layer (B, H, N, N), 'x_in': per layer,
        'x_out'), each with retain_grad(). Returns the logits (B, classes)."""
        m, t = self.model, self.t
        B, n, d = x.shape
        H, dh = m.heads, m.head_dim
        gelu = (lambda z: torch.nn.functional.gelu(z, approximate="tanh")) if self.tanh else torch.nn.functional.gelu
        for l in range(m.depth):
            b = f"blocks.{l}."
            if keep is not None:
                x.retain_grad()
                keep.setdefault("x_in", []).append(x)
            y = self._ln(x, b + "norm1")
            qkv = self._lin(y, b + "attn.qkv")
            q, k, v = (qkv[..., i * d:(i + 1) * d].reshape(B, n, H, dh).transpose(1, 2) for i in range(3))
            a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dh), dim=-1)
            if keep is not None:
                a.retain_grad()
                keep.setdefault("attn", []).append(a)
            o = (a @ v).transpose(1, 2).reshape(B, n, d)
            y = self._lin(o, b + "attn.proj")
            x = x + (t[b + "ls1.gamma"] * y if b + "ls1.gamma" in t else y)
            y = self._lin(gelu(self._lin(self._ln(x, b + "norm2"), b + "mlp.fc1")), b + "mlp.fc2")
            x = x + (t[b + "ls2.gamma"] * y if b + "ls2.gamma" in t else y)
        if keep is not None:
            x.retain_grad()
            keep["x_out"] = x
        final = self._ln(x, "norm")
        logits = self._lin(final[:, 0], "head")
        if m.has_dist and "head_dist.weight" in t:
            logits = (logits + self._lin(final[:, 1], "head_dist")) / 2
        return logits

    def gradients(self, image, cls):
        """Autograd of logits[cls] for one input: (logit, attn (L,H,N,N), grad_attn,
        grad_x_in (L,N,dim), grad_x_out (N,dim)) as float64 NumPy."""
        x = self.embed([image]).requires_grad_(True)
        keep = {}
        logits = self.forward(x, keep)
        logits[0, cls].backward()
        attn = np.stack([a[0].detach().numpy() for a in keep["attn"]]).astype(np.float64)
        g_attn = np.stack([a.grad[0].numpy() for a in keep["attn"]]).astype(np.float64)
        g_x_in = np.stack([x.grad[0].numpy() for x in keep["x_in"]]).astype(np.float64)
        return float(logits[0, cls]), attn, g_attn, g_x_in, keep["x_out"].grad[0].numpy().astype(np.float64)

    def probabilities(self, images, cls, batch=25):
        """p(cls) for each normalised input, batched, without gradients."""
        out = []
        with torch.no_grad():
            for i in range(0, len(images), batch):
                p = torch.softmax(self.forward(self.embed(images[i:i + batch])).to(torch.float64), dim=-1)
                out.extend(p[:, cls].tolist())
        return np.array(out)
