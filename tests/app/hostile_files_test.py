"""Hostile files (issue 33): JSON nested 100,000 deep in every JSON reader the
command line reaches, preprocessing numbers and weights that overflow float32,
memory budgets at the documented range's ends, values too long for an error
line, and a head count only config.json states. Each reproduction runs the
real binary on the real default model's weights (linked, never copied where
they are read as they are) and expects one `vitscope: error:` line naming the
cause with exit 2 and no output left behind, or a working result."""
import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np

import bad_input_matrix_test as matrix
from bad_input_matrix_test import expect_refusal, is_refusal, run, sensible
sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d) for d in ("support", "reference")]
from script_support import DOG, MODEL, SRC, Tally

tally = Tally()
check = tally.check
matrix.check = check  # its expect_refusal counts here
DEEP = 100_000


def nested(depth):
    return "[" * depth + "1" + "]" * depth


def model_with_config(tmp, name, edit, weights=None):
    """A model folder: the default model's weights (linked, or the given file) and its config.json
    after edit(config_text) -> text."""
    folder = os.path.join(tmp, name)
    os.makedirs(folder)
    os.symlink(weights or os.path.join(MODEL, "model.safetensors"), os.path.join(folder, "model.safetensors"))
    with open(os.path.join(MODEL, "config.json")) as f:
        text = f.read()
    with open(os.path.join(folder, "config.json"), "w") as f:
        f.write(edit(text))
    return folder


def with_value(path, raw):
    """A config editor putting the raw JSON text `raw` at the dotted key path."""
    def edit(text):
        config = json.loads(text)
        *parents, last = path.split(".")
        node = config
        for p in parents:
            node = node[p]
        node[last] = "@@VALUE@@"
        return json.dumps(config).replace('"@@VALUE@@"', raw)
    return edit


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        return header, f.read()


