#!/usr/bin/env python
"""Time of impact of translating flat pairs: the closed form (slabs of the separating axes).

Usage::

    cd benchmarks && PYTHONPATH=../src:. ../.venv/bin/python bench_motion_closed.py          # 2000 pairs
    cd benchmarks && PYTHONPATH=../src:. ../.venv/bin/python bench_motion_closed.py --quick  # 300 pairs

The 8-gon and 16-gon stand-ins of ``bench_motion_box2d.py`` (translation only, the same seed),
then random pairs of every pair of flat kinds (hexagons, boxes, rotated boxes,
segments, lines, points; some aimed past, some away). For each: CPU time per pair of the batched
``c2.time_of_impact`` (best of ``--repeat``), of its compiled loop alone (the same rows, called
again), and how many pairs the closed form leaves to the iterative search (``handed back``:
grazes, touching at 0, a pair of lines). Prints markdown; writes no files. Seeds are fixed.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import collide2d as c2
from bench_motion_box2d import make_pairs, world_polygons  # noqa: E402 (benchmarks/ is on sys.path)
from common import table  # noqa: E402
from collide2d.motion import search


def _cpu(call, repeat):
    best = math.inf
    for _ in range(repeat):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


def measure(a, b, va, vb, t_max, repeat):
    """``(call, loop, handed back, contacts)``: CPU seconds per pair of the batched call and of
    its compiled loop alone, the pairs the closed form leaves to the search (None before it)."""
    n = len(va)
    c2.time_of_impact(a[:2], b[:2], va[:2], vb[:2], t_max=t_max)  # compile before timing
    captured = []
    run_rows = search._run_rows

    def spy(*args):
        captured.append(args)
        return run_rows(*args)

    search._run_rows = spy
    try:
        result = c2.time_of_impact(a, b, va, vb, t_max=t_max)
    finally:
        search._run_rows = run_rows
    call = _cpu(lambda: c2.time_of_impact(a, b, va, vb, t_max=t_max), repeat) / n
    loop = sum(_cpu(lambda args=args: run_rows(*args), repeat) for args in captured) / n
    handed = None
    try:
        from collide2d._kernels.motion import toi_closed
    except ImportError:  # (before the closed form)
        toi_closed = None
    if toi_closed is not None:
        handed = 0
        for args in captured:
            kind_a, kind_b, ga, gva, gb, gvb = args[:6]
            index, numbers = args[11], args[12]
            codes = dict(polygon=1, segment=2, line=3, point=4)
            out = np.empty(6)
            for k in range(index.shape[0]):
                code = toi_closed.closed_translation(codes[kind_a], codes[kind_b], ga[index[k, 0]], gva, gb[index[k, 1]],
                                                     gvb, numbers[k], out)
                handed += code == toi_closed.UNDECIDED
    return call, loop, handed, int(np.isfinite(result.time).sum())


def random_shapes(rng, kind, centres):
    n = len(centres)
    if kind == "polygon":  # 6 vertices at random angles on circles of radius 0.5 to 1.5
        angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, (n, 6)), axis=1)
        radii = rng.uniform(0.5, 1.5, (n, 1, 1))
        return c2.Polygon(centres[:, None, :] + radii * np.stack([np.cos(angles), np.sin(angles)], axis=-1))
    if kind == "box":
        return c2.Box(centres - rng.uniform(0.2, 1.0, (n, 2)), centres + rng.uniform(0.2, 1.0, (n, 2)))
    if kind == "rotated box":
        return c2.RotatedBox(centres, rng.uniform(0.2, 1.0, (n, 2)), angle=rng.uniform(0, 3, n))
    if kind == "segment":
        return c2.Segment(centres - rng.normal(size=(n, 2)), centres + rng.normal(size=(n, 2)))
    if kind == "line":
        return c2.Line(centres, rng.normal(size=(n, 2)))
    return c2.Point(centres)


KINDS = ["polygon", "box", "rotated box", "segment", "line", "point"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 pairs per case")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing (the best counts)")
    args = parser.parse_args(argv)
    n = 300 if args.quick else 2000
    print(f"# Time of impact of translating flat pairs: collide2d {c2.__version__}, {n} pairs per case\n")
    rows = []
    p = make_pairs(n, False, seed=15)
    for k in (8, 16):
        pa, pb = world_polygons(p, "a", k), world_polygons(p, "b", k)
        call, loop, handed, hits = measure(pa, pb, p["va"], p["vb"], 1.0, args.repeat)
        rows.append([f"{k}-gons of bench_motion_box2d", f"{call * 1e6:.2f} us", f"{loop * 1e6:.2f} us",
                     "" if handed is None else f"{handed} ({100.0 * handed / n:.2f} %)", hits])
    rng = np.random.default_rng(26)
    for i, first in enumerate(KINDS):
        for second in KINDS[i:]:
            if (first, second) == ("line", "line"):
                continue
            ca, cb = rng.normal(size=(n, 2)) * 3.0, rng.normal(size=(n, 2)) * 3.0 + 6.0
            a, b = random_shapes(rng, first, ca), random_shapes(rng, second, cb)
            va = rng.normal(size=(n, 2))
            vb = -rng.uniform(2.0, 6.0, (n, 1)) * (1.0 + rng.normal(size=(n, 2)) * 0.3)
            vb[::4] *= -1.0
            call, loop, handed, hits = measure(a, b, va, vb, 3.0, args.repeat)
            rows.append([f"{first} - {second}", f"{call * 1e6:.2f} us", f"{loop * 1e6:.2f} us",
                         "" if handed is None else f"{handed} ({100.0 * handed / n:.2f} %)", hits])
    print(table(["pairs (translation, t_max 1 or 3)", "CPU per pair, batched call", "CPU per pair, compiled loop",
                 "handed back to the search", "contacts"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
