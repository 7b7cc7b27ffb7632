#!/usr/bin/python3
"""Peak resident memory (getrusage's ru_maxrss of the child, what
/usr/bin/time -v reports as "Maximum resident set size") of one command-line
forward pass at each input size: `vitscope attention` keeps the full trace
(Q, K, V, every attention matrix, token states), `vitscope classify` keeps
nothing, `vitscope info` loads the model and runs nothing.

    /usr/bin/python3 bench/interactive/forward_memory.py --sizes 224,448,640
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interactive import arguments, default_model, load, sample_photos  # noqa: E402


def peak_kib(cmd):
    """Runs cmd; its peak resident set in KiB (ru_maxrss of the child alone)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)} failed: {err}")
    return usage.ru_maxrss


def main():
    p = arguments(__doc__)
    p.add_argument("--sizes", default="224,448,640")
    p.add_argument("--repeat", type=int, default=3, help="runs per command (the largest peak is kept)")
    args = p.parse_args()
    model = args.model or default_model()
    dog = [x for x in sample_photos() if os.path.basename(x) == "dog.jpg"][0]
    print(f"load before: {load()}; model {os.path.basename(model)}; photo dog.jpg; peak RSS, the largest of {args.repeat} runs")
    base = max(peak_kib([args.bin, "info", "--model", model]) for _ in range(args.repeat))
    print(f"  info (model loaded, no forward): {base / 1024:7.1f} MiB")
    print("  size   tokens   trace (attention)   plain (classify)   trace - plain")
    for size in map(int, args.sizes.split(",")):
        common = ["--model", model, "--size", str(size)]
        trace = max(peak_kib([args.bin, "attention", dog, "--layer", "0", "--head", "0", "--patch", "0,0", *common])
                    for _ in range(args.repeat))
        plain = max(peak_kib([args.bin, "classify", dog, *common]) for _ in range(args.repeat))
        tokens = (size // 16) ** 2 + 1
        print(f"  {size:4d}   {tokens:6d}   {trace / 1024:10.1f} MiB     {plain / 1024:9.1f} MiB    {(trace - plain) / 1024:8.1f} MiB")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
