#!/usr/bin/env python
"""All intersecting pairs among many ellipses: collide2d against shapely, ellipsoid-tree, coal, fcl.

Usage::

    .venv/bin/python benchmarks/bench_scenes.py            # the three target scenes + growth (~2.5 min)
    .venv/bin/python benchmarks/bench_scenes.py --quick    # smaller scenes and samples, smoke test
    .venv/bin/python benchmarks/bench_scenes.py --no-compare --ten-million  # collide2d only, and 1e7

Everything runs in one process on the same arrays (fixed seeds). Each time is the best of
``--repeat`` runs, in wall seconds (:func:`time.perf_counter`) with the process CPU seconds of the
same run (:func:`time.process_time`, all threads) in brackets; every JIT path of collide2d is
compiled on a small scene before anything is timed.

Scenes (centres uniform in the unit square, semi-axes a, b uniform in the given range, angles
uniform): "sparse 1e4" (10,000 ellipses, semi-axes in [0.001, 0.01]), "dense 1e4" (10,000,
[0.01, 0.1]) and "sparse 1e6" (1,000,000, semi-axes scaled by sqrt(1e4 / 1e6) = 0.1, i.e.
[1e-4, 1e-3], so that the mean number of neighbours matches the sparse 1e4 scene).

Tools:

- collide2d ``query_pairs(shapes)`` (exact; its answer is the reference), also split into
  ``predicate=None`` (broad phase: bounding boxes) and the rest (narrow phase);
- shapely 2.x ``STRtree.query(polys, predicate="intersects")`` on inscribed 64-gons and 1024-gons;
  polygon construction and tree construction are timed apart and added into a total;
- ellipsoid-tree ``EllipsoidTree(mus, Sigmas).self_collision_pairs()`` (exact, its own tree), and
  also its pairwise ``intersects`` called from Python on collide2d's broad-phase candidates;
- coal and python-fcl: ``collide`` on ellipsoids (a, b, H) with H = 10 x the largest semi-axis of the scene (a plane cut of two such
  ellipsoids centred at z = 0 is exact: their sections shrink about their own centres away from
  z = 0, so they meet iff the z = 0 ellipses meet), one Python call per broad-phase candidate.

Where a tool would take minutes (shapely on the dense or 1e6 scene, coal and fcl on millions of
candidates) it runs on a sample and the table says so: shapely queries a random fraction of the
polygons against the whole tree (construction of all polygons and of the tree is still timed in
full; query time is scaled up by 1 / fraction), the pairwise tools test a random sample of the
candidates (time scaled up to all candidates). Wrong pairs are counted against collide2d's answer
restricted to the same rows or candidates ("missed" = collide2d says intersecting, tool says no;
"extra" = the reverse), and a random sample of the disagreements is re-decided by an independent
mpmath check (50 digits: minimum of one ellipse's quadratic form over the other's boundary).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

import numpy as np

import collide2d as c2
from common import covariances, polygon_vertices  # noqa: E402 (benchmarks/ is on sys.path)

OPTIONAL = {}
for _name in ("shapely", "ellipsoid_tree", "coal", "fcl", "mpmath"):
    try:
        OPTIONAL[_name] = __import__(_name)
    except Exception as _error:  # pragma: no cover - optional comparison
        OPTIONAL[_name] = None
        OPTIONAL[_name + "_error"] = f"{type(_error).__name__}: {_error}"

SEED = 20261122
H_TALL = 10.0  # third semi-axis of coal's / fcl's ellipsoids, in units of the scene's largest semi-axis


# -- scenes and helpers --------------------------------------------------------------------------


def make_scene(n, lo, hi, seed=SEED):
    rng = np.random.default_rng(seed)
    center = rng.uniform(0.0, 1.0, (n, 2))
    radii = rng.uniform(lo, hi, (n, 2))
    angle = rng.uniform(0.0, np.pi, n)
    return c2.Ellipse(center, radii, angle)


def arrays(e):
    center = np.asarray(e.center, dtype=np.float64)
    radii = np.asarray(e.radii, dtype=np.float64)
    w = np.asarray(e.direction, dtype=np.float64)
    w = w / np.hypot(w[:, 0], w[:, 1])[:, None]
    return center, radii, w


def timed(function, repeat=1):
    """Best wall and CPU seconds of ``repeat`` calls, and the last result."""
    best = best_cpu = math.inf
    result = None
    for _ in range(repeat):
        result = None
        t0, c0 = time.perf_counter(), time.process_time()
        result = function()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best, best_cpu, result


def pair_keys(i, j, n):
    """Ordered pairs (i, j) as int64 keys i * n + j."""
    return np.asarray(i, dtype=np.int64) * n + np.asarray(j, dtype=np.int64)


def both_ways(pairs, n):
    return np.union1d(pair_keys(pairs[0], pairs[1], n), pair_keys(pairs[1], pairs[0], n))


def fmt(wall, cpu):
    return f"{wall:.3g} [{cpu:.3g}]"


# -- independent check ---------------------------------------------------------------------------


def mp_intersects(c1, r1, w1, c2_, r2, w2, mp):
    """Do two filled ellipses meet? 50-digit mpmath, independent of collide2d's kernels."""
    mp.mp.dps = 50
    M = [mp.mpf(float(v)) for v in (*c1, *r1, *w1, *c2_, *r2, *w2)]
    cx1, cy1, a1, b1, u1, v1, cx2, cy2, a2, b2, u2, v2 = M

    def f1(x, y):  # quadratic form of ellipse 1 (<= 1 inside)
        dx, dy = x - cx1, y - cy1
        p, q = dx * u1 + dy * v1, -dx * v1 + dy * u1
        return (p / a1) ** 2 + (q / b1) ** 2

    def f2(x, y):
        dx, dy = x - cx2, y - cy2
        p, q = dx * u2 + dy * v2, -dx * v2 + dy * u2
        return (p / a2) ** 2 + (q / b2) ** 2

    if f2(cx1, cy1) <= 1 or f1(cx2, cy2) <= 1:
        return True

    def g(t):  # f1 on the boundary of ellipse 2; its minimum decides (f1 convex, c1 outside e2)
        x, y = a2 * mp.cos(t), b2 * mp.sin(t)
        return f1(cx2 + u2 * x - v2 * y, cy2 + v2 * x + u2 * y)

    ts = np.linspace(0.0, 2.0 * np.pi, 4096, endpoint=False)
    c, s = np.cos(ts), np.sin(ts)
    fx, fy = float(a2) * c, float(b2) * s
    xs = float(cx2) + float(u2) * fx - float(v2) * fy
    ys = float(cy2) + float(v2) * fx + float(u2) * fy
    dx, dy = xs - float(cx1), ys - float(cy1)
    p, q = dx * float(u1) + dy * float(v1), -dx * float(v1) + dy * float(u1)
    k = int(np.argmin((p / float(a1)) ** 2 + (q / float(b1)) ** 2))
    lo, hi = mp.mpf(ts[k]) - mp.mpf(2 * np.pi / 4096), mp.mpf(ts[k]) + mp.mpf(2 * np.pi / 4096)
    for _ in range(160):  # golden-section search: interval shrinks by 0.618^160 ~ 1e-33
        m1, m2 = lo + (hi - lo) * mp.mpf("0.381966011250105"), hi - (hi - lo) * mp.mpf("0.381966011250105")
        if g(m1) < g(m2):
            hi = m2
        else:
            lo = m1
    return g((lo + hi) / 2) <= 1


