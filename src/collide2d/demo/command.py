"""``collide2d demo`` on the command line: options, the run loop and its report."""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
import time

from collide2d.demo.bullets import BulletsDemo, bullet_range
from collide2d.demo.stacking import StackDemo, stack_world, warm_up_manifolds
from collide2d.demo.window import Demo, Timing, _Clock, _import_pygame
from collide2d.demo.world import OVERLAYS, World


HELP = "a live pygame window: moving ellipses and other shapes, collisions outlined in red"
DESCRIPTION = (
    "Moving and rotating shapes bouncing in a window; every frame query_pairs finds the colliding "
    "pairs, outlined in red. Needs pygame-ce: pip install 'collide2d[demo]'. Press H in the window "
    "for the keys."
)

MAX_STACK = 10_000  # boxes of the stacking mode: 330,000 px tall, far beyond any window

# -- command line ---------------------------------------------------------------------------------


def _size(text):
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, got {text!r}") from None
    if width < 64 or height < 64:
        raise argparse.ArgumentTypeError("the window must be at least 64x64")
    return width, height


def _overlay_list(text):
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "all" in names:
        return list(OVERLAYS)
    bad = [name for name in names if name not in OVERLAYS]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown overlay {', '.join(bad)}; choose from {', '.join(OVERLAYS)} or all")
    return names


def _seed(text):
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if seed < 0:  # numpy.random.default_rng takes none below 0
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return seed


def add_arguments(parser):
    """Add the ``demo`` options to an argparse parser (and set ``run`` to :func:`run_from_args`)."""
    parser.add_argument("--headless", action="store_true", help="no window: SDL's dummy video driver")
    parser.add_argument("--frames", type=int, default=None, help="stop after N frames (headless default: 300)")
    parser.add_argument("--screenshot", metavar="PNG", help="save the last frame to this file")
    parser.add_argument("--seed", type=_seed, default=0, help="random seed of the scene (default 0)")
    parser.add_argument("--count", type=int, default=None, help="number of ellipses (default 500)")
    parser.add_argument(
        "--extras",
        type=int,
        default=4,
        help="number of circles, boxes, rotated boxes, polygons and segments, each (default 4)",
    )
    modes = parser.add_mutually_exclusive_group()  # one scene at a time: no option silently loses
    modes.add_argument(
        "--physics", action="store_true", help="start in the physics mode (shapes push each other apart)"
    )
    modes.add_argument(
        "--bullets",
        action="store_true",
        help="the bullets mode: fast small shapes fired through thin walls and spinning needles, each "
        "stopped at its first contact (time of impact); click to fire",
    )
    modes.add_argument(
        "--stack",
        action="store_true",
        help="the stacking mode: ten boxes on a floor under gravity, held by impulses at the points of "
        "contact_manifold (--count sets the number of boxes when given)",
    )
    parser.add_argument(
        "--overlays",
        type=_overlay_list,
        default=[],
        metavar="LIST",
        help=f"comma-separated, from: {', '.join(OVERLAYS)}, all",
    )
    parser.add_argument("--size", type=_size, default=(1280, 800), metavar="WxH", help="window size (default 1280x800)")
    parser.add_argument("--fps", type=float, default=60.0, help="frame-rate cap of the window, 0 for none (default 60)")
    parser.add_argument("--timing", action="store_true", help="print the frame rate and per-phase times at the end")
    parser.set_defaults(run=run_from_args)
    return parser


