#!/usr/bin/env python
"""Benchmark the motion operations on capsules and rounded boxes against the segment and box pairs
they round: ``time_of_impact`` (translation and turning) and ``raycast``, single and batched.

Usage::

    .venv/bin/python benchmarks/bench_rounded_motion.py            # batches of 1e4
    .venv/bin/python benchmarks/bench_rounded_motion.py --quick    # batches of 1e3

Each rounded case has a plain twin with the same cores and motions, the rounded partner set back
along the motion by the sum of the radii (so that about as many pairs meet, at similar times: the
hit fractions are printed). Every path is compiled on a small case first; then each case is
timed, best of ``--repeat`` runs, wall and process CPU seconds (all threads). Prints markdown
tables (the ratio is rounded over plain, on CPU seconds) and writes no files.
"""

from __future__ import annotations

import argparse
import platform

import numpy as np
from common import LAST_CPU, best_of, table

import collide2d as c2


def pairs(n, seed=3):
    """``(name, plain a, plain b, rounded a, rounded b, velocity_b)`` batches of ``n`` approaching pairs."""
    rng = np.random.default_rng(seed)
    start = rng.uniform(-1, 1, (n, 2))
    end = start + rng.uniform(-1.5, 1.5, (n, 2))
    y = rng.uniform(-1.0, 1.0, n)
    other = np.stack([np.full(n, 6.0), y], -1)
    v = np.stack([np.full(n, -6.0), -y], -1) + rng.uniform(-0.5, 0.5, (n, 2))
    r = rng.uniform(0.1, 0.4, n)
    lo, size = rng.uniform(-1, 1, (n, 2)), rng.uniform(0.3, 1.5, (n, 2))
    back = other + np.stack([2 * r, np.zeros(n)], -1)  # the rounded partner set back by the sum of the radii
    return [
        ("capsule-capsule / segment-segment", c2.Segment(start, end), c2.Segment(other, other + (0.3, 1.0)),
         c2.Capsule(start, end, r), c2.Capsule(back, back + (0.3, 1.0), r), v),
        ("capsule-rounded box / segment-box", c2.Segment(start, end), c2.Box(other, other + size),
         c2.Capsule(start, end, r), c2.Box(back, back + size, radius=r), v),
        ("rounded box-rounded box / box-box", c2.Box(lo, lo + size), c2.Box(other, other + size),
         c2.Box(lo, lo + size, radius=r), c2.Box(back, back + size, radius=r), v),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="batches of 1e3")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    n = 1000 if args.quick else 10000
    print(f"collide2d {c2.__version__}, numpy {np.__version__}, Python {platform.python_version()}, batches of {n}")
    rows = []
    for name, pa, pb, ra, rb, v in pairs(n):
        for motion, w in (("translation", 0.0), ("turning (2 rad/t)", 2.0)):
            cells = []
            for label, a, b in (("plain", pa, pb), ("rounded", ra, rb)):
                one_a, one_b, one_v = a[0], b[0], tuple(v[0])
                single = lambda: c2.time_of_impact(one_a, one_b, velocity_b=one_v, angular_velocity_a=w)  # noqa: E731
                batch = lambda: c2.time_of_impact(a, b, velocity_b=v, angular_velocity_a=w)  # noqa: E731
                single(), c2.time_of_impact(a[:8], b[:8], velocity_b=v[:8], angular_velocity_a=w)  # compile
                _, _ = best_of(single, args.repeat)
                single_cpu = LAST_CPU[0]
                _, hits = best_of(batch, max(1, args.repeat // 2))
                cells.append((single_cpu, LAST_CPU[0], float(np.isfinite(hits.time).mean())))
            (ps, pbt, ph), (rs, rbt, rh) = cells
            rows.append([name, motion, f"{ps * 1e6:.0f}", f"{rs * 1e6:.0f}", f"{rs / ps:.2f}",
                         f"{pbt / n * 1e6:.2f}", f"{rbt / n * 1e6:.2f}", f"{rbt / pbt:.2f}", f"{ph:.2f} / {rh:.2f}"])
    print()
    print("time_of_impact (CPU microseconds: one single call; per pair of a batch)")
    print(table(["pair (rounded / plain)", "motion", "single plain", "single rounded", "ratio",
                 "batch plain", "batch rounded", "ratio", "hit fraction"], rows))
    rng = np.random.default_rng(4)
    origins = rng.uniform(-5, 5, (n, 2))
    directions = rng.normal(size=(n, 2))
    cases = [("capsule / segment", c2.Segment((0, 0), (2, 1)), c2.Capsule((0, 0), (2, 1), 0.5)),
             ("rounded box / box", c2.Box((0, 0), (2, 1)), c2.Box((0, 0), (2, 1), radius=0.5)),
             ("rounded polygon / polygon", c2.Polygon([(0, 0), (2, 0), (2.5, 1), (0.5, 2)]),
              c2.Polygon([(0, 0), (2, 0), (2.5, 1), (0.5, 2)], radius=0.5))]
    rows = []
    for name, plain, rounded in cases:
        cells = []
        for shape in (plain, rounded):
            single = lambda: c2.raycast(shape, (-4.0, 0.3), (1.0, 0.1))  # noqa: E731
            batch = lambda: c2.raycast(shape, origins, directions)  # noqa: E731
            single(), batch()
            best_of(single, args.repeat * 20)
            single_cpu = LAST_CPU[0]
            best_of(batch, args.repeat)
            cells.append((single_cpu, LAST_CPU[0]))
        (ps, pbt), (rs, rbt) = cells
        rows.append([name, f"{ps * 1e6:.1f}", f"{rs * 1e6:.1f}", f"{rs / ps:.2f}", f"{pbt / n * 1e9:.0f}",
                     f"{rbt / n * 1e9:.0f}", f"{rbt / pbt:.2f}"])
    print()
    print("raycast (CPU: microseconds per single call; nanoseconds per ray of a batch)")
    print(table(["shape (plain / rounded)", "single plain", "single rounded", "ratio", "batch plain", "batch rounded",
                 "ratio"], rows))


if __name__ == "__main__":
    main()
