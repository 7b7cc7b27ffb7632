#!/usr/bin/python3
"""Which kernels run, and that every set computes the same model.

`vitscope info` names the kernel set: the fastest the CPU supports
(AVX-512 where it has AVX512F/BW/DQ/VL, else AVX2 + FMA, else Eigen), or a
slower one VITSCOPE_ISA names (v3: the AVX2 kernels, as on a CPU without
AVX-512; eigen: the Eigen reference, as on a CPU without AVX2). Each set's
attention weights and class probabilities agree with the Eigen reference's
to 1e-5 (the printed digits; the sums differ only in order)."""
import os
import subprocess
import sys

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", d) for d in ("support", "reference")]
from script_support import BIN, DOG, Tally

tally = Tally()
check = tally.check

with open("/proc/cpuinfo", encoding="utf-8") as f:
    flags = set(next((line.split() for line in f if line.startswith("flags")), []))
has_v4 = {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= flags
has_v3 = {"avx2", "fma"} <= flags
NAMES = {"v4": "AVX-512 (x86-64-v4)", "v3": "AVX2+FMA (x86-64-v3)", "eigen": "Eigen (reference)"}


def run(isa, *args):
    env = dict(os.environ)
    env.pop("VITSCOPE_ISA", None)
    if isa:
        env["VITSCOPE_ISA"] = isa
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=300)


def kernels_line(isa):
    out = run(isa, "info").stdout
    return next((line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("kernels: ")), "")


def numbers(isa, size="224"):
    """Per key: the attention row of patch (0, 1) in layer 5, head 1, and the top-5 probabilities."""
    att = run(isa, "attention", DOG, "--layer", "5", "--head", "1", "--patch", "0,1", "--size", size)
    top = run(isa, "classify", DOG, "--top", "5", "--size", size)
    rows = [line.split(",") for line in att.stdout.splitlines()[1:]]
    weights = [float(r[-1]) for r in rows]
    probs = [(line.split()[2], float(line.split()[1])) for line in top.stdout.splitlines()]
    return att.returncode == 0 and top.returncode == 0, weights, probs


best = "v4" if has_v4 else "v3" if has_v3 else "eigen"
check(f"unforced: the fastest set the CPU has ({NAMES[best]})", kernels_line(None).startswith(NAMES[best]),
      kernels_line(None))
check("VITSCOPE_ISA=eigen: the Eigen reference, as on a CPU without AVX2",
      kernels_line("eigen").startswith(NAMES["eigen"]), kernels_line("eigen"))
if has_v3:
    check("VITSCOPE_ISA=v3: the AVX2 kernels, as on a CPU without AVX-512", kernels_line("v3").startswith(NAMES["v3"]),
          kernels_line("v3"))

# 224 px, and 32 px: 5 tokens, fewer than a head's 64 dimensions (each
# kernel buffer sized by the tokens, not the head, is used at its smallest).
for size, tokens in (("224", 197), ("32", 5)):
    ok, ref_weights, ref_probs = numbers("eigen", size)
    check(f"{size} px: the Eigen reference runs", ok and len(ref_weights) == tokens and len(ref_probs) == 5)
    for isa in [i for i, has in (("v3", has_v3), ("v4", has_v4)) if has]:
        ok, weights, probs = numbers(isa, size)
        check(f"{size} px, {isa}: runs", ok)
        worst = max((abs(a - b) for a, b in zip(weights, ref_weights)), default=1.0)
        check(f"{size} px, {isa}: attention weights within 1e-5 of Eigen's", len(weights) == tokens and worst <= 1e-5,
              worst)
        check(f"{size} px, {isa}: the same top-5 classes as Eigen's", [p[0] for p in probs] == [p[0] for p in ref_probs],
              (probs, ref_probs))
        worst_p = max((abs(a[1] - b[1]) for a, b in zip(probs, ref_probs)), default=1.0)
        check(f"{size} px, {isa}: their probabilities within 1e-5", worst_p <= 1e-5, worst_p)
sys.exit(tally.finish())
