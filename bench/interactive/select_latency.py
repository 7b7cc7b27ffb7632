#!/usr/bin/python3
"""Time from selecting another query patch to the end of the frame showing its
maps, and the number of frames it took (1: nothing but the maps is redone),
measured inside the window (--frame-stats' select_to_maps).

    /usr/bin/python3 bench/interactive/select_latency.py --runs 20 --sizes 224,448
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interactive import arguments, load, run_window, sample_photos, spread, wait_idle  # noqa: E402


def script_for(size, selects, seed=1):
    grid = size // 16
    rng = random.Random(seed)
    lines = ["wait"]
    if size != 224:
        lines.append(f"size {size}")
    lines.append("frames 20")
    previous = None
    for _ in range(selects):
        patch = previous
        while patch == previous:
            patch = (rng.randrange(grid), rng.randrange(grid))
        previous = patch
        lines.append(f"select {patch[0]},{patch[1]}")
        lines.append("frames 15")   # the window watches 10 frames after each select for late re-renders
    lines.append("quit")
    return "\n".join(lines) + "\n"


def main():
    args = arguments(__doc__, runs=20, runs_help="selects per size").parse_args()
    dog = [x for x in sample_photos() if os.path.basename(x) == "dog.jpg"][0]
    print(f"load before: {load()}")
    for size in map(int, args.sizes.split(",")):
        if not args.no_wait_idle:
            wait_idle()
        r = run_window(args, dog, script_for(size, args.runs))
        sel = r.stats["select_to_maps"]
        print(f"\n{size} px ({len(sel)} selects, window {args.window_size})")
        print("  " + r.load_line())
        print("  select -> end of the frame showing the new maps:", spread([x["ms"] for x in sel]))
        print("  that frame alone:                               ", spread([x["frame_ms"] for x in sel]))
        print("  frames it took:", sorted({x["frames"] for x in sel}),
              "  maps shown / re-rendered in the first frame:", sorted({(x["maps"], x["maps_rendered"]) for x in sel}),
              "  model worker ran:", any(x["worker_ran"] for x in sel),
              "  query shown:", all(x["query_shown"] for x in sel))
        idle = r.stats["otherwise"]
        print(f"  all frames of the run: mean {idle['mean_ms']:.1f} ms, p95 {idle['p95_ms']:.1f} ms")


if __name__ == "__main__":
    main()