def check_disagreements(keys, truth_says_yes, arr, n, sample, rng):
    """Re-decide a random sample of disagreeing ordered-pair keys; return (checked, agree with collide2d)."""
    mp = OPTIONAL["mpmath"]
    if mp is None or len(keys) == 0 or sample == 0:
        return 0, 0
    pick = rng.choice(len(keys), size=min(sample, len(keys)), replace=False)
    center, radii, w = arr
    agree = 0
    for k in pick:
        i, j = divmod(int(keys[k]), n)
        verdict = mp_intersects(center[i], radii[i], w[i], center[j], radii[j], w[j], mp)
        agree += verdict == bool(truth_says_yes[k])
    return len(pick), agree


class Wrong:
    """Missed / extra ordered pairs of a tool against collide2d, with an mpmath re-check of a sample."""

    def __init__(self, tool_keys, truth_keys, arr, n, sample, rng, ordered=False):
        missed = np.setdiff1d(truth_keys, tool_keys)
        extra = np.setdiff1d(tool_keys, truth_keys)
        keys = np.concatenate([missed, extra])
        yes = np.concatenate([np.ones(len(missed), bool), np.zeros(len(extra), bool)])
        d = 1 if ordered else 2  # with every row queried, each unordered pair appears twice
        self.missed, self.extra = len(missed) // d, len(extra) // d
        self.checked, self.agree = check_disagreements(keys, yes, arr, n, sample, rng)

    def text(self):
        s = f"{self.missed:,} missed, {self.extra:,} extra"
        if self.checked:
            s += f" (mpmath: collide2d right on {self.agree}/{self.checked})"
        return s


