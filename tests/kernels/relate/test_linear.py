"""Relate kernels of the flat kinds segment, line and point (``_kernels/relate/linear.py``).

Oracles:

* shapely (GEOS >= 3.13 predicates are robust) for point and segment pairs, and for lines when all
  coordinates are small integers: a line ``p + t d`` is then the segment ``p -+ 2**20 d``, exact in
  float64 and far longer than anything it meets;
* ``fraction_code`` below, written independently of the kernels: every kind is a parametric set
  ``p + t d`` with ``t`` in a closed interval (``[0, 1]`` for a segment, all reals for a line,
  ``{0}`` for a point), intersections are solved with Fractions, and the DE-9IM code is read off
  the parameter intervals.

Raw kernel codes (including the internal CROSSING) come from ``collide2d._dispatch.relate_codes``;
the public ``c2.relate`` / ``c2.overlaps`` are checked against them at the end.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pytest
import shapely

import collide2d as c2
from collide2d import _dispatch, _exact
from collide2d._kernels import codes
from collide2d._kernels.relate import linear

EPS = 2.0**-53
MIRROR = {codes.CONTAINS: codes.WITHIN, codes.WITHIN: codes.CONTAINS}
LONG = 2.0**20  # half-length of the shapely stand-in for a line with small integer data


# -- the Fraction oracle ---------------------------------------------------------------------------


def _param(kind, row):
    """``(p, d, lo, hi)`` with Fraction vectors; ``lo``/``hi`` None for an unbounded side."""
    r = [Fraction(float(x)) for x in row]
    if kind == "point":
        return (r[0], r[1]), (Fraction(0), Fraction(0)), Fraction(0), Fraction(0)
    if kind == "segment":
        return (r[0], r[1]), (r[2] - r[0], r[3] - r[1]), Fraction(0), Fraction(1)
    return (r[0], r[1]), (r[2], r[3]), None, None  # line


def _cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def _dot(u, v):
    return u[0] * v[0] + u[1] * v[1]


def _in(t, lo, hi):
    return (lo is None or lo <= t) and (hi is None or t <= hi)


def _strictly_in(t, lo, hi):
    return (lo is None or lo < t) and (hi is None or t < hi)


def _interval_code(lo1, hi1, lo2, hi2):
    """Relation of two closed parameter intervals of one line (None = infinite end)."""
    lo = lo2 if lo1 is None else lo1 if lo2 is None else max(lo1, lo2)
    hi = hi2 if hi1 is None else hi1 if hi2 is None else min(hi1, hi2)
    if lo is not None and hi is not None and lo > hi:
        return codes.DISJOINT
    if lo is not None and hi is not None and lo == hi:
        return codes.TOUCHING
    if (lo1, hi1) == (lo2, hi2):
        return codes.EQUAL
    if (lo1 is None or (lo2 is not None and lo1 <= lo2)) and (hi1 is None or (hi2 is not None and hi2 <= hi1)):
        return codes.CONTAINS
    if (lo2 is None or (lo1 is not None and lo2 <= lo1)) and (hi2 is None or (hi1 is not None and hi1 <= hi2)):
        return codes.WITHIN
    return codes.OVERLAPPING


def fraction_code(kind_a, row_a, kind_b, row_b):
    """Exact DE-9IM code of two flat shapes given by their stored rows."""
    pa, da, lo_a, hi_a = _param(kind_a, row_a)
    pb, db, lo_b, hi_b = _param(kind_b, row_b)
    if kind_a == "point" and kind_b == "point":
        return codes.EQUAL if pa == pb else codes.DISJOINT
    if kind_a == "point":
        code = fraction_code(kind_b, row_b, kind_a, row_a)
        return MIRROR.get(code, code)
    w = (pb[0] - pa[0], pb[1] - pa[1])
    if kind_b == "point":  # is pb = pa + t da for t in [lo_a, hi_a]?
        if _cross(da, w) != 0:
            return codes.DISJOINT
        t = _dot(w, da) / _dot(da, da)
        if _strictly_in(t, lo_a, hi_a):
            return codes.CONTAINS
        return codes.TOUCHING if _in(t, lo_a, hi_a) else codes.DISJOINT
    det = _cross(da, db)
    if det != 0:  # pa + t da = pb + s db, by Cramer's rule
        t = _cross(w, db) / det
        s = _cross(w, da) / det
        if not (_in(t, lo_a, hi_a) and _in(s, lo_b, hi_b)):
            return codes.DISJOINT
        if _strictly_in(t, lo_a, hi_a) and _strictly_in(s, lo_b, hi_b):
            return codes.CROSSING
        return codes.TOUCHING
    if _cross(da, w) != 0:
        return codes.DISJOINT  # parallel, distinct lines
    # One line: express b's parameter interval in a's parameter, t = (w + s db) . da / |da|^2.
    nn = _dot(da, da)
    t0 = _dot(w, da) / nn
    k = _dot(db, da) / nn
    ends = [None if s is None else t0 + k * s for s in (lo_b, hi_b)]
    if k < 0:
        ends = ends[::-1]
    if ends[0] is None and ends[1] is None:
        lo2, hi2 = None, None
    else:
        lo2, hi2 = ends
    return _interval_code(lo_a, hi_a, lo2, hi2)


# -- helpers ---------------------------------------------------------------------------------------


def build(kind, rows):
    rows = np.asarray(rows, dtype=np.float64)
    if kind == "point":
        return c2.Point(rows)
    if kind == "segment":
        return c2.Segment(rows[..., :2], rows[..., 2:])
    return c2.Line(rows[..., :2], rows[..., 2:])


def to_shapely(kind, rows):
    """Shapely geometries; lines only for small integer rows (see the module notes)."""
    rows = np.asarray(rows, dtype=np.float64)
    if kind == "point":
        return shapely.points(rows)
    if kind == "segment":
        return shapely.linestrings(rows.reshape(-1, 2, 2))
    assert np.all(rows == np.round(rows)) and np.abs(rows).max() < 2**10
    p, d = rows[:, :2], rows[:, 2:]
    return shapely.linestrings(np.stack([p - LONG * d, p + LONG * d], axis=1))


def shapely_codes(ga, gb):
    """DE-9IM codes from shapely's predicates (CROSSING: interiors meet, nothing else holds)."""
    out = np.full(len(ga), codes.CROSSING, dtype=np.int8)
    interiors_meet = np.array([m[0] != "F" for m in shapely.relate(ga, gb)])
    out[~interiors_meet] = codes.TOUCHING
    out[shapely.overlaps(ga, gb)] = codes.OVERLAPPING
    out[shapely.contains(ga, gb)] = codes.CONTAINS
    out[shapely.within(ga, gb)] = codes.WITHIN
    out[shapely.equals(ga, gb)] = codes.EQUAL
    out[shapely.disjoint(ga, gb)] = codes.DISJOINT
    return out


