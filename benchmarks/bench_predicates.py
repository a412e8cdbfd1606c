#!/usr/bin/env python
"""Benchmark ``collide2d.intersects`` on ellipses against shapely and ellipsoid-tree.

Usage::

    .venv/bin/python benchmarks/bench_predicates.py            # full run (a few minutes)
    .venv/bin/python benchmarks/bench_predicates.py --quick    # small sizes, for a smoke test

The script prints markdown tables on standard output and writes nothing else (no files). All
random data comes from fixed seeds; every JIT-compiled path is called once before it is timed;
each time is the best of ``--repeat`` runs measured with :func:`time.perf_counter`, reported
next to the best process CPU time of the same runs (:func:`time.process_time`, all threads),
which is the steadier figure on a loaded machine.

Sections:

1. Throughput: ``c2.intersects`` on batches of random ellipse pairs (shape construction timed
   separately), shapely 2.x on inscribed 64-gons and 1024-gons (``shapely.polygons`` from vertex
   arrays, plain and prepared ``shapely.intersects``) and ellipsoid-tree (one call per pair).
2. Latency of one call on single shapes.
3. Import time of ``collide2d`` in a fresh interpreter.
4. Wrong answers near tangency: pairs built exactly tangent, then moved apart or together along
   the common normal by a relative gap; collide2d's exact answer is the truth, cross-checked
   against the construction and, on a subset, against an mpmath evaluation at 50 digits.

shapely and ellipsoid-tree are optional: a missing one is reported in the tables, not an error.
"""

from __future__ import annotations

import argparse
import math
import platform
import subprocess
import sys
import time

import numpy as np

import collide2d as c2
from common import best_of, covariances, polygon_vertices, random_pairs, table, unit_direction, LAST_CPU as _LAST_CPU, SEED  # noqa: E402 (benchmarks/ is on sys.path)

try:
    import shapely
except ImportError:  # pragma: no cover - optional comparison
    shapely = None

try:
    import ellipsoid_tree
except ImportError:  # pragma: no cover - optional comparison
    ellipsoid_tree = None

GAPS = (1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12)


# -- timing --------------------------------------------------------------------------------------




def per_call(function, args, number, repeat):
    """Best-of-``repeat`` seconds per call of ``function(*args)``, timed over ``number`` calls."""

    def run():
        for _ in range(number):
            function(*args)

    function(*args)  # warm-up (JIT compilation, caches)
    seconds = best_of(run, repeat)[0] / number
    _LAST_CPU[0] /= number
    return seconds


# -- workloads -----------------------------------------------------------------------------------


def et_ellipsoids(center, sigma):
    return [ellipsoid_tree.Ellipsoid(center[i], sigma[i]) for i in range(len(center))]


def et_intersects_pairs(list_a, list_b):
    test = ellipsoid_tree.intersects
    return np.array([test(a, b) for a, b in zip(list_a, list_b)], dtype=bool)


# -- report helpers ------------------------------------------------------------------------------


def fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    if seconds < 1.0:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_rate(rate):
    return "-" if rate is None else f"{rate:.3g}"


def fmt_ratio(ratio):
    return "-" if ratio is None else f"{ratio:.3g}x"


def c2_ready():
    """Return ``None`` when ``c2.intersects`` works on ellipse batches, else the error text."""
    try:
        e = c2.Ellipse([[0.0, 0.0], [5.0, 0.0]], [2.0, 1.0], [0.0, 0.3])
        c2.intersects(e, c2.Ellipse((1.0, 0.0), (1.0, 3.0)))
        c2.intersects(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((1, 0), (1, 3), 0.2))
        c2.intersects(c2.Circle((0, 0), 1.0), c2.Circle((1.5, 0), 1.0))
    except Exception as error:  # noqa: BLE001 - report whatever is missing
        return f"{type(error).__name__}: {error}"
    return None


# -- 1. throughput -------------------------------------------------------------------------------