class Wrong1:
    """Same on unordered candidate pairs (pairwise tools): arrays of booleans."""

    def __init__(self, tool, truth, i, j, arr, n, sample, rng):
        bad = np.flatnonzero(tool != truth)
        self.missed = int(np.count_nonzero(truth[bad]))
        self.extra = len(bad) - self.missed
        self.checked, self.agree = check_disagreements(pair_keys(i[bad], j[bad], n), truth[bad], arr, n, sample, rng)

    text = Wrong.text


# -- tools ---------------------------------------------------------------------------------------


def run_collide2d(shapes, repeat):
    broad = timed(lambda: c2.query_pairs(shapes, predicate=None), repeat)
    full = timed(lambda: c2.query_pairs(shapes), repeat)
    return broad, full


def run_shapely(arr, count, fraction, rng, repeat):
    shapely = OPTIONAL["shapely"]
    center, radii, w = arr
    n = len(center)
    build = timed(lambda: shapely.polygons(polygon_vertices(center, radii, w, count)), 1)
    polys = build[2]
    tree_t = timed(lambda: shapely.STRtree(polys), 1)
    tree = tree_t[2]
    rows = np.arange(n) if fraction >= 1 else np.sort(rng.choice(n, size=max(1, int(n * fraction)), replace=False))
    query = timed(lambda: tree.query(polys[rows], predicate="intersects"), repeat)
    q, t = query[2]
    q = rows[q]
    keep = q != t
    keys = pair_keys(q[keep], t[keep], n)
    scale = n / len(rows)
    return build[:2], tree_t[:2], (query[0] * scale, query[1] * scale), keys, rows


def run_et_tree(arr, repeat):
    et = OPTIONAL["ellipsoid_tree"]
    center, radii, w = arr
    sigma = covariances(radii, w)

    def go():
        tree = et.EllipsoidTree(np.asfortranarray(center), sigma)
        return tree.self_collision_pairs()

    wall, cpu, pairs = timed(go, repeat)
    p = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    return (wall, cpu), both_ways(p, len(center))


def run_et_pairwise(arr, i, j, repeat):
    et = OPTIONAL["ellipsoid_tree"]
    center, radii, w = arr
    sigma = covariances(radii, w)
    objs = [et.Ellipsoid(center[k], sigma[k]) for k in range(len(center))]
    test = et.intersects
    wall, cpu, out = timed(lambda: np.fromiter((test(objs[a], objs[b]) for a, b in zip(i.tolist(), j.tolist())),
                                               dtype=bool, count=len(i)), repeat)
    return (wall, cpu), out


def rotation_z(w):
    R = np.eye(3)
    R[0, 0], R[0, 1], R[1, 0], R[1, 1] = w[0], -w[1], w[1], w[0]
    return R