def fraction_codes(kind_a, rows_a, kind_b, rows_b):
    return np.array([fraction_code(kind_a, a, kind_b, b) for a, b in zip(rows_a, rows_b)], dtype=np.int8)


def mirrored(code_array):
    out = np.array(code_array, dtype=np.int8, copy=True)
    out[code_array == codes.CONTAINS] = codes.WITHIN
    out[code_array == codes.WITHIN] = codes.CONTAINS
    return out


def check_both_orders(kind_a, rows_a, kind_b, rows_b, expected):
    """The batch API in both argument orders, and the scalar API on a few pairs, give ``expected``."""
    a, b = build(kind_a, rows_a), build(kind_b, rows_b)
    got = _dispatch.relate_codes(a, b)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, (
        f"{bad.size} mismatches, first: a={np.asarray(rows_a)[bad[0]].tolist()} "
        f"b={np.asarray(rows_b)[bad[0]].tolist()} got {got[bad[0]]} expected {expected[bad[0]]}"
    )
    np.testing.assert_array_equal(_dispatch.relate_codes(b, a), mirrored(expected))
    for k in range(0, len(expected), max(1, len(expected) // 7)):
        assert _dispatch.relate_codes(a[k], b[k]) == expected[k]


PAIRS = [("segment", "segment"), ("segment", "line"), ("segment", "point"), ("line", "line"), ("line", "point"), ("point", "point")]


def random_int_rows(kind, rng, n, span=3):
    """Rows with small integer coordinates: many collinear, shared and touching cases."""
    width = 2 if kind == "point" else 4
    rows = rng.integers(-span, span + 1, size=(n, width)).astype(np.float64)
    if kind == "segment":  # re-draw zero-length segments
        bad = np.all(rows[:, :2] == rows[:, 2:], axis=1)
        while bad.any():
            rows[bad, 2:] = rng.integers(-span, span + 1, size=(bad.sum(), 2))
            bad = np.all(rows[:, :2] == rows[:, 2:], axis=1)
    if kind == "line":
        bad = np.all(rows[:, 2:] == 0, axis=1)
        while bad.any():
            rows[bad, 2:] = rng.integers(-span, span + 1, size=(bad.sum(), 2))
            bad = np.all(rows[:, 2:] == 0, axis=1)
    return rows


# -- known answers ---------------------------------------------------------------------------------

S, L, P = "segment", "line", "point"
KNOWN = [
    # 1. segments crossing at an interior point of both
    ("cross", S, (0, 0, 2, 2), S, (0, 2, 2, 0), codes.CROSSING),
    # 2. T-junction: the end point of b lies inside a
    ("t-junction", S, (0, 0, 2, 0), S, (1, 0, 1, 1), codes.TOUCHING),
    # 3. end point to end point at an angle
    ("corner", S, (0, 0, 1, 0), S, (1, 0, 1, 1), codes.TOUCHING),
    # 4. collinear, sharing one end point only
    ("collinear-chain", S, (0, 0, 1, 1), S, (1, 1, 3, 3), codes.TOUCHING),
    # 5. collinear with a common piece of positive length
    ("collinear-overlap", S, (0, 0, 2, 0), S, (1, 0, 3, 0), codes.OVERLAPPING),
    # 6. collinear, one inside the other, sharing an end point
    ("collinear-inside", S, (0, 0, 3, 0), S, (3, 0, 1, 0), codes.CONTAINS),
    ("collinear-within", S, (0, 1, 0, 2), S, (0, 0, 0, 5), codes.WITHIN),
    # 7. the same segment in the other direction
    ("reversed", S, (0, 0, 1, 2), S, (1, 2, 0, 0), codes.EQUAL),
    # 8. collinear with a gap; parallel distinct
    ("collinear-gap", S, (0, 0, 1, 0), S, (2, 0, 3, 0), codes.DISJOINT),
    ("parallel", S, (0, 0, 1, 0), S, (0, 1, 1, 1), codes.DISJOINT),
    # 9. lines of two segments cross outside one of them
    ("miss", S, (0, 0, 1, 0), S, (2, -1, 2, 1), codes.DISJOINT),
    # 10. segment on a line; crossing it; touching it with an end point; parallel to it
    ("on-line", S, (1, 1, 2, 2), L, (0, 0, -3, -3), codes.WITHIN),
    ("across-line", S, (0, -1, 0, 1), L, (5, 0, 1, 0), codes.CROSSING),
    ("end-on-line", S, (0, 0, 0, 1), L, (5, 0, 1, 0), codes.TOUCHING),
    ("beside-line", S, (0, 1, 1, 1), L, (5, 0, 1, 0), codes.DISJOINT),
    # 11. point inside a segment, at an end, on the line beyond the end, off the line
    ("point-inside", S, (0, 0, 2, 2), P, (1, 1), codes.CONTAINS),
    ("point-at-end", S, (0, 0, 2, 2), P, (2, 2), codes.TOUCHING),
    ("point-beyond", S, (0, 0, 2, 2), P, (3, 3), codes.DISJOINT),
    ("point-off", S, (0, 0, 2, 2), P, (1, 0), codes.DISJOINT),
    ("point-vertical", S, (1, 0, 1, 2), P, (1, 1), codes.CONTAINS),
    # 12. lines: crossing, parallel distinct, coincident with other point and direction
    ("lines-cross", L, (0, 0, 1, 0), L, (0, 0, 1, 1e-300), codes.CROSSING),
    ("lines-parallel", L, (0, 0, 1, 2), L, (1, 0, -2, -4), codes.DISJOINT),
    ("lines-equal", L, (0, 0, 1, 2), L, (3, 6, -0.5, -1), codes.EQUAL),
    # 13. points on and off a line
    ("line-point", L, (1, 1, 2, 3), P, (5, 7), codes.CONTAINS),
    ("line-point-off", L, (1, 1, 2, 3), P, (5, 7.000000000000001), codes.DISJOINT),
    # 14. points
    ("points-equal", P, (0.1, 0.2), P, (0.1, 0.2), codes.EQUAL),
    ("points-apart", P, (0.1, 0.2), P, (0.1, np.nextafter(0.2, 1)), codes.DISJOINT),
    # 15. near-degenerate: a point one ulp off the segment's line (needs the exact path)
    ("point-ulp-off", S, (0, 0, 3, 1), P, (1.5, np.nextafter(0.5, 1)), codes.DISJOINT),
    # 16. huge offset, tiny size, exactly representable (multiples of 2**-20 near 2**20)
    ("huge-tiny-cross", S, (2**20, 2**20, 2**20 + 2**-20, 2**20 + 2**-20), S,
     (2**20, 2**20 + 2**-20, 2**20 + 2**-20, 2**20), codes.CROSSING),
    ("huge-tiny-touch", S, (2**20, 2**20, 2**20 + 2**-19, 2**20), S,
     (2**20 + 2**-20, 2**20, 2**20 + 2**-20, 2**20 + 1e-6), codes.TOUCHING),
]


@pytest.mark.parametrize("name, kind_a, row_a, kind_b, row_b, expected", KNOWN, ids=[k[0] for k in KNOWN])
def test_known_answers(name, kind_a, row_a, kind_b, row_b, expected):
    a, b = build(kind_a, row_a), build(kind_b, row_b)
    assert _dispatch.relate_codes(a, b) == expected
    assert _dispatch.relate_codes(b, a) == MIRROR.get(expected, expected)
    assert fraction_code(kind_a, row_a, kind_b, row_b) == expected  # the oracle agrees too


# -- random cases ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind_a, kind_b", PAIRS)
def test_random_small_integers_against_both_oracles(kind_a, kind_b):
    rng = np.random.default_rng(20240611)
    n = 1000
    rows_a = random_int_rows(kind_a, rng, n)
    rows_b = random_int_rows(kind_b, rng, n)
    expected = fraction_codes(kind_a, rows_a, kind_b, rows_b)
    if kind_b != "line" or kind_a == "segment":  # two lines: shapely's long segments would not be EQUAL
        ga, gb = to_shapely(kind_a, rows_a), to_shapely(kind_b, rows_b)
        np.testing.assert_array_equal(shapely_codes(ga, gb), expected)
    check_both_orders(kind_a, rows_a, kind_b, rows_b, expected)
    # the degenerate cases must really be there
    assert len(np.unique(expected)) >= (2 if "point" in (kind_a, kind_b) else 3)


def collinear_rows(kind, rng, base, direction, n):
    """Shapes on the lines ``base + t direction``: ends at integer steps ``base + k direction``."""
    k = rng.integers(-4, 5, size=(n, 2)).astype(np.float64)
    k[:, 1] = np.where(k[:, 1] == k[:, 0], k[:, 0] + rng.choice([-1, 1], size=n), k[:, 1])
    first = base + k[:, :1] * direction
    if kind == "point":
        return first
    if kind == "segment":
        return np.concatenate([first, base + k[:, 1:] * direction], axis=1)
    return np.concatenate([first, rng.choice([-2, -1, 1, 3], size=(n, 1)) * direction], axis=1)


@pytest.mark.parametrize("kind_a, kind_b", PAIRS)
def test_random_collinear_configurations(kind_a, kind_b):
    # Every interval configuration on one line: shared ends, nesting from either end, equality,
    # gaps; a sixth of the pairs sit on a parallel line one step to the side.
    rng = np.random.default_rng(55)
    n = 600
    direction = rng.integers(-3, 4, size=(n, 2)).astype(np.float64)
    direction[np.all(direction == 0, axis=1)] = (1.0, 0.0)
    base = rng.integers(-3, 4, size=(n, 2)).astype(np.float64)
    side = np.zeros((n, 2))
    side[: n // 6] = direction[: n // 6, ::-1] * (-1, 1)
    rows_a = collinear_rows(kind_a, rng, base, direction, n)
    rows_b = collinear_rows(kind_b, rng, base + side, direction, n)
    expected = fraction_codes(kind_a, rows_a, kind_b, rows_b)
    if kind_b != "line" or kind_a == "segment":
        np.testing.assert_array_equal(shapely_codes(to_shapely(kind_a, rows_a), to_shapely(kind_b, rows_b)), expected)
    check_both_orders(kind_a, rows_a, kind_b, rows_b, expected)
    variety = {("segment", "segment"): 6, ("segment", "point"): 3}.get((kind_a, kind_b), 2)
    assert len(np.unique(expected)) >= variety


@pytest.mark.parametrize("kind_a, kind_b", [("segment", "segment"), ("segment", "point")])
def test_random_floats_against_shapely(kind_a, kind_b):
    rng = np.random.default_rng(7)
    n = 2000
    width_a = 2 if kind_a == "point" else 4
    width_b = 2 if kind_b == "point" else 4
    rows_a = rng.uniform(-1, 1, size=(n, width_a))
    rows_b = rng.uniform(-1, 1, size=(n, width_b))
    if kind_b == "point":  # points rounded onto the segment's line, some exactly on it
        t = rng.uniform(-0.5, 1.5, size=(n, 1))
        t[: n // 4] = rng.integers(0, 2, size=(n // 4, 1))
        rows_b = rows_a[:, :2] + t * (rows_a[:, 2:] - rows_a[:, :2])
    expected = shapely_codes(to_shapely(kind_a, rows_a), to_shapely(kind_b, rows_b))
    np.testing.assert_array_equal(fraction_codes(kind_a, rows_a, kind_b, rows_b), expected)
    check_both_orders(kind_a, rows_a, kind_b, rows_b, expected)


@pytest.mark.parametrize("kind_a, kind_b", PAIRS)
@pytest.mark.parametrize("offset, scale", [(1e6, 1e-6), (0.0, 1e-6), (-3e6, 1.0)], ids=["huge-tiny", "tiny", "huge"])
def test_huge_and_tiny_against_fractions(kind_a, kind_b, offset, scale):
    # Integer rows scaled by a power of two and moved far away: the stored data stays exactly
    # degenerate where the integers were (up to the rounding of the offset, the same for all).
    rng = np.random.default_rng(99)
    n = 400
    scale2 = 2.0 ** np.round(np.log2(scale))
    rows = []
    for kind in (kind_a, kind_b):
        r = random_int_rows(kind, rng, n) * scale2
        if kind == "line":
            r[:, :2] += offset
        else:
            r += offset
        rows.append(r)
    expected = fraction_codes(kind_a, rows[0], kind_b, rows[1])
    check_both_orders(kind_a, rows[0], kind_b, rows[1], expected)


def test_random_lines_with_float_data_against_fractions():
    rng = np.random.default_rng(1234)
    n = 1000
    la = rng.normal(size=(n, 4))
    lb = rng.normal(size=(n, 4))
    lb[: n // 3, 2:] = la[: n // 3, 2:] * rng.choice([-2.0, 0.5, 3.0], size=(n // 3, 1))  # parallel
    lb[: n // 6, :2] = la[: n // 6, :2] + 0.75 * la[: n // 6, 2:]  # coincident up to rounding
    segs = rng.normal(size=(n, 4))
    segs[: n // 3, :2] = la[: n // 3, :2]  # one end exactly on the line
    pts = la[:, :2] + rng.integers(-2, 3, size=(n, 1)) * la[:, 2:]
    for kind_a, rows_a, kind_b, rows_b in (("line", la, "line", lb), ("segment", segs, "line", la), ("line", la, "point", pts)):
        expected = fraction_codes(kind_a, rows_a, kind_b, rows_b)
        check_both_orders(kind_a, rows_a, kind_b, rows_b, expected)
        assert len(np.unique(expected)) >= 2


# -- float kernel versus exact path ----------------------------------------------------------------


@pytest.mark.parametrize("kind_a, kind_b", PAIRS)
def test_float_kernel_agrees_with_exact_path_when_it_decides(kind_a, kind_b):
    rng = np.random.default_rng(31337)
    n = 300
    name = f"relate_{kind_a}_{kind_b}"
    float_kernel = getattr(linear, name)
    exact_kernel = _exact.kernel_function(name)
    empty = np.zeros((0, 2))
    rows = []
    for kind in (kind_a, kind_b):
        r = random_int_rows(kind, rng, n) * 0.1  # decimal-like data: near-degenerate after rounding
        r[n // 2 :] = rng.normal(size=r[n // 2 :].shape)
        rows.append(r)
    decided = 0
    for ra, rb in zip(*rows):
        code = float_kernel(ra, empty, rb, empty, EPS)
        ea, va = _exact.exact_row(kind_a, ra, empty)
        eb, vb = _exact.exact_row(kind_b, rb, empty)
        exact = exact_kernel(ea, va, eb, vb, 0)
        assert exact != codes.UNDECIDED
        assert exact == fraction_code(kind_a, ra, kind_b, rb)
        if code != codes.UNDECIDED:
            decided += 1
            assert code == exact, (ra.tolist(), rb.tolist())
    assert decided > n // 3


def test_near_degenerate_cases_use_the_exact_fallback():
    rng = np.random.default_rng(5)
    n = 200
    seg = rng.uniform(-1, 1, size=(n, 4))
    t = rng.uniform(0.1, 0.9, size=(n, 1))
    on = seg[:, :2] + t * (seg[:, 2:] - seg[:, :2])  # on the segment up to one rounding
    c2.exact_fallback_counts(reset=True)
    got = _dispatch.relate_codes(build("segment", seg), build("point", on))
    counts = c2.exact_fallback_counts(reset=True)
    assert counts.get("relate_segment_point", 0) > 0
    np.testing.assert_array_equal(got, fraction_codes("segment", seg, "point", on))
    # well separated data never needs it
    far = seg[:, :2] + np.array([10.0, 10.0])
    _dispatch.relate_codes(build("segment", seg), build("point", far))
    _dispatch.relate_codes(build("segment", seg), build("segment", np.concatenate([far, far + 1], axis=1)))
    assert c2.exact_fallback_counts(reset=True) == {}


# -- the public layer --------------------------------------------------------------------------------


def test_public_relate_and_predicates_follow_the_codes():
    rng = np.random.default_rng(77)
    n = 600
    a, b = random_int_rows("segment", rng, n, span=2), random_int_rows("segment", rng, n, span=2)
    sa, sb = build("segment", a), build("segment", b)
    raw = _dispatch.relate_codes(sa, sb)
    public = c2.relate(sa, sb)
    np.testing.assert_array_equal(public, np.where(raw == codes.CROSSING, codes.OVERLAPPING, raw))
    np.testing.assert_array_equal(c2.relate(sb, sa), mirrored(public))
    np.testing.assert_array_equal(c2.overlaps(sa, sb), raw == codes.OVERLAPPING)
    np.testing.assert_array_equal(c2.touches(sa, sb), raw == codes.TOUCHING)
    np.testing.assert_array_equal(c2.intersects(sa, sb), raw != codes.DISJOINT)
    np.testing.assert_array_equal(c2.contains(sa, sb), (raw == codes.CONTAINS) | (raw == codes.EQUAL))
    np.testing.assert_array_equal(c2.equals(sa, sb), raw == codes.EQUAL)
    ga, gb = to_shapely("segment", a), to_shapely("segment", b)
    for ours, theirs in ((c2.overlaps, shapely.overlaps), (c2.touches, shapely.touches), (c2.contains, shapely.contains)):
        np.testing.assert_array_equal(ours(sa, sb), theirs(ga, gb))
    assert c2.relate(c2.Segment((0, 0), (2, 2)), c2.Segment((0, 2), (2, 0))) == c2.Relation.OVERLAPPING
    assert c2.relate(c2.Point((1, 1)), c2.Segment((0, 0), (2, 2))) == c2.Relation.WITHIN
    assert c2.relate(c2.Line((0, 0), (1, 1)), c2.Line((5, 5), (-1, -1))) == c2.Relation.EQUAL


# -- three-valued logic: any set of unknown signs may only turn an answer into UNDECIDED -----------


def load_pure_kernels(alias):
    """A private uncompiled copy of the kernel package (not the one the exact fallback uses)."""
    _exact.load_uncompiled_kernels(alias, ("vec", "relate.linear", "relate.polygon"))
    return sys.modules[alias]


@pytest.mark.parametrize("kind_a, kind_b", PAIRS)
def test_unknown_signs_never_change_a_decided_answer(kind_a, kind_b, monkeypatch):
    # The copy runs on Fractions with eps = 0, so every value reaching certain_sign is exact; the
    # patched certain_sign hides a random subset of the signs as UNKNOWN_SIGN, as the float filter
    # may. The kernel must then answer exactly or say UNDECIDED, and must still decide often.
    package = load_pure_kernels("collide2d_test_linear_kernels")
    rng = np.random.default_rng(606)
    hide = {"p": 0.0}

    def flaky_certain_sign(value, bound):
        if rng.random() < hide["p"]:
            return codes.UNKNOWN_SIGN
        return (value > 0) - (value < 0)

    monkeypatch.setattr(package.vec, "certain_sign", flaky_certain_sign)
    monkeypatch.setattr(package.relate.linear, "certain_sign", flaky_certain_sign)
    kernel = getattr(package.relate.linear, f"relate_{kind_a}_{kind_b}")
    empty = np.zeros((0, 2))
    n = 400
    rows_a, rows_b = random_int_rows(kind_a, rng, n, span=2), random_int_rows(kind_b, rng, n, span=2)
    decided = 0
    for ra, rb in zip(rows_a, rows_b):
        ea, va = _exact.exact_row(kind_a, ra, empty)
        eb, vb = _exact.exact_row(kind_b, rb, empty)
        hide["p"] = 0.0
        exact = kernel(ea, va, eb, vb, 0)
        assert exact == fraction_code(kind_a, ra, kind_b, rb)
        for p in (0.2, 0.5):
            hide["p"] = p
            code = kernel(ea, va, eb, vb, 0)
            assert code in (exact, codes.UNDECIDED), (ra.tolist(), rb.tolist(), p)
            decided += code != codes.UNDECIDED
    if kind_a != "point" or kind_b != "point":
        assert decided > n // 5
