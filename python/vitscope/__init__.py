"""vitscope from Python: the numbers vitscope's window and command line show,
as NumPy arrays, computed by the same C++ code (src/vit).

    import vitscope
    model = vitscope.Model()                     # the default model (as `vitscope info` finds it)
    run = model.run("dog.jpg")                   # or a preprocessed float32 array (3, S, S)
    run.attention.shape                          # (layers, heads, tokens, tokens)
    model.labels[run.logits.argmax()]            # 'malamute'
    grads = model.gradients("dog.jpg", "malamute")

Token 0 is CLS, then a DeiT's distillation token or a DINOv2's registers
(run.prefix tokens in all), then the run.grid x run.grid patches row by row.
"""
import os
from pathlib import Path

import numpy as np

# An installed module (P/lib/pythonX.Y/site-packages/vitscope) reads the class
# names installed beside the binary (P/share/vitscope), not the source tree.
_share = Path(__file__).resolve().parents[4] / "share" / "vitscope"
_installed = (_share / "labels").is_dir() and (_share / "tours").is_dir()
if _installed:
    os.environ.setdefault("VITSCOPE_LABELS_DIR", str(_share / "labels"))

from . import _vitscope  # noqa: E402

Error = _vitscope.Error

__all__ = ["Model", "Run", "Gradients", "Error", "default_model_path"]


def default_model_path():
    """Where Model() looks without a path: $VITSCOPE_MODEL, ./models/NAME, the
    project's models/ (a build only), the user's data folder
    ($XDG_DATA_HOME/vitscope/models), then the model mirror."""
    return _vitscope.default_model_path(_installed)


class _Arrays:
    """Results as attributes (run.attention) and as a mapping (run["attention"])."""

    def __init__(self, values):
        self.__dict__.update(values)

    def __getitem__(self, name):
        return self.__dict__[name]

    def keys(self):
        return self.__dict__.keys()

    def __repr__(self):
        parts = [f"{k}={v.shape}" if isinstance(v, np.ndarray) else f"{k}={v!r}" for k, v in self.__dict__.items()]
        return f"{type(self).__name__}({', '.join(parts)})"


class Run(_Arrays):
    """One forward pass, all float32 NumPy arrays (L layers, H heads, N tokens):
    input (3, S, S) as the model saw it; attention (L, H, N, N) softmax weights,
    row = query; q, k, v, out (L, H, N, head_dim), out = attention @ v;
    residual (L + 1, N, dim): residual[l] enters block l, residual[L] leaves
    the last block (before the final LayerNorm); final (N, dim) after it;
    logits (classes,). Also grid, prefix, tokens and crop (x, y, w, h) on the photo.
    With run(..., parts=True), each block's parts (L, N, dim): ln1 (attention's
    input), attn_proj (what attention adds, after the output projection and
    layer scale), residual_mid (the stream after attention), ln2 (the MLP's
    input), mlp (what the MLP adds)."""


class Gradients(_Arrays):
    """d logit[class_index] / d ...: attention (L, H, N, N) the softmax weights,
    x_in (L, N, dim) each block's input, x_out (N, dim) the last block's output.
    logit is the class's logit (recomputed in double)."""


def _input(image):
    """A path (str or os.PathLike) or a preprocessed array (3, S, S)."""
    if isinstance(image, (str, os.PathLike)):
        return os.fspath(image), None
    array = np.ascontiguousarray(image, dtype=np.float32)
    return None, array


class Model:
    """A Vision Transformer loaded by vitscope (timm or Hugging Face folder:
    config.json and model.safetensors or pytorch_model.bin)."""

    def __init__(self, path=None):
        self.path = os.fspath(path) if path is not None else default_model_path()
        self._m = _vitscope.Model(self.path)
        self.info = self._m.info()
        self.labels = self._m.labels()

    def __repr__(self):
        i = self.info
        return f"vitscope.Model({self.path!r}: {i['layers']} layers, {i['heads']} heads, dim {i['dim']})"

    def class_index(self, cls):
        """A class given as its index or its label (as `vitscope dump --class`)."""
        if isinstance(cls, (int, np.integer)):
            return self._m.find_class(str(int(cls)))
        return self._m.find_class(str(cls))

    def preprocess(self, path, size=None):
        """The photo as the model's input: ((3, S, S) float32, crop (x, y, w, h))."""
        return self._m.preprocess(os.fspath(path), size or 0)

    def run(self, image, size=None, parts=False):
        """The forward pass on a photo's path (preprocessed as the model's own
        library does, at `size` or the model's input size) or on a preprocessed
        (3, S, S) array (S a multiple of the patch size). Returns a Run; with
        parts=True it also holds each block's ln1, attn_proj, residual_mid, ln2
        and mlp (L, N, dim), as `vitscope dump --arrays` names them."""
        path, array = _input(image)
        if path is not None:
            return Run(self._m.run_path(path, size or 0, bool(parts)))
        return Run(self._m.run_array(array, size or 0, bool(parts)))

    def gradients(self, image, cls, size=None):
        """The backward pass of one class's logit (an index or a label) on a
        photo or a preprocessed array. Returns Gradients."""
        path, array = _input(image)
        c = self.class_index(cls)
        if path is not None:
            return Gradients(self._m.gradients_path(path, c, size or 0))
        return Gradients(self._m.gradients_array(array, c, size or 0))
