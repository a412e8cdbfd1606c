"""Relate kernels of a convex polygon against polygon, segment, line and point (``_kernels/relate/polygon.py``).

Oracles:

* shapely (GEOS >= 3.13 predicates are robust); a line ``p + t d`` with small integer data is the
  exact segment ``p -+ 2**20 d``;
* the Fraction oracles below, written independently of the kernels' separating-axis logic:
  a point is located by triangle areas, a segment or line is clipped to the polygon in its own
  parameter (Cyrus-Beck), and two polygons are clipped against each other (Sutherland-Hodgman),
  all in exact rational arithmetic.

Raw kernel codes (including the internal CROSSING) come from ``collide2d._dispatch.relate_codes``.
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
from collide2d._kernels.relate import polygon

EPS = 2.0**-53
MIRROR = {codes.CONTAINS: codes.WITHIN, codes.WITHIN: codes.CONTAINS}
LONG = 2.0**20
NPAD = 8  # polygons are padded to this many vertices (repeats are dropped by c2.Polygon)


# -- Fraction oracles ------------------------------------------------------------------------------


def _fr(points):
    return [(Fraction(float(x)), Fraction(float(y))) for x, y in points]


def _cross3(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _area2(poly):
    return sum(_cross3((Fraction(0), Fraction(0)), poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def oracle_point(poly, q):
    """Triangle fan from q: q is in the closed polygon iff the |areas| add up to the polygon's."""
    tri = [_cross3(q, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    if sum(abs(t) for t in tri) != abs(_area2(poly)):
        return codes.DISJOINT
    return codes.TOUCHING if 0 in tri else codes.CONTAINS


def _clip_parameter(poly, p, d, lo, hi):
    """Cyrus-Beck: the closed range of t with p + t d in the polygon (None ends are infinite)."""
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        e = (b[0] - a[0], b[1] - a[1])
        c = e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0])  # side of p, > 0 inside (left, ccw)
        k = e[0] * d[1] - e[1] * d[0]  # its rate of change along d
        if k == 0:
            if c < 0:
                return None
            continue
        t = -c / k
        if k > 0:
            lo = t if lo is None else max(lo, t)
        else:
            hi = t if hi is None else min(hi, t)
    if lo is not None and hi is not None and lo > hi:
        return None
    return lo, hi


def oracle_linear(poly, p, d, lo, hi):
    """Code of polygon against ``p + t d, t in [lo, hi]`` (a segment for [0, 1], a line for None)."""
    clipped = _clip_parameter(poly, p, d, lo, hi)
    if clipped is None:
        return codes.DISJOINT
    t0, t1 = clipped
    if t0 is not None and t1 is not None and t0 == t1:
        return codes.TOUCHING
    # a chord of positive length: its interior meets the open polygon iff one inner point does
    if t0 is None and t1 is None:
        m = Fraction(0)
    elif t0 is None:
        m = t1 - 1
    elif t1 is None:
        m = t0 + 1
    else:
        m = (t0 + t1) / 2
    x = (p[0] + m * d[0], p[1] + m * d[1])
    if oracle_point(poly, x) != codes.CONTAINS:
        return codes.TOUCHING  # the chord runs along an edge
    if lo is not None and t0 == lo and t1 == hi:
        return codes.CONTAINS
    return codes.CROSSING


def _clip_polygon(subject, clip):
    """Sutherland-Hodgman with closed half-planes: subject (any convex point cycle) within clip."""
    out = list(subject)
    for i in range(len(clip)):
        a, b = clip[i], clip[(i + 1) % len(clip)]
        pts, out = out, []
        for j in range(len(pts)):
            cur, nxt = pts[j], pts[(j + 1) % len(pts)]
            sc, sn = _cross3(a, b, cur), _cross3(a, b, nxt)
            if sc >= 0:
                out.append(cur)
            if (sc >= 0) != (sn >= 0):
                t = sc / (sc - sn)
                out.append((cur[0] + t * (nxt[0] - cur[0]), cur[1] + t * (nxt[1] - cur[1])))
        if not out:
            return out
    return out


