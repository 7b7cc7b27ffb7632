"""`vitscope explain` for the pages on what attention is, through the real
binary and default model: each question writes its CSV contract, cross-
attention with the same photo on both sides is that photo's self-attention,
the permutation seed is honoured, and bad input (a missing, unreadable or
broken --compare photo, an unknown --question, a query a page cannot use)
gets one line `vitscope: error: ...`, exit 2, and no file (nor OUT.tmp).
The numbers themselves are checked against NumPy in
tests/reference/property_questions_test.py."""
import csv
import io
import os
import sys
import tempfile

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import CHELSEA, DOG, MODEL, Tally, run_vitscope as run

tally = Tally()
check = tally.check


def explain(tmp, name, *args):
    out = os.path.join(tmp, name + ".csv")
    r = run("explain", *args, "--model", MODEL, "--csv", out)
    text = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    return r, text, list(csv.DictReader(io.StringIO(text)))


def expect_error(tmp, name, args, must_mention):
    out = os.path.join(tmp, "refused.csv")
    r = run("explain", "--model", MODEL, "--csv", out, *args)  # args last: "--compare" may end the line
    err = r.stderr.strip()
    ok = (r.returncode == 2 and r.stdout == "" and len(err.splitlines()) == 1
          and err.startswith("vitscope: error: ") and must_mention.lower() in err.lower()
          and not os.path.exists(out) and not os.path.exists(out + ".tmp"))
    check(name, ok, f"exit {r.returncode}, stderr {err!r}, files {os.listdir(tmp)}")


def test_contracts(tmp):
    headers = {
        "global": ("layer,head,mass_same,mass_1,mass_2_3,mass_4_7,mass_8_plus,mass_far_quarter,"
                   "mass_beyond_3_without_high_norm,mass_high_norm", 36, []),
        "dynamic": ("layer,head,jsd", 36, ["--compare", CHELSEA]),
        "permutation": ("with_pos_max_abs_diff,without_pos_max_abs_diff,top1_with_pos,top1_without_pos", 1,
                        ["--seed", 3]),
        "position": ("row,col,cosine", 196, []),
        "cross": ("key,row,col,score,scaled,weight", 197, ["--compare", CHELSEA, "--layer", 4, "--head", 2]),
        "mlp": ("part,norm", 3 + 5 + 3, ["--layer", 6]),
    }
    for q, (header, count, extra) in headers.items():
        r, text, rows = explain(tmp, q, DOG, "--question", q, "--patch", "5,7", *extra)
        check(f"{q}: header and {count} rows", r.returncode == 0 and text.startswith(header + "\n")
              and len(rows) == count, r.stderr + text[:200])
    _, _, rows = explain(tmp, "global", DOG, "--question", "global", "--patch", "5,7")
    sums = [sum(float(x[k]) for k in ("mass_same", "mass_1", "mass_2_3", "mass_4_7", "mass_8_plus")) for x in rows]
    check("global: bands hold at most the whole row (CLS left out)", all(0 < s <= 1 + 1e-6 for s in sums), sums)
    check("global: the far quarter is within the bands' total",
          all(float(x["mass_far_quarter"]) <= s + 1e-6 for x, s in zip(rows, sums)))
    _, _, rows = explain(tmp, "dyn_same", DOG, "--question", "dynamic", "--compare", DOG, "--query", "cls")
    check("dynamic: the same photo twice gives JSD ~0", rows and max(float(x["jsd"]) for x in rows) < 1e-6,
          [x["jsd"] for x in rows[:5]])
    _, _, rows = explain(tmp, "position", DOG, "--question", "position", "--patch", "5,7")
    self_row = [x for x in rows if x["row"] == "5" and x["col"] == "7"]
    check("position: the query's own cosine is 1", len(self_row) == 1 and abs(float(self_row[0]["cosine"]) - 1) < 1e-6)


def test_cross_with_the_same_photo_is_self_attention(tmp):
    _, _, cross = explain(tmp, "cross_self", DOG, "--question", "cross", "--compare", DOG, "--patch", "3,9",
                          "--layer", 5, "--head", 0)
    r = run("attention", DOG, "--model", MODEL, "--layer", 5, "--head", 0, "--patch", "3,9")
    own = list(csv.DictReader(io.StringIO(r.stdout)))
    same_keys = [(x["key"], x["row"], x["col"]) for x in cross] == [(x["key"], x["row"], x["col"]) for x in own]
    # Two forward passes of the same photo agree to float rounding, not always
    # to the last bit (Eigen's vectorised sums depend on the buffers' alignment):
    # scores relative to the row's largest |score|, weights absolute.
    worst = 1.0
    if same_keys and cross:
        worst = 0.0
        for k in ("score", "scaled", "weight"):
            a, b = [float(x[k]) for x in cross], [float(x[k]) for x in own]
            scale = 1.0 if k == "weight" else max(abs(v) for v in b)
            worst = max(worst, max(abs(u - v) for u, v in zip(a, b)) / scale)
    check("cross with A = B equals `vitscope attention`", same_keys and len(cross) == 197 and worst < 1e-5,
          f"worst difference {worst:.2e}")