def run_coal(arr, i, j, repeat):
    coal = OPTIONAL["coal"]
    center, radii, w = arr
    used = np.unique(np.concatenate([i, j]))
    tall = H_TALL * float(radii.max())
    geo, tf = {}, {}
    for k in used.tolist():
        geo[k] = coal.Ellipsoid(radii[k, 0], radii[k, 1], tall)
        t = coal.Transform3s()
        t.setRotation(rotation_z(w[k]))
        t.setTranslation(np.array([center[k, 0], center[k, 1], 0.0]))
        tf[k] = t
    req = coal.CollisionRequest()
    collide, Result = coal.collide, coal.CollisionResult

    def go():
        out = np.empty(len(i), dtype=bool)
        for m, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
            out[m] = collide(geo[a], tf[a], geo[b], tf[b], req, Result()) > 0
        return out

    wall, cpu, out = timed(go, repeat)
    return (wall, cpu), out


def run_fcl(arr, i, j, repeat):
    fcl = OPTIONAL["fcl"]
    center, radii, w = arr
    used = np.unique(np.concatenate([i, j]))
    tall = H_TALL * float(radii.max())
    obj = {}
    for k in used.tolist():
        tfm = fcl.Transform(rotation_z(w[k]), np.array([center[k, 0], center[k, 1], 0.0]))
        obj[k] = fcl.CollisionObject(fcl.Ellipsoid(radii[k, 0], radii[k, 1], tall), tfm)
    req = fcl.CollisionRequest()
    collide, Result = fcl.collide, fcl.CollisionResult

    def go():
        out = np.empty(len(i), dtype=bool)
        for m, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
            out[m] = collide(obj[a], obj[b], req, Result()) > 0
        return out

    wall, cpu, out = timed(go, repeat)
    return (wall, cpu), out


# -- report --------------------------------------------------------------------------------------


