"""Cost of building shapes, measured against `intersects` in the same run (ratios, not seconds).

Three questions, each answered by a ratio on the same machine in the same process:

1. A single shape from Python numbers (``c2.Ellipse((0, 0), (2, 1), 0.3)``) against one
   ``c2.intersects(a, b)`` of two single ellipses.
2. A batch of N shapes from arrays against one ``intersects`` pass over N ellipse pairs.
3. A polygon with thousands of vertices, most of them collinear (a square with points along its
   edges), in seconds.

Usage: ``python benchmarks/bench_construct.py [--n 1000000] [--repeat 5] [--quick]``. Prints
markdown on standard output, writes no files. Timings are best-of-N wall times (JIT warmed).
"""

from __future__ import annotations

import argparse
import math
import timeit

import numpy as np
from common import LAST_CPU, SEED, best_of, random_pairs, table

import collide2d as c2


def per_call(statement, namespace, repeat):
    """Best time of one call of ``statement`` (seconds), from ``timeit`` with its own loop count."""
    timer = timeit.Timer(statement, globals=namespace)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat, number)) / number


SINGLES = [
    ("Ellipse", "c2.Ellipse((0, 0), (2, 1), 0.3)"),
    ("Ellipse, angle 2.3 (reduced)", "c2.Ellipse((0, 0), (2, 1), 2.3)"),
    ("Ellipse, direction", "c2.Ellipse((0, 0), (2, 1), direction=(3, 4))"),
    ("Circle", "c2.Circle((0, 0), 1.0)"),
    ("Box", "c2.Box((0, 0), (2, 1))"),
    ("RotatedBox", "c2.RotatedBox((0, 0), (2, 1), 0.3)"),
    ("Point", "c2.Point((1, 2))"),
    ("Segment", "c2.Segment((0, 0), (1, 2))"),
    ("Line", "c2.Line((0, 0), (1, 2))"),
    ("Polygon, 3 vertices", "c2.Polygon([(0, 0), (1, 0), (0, 1)])"),
    ("Polygon, 8 vertices", "c2.Polygon(OCTAGON)"),
]


def singles(repeat):
    a, b = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((1, 0.5), (1.5, 0.5), 1.1)
    octagon = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]
    namespace = {"c2": c2, "a": a, "b": b, "OCTAGON": octagon}
    c2.intersects(a, b)  # compile or load the kernel
    rows = []
    for name, statement in SINGLES:
        base = seconds = math.inf
        for _ in range(repeat):  # alternately, so that both see the same load
            base = min(base, per_call("c2.intersects(a, b)", namespace, 1))
            seconds = min(seconds, per_call(statement, namespace, 1))
        rows.append((name, f"{seconds * 1e6:.2f}", f"{base * 1e6:.2f}", f"{seconds / base:.2f}"))
    header = ("single shape from Python numbers", "us per call", "intersects(a, b) (us)", "ratio")
    return table(header, rows)


def interleaved(first, second, repeat):
    """Best wall and CPU seconds of ``first()`` and of ``second()``, timed alternately so that both
    see the same load (on a shared machine a separate best-of-N can drift by a factor of two)."""
    best = [[math.inf, math.inf], [math.inf, math.inf]]
    for _ in range(repeat):
        for slot, function in enumerate((first, second)):
            wall, _ = best_of(function, 1)
            best[slot][0] = min(best[slot][0], wall)
            best[slot][1] = min(best[slot][1], LAST_CPU[0])
    return best


def batches(n, repeat):
    (ca, ra, ta), (cb, rb, tb) = random_pairs(n, SEED)
    a, b = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    c2.intersects(a, b)  # compile or load the loop
    rng = np.random.default_rng(SEED + 1)
    half = rng.uniform(0.5, 2.0, (n, 2))
    direction = rng.normal(size=(n, 2))
    cases = [
        ("Ellipse(center, radii, angle)", lambda: c2.Ellipse(ca, ra, ta)),
        ("Ellipse(center, radii, direction=...)", lambda: c2.Ellipse(ca, ra, direction=direction)),
        ("Circle(center, radius)", lambda: c2.Circle(ca, ra[:, 0])),
        ("Box.from_center(center, half_size)", lambda: c2.Box.from_center(ca, half)),
        ("RotatedBox(center, half_size, angle)", lambda: c2.RotatedBox(ca, half, ta)),
        ("Point(xy)", lambda: c2.Point(ca)),
        ("Segment(start, end)", lambda: c2.Segment(ca, cb)),
    ]
    rows = []
    for name, build in cases:
        build()  # compile or load its loops
        (base, base_cpu), (wall, cpu) = interleaved(lambda: c2.intersects(a, b), build, repeat)
        rows.append((name, f"{wall * 1e3:.1f}", f"{base * 1e3:.1f}", f"{wall / base:.2f}", f"{cpu / base_cpu:.2f}"))
    header = (f"batch of {n:,} from arrays", "ms", f"intersects, {n:,} pairs (ms)", "wall ratio", "CPU ratio")
    return table(header, rows)


def big_polygon(repeat, per_edge=800):
    """A square with ``per_edge`` integer points along each edge (collinear exactly), and the same
    square turned by the integer matrix ``[[3, 1], [-1, 3]]`` (still exactly collinear, but the
    collinear turns then need the exact integer fallback)."""
    t, side = np.arange(per_edge, dtype=float), float(per_edge)
    zero = 0 * t
    square = np.concatenate(
        [np.stack([t, zero], -1), np.stack([side + zero, t], -1), np.stack([side - t, side + zero], -1), np.stack([zero, side - t], -1)]
    )
    turned = square @ np.array([[3.0, 1.0], [-1.0, 3.0]])
    rows = []
    for name, vertices in ((f"square, {len(square):,} vertices", square), (f"turned square, {len(turned):,} vertices", turned)):
        seconds, polygon = best_of(lambda v=vertices: c2.Polygon(v), repeat)
        rows.append((name, f"{seconds * 1e3:.2f}", len(polygon.vertices)))
    return table(("Polygon with collinear vertices", "ms", "vertices kept"), rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="batch size (default 1e6)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing; the best counts")
    parser.add_argument("--quick", action="store_true", help="n = 1e5, 3 runs")
    options = parser.parse_args()
    n, repeat = (100_000, 3) if options.quick else (options.n, options.repeat)
    print("## Building shapes, against intersects in the same run\n")
    print(singles(repeat), end="\n\n")
    print(batches(n, repeat), end="\n\n")
    print(big_polygon(repeat))


if __name__ == "__main__":
    main()
