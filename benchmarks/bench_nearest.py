#!/usr/bin/env python
"""Benchmark ``collide2d.query_nearest`` against shapely's ``STRtree.query_nearest`` and scipy's
``cKDTree.query`` (k=1), in one run, on the same circles.

Usage::

    .venv/bin/python benchmarks/bench_nearest.py                 # 1e4 and 1e5 circles
    .venv/bin/python benchmarks/bench_nearest.py --n 10000 --repeat 5

Scene (fixed seeds): ``n`` tree circles and ``n`` query circles of radius 0.5, centres uniform in
a square of side ``4 sqrt(n)`` (mean spacing 4; about 18 % of the queries meet a tree circle).
For each query circle, the nearest tree circles:

* collide2d: ``c2.query_nearest(tree, queries, return_distance=True)``, exact circles;
* shapely: ``STRtree(buffers).query_nearest(query buffers, return_distance=True)``, the circles
  as shapely's default buffers (64-gons, inscribed);
* scipy: ``cKDTree(tree centres).query(query centres, k=1)``: with equal radii the nearest
  centre is the nearest circle (distance minus 1), but a query meeting several circles gets one.

Times are the best of ``--repeat`` runs, wall and CPU (``time.process_time``, all threads),
warm (JIT compiled first); the tree build is timed apart for shapely and scipy (collide2d has no
build: its broad phase runs inside the query). Ratios are the others' time over collide2d's
(above 1: collide2d faster). Agreement counts the queries with a single nearest at a positive
distance whose nearest index equals collide2d's. Markdown on standard output, no files.
"""

from __future__ import annotations

import argparse

import numpy as np
from common import LAST_CPU, best_of, table

import collide2d as c2


def scene(n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.0, 4.0 * np.sqrt(n), size=(n, 2))


def run(n, repeat):
    tree_xy, query_xy = scene(n, 20261127), scene(n, 20261128)
    tree, queries = c2.Circle(tree_xy, 0.5), c2.Circle(query_xy, 0.5)
    c2.query_nearest(c2.Circle(scene(500, 1), 0.5), c2.Circle(scene(500, 2), 0.5), return_distance=True)  # compile
    rows = []
    wall, (pairs, distances) = best_of(lambda: c2.query_nearest(tree, queries, return_distance=True), repeat)
    ours = (wall, LAST_CPU[0])
    rows.append(("collide2d `query_nearest`", "-", f"{1e3 * wall:.1f}", f"{1e3 * ours[1]:.1f}", "1", "1", "-"))
    counts = np.bincount(pairs[0], minlength=n)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    single = (counts == 1) & (distances[first] > 0)
    nearest = pairs[1][first]
    try:
        import shapely
    except ImportError:
        shapely = None
    if shapely is not None:
        tree_geoms = shapely.buffer(shapely.points(tree_xy), 0.5)
        query_geoms = shapely.buffer(shapely.points(query_xy), 0.5)
        build, strtree = best_of(lambda: shapely.STRtree(tree_geoms), repeat)
        build_cpu = LAST_CPU[0]
        wall, (theirs, _) = best_of(lambda: strtree.query_nearest(query_geoms, return_distance=True), repeat)
        cpu = LAST_CPU[0]
        t_counts = np.bincount(theirs[0], minlength=n)
        t_first = np.concatenate([[0], np.cumsum(t_counts)[:-1]])
        their_nearest = theirs[1][np.minimum(t_first, theirs.shape[1] - 1)]
        agree = int(np.count_nonzero(single & (t_counts == 1) & (their_nearest == nearest)))
        rows.append(("shapely `STRtree.query_nearest` (64-gons)", f"{1e3 * build:.1f} / {1e3 * build_cpu:.1f}",
                     f"{1e3 * wall:.1f}", f"{1e3 * cpu:.1f}", f"{wall / ours[0]:.2f}", f"{cpu / ours[1]:.2f}",
                     f"{agree} / {int(single.sum())}"))
    try:
        from scipy.spatial import cKDTree
    except ImportError:
        cKDTree = None
    if cKDTree is not None:
        build, kd = best_of(lambda: cKDTree(tree_xy), repeat)
        build_cpu = LAST_CPU[0]
        wall, (_, index) = best_of(lambda: kd.query(query_xy, k=1), repeat)
        cpu = LAST_CPU[0]
        agree = int(np.count_nonzero(single & (index == nearest)))
        rows.append(("scipy `cKDTree.query` (k=1, centres)", f"{1e3 * build:.1f} / {1e3 * build_cpu:.1f}",
                     f"{1e3 * wall:.1f}", f"{1e3 * cpu:.1f}", f"{wall / ours[0]:.2f}", f"{cpu / ours[1]:.2f}",
                     f"{agree} / {int(single.sum())}"))
    header = ["n = %d circles" % n, "build ms (wall / CPU)", "query ms", "query CPU ms", "ratio wall",
              "ratio CPU", "agree"]
    print(table(header, rows))
    print(f"\n{pairs.shape[1]} pairs for {n} queries; {int(np.count_nonzero(distances == 0))} at distance 0.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for n in args.n:
        run(n, args.repeat)


if __name__ == "__main__":
    main()
