"""The command-line contract of DESIGN.md, run against the real binary and the
real default model: output formats, and one-line errors with exit code 2 for
every kind of bad input, leaving no partial output behind."""
import csv
import io
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import DOG, MODEL, SRC, Tally, run_vitscope as run

tally = Tally()
check = tally.check


def expect_error(name, args, must_mention, env_extra=None):
    r = run(*args, env_extra=env_extra)
    err = r.stderr.strip()
    ok = (r.returncode == 2 and r.stdout == "" and len(err.splitlines()) == 1
          and err.startswith("vitscope: error: ") and must_mention.lower() in err.lower())
    check(name, ok, f"exit {r.returncode}, stderr {err!r}, stdout {r.stdout[:80]!r}")


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    return json.loads(data[8:8 + n]), data[8 + n:]


def write_safetensors(path, header, body, header_len=None):
    raw = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw) if header_len is None else header_len) + raw + body)


def model_variant(tmp, name, mutate):
    """A copy of the real model folder whose safetensors header mutate() edits."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    shutil.copy(os.path.join(MODEL, "config.json"), d)
    header, body = read_safetensors(os.path.join(MODEL, "model.safetensors"))
    out = mutate(header, body)
    write_safetensors(os.path.join(d, "model.safetensors"), *(out if isinstance(out, tuple) else (header, body)))
    return d


def test_outputs():
    r = run("classify", os.path.join(SRC, "assets", "coffee.png"), "--model", MODEL, "--top", "3")
    lines = [l.split("\t") for l in r.stdout.strip().splitlines()]
    check("classify prints rank, probability, label", r.returncode == 0 and len(lines) == 3
          and [l[0] for l in lines] == ["1", "2", "3"] and lines[0][2] == "espresso"
          and float(lines[0][1]) >= float(lines[1][1]) >= float(lines[2][1]), r.stdout + r.stderr)

    r = run("attention", DOG, "--model", MODEL, "--layer", "8", "--head", "1", "--patch", "5,7")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    ok = (r.returncode == 0 and r.stdout.startswith("key,row,col,score,scaled,weight\n") and len(rows) == 197
          and rows[0]["row"] == "-1" and rows[0]["col"] == "-1"
          and [int(x["key"]) for x in rows] == list(range(197))
          and all(int(x["row"]) == (int(x["key"]) - 1) // 14 and int(x["col"]) == (int(x["key"]) - 1) % 14
                  for x in rows[1:]))
    check("attention CSV has one line per key token in order", ok, r.stdout[:200] + r.stderr)
    w = [float(x["weight"]) for x in rows]
    check("attention weights sum to one", abs(sum(w) - 1) < 1e-5 and min(w) >= 0, str(sum(w)))
    check("scaled is score / sqrt(64)", all(abs(float(x["scaled"]) - float(x["score"]) / 8) <= 1e-5 * max(1, abs(float(x["score"])))
                                           for x in rows))
    r2 = run("attention", DOG, "--model", MODEL, "--layer", "8", "--head", "1", "--query", "78")
    check("--query INDEX equals --patch ROW,COL of that token", r2.stdout == r.stdout)
    r3 = run("attention", DOG, "--model", MODEL, "--layer", "0", "--head", "0", "--query", "cls")
    check("--query cls works", r3.returncode == 0 and len(r3.stdout.splitlines()) == 198, r3.stderr)

    r = run("info", "--model", MODEL)
    info = dict(l.split(": ", 1) for l in r.stdout.strip().splitlines())
    check("info reports the architecture", r.returncode == 0 and info.get("layers") == "12" and info.get("heads") == "3"
          and info.get("parameters") == "5717416" and info.get("naming scheme") == "timm"
          and info.get("tokens", "").startswith("197"), r.stdout + r.stderr)
    r = run("info", env_extra={"VITSCOPE_MODEL": MODEL})
    check("$VITSCOPE_MODEL is used without --model", r.returncode == 0 and "layers: 12" in r.stdout, r.stderr)


def test_bad_input(tmp):
    def f(name, content):
        p = os.path.join(tmp, name)
        with open(p, "wb") as fh:
            fh.write(content)
        return p

    dog = open(DOG, "rb").read()
    png = open(os.path.join(SRC, "assets", "chelsea.png"), "rb").read()
    cls = lambda image, *extra: ["classify", image, "--model", MODEL, *extra]
    expect_error("missing image file", cls(os.path.join(tmp, "nope.jpg")), "nope.jpg")
    expect_error("0-byte file", cls(f("empty.jpg", b"")), "empty")
    expect_error("not an image", cls(f("notes.jpg", b"hello, this is text\n" * 20)), "not an image")
    expect_error("truncated JPEG", cls(f("half.jpg", dog[:len(dog) // 2])), "half.jpg")
    expect_error("truncated PNG", cls(f("half.png", png[:len(png) // 2])), "half.png")
    # A valid PNG signature and IHDR claiming 10000 x 10000 pixels, and nothing else.
    ihdr = struct.pack(">IIBBBBB", 10000, 10000, 8, 2, 0, 0, 0)
    import zlib
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    expect_error("image over 64 megapixels", cls(f("huge.png", b"\x89PNG\r\n\x1a\n" + chunk)), "megapixel")
    expect_error("model folder missing", cls(DOG)[:2] + ["--model", os.path.join(tmp, "no-model")], "no-model")

    whole = open(os.path.join(MODEL, "model.safetensors"), "rb").read()

    def folder_with(name, content):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        shutil.copy(os.path.join(MODEL, "config.json"), d)
        with open(os.path.join(d, "model.safetensors"), "wb") as fh:
            fh.write(content)
        return d

    expect_error("safetensors truncated", cls(DOG)[:2] + ["--model", folder_with("trunc", whole[:len(whole) // 2])], "safetensors")
    expect_error("header length beyond the file", cls(DOG)[:2] + ["--model", folder_with("hlen", struct.pack("<Q", 1 << 40) + whole[8:])], "header")
    expect_error("bad JSON header", cls(DOG)[:2] + ["--model", folder_with("json", struct.pack("<Q", 10) + b"{not json!" + whole[8:])], "json")

    def set_dtype(h, b):
        h["blocks.0.attn.qkv.weight"]["dtype"] = "I64"
    expect_error("unknown dtype", cls(DOG)[:2] + ["--model", model_variant(tmp, "dtype", set_dtype)], "I64")

    def out_of_bounds(h, b):
        h["norm.bias"]["data_offsets"] = [len(b) - 4, len(b) + 764]
    expect_error("tensor out of bounds", cls(DOG)[:2] + ["--model", model_variant(tmp, "oob", out_of_bounds)], "norm.bias")

    def overlapping(h, b):
        h["norm.bias"]["data_offsets"] = list(h["norm.weight"]["data_offsets"])
    expect_error("overlapping tensors", cls(DOG)[:2] + ["--model", model_variant(tmp, "overlap", overlapping)], "overlap")

    def missing(h, b):
        del h["blocks.3.mlp.fc1.weight"]
    expect_error("missing tensor", cls(DOG)[:2] + ["--model", model_variant(tmp, "missing", missing)], "blocks.3.mlp.fc1.weight")

    def renamed(h, b):
        return ({("weird." + k if k != "__metadata__" else k): v for k, v in h.items()}, b)
    expect_error("unknown naming scheme", cls(DOG)[:2] + ["--model", model_variant(tmp, "names", renamed)], "naming scheme")

    def nan_weight(h, b):
        begin = h["blocks.2.attn.proj.bias"]["data_offsets"][0]
        return (h, b[:begin] + struct.pack("<f", float("nan")) + b[begin + 4:])
    expect_error("NaN weight", cls(DOG)[:2] + ["--model", model_variant(tmp, "nan", nan_weight)], "blocks.2.attn.proj.bias")

    d = os.path.join(tmp, "heads")
    shutil.copytree(MODEL, d)
    cfg = json.load(open(os.path.join(d, "config.json")))
    cfg["model_args"]["num_heads"] = 5
    json.dump(cfg, open(os.path.join(d, "config.json"), "w"))
    expect_error("shapes inconsistent with the config", cls(DOG)[:2] + ["--model", d], "head")

    att = ["attention", DOG, "--model", MODEL]
    expect_error("layer out of range", att + ["--layer", "12", "--head", "0", "--patch", "1,1"], "--layer")
    expect_error("head out of range", att + ["--layer", "0", "--head", "3", "--patch", "1,1"], "--head")
    expect_error("patch out of range", att + ["--layer", "0", "--head", "0", "--patch", "14,0"], "--patch")
    expect_error("malformed --patch", att + ["--layer", "0", "--head", "0", "--patch", "5;7"], "--patch")
    expect_error("query index out of range", att + ["--layer", "0", "--head", "0", "--query", "197"], "--query")
    expect_error("non-numeric --layer", att + ["--layer", "two", "--head", "0", "--patch", "1,1"], "--layer")

    expect_error("trace over the memory budget", att + ["--layer", "0", "--head", "0", "--patch", "1,1", "--size", "1600"],
                 "memory budget", env_extra={"VITSCOPE_MEMORY_BUDGET": "1G"})
    expect_error("malformed memory budget", att + ["--layer", "0", "--head", "0", "--patch", "1,1"],
                 "VITSCOPE_MEMORY_BUDGET", env_extra={"VITSCOPE_MEMORY_BUDGET": "lots"})

    out = os.path.join(tmp, "dumpdir")
    expect_error("dump of a broken image writes nothing", ["dump", f("bad2.png", b"\x89PNG\r\n\x1a\n"), "-o", out, "--model", MODEL], "bad2.png")
    check("no partial dump folder", not os.path.exists(out))


def main():
    if not tally.check_model():
        sys.exit(tally.finish())
    test_outputs()
    with tempfile.TemporaryDirectory() as tmp:
        test_bad_input(tmp)
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
