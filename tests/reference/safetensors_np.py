"""A tiny safetensors reader/writer in NumPy, for the reference tests.

Format (https://huggingface.co/docs/safetensors): an 8-byte little-endian
unsigned header length, a JSON header mapping each tensor name to
{"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the end
of the header) plus an optional "__metadata__" map of strings, then the raw
little-endian tensor bytes. Only F32, F16 and BF16 are handled.

Independent of vitscope's C++ reader on purpose: the reference forward pass
reads checkpoints with this, and the synthetic test checkpoints are written
with it.
"""
import json
import os
import struct

import numpy as np

_NP_DTYPES = {"F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": np.dtype("<u2")}


def bf16_to_f32(u16):
    """bfloat16 bit patterns (uint16) to float32: they are the high halves."""
    return (np.asarray(u16, dtype=np.uint32) << 16).view(np.float32)


def f32_to_bf16(f32):
    """float32 to bfloat16 bit patterns, round to nearest even (NaN stays NaN)."""
    u = np.ascontiguousarray(f32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(f32, dtype=np.float32))
    rounded[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)  # keep it a quiet NaN
    return rounded


def read_header(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n).decode("utf-8"))
    return n, header


def load(path, as_f32=True):
    """Returns ({name: ndarray}, metadata). With as_f32 every tensor is float32
    (F16 and BF16 converted exactly); otherwise F16 stays float16 and BF16 is
    returned as float32 anyway (NumPy has no bfloat16)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    base = 8 + n
    metadata = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, info in header.items():
        dtype = info["dtype"]
        if dtype not in _NP_DTYPES:
            raise ValueError(f"{path}: tensor {name}: unsupported dtype {dtype}")
        begin, end = info["data_offsets"]
        shape = tuple(int(s) for s in info["shape"])
        count = int(np.prod(shape, dtype=np.int64)) if shape else 1
        if end - begin != count * _NP_DTYPES[dtype].itemsize or base + end > len(raw):
            raise ValueError(f"{path}: tensor {name}: bad data_offsets {begin},{end}")
        a = np.frombuffer(raw, dtype=_NP_DTYPES[dtype], count=count, offset=base + begin).reshape(shape)
        if dtype == "BF16":
            a = bf16_to_f32(a).reshape(shape)
        elif dtype == "F16" and as_f32:
            a = a.astype(np.float32)
        else:
            a = a.astype(a.dtype.newbyteorder("="))
        tensors[name] = a
    return tensors, metadata


def save(path, tensors, dtypes=None, metadata=None):
    """Writes {name: array} to path. dtypes maps a name to "F32" (default),
    "F16" or "BF16"; values are converted from their float value. Returns, per
    name, the float32 values actually stored (after rounding to the dtype), so a
    caller can feed exactly the stored weights to a reference computation."""
    dtypes = dtypes or {}
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    blobs, stored, offset = [], {}, 0
    for name in tensors:  # insertion order
        a = np.asarray(tensors[name], dtype=np.float32)
        dtype = dtypes.get(name, "F32")
        if dtype == "F32":
            data = a.astype("<f4")
            stored[name] = a.copy()
        elif dtype == "F16":
            data = a.astype("<f2")
            stored[name] = data.astype(np.float32)
        elif dtype == "BF16":
            data = f32_to_bf16(a).astype("<u2")
            stored[name] = bf16_to_f32(data).reshape(a.shape)
        else:
            raise ValueError(f"unsupported dtype {dtype}")
        b = data.tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)  # pad so the data starts 8-byte aligned
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)
    return stored


if __name__ == "__main__":  # self-check: round trip of every dtype
    import tempfile

    rng = np.random.default_rng(0)
    t = {"a": rng.standard_normal((3, 4)).astype(np.float32), "b": rng.standard_normal(5), "c": np.array([1.0, -2.5, np.inf])}
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "x.safetensors")
        stored = save(p, t, {"b": "F16", "c": "BF16"}, {"format": "pt"})
        back, meta = load(p)
        assert meta == {"format": "pt"}
        for k in t:
            assert back[k].dtype == np.float32 and back[k].shape == t[k].shape
            assert np.array_equal(back[k], stored[k]), k
        assert np.array_equal(back["c"], np.array([1.0, -2.5, np.inf], np.float32))
        assert np.abs(back["b"] - t["b"]).max() < 2e-3
    print("safetensors_np: ok")