def bench_throughput(args, c2_error):
    (ca, ra, ta), (cb, rb, tb) = random_pairs(args.n)
    rows, notes = [], []
    reference = None  # collide2d's answers on the workload
    base_test = base_total = base_cpu = None

    def add(name, n, build, test, agree=None, cpu=None):
        cpu = _LAST_CPU[0] if cpu is None else cpu
        rows.append(
            [
                name,
                f"{n:,}",
                fmt_time(build),
                fmt_time(test),
                fmt_time((build or 0.0) + test),
                fmt_rate(n / test),
                fmt_rate(n / ((build or 0.0) + test)),
                "-" if base_test is None else fmt_ratio((test / n) / base_test),
                "-" if base_total is None else fmt_ratio(((build or 0.0) + test) / n / base_total),
                fmt_time(cpu / n),
                "-" if base_cpu is None else fmt_ratio((cpu / n) / base_cpu),
                "-" if agree is None else f"{agree:,} ({agree / n:.2%})",
            ]
        )

    if c2_error is None:
        build, (ea, eb) = best_of(lambda: (c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)), args.repeat)
        c2.intersects(ea[:1000], eb[:1000])  # warm-up of the batch loop
        c2.exact_fallback_counts(reset=True)
        test, reference = best_of(lambda: c2.intersects(ea, eb), args.repeat)
        cpu = _LAST_CPU[0]
        fallbacks = c2.exact_fallback_counts(reset=True)
        base_test, base_total, base_cpu = test / args.n, (build + test) / args.n, cpu / args.n
        add("collide2d `intersects` (exact)", args.n, build, test, cpu=cpu)
        notes.append(
            f"collide2d: {reference.mean():.1%} of the {args.n:,} pairs intersect; exact fallbacks over "
            f"{args.repeat} runs: {sum(fallbacks.values())} ({fallbacks or 'none'}); "
            f"Numba threads: {_numba_threads()}."
        )
        notes.append(
            f"collide2d CPU time (all threads) of `intersects`: {fmt_time(cpu / args.n)} per pair, i.e. "
            f"{args.n / cpu:.3g} pairs per CPU-second; with {_numba_threads()} idle cores that is at best "
            f"{_numba_threads() * args.n / cpu:.3g} pairs/s."
        )
        w_a, w_b = unit_direction(ea), unit_direction(eb)
    else:
        rows.append(["collide2d `intersects`"] + ["-"] * 10 + [f"unavailable: {c2_error}"])
        w_a = np.stack([np.cos(ta), np.sin(ta)], axis=-1)
        w_b = np.stack([np.cos(tb), np.sin(tb)], axis=-1)

    def agreement(result, n):
        return None if reference is None else int(np.count_nonzero(result != reference[:n]))

    if shapely is None:
        rows.append(["shapely"] + ["-"] * 10 + ["not installed"])
    else:
        for count, n in ((64, args.n_poly64), (1024, args.n_poly1024)):
            sa, sb, wa, wb = (ca[:n], ra[:n]), (cb[:n], rb[:n]), w_a[:n], w_b[:n]
            # build from the same centre/radii/direction arrays: vertex arrays, then shapely.polygons
            t_verts, (va, vb) = best_of(
                lambda: (polygon_vertices(*sa, wa, count), polygon_vertices(*sb, wb, count)), args.repeat
            )
            t_poly, (pa, pb) = best_of(lambda: (shapely.polygons(va), shapely.polygons(vb)), args.repeat)
            del va, vb
            shapely.intersects(pa[:100], pb[:100])
            test, result = best_of(lambda: shapely.intersects(pa, pb), args.repeat)
            add(f"shapely {count}-gon `intersects`", n, t_verts + t_poly, test, agreement(result, n), _LAST_CPU[0])

            def prepared():
                shapely.destroy_prepared(pa)
                shapely.prepare(pa)
                return shapely.intersects(pa, pb)

            test_p, result_p = best_of(prepared, args.repeat)
            add(f"shapely {count}-gon `prepare(a)` + `intersects`", n, t_verts + t_poly, test_p, agreement(result_p, n), _LAST_CPU[0])
            notes.append(
                f"shapely {count}-gon build = vertex arrays {fmt_time(t_verts)} + `shapely.polygons` {fmt_time(t_poly)} "
                f"for {2 * n:,} polygons (from precomputed unit direction vectors)."
            )
            del pa, pb

    if ellipsoid_tree is None:
        rows.append(["ellipsoid-tree"] + ["-"] * 10 + ["not installed"])
    else:
        n = args.n_et
        build, (la, lb) = best_of(
            lambda: (
                et_ellipsoids(ca[:n], covariances(ra[:n], w_a[:n])),
                et_ellipsoids(cb[:n], covariances(rb[:n], w_b[:n])),
            ),
            args.repeat,
        )
        et_intersects_pairs(la[:10], lb[:10])
        test, result = best_of(lambda: et_intersects_pairs(la, lb), args.repeat)
        add("ellipsoid-tree `intersects` (Python loop)", n, build, test, agreement(result, n), _LAST_CPU[0])

    header = [
        "method",
        "pairs",
        "build shapes",
        "test",
        "build + test",
        "pairs/s (test)",
        "pairs/s (build + test)",
        "collide2d speed-up (test)",
        "collide2d speed-up (build + test)",
        "CPU time per pair (test)",
        "collide2d speed-up (CPU, test)",
        "answers differing from collide2d",
    ]
    return table(header, rows), notes


