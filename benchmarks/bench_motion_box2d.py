#!/usr/bin/env python
"""Time of impact per pair: collide2d against Box2D's ``b2TimeOfImpact`` on polygon stand-ins.

Usage::

    .venv/bin/python -m pip install box2d                       # pybox2d 2.3.10 (the ``Box2D`` module)
    .venv/bin/python benchmarks/bench_motion_box2d.py           # 2000 pairs per case
    .venv/bin/python benchmarks/bench_motion_box2d.py --quick   # 300 pairs per case

Random ellipse pairs (radii 0.5 to 2, any angle) start apart and move towards each other, so that
most first touch within ``t in [0, 1]``: once with translation only, once also turning (angular
velocities up to 3 rad per unit time each). For each pair:

* ``c2.time_of_impact`` on the ellipses (batched, and one pair per call);
* ``c2.time_of_impact`` on inscribed ``K``-gon stand-ins of the ellipses (the polygons Box2D
  gets; batched, and one pair per call), which is the exact answer that Box2D's is judged against;
* Box2D's ``b2TimeOfImpact`` (conservative advancement with separating-axis functions, in float32)
  on the same ``K``-gons, one call per pair from Python (``K = 8`` and ``16``, Box2D's limit is 16).

Box2D stops by design at a target separation of about ``linearSlop = 0.005`` (plus or minus a
quarter of it) inside the polygons' skin radius of 0.01, so its time is *early* by about
``0.005 / closing speed`` on purpose. A Box2D answer counts as **wrong** here when it reports no
contact within ``t_max`` for a pair that touches (or the reverse), when the polygons overlap at
its time (a late stop: the shapes would have passed into each other), or when their gap there
exceeds 0.05 (ten times its target: an early stop by more than its tolerance explains). A
collide2d answer is wrong when the shapes are more than 1e-9 apart at its time or already overlap
1e-9 (in time) before it. Times are wall clock per pair (best of ``--repeat`` for the batches);
ratios are from one run. Prints markdown; writes no files. Seeds are fixed.
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time

import numpy as np

import collide2d as c2
from common import polygon_vertices, table  # noqa: E402 (benchmarks/ is on sys.path)

try:
    import Box2D
except ImportError:  # pragma: no cover
    Box2D = None


def make_pairs(n, turning, seed):
    """Ellipse pairs a, b apart at t = 0, with velocities (and angular velocities) that bring
    most of them together within t in [0, 1]."""
    rng = np.random.default_rng(seed)
    ca = rng.uniform(-50.0, 50.0, (n, 2))
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    gap = rng.uniform(4.5, 8.0, n)  # centres apart: more than the largest sum of radii (4)
    cb = ca + gap[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
    ra, rb = rng.uniform(0.5, 2.0, (n, 2)), rng.uniform(0.5, 2.0, (n, 2))
    aa, ab = rng.uniform(-np.pi, np.pi, n), rng.uniform(-np.pi, np.pi, n)
    speed = rng.uniform(2.0, 8.0, n)
    aim = heading + rng.normal(0.0, 0.25, n)  # a aims at b, with some scatter: some pass by
    va = speed[:, None] * np.stack([np.cos(aim), np.sin(aim)], axis=-1)
    vb = rng.uniform(-1.0, 1.0, (n, 2))
    wa = rng.uniform(-3.0, 3.0, n) if turning else np.zeros(n)
    wb = rng.uniform(-3.0, 3.0, n) if turning else np.zeros(n)
    return dict(ca=ca, cb=cb, ra=ra, rb=rb, aa=aa, ab=ab, va=va, vb=vb, wa=wa, wb=wb)


def ellipses(p, side):
    return c2.Ellipse(p["c" + side], p["r" + side], p["a" + side])


def local_polygons(p, side, k):
    """Inscribed k-gon vertices of each ellipse in its own frame (centre 0, angle 0)."""
    n = len(p["c" + side])
    return polygon_vertices(np.zeros((n, 2)), p["r" + side], np.tile([1.0, 0.0], (n, 1)), k)


def world_polygons(p, side, k):
    e = ellipses(p, side)
    w = np.asarray(e.direction) / np.hypot(*np.asarray(e.direction).T)[:, None]
    return c2.Polygon(polygon_vertices(p["c" + side], p["r" + side], w, k))


def ours(a, b, p, repeat):
    """Batched time_of_impact: best wall and CPU seconds of ``repeat`` runs, and the times."""
    best, best_cpu, result = math.inf, math.inf, None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = c2.time_of_impact(a, b, p["va"], p["vb"], angular_velocity_a=p["wa"],
                                   angular_velocity_b=p["wb"], t_max=1.0)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    return (best, best_cpu), result.time


def ours_single(a, b, p, count):
    """One pair per call, over the first ``count`` pairs: wall and CPU seconds per call. The single
    shapes and the velocity tuples are made beforehand, as Box2D's shapes and sweeps are (see
    :func:`box2d_times`); the first call, which may compile the single-pair path, is not timed."""
    calls = [(a[i], b[i], tuple(p["va"][i].tolist()), tuple(p["vb"][i].tolist()), float(p["wa"][i]), float(p["wb"][i]))
             for i in range(count)]
    first = calls[0]
    c2.time_of_impact(*first[:4], angular_velocity_a=first[4], angular_velocity_b=first[5], t_max=1.0)
    start, start_cpu = time.perf_counter(), time.process_time()
    for sa, sb, va, vb, wa, wb in calls:
        c2.time_of_impact(sa, sb, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=1.0)
    return (time.perf_counter() - start) / count, (time.process_time() - start_cpu) / count


def box2d_times(p, k):
    """Box2D's b2TimeOfImpact on the k-gon stand-ins: (seconds per pair, times with inf for no
    contact within t_max, states)."""
    n = len(p["ca"])
    verts = {side: local_polygons(p, side, k) for side in "ab"}
    shapes = {side: [Box2D.b2PolygonShape(vertices=[tuple(v) for v in verts[side][i]]) for i in range(n)] for side in "ab"}
    sweeps = {}
    for side in "ab":
        c0, v, a0, w = p["c" + side], p["v" + side], p["a" + side], p["w" + side]
        sweeps[side] = [Box2D.b2Sweep(localCenter=(0.0, 0.0), c0=tuple(c0[i]), c=tuple(c0[i] + v[i]), a0=float(a0[i]),
                                      a=float(a0[i] + w[i]), alpha0=0.0) for i in range(n)]
    out = np.full(n, np.inf)
    states = np.zeros(n, dtype=np.int64)
    call = Box2D.b2TimeOfImpact
    sa, sb, wa, wb = shapes["a"], shapes["b"], sweeps["a"], sweeps["b"]
    start, start_cpu = time.perf_counter(), time.process_time()
    results = [call(shapeA=sa[i], shapeB=sb[i], sweepA=wa[i], sweepB=wb[i], tMax=1.0) for i in range(n)]
    seconds = ((time.perf_counter() - start) / n, (time.process_time() - start_cpu) / n)
    touching = Box2D.b2TOIOutput.e_touching
    overlapped = Box2D.b2TOIOutput.e_overlapped
    for i, (state, t) in enumerate(results):
        states[i] = state
        if state == touching:
            out[i] = t
        elif state == overlapped:
            out[i] = 0.0
    return seconds, out, states


def moved(shape, p, side, t):
    """The shapes of one side at times ``t`` (per pair; inf taken as 1)."""
    t = np.where(np.isfinite(t), t, 1.0)
    return c2.rotate(c2.translate(shape, p["v" + side] * t[:, None]), p["w" + side] * t)


def gaps(a, b, p, t):
    """Signed separation of each pair at times ``t``."""
    return np.asarray(c2.contact(moved(a, p, "a", t), moved(b, p, "b", t)).separation)


def judge_box2d(a, b, p, exact, t):
    """Box2D's answers against the exact times on the same polygons: ``(missed, late, early,
    near, gap)``. ``missed``: the polygons touch within t_max but Box2D reports no contact.
    ``late``: they overlap at Box2D's time. ``early``: their gap there exceeds 0.05 (this
    includes reported contacts of pairs that never touch, unless they come within 0.05).
    ``near``: reported contacts of pairs that never touch but pass within its target
    separation (by design, not counted as wrong). ``gap``: the gaps at Box2D's times."""
    hit_exact, hit_box = np.isfinite(exact), np.isfinite(t)
    missed = int(np.sum(hit_exact & ~hit_box))
    reported = np.flatnonzero(hit_box)
    gap = gaps(a[reported], b[reported], {key: value[reported] for key, value in p.items()}, t[reported])
    late = int(np.sum(gap < -1e-9))
    early = int(np.sum(gap > 0.05))
    near = int(np.sum(~hit_exact[reported] & (gap <= 0.05)))
    return missed, late, early, near, gap


