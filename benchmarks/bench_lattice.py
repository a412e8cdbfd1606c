#!/usr/bin/env python
"""Exactly touching lattices against random scenes of the same size: ``query_pairs`` and ``relate``.

Usage::

    .venv/bin/python benchmarks/bench_lattice.py            # 300 x 300 lattices (90,000 shapes)
    .venv/bin/python benchmarks/bench_lattice.py --side 100 # smaller, smoke test

Three workloads, each on a ``side x side`` lattice where every neighbour touches exactly, and on
the same number of the same shapes with centres uniform over the same square:

- circles of radius 0.5 on the unit lattice (neighbours touch at one point);
- ellipses with semi-axes (0.5, 0.25), angle 0, on the unit lattice (vertex to vertex along x);
- ellipses (1, 0.5) turned by ``pi / 2`` on a lattice of spacing 2 (vertex to vertex along y).

For each it prints the best wall time of ``query_pairs(shapes)`` (predicate ``intersects``) on
the lattice and on the random scene, their ratio, the same for ``predicate="touches"``, and the
exact-fallback counts (:func:`collide2d.exact_fallback_counts`) of the lattice runs, including a
batched ``relate`` and ``touches`` over the lattice's neighbour pairs. The JIT is warmed on a small
lattice first. Markdown on standard output, no files.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import collide2d as c2

SEED = 20261124


def best_wall(function, repeat):
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def workloads(side, seed=SEED):
    """``(name, lattice, random, neighbour pairs (i, j) of the lattice)`` for the three workloads."""
    rng = np.random.default_rng(seed)
    k = np.arange(side * side)
    ix, iy = k % side, k // side
    right = np.flatnonzero(ix < side - 1)
    up = np.flatnonzero(iy < side - 1)
    neighbours = (np.concatenate([right, up]), np.concatenate([right + 1, up + side]))
    out = []
    for name, spacing, radii, angle in (
        ("circles r = 0.5, unit lattice", 1.0, None, 0.0),
        ("ellipses (0.5, 0.25), unit lattice", 1.0, (0.5, 0.25), 0.0),
        ("ellipses (1, 0.5) turned pi/2, spacing 2", 2.0, (1.0, 0.5), math.pi / 2),
    ):
        grid = np.stack([ix, iy], axis=1).astype(np.float64) * spacing
        scattered = rng.uniform(0.0, side * spacing, (side * side, 2))
        if radii is None:
            make = lambda centre: c2.Circle(centre, 0.5)  # noqa: E731
        else:
            make = lambda centre, radii=radii, angle=angle: c2.Ellipse(centre, radii, angle)  # noqa: E731
        out.append((name, make(grid), make(scattered), neighbours))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=300, help="lattice side (side^2 shapes)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing; the best counts")
    args = parser.parse_args()

    for side in (8, 100):  # warm the JIT on every path used below, serial and parallel
        for _, lattice, scattered, (i, j) in workloads(side):
            for shapes in (lattice, scattered):
                c2.query_pairs(shapes)
                c2.query_pairs(shapes, predicate="touches")
            c2.relate(lattice[i], lattice[j])
            c2.touches(lattice[i], lattice[j])

    n = args.side * args.side
    print(f"## Exactly touching lattices vs random scenes ({n:,} shapes, best of {args.repeat})\n")
    print("| workload | predicate | lattice s | random s | ratio | lattice pairs | random pairs | lattice fallbacks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    extra = []
    for name, lattice, scattered, (i, j) in workloads(args.side):
        for predicate in ("intersects", "touches"):
            c2.exact_fallback_counts(reset=True)
            t_lat, pairs_lat = best_wall(lambda: c2.query_pairs(lattice, predicate=predicate), args.repeat)
            fallbacks = sum(c2.exact_fallback_counts(reset=True).values()) // args.repeat
            t_rnd, pairs_rnd = best_wall(lambda: c2.query_pairs(scattered, predicate=predicate), args.repeat)
            print(f"| {name} | {predicate} | {t_lat:.3g} | {t_rnd:.3g} | {t_lat / t_rnd:.1f} | "
                  f"{pairs_lat.shape[1]:,} | {pairs_rnd.shape[1]:,} | {fallbacks:,} |")
        c2.exact_fallback_counts(reset=True)
        a, b = lattice[i], lattice[j]
        t_rel, rel = best_wall(lambda: c2.relate(a, b), 1)
        t_tou, tou = best_wall(lambda: c2.touches(a, b), 1)
        counts = c2.exact_fallback_counts(reset=True)
        touching = int(np.count_nonzero(np.asarray(rel) == int(c2.Relation.TOUCHING)))
        extra.append((name, i.size, touching, int(np.count_nonzero(tou)), t_rel, t_tou, counts))
    print("\n### relate and touches on the lattice's neighbour pairs\n")
    print("| workload | pairs | relate TOUCHING | touches true | relate s | touches s | fallbacks |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, size, touching, touches, t_rel, t_tou, counts in extra:
        print(f"| {name} | {size:,} | {touching:,} | {touches:,} | {t_rel:.3g} | {t_tou:.3g} | {counts or 0} |")


if __name__ == "__main__":
    main()