def _numba_threads():
    import numba

    return numba.get_num_threads()


def bench_breakdown(args):
    """Where the batch time goes (uses private glue, so it may need updating when that changes)."""
    import numba

    from collide2d._glue import registry, run
    from collide2d._tolerances import EPS

    (ca, ra, ta), (cb, rb, tb) = random_pairs(args.n)
    ea, eb = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    relation = np.asarray(c2.relate(ea, eb))
    # the loop that `intersects` runs: the dedicated intersects kernel when there is one
    relate_entry = registry.entry(registry.RELATE, "ellipse", "ellipse")
    entry = registry.entry(registry.INTERSECTS, "ellipse", "ellipse") or relate_entry
    name, loop = entry.name, entry.loop()
    pa, pb = ea._flat_params(), eb._flat_params()
    distance = np.hypot(cb[:, 0] - ca[:, 0], cb[:, 1] - ca[:, 1])
    far = distance > ra.max(axis=1) + rb.max(axis=1)
    inner = distance < ra.min(axis=1) + rb.min(axis=1)
    rows = []
    n = args.n
    t_public = best_of(lambda: c2.intersects(ea, eb), args.repeat)[0]
    cpu_public = _LAST_CPU[0]
    t_index = best_of(lambda: run.broadcast_indices(ea, eb), args.repeat)[0]
    rows.append(["`c2.intersects(ea, eb)` (public call)", f"{n:,}", fmt_time(t_public / n), fmt_time(cpu_public / n), "100%"])
    rows.append(["`broadcast_indices`", f"{n:,}", fmt_time(t_index / n), fmt_time(_LAST_CPU[0] / n), f"{_LAST_CPU[0] / cpu_public:.1%}"])
    threads = numba.get_num_threads()
    subsets = [
        ("kernel loop, all pairs", np.arange(n)),
        ("kernel loop, bounding circles disjoint", np.flatnonzero(far)),
        ("kernel loop, other disjoint pairs", np.flatnonzero((relation == 0) & ~far)),
        ("kernel loop, intersecting pairs", np.flatnonzero(relation != 0)),
        ("kernel loop, inscribed circles overlap", np.flatnonzero(inner)),
    ]
    try:
        for nthreads in sorted({threads, 1}, reverse=True):
            numba.set_num_threads(nthreads)
            for label, index in subsets if nthreads == 1 else subsets[:1]:
                index = index.astype(np.int64)
                out = np.empty(len(index), dtype=np.int8)
                loop(pa, ea._verts, index[:8], pb, eb._verts, index[:8], EPS, out[:8])
                t = best_of(lambda: loop(pa, ea._verts, index, pb, eb._verts, index, EPS, out), args.repeat)[0]
                cpu = _LAST_CPU[0]
                share = f"{cpu / cpu_public:.1%}" if len(index) == n and nthreads == threads else "-"
                count = max(len(index), 1)
                rows.append([f"{label} ({nthreads} thread{'s' if nthreads > 1 else ''})", f"{len(index):,}", fmt_time(t / count), fmt_time(cpu / count), share])
    finally:
        numba.set_num_threads(threads)
    relate_name = relate_entry.name
    if relate_name != name:  # for comparison: the relate loop (with the containment classification)
        relate_loop = relate_entry.loop()
        index = np.arange(n, dtype=np.int64)
        out = np.empty(n, dtype=np.int8)
        t = best_of(lambda: relate_loop(pa, ea._verts, index, pb, eb._verts, index, EPS, out), args.repeat)[0]
        rows.append([f"for comparison: `{relate_name}` loop, all pairs ({threads} threads)", f"{n:,}", fmt_time(t / n), fmt_time(_LAST_CPU[0] / n), "-"])
    note = (
        f"Kernel loop: `{name}_loop`. "
        f"Pairs: {far.mean():.1%} have disjoint bounding circles, {inner.mean():.1%} overlapping inscribed circles, "
        f"{relation.astype(bool).mean():.1%} intersect."
    )
    return table(["step", "pairs", "time per pair", "CPU time per pair", "share of the public call (CPU)"], rows), note


