#!/usr/bin/env python
"""Benchmark ``collide2d.time_of_impact`` per pair and ``collide2d.query_impacts`` on many ellipses.

Usage::

    .venv/bin/python benchmarks/bench_motion.py            # single pairs, 1e4-pair batches, 1e5 ellipses
    .venv/bin/python benchmarks/bench_motion.py --quick    # 1e3-pair batches and 1e4 ellipses

Every path is compiled on a small case first; then each case is timed, best of ``--repeat`` runs,
in wall seconds and in CPU seconds of the process (all threads; on a busy machine the CPU time
says better what the code costs). Prints markdown tables and writes no files.

Cases (fixed seeds):

* single pairs: one call of ``time_of_impact`` on single shapes, pure translation and turning
  (including the needle of semi-axes (5, 0.01) spinning at 40 rad per unit time against a disc);
* batches: ``n`` pairs of random ellipses (semi-axes in [0.2, 1]) approaching one another, in
  one call, translation only and with angular velocities in [-5, 5];
* ``query_impacts``: ``n`` ellipses with centres uniform in a square of side ``sqrt(n) * 2``,
  semi-axes in [0.1, 0.4], velocities normal with deviation 1, ``t_max = 1``; translation only
  and with angular velocities normal with deviation 2.
"""

from __future__ import annotations

import argparse
import math
import platform

import numpy as np
from common import LAST_CPU, best_of, table

import collide2d as c2


def single_cases():
    needle, disc = c2.Ellipse((0, 0), (5, 0.01)), c2.Circle((0, 4), 0.05)
    e1, e2 = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((6, 1), (1, 0.5), 1.0)
    box, poly = c2.Box((0, 0), (1, 1)), c2.Polygon([(5, 0), (6, 0.5), (5.5, 1.5)])
    return [
        ("ellipse-ellipse, translation", lambda: c2.time_of_impact(e1, e2, velocity_b=(-5, -1))),
        ("box-polygon, translation", lambda: c2.time_of_impact(box, poly, velocity_b=(-5, 0.2))),
        ("circle-point, translation", lambda: c2.time_of_impact(disc, c2.Point((3, 4)), velocity_b=(-5, 0))),
        ("ellipse-ellipse, turning (3 rad/t)", lambda: c2.time_of_impact(e1, e2, velocity_b=(-5, -1), angular_velocity_a=3.0)),
        ("ellipse-ellipse, turning (30 rad/t)", lambda: c2.time_of_impact(e1, e2, velocity_b=(-5, -1), angular_velocity_a=30.0)),
        ("spinning needle-disc (40 rad/t)", lambda: c2.time_of_impact(needle, disc, angular_velocity_a=40.0)),
    ]


def approaching_pairs(n, seed=1):
    rng = np.random.default_rng(seed)
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.2, 1, (n, 2)), rng.uniform(0, math.pi, n))
    y = rng.uniform(-1.5, 1.5, n)
    b = c2.Ellipse(np.stack([np.full(n, 6.0), y], -1), rng.uniform(0.2, 1, (n, 2)), rng.uniform(0, math.pi, n))
    vb = rng.uniform(1.0, 1.6, (n, 1)) * np.stack([np.full(n, -6.0), -y], -1) + rng.uniform(-0.6, 0.6, (n, 2))
    w = rng.uniform(-5, 5, n)
    return a, b, vb, w


def moving_ellipses(n, seed=2):
    rng = np.random.default_rng(seed)
    side = 2.0 * math.sqrt(n)
    shapes = c2.Ellipse(rng.uniform(0, side, (n, 2)), rng.uniform(0.1, 0.4, (n, 2)), rng.uniform(0, math.pi, n))
    return shapes, rng.normal(0, 1, (n, 2)), rng.normal(0, 2, n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller batches")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n_pairs, n_shapes = (1_000, 10_000) if args.quick else (10_000, 100_000)

    print(f"collide2d {c2.__version__}, Python {platform.python_version()}, {platform.machine()}\n")
    rows = []
    for name, call in single_cases():
        call()  # compile
        seconds, hit = best_of(call, max(args.repeat, 20))
        rows.append((name, f"{seconds * 1e3:.2f}", f"{hit.time:.6g}"))
    print("Single pairs (one call of time_of_impact on single shapes)\n")
    print(table(["case", "ms per call", "time"], rows))

    rows = []
    a, b, vb, w = approaching_pairs(200)
    c2.time_of_impact(a, b, velocity_b=vb), c2.time_of_impact(a, b, velocity_b=vb, angular_velocity_a=w)
    a, b, vb, w = approaching_pairs(n_pairs)
    for name, kw in [("translation", {}), ("turning", {"angular_velocity_a": w})]:
        seconds, hit = best_of(lambda: c2.time_of_impact(a, b, velocity_b=vb, **kw), args.repeat)
        hits = int(np.isfinite(hit.time).sum())
        rows.append((f"{n_pairs} pairs, {name}", f"{seconds:.3f}", f"{LAST_CPU[0]:.3f}",
                     f"{seconds / n_pairs * 1e6:.1f}", hits))
    print(f"\nBatches (one call on {n_pairs} approaching ellipse pairs)\n")
    print(table(["case", "wall s", "CPU s", "us per pair", "hits"], rows))

    rows = []
    small, v, w = moving_ellipses(2_000)
    c2.query_impacts(small, v), c2.query_impacts(small, v, angular_velocity=w)
    shapes, v, w = moving_ellipses(n_shapes)
    for name, kw in [("translation", {}), ("turning", {"angular_velocity": w})]:
        seconds, hit = best_of(lambda: c2.query_impacts(shapes, v, **kw), args.repeat)
        rows.append((f"{n_shapes} ellipses, {name}", f"{seconds:.3f}", f"{LAST_CPU[0]:.3f}", hit.pairs.shape[1]))
    print(f"\nquery_impacts ({n_shapes} moving ellipses, t_max = 1)\n")
    print(table(["case", "wall s", "CPU s", "pairs in contact"], rows))
    # The comparison with Box2D's time of impact on polygon stand-ins: bench_motion_box2d.py.


if __name__ == "__main__":
    main()
