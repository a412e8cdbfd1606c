#!/usr/bin/env python
"""Benchmark collide2d's measures (contact, distance, overlap area, IoU, intersection points) and
its broad phase against shapely 2.x, coal and scipy.

Usage::

    .venv/bin/python benchmarks/bench_measures.py            # full run (about 10 minutes idle)
    .venv/bin/python benchmarks/bench_measures.py --quick    # small sizes, for a smoke test

Prints markdown on standard output and writes no files. Seeds are fixed; every JIT path is called
once before it is timed; each time is the best of ``--repeat`` runs (:func:`time.perf_counter`),
printed next to the best process CPU time of the same runs (:func:`time.process_time`, all
threads), which is the steadier figure on a loaded machine.

Sections:

1. ``c2.contact`` on random ellipse pairs (apart and overlapping pairs timed apart), point-ellipse
   distance (``contact(ellipse, Point)`` and ``closest_point``), against shapely ``distance`` on
   inscribed 64-gons and 1024-gons (construction included) and coal's signed distance between
   3-D ellipsoids ``(a, b, H)`` with a tall third axis (whose distance equals the 2-D one).
2. ``overlap_area``, ``iou`` and ``intersection_points`` on random overlapping ellipse pairs,
   against shapely ``intersection(...).area`` on 64-gons and 1024-gons.
3. Broad phase: ``c2.query_pairs`` against shapely ``STRtree`` (64-gons, build + query with
   predicate ``intersects``) and scipy ``cKDTree.query_pairs`` on the centres followed by
   ``c2.intersects`` on the candidates.

shapely, coal and scipy are optional: a missing one is reported, not an error.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys

import numpy as np

import collide2d as c2
from common import best_of, polygon_vertices, random_pairs, table, unit_direction, LAST_CPU as _LAST_CPU, SEED  # noqa: E402 (benchmarks/ is on sys.path)

try:
    import shapely
except ImportError:  # pragma: no cover
    shapely = None
try:
    import coal
except ImportError as _error:  # pragma: no cover
    coal, COAL_ERROR = None, str(_error)
try:
    from scipy.spatial import cKDTree
except ImportError:  # pragma: no cover
    cKDTree = None

H_TALL = 20.0  # third semi-axis of coal's ellipsoids (>> the 2-D sizes, which are <= 2)



def fmt_time(s):
    if s is None or (isinstance(s, float) and math.isnan(s)):
        return "-"
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.2f} us"
    if s < 1.0:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def polygons(e, count):
    """shapely polygons inscribed in the ellipse batch ``e`` (vertices on the stored ellipse)."""
    return shapely.polygons(polygon_vertices(np.asarray(e.center), np.asarray(e.radii), unit_direction(e), count))


class Rows:
    def __init__(self):
        self.rows = []

    def add(self, name, n, wall, cpu, extra=""):
        self.rows.append([name, f"{n:,}", fmt_time(wall), fmt_time(cpu), fmt_time(wall / n), fmt_time(cpu / n),
                          f"{n / wall:.3g}", f"{n / cpu:.3g}" if cpu > 0 else "-", extra])


HEADER = ["method", "items", "wall (best)", "CPU (best)", "wall per item", "CPU per item", "items/s (wall)",
          "items per CPU-s", "accuracy / notes"]


def err_stats(err):
    err = np.abs(np.asarray(err, dtype=np.float64))
    err = err[np.isfinite(err)]
    if err.size == 0:
        return "-"
    return f"median {np.median(err):.2g}, max {err.max():.2g}"


# -- 1. contact and distance ---------------------------------------------------------------------


def rotation_z(w):
    R = np.eye(3)
    R[0, 0], R[0, 1], R[1, 0], R[1, 1] = w[0], -w[1], w[1], w[0]
    return R


def coal_signed_distance(ea, eb, n, tight):
    ca, cb = np.asarray(ea.center), np.asarray(eb.center)
    ra, rb = np.asarray(ea.radii), np.asarray(eb.radii)
    wa, wb = unit_direction(ea), unit_direction(eb)
    req = coal.DistanceRequest()
    if tight:
        req.gjk_tolerance = 1e-12
        req.epa_tolerance = 1e-12
        req.epa_max_iterations = 1000
        req.gjk_max_iterations = 1000
    shapes_a = [coal.Ellipsoid(ra[k, 0], ra[k, 1], H_TALL) for k in range(n)]
    shapes_b = [coal.Ellipsoid(rb[k, 0], rb[k, 1], H_TALL) for k in range(n)]
    tfa, tfb = [], []
    for k in range(n):
        t = coal.Transform3s()
        t.setRotation(rotation_z(wa[k]))
        t.setTranslation(np.array([ca[k, 0], ca[k, 1], 0.0]))
        tfa.append(t)
        t = coal.Transform3s()
        t.setRotation(rotation_z(wb[k]))
        t.setTranslation(np.array([cb[k, 0], cb[k, 1], 0.0]))
        tfb.append(t)

    def run():
        out = np.empty(n)
        dist = coal.distance
        for k in range(n):
            res = coal.DistanceResult()
            out[k] = dist(shapes_a[k], tfa[k], shapes_b[k], tfb[k], req, res)
        return out

    return run


def kernel_one_thread(e1, e2, repeat):
    """Best time of the ellipse-pair contact loop on one thread, and the evaluation counts of g."""
    import numba

    from collide2d._kernels.measure import distance_ellipse

    from collide2d._kernels.measure import loops as loops_contact

    pa, pb = np.ascontiguousarray(e1._params), np.ascontiguousarray(e2._params)
    empty = np.empty((0, 2))
    index = np.arange(len(pa))
    out = np.empty((len(pa), 9))
    threads = numba.get_num_threads()
    run = loops_contact.contact_ellipse_ellipse_loop.parallel
    numba.set_num_threads(1)
    try:
        run(pa, empty, index, pb, empty, index, out)
        t, _ = best_of(lambda: run(pa, empty, index, pb, empty, index, out), repeat)
    finally:
        numba.set_num_threads(threads)
    count = distance_ellipse.contact_ellipse_ellipse_iterations
    evals = np.array([count(pa[k], empty, pb[k], empty) for k in range(min(len(pa), 20_000))])
    return t, evals


def bench_contact(args):
    (ca, ra, ta), (cb, rb, tb) = random_pairs(args.n)
    ea, eb = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    hit = np.asarray(c2.intersects(ea, eb))
    apart = np.flatnonzero(~hit)
    over = np.flatnonzero(hit)[: args.n_over]
    ea_ap, eb_ap, ea_ov, eb_ov = ea[apart], eb[apart], ea[over], eb[over]
    c2.contact(ea[:2000], eb[:2000])
    rows, notes = Rows(), []
    t, r_ap = best_of(lambda: c2.contact(ea_ap, eb_ap), args.repeat)
    rows.add("collide2d `contact`, apart pairs", len(apart), t, _LAST_CPU[0])
    t, r_ov = best_of(lambda: c2.contact(ea_ov, eb_ov), args.repeat_slow)
    rows.add("collide2d `contact`, overlapping pairs", len(over), t, _LAST_CPU[0])
    # the ellipse-pair kernel alone on one thread (the glue of `contact` adds the exact relation
    # only for the pairs within 2^-32 of touching: measurement._sign_consistent)
    for label, e1, e2 in (("apart", ea_ap, eb_ap), ("overlapping", ea_ov, eb_ov)):
        t, evals = kernel_one_thread(e1, e2, args.repeat_slow)
        rows.add(f"contact kernel alone, {label} pairs, one thread", len(e1), t, _LAST_CPU[0],
                 f"evaluations of g per pair: mean {evals.mean():.1f}, max {evals.max()}")
    # mixed batch in the workload's proportions (apart share of the 1e6 workload)
    n_mix = args.n_mix
    t, _ = best_of(lambda: c2.contact(ea[:n_mix], eb[:n_mix]), args.repeat_slow)
    rows.add(f"collide2d `contact`, all pairs ({1 - hit[:n_mix].mean():.0%} apart)", n_mix, t, _LAST_CPU[0])
    t, _ = best_of(lambda: c2.distance(ea_ap, eb_ap), args.repeat)
    rows.add("collide2d `distance`, apart pairs", len(apart), t, _LAST_CPU[0])
    notes.append(f"Workload: {args.n:,} pairs of bench_predicates.py (seed {SEED}); {len(apart):,} apart, "
                 f"{int(hit.sum()):,} overlapping, of which the first {len(over):,} are timed.")

    # points: one ellipse per point, and one ellipse against many points
    rng = np.random.default_rng(SEED + 7)
    m = args.n_points
    (cp, rp, tp), _ = random_pairs(m, SEED + 7)
    ep = c2.Ellipse(cp, rp, tp)
    xy = cp + rng.uniform(-4.0, 4.0, (m, 2))
    pts = c2.Point(xy)
    c2.contact(ep[:1000], pts[:1000])
    c2.closest_point(ep[:1000], xy[:1000])
    t, r_pt = best_of(lambda: c2.contact(ep, pts), args.repeat)
    rows.add("collide2d `contact(ellipse, Point)`, one ellipse per point", m, t, _LAST_CPU[0],
             f"{np.mean(r_pt.separation > 0):.0%} of points outside")
    t, _ = best_of(lambda: c2.distance(ep, pts), args.repeat)
    rows.add("collide2d `distance(ellipse, Point)`, one ellipse per point", m, t, _LAST_CPU[0])
    t, _ = best_of(lambda: c2.closest_point(ep, xy), args.repeat)
    rows.add("collide2d `closest_point(ellipse, xy)`, one ellipse per point", m, t, _LAST_CPU[0])
    one = c2.Ellipse((0.0, 0.0), (2.0, 0.7), 0.3)
    xy1 = rng.uniform(-4.0, 4.0, (m, 2))
    pts1 = c2.Point(xy1)
    c2.contact(one, pts1[:1000])
    t, _ = best_of(lambda: c2.contact(one, pts1), args.repeat)
    rows.add("collide2d `contact(ellipse, Point)`, one ellipse, many points", m, t, _LAST_CPU[0])
    t, _ = best_of(lambda: c2.closest_point(one, xy1), args.repeat)
    rows.add("collide2d `closest_point(ellipse, xy)`, one ellipse, many points", m, t, _LAST_CPU[0])
    t, _ = best_of(lambda: c2.Point(xy), args.repeat)
    rows.add("(construction of the `Point` batch alone)", m, t, _LAST_CPU[0])

    if shapely is None:
        rows.rows.append(["shapely"] + ["-"] * 7 + ["not installed"])
    else:
        ours_ap = np.asarray(r_ap.separation)
        for count, k in ((64, args.n_poly64), (1024, args.n_poly1024)):
            sa, sb = ea_ap[:k], eb_ap[:k]
            polygons(sa[:10], count)

            def run():
                return shapely.distance(polygons(sa, count), polygons(sb, count))

            t, d = best_of(run, args.repeat_slow)
            rel = (d - ours_ap[:k]) / np.maximum(ours_ap[:k], 1e-300)
            rows.add(f"shapely {count}-gon `distance`, apart pairs (build included)", k, t, _LAST_CPU[0],
                     f"(shapely - ours) / ours: {err_stats(rel)}; abs: {err_stats(d - ours_ap[:k])}")
            pa, pb = polygons(sa, count), polygons(sb, count)
            t, _ = best_of(lambda: shapely.distance(pa, pb), args.repeat_slow)
            rows.add(f"shapely {count}-gon `distance`, apart pairs (prebuilt)", k, t, _LAST_CPU[0])
            # points
            kp = min(k * 4, m)
            ours_pt = np.asarray(r_pt.separation)[:kp]

            def run_pt():
                return shapely.distance(polygons(ep[:kp], count), shapely.points(xy[:kp]))

            t, dp = best_of(run_pt, args.repeat_slow)
            outside = ours_pt > 0
            errp = dp[outside] - ours_pt[outside]
            rows.add(f"shapely {count}-gon `distance` to points (build included)", kp, t, _LAST_CPU[0],
                     f"outside points, shapely - ours: {err_stats(errp)}; inside: shapely gives 0")
            polys = polygons(ep[:kp], count)
            spts = shapely.points(xy[:kp])
            t, _ = best_of(lambda: shapely.distance(polys, spts), args.repeat_slow)
            rows.add(f"shapely {count}-gon `distance` to points (prebuilt)", kp, t, _LAST_CPU[0])
            del pa, pb, polys
        notes.append("shapely's `distance` is 0 for overlapping polygons (no penetration depth), so only apart "
                     "pairs and outside points are compared. Inscribed polygons lie inside the ellipse, so "
                     "shapely's distance is never smaller than the exact one.")

    if coal is None:
        rows.rows.append(["coal"] + ["-"] * 7 + [f"not installed: {COAL_ERROR}"])
    else:
        k = args.n_coal
        ours_ov = np.asarray(r_ov.separation)
        for label, eA, eB, ours in (("apart", ea_ap, eb_ap, np.asarray(r_ap.separation)),
                                    ("overlapping", ea_ov, eb_ov, ours_ov)):
            for tight in (False, True):
                run = coal_signed_distance(eA, eB, k, tight)
                run()
                t, d = best_of(run, args.repeat_slow)
                failed = ~(np.abs(d) < 1e100)
                err = np.where(failed, np.nan, d - ours[:k])
                scale = np.maximum(np.asarray(eA.radii)[:k].max(1), np.asarray(eB.radii)[:k].max(1))
                rows.add(f"coal `distance`, ellipsoids (a, b, {H_TALL:g}), {label}, "
                         f"{'tolerances 1e-12' if tight else 'default tolerances'} (Python loop)", k, t, _LAST_CPU[0],
                         f"abs(coal - ours) / size: {err_stats(err / scale)}; "
                         f"sign differs on {int(np.sum((np.sign(d) != np.sign(ours[:k])) & ~failed))}; "
                         f"failed (|result| > 1e100) on {int(failed.sum())}")
        notes.append(f"coal: each 2-D ellipse is the ellipsoid with radii (a, b, {H_TALL:g}) rotated about z, "
                     "centre at z = 0. Since cross-sections shrink away from z = 0 and H is large, the 3-D "
                     "signed distance equals the 2-D one (apart: projections onto z = 0 lie in the mid-sections; "
                     "overlapping: tilting the direction out of the plane only adds H^2 terms to the support "
                     "functions). One `coal.distance` call per pair from Python, shapes and transforms prebuilt.")
    return table(HEADER, rows.rows), notes


# -- 2. overlap area, IoU, intersection points ---------------------------------------------------


def bench_area(args):
    (ca, ra, ta), (cb, rb, tb) = random_pairs(args.n)
    ea, eb = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    over = np.flatnonzero(np.asarray(c2.intersects(ea, eb)))
    ea, eb = ea[over], eb[over]
    n = len(over)
    c2.overlap_area(ea[:1000], eb[:1000])
    c2.iou(ea[:1000], eb[:1000])
    c2.intersection_points(ea[:1000], eb[:1000])
    rows, notes = Rows(), []
    t, area = best_of(lambda: c2.overlap_area(ea, eb), args.repeat)
    area = np.asarray(area)
    rows.add("collide2d `overlap_area`", n, t, _LAST_CPU[0])
    t, _ = best_of(lambda: c2.iou(ea, eb), args.repeat)
    rows.add("collide2d `iou`", n, t, _LAST_CPU[0])
    t, (points, count) = best_of(lambda: c2.intersection_points(ea, eb), args.repeat)
    counts = np.bincount(np.asarray(count), minlength=5)
    rows.add("collide2d `intersection_points`", n, t, _LAST_CPU[0],
             "point counts 0/1/2/3/4: " + "/".join(f"{c:,}" for c in counts[:5]))
    t, _ = best_of(lambda: c2.relate(ea, eb), args.repeat)
    rows.add("(for reference: collide2d `relate`, same pairs)", n, t, _LAST_CPU[0])
    inner = area > 0
    notes.append(f"{n:,} overlapping pairs (the intersecting pairs among {args.n:,} of the bench_predicates.py "
                 f"workload); {np.mean(np.asarray(count) == 0):.1%} have no boundary "
                 "crossing (one ellipse inside the other).")
    if shapely is None:
        rows.rows.append(["shapely"] + ["-"] * 7 + ["not installed"])
    else:
        for count, k in ((64, args.n_poly64), (1024, args.n_poly1024)):
            sa, sb = ea[:k], eb[:k]

            def run():
                return shapely.area(shapely.intersection(polygons(sa, count), polygons(sb, count)))

            t, a = best_of(run, args.repeat_slow)
            ok = inner[:k]
            rel = (a[ok] - area[:k][ok]) / area[:k][ok]
            rows.add(f"shapely {count}-gon `intersection(...).area` (build included)", k, t, _LAST_CPU[0],
                     f"relative error (shapely - ours) / ours: {err_stats(rel)}; signed median {np.median(rel):.2g}")
            pa, pb = polygons(sa, count), polygons(sb, count)
            t, _ = best_of(lambda: shapely.area(shapely.intersection(pa, pb)), args.repeat_slow)
            rows.add(f"shapely {count}-gon `intersection(...).area` (prebuilt)", k, t, _LAST_CPU[0])
            del pa, pb
    return table(HEADER, rows.rows), notes


# -- 3. broad phase ------------------------------------------------------------------------------


def scene(n, seed=1):
    """As bench_broadphase.py: one centre per unit area, semi-axes in [0.5, 1.5], any angle."""
    rng = np.random.default_rng(seed)
    side = float(np.sqrt(n))
    center = rng.uniform(0, side, size=(n, 2))
    radii = rng.uniform(0.5, 1.5, size=(n, 2))
    return center, radii, rng.uniform(0, np.pi, size=n)


def bench_broad(args):
    rows = []
    small = c2.Ellipse(*scene(2000, seed=2))
    c2.query_pairs(small)
    header = ["n", "method", "pairs found", "candidates", "build shapes wall [CPU]", "query wall [CPU]",
              "total wall [CPU]", "notes"]

    def cell(w, c):
        return f"{fmt_time(w)} [{fmt_time(c)}]"

    if cKDTree is not None:
        cen = small.center
        tree = cKDTree(cen)
        ij = tree.query_pairs(3.0, output_type="ndarray")
        c2.intersects(small[ij[:, 0]], small[ij[:, 1]])
    for n in args.broad_sizes:
        center, radii, angle = scene(n)
        reps = args.repeat_broad if n <= 100_000 else 1
        tb, shapes = best_of(lambda: c2.Ellipse(center, radii, angle), reps)
        cb = _LAST_CPU[0]
        tq, pairs = best_of(lambda: c2.query_pairs(shapes), reps)
        cq = _LAST_CPU[0]
        ours = pairs.shape[1]
        key = pairs[0].astype(np.int64) * n + pairs[1]
        rows.append([f"{n:,}", "collide2d `query_pairs` (exact)", f"{ours:,}", "-", cell(tb, cb), cell(tq, cq),
                     cell(tb + tq, cb + cq), ""])
        if cKDTree is not None:
            r = 2.0 * float(radii.max())

            def kd():
                tree = cKDTree(center)
                ij = tree.query_pairs(r, output_type="ndarray")
                return ij

            tk, ij = best_of(kd, reps)
            ck = _LAST_CPU[0]

            def narrow():
                return c2.intersects(shapes[ij[:, 0]], shapes[ij[:, 1]])

            tn, hit = best_of(narrow, reps)
            cn = _LAST_CPU[0]
            found = int(np.count_nonzero(hit))
            kd_key = ij[:, 0].astype(np.int64) * n + ij[:, 1]
            same = np.array_equal(np.sort(kd_key[np.asarray(hit)]), np.sort(key))
            rows.append([f"{n:,}", f"scipy `cKDTree.query_pairs(r={r:.3g})` + `c2.intersects`", f"{found:,}",
                         f"{len(ij):,}", cell(tb, cb), f"tree+pairs {cell(tk, ck)}; intersects {cell(tn, cn)}",
                         cell(tb + tk + tn, cb + ck + cn), f"same pairs as query_pairs: {same}"])
            del ij, hit, kd_key
        if shapely is not None and n <= args.strtree_max:
            w = np.stack([np.cos(angle), np.sin(angle)], -1)

            def build():
                return shapely.polygons(polygon_vertices(center, radii, w, 64))

            ts, polys = best_of(build, 1)
            cs = _LAST_CPU[0]

            def query():
                tree = shapely.STRtree(polys)
                return tree.query(polys, predicate="intersects")

            tt, res = best_of(query, 1)
            ct = _LAST_CPU[0]
            keep = res[0] < res[1]
            found = int(np.count_nonzero(keep))
            s_key = res[0][keep].astype(np.int64) * n + res[1][keep]
            missed = len(np.setdiff1d(key, s_key, assume_unique=True))
            extra = len(np.setdiff1d(s_key, key, assume_unique=True))
            rows.append([f"{n:,}", "shapely 64-gon `STRtree` build + `query(predicate='intersects')`", f"{found:,}",
                         "-", cell(ts, cs), cell(tt, ct), cell(ts + tt, cs + ct),
                         f"vs exact: {missed:,} missed, {extra:,} extra (inscribed polygons)"])
            del polys, res
        shapes = pairs = key = None  # free them before the next size (the lambdas above hold the names)
    return table(header, rows)


# -- main ----------------------------------------------------------------------------------------


def environment():
    import numba

    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    except OSError:
        cpu = "?"
    from importlib.metadata import version

    v = [f"python {platform.python_version()}", f"numpy {np.__version__}", f"numba {numba.__version__} "
         f"({numba.get_num_threads()} threads)", f"collide2d {c2.__version__}"]
    v.append(f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string})" if shapely else "shapely: missing")
    v.append(f"coal {version('coal')}" if coal else "coal: missing")
    v.append(f"scipy {version('scipy')}" if cKDTree else "scipy: missing")
    return f"Machine: {os.cpu_count()} logical CPUs ({cpu}), {platform.system()} {platform.machine()}; " + ", ".join(v) + "."


def _load():
    return "load average " + " / ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1 / 5 / 15 min)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    parser.add_argument("--repeat", type=int, default=None, help="runs per fast timing (default 5, quick 2)")
    parser.add_argument("--broad-sizes", type=int, nargs="+", default=None, help="n for section 3")
    parser.add_argument("--skip", action="append", default=[], choices=("contact", "area", "broad"))
    args = parser.parse_args(argv)
    cli_sizes = args.broad_sizes
    if args.quick:
        args.n, args.n_over, args.n_mix, args.n_points = 100_000, 5_000, 10_000, 200_000
        args.n_poly64, args.n_poly1024, args.n_coal = 5_000, 500, 1_000
        args.broad_sizes, args.strtree_max = [20_000], 20_000
        args.repeat = args.repeat or 2
    else:
        args.n, args.n_over, args.n_mix, args.n_points = 1_000_000, 50_000, 100_000, 2_000_000
        args.n_poly64, args.n_poly1024, args.n_coal = 50_000, 2_000, 5_000
        args.broad_sizes, args.strtree_max = [100_000, 1_000_000], 1_000_000
        args.repeat = args.repeat or 5
    if cli_sizes:
        args.broad_sizes, args.strtree_max = cli_sizes, max(cli_sizes)
    args.repeat_slow = max(1, min(args.repeat, 3))
    args.repeat_broad = max(1, min(args.repeat, 3))
    print("# collide2d measure and broad-phase benchmarks\n")
    print(environment() + "\n")
    print(f"Command: `{' '.join(['python'] + sys.argv)}`; best of {args.repeat} runs per timing "
          f"({args.repeat_slow} for the slow rows, 1 for 1e6 broad-phase cases); at start: {_load()}.\n")
    sections = (("contact", "## 1. Contact and distance", bench_contact),
                ("area", "## 2. Overlap area, IoU, intersection points (overlapping pairs)", bench_area))
    for key, title, bench in sections:
        if key not in args.skip:
            print(title + "\n")
            text, notes = bench(args)
            print(text + "\n")
            for note in notes:
                print(f"- {note}")
            print(f"\n({_load()})\n", flush=True)
    if "broad" not in args.skip:
        print("## 3. Broad phase: all intersecting pairs among n ellipses\n")
        print(bench_broad(args) + "\n")
    print(f"At the end: {_load()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