def _unwritable(path):
    """Why an image cannot be saved at ``path`` (checked before the demo runs), or None."""
    path = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def run_from_args(args, out=None):
    """Run the demo for parsed arguments; return the exit code."""
    out = sys.stdout if out is None else out
    count = args.count if args.count is not None else (10 if args.stack else 500)
    if count < 0 or args.extras < 0:
        print("collide2d demo: --count and --extras must be >= 0", file=sys.stderr)
        return 2
    if args.stack and count > MAX_STACK:  # stack_world adds the boxes one by one: a million took hours
        print(f"collide2d demo: --stack takes at most {MAX_STACK} boxes (--count), got {count}", file=sys.stderr)
        return 2
    frames = args.frames if args.frames is not None else (300 if args.headless else None)
    if frames is not None and frames < 1:
        print("collide2d demo: --frames must be >= 1", file=sys.stderr)
        return 2
    if not 0.0 <= args.fps < math.inf:  # NaN fails too
        print(f"collide2d demo: --fps must be a finite number >= 0 (0 for no cap), got {args.fps!r}", file=sys.stderr)
        return 2
    if args.screenshot:
        problem = _unwritable(args.screenshot)
        if problem:
            print(f"collide2d demo: --screenshot {args.screenshot}: {problem}", file=sys.stderr)
            return 2
    try:
        _import_pygame(args.headless)
    except ImportError as error:
        print(f"collide2d demo: {error}", file=sys.stderr)
        return 2
    width, height = args.size
    if args.bullets:
        world = bullet_range(width, height)
        demo = BulletsDemo(world, headless=args.headless, seed=args.seed)
    elif args.stack:
        world = stack_world(count, width, height, seed=args.seed)
        demo = StackDemo(world, headless=args.headless, seed=args.seed)
    else:
        world = World.random(count, args.extras, seed=args.seed, width=width, height=height, separated=args.physics)
        demo = Demo(world, headless=args.headless, physics=args.physics, overlays=args.overlays, seed=args.seed)
    try:
        # a window may turn on any overlay: compile everything now, not in the middle of a drag;
        # a window shows that it is waiting for the compiler (and can be closed meanwhile)
        if args.headless:
            compile_seconds = world.warm_up(measures=args.physics or bool(args.overlays))
        else:
            print("compiling the kernels (seconds on the first run, cached on disk after)...", file=sys.stderr)
            compile_seconds = demo.warm_up_in_view(measures=True)
        if args.stack:
            compile_seconds += warm_up_manifolds()
        if compile_seconds > 2.0:
            print(f"compiled the kernels in {compile_seconds:.1f} s (cached on disk for the next run)", file=sys.stderr)
        demo.frame(events=[])
        # Numba leaves a large heap of Python objects behind; without this, a full garbage
        # collection walks it every few hundred frames and the frame that triggers it stalls.
        gc.collect()
        gc.freeze()
        demo.timing = Timing()
        demo.clock = _Clock(demo.timing)
        pacer = demo.pg.time.Clock()
        cap = 0 if args.headless else args.fps
        start = time.perf_counter()
        count = 0
        while demo.running and (frames is None or count < frames - 1):
            demo.frame()
            if not args.headless:
                demo.pg.display.flip()
            count += 1
            if cap:
                pacer.tick(cap)
        elapsed = time.perf_counter() - start
        if args.screenshot:
            try:
                demo.screenshot(args.screenshot)
            except (demo.pg.error, OSError) as error:  # checked above, but the disk may still refuse
                print(f"collide2d demo: --screenshot {args.screenshot}: {error}", file=sys.stderr)
                return 2
        if args.headless or args.timing:
            _report(demo, count, elapsed, out)
    finally:
        demo.close()
    return 0


def _report(demo, count, elapsed, out):
    counts = demo.world.kind_counts()
    mix = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
    shapes, *rest = demo.counts()
    print(f"{shapes} ({mix}), {', '.join(rest)} in the last frame", file=out)
    if count:
        print(f"{count} frames in {elapsed:.2f} s: {count / elapsed:.1f} frames/s (wall clock)", file=out)
        for which in ("cpu", "wall"):
            ms = demo.timing.per_frame_ms(which)
            total = sum(ms.values())
            split = "  ".join(f"{name} {value:.2f}" for name, value in ms.items())
            rate = 1e3 / total if total else 0.0
            print(f"per frame, {which} ms: {split}  total {total:.2f} ({rate:.0f} frames/s)", file=out)


def main(argv=None) -> int:
    """``collide2d demo [options]`` as a function; return the exit code."""
    parser = argparse.ArgumentParser(prog="collide2d demo", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return args.run(args)
