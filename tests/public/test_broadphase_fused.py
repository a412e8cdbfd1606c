"""The fused grid of the broad phase (grid, circle filter, centre-line filter and exact intersects
in one pass) against brute force (``broadphase_references.py``): the same pairs in the same order,
serial and parallel, in element and cell order, and its filters' error bounds at near tangency
against exact rationals.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
from broadphase_references import assert_same, brute_pairs, brute_query, lattice_scene, mixed_scene
from conftest import JIT_DISABLED

import collide2d as c2
from collide2d.broadphase import _backend, _settle
from collide2d.broadphase import query, query_pairs
from collide2d.table import ShapeTable


# -- the fused grid (grid + circle filter + centre-line filter + exact intersects in one pass) --------


@functools.lru_cache(maxsize=None)
def fused_scenes():
    """Ellipse scenes for the fused grid: dense and sparse, huge among tiny, exact touches."""
    rng = np.random.default_rng(41)
    dense = c2.Ellipse(rng.uniform(0, 12, (400, 2)), rng.uniform(0.05, 1.5, (400, 2)), rng.uniform(0, np.pi, 400))
    sparse = c2.Ellipse(rng.uniform(0, 300, (400, 2)), rng.uniform(0.3, 3.0, (400, 2)), rng.uniform(0, np.pi, 400))
    tiny = c2.Ellipse(rng.uniform(0, 50, (300, 2)), rng.uniform(0.01, 0.4, (300, 2)), rng.uniform(0, np.pi, 300))
    huge = c2.Ellipse(rng.uniform(0, 50, (3, 2)), [(20.0, 2.0), (15.0, 15.0), (30.0, 0.5)], [0.3, 0.0, 1.2])
    circles, _, ellipses = lattice_scene()
    return {"dense": (dense,), "sparse": (sparse,), "huge among tiny": (tiny, huge),
            "touching circles": circles, "touching ellipses": ellipses}


def _count_fused(monkeypatch):
    monkeypatch.setattr(_backend, "CIRCLE_SPREAD", 0.0)  # circles too take the fused grid (not the circle grid)
    calls = []
    original = _backend._fused_pairs
    monkeypatch.setattr(_backend, "_fused_pairs", lambda *args: calls.append(1) or original(*args))
    return calls


@pytest.mark.nojit
@pytest.mark.parametrize("pack", ["element order", "cell order"])
@pytest.mark.parametrize("threads", ["serial", "parallel"])
def test_fused_grid_matches_brute_force(monkeypatch, threads, pack):
    calls = _count_fused(monkeypatch)
    monkeypatch.setattr(_settle, "PARALLEL_WORK", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "PACK_BY_CELL", 0 if pack == "cell order" else 1 << 62)
    for name, scene in fused_scenes().items():
        shapes = scene[0] if len(scene) == 1 else list(scene)
        expected = brute_pairs(scene)
        assert expected.shape[1] > 0, name
        assert_same(query_pairs(shapes, backend="grid"), expected)
        monkeypatch.setattr(_backend, "FUSED_CHUNK", 53)  # many row chunks
        assert_same(query_pairs(shapes, backend="grid"), expected)
        monkeypatch.setattr(_backend, "FUSED_CHUNK", 1 << 22)
    assert len(calls) == 2 * len(fused_scenes())  # the fused path answered every query above


@pytest.mark.nojit
@pytest.mark.parametrize("threads", ["serial", "parallel"])
def test_fused_grid_candidates_and_queries_match_brute_force(monkeypatch, threads):
    calls = _count_fused(monkeypatch)
    monkeypatch.setattr(_settle, "PARALLEL_WORK", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "PACK_BY_CELL", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "FUSED_CHUNK", 40)
    batches = mixed_scene(15, 20, span=5)  # every kind, lines too: the candidates go through the fused grid
    b = ShapeTable(batches).bounds
    overlap = (b[:, None, 0] <= b[None, :, 2]) & (b[None, :, 0] <= b[:, None, 2])
    overlap &= (b[:, None, 1] <= b[None, :, 3]) & (b[None, :, 1] <= b[:, None, 3])
    assert_same(query_pairs(batches, predicate=None, backend="grid"), np.stack(np.nonzero(np.triu(overlap, 1))))
    a, e = fused_scenes()["dense"][0], fused_scenes()["huge among tiny"]
    assert_same(query(a, list(e), backend="grid"), brute_query((a,), e))
    assert_same(query(list(e), a, backend="grid"), brute_query(e, (a,)))
    assert len(calls) == 3


@pytest.mark.nojit
def test_fused_grid_independent_of_threads():
    shapes = fused_scenes()["dense"][0]
    results = []
    for work in (0, 1 << 62):
        previous = _settle.PARALLEL_WORK
        _settle.PARALLEL_WORK = work
        try:
            results.append(query_pairs(shapes, backend="grid"))
        finally:
            _settle.PARALLEL_WORK = previous
    assert_same(results[0], results[1])


@functools.lru_cache(maxsize=None)
def near_tangent_pairs():
    """``(a, [(t, b, truth), ...])``: ellipse pairs around exact tangency and their exact answers.

    Built once for both middle filters: the bisection and the answers at 1 ulp from tangency take
    tens of thousands of exact (Fraction) fallbacks, since these are full 53-bit numbers.
    """
    rng = np.random.default_rng(43)
    n = 300 if JIT_DISABLED else 3000  # as plain Python: a tenth
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, np.pi, n))
    radii = rng.uniform(0.1, 2.0, (n, 2))
    radii[: n // 3, 1] = radii[: n // 3, 0] * 0.02  # needles: aspect ratio 50
    angle = rng.uniform(0, np.pi, n)
    direction = rng.normal(size=(n, 2))
    direction /= np.hypot(direction[:, 0], direction[:, 1])[:, None]
    # centres on a ray from a's centre, at the distances where the pair is about to separate: bisect
    lo, hi = np.zeros(n), np.full(n, 10.0)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        meet = np.asarray(c2.intersects(a, c2.Ellipse(a.center + mid[:, None] * direction, radii, angle)))
        lo, hi = np.where(meet, mid, lo), np.where(meet, hi, mid)
    cases = []
    for t in (lo, hi, 0.5 * lo, 0.9 * lo, 0.999 * lo, 1.001 * hi, 1.1 * hi, 2 * hi):
        b = c2.Ellipse(a.center + t[:, None] * direction, radii, angle)
        cases.append((t is lo, b, np.asarray(c2.intersects(a, b))))
    return a, cases


@pytest.mark.nojit
@pytest.mark.parametrize("name", ["_centre_line_filter", "_witness_filter"])
def test_middle_filters_are_certain(name):
    """The middle filters never contradict the exact predicate, down to exact tangency."""
    from collide2d._kernels.broadphase import grid

    middle = getattr(grid, name)
    extra = (0.0,) if name == "_centre_line_filter" else ()  # no gap: the intersects question
    a, cases = near_tangent_pairs()
    n = a.size
    decided = {1: 0, 0: 0}
    for first, b, truth in cases:
        pa, pb = a._flat_params(), b._flat_params()
        flags = np.array([middle(*pa[k], *pb[k], *extra) for k in range(n)])
        assert np.all(truth[flags == 1]) and not np.any(truth[flags == 0])
        decided[1] += np.count_nonzero(flags == 1)
        decided[0] += np.count_nonzero(flags == 0)
        if first:
            py = np.array([getattr(middle, "py_func", middle)(*pa[k], *pb[k], *extra) for k in range(0, n, 10)])
            np.testing.assert_array_equal(py, flags[::10])
    assert decided[1] > n // 2 and decided[0] > n // 2  # and it does decide pairs either way


def _support(centre, radii, direction, v):
    """mpmath: the support point of an ellipse in the direction ``v`` and its support ``h(v) |v|``."""
    from mpmath import mpf, sqrt

    cx, cy = (mpf(float(c)) for c in centre)
    a, b = (mpf(float(r)) for r in radii)
    wx, wy = (mpf(float(w)) for w in direction)
    norm = sqrt(wx * wx + wy * wy)
    wx, wy = wx / norm, wy / norm
    vx, vy = (mpf(float(c)) for c in v)
    p, q = wx * vx + wy * vy, wx * vy - wy * vx  # v in the ellipse's frame
    h = sqrt(a * a * p * p + b * b * q * q)
    sx, sy = a * a * p / h, b * b * q / h
    return (cx + sx * wx - sy * wy, cy + sx * wy + sy * wx), h


def _form(centre, radii, direction, point):
    """mpmath: the ellipse's quadratic form at ``point`` (1 on the boundary)."""
    from mpmath import mpf, sqrt

    a, b = (mpf(float(r)) for r in radii)
    wx, wy = (mpf(float(w)) for w in direction)
    norm = sqrt(wx * wx + wy * wy)
    dx, dy = point[0] - mpf(float(centre[0])), point[1] - mpf(float(centre[1]))
    return ((wx * dx + wy * dy) / (a * norm)) ** 2 + ((wx * dy - wy * dx) / (b * norm)) ** 2