def oracle_polygons(pa, pb):
    common = _clip_polygon(pb, pa)
    if not common:
        return codes.DISJOINT
    area = abs(_area2(common))
    if area == 0:
        return codes.TOUCHING
    b_in_a = area == abs(_area2(pb))
    a_in_b = area == abs(_area2(pa))
    if b_in_a and a_in_b:
        return codes.EQUAL
    if b_in_a:
        return codes.CONTAINS
    if a_in_b:
        return codes.WITHIN
    return codes.OVERLAPPING


def _ccw(poly):
    """Drop repeated consecutive vertices (the padding) and orient counter-clockwise."""
    poly = [p for i, p in enumerate(poly) if p != poly[i - 1]]
    return poly[::-1] if _area2(poly) < 0 else poly


def fraction_code(poly_vertices, kind_b, row_b):
    """Exact code of the polygon (vertex list) against a shape of kind_b given by its row."""
    poly = _ccw(_fr(poly_vertices))
    if kind_b == "polygon":
        return oracle_polygons(poly, _ccw(_fr(row_b)))
    r = [Fraction(float(x)) for x in row_b]
    if kind_b == "point":
        return oracle_point(poly, (r[0], r[1]))
    if kind_b == "segment":
        return oracle_linear(poly, (r[0], r[1]), (r[2] - r[0], r[3] - r[1]), Fraction(0), Fraction(1))
    return oracle_linear(poly, (r[0], r[1]), (r[2], r[3]), None, None)


# -- data ------------------------------------------------------------------------------------------


