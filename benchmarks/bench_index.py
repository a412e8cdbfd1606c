#!/usr/bin/env python
"""Benchmark the simulation loop: ``Index`` against fresh queries, ``max_distance``, a DEM step.

Usage::

    .venv/bin/python benchmarks/bench_index.py            # the three parts at full size
    .venv/bin/python benchmarks/bench_index.py --quick    # a tenth of the sizes, a smoke test
    .venv/bin/python benchmarks/bench_index.py --part index --steps 30

Parts (fixed seeds; JIT paths warmed on a small scene first; wall and process CPU seconds):

``index``
    200,000 ellipses (semi-axes uniform in [0.5, 1.5], any angle) in a 1000 x 1000 box take 30
    steps of small random moves (each centre coordinate by up to 0.01, each angle by up to
    0.002 rad, uniform). Per step: a fresh ``query_pairs`` against ``Index.update`` plus
    ``Index.query_pairs``, for a few margins; the pairs are checked identical at every step.
``distance``
    1e6 ellipses at one centre per unit area (side 1000), the same semi-axes: ``query_pairs``
    against ``query_pairs(max_distance=d)`` for a few ``d``, best of ``--repeat``.
``dem``
    One step of a soft-particle (DEM) simulation of 1e5 ellipses at area fraction 0.45: the pairs
    within the skin, then the force of every contact. collide2d: ``query_pairs(max_distance=skin)``
    (or an ``Index`` with the skin as margin, after a small move), ``measure_pairs``, Hertz's
    normal force ``k sqrt(R) depth**1.5`` with ``R = 1 / (curvature_a + curvature_b)`` along the
    contact normal, summed per particle. shapely: the ellipses as inscribed 32-gons (built every
    step, as they move), ``STRtree.query(predicate="dwithin", distance=skin)``, ``distance``,
    the overlap area of touching pairs and a force ``k * area`` along the centre line (shapely has
    no penetration depth, normal or curvature, so an area-based force is what a user can write).

The script prints markdown tables on standard output and writes no files.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from common import LAST_CPU, best_of, table

import collide2d as c2


def ellipses(n, side, seed, radii=(0.5, 1.5)):
    rng = np.random.default_rng(seed)
    return rng.uniform(0, side, (n, 2)), rng.uniform(*radii, (n, 2)), rng.uniform(0, np.pi, n)


def warm():
    small = c2.Ellipse(*ellipses(3000, 55.0, 1))
    c2.query_pairs(small)
    c2.query_pairs(small, max_distance=0.1)
    index = c2.Index(small, margin=0.1)
    index.query_pairs()
    index.query_pairs(max_distance=0.1)
    pairs = c2.query_pairs(small, max_distance=0.1)
    c2.measure_pairs(small, pairs[:, :50])


def part_index(n, steps, margins, side):
    center, radii, angle = ellipses(n, side, 7)
    rng = np.random.default_rng(8)
    frames = []
    for _ in range(steps):
        frames.append(c2.Ellipse(center, radii, angle))
        center = center + rng.uniform(-0.01, 0.01, center.shape)
        angle = angle + rng.uniform(-0.002, 0.002, n)
    fresh_wall = fresh_cpu = 0.0
    reference = []
    for shapes in frames:
        t, c = time.perf_counter(), time.process_time()
        reference.append(c2.query_pairs(shapes))
        fresh_wall += time.perf_counter() - t
        fresh_cpu += time.process_time() - c
    rows = [("fresh `query_pairs`", f"{fresh_wall / steps * 1e3:.1f}", f"{fresh_cpu / steps * 1e3:.1f}", "1", "1", "-", "-")]
    for margin in margins:
        t, c = time.perf_counter(), time.process_time()
        index = c2.Index(frames[0], margin=margin)
        first = index.query_pairs()
        build_wall = time.perf_counter() - t
        assert np.array_equal(first, reference[0])
        wall = cpu = 0.0
        rebinned = 0
        for k in range(1, steps):
            t, c = time.perf_counter(), time.process_time()
            rebinned += index.update(frames[k])
            pairs = index.query_pairs()
            wall += time.perf_counter() - t
            cpu += time.process_time() - c
            assert np.array_equal(pairs, reference[k]), f"step {k}: pairs differ"
        per_wall, per_cpu = wall / (steps - 1), cpu / (steps - 1)
        rows.append((f"`Index(margin={margin})`: update + query_pairs", f"{per_wall * 1e3:.1f}", f"{per_cpu * 1e3:.1f}",
                     f"{per_wall / (fresh_wall / steps):.2f}", f"{per_cpu / (fresh_cpu / steps):.2f}",
                     f"{build_wall * 1e3:.0f}", f"{rebinned / (steps - 1):.0f}"))
    pairs = np.mean([r.shape[1] for r in reference])
    print(f"\n### Index: {n:,} ellipses in a {side:g} x {side:g} box, {steps} steps ({pairs:,.0f} pairs a step; "
          "identical pairs at every step)\n")
    print(table(["per step", "wall ms", "CPU ms", "wall ratio", "CPU ratio", "first build ms", "re-binned a step"], rows))


def part_distance(n, distances, repeat):
    side = float(np.sqrt(n))
    shapes = c2.Ellipse(*ellipses(n, side, 11))
    base, pairs = best_of(lambda: c2.query_pairs(shapes), repeat)
    base_cpu = LAST_CPU[0]
    rows = [("`query_pairs`", f"{pairs.shape[1]:,}", f"{base:.3f}", f"{base_cpu:.3f}", "1", "1")]
    for d in distances:
        wall, within = best_of(lambda: c2.query_pairs(shapes, max_distance=d), repeat)
        rows.append((f"`max_distance={d}`", f"{within.shape[1]:,}", f"{wall:.3f}", f"{LAST_CPU[0]:.3f}",
                     f"{wall / base:.2f}", f"{LAST_CPU[0] / base_cpu:.2f}"))
    print(f"\n### max_distance: {n:,} ellipses, one centre per unit area (best of {repeat})\n")
    print(table(["query", "pairs", "wall s", "CPU s", "wall ratio", "CPU ratio"], rows))


def hertz_forces(n, pairs, m, stiffness=1000.0):
    depth = np.maximum(-m.separation, 0.0)
    with np.errstate(divide="ignore"):
        radius = 1.0 / (m.curvature_a + m.curvature_b)
    magnitude = stiffness * np.sqrt(np.clip(radius, 0.0, 10.0)) * depth**1.5
    push = magnitude[:, None] * m.normal
    force = np.zeros((n, 2))
    for axis in (0, 1):
        force[:, axis] = np.bincount(pairs[1], push[:, axis], minlength=n) - np.bincount(pairs[0], push[:, axis], minlength=n)
    return force


def part_dem(n, skin, repeat):
    radii_range = (0.5, 1.0)
    center, radii, angle = ellipses(n, 1.0, 21, radii_range)
    area = float(np.sum(np.pi * radii[:, 0] * radii[:, 1]))
    side = float(np.sqrt(area / 0.45))
    center = center * side
    shapes = c2.Ellipse(center, radii, angle)

    def collide2d_step(shapes=shapes):
        pairs = c2.query_pairs(shapes, max_distance=skin)
        return pairs, hertz_forces(n, pairs, c2.measure_pairs(shapes, pairs))

    wall, (pairs, force) = best_of(collide2d_step, repeat)
    cpu = LAST_CPU[0]
    # with an Index whose margin is the skin, after a move below it
    index = c2.Index(shapes, margin=skin)
    index.query_pairs(max_distance=skin)
    moved = c2.Ellipse(center + np.random.default_rng(3).uniform(-0.005, 0.005, center.shape), radii, angle)

    def index_step():
        index.update(moved)
        p = index.query_pairs(max_distance=skin)
        return p, hertz_forces(n, p, c2.measure_pairs(moved, p))

    index_wall, (index_pairs, _) = best_of(index_step, repeat)
    index_cpu = LAST_CPU[0]
    assert np.array_equal(index_pairs, c2.query_pairs(moved, max_distance=skin))
    measure_wall, _ = best_of(lambda: c2.measure_pairs(shapes, pairs), repeat)
    rows = [("collide2d: `query_pairs(max_distance)` + `measure_pairs` + Hertz", f"{pairs.shape[1]:,}",
             f"{wall:.3f}", f"{cpu:.3f}", "1"),
            ("collide2d: `Index` update + query + `measure_pairs` + Hertz", f"{index_pairs.shape[1]:,}",
             f"{index_wall:.3f}", f"{index_cpu:.3f}", f"{index_wall / wall:.2f}"),
            ("(of which `measure_pairs`)", "", f"{measure_wall:.3f}", f"{LAST_CPU[0]:.3f}", f"{measure_wall / wall:.2f}")]
    try:
        import shapely
    except ImportError:
        shapely = None
    if shapely is not None:
        t = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        w = np.stack([np.cos(angle), np.sin(angle)], axis=-1)

        def shapely_step():
            x = radii[:, 0:1] * np.cos(t)
            y = radii[:, 1:2] * np.sin(t)
            ring = np.stack([center[:, 0:1] + w[:, 0:1] * x - w[:, 1:2] * y,
                             center[:, 1:2] + w[:, 1:2] * x + w[:, 0:1] * y], axis=-1)
            polygons = shapely.polygons(ring)
            tree = shapely.STRtree(polygons)
            i, j = tree.query(polygons, predicate="dwithin", distance=skin)
            keep = i < j
            i, j = i[keep], j[keep]
            dist = shapely.distance(polygons[i], polygons[j])
            touching = np.flatnonzero(dist == 0.0)
            overlap = np.zeros(i.size)
            overlap[touching] = shapely.area(shapely.intersection(polygons[i[touching]], polygons[j[touching]]))
            line = center[j] - center[i]
            line /= np.hypot(line[:, 0], line[:, 1])[:, None]
            push = 1000.0 * overlap[:, None] * line
            force = np.zeros((n, 2))
            for axis in (0, 1):
                force[:, axis] = np.bincount(j, push[:, axis], minlength=n) - np.bincount(i, push[:, axis], minlength=n)
            return i, force

        shapely_wall, (i, _) = best_of(shapely_step, repeat)
        rows.append(("shapely 32-gons: STRtree dwithin + distance + overlap area", f"{i.size:,}",
                     f"{shapely_wall:.3f}", f"{LAST_CPU[0]:.3f}", f"{shapely_wall / wall:.2f}"))
    print(f"\n### DEM step: {n:,} ellipses, area fraction 0.45, skin {skin} (best of {repeat})\n")
    print(table(["step", "pairs", "wall s", "CPU s", "wall / collide2d"], rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    parser.add_argument("--part", choices=["all", "index", "distance", "dem"], default="all")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(f"load average {os.getloadavg()[0]:.2f} at start; collide2d {c2.__version__}")
    warm()
    if args.part in ("all", "index"):
        part_index(200_000 // scale, args.steps, (0.05, 0.1, 0.2), 1000.0 / np.sqrt(scale))
    if args.part in ("all", "distance"):
        part_distance(1_000_000 // scale, (0.05, 0.1, 0.25), args.repeat)
    if args.part in ("all", "dem"):
        part_dem(100_000 // scale, 0.1, args.repeat)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