def _centre_line_terms(a, b, pa, pb, k):
    """mpmath, pair ``k``: ``(ea, eb, d, |d|, reach, apart)``, the terms of the centre-line filter's
    rule. A's boundary lies at ``1 / sqrt(X_A)`` of ``d = c_B - c_A`` from ``c_A``, B's at ``1 - 1 /
    sqrt(X_B)``: ``reach`` is the sum of the two fractions; ``apart`` is ``|d|`` minus the supports
    of both along ``d``."""
    from mpmath import mpf, sqrt

    ea = (a.center[k], a.radii[k], pa[k, 4:6])
    eb = (b.center[k], b.radii[k], pb[k, 4:6])
    d = [mpf(float(b.center[k][i])) - mpf(float(a.center[k][i])) for i in range(2)]
    length = sqrt(d[0] ** 2 + d[1] ** 2)
    far = (mpf(float(b.center[k][0])), mpf(float(b.center[k][1])))
    near = (mpf(float(a.center[k][0])), mpf(float(a.center[k][1])))
    reach = 1 / sqrt(_form(*ea, far)) + 1 / sqrt(_form(*eb, near))
    apart = length - (_support(*ea, d)[1] + _support(*eb, d)[1]) / length
    return ea, eb, d, length, reach, apart


@pytest.mark.nojit
def test_middle_filters_decide_the_clear_cases():
    """Each middle filter settles every pair its own rule settles with a margin (1e-6 here), the rule
    evaluated in 40-digit mpmath from the definitions: the centre-line filter when the boundaries'
    points on the centre line pass each other (meet) or the supports along it leave a gap (apart);
    the witness filter when a support point of one ellipse towards the other lies inside the other
    (meet) or the projections on an ellipse axis leave a gap (apart). Undecided is always *allowed*
    for a certified filter; here it would mean a filter that settles less than it says."""
    from mpmath import mp, mpf, sqrt

    from collide2d._kernels.broadphase import grid

    mp.dps = 40
    rng = np.random.default_rng(47)
    n = 400
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.uniform(-2.5, 2.5, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    pa, pb = a._flat_params(), b._flat_params()
    margin = mpf("1e-6")
    expected = {"_centre_line_filter": [], "_witness_filter": []}
    for k in range(n):
        ea, eb, d, length, reach, gap = _centre_line_terms(a, b, pa, pb, k)
        expected["_centre_line_filter"].append(1 if reach > 1 + margin else (0 if gap > margin * length else None))
        # witness: support points towards the other, projections on the four axes
        inside = _form(*eb, _support(*ea, d)[0]) < 1 - margin or _form(*ea, _support(*eb, [-d[0], -d[1]])[0]) < 1 - margin
        apart = False
        for w in (pa[k, 4:6], pb[k, 4:6]):
            for v in (w, (-w[1], w[0])):
                v = (mpf(float(v[0])), mpf(float(v[1])))
                norm = sqrt(v[0] ** 2 + v[1] ** 2)
                separation = abs(d[0] * v[0] + d[1] * v[1]) - _support(*ea, v)[1] - _support(*eb, v)[1]
                apart = apart or separation > margin * norm
        expected["_witness_filter"].append(1 if inside else (0 if apart else None))
    truth = np.asarray(c2.intersects(a, b))
    for name, rows in expected.items():
        middle = getattr(grid, name)
        extra = (0.0,) if name == "_centre_line_filter" else ()  # gap 0: the intersects test
        got = np.array([middle(*pa[k], *pb[k], *extra) for k in range(n)])
        want = np.array([-1 if e is None else e for e in rows])
        assert np.count_nonzero(want == 1) > n // 10 and np.count_nonzero(want == 0) > n // 10
        np.testing.assert_array_equal(got[want >= 0], want[want >= 0])
        assert np.array_equal(want[want >= 0] == 1, truth[want >= 0])  # the rules themselves hold


@pytest.mark.nojit
def test_centre_line_filter_with_a_gap_decides_the_clear_cases():
    """With ``gap > 0`` (is the distance at most ``gap``?) the centre-line filter settles every pair
    its rule settles with a relative margin of 1e-6, the rule in 40-digit mpmath: within (1) when
    the boundary points on the centre line are less than ``gap`` apart, ``(1 - s_A - s_B) |d| <
    gap``; beyond (0) when the supports along the centre line leave more than ``gap``. The rule
    itself is checked against ``c2.distance``."""
    from mpmath import mp, mpf

    from collide2d._kernels.broadphase import grid

    mp.dps = 40
    rng = np.random.default_rng(53)
    n = 400
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.uniform(-4, 4, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    gaps = 2.0 ** rng.uniform(-4, 1, n)
    pa, pb = a._flat_params(), b._flat_params()
    margin = mpf("1e-6")
    want = np.full(n, -1)
    for k in range(n):
        _, _, _, length, reach, apart = _centre_line_terms(a, b, pa, pb, k)
        gap = mpf(float(gaps[k]))
        if (1 - reach) * length < gap * (1 - margin):
            want[k] = 1
        elif apart > gap * (1 + margin):
            want[k] = 0
    got = np.array([grid._centre_line_filter(*pa[k], *pb[k], float(gaps[k])) for k in range(n)])
    assert np.count_nonzero(want == 1) > n // 10 and np.count_nonzero(want == 0) > n // 10
    assert np.count_nonzero((want == 1) & (np.asarray(c2.intersects(a, b)) == 0)) > n // 20  # apart, within gap
    np.testing.assert_array_equal(got[want >= 0], want[want >= 0])
    distance = np.asarray(c2.distance(a, b))
    assert np.array_equal(want[want >= 0] == 1, distance[want >= 0] <= gaps[want >= 0])  # the rule holds


def _form_exact(a, b, wx, wy, dx, dy):
    """Exact rationals: the quadratic form of the ellipse with radii ``a, b`` along ``w`` at ``d``."""
    a, b, wx, wy, dx, dy = map(Fraction, (a, b, wx, wy, dx, dy))
    p, r = wx * dx + wy * dy, wx * dy - wy * dx
    return (p * p / (a * a) + r * r / (b * b)) / (wx * wx + wy * wy)


@pytest.mark.nojit
def test_middle_filters_on_touching_translated_needles():
    """A needle (aspect ratio 2^10 to 2^40) and its translate by ``d``: they meet exactly when
    ``d / 2`` lies in the needle (``A ∩ (A + d)`` is not empty iff ``d`` is in ``A - A = 2 A``), and
    then touch on the centre line, where the centre-line filter looks. ``d`` is taken at an angle of
    a few ``b / a`` from the long axis, where the rounding of the form grows with the aspect ratio,
    and scaled to tangency within 1e-8 relative (exact answer from rationals). Neither middle filter
    may contradict it; their error bounds must cover the aspect ratio."""
    from collide2d._kernels.broadphase import grid

    rng = np.random.default_rng(5)
    for _ in range(120):
        ratio = 2.0 ** rng.uniform(10, 40)
        a = float(rng.uniform(0.5, 2.0))
        b = a / ratio
        turn = rng.uniform(0, 2 * np.pi)
        wx, wy = math.cos(turn), math.sin(turn)
        along = turn + rng.uniform(-3, 3) * b / a
        ux, uy = math.cos(along), math.sin(along)
        t = 2 / math.sqrt(float(_form_exact(a, b, wx, wy, ux, uy))) * (1 + rng.uniform(-1, 1) * 1e-8)
        xa, ya = float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))
        xb, yb = xa + t * ux, ya + t * uy
        meet = _form_exact(a, b, wx, wy, Fraction(xb) - Fraction(xa), Fraction(yb) - Fraction(ya)) <= 4
        flags = (
            grid._centre_line_filter(xa, ya, a, b, wx, wy, xb, yb, a, b, wx, wy, 0.0),
            grid._centre_line_filter(xb, yb, a, b, wx, wy, xa, ya, a, b, wx, wy, 0.0),
            grid._witness_filter(xa, ya, a, b, wx, wy, xb, yb, a, b, wx, wy),
            grid._witness_filter(xb, yb, a, b, wx, wy, xa, ya, a, b, wx, wy),
        )
        assert all(flag == grid.UNDECIDED or flag == int(meet) for flag in flags), (ratio, t, meet, flags)


