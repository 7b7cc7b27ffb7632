"""`vitscope explain --csv` for the follow-up questions (scaling, heads,
quadratic, cls, rollout, ablation) through the real binary and default model:
the quadratic timing table's format and sizes, and bad input refused with one
line `vitscope: error: ...`, exit 2, empty stdout and no OUT.csv (nor
OUT.csv.tmp) left behind. The numbers themselves are checked against NumPy in
tests/reference/explain_why_test.py."""
import csv
import json
import os
import shutil
import struct
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import DOG, MODEL, Tally, run_vitscope as run

tally = Tally()
check = tally.check


def explain(out, question, *extra, model=MODEL, env_extra=None):
    return run("explain", DOG, "--model", model, "--question", question, "--csv", out, *extra, env_extra=env_extra)


def expect_refusal(name, tmp, question, extra, must_mention, model=MODEL, env_extra=None):
    out = os.path.join(tmp, name.replace(" ", "_") + ".csv")
    r = explain(out, question, *extra, model=model, env_extra=env_extra)
    err = r.stderr.strip()
    left = [p for p in (out, out + ".tmp") if os.path.exists(p)]
    ok = (r.returncode == 2 and r.stdout == "" and len(err.splitlines()) == 1
          and err.startswith("vitscope: error: ") and must_mention.lower() in err.lower() and not left)
    check(name, ok, f"exit {r.returncode}, stderr {err!r}, files left {left}")


def headless_copy(tmp):
    """The default model without its classifier: head.weight and head.bias
    dropped from the safetensors header (their bytes stay, unreferenced)."""
    d = os.path.join(tmp, "headless")
    os.makedirs(d)
    with open(os.path.join(MODEL, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    config["num_classes"] = 0
    config.pop("label_names", None)
    with open(os.path.join(d, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)
    data = open(os.path.join(MODEL, "model.safetensors"), "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    del header["head.weight"], header["head.bias"]
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(os.path.join(d, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(raw)) + raw + data[8 + n:])
    return d


def test_quadratic_table(tmp):
    out = os.path.join(tmp, "quadratic.csv")
    r = explain(out, "quadratic", "--sizes", "224,256")
    if not check("quadratic --sizes 224,256 runs", r.returncode == 0, r.stderr.strip()):
        return
    rows = list(csv.reader(open(out, encoding="utf-8")))
    check("quadratic: header", rows[0] == ["size", "tokens", "attention_weights", "attention_bytes", "linear_ms",
                                           "attention_ms"], rows[0])
    check("quadratic: one row per size, in order", [row[0] for row in rows[1:]] == ["224", "256"], rows)
    for row in rows[1:]:
        size, tokens, weights, nbytes = (int(v) for v in row[:4])
        n = 1 + (size // 16) ** 2
        check(f"quadratic {size}: N = 1 + grid^2, 12 x 3 x N^2 weights of 4 bytes",
              tokens == n and weights == 12 * 3 * n * n and nbytes == 4 * weights, row)
        check(f"quadratic {size}: both parts of the time measured", float(row[4]) > 0 and float(row[5]) > 0, row)


def test_refusals(tmp):
    expect_refusal("unknown question", tmp, "colour", [], "unknown --question 'colour'")
    expect_refusal("size not a multiple of the patch", tmp, "heads", ["--size", "300"], "not a multiple of the patch")
    expect_refusal("quadratic size not a multiple of the patch", tmp, "quadratic", ["--sizes", "224,300"],
                   "300 px is not a multiple of the patch size 16")
    expect_refusal("quadratic sizes not numbers", tmp, "quadratic", ["--sizes", "224,big"], "--sizes")
    expect_refusal("quadratic sizes empty item", tmp, "quadratic", ["--sizes", "224,,448"], "--sizes")
    # 224 px fits in 200 MiB (the photo's own trace: 15 MB); 640 px would take 0.42 GiB.
    expect_refusal("quadratic size over the memory budget", tmp, "quadratic", ["--sizes", "224,640"], "memory budget",
                   env_extra={"VITSCOPE_MEMORY_BUDGET": "200M"})
    expect_refusal("size over the memory budget", tmp, "rollout", ["--size", "640"], "memory budget",
                   env_extra={"VITSCOPE_MEMORY_BUDGET": "200M"})
    expect_refusal("ablation without --head", tmp, "ablation", ["--layer", "3"], "missing --head")
    expect_refusal("ablation without --layer", tmp, "ablation", ["--head", "1"], "missing --layer")
    expect_refusal("ablation head out of range", tmp, "ablation", ["--layer", "3", "--head", "3"], "--head 3 is out of range")
    expect_refusal("ablation layer out of range", tmp, "ablation", ["--layer", "12", "--head", "0"], "--layer 12")
    headless = headless_copy(tmp)
    expect_refusal("cls on a model without a classifier", tmp, "cls", [], "this model has no classifier head",
                   model=headless)
    expect_refusal("ablation on a model without a classifier", tmp, "ablation", ["--layer", "0", "--head", "0"],
                   "this model has no classifier head", model=headless)
    out = os.path.join(tmp, "headless_rollout.csv")
    r = explain(out, "rollout", model=headless)
    check("rollout works on a model without a classifier", r.returncode == 0 and os.path.isfile(out), r.stderr.strip())


def main():
    if not os.path.isfile(os.path.join(MODEL, "model.safetensors")):
        check("default model present", False, f"no {MODEL}/model.safetensors (set VITSCOPE_MODEL)")
        return tally.finish()
    tmp = tempfile.mkdtemp(prefix="vitscope_explain_why_cli_")
    try:
        test_quadratic_table(tmp)
        test_refusals(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
