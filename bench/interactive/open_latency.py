#!/usr/bin/python3
"""Time from opening a photo to the end of the first frame whose maps all show
its trace, measured inside the window (--frame-stats' open_to_maps), at each
input size: one window per size, opening the sample photos in turn. Then the
same for a new input size: one window switching between the sizes.

    /usr/bin/python3 bench/interactive/open_latency.py --runs 10 --sizes 224,448
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interactive import arguments, load, run_window, sample_photos, spread, wait_idle  # noqa: E402


def script_for(size, opens, photos):
    lines = ["wait"]
    if size != 224:
        lines.append(f"size {size}")   # the whole window's input size; later photos keep it
    for i in range(opens):
        lines.append(f"open-image {photos[(i + 1) % len(photos)]}")  # each differs from the one before
        lines.append("frames 5")
    lines.append("quit")
    return "\n".join(lines) + "\n"


def size_script(sizes, changes):
    lines = ["wait"]
    for i in range(changes):
        lines.append(f"size {sizes[(i + 1) % len(sizes)]}")   # each differs from the one before
        lines.append("frames 5")
    lines.append("quit")
    return "\n".join(lines) + "\n"


def report(opens):
    print("  open -> first frame with every map from the new trace:", spread([o["ms"] for o in opens]))
    print("    of which the forward pass:                    ", spread([o["forward_ms"] for o in opens]))
    print("    open -> start of the frame adopting the trace:", spread([o["to_trace_frame_ms"] for o in opens]))
    print("    that frame (every map drawn again):           ", spread([o["frame_ms"] for o in opens]))
    print("  frames drawn while the worker ran (each takes cores from it):",
          spread([o.get("frames_while_working", 0) for o in opens], unit="frames"))
    print("  frames from the trace's arrival to every map drawn:", sorted({o["frames_after_trace"] for o in opens}),
          "  maps per frame:", sorted({o["maps"] for o in opens}))


def main():
    args = arguments(__doc__, runs=10, runs_help="photos opened per size").parse_args()
    photos = sample_photos()
    print(f"load before: {load()}; photos: {', '.join(os.path.basename(x) for x in photos)}")
    for size in map(int, args.sizes.split(",")):
        if not args.no_wait_idle:
            wait_idle()
        r = run_window(args, photos[0], script_for(size, args.runs, photos))
        opens = [o for o in r.stats["open_to_maps"] if o["input_px"] == size and o.get("kind", "open") == "open"]
        print(f"\n{size} px ({len(opens)} opens, window {args.window_size})")
        print("  " + r.load_line())
        report(opens)
        for o in opens:
            print(f"    {o['photo']:<14} {o['ms']:7.1f} ms  forward {o['forward_ms']:6.1f}  frame {o['frame_ms']:5.1f}")
    sizes = [int(x) for x in args.sizes.split(",")]
    if len(sizes) > 1:
        if not args.no_wait_idle:
            wait_idle()
        r = run_window(args, photos[0], size_script(sizes, args.runs))
        changes = [o for o in r.stats["open_to_maps"] if o.get("kind") == "size"]
        print(f"\nnew input size on {os.path.basename(photos[0])} ({len(changes)} changes, window {args.window_size})")
        print("  " + r.load_line())
        for size in sizes:
            print(f"  to {size} px:")
            report([o for o in changes if o["input_px"] == size])


if __name__ == "__main__":
    main()
