#!/usr/bin/env python
"""Benchmark ``c2.contact_manifold`` against ``c2.contact`` on the same pairs of boxes.

Usage::

    .venv/bin/python benchmarks/bench_manifold.py            # full run (about a minute idle)
    .venv/bin/python benchmarks/bench_manifold.py --quick    # small sizes, for a smoke test

Pairs: two rotated boxes (half-sizes 0.5 to 2, any angle), the second's centre within 3 of the
first's (about half the pairs overlap), and the same with axis-aligned boxes resting on a floor box
(face to face: the two-point case). Single pairs: the mean time of one call over ``--single`` calls
(best of ``--repeat``); batches: one call on ``--pairs`` pairs (best of ``--repeat``). The ratio is
manifold / contact. Every JIT path is called once before it is timed.
Prints markdown on standard output and writes no files.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import collide2d as c2
from common import LAST_CPU, SEED, best_of, table  # noqa: E402 (benchmarks/ is on sys.path)


def workloads(n, seed=SEED):
    rng = np.random.default_rng(seed)
    center = rng.uniform(-100, 100, (n, 2))
    a = c2.RotatedBox(center, rng.uniform(0.5, 2, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    b = c2.RotatedBox(center + rng.uniform(-3, 3, (n, 2)), rng.uniform(0.5, 2, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    x = rng.uniform(-50, 50, n)
    floor = c2.Box((-100.0, -1.0), (100.0, 0.0))
    resting = c2.Box(np.stack([x, rng.uniform(-0.05, 0.0, n)], -1), np.stack([x + 1.0, np.full(n, 1.0)], -1))
    return {"rotated boxes": (a, b), "box resting on a floor box": (floor, resting)}


def time_single(function, pairs, calls, repeat):
    """Best of ``repeat`` mean seconds (wall, CPU) per call of ``function(a, b)`` over ``pairs``."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        for k in range(calls):
            a, b = pairs[k % len(pairs)]
            function(a, b)
        best_wall = min(best_wall, (time.perf_counter() - start) / calls)
        best_cpu = min(best_cpu, (time.process_time() - start_cpu) / calls)
    return best_wall, best_cpu


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--pairs", type=int, default=200_000)
    parser.add_argument("--single", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.quick:
        args.pairs, args.single, args.repeat = 2_000, 500, 2
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, {platform.processor() or platform.machine()}")
    rows = []
    # single pairs from a batch of their own: an element of a polygon batch holds a copy of the
    # batch's whole vertex table (12.8 MB for 200,000 boxes)
    few = workloads(min(1000, args.pairs))
    for name, (a, b) in workloads(args.pairs).items():
        fa, fb = few[name]
        singles = [(fa[k] if fa.shape else fa, fb[k]) for k in range(len(fb))]
        for f in (c2.contact, c2.contact_manifold):  # compile before timing
            f(*singles[0])
            f(a, b)
        contact_single = time_single(c2.contact, singles, args.single, args.repeat)
        manifold_single = time_single(c2.contact_manifold, singles, args.single, args.repeat)
        contact_batch, _ = best_of(lambda: c2.contact(a, b), args.repeat)
        contact_batch_cpu = LAST_CPU[0]
        manifold_batch, m = best_of(lambda: c2.contact_manifold(a, b), args.repeat)
        manifold_batch_cpu = LAST_CPU[0]
        two = float(np.mean(m.count == 2))
        rows.append([name, "single pair", f"{contact_single[0] * 1e6:.2f} us ({contact_single[1] * 1e6:.2f} CPU)",
                     f"{manifold_single[0] * 1e6:.2f} us ({manifold_single[1] * 1e6:.2f} CPU)",
                     f"{manifold_single[0] / contact_single[0]:.2f} ({manifold_single[1] / contact_single[1]:.2f} CPU)", ""])
        rows.append([name, f"batch of {args.pairs:,}", f"{contact_batch * 1e9 / args.pairs:.1f} ns/pair ({contact_batch_cpu * 1e9 / args.pairs:.1f} CPU)",
                     f"{manifold_batch * 1e9 / args.pairs:.1f} ns/pair ({manifold_batch_cpu * 1e9 / args.pairs:.1f} CPU)",
                     f"{manifold_batch / contact_batch:.2f} ({manifold_batch_cpu / contact_batch_cpu:.2f} CPU)", f"{two:.0%}"])
    print(table(["pairs", "call", "contact", "contact_manifold", "ratio manifold / contact", "pairs with 2 points"], rows))


if __name__ == "__main__":
    main()