def _hull(points):
    """Counter-clockwise convex hull, strict (Andrew's monotone chain; exact for small integers)."""
    pts = sorted(set(map(tuple, points)))
    if len(pts) < 3:
        return pts

    def turn(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def random_int_polygons(rng, n, span=3):
    """``(n, NPAD, 2)`` float array: hulls of a few integer points, rolled, padded by repetition."""
    out = np.empty((n, NPAD, 2))
    for k in range(n):
        while True:
            m = rng.integers(3, 7)
            hull = _hull(rng.integers(-span, span + 1, size=(m, 2)).tolist())
            if len(hull) >= 3:
                break
        hull = np.roll(np.array(hull, dtype=np.float64), rng.integers(len(hull)), axis=0)
        out[k, : len(hull)] = hull
        out[k, len(hull) :] = hull[-1]
    return out


def random_int_rows(kind, rng, n, span=3):
    """Point, segment or line rows with small integer coordinates."""
    width = 2 if kind == "point" else 4
    rows = rng.integers(-span, span + 1, size=(n, width)).astype(np.float64)
    if kind == "point":
        return rows
    while True:  # segments need distinct ends, lines a non-zero direction
        bad = np.all(rows[:, 2:] == (0 if kind == "line" else rows[:, :2]), axis=1)
        if not bad.any():
            return rows
        rows[bad, 2:] = rng.integers(-span, span + 1, size=(bad.sum(), 2))


def build(kind, data):
    data = np.asarray(data, dtype=np.float64)
    if kind == "polygon":
        return c2.Polygon(data)
    if kind == "point":
        return c2.Point(data)
    if kind == "segment":
        return c2.Segment(data[..., :2], data[..., 2:])
    return c2.Line(data[..., :2], data[..., 2:])


def to_shapely(kind, data):
    data = np.asarray(data, dtype=np.float64)
    if kind == "polygon":
        return np.array([shapely.Polygon(v) for v in data])
    if kind == "point":
        return shapely.points(data)
    if kind == "segment":
        return shapely.linestrings(data.reshape(-1, 2, 2))
    assert np.all(data == np.round(data)) and np.abs(data).max() < 2**10
    p, d = data[:, :2], data[:, 2:]
    return shapely.linestrings(np.stack([p - LONG * d, p + LONG * d], axis=1))


def shapely_codes(ga, gb):
    out = np.full(len(ga), codes.CROSSING, dtype=np.int8)
    interiors_meet = np.array([m[0] != "F" for m in shapely.relate(ga, gb)])
    out[~interiors_meet] = codes.TOUCHING
    out[shapely.overlaps(ga, gb)] = codes.OVERLAPPING
    out[shapely.contains(ga, gb)] = codes.CONTAINS
    out[shapely.within(ga, gb)] = codes.WITHIN
    out[shapely.equals(ga, gb)] = codes.EQUAL
    out[shapely.disjoint(ga, gb)] = codes.DISJOINT
    return out


def fraction_codes(polys, kind_b, data_b):
    return np.array([fraction_code(p, kind_b, b) for p, b in zip(polys, data_b)], dtype=np.int8)


def mirrored(code_array):
    out = np.array(code_array, dtype=np.int8, copy=True)
    out[code_array == codes.CONTAINS] = codes.WITHIN
    out[code_array == codes.WITHIN] = codes.CONTAINS
    return out


def check_both_orders(polys, kind_b, data_b, expected):
    a, b = build("polygon", polys), build(kind_b, data_b)
    got = _dispatch.relate_codes(a, b)
    bad = np.flatnonzero(got != expected)
    assert bad.size == 0, (
        f"{bad.size} mismatches, first: polygon={np.asarray(polys)[bad[0]].tolist()} "
        f"{kind_b}={np.asarray(data_b)[bad[0]].tolist()} got {got[bad[0]]} expected {expected[bad[0]]}"
    )
    np.testing.assert_array_equal(_dispatch.relate_codes(b, a), mirrored(expected))
    for k in range(0, len(expected), max(1, len(expected) // 5)):
        assert _dispatch.relate_codes(a[k], b[k]) == expected[k]
        assert _dispatch.relate_codes(b[k], a[k]) == MIRROR.get(int(expected[k]), expected[k])


KINDS_B = ["polygon", "segment", "line", "point"]


def random_b(kind_b, rng, n, span=3):
    return random_int_polygons(rng, n, span) if kind_b == "polygon" else random_int_rows(kind_b, rng, n, span)


# -- known answers ---------------------------------------------------------------------------------

SQ = [(0, 0), (2, 0), (2, 2), (0, 2)]
TRI = [(0, 0), (4, 0), (0, 4)]
KNOWN = [
    # 1. boxes side by side sharing an edge, a corner, part of an edge; apart
    ("boxes-edge", SQ, "polygon", [(2, 0), (3, 0), (3, 2), (2, 2)], codes.TOUCHING),
    ("boxes-corner", SQ, "polygon", [(2, 2), (3, 2), (3, 3), (2, 3)], codes.TOUCHING),
    ("boxes-part-edge", SQ, "polygon", [(2, 1), (3, 1), (3, 5), (2, 5)], codes.TOUCHING),
    ("boxes-apart", SQ, "polygon", [(3, 0), (4, 0), (4, 2), (3, 2)], codes.DISJOINT),
    # 2. overlapping boxes; a box inside sharing two edges; the same box from another start
    ("boxes-overlap", SQ, "polygon", [(1, 1), (3, 1), (3, 3), (1, 3)], codes.OVERLAPPING),
    ("inside-shared-edges", SQ, "polygon", [(0, 0), (1, 0), (1, 1), (0, 1)], codes.CONTAINS),
    ("within", [(0, 0), (1, 0), (1, 1), (0, 1)], "polygon", SQ, codes.WITHIN),
    ("equal-rolled", SQ, "polygon", SQ[2:] + SQ[:2], codes.EQUAL),
    ("equal-clockwise", SQ, "polygon", SQ[::-1], codes.EQUAL),
    # 3. a triangle's vertex touching an edge from outside; crossing an edge
    ("vertex-on-edge", SQ, "polygon", [(1, 2), (2, 3), (0, 3)], codes.TOUCHING),
    ("vertex-through-edge", SQ, "polygon", [(1, 1), (2, 3), (0, 3)], codes.OVERLAPPING),
    # 4. segments: along an edge, part of an edge, inside touching the boundary, a diagonal,
    #    crossing, from a vertex outward, touching a vertex from outside, T onto an edge
    ("seg-along-edge", SQ, "segment", (0, 0, 2, 0), codes.TOUCHING),
    ("seg-part-edge", SQ, "segment", (0.5, 2, 1.5, 2), codes.TOUCHING),
    ("seg-edge-and-beyond", SQ, "segment", (1, 2, 3, 2), codes.TOUCHING),
    ("seg-inside-touching", SQ, "segment", (0, 1, 1, 1), codes.CONTAINS),
    ("seg-diagonal", SQ, "segment", (0, 0, 2, 2), codes.CONTAINS),
    ("seg-inside", SQ, "segment", (0.5, 0.5, 1.5, 1), codes.CONTAINS),
    ("seg-crossing", SQ, "segment", (-1, 1, 3, 1), codes.CROSSING),
    ("seg-half-in", SQ, "segment", (1, 1, 3, 1), codes.CROSSING),
    ("seg-vertex-outward", SQ, "segment", (2, 2, 3, 3), codes.TOUCHING),
    ("seg-vertex-tangent", TRI, "segment", (3, -1, 5, 1), codes.TOUCHING),
    ("seg-t-on-edge", SQ, "segment", (1, 2, 1, 3), codes.TOUCHING),
    ("seg-apart", SQ, "segment", (3, 0, 3, 2), codes.DISJOINT),
    ("seg-corner-cut", TRI, "segment", (2, -1, 5, 2), codes.CROSSING),
    # 5. lines: through a vertex only, along an edge, crossing, through two vertices, apart
    ("line-vertex", SQ, "line", (0, 4, 1, -1), codes.TOUCHING),
    ("line-edge", SQ, "line", (5, 2, -1, 0), codes.TOUCHING),
    ("line-cross", SQ, "line", (1, 1, 0.5, 3), codes.CROSSING),
    ("line-diagonal", SQ, "line", (0, 0, 1, 1), codes.CROSSING),
    ("line-apart", SQ, "line", (0, 5, 1, -1), codes.DISJOINT),
    # 6. points: inside, on an edge, at a vertex, outside on an edge's line
    ("point-inside", SQ, "point", (1, 1), codes.CONTAINS),
    ("point-edge", SQ, "point", (2, 1), codes.TOUCHING),
    ("point-vertex", SQ, "point", (0, 2), codes.TOUCHING),
    ("point-beyond-edge", SQ, "point", (3, 2), codes.DISJOINT),
    ("point-hypotenuse", TRI, "point", (1, 3), codes.TOUCHING),
    ("point-ulp-out", TRI, "point", (1, np.nextafter(3, 4)), codes.DISJOINT),
    ("point-ulp-in", TRI, "point", (1, np.nextafter(3, 0)), codes.CONTAINS),
]


@pytest.mark.parametrize("name, poly, kind_b, data_b, expected", KNOWN, ids=[k[0] for k in KNOWN])
def test_known_answers(name, poly, kind_b, data_b, expected):
    a, b = c2.Polygon(poly), build(kind_b, data_b)
    assert _dispatch.relate_codes(a, b) == expected
    assert _dispatch.relate_codes(b, a) == MIRROR.get(expected, expected)
    assert fraction_code(np.asarray(poly, dtype=float), kind_b, np.asarray(data_b, dtype=float)) == expected


def test_boxes_and_rotated_boxes():
    assert c2.relate(c2.Box((0, 0), (1, 1)), c2.Box((1, 0), (2, 1))) == c2.Relation.TOUCHING
    assert c2.relate(c2.Box((0, 0), (1, 1)), c2.Polygon([(0, 0), (0, 1), (1, 1), (1, 0)])) == c2.Relation.EQUAL
    # a quarter turn is applied exactly: the same square from other corners
    assert c2.relate(c2.RotatedBox((1, 1), (1, 1), np.pi / 2), c2.Box((0, 0), (2, 2))) == c2.Relation.EQUAL
    assert c2.relate(c2.RotatedBox((0, 0), (1, 1), np.pi / 4), c2.Box((-1, -1), (1, 1))) == c2.Relation.OVERLAPPING
    assert c2.relate(c2.Box((-3, -3), (3, 3)), c2.RotatedBox((0, 0), (1, 2), 0.3)) == c2.Relation.CONTAINS


# -- random cases ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind_b", KINDS_B)
def test_random_small_integers_against_both_oracles(kind_b):
    rng = np.random.default_rng(8675309)
    n = 400 if kind_b == "polygon" else 600
    polys = random_int_polygons(rng, n)
    data_b = random_b(kind_b, rng, n)
    if kind_b == "polygon":  # some equal pairs, written from another starting vertex
        data_b[: n // 20] = np.roll(polys[: n // 20], 3, axis=1)
    expected = shapely_codes(to_shapely("polygon", polys), to_shapely(kind_b, data_b))
    np.testing.assert_array_equal(fraction_codes(polys, kind_b, data_b), expected)
    check_both_orders(polys, kind_b, data_b, expected)
    assert len(np.unique(expected)) >= {"polygon": 6, "segment": 4, "line": 3, "point": 3}[kind_b]


def _random_float_polygons(rng, n):
    """Rotated rectangles and hulls of random points, as (n, NPAD, 2) float arrays."""
    out = np.empty((n, NPAD, 2))
    for k in range(n):
        if k % 2:
            box = c2.RotatedBox(rng.uniform(-1, 1, 2), rng.uniform(0.1, 1, 2), rng.uniform(0, 3))
            v = box.corners
        else:
            pts = rng.uniform(-1, 1, size=(6, 2))
            v = np.array(shapely.convex_hull(shapely.multipoints(pts)).exterior.coords)[:-1][::-1]
        out[k, : len(v)] = v
        out[k, len(v) :] = v[-1]
    return out


@pytest.mark.parametrize("kind_b", ["polygon", "segment", "point"])
def test_random_floats_against_shapely(kind_b):
    rng = np.random.default_rng(4242)
    n = 200 if kind_b == "polygon" else 400
    polys = _random_float_polygons(rng, n)
    if kind_b == "polygon":
        data_b = _random_float_polygons(rng, n)
        data_b[: n // 5] = polys[: n // 5] + rng.uniform(-0.01, 0.01, size=(n // 5, 1, 2))
        data_b[n // 5 : n // 4] = np.roll(polys[n // 5 : n // 4], 1, axis=1)  # equal up to the padding
    elif kind_b == "segment":
        data_b = rng.uniform(-1.5, 1.5, size=(n, 4))
        data_b[: n // 4, :2] = polys[: n // 4, 0]  # from a vertex
        data_b[n // 4 : n // 2, :2] = polys[n // 4 : n // 2, 1]
        data_b[n // 4 : n // 2, 2:] = polys[n // 4 : n // 2, 2]  # along an edge or a diagonal
    else:
        data_b = rng.uniform(-1.2, 1.2, size=(n, 2))
        data_b[: n // 4] = polys[: n // 4, 0]
    expected = shapely_codes(to_shapely("polygon", polys), to_shapely(kind_b, data_b))
    np.testing.assert_array_equal(fraction_codes(polys, kind_b, data_b), expected)
    check_both_orders(polys, kind_b, data_b, expected)


def test_random_float_lines_against_fractions():
    rng = np.random.default_rng(2718)
    n = 500
    polys = _random_float_polygons(rng, n)
    lines = rng.normal(size=(n, 4))
    lines[: n // 3, :2] = polys[: n // 3, 0]  # through a vertex
    lines[n // 3 : n // 2, :2] = polys[n // 3 : n // 2, 0]
    lines[n // 3 : n // 2, 2:] = polys[n // 3 : n // 2, 1] - polys[n // 3 : n // 2, 0]  # along an edge (rounded)
    expected = fraction_codes(polys, "line", lines)
    check_both_orders(polys, "line", lines, expected)
    assert len(np.unique(expected)) == 3


@pytest.mark.parametrize("kind_b", KINDS_B)
@pytest.mark.parametrize("offset, scale", [(1e6, 1e-6), (0.0, 1e-6), (-3e6, 1.0)], ids=["huge-tiny", "tiny", "huge"])
def test_huge_and_tiny_against_fractions(kind_b, offset, scale):
    # integer data scaled by a power of two and moved far away: the degeneracies of the integers
    # survive (the offset rounds the same way for every coordinate on the same grid)
    rng = np.random.default_rng(161803)
    n = 200 if kind_b == "polygon" else 300
    scale2 = 2.0 ** np.round(np.log2(scale))
    polys = random_int_polygons(rng, n) * scale2 + offset
    data_b = random_b(kind_b, rng, n) * scale2
    if kind_b == "line":
        data_b[:, :2] += offset
    else:
        data_b += offset
    expected = fraction_codes(polys, kind_b, data_b)
    check_both_orders(polys, kind_b, data_b, expected)
    if kind_b != "line":  # shapely agrees on exactly representable data
        np.testing.assert_array_equal(shapely_codes(to_shapely("polygon", polys), to_shapely(kind_b, data_b)), expected)


# -- float kernel versus exact path ----------------------------------------------------------------


@pytest.mark.parametrize("kind_b", KINDS_B)
def test_float_kernel_agrees_with_exact_path_when_it_decides(kind_b):
    rng = np.random.default_rng(14142)
    n = 120
    polys = np.concatenate([random_int_polygons(rng, n // 2) * 0.1, _random_float_polygons(rng, n - n // 2)])
    data_b = random_b(kind_b, rng, n) * 0.1
    if kind_b == "polygon":
        data_b[n // 2 :] = _random_float_polygons(rng, n - n // 2)
    else:
        data_b[n // 2 :] = rng.normal(size=data_b[n // 2 :].shape)
    a, b = build("polygon", polys), build(kind_b, data_b)
    name = f"relate_polygon_{kind_b}"
    float_kernel = getattr(polygon, name)
    exact_kernel = _exact.kernel_function(name)
    pa_rows, pb_rows = a._flat_params(), b._flat_params()
    decided = 0
    for k in range(n):
        code = float_kernel(pa_rows[k], a._verts, pb_rows[k], b._verts, EPS)
        ea, va = _exact.exact_row("polygon", pa_rows[k], a._verts)
        eb, vb = _exact.exact_row(kind_b, pb_rows[k], b._verts)
        exact = exact_kernel(ea, va, eb, vb, 0)
        assert exact != codes.UNDECIDED
        own_b = b[k]._params if kind_b != "polygon" else b[k].vertices
        assert exact == fraction_code(a[k].vertices, kind_b, own_b)
        if code != codes.UNDECIDED:
            decided += 1
            assert code == exact, (polys[k].tolist(), data_b[k].tolist())
    assert decided > n // 3


def test_near_degenerate_cases_use_the_exact_fallback():
    rng = np.random.default_rng(11)
    n = 200
    boxes = c2.RotatedBox(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 1, (n, 2)), rng.uniform(0, 3, n))
    corners = boxes.corners
    t = rng.uniform(0.1, 0.9, size=(n, 1))
    on_edge = corners[:, 0] + t * (corners[:, 1] - corners[:, 0])  # on an edge up to one rounding
    c2.exact_fallback_counts(reset=True)
    got = _dispatch.relate_codes(boxes, c2.Point(on_edge))
    assert c2.exact_fallback_counts(reset=True).get("relate_polygon_point", 0) > 0
    polys = np.concatenate([corners, np.repeat(corners[:, -1:], NPAD - 4, axis=1)], axis=1)
    np.testing.assert_array_equal(got, fraction_codes(polys, "point", on_edge))
    # generic float data is decided by the float kernels alone
    _dispatch.relate_codes(boxes, c2.Point(rng.uniform(-2, 2, (n, 2))))
    _dispatch.relate_codes(boxes, boxes[::-1])
    assert c2.exact_fallback_counts(reset=True) == {}


def test_public_relate_mirrors_and_maps_crossing():
    rng = np.random.default_rng(3)
    n = 300
    polys = build("polygon", random_int_polygons(rng, n))
    segs = build("segment", random_int_rows("segment", rng, n))
    raw = _dispatch.relate_codes(polys, segs)
    public = c2.relate(polys, segs)
    np.testing.assert_array_equal(public, np.where(raw == codes.CROSSING, codes.OVERLAPPING, raw))
    np.testing.assert_array_equal(c2.relate(segs, polys), mirrored(public))
    assert not c2.overlaps(polys, segs).any()  # different dimensions never overlap
    np.testing.assert_array_equal(c2.contains(polys, segs), raw == codes.CONTAINS)
    other = build("polygon", random_int_polygons(rng, n))
    np.testing.assert_array_equal(
        c2.overlaps(polys, other), shapely.overlaps(to_shapely("polygon", polys.vertices), to_shapely("polygon", other.vertices))
    )


# -- three-valued logic: any set of unknown signs may only turn an answer into UNDECIDED -----------


def load_pure_kernels(alias):
    """A private uncompiled copy of the kernel package (not the one the exact fallback uses)."""
    _exact.load_uncompiled_kernels(alias, ("vec", "relate.linear", "relate.polygon"))
    return sys.modules[alias]


@pytest.mark.parametrize("kind_b", KINDS_B)
def test_unknown_signs_never_change_a_decided_answer(kind_b, monkeypatch):
    # The copy runs on Fractions with eps = 0, so every value reaching certain_sign is exact; the
    # patched certain_sign hides a random subset of the signs as UNKNOWN_SIGN, as the float filter
    # may. The kernel must then answer exactly or say UNDECIDED, and must still decide sometimes.
    package = load_pure_kernels("collide2d_test_polygon_kernels")
    rng = np.random.default_rng(2025)
    hide = {"p": 0.0}

    def flaky_certain_sign(value, bound):
        if rng.random() < hide["p"]:
            return codes.UNKNOWN_SIGN
        return (value > 0) - (value < 0)

    monkeypatch.setattr(package.vec, "certain_sign", flaky_certain_sign)
    monkeypatch.setattr(package.relate.linear, "certain_sign", flaky_certain_sign)
    kernel = getattr(package.relate.polygon, f"relate_polygon_{kind_b}")
    n = 300 if kind_b == "polygon" else 500
    polys = build("polygon", random_int_polygons(rng, n, span=2))
    shapes_b = build(kind_b, random_b(kind_b, rng, n, span=2))
    rows_a, rows_b = polys._flat_params(), shapes_b._flat_params()
    decided = 0
    for k in range(n):
        ea, va = _exact.exact_row("polygon", rows_a[k], polys._verts)
        eb, vb = _exact.exact_row(kind_b, rows_b[k], shapes_b._verts)
        hide["p"] = 0.0
        exact = kernel(ea, va, eb, vb, 0)
        for p in (0.05, 0.2, 0.5):
            hide["p"] = p
            code = kernel(ea, va, eb, vb, 0)
            assert code in (exact, codes.UNDECIDED), (polys[k].vertices.tolist(), rows_b[k].tolist(), p)
            decided += code != codes.UNDECIDED
    assert decided > n // 5


def _shared_vertex_pairs(rng, n):
    """Pairs of convex polygons (vertex lists) that share stored vertices exactly: a polygon and
    itself, itself from another starting vertex, and the two halves of it cut along a diagonal."""
    pairs = []
    for k in range(n):
        if k % 2:
            v = c2.RotatedBox(rng.uniform(-1, 1, 2), rng.uniform(0.1, 1, 2), rng.uniform(0, 3)).corners
        else:
            pts = rng.uniform(-1, 1, size=(7, 2))
            v = np.array(shapely.convex_hull(shapely.multipoints(pts)).exterior.coords)[:-1][::-1]
        m = len(v)
        pairs.append((v, v))
        pairs.append((v, np.roll(v, 1 + k % (m - 1), axis=0)))
        if m >= 4:  # the diagonal from vertex 0 to vertex cut: two convex halves
            cut = 2 + k % (m - 3)
            pairs.append((v[: cut + 1], np.concatenate([v[cut:], v[:1]])))
    return pairs


def test_polygons_sharing_stored_vertices_are_decided_by_the_float_kernel():
    # A vertex of b stored as the end of one of a's edges turns by exactly 0; the float filter's
    # bound is not 0 there, which sent identical rotated boxes (EQUAL) and polygons cut along a
    # diagonal (TOUCHING) to the exact path, about 0.5 ms a pair. The float kernel now decides
    # them, as the exact oracle does.
    rng = np.random.default_rng(2718)
    pairs = _shared_vertex_pairs(rng, 60)
    for va, vb in pairs:
        for first, second in ((va, vb), (vb, va)):
            a, b = c2.Polygon(first), c2.Polygon(second)
            code = polygon.relate_polygon_polygon(a._params, a._verts, b._params, b._verts, EPS)
            assert code != codes.UNDECIDED, (first.tolist(), second.tolist())
            assert code == fraction_code(first, "polygon", second)
    boxes = c2.RotatedBox(rng.uniform(-5, 5, (500, 2)), rng.uniform(0.1, 1, (500, 2)), rng.uniform(0, 3, 500))
    c2.exact_fallback_counts(reset=True)
    assert (c2.relate(boxes, boxes) == c2.Relation.EQUAL).all()
    assert c2.relate(boxes[7], boxes[7]) == c2.Relation.EQUAL
    assert c2.exact_fallback_counts().get("relate_polygon_polygon", 0) == 0