def write_safetensors(path, header_text, data):
    header = header_text.encode()
    header += b" " * ((8 - len(header) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + data)


def nesting_rows(tmp):
    # config.json: each key the probe nested, in classify (and info for the first).
    for key in ("num_classes", "model_args.depth", "model_args.num_heads", "model_args.embed_dim",
                "pretrained_cfg.mean", "pretrained_cfg.crop_pct", "pretrained_cfg.input_size"):
        folder = model_with_config(tmp, "deep-" + key, with_value(key, nested(DEEP)))
        expect_refusal(f"config.json with {key} nested {DEEP} deep: classify", ["classify", DOG, "--model", folder],
                       "config.json", "nested", "levels deep")
    expect_refusal("config.json nested: info", ["info", "--model", os.path.join(tmp, "deep-num_classes")], "nested")

    # A safetensors header whose tensor shape is nested: info and classify.
    header, data = read_safetensors(os.path.join(MODEL, "model.safetensors"))
    name = next(k for k in header if k != "__metadata__")
    text = json.dumps(header).replace(json.dumps({name: header[name]})[1:-1],
                                      json.dumps(name) + ": " + json.dumps(dict(header[name], shape="@@")).replace(
                                          '"@@"', nested(DEEP)), 1)
    weights = os.path.join(tmp, "deep-shape.safetensors")
    write_safetensors(weights, text, data)
    folder = model_with_config(tmp, "deep-shape", lambda t: t, weights=weights)
    for command in (["info", "--model", folder], ["classify", DOG, "--model", folder]):
        expect_refusal(f"safetensors shape nested {DEEP} deep: {command[0]}", command, "header", "nested")

    # A lesson whose visible_heads are nested, opened at start-up without a display.
    lesson = os.path.join(tmp, "deep.vitscope")
    with open(lesson, "w") as f:
        f.write('{"vitscope_lesson": 1, "visible_heads": ' + nested(DEEP) + "}")
    expect_refusal(f"lesson nested {DEEP} deep at start-up", [lesson], "deep.vitscope", "nested",
                   env_extra={"DISPLAY": ""})


def overflow_rows(tmp):
    # A mean that overflows float32: refused when the config is read, in every command.
    folder = model_with_config(tmp, "mean-1e308", with_value("pretrained_cfg.mean", "[1e308, 1, 1]"))
    out = os.path.join(tmp, "mean.png")
    for command in (["classify", DOG], ["attention", DOG, "--layer", "0", "--head", "0", "--query", "cls"],
                    ["export", DOG, "--layer", "0", "--head", "0", "--query", "cls", "-o", out]):
        expect_refusal(f"pretrained_cfg.mean 1e308: {command[0]}", command + ["--model", folder],
                       "pretrained_cfg.mean", "1e+308", "infinite", outputs=[out])

    # Weights of 3e38 (finite, so the load's NaN check passes): the first block's qkv overflows.
    header, data = read_safetensors(os.path.join(MODEL, "model.safetensors"))
    name = next(k for k in header if k.endswith("blocks.0.attn.qkv.weight"))
    begin, end = header[name]["data_offsets"]
    data = bytearray(data)
    data[begin:end] = np.full((end - begin) // 4, 3e38, np.float32).tobytes()
    weights = os.path.join(tmp, "huge.safetensors")
    write_safetensors(weights, json.dumps(header), bytes(data))
    folder = model_with_config(tmp, "huge-weights", lambda t: t, weights=weights)
    csv_out, png_out = os.path.join(tmp, "huge.csv"), os.path.join(tmp, "huge.png")
    for command, outputs in ((["classify", DOG], []),
                             (["attention", DOG, "--layer", "0", "--head", "0", "--patch", "5,3"], []),
                             (["export", DOG, "--layer", "0", "--head", "0", "--patch", "5,3", "-o", png_out], [png_out]),
                             (["explain", DOG, "--question", "global", "--csv", csv_out], [csv_out]),
                             (["tour", DOG, "--claims", csv_out], [csv_out])):
        r = expect_refusal(f"weights of 3e38: {command[0]}", command + ["--model", folder],
                           "layer 0", "not finite", outputs=outputs)
        check(f"weights of 3e38: {command[0]} prints no nan", "nan" not in r.out.lower(), r.out[:200])


def budget_rows():
    for budget in ("64T", "1T"):
        r = run("classify", DOG, "--model", MODEL, "--top", "5", env_extra={"VITSCOPE_MEMORY_BUDGET": budget})
        check(f"VITSCOPE_MEMORY_BUDGET={budget} (the documented range) -> works", sensible(r), r)
    r = expect_refusal("VITSCOPE_MEMORY_BUDGET=65T, naming the range", ["classify", DOG, "--model", MODEL],
                       "16M to 64T", env_extra={"VITSCOPE_MEMORY_BUDGET": "65T"})
    r = expect_refusal("VITSCOPE_MEMORY_BUDGET=16M", ["classify", DOG, "--model", MODEL],
                       "over the memory budget", env_extra={"VITSCOPE_MEMORY_BUDGET": "16M"})
    sizes = [w for w in r.err.replace(",", " ").split() if w[:1].isdigit()]
    check("VITSCOPE_MEMORY_BUDGET=16M: the weights' size and the budget read differently",
          "16.0 MiB" in r.err and len(set(sizes)) >= 2 and "0.02 GiB" not in r.err, r.err)


def message_rows(tmp):
    tour = os.path.join(tmp, "my.tour")
    shutil.copy(os.path.join(SRC, "assets", "tours", "first-look.tour"), tour)
    expect_refusal("tour --tour T --claims T, naming the tour", ["tour", DOG, "--tour", tour, "--claims", tour,
                                                                  "--model", MODEL], "the tour being read")
    # A 10 MB value vitscope refuses: the error quotes a short piece of it.
    folder = model_with_config(tmp, "long-value", with_value("global_pool", json.dumps("x" * (10 << 20))))
    r = run("classify", DOG, "--model", folder)
    check("a 10 MB value in config.json -> one short error line", is_refusal(r, []) and len(r.err) < 1200,
          f"exit {r.rc}, {len(r.err)} bytes: {r.err[:160]!r}")
    # An architecture vitscope does not know: the head count is config.json's word alone.
    folder = model_with_config(tmp, "custom-arch", with_value("architecture", '"vit_custom"'))
    r = run("info", "--model", folder)
    check("unknown architecture: info says the head count comes from config.json alone",
          r.rc == 0 and "heads from: config.json alone" in r.out, r)
    r = run("info", "--model", MODEL)
    check("known architecture: info says the name confirms the head count",
          r.rc == 0 and "heads from: the architecture name vit_tiny_patch16_224" in r.out, r)


def main():
    if not tally.check_model():
        sys.exit(tally.finish())
    with tempfile.TemporaryDirectory() as tmp:
        nesting_rows(tmp)
        overflow_rows(tmp)
        budget_rows()
        message_rows(tmp)
    sys.exit(tally.finish())


if __name__ == "__main__":
    main()
