"""Contact, distance and closest_point for the flat kinds (``_kernels/measure/distance_flat.py``).

Oracles, independent of the kernels' separating-axis and closest-feature logic:

* the support-function formula: ``s = max over unit u of g(u)`` with
  ``g(u) = min over b of u.b - max over a of u.a`` (one formula for apart and overlapping convex
  sets), evaluated in 50-digit mpmath on the stored numbers at every direction where the maximum
  can lie (:func:`oracle_separation`), a line standing in as the segment ``p -+ 1e8 d``;
* ``shapely.distance`` for separated pairs, a line standing in as ``p -+ 1e4 d / |d|``.

Invariants: unit normal, ``point_b - point_a == separation * normal``, sign of ``separation``
against the exact predicate ``c2.disjoint`` outside a band, translating ``b`` by
``-separation * normal`` (a little less keeps them intersecting, a little more separates them),
swap symmetry, scalar == batch, ``closest_point`` on the boundary. Sign consistency of the public
functions (every kind pair): ``separation > 0`` exactly when ``c2.intersects`` is false, exactly 0
at constructed tangencies, and at pairs moved to tangency up to rounding.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import shapely
from conftest import build, random_fields, transform_fields

import collide2d as c2
from collide2d import _dispatch
from collide2d._kernels.measure import distance_flat
from collide2d.measurement import Contact, closest_point, contact, distance

FLAT = ("Point", "Box", "RotatedBox", "Polygon", "Segment", "Line")
FLAT_PAIRS = [(a, b) for i, a in enumerate(FLAT) for b in FLAT[i:]]
LONG = 1.0e4  # half-length of the segment that stands in for a line in the oracles
REL = 1e-12  # agreement asked with shapely (its own rounding included), relative to the size of the scene
EPS = 2.0**-53
SEP_ULPS = 8  # separation error against the exact oracle, in eps times the largest stored coordinate
BAND = 1e-9  # sign checks against the exact predicate are skipped when |s| is below this (scene size 1)


# -- helpers ---------------------------------------------------------------------------------------


def vertices(shape):
    """Vertex array of a single flat shape (a line becomes a long segment)."""
    kind = shape._kind
    p = shape._params
    if kind == "polygon":
        off, n = int(p[0]), int(p[1])
        return np.array(shape._verts[off : off + n])
    if kind == "segment":
        return p.reshape(2, 2).copy()
    if kind == "point":
        return p.reshape(1, 2).copy()
    if kind == "line":
        d = p[2:4] / math.hypot(p[2], p[3])
        return np.array([p[0:2] - LONG * d, p[0:2] + LONG * d])
    raise KeyError(kind)


def geometry(shape):
    v = vertices(shape)
    if len(v) == 1:
        return shapely.Point(v[0])
    if len(v) == 2:
        return shapely.LineString(v)
    return shapely.Polygon(v)


def _mp_vertices(shape, far=10**8):
    """Vertices of a single flat shape in mpmath, from its stored numbers (a line: ``p -+ far d``, exact)."""
    p = [mpmath.mpf(float(v)) for v in np.ravel(shape._params)]
    if shape._kind == "line":
        return [(p[0] - far * p[2], p[1] - far * p[3]), (p[0] + far * p[2], p[1] + far * p[3])]
    if shape._kind == "polygon":
        return [(mpmath.mpf(float(x)), mpmath.mpf(float(y))) for x, y in vertices(shape)]
    return [(p[k], p[k + 1]) for k in range(0, len(p), 2)]


def oracle_separation(a, b):
    """``max over unit u of g(u)``, exactly up to the 50-digit arithmetic (see the module notes).

    ``g(u) = min_j u.b_j - max_i u.a_i`` is the lower envelope of the sinusoids ``u.(b_j - a_i)``
    cut where the arg-min over ``b`` or the arg-max over ``a`` changes; its maximum is therefore at
    the maximum of one piece, ``u = (b_j - a_i) / |b_j - a_i|``, or at a breakpoint, ``u``
    perpendicular to ``b_j - b_k`` or to ``a_i - a_l``. All those directions are tried.
    """
    with mpmath.workdps(50):
        va, vb = _mp_vertices(a), _mp_vertices(b)
        directions = [(q[0] - p[0], q[1] - p[1]) for p in va for q in vb]
        for vs in (va, vb):
            for i, p in enumerate(vs):
                for q in vs[i + 1 :]:
                    directions += [(p[1] - q[1], q[0] - p[0]), (q[1] - p[1], p[0] - q[0])]
        best = -mpmath.inf
        for ux, uy in directions:
            norm = mpmath.hypot(ux, uy)
            if norm:
                support = min(ux * x + uy * y for x, y in vb) - max(ux * x + uy * y for x, y in va)
                best = max(best, support / norm)
        return best


def coordinate_scale(a, b):
    """Largest absolute stored coordinate of the pair (at least 1): the unit of rounding errors."""
    values = [np.abs(np.ravel(s._params)).max() for s in (a, b) if s._kind != "polygon"]
    values += [np.abs(vertices(s)).max() for s in (a, b) if s._kind == "polygon"]
    return max(1.0, float(max(values)))


def scale_of(a, b):
    """A length scale of the pair: the larger extent (a line counts by its point only)."""
    pts = []
    for s in (a, b):
        v = vertices(s)
        pts.append(v if s._kind != "line" else s._params[None, 0:2])
    pts = np.concatenate(pts)
    return max(1.0, float(np.ptp(pts, axis=0).max()))


def translate(kind, fields, t):
    return build(kind, transform_fields(kind, fields, translate=np.asarray(t)))


def float_fields(kind, rng):
    """Fields of a random shape in general position (non-integer data)."""
    c = rng.uniform(-2, 2, size=2)
    if kind == "Point":
        return {"xy": c}
    if kind == "Box":
        return {"min": c, "max": c + rng.uniform(0.2, 2.0, size=2)}
    if kind == "RotatedBox":
        return {"center": c, "half_size": rng.uniform(0.1, 1.5, size=2), "angle": rng.uniform(-3, 3)}
    if kind == "Polygon":
        n = int(rng.integers(3, 9))
        t = np.sort(rng.uniform(0, 2 * np.pi, size=n))
        r = rng.uniform(0.3, 1.5)
        return {"vertices": c + r * np.stack([np.cos(t), np.sin(t) * rng.uniform(0.2, 1.0)], axis=-1)}
    if kind == "Segment":
        return {"start": c, "end": c + rng.uniform(-2, 2, size=2)}
    if kind == "Line":
        return {"point": c, "direction": rng.uniform(-1, 1, size=2)}
    raise KeyError(kind)


def random_pair(kind_a, kind_b, rng, integer):
    while True:
        make = (lambda k: random_fields(k, rng, span=3)) if integer else (lambda k: float_fields(k, rng))
        fa, fb = make(kind_a), make(kind_b)
        try:
            return fa, fb, build(kind_a, fa), build(kind_b, fb)
        except ValueError:  # e.g. a degenerate random polygon: draw again
            continue


def check_invariants(c, scale):
    n = np.asarray(c.normal)
    assert abs(math.hypot(*n) - 1.0) < 1e-14
    if math.isfinite(c.separation):
        gap = np.asarray(c.point_b) - np.asarray(c.point_a)
        np.testing.assert_allclose(gap, c.separation * n, rtol=0, atol=4e-15 * scale + 1e-300)
    for k in (c.curvature_a, c.curvature_b):
        assert k == 0.0 or k == math.inf


# -- constructed cases -------------------------------------------------------------------------------


def test_contact_touching_boxes_face_to_face():
    # Test 1: boxes sharing the edge x = 1 for 0.25 <= y <= 1: touching, witnesses at its middle.
    c = contact(c2.Box((0, 0), (1, 1)), c2.Box((1, 0.25), (2, 3)))
    assert c.separation == 0.0
    assert c.normal.tolist() == [1.0, 0.0]
    assert c.point_a.tolist() == [1.0, 0.625] and c.point_b.tolist() == [1.0, 0.625]
    assert (c.curvature_a, c.curvature_b) == (0.0, 0.0)


def test_contact_separated_boxes_corner_to_corner():
    # Test 2: corners (1, 1) and (4, 5): distance 5 along (3, 4) / 5; corners have curvature inf.
    c = contact(c2.Box((0, 0), (1, 1)), c2.Box((4, 5), (6, 6)))
    assert c.separation == 5.0
    np.testing.assert_allclose(c.normal, [0.6, 0.8], rtol=1e-15)
    assert c.point_a.tolist() == [1.0, 1.0] and c.point_b.tolist() == [4.0, 5.0]
    assert c.curvature_a == math.inf and c.curvature_b == math.inf


def test_contact_nested_boxes_shortest_exit():
    # Test 3: [1, 2] x [1, 3] inside [0, 4]^2 leaves fastest to the left (2; right, up, down: 3).
    c = contact(c2.Box((0, 0), (4, 4)), c2.Box((1, 1), (2, 3)))
    assert c.separation == -2.0
    assert c.normal.tolist() == [-1.0, 0.0]
    assert c.point_a.tolist() == [0.0, 2.0] and c.point_b.tolist() == [2.0, 2.0]
    assert (c.curvature_a, c.curvature_b) == (0.0, 0.0)


def test_contact_identical_polygons_thinnest_direction():
    # Test 4: a 2 x 1 box against itself: depth 1 (its height); the first tie is a's bottom edge.
    box = c2.Box((0, 0), (2, 1))
    c = contact(box, box)
    assert c.separation == -1.0
    assert c.normal.tolist() == [0.0, -1.0]
    assert c.point_a.tolist() == [1.0, 0.0] and c.point_b.tolist() == [1.0, 1.0]


def test_contact_crossing_segments_minkowski_depth():
    # Test 5: a = (0,0)-(4,0), b = (1,-1)-(1,3). End point distances to the other line: b's ends 1
    # and 3, a's ends 1 and 3; the tie goes to a's left normal: push b up by 1, b's end (1,-1)
    # lands on a at (1, 0).
    c = contact(c2.Segment((0, 0), (4, 0)), c2.Segment((1, -1), (1, 3)))
    assert c.separation == -1.0 and c.normal.tolist() == [0.0, 1.0]
    assert c.point_a.tolist() == [1.0, 0.0] and c.point_b.tolist() == [1.0, -1.0]
    assert (c.curvature_a, c.curvature_b) == (0.0, math.inf)
    # Test 6: an X whose shortest exit is along b's normal: a's end (0, 0) is sqrt(0.5) from b's
    # line x + y = 1 (b's ends are 3 sqrt(0.5) and 5 sqrt(0.5) from a's line, a's other end
    # 5 sqrt(0.5) from b's): b moves by sqrt(0.5) along (-1, -1) / sqrt(2), onto a's end.
    c = contact(c2.Segment((0, 0), (3, 3)), c2.Segment((-1, 2), (3, -2)))
    np.testing.assert_allclose(c.separation, -math.sqrt(0.5), rtol=1e-15)
    np.testing.assert_allclose(c.normal, [-math.sqrt(0.5), -math.sqrt(0.5)], rtol=1e-15)
    assert c.point_a.tolist() == [0.0, 0.0]
    np.testing.assert_allclose(c.point_b, [0.5, 0.5], rtol=1e-15)
    assert (c.curvature_a, c.curvature_b) == (math.inf, 0.0)


def test_contact_segment_degenerate_cases():
    # Test 7: a point inside a segment: touching, the segment's left normal, face curvature 0.
    c = contact(c2.Segment((0, 0), (2, 0)), c2.Point((0.5, 0)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist()) == (0.0, [0.0, 1.0], [0.5, 0.0])
    assert (c.curvature_a, c.curvature_b) == (0.0, math.inf)
    # Test 8: collinear overlapping segments: touching, witnesses at the middle of the overlap.
    c = contact(c2.Segment((0, 0), (2, 0)), c2.Segment((1, 0), (5, 0)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist()) == (0.0, [0.0, 1.0], [1.5, 0.0])
    # Test 9: collinear, end to end apart: the gap along the line, end points have curvature inf.
    c = contact(c2.Segment((0, 0), (2, 0)), c2.Segment((5, 0), (3, 0)))
    assert (c.separation, c.normal.tolist(), c.point_b.tolist()) == (1.0, [1.0, 0.0], [3.0, 0.0])
    assert (c.curvature_a, c.curvature_b) == (math.inf, math.inf)
    # Test 10: parallel segments, side by side: the middle of the common stretch.
    c = contact(c2.Segment((0, 0), (2, 0)), c2.Segment((3, 1), (1, 1)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()) == (
        1.0, [0.0, 1.0], [1.5, 0.0], [1.5, 1.0]
    )


def test_contact_parallel_lines_on_either_side():
    # random parallel lines (small integers, b's direction a multiple of a's, either sign), b on
    # either side of a: the gap |(q - p) x d| / |d| in mpmath, the normal towards b
    rng = np.random.default_rng(41)
    sides = set()
    for _ in range(40):
        p, q = rng.integers(-5, 6, size=(2, 2)).astype(float)
        d = rng.integers(-3, 4, size=2).astype(float)
        if not d.any():
            continue
        e = d * float(rng.choice([-2, -1, 1, 3]))
        a, b = c2.Line(p, d), c2.Line(q, e)
        with mpmath.workdps(40):
            side = (mpmath.mpf(q[0] - p[0]) * d[1] - mpmath.mpf(q[1] - p[1]) * d[0]) / mpmath.hypot(d[0], d[1])
        for first, second, sign in ((a, b, 1), (b, a, -1)):
            c = contact(first, second)
            assert abs(c.separation - abs(float(side))) <= SEP_ULPS * EPS * coordinate_scale(a, b), (p, q, d, e)
            if side != 0:
                # the normal points from first to second: towards q from a's line, away from it from b's
                assert sign * float(side) * (c.normal[0] * d[1] - c.normal[1] * d[0]) > 0, (p, q, d, e, c.normal)
            check_invariants(c, coordinate_scale(a, b))
        sides.add(int(mpmath.sign(side)))
    assert sides == {-1, 0, 1}


def test_contact_lines():
    # Test 11: parallel lines 2 apart (opposite directions); b's stored point is its witness.
    c = contact(c2.Line((0, 0), (1, 0)), c2.Line((5, 2), (-3, 0)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()) == (
        2.0, [0.0, 1.0], [5.0, 0.0], [5.0, 2.0]
    )
    # Test 12: coincident lines: 0 and a's left normal.
    c = contact(c2.Line((0, 0), (1, 1)), c2.Line((3, 3), (2, 2)))
    assert c.separation == 0.0
    np.testing.assert_allclose(c.normal, [-math.sqrt(0.5), math.sqrt(0.5)], rtol=1e-15)
    # Test 13: crossing lines: -inf, a's left normal, both witnesses at the crossing point (1, 1).
    c = contact(c2.Line((0, 0), (2, 2)), c2.Line((0, 2), (1, -1)))
    assert c.separation == -math.inf
    np.testing.assert_allclose(c.normal, [-math.sqrt(0.5), math.sqrt(0.5)], rtol=1e-15)
    assert c.point_a.tolist() == [1.0, 1.0] and c.point_b.tolist() == [1.0, 1.0]
    assert distance(c2.Line((0, 0), (2, 2)), c2.Line((0, 2), (1, -1))) == 0.0
    # Test 14: a box crossing a line: pushed the shorter way (down by 0.25), face to line.
    c = contact(c2.Box((0, 0), (2, 1)), c2.Line((0, 0.25), (1, 0)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()) == (
        -0.25, [0.0, -1.0], [1.0, 0.0], [1.0, 0.25]
    )
    # Test 15: a point on a line.
    c = contact(c2.Line((0, 0), (1, 0)), c2.Point((7, 0)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist()) == (0.0, [0.0, 1.0], [7.0, 0.0])


def test_contact_crossing_lines_witness_is_the_crossing_point():
    # Random crossing lines: both witnesses at the crossing point, solved here on exact rationals.
    from fractions import Fraction

    rng = np.random.default_rng(29)
    for _ in range(40):
        p, d, q, e = (rng.uniform(-3, 3, 2) for _ in range(4))
        a, b = c2.Line(tuple(p), tuple(d)), c2.Line(tuple(q), tuple(e))
        P, D, Q, E = ([Fraction(float(v)) for v in w] for w in (p, d, q, e))
        t = ((Q[0] - P[0]) * E[1] - (Q[1] - P[1]) * E[0]) / (D[0] * E[1] - D[1] * E[0])
        crossing = np.array([float(P[0] + t * D[0]), float(P[1] + t * D[1])])
        c = contact(a, b)
        assert c.separation == -math.inf
        # conditioned by the sine of the angle between the lines (measured: 1.4 * 2**-52 * scale / sine)
        sine = abs(float(D[0] * E[1] - D[1] * E[0])) / math.hypot(*d) / math.hypot(*e)
        scale = max(1.0, np.abs(crossing).max())
        for w in (c.point_a, c.point_b):
            assert np.abs(w - crossing).max() <= 8 * 2.0**-52 * scale / sine


def test_contact_points_and_polygon_point():
    # Test 16: coincident points: 0 along (1, 0).
    c = contact(c2.Point((1, 2)), c2.Point((1, 2)))
    assert (c.separation, c.normal.tolist()) == (0.0, [1.0, 0.0])
    # Test 17: a point inside a triangle: minus its distance to the nearest edge, outward normal.
    c = contact(c2.Polygon([(0, 0), (4, 0), (0, 4)]), c2.Point((1, 0.5)))
    assert (c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()) == (
        -0.5, [0.0, -1.0], [1.0, 0.0], [1.0, 0.5]
    )
    assert (c.curvature_a, c.curvature_b) == (0.0, math.inf)


def test_contact_huge_coordinates_match_translated():
    # The same scene 1e6 away from the origin: the answers agree to the rounding of the inputs.
    rng = np.random.default_rng(11)
    offset = np.array([1.0e6, -1.0e6])
    for kind_a, kind_b in FLAT_PAIRS:
        for _ in range(5):
            fa, fb, a, b = random_pair(kind_a, kind_b, rng, integer=False)
            near = contact(a, b)
            far = contact(translate(kind_a, fa, offset), translate(kind_b, fb, offset))
            if not math.isfinite(near.separation):
                continue
            assert abs(far.separation - near.separation) < 1e-9, (kind_a, kind_b)
            np.testing.assert_allclose(far.point_a - offset, near.point_a, atol=1e-9)


# -- random cases against the oracles ----------------------------------------------------------------


@pytest.mark.parametrize(("kind_a", "kind_b"), FLAT_PAIRS)
def test_contact_matches_support_function_oracle(kind_a, kind_b):
    rng = np.random.default_rng(sum(map(ord, kind_a + kind_b)))
    for trial in range(60):
        integer = trial % 2 == 0
        fa, fb, a, b = random_pair(kind_a, kind_b, rng, integer)
        c = contact(a, b)
        scale = scale_of(a, b)
        check_invariants(c, scale)
        if kind_a == "Line" and kind_b == "Line":
            continue  # crossing lines are -inf, parallel ones checked in test_contact_lines
        ref = oracle_separation(a, b)
        # measured worst: 3.7 eps times the largest stored coordinate (point-line), see docs/contact.md
        assert abs(c.separation - ref) <= SEP_ULPS * EPS * coordinate_scale(a, b), (fa, fb, c.separation, ref)
        if c.separation > 0:  # shapely's distance for separated pairs (GEOS, float): a second opinion
            ref = shapely.distance(geometry(a), geometry(b))
            assert abs(c.separation - ref) <= 4 * REL * scale, (fa, fb, c.separation, ref)
            # the witnesses are the closest points: each on its shape, at the separation from the other
            for mine, other, witness in ((a, b, c.point_a), (b, a, c.point_b)):
                q = shapely.Point(witness)
                assert shapely.distance(geometry(mine), q) <= 4 * REL * scale, (fa, fb, witness)
                assert abs(shapely.distance(geometry(other), q) - c.separation) <= 4 * REL * scale, (fa, fb, witness)
            assert distance(a, b) == c.separation
        else:
            assert distance(a, b) == 0.0


@pytest.mark.parametrize(("kind_a", "kind_b"), FLAT_PAIRS)
def test_contact_sign_and_translation_agree_with_predicates(kind_a, kind_b):
    rng = np.random.default_rng(100 + sum(map(ord, kind_a + kind_b)))
    for trial in range(40):
        fa, fb, a, b = random_pair(kind_a, kind_b, rng, integer=trial % 2 == 0)
        c = contact(a, b)
        s = c.separation
        if not math.isfinite(s):
            assert kind_a == kind_b == "Line"
            continue
        if s > BAND:
            assert c2.disjoint(a, b)
        elif s < -BAND:
            assert c2.intersects(a, b) and not c2.touches(a, b)
        elif s == 0.0:
            assert c2.intersects(a, b)
        n = np.asarray(c.normal)
        if s < -BAND:
            # b moved by -s n just touches a: a little less still overlaps, a little more separates
            assert c2.intersects(a, translate(kind_b, fb, -s * (1 - 1e-6) * n))
            assert c2.disjoint(a, translate(kind_b, fb, -s * (1 + 1e-6) * n))
        elif s > BAND:
            # a little less than the gap keeps them apart; the full gap makes them touch (going
            # further need not overlap: points, lines and sharp corners can pass each other)
            assert c2.disjoint(a, translate(kind_b, fb, -s * (1 - 1e-6) * n))
            moved = contact(a, translate(kind_b, fb, -s * n))
            assert abs(moved.separation) <= 1e-14 * scale_of(a, b)
        else:
            # touching: the normal is a separating direction
            assert c2.disjoint(a, translate(kind_b, fb, 1e-6 * n))


@pytest.mark.parametrize(("kind_a", "kind_b"), FLAT_PAIRS)
def test_contact_swap_symmetry(kind_a, kind_b):
    rng = np.random.default_rng(200 + sum(map(ord, kind_a + kind_b)))
    for _ in range(30):
        fa, fb, a, b = random_pair(kind_a, kind_b, rng, integer=False)
        ab, ba = contact(a, b), contact(b, a)
        scale = scale_of(a, b)
        if not math.isfinite(ab.separation):
            assert ba.separation == ab.separation
            continue
        assert abs(ab.separation - ba.separation) <= 4e-15 * scale
        np.testing.assert_allclose(ba.normal, -ab.normal, atol=1e-14)
        np.testing.assert_allclose(ba.point_a, ab.point_b, atol=1e-14 * scale)
        np.testing.assert_allclose(ba.point_b, ab.point_a, atol=1e-14 * scale)
        assert (ba.curvature_a, ba.curvature_b) == (ab.curvature_b, ab.curvature_a)


# -- batches, glue and public functions ----------------------------------------------------------------


ALL_KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")


@pytest.mark.parametrize("kind_b", ALL_KINDS)
@pytest.mark.parametrize("kind_a", ALL_KINDS)
def test_contact_batch_equals_scalar(kind_a, kind_b):
    # every loop of loops_contact (ellipse ones included) against the scalar kernels, both orders
    rng = np.random.default_rng(300 + sum(map(ord, kind_a + kind_b)))
    fas = [random_fields(kind_a, rng, span=3) for _ in range(3)]
    fbs = [random_fields(kind_b, rng, span=3) for _ in range(2)]
    a_batch = build(kind_a, {k: np.stack([f[k] for f in fas])[:, None] for k in fas[0]})  # (3, 1)
    b_batch = build(kind_b, {k: np.stack([f[k] for f in fbs]) for k in fbs[0]})  # (2,)
    c = contact(a_batch, b_batch)
    assert isinstance(c, Contact)
    assert c.separation.shape == (3, 2) and c.normal.shape == (3, 2, 2) and c.curvature_b.shape == (3, 2)
    d = distance(a_batch, b_batch)
    assert d.shape == (3, 2) and d.dtype == np.float64
    for i in range(3):
        for j in range(2):
            one = contact(build(kind_a, fas[i]), build(kind_b, fbs[j]))
            assert isinstance(one.separation, float) and one.normal.shape == (2,)
            got = [c.separation[i, j], *c.normal[i, j], *c.point_a[i, j], *c.point_b[i, j]]
            want = [one.separation, *one.normal, *one.point_a, *one.point_b]
            # no field of a contact is ever NaN (crossing lines give -inf), so NaN == NaN cannot pass
            assert not np.isnan(want + [one.curvature_a, one.curvature_b]).any(), want
            np.testing.assert_array_equal(got, want)
            assert (c.curvature_a[i, j], c.curvature_b[i, j]) == (one.curvature_a, one.curvature_b)
            assert d[i, j] == max(one.separation, 0.0)


def test_contact_empty_batch_and_broadcast_error():
    boxes = c2.Box(np.zeros((0, 2)), np.ones((0, 2)))
    c = contact(boxes, c2.Point((0, 0)))
    assert c.separation.shape == (0,) and c.normal.shape == (0, 2)
    with pytest.raises(ValueError, match="broadcast"):
        distance(c2.Point(np.zeros((3, 2))), c2.Point(np.zeros((4, 2))))


def test_contact_type_errors_name_the_argument():
    with pytest.raises(TypeError, match="a must"):
        contact((0, 0), c2.Point((0, 0)))
    with pytest.raises(TypeError, match="b must"):
        distance(c2.Point((0, 0)), None)
    with pytest.raises(TypeError, match="shape must"):
        closest_point([0, 0], (1, 1))
    with pytest.raises(ValueError, match="xy"):
        closest_point(c2.Point((0, 0)), (1, 2, 3))


@pytest.mark.parametrize("kind", ("Point", "Box", "RotatedBox", "Polygon", "Segment", "Line"))
def test_closest_point_lies_on_boundary_and_is_nearest(kind):
    rng = np.random.default_rng(400 + sum(map(ord, kind)))
    for _ in range(5):
        while True:
            try:
                shape = build(kind, float_fields(kind, rng))
                break
            except ValueError:
                continue
        xy = rng.uniform(-4, 4, size=(50, 2))
        q = closest_point(shape, xy)
        assert q.shape == (50, 2)
        g = geometry(shape)
        boundary = g.boundary if kind in ("Box", "RotatedBox", "Polygon") else g
        on = shapely.distance(boundary, shapely.points(q))
        assert np.all(on <= 8e-15 * (LONG if kind == "Line" else 4.0))  # shapely rounds at the size of its segment
        want = shapely.distance(boundary, shapely.points(xy))
        atol = 8e-15 * (LONG if kind == "Line" else 4.0)
        np.testing.assert_allclose(np.hypot(*(q - xy).T), want, rtol=1e-14, atol=atol)
        np.testing.assert_array_equal(closest_point(shape, xy[0]), q[0])
    assert closest_point(c2.Point((1, 2)), (5, 5)).tolist() == [1.0, 2.0]


def test_kernels_python_source_matches_compiled():
    # the kernels' Python source (Numba's py_func) on a few constructed pairs
    cases = [
        ("contact_polygon_polygon", c2.Box((0, 0), (2, 2)), c2.RotatedBox((2.5, 1), (1, 0.5), 0.3)),
        ("contact_polygon_segment", c2.Box((0, 0), (2, 2)), c2.Segment((1, 1), (3, 5))),
        ("contact_polygon_line", c2.Polygon([(0, 0), (3, 0), (1, 2)]), c2.Line((0, 1), (1, 0.2))),
        ("contact_polygon_point", c2.Box((0, 0), (2, 2)), c2.Point((0.3, 1.0))),
        ("contact_segment_segment", c2.Segment((0, 0), (3, 3)), c2.Segment((0, 1), (3, -2))),
        ("contact_segment_line", c2.Segment((0, 0), (3, 3)), c2.Line((0, 1), (3, -2))),
        ("contact_segment_point", c2.Segment((0, 0), (3, 3)), c2.Point((3, 1))),
        ("contact_line_line", c2.Line((0, 0), (3, 3)), c2.Line((0, 1), (3, -2))),
        ("contact_line_point", c2.Line((0, 0), (3, 3)), c2.Point((0, 1))),
        ("contact_point_point", c2.Point((0, 0)), c2.Point((0, 1))),
    ]
    for name, a, b in cases:
        kernel = getattr(distance_flat, name)
        compiled = kernel(a._params, a._verts, b._params, b._verts)
        python = getattr(kernel, "py_func", kernel)(a._params, a._verts, b._params, b._verts)  # plain under NUMBA_DISABLE_JIT
        np.testing.assert_allclose(python, compiled, rtol=1e-15, atol=1e-15, err_msg=name)
        assert _dispatch.contact_values(a, b) == tuple(float(x) for x in compiled)


def test_contact_point_beside_edge_near_corner_regression():
    # A point 4.5e-17 outside the edge (corner3, corner0) of a rotated box, 1.1e-16 from corner0.
    # Comparing (p - corner3).e with e.e put it "beyond corner0" by rounding; the corner-to-point
    # direction (0, 1) was then used as the normal, the support search picked the opposite corner,
    # and the witnesses were 2.0 apart. Now: touching to rounding, normal = the edge normal.
    box = c2.Polygon(
        [(0.0, -1.1102230246251565e-16), (1.8234861089251022, -0.8215220085653159),
         (2.645008117490418, 1.0019641003597863), (0.8215220085653158, 1.8234861089251022)]
    )
    for c in (contact(c2.Point((0.0, 0.0)), box), contact(box, c2.Point((0.0, 0.0)))):
        check_invariants(c, 4.0)
        assert abs(c.separation) < 1e-15
        assert c.curvature_a == 0.0 or c.curvature_b == 0.0  # the edge is a face, not a corner


def test_contact_tiny_far_segment_witnesses_consistent_regression():
    # A 1e-6 segment 1.4e6 away: both of its ends are equally far from the box corner to float
    # precision; the witnesses must still satisfy point_b - point_a == separation * normal.
    box = c2.Box((1.0e6, -1.0e6), (1.0e6 + 2, -1.0e6 + 2))
    c = contact(box, c2.Segment((0.0, 0.0), (1e-6, 1e-6)))
    check_invariants(c, 2.0e6)


# -- sign consistency with the exact predicates (separation > 0 exactly when not intersects) ----------


def _batch1(shape):
    """The single shape as a batch of one."""
    kind = type(shape).__name__
    return build(kind, {k: np.asarray(v, dtype=np.float64)[None] for k, v in shape._fields.items()})


def _tangent_pairs():
    """Exact tangencies of every kind pair (stored floats touch exactly)."""
    ell = c2.Ellipse((0.0, 0.0), (2.0, 1.0))
    return [
        (c2.Circle((0.0, 0.0), 1.0), c2.Circle((3.0, 4.0), 4.0)),  # at r1 + r2
        (ell, c2.Ellipse((3.0, 0.0), (1.0, 3.0))),  # vertex to vertex
        (ell, c2.Ellipse((0.0, 1.5), (4.0, 0.5))),
        (ell, c2.Circle((0.0, -3.0), 2.0)),
        (c2.Box((0.0, 0.0), (1.0, 1.0)), c2.Box((1.0, 0.25), (2.0, 0.75))),  # edges touching
        (c2.Box((0.0, 0.0), (1.0, 1.0)), c2.Box((1.0, 1.0), (2.0, 3.0))),  # corners touching
        (c2.Polygon([(0, 0), (2, 0), (1, 1)]), c2.Polygon([(1, 1), (3, 1), (2, 3)])),
        (ell, c2.Point((2.0, 0.0))),  # point on the boundary
        (ell, c2.Point((0.0, -1.0))),
        (c2.Circle((1.0, 1.0), 5.0), c2.Point((4.0, 5.0))),
        (c2.Box((0.0, 0.0), (1.0, 1.0)), c2.Point((1.0, 0.5))),
        (ell, c2.Box((2.0, -1.0), (3.0, 1.0))),  # ellipse vertex on a box edge
        (ell, c2.Segment((-3.0, 1.0), (3.0, 1.0))),
        (ell, c2.Line((0.0, -1.0), (1.0, 0.0))),
        (ell, c2.Polygon([(2.0, 0.0), (4.0, -1.0), (4.0, 1.0)])),  # polygon corner on the vertex
        (c2.Segment((0.0, 0.0), (1.0, 0.0)), c2.Segment((1.0, 0.0), (2.0, 1.0))),
        (c2.Segment((0.0, 0.0), (1.0, 1.0)), c2.Line((2.0, 0.0), (-1.0, 1.0))),
        (c2.Box((0.0, 0.0), (1.0, 1.0)), c2.Line((0.0, 1.0), (1.0, 0.0))),
    ]


def test_exact_tangencies_report_zero_separation():
    for a, b in _tangent_pairs():
        for x, y in ((a, b), (b, a)):
            assert c2.relate(x, y) == c2.Relation.TOUCHING, (x, y)
            c = contact(x, y)
            assert c.separation == 0.0, (x, y, c.separation)
            assert distance(x, y) == 0.0
            # batches (both broadcasting forms) give the same exact zero
            assert contact(_batch1(x), y).separation.tolist() == [0.0]
            assert distance(x, _batch1(y)).tolist() == [0.0]


def _near_tangent_pairs():
    """Tangent pairs pushed apart / together along the contact normal by +-1e-13 relative."""
    out = []
    for a, b in _tangent_pairs():
        n = np.asarray(contact(a, b).normal)
        for sign in (1.0, -1.0):
            for step in (1e-13, 3e-14, 1e-12):
                out.append((a, _translated(b, sign * step * 4.0 * n)))
    return out


def _translated(shape, v):
    kind = type(shape).__name__
    return build(kind, transform_fields(kind, shape._fields, translate=np.asarray(v, dtype=np.float64)))


def test_near_tangent_sign_follows_the_exact_predicate_scalar_and_batch():
    pairs = _near_tangent_pairs()
    checked = {True: 0, False: 0}
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            inter = c2.intersects(x, y)
            checked[bool(inter)] += 1
            s = contact(x, y).separation
            assert (s > 0.0) == (not inter), (x, y, s)
            assert (distance(x, y) == 0.0) == inter
            if c2.relate(x, y) == c2.Relation.TOUCHING:
                assert s == 0.0
    assert checked[True] > 20 and checked[False] > 20


def test_sign_consistency_in_a_mixed_batch():
    # one batch of near-tangent circle pairs (gaps +-k ulps around r1 + r2): batch == scalar, and
    # separation > 0 exactly where intersects is false
    r = np.full(64, 1.0)
    x = 2.0 + np.arange(-32, 32) * 2.0**-51  # centre distances within 32 ulps of r1 + r2 = 2
    a = c2.Circle(np.zeros((64, 2)), r)
    b = c2.Circle(np.stack([x, np.zeros(64)], axis=-1), r)
    e = c2.Ellipse(np.zeros((64, 2)), np.stack([r, r * 0.5], axis=-1), 0.0)
    for p, q in ((a, b), (e, b), (b, e)):
        c = contact(p, q)
        inter = c2.intersects(p, q)
        np.testing.assert_array_equal(c.separation > 0, ~inter)
        np.testing.assert_array_equal(distance(p, q) == 0, inter)
        touching = c2.relate(p, q) == c2.Relation.TOUCHING
        assert np.all(c.separation[touching] == 0.0)
        assert touching.any() and inter.any() and (~inter).any()
        for k in range(0, 64, 7):
            assert contact(p[k], q[k]).separation == c.separation[k]


def _random_shape(kind, rng):
    c = rng.uniform(-2, 2, 2)
    if kind == "Ellipse":
        return c2.Ellipse(c, (rng.uniform(0.2, 2), rng.uniform(0.01, 1)), rng.uniform(-3, 3))
    if kind == "Circle":
        return c2.Circle(c, rng.uniform(0.1, 2))
    if kind == "RotatedBox":
        return c2.RotatedBox(c, rng.uniform(0.2, 2, 2), rng.uniform(-3, 3))
    if kind == "Point":
        return c2.Point(c)
    if kind == "Segment":
        return c2.Segment(c, c + rng.uniform(-2, 2, 2))
    ang = np.sort(rng.uniform(0, 2 * np.pi, 5))
    return c2.Polygon(c + rng.uniform(0.5, 2) * np.stack([np.cos(ang), np.sin(ang)], axis=-1))


SIGN_KINDS = ("Ellipse", "Circle", "RotatedBox", "Polygon", "Segment", "Point")


@pytest.mark.parametrize("kind_b", SIGN_KINDS)
@pytest.mark.parametrize("kind_a", SIGN_KINDS)
def test_sign_agrees_with_intersects_after_shifting_to_tangency(kind_a, kind_b):
    # b moved by -separation * normal touches a up to rounding: the raw float separation then
    # disagrees with the exact predicate for about a quarter of the pairs; the public one never.
    rng = np.random.default_rng(sum(map(ord, kind_a + "/" + kind_b)))
    pairs = []
    for _ in range(24):
        a, b = _random_shape(kind_a, rng), _random_shape(kind_b, rng)
        raw = _dispatch.contact_values(a, b)
        moved = _translated(b, -raw[0] * np.asarray(raw[1:3]))
        pairs.append((a, moved))
    for a, b in pairs:
        inter = c2.intersects(a, b)
        s = contact(a, b).separation
        assert (s > 0.0) == (not inter), (a, b, s)
        assert (distance(a, b) == 0.0) == inter
        if c2.relate(a, b) == c2.Relation.TOUCHING:
            assert s == 0.0
    # the same pairs as one batch: identical separations
    fa = {k: np.stack([np.asarray(p[0]._fields[k], dtype=np.float64) for p in pairs]) for k in pairs[0][0]._fields}
    fb = {k: np.stack([np.asarray(p[1]._fields[k], dtype=np.float64) for p in pairs]) for k in pairs[0][1]._fields}
    if kind_a == "Polygon" or kind_b == "Polygon":
        return  # polygons with varying vertex counts do not stack; covered one by one above
    ba, bb = build(kind_a, fa), build(kind_b, fb)
    sep = contact(ba, bb).separation
    np.testing.assert_array_equal(sep, [contact(a, b).separation for a, b in pairs])
    np.testing.assert_array_equal(sep > 0, ~c2.intersects(ba, bb))


# -- the support chain of a polygon ----------------------------------------------------------------


def _support_run(vertices, u):
    """Brute force on integers: the cyclic run of vertices with the largest ``u.v`` as ``(first,
    last)`` in counter-clockwise order (every vertex of the run is a maximiser, none beside it)."""
    n = len(vertices)
    values = [u[0] * x + u[1] * y for x, y in vertices]
    top = max(values)
    on = [v == top for v in values]
    if all(on):
        raise ValueError("the whole polygon is one face")
    first = next(i for i in range(n) if on[i] and not on[i - 1])
    last = first
    while on[(last + 1) % n]:
        last = (last + 1) % n
    assert sum(on) == (last - first) % n + 1  # one run: the polygon is convex
    return first, last


@pytest.mark.parametrize("per_side", [1, 3, 12])
def test_support_chain_finds_whole_faces_of_collinear_vertices(per_side):
    """``support_chain`` walks the whole face when it carries many collinear vertices: rectangles
    (and a right triangle) whose sides carry ``per_side`` extra vertices, and a triangle whose one
    face holds all vertices but one, their integer coordinates turned by quarter turns (exact), the
    list started at various vertices (also mid-face), after another polygon in the vertex array (an offset), in the
    directions of the face normals, of the corners and in between (a single vertex); against the
    run of maximisers found by brute force on the integers. And segments, which are one face."""
    def side(p, q):
        return [(p[0] + (q[0] - p[0]) * k // (per_side + 1), p[1] + (q[1] - p[1]) * k // (per_side + 1)) for k in range(per_side + 1)]

    span = 2 * (per_side + 1)
    w, h = 3 * span, span
    rectangle = side((0, 0), (w, 0)) + side((w, 0), (w, h)) + side((w, h), (0, h)) + side((0, h), (0, 0))
    triangle = side((0, 0), (w, 0)) + side((w, 0), (0, h)) + side((0, h), (0, 0))
    fan = side((0, 0), (w, 0)) + [(w, 0), (0, h)]  # one face holds all but one vertex
    directions = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, 3), (h, w), (-3, -1)]
    for polygon in (rectangle, triangle, fan):
        for turn in range(4):
            turned = polygon
            for _ in range(turn):
                turned = [(-y + 7, x - 5) for x, y in turned]
            start = (3 * turn + 1) % len(turned)  # the list may start anywhere, also mid-face
            turned = turned[start:] + turned[:start]
            before = [(100.0, 100.0), (101.0, 100.0), (100.0, 101.0)]
            V = np.array(before + [(float(x), float(y)) for x, y in turned])
            off, cnt = len(before), len(turned)
            for u in directions:
                norm = math.hypot(*u)
                first, last = distance_flat.support_chain(V, off, cnt, u[0] / norm, u[1] / norm)
                assert (first - off, last - off) == _support_run(turned, u), (len(polygon), turn, u)
    # a segment (two vertices, as the segment kinds store them) is one face in its normal
    # directions: both ends, in stored order, and no walk beyond them; along it, the far end only
    for q0, q1 in (((0.0, 0.0), (span, 0.0)), ((3.0, -2.0), (3.0, 5.0)), ((1.0, 1.0), (-4.0, 1.0))):
        V = np.array([(9.0, 9.0), q0, q1])
        ex, ey = q1[0] - q0[0], q1[1] - q0[1]
        length = math.hypot(ex, ey)
        for ux, uy in ((-ey / length, ex / length), (ey / length, -ex / length)):
            assert distance_flat.support_chain(V, 1, 2, ux, uy) == (1, 2), (q0, q1, ux, uy)
        assert distance_flat.support_chain(V, 1, 2, ex / length, ey / length) == (2, 2)
        assert distance_flat.support_chain(V, 1, 2, -ex / length, -ey / length) == (1, 1)


def test_point_edge_at_zero_distance_reports_the_left_normal():
    """``point_edge`` at distance 0 (the point at either end of the edge, or on it) returns the
    edge's unit left normal, as documented, for edges of any length (a degenerate edge: (1, 0)); off
    the edge, the unit direction from the foot. Exact where the lengths are Pythagorean."""
    for (x0, y0, x1, y1) in ((0.0, 0.0, 3.0, 4.0), (1.0, 2.0, 1.0, 2.0 + 1e-3), (-5.0, 1.0, 7.0, 6.0), (2.0, 2.0, -6.0, -4.0)):
        length = math.hypot(x1 - x0, y1 - y0)
        left = (-(y1 - y0) / length, (x1 - x0) / length)
        for px, py in ((x0, y0), (x1, y1), (0.5 * (x0 + x1), 0.5 * (y0 + y1))):
            d, ux, uy = distance_flat.point_edge(px, py, x0, y0, x1, y1)
            assert d == 0.0
            assert abs(ux - left[0]) <= 2 * EPS and abs(uy - left[1]) <= 2 * EPS, ((x0, y0, x1, y1), (px, py), ux, uy)
        # beyond the second end along the edge, and beside the first end: directions from the ends
        d, ux, uy = distance_flat.point_edge(x1 + (x1 - x0), y1 + (y1 - y0), x0, y0, x1, y1)
        assert d == pytest.approx(length, rel=4 * EPS) and (ux, uy) == pytest.approx(((x1 - x0) / length, (y1 - y0) / length), abs=4 * EPS)
    assert distance_flat.point_edge(1.0, 1.0, 1.0, 1.0, 1.0, 1.0) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize("size_exp", [-30, 0, 30])
def test_contact_of_overlapping_boxes_is_the_exact_depth_at_any_size(size_exp):
    """Two axis-aligned boxes of side ``u = 2^k`` (k = -30, 0, 30) overlapping by ``2^-30 u`` and
    ``2^-40 u`` along x: the separation is minus that depth exactly (every number is a power of two),
    with normal (1, 0), both orders. The rounding band of the separating-axis value scales with the
    shapes, not with 1 (at ``u = 2^-30`` a unit band would swallow both depths)."""
    u = 2.0**size_exp
    for depth in (2.0**-30 * u, 2.0**-40 * u):
        a = c2.Box((0.0, 0.0), (u, u))
        b = c2.Box((u - depth, 0.25 * u), (2 * u, 0.75 * u))
        for first, second, sign in ((a, b, 1.0), (b, a, -1.0)):
            c = contact(first, second)
            assert c.separation == -depth and tuple(c.normal) == (sign, 0.0), (size_exp, depth, c)