@pytest.mark.nojit
def test_cell_order_is_a_stable_sort_by_the_cell_of_the_box_centre():
    """``grid.cell_order``: element indices in row-major order of the cell of their box centre,
    equal cells in index order. Boxes with integer corners in a grid of 8 x 8 cells of side 4 (and
    some outside it, clamped to the edge cells): the centre and its cell are exact, the reference
    is a stable sort by ``floor((centre - origin) / 4)`` on exact rationals."""
    from collide2d._kernels.broadphase import grid

    rng = np.random.default_rng(71)
    n = 300
    lo = rng.integers(-8, 36, (n, 2)).astype(float)
    hi = lo + rng.integers(0, 7, (n, 2))
    nx = ny = 8
    x0, y0, inv = -2.0, 1.0, 0.25

    def cell(a, b, origin):
        return min(max(math.floor((Fraction(a) + Fraction(b)) / 2 - Fraction(origin)) // 4, 0), 7)

    key = [cell(lo[e, 1], hi[e, 1], y0) * nx + cell(lo[e, 0], hi[e, 0], x0) for e in range(n)]
    want = sorted(range(n), key=lambda e: (key[e], e))
    got = grid.cell_order(lo[:, 0].copy(), lo[:, 1].copy(), hi[:, 0].copy(), hi[:, 1].copy(), x0, y0, inv, nx, ny)
    assert len(set(key)) > 40
    np.testing.assert_array_equal(got, want)


@pytest.mark.nojit
def test_grid_kernels_python_and_compiled_agree():
    """The fused-grid kernels as plain Python (``py_func``) give the compiled result, with the
    targets packed in element order or in cell order (``PACK_BY_CELL``)."""
    from collide2d._kernels.broadphase import grid

    shapes = fused_scenes()["huge among tiny"]
    table = ShapeTable(list(shapes))
    n = len(table.bounds)
    e = _backend._Elements(table.bounds, np.arange(n), np.arange(n), True)
    x0, y0, inv, nx, ny = _backend._fused_grid_shape(e.bounds, n)
    assert nx * ny > 4
    xmin, ymin, xmax, ymax, qid, tid = e.columns()
    results = []
    for in_cell_order in (False, True):
        for compiled in (True, False):
            def pick(function):
                return function if compiled else getattr(function, "py_func", function)  # plain under NUMBA_DISABLE_JIT

            order = pick(grid.cell_order)(xmin, ymin, xmax, ymax, x0, y0, inv, nx, ny)
            by_cell = tuple(np.ascontiguousarray(a[order]) for a in (xmin, ymin, xmax, ymax, qid, tid))
            params = np.ascontiguousarray(table.params[order])
            if in_cell_order:
                packed = pick(grid.grid_pack)(*by_cell[:4], by_cell[5], params, x0, y0, inv, nx, ny)
            else:
                packed = pick(grid.grid_pack)(xmin, ymin, xmax, ymax, tid, table.params, x0, y0, inv, nx, ny)
            common = by_cell[:5] + (params, True, x0, y0, inv, nx, ny) + packed + (True,)
            counts = np.empty(n, dtype=np.int64)
            empty = np.empty(0, dtype=np.int64)
            pick(grid.fused_rows)(0, n, *common, counts, empty, empty)
            off = np.concatenate([[0], np.cumsum(counts)])
            out = np.empty(off[-1], dtype=np.int64)
            kept = np.zeros(n, dtype=np.int64)
            pick(grid.fused_rows)(0, n, *common, off, kept, out)
            pick(grid.resolve_rows)(0, off, kept, out, table.params, table.params, None)
            kept_offsets = np.concatenate([[0], np.cumsum(kept)])
            result = np.empty(kept_offsets[-1], dtype=np.int64)
            pick(grid.compact_rows)(off, kept, kept_offsets, out, result)
            results.append((order, counts, kept, result))
    for other in results[1:]:
        for x, y in zip(results[0], other):
            np.testing.assert_array_equal(x, y)
    expected = brute_pairs(shapes)
    assert np.all(results[0][3] >= 0)  # nothing undecided in this scene
    np.testing.assert_array_equal(results[0][3], expected[1])
    np.testing.assert_array_equal(np.repeat(np.arange(n), results[0][2]), expected[0])


@pytest.mark.nojit
def test_brute_rows_counts_a_range_of_rows():
    """``brute_rows`` counting the rows ``r0 .. r1 - 1`` (as ``grid_rows`` documents: row ``row``'s
    count goes to ``offsets[row - r0]``) gives the slice of the counts of all rows, for ranges that
    do not start at 0; self mode and two sets. The counts are checked by brute force on the boxes."""
    from collide2d._kernels.broadphase import sweep

    rng = np.random.default_rng(61)
    lo = rng.uniform(0, 10, (40, 2))
    bounds = np.c_[lo, lo + rng.uniform(0.2, 3, (40, 2))]
    meets = (bounds[:, None, 0] <= bounds[None, :, 2]) & (bounds[None, :, 0] <= bounds[:, None, 2])
    meets &= (bounds[:, None, 1] <= bounds[None, :, 3]) & (bounds[None, :, 1] <= bounds[:, None, 3])
    for self_mode in (True, False):
        if self_mode:  # every box a query and a target; pairs (q, t) with t > q
            qid, tid = np.arange(40), np.arange(40)
            want = np.triu(meets, 1).sum(axis=1)
        else:  # boxes 0..24 query boxes 25..39
            qid = np.r_[np.arange(25), np.full(15, -1)]
            tid = np.r_[np.full(25, -1), np.arange(15)]
            want = meets[:25, 25:].sum(axis=1)
        elements = _backend._Elements(bounds, qid, tid, self_mode)
        columns = elements.columns() + (self_mode,)
        empty = np.empty(0, dtype=np.int64)
        for r0, r1 in ((0, len(want)), (3, 11), (7, len(want))):
            counts = np.full(r1 - r0, -1, dtype=np.int64)
            sweep.brute_rows(r0, r1, *columns, counts, empty)
            np.testing.assert_array_equal(counts, want[r0:r1])


@pytest.mark.nojit
@pytest.mark.parametrize("backend", ["grid", "sweep", "brute"])
def test_a_single_candidate_pair_is_written(backend):
    """Scenes with exactly one candidate pair (a write buffer of one slot): the pair is found, in
    self mode and between two sets; against the exact predicate."""
    pair = [c2.Circle((0.0, 0.0), 1.0), c2.Circle((1.5, 0.0), 1.0)]
    assert_same(query_pairs(pair, backend=backend), np.array([[0], [1]]))
    ellipses = c2.Ellipse([(0.0, 0.0), (1.5, 0.5)], [(1.0, 0.5), (0.75, 0.5)], [0.3, 1.0])
    want = np.array([[0], [1]]) if c2.intersects(ellipses[0], ellipses[1]) else np.zeros((2, 0), dtype=np.int64)
    assert_same(query_pairs(ellipses, backend=backend), want)
    assert_same(query(c2.Circle((0.0, 0.0), 1.0), c2.Circle([(1.5, 0.0), (9.0, 9.0)], 1.0), backend=backend), np.array([[0], [0]]))
