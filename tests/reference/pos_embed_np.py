"""Position embeddings at another grid, in float64 NumPy, written from the
definitions rather than from vitscope's C++: PyTorch's
F.interpolate(mode="bicubic", align_corners=False, size=(out, out)), with and
without antialias, as a matrix per axis (out x in) applied to rows and columns.

Which one each library calls (read from their code, 2025-2026 releases):
  timm resample_abs_pos_embed (every ViT, the DINOv2 ones too): antialias=True
  transformers Dinov2WithRegistersEmbeddings.interpolate_pos_encoding: antialias=True
  transformers ViT / DeiT / Dinov2 interpolate_pos_encoding: antialias=False
  (Dinov2 before transformers 4.45 passed scale_factor=(out + 0.1) / in
  instead of size; not reproduced here.)

antialias=False (Keys' cubic convolution with A = -0.75): output o samples
src = (o + 0.5) * in / out - 0.5; with f = floor(src), t = src - f, the taps
f-1 .. f+2 get W(t+1), W(t), W(1-t), W(2-t); indices outside the grid are
clamped to its border (the border value repeats).

antialias=True (PIL-style resampling): the kernel is Keys' with a = -0.5,
stretched by s = in / out when s > 1 (support 2 s, argument divided by s);
output o is centred at c = (o + 0.5) s, its taps are the inputs j with
max(0, int(c - support + 0.5)) <= j < min(in, int(c + support + 0.5)),
weighted W((j - c + 0.5) / max(s, 1)) and divided by the sum of the weights.
"""
import math

import numpy as np


def keys(x, a):
    """Keys' cubic convolution kernel W(x) with parameter a."""
    x = abs(x)
    if x < 1:
        return ((a + 2) * x - (a + 3)) * x * x + 1
    if x < 2:
        return a * x ** 3 - 5 * a * x ** 2 + 8 * a * x - 4 * a
    return 0.0


def plain_matrix(n_in, n_out):
    """torch's upsample_bicubic2d along one axis (antialias=False)."""
    m = np.zeros((n_out, n_in))
    scale = n_in / n_out
    for o in range(n_out):
        src = (o + 0.5) * scale - 0.5
        f = math.floor(src)
        t = src - f
        for k, w in zip(range(-1, 3), (keys(t + 1, -0.75), keys(t, -0.75), keys(1 - t, -0.75), keys(2 - t, -0.75))):
            m[o, min(max(f + k, 0), n_in - 1)] += w
    return m


def antialias_matrix(n_in, n_out):
    """torch's _upsample_bicubic2d_aa along one axis (antialias=True)."""
    m = np.zeros((n_out, n_in))
    scale = n_in / n_out
    stretch = max(scale, 1.0)
    support = 2.0 * stretch
    for o in range(n_out):
        c = (o + 0.5) * scale
        lo, hi = max(0, int(c - support + 0.5)), min(n_in, int(c + support + 0.5))
        w = np.array([keys((j - c + 0.5) / stretch, -0.5) for j in range(lo, hi)])
        m[o, lo:hi] = w / w.sum()
    return m


def resize_grid(grid, n_out, antialias):
    """grid: (g, g, D) -> (n_out, n_out, D). The trained grid comes back as it is."""
    g = grid.shape[0]
    if g == n_out:
        return np.array(grid, dtype=np.float64)
    m = antialias_matrix(g, n_out) if antialias else plain_matrix(g, n_out)
    return np.einsum("yi,ijd,xj->yxd", m, np.asarray(grid, dtype=np.float64), m)


def resize_pos_embed(pos, prefix, old_grid, new_grid, antialias):
    """pos: [prefix + old_grid^2, D] -> [prefix + new_grid^2, D]; prefix rows kept."""
    pre, grid = pos[:prefix], pos[prefix:].reshape(old_grid, old_grid, -1)
    out = resize_grid(grid, new_grid, antialias)
    return np.concatenate([pre, out.reshape(new_grid * new_grid, -1)], axis=0)