def judge_ours(a, b, p, t):
    """Pairs where our time is not a first touch: apart by more than 1e-9 at t, or overlapping
    already at t - 1e-9 (the reference is the exact-signed contact at those two instants)."""
    hit = np.flatnonzero(np.isfinite(t) & (t > 1e-9))
    sub = {key: value[hit] for key, value in p.items()}
    at = gaps(a[hit], b[hit], sub, t[hit])
    before = gaps(a[hit], b[hit], sub, t[hit] - 1e-9)
    return int(np.sum(at > 1e-9) + np.sum(before < 0.0)), float(np.max(np.abs(at))) if at.size else 0.0


def fmt_us(seconds):
    return f"{seconds * 1e6:.2f} us" if seconds < 1e-6 else f"{seconds * 1e6:.1f} us"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 pairs per case (smoke test)")
    parser.add_argument("--pairs", type=int, default=None, help="pairs per case (default 2000)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each batched timing (best counts; the first may compile)")
    args = parser.parse_args(argv)
    n = args.pairs or (300 if args.quick else 2000)
    print(f"# Time of impact: collide2d {c2.__version__} against Box2D on polygon stand-ins\n")
    box_version = getattr(Box2D, "__version__", "?") if Box2D else "not installed (pip install box2d)"
    print(f"Python {platform.python_version()}, numpy {np.__version__}, Box2D (pybox2d) {box_version}; "
          f"{n} pairs per case, seed 15\n")
    for turning in (False, True):
        p = make_pairs(n, turning, seed=15 + turning)
        ea, eb = ellipses(p, "a"), ellipses(p, "b")
        c2.time_of_impact(ea[:4], eb[:4], p["va"][:4], p["vb"][:4], angular_velocity_a=p["wa"][:4],
                          angular_velocity_b=p["wb"][:4])  # compile before timing
        seconds, t_ell = ours(ea, eb, p, args.repeat)
        single = ours_single(ea, eb, p, min(n, 300))
        wrong, worst = judge_ours(ea, eb, p, t_ell)
        rows = [["collide2d, ellipses", fmt_us(seconds[0] / n), fmt_us(seconds[1] / n), f"{fmt_us(single[0])} ({fmt_us(single[1])} CPU)",
                 int(np.isfinite(t_ell).sum()), wrong, f"largest gap at its time {worst:.1e}"]]
        for k in (8, 16):
            pa, pb = world_polygons(p, "a", k), world_polygons(p, "b", k)
            c2.time_of_impact(pa[:4], pb[:4], p["va"][:4], p["vb"][:4], angular_velocity_a=p["wa"][:4],
                              angular_velocity_b=p["wb"][:4])
            seconds_k, t_poly = ours(pa, pb, p, args.repeat)
            single_k = ours_single(pa, pb, p, min(n, 300))
            wrong_k, worst_k = judge_ours(pa, pb, p, t_poly)
            rows.append([f"collide2d, {k}-gons", fmt_us(seconds_k[0] / n), fmt_us(seconds_k[1] / n),
                         f"{fmt_us(single_k[0])} ({fmt_us(single_k[1])} CPU)", int(np.isfinite(t_poly).sum()), wrong_k,
                         f"largest gap at its time {worst_k:.1e}"])
            if Box2D is None:
                continue
            per_pair, t_box, states = box2d_times(p, k)
            missed, late, early, near, gap = judge_box2d(pa, pb, p, t_poly, t_box)
            failed = int(np.sum(states == Box2D.b2TOIOutput.e_failed))
            rows.append([f"Box2D b2TimeOfImpact, {k}-gons", fmt_us(per_pair[0]), fmt_us(per_pair[1]), "(the same)",
                         int(np.isfinite(t_box).sum()), missed + late + early,
                         f"missed {missed}, overlapping at its time {late}, gap > 0.05 at its time {early}; "
                         f"contacts of pairs passing within its slop {near}; e_failed {failed}; "
                         f"median gap at its time {np.median(gap):.4f}"])
        title = "translating and turning (|omega| <= 3)" if turning else "translation only"
        print(f"## {title}\n")
        print(table(["method", "wall per pair (batch)", "CPU per pair (batch)", "one pair per call (wall)",
                     "contacts found", "wrong", "notes"], rows))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
