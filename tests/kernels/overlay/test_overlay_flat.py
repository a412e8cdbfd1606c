"""Overlap area and intersection points of the flat kinds (``_kernels/overlay/area_flat.py``, ``points_flat.py``).

Oracles, independent of the kernels' Green's-theorem and edge-against-edge logic:

* area: exact rational clipping of the stored polygons (Sutherland-Hodgman on Fractions,
  :func:`_exact_clip_area`), and the areas of the single polygons from ``shapely``;
* points: ``shapely`` intersection of the two *outlines* (a polygon's exterior ring, a segment, a
  line as the long segment ``p -+ K d`` with an integer ``K``, so that it stays exactly on the line
  for small-integer data; a point); isolated points are kept as they are and every straight
  common piece contributes its two end points: a shared polyline (two boxes sharing a corner and
  parts of both sides at it) gives its ends and its corners; the far ends of a line's stand-in are
  dropped. This is the documented meaning of the kernels' output.

Data: small-integer shapes from ``conftest.random_fields`` (many shared edges, vertices on edges,
collinear pieces), the same shapes translated by 1e6 (exact) and scaled by 2**-20 (exact, about
1e-6), nested, touching and identical pairs. Every kernel test runs the compiled kernel and its
Python original (``kernel.py_func``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import shapely
from conftest import build, random_fields, transform_fields

import collide2d as c2
from collide2d import _dispatch, overlay
from collide2d._kernels import codes, expansion
from collide2d._kernels.overlay import area_flat
from collide2d._kernels.overlay import points_flat

EPS = 2.0**-53
# Errors asked of the kernels, measured against exact references (docs/area.md): an area within
# AREA_ULPS eps times the scene's size times its largest coordinate (measured worst 1.1, on nearly
# collinear edges), a point within POINT_ULPS eps times the largest coordinate (measured 2.7).
AREA_ULPS = 4
POINT_ULPS = 4
FAR = 1000.0  # a line's stand-in segment in the oracle: p -+ FAR d (exact for small integers)
HUGE = np.array([1.0e6, -1.0e6])
TINY = 2.0**-20  # about 1e-6; a power of two, so scaling is exact

FLAT = ("polygon", "segment", "line", "point")
POINT_PAIRS = [(a, b) for i, a in enumerate(FLAT) for b in FLAT[i:]]
# public kinds drawn for each kernel kind (boxes and rotated boxes are polygons)
DRAW = {"polygon": ("Polygon", "Box", "RotatedBox"), "segment": ("Segment",), "line": ("Line",), "point": ("Point",)}

MODES = ["jit", "py_func"]


# -- helpers ---------------------------------------------------------------------------------------


def run(kernel, mode):
    """The compiled kernel or its Python original."""
    return kernel if mode == "jit" else getattr(kernel, "py_func", kernel)  # plain under NUMBA_DISABLE_JIT


def relation(a, b):
    return _dispatch.relate_codes(a, b)


def area_of(a, b, mode="jit"):
    """``area_polygon_polygon`` on two single polygon shapes, with the exact relation code."""
    kernel = run(area_flat.area_polygon_polygon, mode)
    return kernel(a._params, a._verts, b._params, b._verts, relation(a, b))


def points_of(a, b, mode="jit", rows=64):
    """``points_<a>_<b>`` on two single shapes in canonical order; returns ``(points, count)``."""
    kernel = getattr(points_flat, f"points_{a._kind}_{b._kind}")
    out = np.full((rows, 2), np.nan)
    count = run(kernel, mode)(a._params, a._verts, b._params, b._verts, relation(a, b), out)
    return out[:count].copy(), count


def polygon_vertices(shape):
    off, n = int(shape._params[0]), int(shape._params[1])
    return np.array(shape._verts[off : off + n])


def outline(shape):
    """The shapely outline of a single flat shape (see the module notes)."""
    p = shape._params
    if shape._kind == "polygon":
        return shapely.LinearRing(polygon_vertices(shape))
    if shape._kind == "segment":
        return shapely.LineString(p.reshape(2, 2))
    if shape._kind == "line":
        return shapely.LineString([p[0:2] - FAR * p[2:4], p[0:2] + FAR * p[2:4]])
    return shapely.Point(p)


def region(shape):
    return shapely.Polygon(polygon_vertices(shape))


def oracle_points(a, b):
    """Isolated common points and the end points of common pieces, as an ``(k, 2)`` array."""
    common = outline(a).intersection(outline(b))
    found = []
    lines = []
    for part in shapely.get_parts(common):
        if part.is_empty:
            continue
        if isinstance(part, shapely.Point):
            found.append(part.coords[0])
        elif isinstance(part, shapely.LineString):
            lines.append(part)
        else:  # pragma: no cover - the outlines are points and curves only
            raise TypeError(part.geom_type)
    if lines:
        for piece in shapely.get_parts(shapely.line_merge(shapely.MultiLineString(lines))):
            if not piece.is_ring:
                found += corners(np.array(piece.coords))
    if "line" in (a._kind, b._kind):  # drop the far ends of a line's stand-in (data within FAR / 2)
        found = [q for q in found if max(abs(q[0]), abs(q[1])) < FAR / 2]
    return unique_rows(np.array(found, dtype=float).reshape(-1, 2), 1e-12 * scene_size(a, b))


def corners(chain):
    """End points and corners of a polyline: the ends of its straight pieces (collinear vertices
    that the overlay inserted are dropped)."""
    kept = [chain[0]]
    for k in range(1, len(chain) - 1):
        u, v = chain[k] - kept[-1], chain[k + 1] - chain[k]
        if abs(u[0] * v[1] - u[1] * v[0]) > 1e-9 * np.abs(u).max() * np.abs(v).max():
            kept.append(chain[k])
    return kept + [chain[-1]]


def unique_rows(points, tol):
    kept = []
    for q in points:
        if all(np.abs(q - k).max() > tol for k in kept):
            kept.append(q)
    return np.array(kept, dtype=float).reshape(-1, 2)


def same_point_sets(got, want, atol):
    """Whether the point sets match one to one within ``atol`` (greedy nearest matching)."""
    if len(got) != len(want):
        return False
    left = list(range(len(want)))
    for q in got:
        if not left:
            return False
        d = [np.abs(q - want[k]).max() for k in left]
        best = int(np.argmin(d))
        if d[best] > atol:
            return False
        left.pop(best)
    return True


def random_shape(kernel_kind, rng, span=4):
    kind = DRAW[kernel_kind][rng.integers(len(DRAW[kernel_kind]))]
    return kind, random_fields(kind, rng, span=span, exact_angles=True)


def random_pairs(kind_a, kind_b, seed, n):
    """``n`` random specs ``((kind, fields), (kind, fields))``: small integers, exact quarter turns."""
    rng = np.random.default_rng(seed)
    return [(random_shape(kind_a, rng), random_shape(kind_b, rng)) for _ in range(n)]


def coordinate_scale(a, b):
    """Largest absolute stored coordinate of the pair (at least 1; a line counts by its point)."""
    values = [np.abs(np.array(outline(s).coords)).max() for s in (a, b) if s._kind != "line"]
    values += [np.abs(s._params[0:2]).max() for s in (a, b) if s._kind == "line"]
    return max([1.0] + values)


def area_tol(a, b):
    return AREA_ULPS * EPS * scene_size(a, b) * coordinate_scale(a, b)


def point_tol(a, b):
    return POINT_ULPS * EPS * coordinate_scale(a, b)


def exact_area(a, b):
    """The exact area of the intersection of two single polygons (:func:`_exact_clip_area`)."""
    return _exact_clip_area(polygon_vertices(a), polygon_vertices(b))


def scene_size(a, b):
    """Extent of the bounded members of the pair (1 when there is none, or only one point)."""
    pts = np.concatenate([np.array(outline(s).coords) for s in (a, b) if s._kind != "line"] + [np.zeros((0, 2))])
    size = np.ptp(pts, axis=0).max() if len(pts) else 0.0
    return size if size > 0.0 else 1.0


# -- capacities ------------------------------------------------------------------------------------


def test_capacity_table_names_every_points_kernel():
    names = {f"points_{a}_{b}" for a, b in POINT_PAIRS}
    assert set(points_flat.CAPACITY) == names
    assert all(callable(getattr(points_flat, name)) for name in names)
    assert points_flat.CAPACITY["points_polygon_polygon"](5, 3) == 6
    assert points_flat.capacity_polygon_polygon(4, 7) == 8
    assert points_flat.CAPACITY["points_segment_segment"](0, 0) == 2
    assert points_flat.CAPACITY["points_line_line"](0, 0) == 1


def test_capacity_polygon_polygon_is_reached_by_a_hexagram():
    # Test 1: two triangles forming a star of David cross at 6 points = 2 min(3, 3)
    up = c2.Polygon([(0, 4), (-3.5, -2), (3.5, -2)])
    down = c2.Polygon([(0, -4), (3.5, 2), (-3.5, 2)])
    pts, count = points_of(up, down)
    assert count == 6 == points_flat.capacity_polygon_polygon(3, 3)
    assert same_point_sets(pts, oracle_points(up, down), point_tol(up, down))


def test_constant_capacities_are_reached():
    """Each fixed capacity is the most points the pair can have, not just a bound: a pair with
    exactly that many (a square crossed by a segment or a line, a point on its outline, collinear
    overlapping segments, a segment on a line, crossing lines, a point on a segment or a line,
    equal points)."""
    square = c2.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    examples = {
        "points_polygon_segment": (square, c2.Segment((-1, 1), (3, 1))),
        "points_polygon_line": (square, c2.Line((1, 1), (1, 0.5))),
        "points_polygon_point": (square, c2.Point((2, 1))),
        "points_segment_segment": (c2.Segment((0, 0), (2, 2)), c2.Segment((1, 1), (3, 3))),
        "points_segment_line": (c2.Segment((0, 0), (2, 2)), c2.Line((5, 5), (1, 1))),
        "points_segment_point": (c2.Segment((0, 0), (2, 2)), c2.Point((1, 1))),
        "points_line_line": (c2.Line((0, 0), (1, 2)), c2.Line((1, 0), (0, 1))),
        "points_line_point": (c2.Line((0, 0), (1, 2)), c2.Point((2, 4))),
        "points_point_point": (c2.Point((1, 3)), c2.Point((1, 3))),
    }
    assert set(examples) == set(points_flat.CAPACITY) - {"points_polygon_polygon"}
    for name, (a, b) in examples.items():
        assert name == f"points_{a._kind}_{b._kind}"
        _, count = points_of(a, b, mode="py_func")  # a count only: no compilation needed
        assert count == points_flat.CAPACITY[name](0, 0), name


@pytest.mark.parametrize(("kind_a", "kind_b"), POINT_PAIRS, ids=lambda k: k)
def test_capacity_is_never_exceeded_and_glue_rows_suffice(kind_a, kind_b):
    capacity = points_flat.CAPACITY[f"points_{kind_a}_{kind_b}"]
    for spec_a, spec_b in random_pairs(kind_a, kind_b, 11, 150):
        a, b = build(*spec_a), build(*spec_b)
        na = int(a._params[1]) if kind_a == "polygon" else 0
        nb = int(b._params[1]) if kind_b == "polygon" else 0
        _, count = points_of(a, b)
        assert count <= capacity(na, nb)
        assert capacity(na, nb) <= _dispatch.points_capacity(a, b)


def test_points_never_write_past_out():
    # Test 2: a hexagram has 6 crossings; an ``out`` of 4 rows gets 4 and nothing beyond
    up = c2.Polygon([(0, 4), (-3.5, -2), (3.5, -2)])
    down = c2.Polygon([(0, -4), (3.5, 2), (-3.5, 2)])
    pts, count = points_of(up, down, rows=4)
    assert count == 4 and np.isfinite(pts).all()


# -- overlap area: known answers ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_area_polygon_polygon_known_answers(mode):
    box = c2.Box((0, 0), (2, 2))
    # Test 1: half overlap of two 2x2 boxes
    assert area_of(box, c2.Box((1, 0), (3, 2)), mode) == pytest.approx(2.0, rel=0, abs=AREA_ULPS * EPS * 6)
    # Test 2: sharing part of the bottom side in the same direction (counted once): 1x1
    assert area_of(box, c2.Box((1, 0), (3, 1)), mode) == pytest.approx(1.0, rel=0, abs=AREA_ULPS * EPS * 6)
    # Test 3: touching along a side, at a corner: exactly 0
    assert area_of(box, c2.Box((2, 0), (3, 2)), mode) == 0.0
    assert area_of(box, c2.Box((2, 2), (3, 3)), mode) == 0.0
    # Test 4: disjoint
    assert area_of(box, c2.Box((5, 5), (6, 6)), mode) == 0.0
    # Test 5: nested, with and without boundary contact: the inner area, both orders
    inner = c2.Polygon([(0, 0), (1, 0), (0, 1)])
    assert area_of(box, inner, mode) == 0.5 and area_of(inner, box, mode) == 0.5
    assert area_of(box, c2.Box((0.5, 0.5), (1.5, 1.0)), mode) == 0.5
    # Test 6: identical, and equal with another starting vertex
    assert area_of(box, c2.Box((0, 0), (2, 2)), mode) == 4.0
    assert area_of(box, c2.Polygon([(2, 2), (0, 2), (0, 0), (2, 0)]), mode) == 4.0
    # Test 7: a diamond inscribed in the box corners cut: box [0,2]^2 with diamond |x-2|+|y-1| <= 1
    # keeps the left half of the diamond: area 1
    diamond = c2.Polygon([(2, 0), (3, 1), (2, 2), (1, 1)])
    assert area_of(box, diamond, mode) == pytest.approx(1.0, rel=0, abs=AREA_ULPS * EPS * 6)
    # Test 8: a triangle over a square whose apex pokes out: square [0,2]^2, triangle
    # (0,0),(2,0),(1,4): above y = 2 the triangle keeps a tip of area 0.5 * 1 * 2 = 1; total 4 - 1 = 3
    assert area_of(box, c2.Polygon([(0, 0), (2, 0), (1, 4)]), mode) == pytest.approx(3.0, rel=0, abs=AREA_ULPS * EPS * 8)
    # Test 9: the hexagram's hexagon: two triangles of area 21 overlap in a hexagon of 2/3 of it
    up = c2.Polygon([(0, 4), (-3.5, -2), (3.5, -2)])
    down = c2.Polygon([(0, -4), (3.5, 2), (-3.5, 2)])
    assert area_of(up, down, mode) == pytest.approx(14.0, rel=0, abs=AREA_ULPS * EPS * 32)


# Touching along a side that neither polygon lists first (a's second side, b's third; integer
# vertices, stored in this order): clipping b by a's first side puts a rounded crossing at an end
# of the shared side, a hair off its line, so the clip of b by a alone leaves a sliver of rounding
# (5.7e-14 to 9.1e-13 here) where the exact area is 0
_TOUCHING_SIDE_LAST = [
    ([(151, -78), (-34, 38), (85, -95)], [(-104, 61), (47, -112), (85, -95), (-85, 95)]),
    ([(-29, 26), (-108, 24), (-36, 8)], [(-170, 0), (10, -58), (18, -4), (-162, 36)]),
    ([(-14, -76), (10, 9), (-40, -36)], [(22, 56), (-78, -14), (-60, -54), (40, 36)]),
    ([(0, -66), (24, 51), (-16, -34)], [(-20, 118), (-66, -60), (-32, -68), (48, 102)]),
]


def _exact_side(p, q, r):
    return (Fraction(q[0]) - p[0]) * (Fraction(r[1]) - p[1]) - (Fraction(q[1]) - p[1]) * (Fraction(r[0]) - p[0])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(_TOUCHING_SIDE_LAST)))
def test_area_polygon_polygon_touching_along_a_side_is_exactly_zero(case, mode):
    # The contract: DISJOINT and TOUCHING pairs have area exactly 0.0. Reference on exact
    # rationals: a line through two vertices of each polygon has one polygon on each closed side,
    # so the interiors do not meet (the pair touches along that line: the area is 0).
    pa, pb = _TOUCHING_SIDE_LAST[case]
    separating = []
    for i, u in enumerate(pa):
        v = pa[(i + 1) % len(pa)]
        side_a = [_exact_side(u, v, w) for w in pa]
        side_b = [_exact_side(u, v, w) for w in pb]
        if (min(side_a) >= 0 >= max(side_b) or max(side_a) <= 0 <= min(side_b)) and side_b.count(0) >= 2:
            separating.append((u, v))
    assert separating  # a side of a on a line that b touches along a side of its own
    a, b = c2.Polygon(pa), c2.Polygon(pb)
    assert relation(a, b) == codes.TOUCHING
    assert area_of(a, b, mode) == 0.0 and area_of(b, a, mode) == 0.0


# -- overlap area: random pairs against shapely, properties ----------------------------------------


def _area_cases(seed, n):
    return random_pairs("polygon", "polygon", seed, n)


@pytest.mark.parametrize("mode", MODES)
def test_area_polygon_polygon_matches_exact_clipping(mode):
    for spec_a, spec_b in _area_cases(1, 300 if mode == "jit" else 60):
        a, b = build(*spec_a), build(*spec_b)
        got = area_of(a, b, mode)
        assert abs(got - exact_area(a, b)) <= area_tol(a, b), (spec_a, spec_b)


@pytest.mark.parametrize(
    "transform",
    [{"translate": HUGE}, {"scale": TINY}],
    ids=["huge", "tiny"],
)
def test_area_polygon_polygon_huge_offset_and_tiny_size(transform):
    # Translation by 1e6 and scaling by 2**-20 are exact, so the shapes are the same sets moved;
    # the area is compared with the exact area of the *untransformed* pair, scaled. At 1e6 the
    # crossings carry an absolute error of a few ulps of 1e6: the bound scales with the coordinates.
    scale = transform.get("scale", 1.0)
    for spec_a, spec_b in _area_cases(2, 150):
        a, b = build(*spec_a), build(*spec_b)
        want = exact_area(a, b) * scale**2
        ta = build(spec_a[0], transform_fields(*spec_a, **transform))
        tb = build(spec_b[0], transform_fields(*spec_b, **transform))
        assert relation(ta, tb) == relation(a, b)
        assert abs(area_of(ta, tb) - want) <= area_tol(ta, tb), (spec_a, spec_b, transform)


def test_area_polygon_polygon_properties():
    # symmetric; 0 <= area <= min areas; exactly 0 unless the interiors meet; the inner area
    # (exactly, the polygon's own shoelace) under containment
    for spec_a, spec_b in _area_cases(3, 300):
        a, b = build(*spec_a), build(*spec_b)
        ab, ba = area_of(a, b), area_of(b, a)
        area_a, area_b = region(a).area, region(b).area
        assert abs(ab - ba) <= area_tol(a, b)
        assert 0.0 <= ab <= min(area_a, area_b) * (1 + 1e-15)
        code = relation(a, b)
        if code in (codes.DISJOINT, codes.TOUCHING):
            assert ab == 0.0
        else:
            assert ab > 0.0
        if code == codes.CONTAINS:
            assert ab == float(_dispatch.shape_areas(b))
        if code in (codes.WITHIN, codes.EQUAL):
            assert ab == float(_dispatch.shape_areas(a))


def test_area_polygon_polygon_thin_sliver_far_away():
    # Two unit squares at 1e6 overlapping by a strip of width 2**-30 (exact in floats):
    # area 2**-30 within a few ulps of the coordinates times the strip length.
    w = 2.0**-30
    a = c2.Box(HUGE, HUGE + 1.0)
    b = c2.Box(HUGE + (1.0 - w, 0.25), HUGE + (2.0 - w, 1.25))
    tol = area_tol(a, b)  # 4 eps * 2 * 1.4e6: the error a corner at 1e6 may carry
    assert abs(area_of(a, b) - 0.75 * w) <= tol and abs(area_of(b, a) - 0.75 * w) <= tol


def test_area_polygon_polygon_near_identical_is_continuous():
    # rotating a square about its centre by a tiny angle: the overlap tends to the full area
    square = c2.RotatedBox((3.0, -1.0), (1.0, 1.0))
    for angle in (1e-3, 1e-6, 1e-9, 1e-12):
        rotated = c2.RotatedBox((3.0, -1.0), (1.0, 1.0), angle)
        got = area_of(square, rotated)
        assert abs(got - exact_area(square, rotated)) <= area_tol(square, rotated)
        assert got <= 4.0


def _exact_clip_area(va, vb):
    """Sutherland-Hodgman on Fractions: the exact area of the intersection of two convex polygons."""
    from fractions import Fraction

    poly = [(Fraction(x), Fraction(y)) for x, y in vb]
    ring = [(Fraction(x), Fraction(y)) for x, y in va]
    for i in range(len(ring)):
        c, d = ring[i], ring[(i + 1) % len(ring)]

        def side(p):
            return (d[0] - c[0]) * (p[1] - c[1]) - (d[1] - c[1]) * (p[0] - c[0])

        src, poly = poly, []
        for k in range(len(src)):
            p, q = src[k], src[(k + 1) % len(src)]
            sp, sq = side(p), side(q)
            if sp >= 0:
                poly.append(p)
            if sp * sq < 0:
                t = sp / (sp - sq)
                poly.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        if len(poly) < 3:
            return 0.0
    twice = sum(poly[k][0] * poly[(k + 1) % len(poly)][1] - poly[(k + 1) % len(poly)][0] * poly[k][1] for k in range(len(poly)))
    return float(twice / 2)


def test_area_polygon_polygon_nearly_collinear_edges():
    # Regression: b's edge b1 -> b2 runs from within rounding of a's vertex a1 along a's edge
    # a1 -> a2 (b was built from a rounded point on that edge): the two edges cross at an angle
    # of about 1e-16. Green's theorem over separately clipped edges computed that crossing once per
    # polygon, about a whole edge length apart, and returned 0.0226 for the exact 0.79899...
    # (relative error 0.97). Clipping keeps every stage closed: a few ulps.
    a = c2.Polygon([[0.4304149417881203, -0.06203255937317555], [-0.1285099089421585, 1.4401520122967484], [-0.3680600842077683, -0.7855990299144244]])
    b = c2.Polygon([[3.7627500821330746, -0.10441786180640805], [-0.047827821390019634, 2.1897997228769324], [-0.36042795561354535, -0.7146860441316081]])
    want = _exact_clip_area(polygon_vertices(a), polygon_vertices(b))
    assert want == pytest.approx(0.7989929032912791, rel=1e-15)
    for mode in MODES:
        assert abs(area_of(a, b, mode) - want) <= area_tol(a, b)
        assert abs(area_of(b, a, mode) - want) <= area_tol(a, b)


def _nearly_collinear_pair(rng):
    """A random convex polygon ``a``, and a polygon ``b`` with an edge ``ends`` along one of a's
    edges up to rounding (from a's vertex to a rounded point of the edge, or between two rounded
    points of its line), lying on either side of it. Returns ``(a, b, ends)``."""
    while True:
        hull = shapely.MultiPoint(rng.normal(size=(rng.integers(3, 8), 2))).convex_hull
        if hull.geom_type == "Polygon":
            break
    a = c2.Polygon(np.array(hull.exterior.coords[:-1]))
    v = polygon_vertices(a)
    i = rng.integers(len(v))
    v0, v1 = v[i], v[(i + 1) % len(v)]
    e = v1 - v0
    if rng.random() < 0.5:
        ends = [v0, v0 + e * rng.uniform(0.2, 0.8)]
    else:
        ends = [v0 + e * rng.uniform(-0.5, 0.4), v0 + e * rng.uniform(0.6, 1.5)]
    normal = np.array([-e[1], e[0]]) * (1 if rng.random() < 0.7 else -1)
    others = (v0 + v1) / 2 + normal * rng.uniform(0.1, 2, size=(rng.integers(1, 4), 1))
    b = c2.Polygon(np.array(shapely.MultiPoint(np.vstack([ends, others])).convex_hull.exterior.coords[:-1]))
    return a, b, ends


def test_area_polygon_polygon_nearly_collinear_random():
    # b shares a's edge v0 -> v1 up to rounding: b's edge joins v0 (exact) to a rounded point
    # v0 + u (v1 - v0), or joins two rounded points of the edge's line; b lies on either side.
    # Compared with the exact (Fraction) clipping of the same float polygons.
    rng = np.random.default_rng(12)
    for _ in range(150):
        a, b, ends = _nearly_collinear_pair(rng)
        want, tol = exact_area(a, b), area_tol(a, b)
        assert abs(area_of(a, b) - want) <= tol and abs(area_of(b, a) - want) <= tol


@pytest.mark.parametrize("mode", MODES)
def test_exact_orientation_signs_match_fractions(mode):
    # nearly collinear triples (a rounded point of a segment, ulp-perturbed), huge and tiny
    from fractions import Fraction

    orient_exact = run(expansion.orient_exact, mode)
    line_side_exact = run(expansion.line_side_exact, mode)
    rng = np.random.default_rng(13)
    for scale in (1.0, 1e-6, 1e6):
        for _ in range(200):
            a, b = rng.normal(size=(2, 2)) * scale
            c = a + (b - a) * rng.uniform(-2, 3)
            c = c + rng.integers(-2, 3, size=2) * np.spacing(c)
            fa, fb, fc = ([Fraction(x) for x in p] for p in (a, b, c))
            exact = (fb[0] - fa[0]) * (fc[1] - fa[1]) - (fb[1] - fa[1]) * (fc[0] - fa[0])
            assert orient_exact(*a, *b, *c) == (exact > 0) - (exact < 0)
            d = b - a  # line p + t d through a
            exact = Fraction(d[0]) * (fc[1] - fa[1]) - Fraction(d[1]) * (fc[0] - fa[0])
            assert line_side_exact(*a, *d, *c) == (exact > 0) - (exact < 0)


def test_points_nearly_collinear_edges_are_finite_and_on_both_outlines():
    # the same near-collinear pair as above: crossings of edges at an angle of about 1e-16 are
    # ill-conditioned along the edges, but every point is finite, within rounding of both outlines,
    # and there is no duplicate
    a = c2.Polygon([[0.4304149417881203, -0.06203255937317555], [-0.1285099089421585, 1.4401520122967484], [-0.3680600842077683, -0.7855990299144244]])
    b = c2.Polygon([[3.7627500821330746, -0.10441786180640805], [-0.047827821390019634, 2.1897997228769324], [-0.36042795561354535, -0.7146860441316081]])
    for x, y in ((a, b), (b, a)):
        got, count = points_of(x, y)
        assert 1 <= count <= 6 and np.isfinite(got).all()
        assert len(unique_rows(got, 0.0)) == count
        for q in got:
            assert outline(x).distance(shapely.Point(q)) <= 1e-14
            assert outline(y).distance(shapely.Point(q)) <= 1e-14


def _check_points_near_both(x, y, tol):
    got, count = points_of(x, y)
    assert np.isfinite(got).all() and len(unique_rows(got, 0.0)) == count
    na = int(x._params[1])
    nb = int(y._params[1]) if y._kind == "polygon" else 0
    assert count <= points_flat.CAPACITY[f"points_{x._kind}_{y._kind}"](na, nb)
    for q in got:
        assert outline(x).distance(shapely.Point(q)) <= tol
        if y._kind == "line":
            p, d = y._params[0:2], y._params[2:4]
            assert abs(d[0] * (q[1] - p[1]) - d[1] * (q[0] - p[0])) <= tol * np.hypot(*d)
        else:
            assert outline(y).distance(shapely.Point(q)) <= tol
    return got, count


def test_points_polygon_polygon_nearly_collinear_regressions():
    # Regression 1: edge P0 -> P1 and Q's edge Q1 -> Q2 lie on one line within rounding (all four
    # orientation determinants about 1e-17) and cross there, exactly; the rounded crossing
    # parameter was clamped to the end P1 only, a point 0.32 away from Q (the crossing must also
    # lie within Q1 -> Q2's extent).
    p = c2.Polygon([[0.3131496577718769, -0.34179643371544444], [1.4317178577246314, 2.325985422686139], [-0.46297793464524145, 0.11862428149034983], [-0.3698057478971567, -1.0543470939889712]])
    q = c2.Polygon([[2.8543214538981236, 0.16111330032538418], [1.3067839896900644, 2.028018516057857], [-0.09655829216831047, -1.3189486854244472]])
    _check_points_near_both(p, q, 1e-15)
    _check_points_near_both(q, p, 1e-15)
    # Regression 2: Q's edge passes within rounding of P's vertex P0 and crosses both of P's edges
    # there, at two exact points that both round to P0: reported once.
    p = c2.Polygon([[0.711297857085356, 0.782236660984706], [-1.0351642715916745, -1.1724940336676914], [1.1010936890113754, -1.1995585656907275]])
    q = c2.Polygon([[0.6856713339227447, 0.9125267182924233], [-2.6026847302801257, -0.8988165125812928], [1.2143055501629438, -1.7751489328955845]])
    got, count = _check_points_near_both(p, q, 1e-15)
    assert count == 1 and got.tolist() == [[0.711297857085356, 0.782236660984706]]


def test_points_nearly_collinear_random():
    # as test_area_polygon_polygon_nearly_collinear_random, for points: a polygon against a
    # polygon, a segment and a line that run along one of its edges up to rounding. Every point is
    # finite, within rounding of both outlines, distinct, and within the capacity.
    rng = np.random.default_rng(14)
    for _ in range(150):
        a, b, ends = _nearly_collinear_pair(rng)
        for x, y in ((a, b), (b, a), (a, c2.Segment(*ends)), (a, c2.Line(ends[0], ends[1] - ends[0]))):
            _check_points_near_both(x, y, 1e-14)


# -- intersection points: known answers ------------------------------------------------------------


def _sorted(points):
    return points[np.lexsort((points[:, 1], points[:, 0]))]


@pytest.mark.parametrize("mode", MODES)
def test_points_known_answers(mode):
    box = c2.Box((0, 0), (2, 2))

    def pts(a, b):
        return _sorted(points_of(a, b, mode)[0]).tolist()

    # Test 1: boxes offset by one share pieces of the top and bottom sides: each piece is
    # reported by its two ends
    assert pts(box, c2.Box((1, 0), (3, 2))) == [[1, 0], [1, 2], [2, 0], [2, 2]]
    # Test 2: boxes crossing properly at two points
    assert pts(box, c2.Box((1, 1), (3, 3))) == [[1, 2], [2, 1]]
    # Test 3: corner touching corner: once
    assert pts(box, c2.Box((2, 2), (3, 3))) == [[2, 2]]
    # Test 4: a vertex of b on an edge of a (b inside a): once
    assert pts(box, c2.Polygon([(1, 0), (1.5, 1), (0.5, 1)])) == [[1, 0]]
    # Test 5: strictly nested, disjoint, equal: none (equal outlines: the set is not finite)
    assert pts(box, c2.Box((0.5, 0.5), (1, 1))) == []
    assert pts(box, c2.Box((3, 3), (4, 4))) == []
    assert pts(box, c2.Polygon([(2, 2), (0, 2), (0, 0), (2, 0)])) == []
    # Test 6: segment through the box, through a corner, along a side, inside, ending on a side
    assert pts(box, c2.Segment((-1, 1), (3, 1))) == [[0, 1], [2, 1]]
    assert pts(box, c2.Segment((-1, -1), (3, 3))) == [[0, 0], [2, 2]]
    assert pts(box, c2.Segment((-1, 0), (1, 0))) == [[0, 0], [1, 0]]
    assert pts(box, c2.Segment((0.5, 0.5), (1, 1))) == []
    assert pts(box, c2.Segment((1, 1), (1, 5))) == [[1, 2]]
    assert pts(box, c2.Segment((2, 3), (3, 2))) == []
    # Test 7: line through two sides, along a side, touching a corner
    assert pts(box, c2.Line((0, 1), (1, 0))) == [[0, 1], [2, 1]]
    assert pts(box, c2.Line((5, 2), (-3, 0))) == [[0, 2], [2, 2]]
    assert pts(box, c2.Line((2, 2), (1, -1))) == [[2, 2]]
    # Test 8: a point on a side, at a corner, inside, outside
    assert pts(box, c2.Point((1, 0))) == [[1, 0]]
    assert pts(box, c2.Point((2, 2))) == [[2, 2]]
    assert pts(box, c2.Point((1, 1))) == []
    assert pts(box, c2.Point((3, 1))) == []
    # Test 9: segments crossing, touching end to interior, collinear overlapping, equal, apart
    seg = c2.Segment((0, 0), (4, 4))
    assert pts(seg, c2.Segment((0, 4), (4, 0))) == [[2, 2]]
    assert pts(seg, c2.Segment((1, 1), (3, 0))) == [[1, 1]]
    assert pts(seg, c2.Segment((6, 6), (2, 2))) == [[2, 2], [4, 4]]
    assert pts(seg, c2.Segment((4, 4), (0, 0))) == [[0, 0], [4, 4]]
    assert pts(seg, c2.Segment((5, 5), (6, 6))) == []
    # Test 10: segment against a line: crossing, lying on it, parallel
    assert pts(seg, c2.Line((0, 1), (1, 0))) == [[1, 1]]
    assert pts(seg, c2.Line((-2, -2), (3, 3))) == [[0, 0], [4, 4]]
    assert pts(seg, c2.Line((0, 1), (1, 1))) == []
    # Test 11: segment and point; lines; line and point; points
    assert pts(seg, c2.Point((3, 3))) == [[3, 3]] and pts(seg, c2.Point((4, 4))) == [[4, 4]]
    assert pts(seg, c2.Point((3, 2))) == []
    line = c2.Line((0, 0), (1, 2))
    assert pts(line, c2.Line((1, 0), (0, 1))) == [[1, 2]]
    assert pts(line, c2.Line((1, 0), (2, 4))) == []  # parallel
    assert pts(line, c2.Line((2, 4), (-3, -6))) == []  # equal: no finite set
    assert pts(line, c2.Point((-1, -2))) == [[-1, -2]] and pts(line, c2.Point((1, 1))) == []
    assert pts(c2.Point((1, 2)), c2.Point((1, 2))) == [[1, 2]]
    assert pts(c2.Point((1, 2)), c2.Point((1, 3))) == []


# -- intersection points: random pairs against shapely, invariants ---------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("kind_a", "kind_b"), POINT_PAIRS, ids=lambda k: k)
def test_points_match_shapely(kind_a, kind_b, mode):
    n = 200 if mode == "jit" else 40
    for spec_a, spec_b in random_pairs(kind_a, kind_b, 5, n):
        a, b = build(*spec_a), build(*spec_b)
        got, _ = points_of(a, b, mode)
        want = np.zeros((0, 2)) if relation(a, b) == codes.EQUAL and kind_a != "point" else oracle_points(a, b)
        if kind_a == kind_b == "segment" and relation(a, b) == codes.EQUAL:
            want = oracle_points(a, b)  # equal segments: the two ends of the common piece
        assert same_point_sets(got, want, point_tol(a, b)), (spec_a, spec_b, got, want)


@pytest.mark.parametrize(("kind_a", "kind_b"), POINT_PAIRS, ids=lambda k: k)
@pytest.mark.parametrize(
    "transform",
    [{"translate": HUGE}, {"scale": TINY}],
    ids=["huge", "tiny"],
)
def test_points_huge_offset_and_tiny_size(kind_a, kind_b, transform):
    # the transformed pair gives the transformed points (the relation is unchanged: exact maps)
    scale = transform.get("scale", 1.0)
    shift = transform.get("translate", np.zeros(2))
    for spec_a, spec_b in random_pairs(kind_a, kind_b, 6, 80):
        a, b = build(*spec_a), build(*spec_b)
        ta = build(spec_a[0], transform_fields(*spec_a, **transform))
        tb = build(spec_b[0], transform_fields(*spec_b, **transform))
        assert relation(ta, tb) == relation(a, b)
        want, _ = points_of(a, b)
        got, _ = points_of(ta, tb)
        # both computations round, the shifted reference once more (half an ulp of the shift)
        tol = point_tol(ta, tb) + scale * point_tol(a, b)
        assert same_point_sets(got, want * scale + shift, tol), (spec_a, spec_b)


@pytest.mark.parametrize(("kind_a", "kind_b"), POINT_PAIRS, ids=lambda k: k)
def test_points_are_distinct_and_on_both_outlines(kind_a, kind_b):
    for spec_a, spec_b in random_pairs(kind_a, kind_b, 7, 150):
        a, b = build(*spec_a), build(*spec_b)
        got, count = points_of(a, b)
        assert len(unique_rows(got, 0.0)) == count  # de-duplicated exactly
        code = relation(a, b)
        if code == codes.DISJOINT:
            assert count == 0
        tol = point_tol(a, b)
        for q in got:
            for s in (a, b):  # shapely rounds at the size of a line's stand-in segment
                assert outline(s).distance(shapely.Point(q)) <= tol * (FAR if s._kind == "line" else 1)


# -- through the public API (collide2d.overlay) ------------------------------------------------------


def test_overlay_overlap_area_and_iou_match_kernel_both_orders():
    for spec_a, spec_b in _area_cases(8, 60):
        a, b = build(*spec_a), build(*spec_b)
        want, tol = exact_area(a, b), area_tol(a, b)
        assert abs(overlay.overlap_area(a, b) - want) <= tol
        assert abs(overlay.overlap_area(b, a) - want) <= tol
        union = region(a).area + region(b).area - want
        assert abs(overlay.iou(a, b) - want / union) <= 4 * EPS + 2 * tol / union


def test_overlay_overlap_area_batch_equals_scalar():
    rng = np.random.default_rng(9)
    fields = [random_fields("Box", rng) for _ in range(12)]
    batch = c2.Box(np.array([f["min"] for f in fields]), np.array([f["max"] for f in fields]))
    other = c2.Polygon([(0, -1), (3, 1), (-1, 2)])
    areas = overlay.overlap_area(batch, other)
    assert areas.shape == (12,)
    for k, f in enumerate(fields):
        assert areas[k] == overlay.overlap_area(c2.Box(f["min"], f["max"]), other)
        assert abs(overlay.overlap_area(other, batch)[k] - areas[k]) <= area_tol(c2.Box(f["min"], f["max"]), other)


def test_overlay_area_of_flat_curves_is_zero():
    box = c2.Box((0, 0), (2, 2))
    assert overlay.overlap_area(box, c2.Segment((0, 0), (2, 2))) == 0.0
    assert overlay.overlap_area(c2.Line((0, 0), (1, 0)), box) == 0.0
    assert overlay.iou(box, c2.Point((1, 1))) == 0.0


@pytest.mark.parametrize(("kind_a", "kind_b"), POINT_PAIRS, ids=lambda k: k)
def test_overlay_intersection_points_both_orders(kind_a, kind_b):
    for spec_a, spec_b in random_pairs(kind_a, kind_b, 10, 40):
        a, b = build(*spec_a), build(*spec_b)
        want, _ = points_of(a, b)
        forward = overlay.intersection_points(a, b)
        backward = overlay.intersection_points(b, a)
        assert forward.shape == want.shape and backward.shape == want.shape
        tol = point_tol(a, b)
        assert same_point_sets(forward, want, tol) and same_point_sets(backward, want, tol)


def test_overlay_intersection_points_batch():
    # a box batch against a segment: crossing, apart, along the top side of the third box (the
    # piece's two ends); NaN padding after the counted rows, rows == scalar results
    boxes = c2.Box([(0, 0), (5, 5), (1, -1)], [(2, 2), (6, 6), (3, 1)])
    seg = c2.Segment((-1, 1), (3, 1))
    points, count = overlay.intersection_points(boxes, seg)
    assert count.tolist() == [2, 0, 2]
    assert np.isnan(points[1]).all()
    for k in range(3):
        single = overlay.intersection_points(c2.Box(boxes.min[k], boxes.max[k]), seg)
        assert same_point_sets(points[k, : count[k]], single, 0.0)
        assert np.isnan(points[k, count[k] :]).all()