def test_seed(tmp):
    # The without-positions difference is float rounding (~1e-5) and may change
    # from run to run; the with-positions one is a real difference between two
    # runs, the same for the same seed up to rounding.
    def same(a, b):
        return (a and b and abs(float(a["with_pos_max_abs_diff"]) / float(b["with_pos_max_abs_diff"]) - 1) < 1e-5
                and a["top1_with_pos"] == b["top1_with_pos"] and a["top1_without_pos"] == b["top1_without_pos"])

    runs = [(explain(tmp, f"perm_{i}", DOG, "--question", "permutation", *args)[2] or [None])[0]
            for i, args in enumerate([["--seed", 11], ["--seed", 11], ["--seed", 12], [], ["--seed", 0]])]
    check("permutation: the same seed gives the same numbers", same(runs[0], runs[1]), runs[:2])
    check("permutation: another seed gives another with-positions difference", runs[2] and not same(runs[0], runs[2])
          and float(runs[2]["without_pos_max_abs_diff"]) < 1e-3, runs[2])
    check("permutation: the default seed is 0", same(runs[3], runs[4]), runs[3:])


def test_bad_input(tmp):
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    text = os.path.join(bad, "notes.png")
    with open(text, "w") as f:
        f.write("not an image at all\n" * 10)
    half = os.path.join(bad, "half.png")
    data = open(CHELSEA, "rb").read()
    with open(half, "wb") as f:
        f.write(data[:len(data) // 2])
    out_dir = os.path.join(bad, "out")
    os.makedirs(out_dir)
    e = lambda name, args, mention: expect_error(out_dir, name, args, mention)  # noqa: E731
    e("unknown --question", [DOG, "--question", "nonsense", "--patch", "1,1"], "nonsense")
    e("dynamic without --compare", [DOG, "--question", "dynamic", "--patch", "1,1"], "--compare")
    e("cross without --compare", [DOG, "--question", "cross", "--patch", "1,1", "--layer", 0, "--head", 0], "--compare")
    e("--compare with no value", [DOG, "--question", "dynamic", "--patch", "1,1", "--compare"], "--compare")
    e("--compare a missing file", [DOG, "--question", "dynamic", "--patch", "1,1", "--compare",
                                   os.path.join(bad, "nope.jpg")], "nope.jpg")
    e("--compare not an image", [DOG, "--question", "dynamic", "--patch", "1,1", "--compare", text], "not an image")
    e("--compare a truncated PNG", [DOG, "--question", "cross", "--patch", "1,1", "--layer", 0, "--head", 0,
                                    "--compare", half], "half.png")
    e("--compare a folder", [DOG, "--question", "dynamic", "--patch", "1,1", "--compare", bad], "director")
    e("--compare on a one-photo question", [DOG, "--question", "global", "--patch", "1,1", "--compare", CHELSEA],
      "--compare")
    e("global with the CLS query", [DOG, "--question", "global", "--query", "cls"], "patch")
    e("position with the CLS query", [DOG, "--question", "position", "--query", "cls"], "patch")
    e("global without a query", [DOG, "--question", "global"], "--patch")
    e("mlp without --layer", [DOG, "--question", "mlp", "--patch", "1,1"], "--layer")
    e("cross without --head", [DOG, "--question", "cross", "--compare", CHELSEA, "--patch", "1,1", "--layer", 0], "--head")
    e("--layer out of range", [DOG, "--question", "mlp", "--patch", "1,1", "--layer", 12], "--layer")
    e("--patch outside the grid", [DOG, "--question", "global", "--patch", "14,0"], "grid")
    e("--seed negative", [DOG, "--question", "permutation", "--seed", -1], "--seed")
    e("--seed not a number", [DOG, "--question", "permutation", "--seed", "abc"], "--seed")
    e("a bad --size", [DOG, "--question", "dynamic", "--compare", CHELSEA, "--patch", "1,1", "--size", 100], "--size")
    check("nothing left in the output folder", os.listdir(out_dir) == [], os.listdir(out_dir))


def main():
    if not tally.check_model():
        return tally.finish()
    with tempfile.TemporaryDirectory(prefix="vitscope_explain_") as tmp:
        test_contracts(tmp)
        test_cross_with_the_same_photo_is_self_attention(tmp)
        test_seed(tmp)
        test_bad_input(tmp)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
