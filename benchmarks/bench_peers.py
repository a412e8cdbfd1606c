#!/usr/bin/env python
"""collide2d against the specialists on their own ground, in one run: scipy's ``cKDTree`` on
circles, shapely 2.x on convex quads and on ellipses.

Usage::

    .venv/bin/python benchmarks/bench_peers.py               # every row, best of 5
    .venv/bin/python benchmarks/bench_peers.py --repeat 3 --n 20000

Rows (fixed seeds; ``n`` = 1e5 unless ``--n``):

1. pairs at distance <= 0.3 among ``n`` circles of radius 0.5, centres uniform in a square at
   area fraction 0.3: ``c2.query_pairs(circles, max_distance=0.3)`` against
   ``cKDTree(centres).query_pairs(2 r + 0.3, output_type="ndarray")`` (tree build included);
2. intersecting pairs among the same circles: ``c2.query_pairs(circles)`` against
   ``cKDTree(centres).query_pairs(2 r, output_type="ndarray")``;
3. intersecting pairs among ``n`` convex quads (inscribed in circles of radius 0.5 at the same
   density, random corner angles): ``c2.query_pairs(quads)`` against shapely's
   ``STRtree(polys).query(polys, predicate="intersects")`` (build included), pairs ``i < j`` kept;
4. element-wise ``intersects`` of ``n`` quad pairs (the second quad of a pair a random offset
   in [-1, 1]^2 from the first): ``c2.intersects(a, b)`` against ``shapely.intersects(a, b)``;
5. intersecting pairs among ``n / 10`` ellipses (semi-axes uniform in [0.5, 1.5], any angle, one
   centre per unit area): ``c2.query_pairs(ellipses)`` against shapely's ``STRtree`` over the
   inscribed 64-gons (polygons built outside the timing), whose answer misses the pairs that only
   the arcs beyond the chords make meet.

Times are the best of ``--repeat`` warm runs (JIT compiled first), in CPU milliseconds of the
process (``time.process_time``: both threads counted) and in wall milliseconds. Ratio: their
CPU time over collide2d's (above 1: collide2d faster). "Same pairs" compares the pair sets with
collide2d's (the kd-tree tests centre distances in floating point: a pair exactly at the
distance may differ). Markdown on standard output, no files.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from common import LAST_CPU, best_of, polygon_vertices, table, unit_direction

import collide2d as c2

RADIUS = 0.5
FRACTION = 0.3  # area fraction of the circles (and of the quads' circumcircles)
GAP = 0.3


def circle_centres(n, seed):
    side = float(np.sqrt(n * np.pi * RADIUS**2 / FRACTION))
    return np.random.default_rng(seed).uniform(0.0, side, (n, 2))


def quad_vertices(centres, seed):
    """Convex quads inscribed in circles of radius 0.5: four corner angles with random gaps."""
    rng = np.random.default_rng(seed)
    n = len(centres)
    gaps = rng.uniform(0.5, 1.5, (n, 4))
    gaps *= 2.0 * np.pi / gaps.sum(axis=1, keepdims=True)
    angles = rng.uniform(0.0, 2.0 * np.pi, (n, 1)) + np.cumsum(gaps, axis=1)
    return np.stack([centres[:, :1] + RADIUS * np.cos(angles), centres[:, 1:] + RADIUS * np.sin(angles)], axis=-1)


def as_set(pairs):
    pairs = np.asarray(pairs).reshape(2, -1)
    return set(zip(pairs[0].tolist(), pairs[1].tolist()))


def timed(function, repeat):
    wall, result = best_of(function, repeat)
    return 1e3 * LAST_CPU[0], 1e3 * wall, result


def row(job, theirs_label, ours, theirs, note):
    (c_ours, w_ours), (c_theirs, w_theirs) = ours, theirs
    return [job, theirs_label, f"{c_theirs:.1f} [{w_theirs:.1f}]", f"{c_ours:.1f} [{w_ours:.1f}]",
            f"{c_theirs / c_ours:.2f}", note]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="circles, quads and quad pairs (ellipses: n / 10)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing; the best counts")
    args = parser.parse_args(argv)
    n, repeat = args.n, args.repeat
    import shapely
    from scipy.spatial import cKDTree

    # compile every path below on small scenes first
    small = c2.Circle(circle_centres(500, 1), RADIUS)
    c2.query_pairs(small), c2.query_pairs(small, max_distance=GAP)
    small_quads = c2.Polygon(quad_vertices(circle_centres(500, 1), 2))
    c2.query_pairs(small_quads), c2.intersects(small_quads, small_quads)
    c2.query_pairs(c2.Ellipse(circle_centres(500, 3), (1.0, 0.5), 0.3))

    rows = []
    centres = circle_centres(n, 20261127)
    circles = c2.Circle(centres, RADIUS)
    for job, d in ((f"pairs with gap <= {GAP} among {n:,} circles (r = {RADIUS})", GAP),
                   (f"intersecting pairs among {n:,} equal circles", 0.0)):
        c_o, w_o, ours = timed(lambda: c2.query_pairs(circles, max_distance=d or None), repeat)
        c_t, w_t, theirs = timed(lambda: cKDTree(centres).query_pairs(2 * RADIUS + d, output_type="ndarray"), repeat)
        same = as_set(ours) == as_set(np.sort(theirs, axis=1).T)
        rows.append(row(job, f"`cKDTree` build + `query_pairs(2r + {d:g})`", (c_o, w_o), (c_t, w_t),
                        f"{ours.shape[1]:,} pairs; same pairs: {same}"))

    quad_verts = quad_vertices(circle_centres(n, 20261128), 20261129)
    quads = c2.Polygon(quad_verts)
    polys = shapely.polygons(quad_verts)

    def strtree_pairs(geoms):
        found = shapely.STRtree(geoms).query(geoms, predicate="intersects")
        return found[:, found[0] < found[1]]

    c_o, w_o, ours = timed(lambda: c2.query_pairs(quads), repeat)
    c_t, w_t, theirs = timed(lambda: strtree_pairs(polys), repeat)
    rows.append(row(f"intersecting pairs among {n:,} convex quads", '`STRtree` build + `query(predicate="intersects")`',
                    (c_o, w_o), (c_t, w_t),
                    f"{ours.shape[1]:,} pairs; same pairs: {as_set(ours) == as_set(theirs)}"))

    offset = np.random.default_rng(20261130).uniform(-1.0, 1.0, (n, 1, 2))
    quads_b = c2.Polygon(quad_verts + offset)
    polys_b = shapely.polygons(quad_verts + offset)
    c_o, w_o, ours = timed(lambda: c2.intersects(quads, quads_b), repeat)
    c_t, w_t, theirs = timed(lambda: shapely.intersects(polys, polys_b), repeat)
    rows.append(row(f"element-wise `intersects`, {n:,} quad pairs", "`shapely.intersects`", (c_o, w_o), (c_t, w_t),
                    f"{int(ours.sum()):,} true; same: {bool((ours == theirs).all())}"))

    m = max(n // 10, 2)
    rng = np.random.default_rng(20261131)
    e_centres = rng.uniform(0.0, np.sqrt(m), (m, 2))
    radii = rng.uniform(0.5, 1.5, (m, 2))
    ellipses = c2.Ellipse(e_centres, radii, rng.uniform(0.0, np.pi, m))
    gons = shapely.polygons(polygon_vertices(e_centres, radii, unit_direction(ellipses), 64))
    c_o, w_o, ours = timed(lambda: c2.query_pairs(ellipses), repeat)
    c_t, w_t, theirs = timed(lambda: strtree_pairs(gons), repeat)
    exact, approx = as_set(ours), as_set(theirs)
    missed, added = len(exact - approx), len(approx - exact)
    rows.append(row(f"intersecting pairs among {m:,} ellipses", "64-gons, `STRtree` build + query", (c_o, w_o),
                    (c_t, w_t), f"{len(exact):,} pairs; theirs miss {missed:,}, add {added:,}"))

    import numba
    import scipy

    print(f"# collide2d against cKDTree and STRtree (scipy {scipy.__version__}, shapely {shapely.__version__}, "
          f"numba {numba.__version__}, {numba.config.NUMBA_NUM_THREADS} threads, load {os.getloadavg()[0]:.1f})\n")
    print("CPU ms of the process, wall ms in brackets; best of", repeat, "\n")
    print(table(["job", "they use", "they: CPU [wall] ms", "collide2d: CPU [wall] ms", "ratio (CPU)", "answers"], rows))


if __name__ == "__main__":
    main()
