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

Paths are str, bytes or os.PathLike (any name the file system holds, UTF-8 or
not). What the file system refuses raises vitscope.FileNotFoundError,
IsADirectoryError, NotADirectoryError or PermissionError: the built-in
exceptions of those names and, as before, vitscope.Error (a ValueError).
Any other refused input raises vitscope.Error; a wrong type, TypeError.
"""
import builtins
import errno
import os
import stat
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


# The file system's refusals: catchable as the built-in exception (the OSError
# first, so errno, strerror and filename are set) and as vitscope.Error, which
# a missing photo raised before (as io.UnsupportedOperation is both OSError and
# ValueError). Not in __all__, so `import *` shadows no built-in.
class FileNotFoundError(builtins.FileNotFoundError, Error):
    """A photo or model folder that is not there."""


class IsADirectoryError(builtins.IsADirectoryError, Error):
    """A folder where a photo was expected."""


class NotADirectoryError(builtins.NotADirectoryError, Error):
    """A file where a model folder was expected, or a file as a folder on the way."""


class PermissionError(builtins.PermissionError, Error):
    """A photo or model folder this process may not read."""


_OWN_ERRORS = {builtins.FileNotFoundError: FileNotFoundError, builtins.IsADirectoryError: IsADirectoryError,
               builtins.NotADirectoryError: NotADirectoryError, builtins.PermissionError: PermissionError}

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


_PATH_TYPES = (str, bytes, os.PathLike)


def _path(path, what):
    """path as the bytes the C++ side opens (os.fsencode: a str that came from
    os.fsdecode gets its undecodable bytes back)."""
    if not isinstance(path, _PATH_TYPES):
        raise TypeError(f"{what} is a path (str, bytes or os.PathLike), not {type(path).__name__}")
    return os.fsencode(path)


def _file_system_refusal(path, folder):
    """Why the file system refuses path (bytes) as a photo (a regular file) or,
    with folder, as a model folder: its OSError, or None when it has nothing
    against it (then the refusal was about the content). Asked only after the
    C++ side refused, so an opened file costs nothing."""
    try:
        mode = os.stat(path).st_mode
        if folder and not stat.S_ISDIR(mode):
            return builtins.NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
        if folder:
            with os.scandir(path):  # a folder we may not list
                pass
        elif stat.S_ISDIR(mode):
            return builtins.IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        elif stat.S_ISREG(mode):  # not a FIFO: opening one would block
            os.close(os.open(path, os.O_RDONLY))
    except OSError as e:
        return e
    except ValueError:  # a NUL in the path: the C++ side's message says so
        return None
    return None


def _opening(call, path, given, *args, folder=False):
    """call(path, *args), the file system's refusal of path raised as its
    exception (FileNotFoundError ...) naming the path as given."""
    try:
        return call(path, *args)
    except Error:
        refusal = _file_system_refusal(path, folder)
        own = _OWN_ERRORS.get(type(refusal))
        if own is None:
            raise
    raise own(refusal.errno, refusal.strerror, os.fspath(given))


def _input(image):
    """A path (str, bytes or os.PathLike) or a preprocessed float array (3, S, S)."""
    if isinstance(image, _PATH_TYPES):
        return _path(image, "image"), None
    wrong_type = TypeError("image is a path (str, bytes or os.PathLike) or a float array (3, S, S), "
                           f"not {type(image).__name__}")
    try:
        array = np.asarray(image)
    except (TypeError, ValueError):  # a ragged or otherwise unusable sequence
        raise wrong_type from None
    if array.ndim == 0 or array.dtype.kind not in "biufc":
        raise wrong_type
    if array.dtype.kind != "f":  # an int, bool or complex array would be cast silently to floats
        raise TypeError(f"image is a float array (float16, float32 or float64), not {array.dtype}: "
                        "vitscope does not cast integers, booleans or complex numbers "
                        "(preprocess them yourself, then .astype(np.float32))")
    return None, np.ascontiguousarray(array, dtype=np.float32)


def _size(size):
    """size= as the C++ side takes it: 0 for the model's own input size."""
    if size is None:
        return 0
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size is an int (a multiple of the patch size) or None, not {type(size).__name__}")
    return int(size)


class Model:
    """A Vision Transformer loaded by vitscope (timm or Hugging Face folder:
    config.json and model.safetensors or pytorch_model.bin)."""

    def __init__(self, path=None):
        if path is None:
            path = default_model_path()
        folder = _path(path, "the model's path")
        self.path = os.fspath(path)
        self._m = _opening(_vitscope.Model, folder, path, folder=True)
        self.info = self._m.info()
        self.labels = self._m.labels()

    def __repr__(self):
        i = self.info
        return f"vitscope.Model({self.path!r}: {i['layers']} layers, {i['heads']} heads, dim {i['dim']})"

    def class_index(self, cls):
        """A class given as its index or its label (as `vitscope dump --class`)."""
        if isinstance(cls, (int, np.integer)) and not isinstance(cls, (bool, np.bool_)):
            return self._m.find_class(str(int(cls)))
        if isinstance(cls, str):
            return self._m.find_class(cls)
        raise TypeError(f"a class is its index (int) or its label (str), not {type(cls).__name__}")

    def preprocess(self, path, size=None):
        """The photo as the model's input: ((3, S, S) float32, crop (x, y, w, h))."""
        return _opening(self._m.preprocess, _path(path, "path"), path, _size(size))

    def run(self, image, size=None, parts=False):
        """The forward pass on a photo's path (preprocessed as the model's own
        library does, at `size` or the model's input size) or on a preprocessed
        (3, S, S) array (S a multiple of the patch size). Returns a Run; with
        parts=True it also holds each block's ln1, attn_proj, residual_mid, ln2
        and mlp (L, N, dim), as `vitscope dump --arrays` names them."""
        path, array = _input(image)
        if path is not None:
            return Run(_opening(self._m.run_path, path, image, _size(size), bool(parts)))
        return Run(self._m.run_array(array, _size(size), bool(parts)))

    def gradients(self, image, cls, size=None):
        """The backward pass of one class's logit (an index or a label) on a
        photo or a preprocessed array. Returns Gradients."""
        path, array = _input(image)
        c = self.class_index(cls)
        if path is not None:
            return Gradients(_opening(self._m.gradients_path, path, image, c, _size(size)))
        return Gradients(self._m.gradients_array(array, c, _size(size)))
