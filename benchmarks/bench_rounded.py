#!/usr/bin/env python
"""Benchmark capsules and rounded boxes against the segment and box pairs they round.

Usage::

    .venv/bin/python benchmarks/bench_rounded.py            # batches of 100000 pairs
    .venv/bin/python benchmarks/bench_rounded.py --quick    # 10000 pairs, fewer repeats
    .venv/bin/python benchmarks/bench_rounded.py --quick --more  # and against the other kinds

Pairs (fixed seeds): ``a`` a capsule of radius 0.25 about a random segment of length 1..3, or a
box 1..3 wide rounded by 0.25; ``b`` a box 1..3 wide (rounded by 0.25 in the rounded-box pair)
placed so that about half the pairs meet. The baseline is the same pair with the radii 0 (a
``Segment`` for the capsule, plain ``Box`` es), except for the areas: a segment has no area, so
``overlap_area`` and ``iou`` of a capsule pair against a segment pair would time a constant 0 (a
ratio in the thousands that says nothing). Their baseline is the flat region the capsule rounds
instead: the rectangle between its two flat sides (a ``RotatedBox`` about the segment, half-sizes
half its length and its radius), so that the baseline runs the polygon area kernel on a shape of the
capsule's size and placement, as the rounded-box pair does against plain boxes (the circle-box pair
would time the ellipse kernel, and a bounding box an axis-aligned shape of another size). For ``relate``, ``intersects``, ``distance``,
``contact``, ``intersection_points`` and ``overlap_area``, single calls (microseconds per call, best of ``--repeat`` loops over 2000 pairs) and
batches (nanoseconds per pair) are timed with :func:`time.perf_counter` after every JIT path was
called once; the best process CPU time (:func:`time.process_time`) of the single and batch runs is
given too, the steadier figure on a loaded machine, and the ratios are of it. The ratio is rounded / baseline.
The script prints a markdown table and writes no files.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from common import LAST_CPU, best_of, table

import collide2d as c2

R = 0.25


def scene(n, seed=7):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-50.0, 50.0, (n, 2))
    size = rng.uniform(1.0, 3.0, (n, 2))
    angle = rng.uniform(-np.pi, np.pi, n)
    length = rng.uniform(1.0, 3.0, n)
    start = lo + rng.uniform(-2.5, 2.5, (n, 2))
    end = start + length[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    other_lo = lo + rng.uniform(-2.5, 2.5, (n, 2))
    other_size = rng.uniform(1.0, 3.0, (n, 2))
    return {
        "capsule-box": ((c2.Capsule(start, end, R), c2.Box(lo, lo + size)), (c2.Segment(start, end), c2.Box(lo, lo + size))),
        "rounded box-rounded box": (
            (c2.Box(lo, lo + size, radius=R), c2.Box(other_lo, other_lo + other_size, radius=R)),
            (c2.Box(lo, lo + size), c2.Box(other_lo, other_lo + other_size)),
        ),
        "capsule-capsule": (
            (c2.Capsule(start, end, R), c2.Capsule(other_lo, other_lo + other_size, R)),
            (c2.Segment(start, end), c2.Segment(other_lo, other_lo + other_size)),
        ),
    }


def more_pairs(n, seed=11):
    """``--more``: the capsule and the rounded box of :func:`scene` against a circle, an ellipse, a
    point, a segment, a line and a triangle (about half of them meeting), each against the segment
    or box it rounds."""
    (capsule, box), (segment, plain_box) = scene(n)["capsule-box"]
    rng = np.random.default_rng(seed)
    lo = np.asarray(box.min) + rng.uniform(-2.5, 2.5, (n, 2))
    size = rng.uniform(1.0, 3.0, (n, 2))
    others = {
        "circle": c2.Circle(lo + size / 2, size[:, 0] / 2),
        "ellipse": c2.Ellipse(lo + size / 2, size / 2, rng.uniform(-np.pi, np.pi, n)),
        "point": c2.Point(lo + size / 2),
        "segment": c2.Segment(lo, lo + size),
        "line": c2.Line(lo, size),
        "polygon": c2.Polygon(np.stack([lo, lo + size * [1.0, 0.0], lo + size], axis=1)),
    }
    rounded_box = c2.Box(box.min, box.max, radius=R)
    out = {}
    for name, other in others.items():
        out[f"capsule-{name}"] = ((capsule, other), (segment, other))
        out[f"rounded box-{name}"] = ((rounded_box, other), (plain_box, other))
    return out


OPERATIONS = {"relate": c2.relate, "intersects": c2.intersects, "distance": c2.distance, "contact": c2.contact,
              "intersection_points": c2.intersection_points, "overlap_area": c2.overlap_area, "iou": c2.iou}


def _flat_sides(start, end):
    """The rectangle between the flat sides of the capsule of radius ``R`` about each segment."""
    d = end - start
    return c2.RotatedBox(0.5 * (start + end), np.stack([0.5 * np.hypot(d[:, 0], d[:, 1]), np.full(len(d), R)], -1),
                         np.arctan2(d[:, 1], d[:, 0]))


def area_baselines(n, seed=7):
    """The baselines of ``overlap_area`` and ``iou`` where the plain pair has no area: the capsules'
    flat-sided rectangles (see the module docstring), on the shapes of :func:`scene`."""
    cases = scene(n, seed)
    (_, box), _ = cases["capsule-box"]
    (first, second), _ = cases["capsule-capsule"]
    return {"capsule-box": (_flat_sides(first.a, first.b), box),
            "capsule-capsule": (_flat_sides(first.a, first.b), _flat_sides(second.a, second.b))}


def single_us(function, a, b, count, repeat):
    pairs = [(a[k], b[k]) for k in range(count)]

    def run():
        for x, y in pairs:
            function(x, y)

    run()
    best, _ = best_of(run, repeat)
    return best / count * 1e6, LAST_CPU[0] / count * 1e6


def batch_ns(function, a, b, repeat):
    function(a[:10], b[:10])
    best, _ = best_of(lambda: function(a, b), repeat)
    return best / a.size * 1e9, LAST_CPU[0] / a.size * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--more", action="store_true", help="also the rounded shapes against the other kinds")
    args = parser.parse_args()
    n = args.n or (10_000 if args.quick else 100_000)
    repeat = args.repeat or (3 if args.quick else 5)
    rows = []
    started = time.perf_counter()
    area_base = area_baselines(n)
    pairs = [(name, pair, OPERATIONS) for name, pair in scene(n).items()]
    if args.more:
        measures = {op: OPERATIONS[op] for op in ("relate", "intersects", "distance", "contact")}
        pairs += [(name, pair, measures) for name, pair in more_pairs(n).items()]
    for name, ((a, b), (a0, b0)), operations in pairs:
        for op, function in operations.items():
            x0, y0 = area_base[name] if op in ("overlap_area", "iou") and name in area_base else (a0, b0)
            (s1, u1), (s0, u0) = single_us(function, a, b, 2000, repeat), single_us(function, x0, y0, 2000, repeat)
            (w1, c1), (w0, c0) = batch_ns(function, a, b, repeat), batch_ns(function, x0, y0, repeat)
            rows.append([name, op, f"{s1:.1f} ({u1:.1f})", f"{s0:.1f} ({u0:.1f})", f"{u1 / u0:.2f}",
                         f"{w1:.0f} ({c1:.0f})", f"{w0:.0f} ({c0:.0f})", f"{c1 / c0:.2f}"])
    print(f"collide2d rounded shapes, {n} pairs per batch, best of {repeat}; {platform.python_version()}, "
          f"{platform.machine()}; {time.perf_counter() - started:.0f} s\n")
    print(table(["pair", "operation", "single us (CPU)", "baseline us (CPU)", "ratio (CPU)", "batch ns/pair (CPU)",
                 "baseline ns/pair (CPU)", "ratio (CPU)"], rows))


if __name__ == "__main__":
    main()