# -- 2. latency ----------------------------------------------------------------------------------


def bench_latency(args, c2_error):
    rows = []
    cases = [
        ("ellipse-ellipse, overlapping", c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.3), c2.Ellipse((1.5, 1.0), (1.0, 0.5), 1.2)),
        ("ellipse-ellipse, disjoint (near)", c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.3), c2.Ellipse((2.8, 1.9), (1.0, 0.5), 1.2)),
        ("ellipse-ellipse, disjoint (far)", c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.3), c2.Ellipse((9.0, 7.0), (1.0, 0.5), 1.2)),
        ("circle-circle, overlapping", c2.Circle((0.0, 0.0), 1.0), c2.Circle((1.5, 0.5), 1.0)),
        ("circle-circle, disjoint", c2.Circle((0.0, 0.0), 1.0), c2.Circle((2.5, 0.5), 1.0)),
        ("circle-circle, exactly tangent (exact fallback)", c2.Circle((0.0, 0.0), 1.0), c2.Circle((2.0, 0.0), 1.0)),
    ]
    if c2_error is None:
        for name, a, b in cases:
            number = args.latency_number // 20 if "fallback" in name else args.latency_number
            c2.exact_fallback_counts(reset=True)
            seconds = per_call(c2.intersects, (a, b), number, args.repeat)
            cpu = _LAST_CPU[0]
            fallback = sum(c2.exact_fallback_counts(reset=True).values())
            answer = c2.intersects(a, b)
            rows.append([f"collide2d `intersects`: {name}", fmt_time(seconds), fmt_time(cpu), answer, "yes" if fallback else "no"])
        import numba

        small_a, small_b = c2.Ellipse(*random_pairs(100)[0]), c2.Ellipse(*random_pairs(100)[1])
        threads = numba.get_num_threads()
        for nthreads in sorted({threads, 1}, reverse=True):
            numba.set_num_threads(nthreads)
            try:
                seconds = per_call(c2.intersects, (small_a, small_b), args.latency_number // 20, args.repeat)
            finally:
                numba.set_num_threads(threads)
            rows.append(
                [f"collide2d `intersects`: batch of 100 ellipse pairs, {nthreads} Numba thread{'s' if nthreads > 1 else ''}",
                 fmt_time(seconds), fmt_time(_LAST_CPU[0]), "-", "no"]
            )
        seconds = per_call(c2.relate, (cases[0][1], cases[0][2]), args.latency_number, args.repeat)
        rows.append(["collide2d `relate`: ellipse-ellipse, overlapping", fmt_time(seconds), fmt_time(_LAST_CPU[0]), c2.relate(cases[0][1], cases[0][2]).name, "no"])
        edge_case = (c2.Box((0.0, 0.0), (2.0, 2.0)), c2.Segment((0.0, 0.0), (1.0, 0.0)))
        for name, function, call_args in (
            ("`contains_xy`: ellipse, one (x, y)", c2.contains_xy, (cases[0][1], (1.0, 0.2))),
            ("`intersects_xy`: ellipse, one (x, y)", c2.intersects_xy, (cases[0][1], (1.0, 0.2))),
            ("`contains`: box, segment along its edge", c2.contains, edge_case),
            ("`covers`: box, segment along its edge (end points decided too)", c2.covers, edge_case),
        ):
            seconds = per_call(function, call_args, args.latency_number, args.repeat)
            rows.append([f"collide2d {name}", fmt_time(seconds), fmt_time(_LAST_CPU[0]), function(*call_args), "no"])
    else:
        rows.append(["collide2d `intersects`", "-", "-", "-", f"unavailable: {c2_error}"])
    seconds = per_call(c2.Ellipse, ((0.0, 0.0), (2.0, 1.0), 0.3), args.latency_number // 4, args.repeat)
    rows.append(["collide2d `Ellipse((0, 0), (2, 1), 0.3)` construction", fmt_time(seconds), fmt_time(_LAST_CPU[0]), "-", "-"])
    a, b = cases[0][1], cases[0][2]
    if shapely is not None:
        for count in (64, 1024):
            pa = shapely.polygons(polygon_vertices(np.array([a.center]), np.array([a.radii]), unit_direction(a)[None], count))[0]
            pb = shapely.polygons(polygon_vertices(np.array([b.center]), np.array([b.radii]), unit_direction(b)[None], count))[0]
            seconds = per_call(shapely.intersects, (pa, pb), args.latency_number // (4 if count > 64 else 1), args.repeat)
            rows.append([f"shapely {count}-gon `intersects`: ellipse-ellipse, overlapping", fmt_time(seconds), fmt_time(_LAST_CPU[0]), bool(shapely.intersects(pa, pb)), "-"])
            seconds = per_call(pa.intersects, (pb,), args.latency_number // (4 if count > 64 else 1), args.repeat)
            rows.append([f"shapely {count}-gon `a.intersects(b)`: ellipse-ellipse, overlapping", fmt_time(seconds), fmt_time(_LAST_CPU[0]), bool(pa.intersects(pb)), "-"])
    if ellipsoid_tree is not None:
        sa = covariances(np.array([a.radii]), unit_direction(a)[None])[0]
        sb = covariances(np.array([b.radii]), unit_direction(b)[None])[0]
        ea, eb = ellipsoid_tree.Ellipsoid(np.array(a.center), sa), ellipsoid_tree.Ellipsoid(np.array(b.center), sb)
        seconds = per_call(ellipsoid_tree.intersects, (ea, eb), args.latency_number // 4, args.repeat)
        rows.append(["ellipsoid-tree `intersects`: ellipse-ellipse, overlapping", fmt_time(seconds), fmt_time(_LAST_CPU[0]), ellipsoid_tree.intersects(ea, eb), "-"])
    return table(["call (single shapes)", "time per call", "CPU time per call", "answer", "exact fallback"], rows)


# -- 3. import time ------------------------------------------------------------------------------


def bench_import(args):
    import resource

    def child_cpu():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def wall(code, repeat):
        best = best_cpu = math.inf
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), child_cpu()
            subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, child_cpu() - start_cpu)
        return [fmt_time(best), fmt_time(best_cpu)]

    first_call = (
        "import collide2d as c2; c2.intersects(c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((1.5, 1), (1, 0.5), 1.2))"
    )
    rows = [
        ["`python -c 'pass'` (interpreter start-up)", *wall("pass", 5)],
        ["`python -c 'import numpy'`", *wall("import numpy", 5)],
        ["`python -c 'import collide2d'`", *wall("import collide2d", 5)],
    ]
    try:
        wall(first_call, 1)  # make sure the on-disk JIT cache is filled
        rows.append(["import + first ellipse `intersects` (JIT from disk cache)", *wall(first_call, 3)])
    except subprocess.CalledProcessError:
        rows.append(["import + first ellipse `intersects`", "unavailable", "-"])
    return table(["command (fresh interpreter, best of 5; first call: best of 3)", "wall time", "CPU time"], rows)


# -- 4. tangency ---------------------------------------------------------------------------------


def tangent_pairs(n, seed):
    """Externally tangent ellipse pairs (aspect ratio up to 10, log-uniform) with contact data.

    Built from the stored (rounded) directions of both ellipses, so the pairs are tangent up to
    about 1e-15 relative. Returns a's centre, radii and unit direction; b's angle, radii and unit
    direction; b's centre at tangency; the unit normal at the contact (from a to b); the size
    scale (largest semi-axis of the pair); b's boundary parameter at the contact; and a itself.
    """
    rng = np.random.default_rng(seed)
    major = rng.uniform(0.5, 2.0, (n, 2))
    aspect = np.exp(rng.uniform(0.0, np.log(10.0), (n, 2)))
    swap = rng.random((n, 2)) < 0.5
    radii_a = np.where(swap[:, :1], np.stack([major[:, 0], major[:, 0] / aspect[:, 0]], -1), np.stack([major[:, 0] / aspect[:, 0], major[:, 0]], -1))
    radii_b = np.where(swap[:, 1:], np.stack([major[:, 1], major[:, 1] / aspect[:, 1]], -1), np.stack([major[:, 1] / aspect[:, 1], major[:, 1]], -1))
    center_a = rng.uniform(-10.0, 10.0, (n, 2))
    ea = c2.Ellipse(center_a, radii_a, rng.uniform(-np.pi, np.pi, n))
    angle_b = rng.uniform(-np.pi, np.pi, n)
    wa, wb = unit_direction(ea), unit_direction(c2.Ellipse(np.zeros((n, 2)), radii_b, angle_b))
    t = rng.uniform(-np.pi, np.pi, n)  # contact parameter on a
    aa, ba = radii_a[:, 0], radii_a[:, 1]
    # contact point and outward normal of a, in the world frame
    lx, ly = aa * np.cos(t), ba * np.sin(t)
    p = center_a + np.stack([wa[:, 0] * lx - wa[:, 1] * ly, wa[:, 1] * lx + wa[:, 0] * ly], -1)
    nx, ny = np.cos(t) / aa, np.sin(t) / ba
    normal = np.stack([wa[:, 0] * nx - wa[:, 1] * ny, wa[:, 1] * nx + wa[:, 0] * ny], -1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    # point of b whose outward normal is -normal, in b's frame
    mx = -(wb[:, 0] * normal[:, 0] + wb[:, 1] * normal[:, 1])
    my = -(-wb[:, 1] * normal[:, 0] + wb[:, 0] * normal[:, 1])
    ab, bb = radii_b[:, 0], radii_b[:, 1]
    scale = np.sqrt((ab * mx) ** 2 + (bb * my) ** 2)
    qx, qy = ab * ab * mx / scale, bb * bb * my / scale
    theta_b = np.arctan2(qy / bb, qx / ab)
    q = np.stack([wb[:, 0] * qx - wb[:, 1] * qy, wb[:, 1] * qx + wb[:, 0] * qy], -1)
    center_b = p - q
    size = np.maximum(radii_a.max(axis=1), radii_b.max(axis=1))
    return (center_a, radii_a, wa, angle_b, radii_b, wb, center_b, normal, size, theta_b, ea)


def stored_rows(ellipse):
    """Rows ``(cx, cy, a, b, wx, wy)`` of the stored numbers of an ellipse batch (public fields)."""
    return np.concatenate([ellipse.center, ellipse.radii, ellipse.direction], axis=-1)


def mp_intersects(row_a, row_b, theta0, digits=50):
    """Independent check at ``digits`` digits: min over b's boundary of a's level function <= 0.

    ``row_*`` are stored rows ``(cx, cy, a, b, wx, wy)``; the level function of a is
    ``(b^2 (w.y)^2 + a^2 (w^.y)^2) / (a^2 b^2 |w|^2) - 1``, exactly the stored ellipse. For pairs
    near external tangency the minimum over the convex b is on its boundary, near ``theta0``.
    """
    import mpmath

    with mpmath.workdps(digits):
        cxa, cya, aa, ba, wxa, wya = (mpmath.mpf(float(v)) for v in row_a)
        cxb, cyb, ab, bb, wxb, wyb = (mpmath.mpf(float(v)) for v in row_b)
        norm_a2 = wxa**2 + wya**2
        norm_b = mpmath.sqrt(wxb**2 + wyb**2)
        ux, uy = wxb / norm_b, wyb / norm_b

        def point(th):
            x, y = ab * mpmath.cos(th), bb * mpmath.sin(th)
            return cxb + ux * x - uy * y, cyb + uy * x + ux * y

        def level(th):
            x, y = point(th)
            dx, dy = x - cxa, y - cya
            along, across = wxa * dx + wya * dy, -wya * dx + wxa * dy
            return (ba**2 * along**2 + aa**2 * across**2) / (aa**2 * ba**2 * norm_a2) - 1

        theta = mpmath.findroot(lambda th: mpmath.diff(level, th), mpmath.mpf(float(theta0)), tol=mpmath.mpf(10) ** (-digits + 10))
        return level(theta) <= 0


def bench_tangency(args, c2_error):
    rows = []
    n = args.n_tangent
    (center_a, radii_a, wa, angle_b, radii_b, wb, center_b0, normal, size, theta_b, ea) = tangent_pairs(n, SEED + 1)
    rows_a = stored_rows(ea)
    total_mp = mp_vs_truth = mp_vs_construction = 0
    for direction, sign in (("apart", 1.0), ("together", -1.0)):
        for gap in GAPS:
            center_b = center_b0 + (sign * gap * size)[:, None] * normal
            eb = c2.Ellipse(center_b, radii_b, angle_b)
            intended = np.full(n, sign < 0)
            if c2_error is None:
                c2.exact_fallback_counts(reset=True)
                truth = np.asarray(c2.intersects(ea, eb))
                fallbacks = sum(c2.exact_fallback_counts(reset=True).values())
                vs_construction = f"{np.mean(truth != intended):.1%}"
                c2_cells = [f"{fallbacks / n:.1%}"]
            else:
                truth, vs_construction, c2_cells = intended, "-", ["-"]
            cells = [direction, f"{gap:.0e}", f"{n:,}", vs_construction, *c2_cells]
            if shapely is not None:
                for count in (64, 1024):
                    pa = shapely.polygons(polygon_vertices(center_a, radii_a, wa, count))
                    pb = shapely.polygons(polygon_vertices(center_b, radii_b, wb, count))
                    cells.append(f"{np.mean(shapely.intersects(pa, pb) != truth):.1%}")
            else:
                cells += ["-", "-"]
            if ellipsoid_tree is not None:
                la = et_ellipsoids(center_a, covariances(radii_a, wa))
                lb = et_ellipsoids(center_b, covariances(radii_b, wb))
                cells.append(f"{np.mean(et_intersects_pairs(la, lb) != truth):.1%}")
            else:
                cells.append("-")
            rows.append(cells)
            rows_b = stored_rows(eb)
            for k in range(args.n_mpmath):
                total_mp += 1
                reference = bool(mp_intersects(rows_a[k], rows_b[k], theta_b[k]))
                mp_vs_truth += reference != bool(truth[k])
                mp_vs_construction += reference != bool(intended[k])
    header = [
        "moved",
        "relative gap",
        "pairs",
        "collide2d vs construction",
        "collide2d exact fallbacks",
        "shapely 64-gon wrong",
        "shapely 1024-gon wrong",
        "ellipsoid-tree wrong",
    ]
    truth_name = "collide2d (exact)" if c2_error is None else "the construction (collide2d unavailable)"
    note = (
        f"Truth: {truth_name}. mpmath cross-check at 50 digits on the first {args.n_mpmath} pairs of each row: "
        f"{mp_vs_truth} of {total_mp} differ from the truth, {mp_vs_construction} from the construction."
    )
    return table(header, rows), note


# -- main ----------------------------------------------------------------------------------------


def environment():
    import numba

    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    except OSError:
        cpu = platform.processor() or "?"
    import os

    versions = [
        f"python {platform.python_version()}",
        f"numpy {np.__version__}",
        f"numba {numba.__version__}",
        f"collide2d {c2.__version__}",
        f"shapely {shapely.__version__} (GEOS {shapely.geos_version_string})" if shapely else "shapely: not installed",
    ]
    if ellipsoid_tree is not None:
        from importlib.metadata import version

        versions.append(f"ellipsoid-tree {version('ellipsoid-tree')}")
    else:
        versions.append("ellipsoid-tree: not installed")
    return f"Machine: {os.cpu_count()} logical CPUs ({cpu}), {platform.system()} {platform.machine()}; " + ", ".join(versions) + "."


def _load():
    try:
        with open("/proc/loadavg") as f:
            return "load average " + " / ".join(f.read().split()[:3]) + " (1 / 5 / 15 min)"
    except OSError:
        return "load average unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test, well under a minute)")
    parser.add_argument("--repeat", type=int, default=None, help="runs per timing; the best one counts (default 5, quick 3)")
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.n_poly64, args.n_poly1024, args.n_et = 100_000, 20_000, 2_000, 2_000
        args.latency_number, args.n_tangent, args.n_mpmath = 2_000, 100, 2
        args.repeat = args.repeat or 3
    else:
        args.n, args.n_poly64, args.n_poly1024, args.n_et = 1_000_000, 200_000, 20_000, 50_000
        args.latency_number, args.n_tangent, args.n_mpmath = 20_000, 400, 10
        args.repeat = args.repeat or 5

    c2_error = c2_ready()
    print("# collide2d predicate benchmarks\n")
    print(environment() + "\n")
    print(f"Command: `{' '.join(['python'] + sys.argv)}`; best of {args.repeat} runs per timing; {_load()}.\n")
    print("## 1. Throughput: `intersects` on random ellipse pairs\n")
    text, notes = bench_throughput(args, c2_error)
    print(text + "\n")
    for note in notes:
        print(f"- {note}")
    if c2_error is None:
        print("\n### Where collide2d's batch time goes\n")
        try:
            text, note = bench_breakdown(args)
            print(text + "\n")
            print(f"- {note}")
        except Exception as error:  # noqa: BLE001 - private glue changed: skip, do not fail
            print(f"(breakdown unavailable: {type(error).__name__}: {error})")
    print("\n## 2. Latency of one call on single shapes\n")
    print(bench_latency(args, c2_error) + "\n")
    print("## 3. Import time\n")
    print(bench_import(args) + "\n")
    print("## 4. Wrong answers near tangency\n")
    text, note = bench_tangency(args, c2_error)
    print(text + "\n")
    print(f"- {note}")
    print(f"\nAt the end: {_load()}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
