#!/usr/bin/python3
"""Resident memory of the window (VmRSS) over many photos opened in a row,
cycling the sample photos and waiting for each trace: read inside the window
at the end of the first frame showing each new photo's maps (--frame-stats'
open_to_maps rss_kib, from /proc/self/status), and from outside
(/proc/PID/status every 0.25 s), beside malloc's bytes in use (mallinfo2).
After the first `--baseline` photos the resident set must not grow.

    /usr/bin/python3 bench/interactive/window_rss.py --photos 200 --baseline 10
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interactive import arguments, load, run_window, sample_photos  # noqa: E402


def main():
    p = arguments(__doc__)
    p.add_argument("--photos", type=int, default=200)
    p.add_argument("--baseline", type=int, default=10)
    p.add_argument("--size", type=int, default=224, help="the model input's side for the whole run")
    args = p.parse_args()
    photos = sample_photos()
    lines = ["wait"] + ([f"size {args.size}"] if args.size != 224 else [])
    for i in range(args.photos):
        lines.append(f"open-image {photos[(i + 1) % len(photos)]}")   # waits for the trace, then 2 frames
    lines += ["frames 10", "quit"]
    print(f"load before: {load()}; {args.photos} photos at {args.size} px cycling "
          f"{', '.join(os.path.basename(x) for x in photos)}")
    r = run_window(args, photos[0], "\n".join(lines) + "\n")
    opens = r.stats["open_to_maps"]
    if len(opens) != args.photos:
        sys.exit(f"{len(opens)} opens measured, {args.photos} asked for")
    rss = [o["rss_kib"] for o in opens]
    at_base, at_end = rss[args.baseline - 1], rss[-1]
    print(f"VmRSS after photo {args.baseline}: {at_base / 1024:.1f} MiB; after photo {args.photos}: {at_end / 1024:.1f} MiB; "
          f"growth {(at_end - at_base) / 1024:+.1f} MiB")
    # The live heap holds the open photo's pixels: compare photo `baseline` with the last opening of the same photo.
    heap = [o["heap_in_use_kib"] for o in opens]
    b = args.baseline - 1
    same = max(i for i in range(b, len(opens)) if opens[i]["photo"] == opens[b]["photo"])
    print(f"heap in use (malloc's live bytes, mallinfo2) with {opens[b]['photo']} open, at photo {b + 1}: "
          f"{heap[b] / 1024:.1f} MiB; at photo {same + 1}: {heap[same] / 1024:.1f} MiB; growth {heap[same] - heap[b]:+d} KiB "
          f"(VmRSS {(rss[same] - rss[b]) / 1024:+.1f} MiB between the two)")
    later = rss[args.baseline - 1:]
    print(f"  from photo {args.baseline} on: lowest {min(later) / 1024:.1f} MiB, highest {max(later) / 1024:.1f} MiB")
    step = max(1, args.photos // 10)
    print("  after photo:", "  ".join(f"{i + 1}: {rss[i] / 1024:.1f}" for i in range(step - 1, args.photos, step)))
    outside = [kib for _, kib in r.rss_samples]
    if outside:
        print(f"  from outside: {len(outside)} reads, highest {max(outside) / 1024:.1f} MiB, "
              f"last {outside[-1] / 1024:.1f} MiB")
    print(r.load_line())


if __name__ == "__main__":
    main()