def compare_scene(name, shapes, args, rng, plan):
    arr = arrays(shapes)
    n = len(arr[0])
    (bw, bc, cand), (fw, fc, pairs) = run_collide2d(shapes, args.repeat)
    truth_keys = both_ways(pairs, n)
    ref_cpu = fc
    print(f"\n### {name}: n = {n:,}, candidates (boxes) {cand.shape[1]:,}, intersecting pairs {pairs.shape[1]:,}, "
          f"{2 * pairs.shape[1] / n:.1f} neighbours per ellipse; load {os.getloadavg()[0]:.2f}\n", flush=True)
    print("| tool | sample | build s [cpu] | query s [cpu] | total s [cpu] | CPU ratio to collide2d | wrong pairs |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| collide2d `query_pairs` | all | - | - | {fmt(fw, fc)} | 1 | reference (exact) |")
    print(f"| - of which broad phase (`predicate=None`) | all | - | - | {fmt(bw, bc)} | {bc / fc:.2f} | - |")
    print(f"| - of which narrow phase (difference of the best times) | all | - | - | {fmt(fw - bw, fc - bc)} | {(fc - bc) / fc:.2f} | - |", flush=True)
    summary = {"n": n, "cand": cand.shape[1], "pairs": pairs.shape[1], "c2": (fw, fc), "broad": (bw, bc)}
    if OPTIONAL["shapely"] is not None:
        for count, fraction in plan["shapely"]:
            if fraction <= 0:
                print(f"| shapely STRtree, {count}-gons | skipped | - | - | - | - | - |")
                continue
            (pw, pc), (tw, tc), (qw, qc), keys, rows = run_shapely(arr, count, fraction, rng, args.repeat)
            sub = truth_keys[np.isin(truth_keys // n, rows)]
            wrong = Wrong(keys, sub, arr, n, args.check, rng, ordered=fraction < 1)
            tot_w, tot_c = pw + tw + qw, pc + tc + qc
            samp = "all" if fraction >= 1 else f"queries on {len(rows):,} rows, time x{n / len(rows):.0f}"
            wrong_txt = wrong.text() + ("" if fraction >= 1 else " (in the sampled rows)")
            print(f"| shapely STRtree, {count}-gons | {samp} | polys {fmt(pw, pc)} + tree {fmt(tw, tc)} | {fmt(qw, qc)} | "
                  f"{fmt(tot_w, tot_c)} | {tot_c / ref_cpu:.0f} | {wrong_txt} |", flush=True)
            summary[f"shapely{count}"] = (tot_w, tot_c)
    else:
        print(f"| shapely | not installed: {OPTIONAL['shapely_error']} | | | | | |")
    et = OPTIONAL["ellipsoid_tree"]
    if et is not None and plan["et_tree"]:
        (ew, ec), keys = run_et_tree(arr, 1)
        wrong = Wrong(keys, truth_keys, arr, n, args.check, rng)
        print(f"| ellipsoid-tree `EllipsoidTree.self_collision_pairs` | all | - | - | {fmt(ew, ec)} | "
              f"{ec / ref_cpu:.1f} | {wrong.text()} |", flush=True)
        summary["et_tree"] = (ew, ec)
    # pairwise tools on broad-phase candidates
    ci, cj = cand[0], cand[1]
    truth_c = np.isin(pair_keys(ci, cj, n), pair_keys(pairs[0], pairs[1], n))
    tools = [("ellipsoid-tree `intersects` per candidate", "ellipsoid_tree", run_et_pairwise),
             ("coal `collide`, ellipsoids (a, b, 10 max a), per candidate", "coal", run_coal),
             ("python-fcl `collide`, ellipsoids (a, b, 10 max a), per candidate", "fcl", run_fcl)]
    for label, mod, runner in tools:
        if OPTIONAL[mod] is None:
            print(f"| {label} | not installed: {OPTIONAL[mod + '_error']} | | | | | |")
            continue
        m = len(ci)
        take = np.arange(m) if m <= plan["pairwise"] else np.sort(rng.choice(m, size=plan["pairwise"], replace=False))
        (w_, c_), out = runner(arr, ci[take], cj[take], 1)
        scale = m / len(take)
        wrong = Wrong1(out, truth_c[take], ci[take], cj[take], arr, n, args.check, rng)
        samp = "all candidates" if scale == 1 else f"{len(take):,} of {m:,} candidates, time x{scale:.0f}"
        total_c = c_ * scale + bc
        print(f"| {label} | {samp} | - | {fmt(w_ * scale, c_ * scale)} | + our broad phase: {fmt(w_ * scale + bw, total_c)} | "
              f"{total_c / ref_cpu:.0f} | {wrong.text()}{'' if scale == 1 else ' (in the sample)'} |", flush=True)
    return summary


def growth(args):
    print("\n### Growth of collide2d `query_pairs` (best of "
          f"{args.repeat}); load {os.getloadavg()[0]:.2f}\n")
    print("| scene | n | semi-axes | candidates | pairs | neighbours | broad s [cpu] | total s [cpu] | CPU us per ellipse | CPU ns per pair |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    sizes = [1_000, 10_000, 100_000] if args.quick else [1_000, 10_000, 100_000, 1_000_000]
    for n in sizes:
        s = math.sqrt(1e4 / n)
        rows.append(("N, constant density", n, 0.001 * s, 0.01 * s))
    for f in ((1, 2, 5) if args.quick else (1, 2, 4, 7, 10)):
        rows.append(("density, n = 1e4", 10_000, 0.001 * f, 0.01 * f))
    for label, n, lo, hi in rows:
        shapes = make_scene(n, lo, hi, seed=SEED + 1)
        rep = args.repeat if n < 1_000_000 else max(1, args.repeat // 2)
        (bw, bc, cand), (fw, fc, pairs) = run_collide2d(shapes, rep)
        k = pairs.shape[1]
        print(f"| {label} | {n:,} | [{lo:.3g}, {hi:.3g}] | {cand.shape[1]:,} | {k:,} | {2 * k / n:.1f} | {fmt(bw, bc)} | "
              f"{fmt(fw, fc)} | {1e6 * fc / n:.2f} | {1e9 * fc / max(k, 1):.0f} |", flush=True)


def ten_million():
    """10,000,000 ellipses, semi-axes scaled by sqrt(1e4 / 1e7) (about 4 neighbours each), one
    call each for the candidates and the intersecting pairs; peak RSS of the whole process."""
    import resource

    n = 10_000_000
    s = math.sqrt(1e4 / n)
    t0 = time.perf_counter()
    shapes = make_scene(n, 0.001 * s, 0.01 * s, seed=SEED + 2)
    build = time.perf_counter() - t0
    rss_scene = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"\n### 1e7 ellipses, semi-axes [{0.001 * s:.3g}, {0.01 * s:.3g}] (one run each); load {os.getloadavg()[0]:.2f}\n")
    print(f"scene built in {build:.1f} s; peak RSS after building it {rss_scene:.2f} GiB\n")
    print("| call | pairs | wall s [cpu] | peak RSS of the process, GiB |")
    print("| --- | ---: | ---: | ---: |")
    for predicate in (None, "intersects"):
        wall, cpu, pairs = timed(lambda: c2.query_pairs(shapes, predicate=predicate))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(f"| `query_pairs(..., predicate={predicate!r})` | {pairs.shape[1]:,} | {fmt(wall, cpu)} | {rss:.2f} |", flush=True)
        del pairs
    print(f"\nload at the end: {os.getloadavg()[0]:.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller scenes and samples (smoke test)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per collide2d timing; the best counts")
    parser.add_argument("--check", type=int, default=30, help="disagreements re-decided with mpmath, per tool")
    parser.add_argument("--no-growth", action="store_true")
    parser.add_argument("--no-compare", action="store_true")
    parser.add_argument("--ten-million", action="store_true",
                        help="also 1e7 ellipses at ~4 neighbours (one run each; needs ~6 GB)")
    args = parser.parse_args(argv)
    import numba

    versions = [f"numpy {np.__version__}", f"numba {numba.__version__}"]
    for mod in ("shapely", "ellipsoid_tree", "coal", "fcl"):
        m = OPTIONAL[mod]
        versions.append(f"{mod} {getattr(m, '__version__', '?')}" if m else f"{mod}: missing")
    print(f"# Scenes of many ellipses ({platform.machine()}, {os.cpu_count()} CPUs, "
          f"{numba.config.NUMBA_NUM_THREADS} numba threads; {', '.join(versions)})")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          "times are wall s [process CPU s, all threads]")
    c2.query_pairs(make_scene(3000, 0.005, 0.05, seed=1))  # compile every path
    c2.query_pairs(make_scene(3000, 0.005, 0.05, seed=1), predicate=None)
    rng = np.random.default_rng(SEED + 7)
    if not args.no_compare:
        if args.quick:
            scenes = [("sparse 1e4", 10_000, 0.001, 0.01,
                       {"shapely": [(64, 1.0), (1024, 0.2)], "et_tree": True, "pairwise": 20_000}),
                      ("dense 1e4", 10_000, 0.01, 0.1,
                       {"shapely": [(64, 0.02), (1024, 0.002)], "et_tree": True, "pairwise": 20_000}),
                      ("sparse 1e5", 100_000, 0.001 * 0.316, 0.01 * 0.316,
                       {"shapely": [(64, 0.05), (1024, 0.0)], "et_tree": True, "pairwise": 20_000})]
        else:
            scenes = [("sparse 1e4", 10_000, 0.001, 0.01,
                       {"shapely": [(64, 1.0), (1024, 1.0)], "et_tree": True, "pairwise": 200_000}),
                      ("dense 1e4", 10_000, 0.01, 0.1,
                       {"shapely": [(64, 0.1), (1024, 0.01)], "et_tree": True, "pairwise": 100_000}),
                      ("sparse 1e6", 1_000_000, 0.0001, 0.001,
                       {"shapely": [(64, 0.02), (1024, 0.0)], "et_tree": True, "pairwise": 100_000})]
        for name, n, lo, hi, plan in scenes:
            compare_scene(name, make_scene(n, lo, hi), args, rng, plan)
    if not args.no_growth:
        growth(args)
    if args.ten_million:
        ten_million()


if __name__ == "__main__":
    sys.exit(main())
