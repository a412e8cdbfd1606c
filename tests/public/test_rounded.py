"""The rounded kind (capsules, rounded polygons and boxes) against independent references.

References: exact rationals (``fractions.Fraction``) for the flat cores, written here from the
definitions (the set of points within ``r`` of the core) without the library's kernels; mpmath for
ellipse distances; shapely's ``buffer`` at high resolution as a coarse cross-check only. Radius 0
is compared with today's shapes bit for bit. Both argument orders, single shapes and batches.
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2

F = Fraction


class codes:  # the relation codes (c2.Relation's values; CROSSING, 6, is reported as OVERLAPPING)
    DISJOINT, TOUCHING, OVERLAPPING, CONTAINS, WITHIN, EQUAL, CROSSING = range(7)


def rounded(shape):
    """A Capsule, or a Polygon, Box or RotatedBox built with a radius (public attributes only)."""
    return isinstance(shape, c2.Capsule) or (not isinstance(shape, c2.Circle) and hasattr(shape, "radius"))

MIRROR = {0: 0, 1: 1, 2: 2, 3: 4, 4: 3, 5: 5, 6: 6}
PUBLIC = {6: 2}  # CROSSING is reported as OVERLAPPING


# -- exact reference (Fractions), from the definitions -------------------------------------------


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def pt_seg_d2(p, q0, q1):
    """Squared distance of p to the closed segment [q0, q1] (q0 may equal q1)."""
    ex, ey = q1[0] - q0[0], q1[1] - q0[1]
    ee = ex * ex + ey * ey
    t = F(0) if ee == 0 else min(F(1), max(F(0), ((p[0] - q0[0]) * ex + (p[1] - q0[1]) * ey) / ee))
    fx, fy = q0[0] + t * ex - p[0], q0[1] + t * ey - p[1]
    return fx * fx + fy * fy


def edges(vs):
    if len(vs) == 1:
        return []
    if len(vs) == 2:
        return [(vs[0], vs[1])]
    return [(vs[i], vs[(i + 1) % len(vs)]) for i in range(len(vs))]


def in_set(p, vs):
    """p in the closed convex set of the vertex list (1 point, a segment, a CCW polygon)."""
    if len(vs) == 1:
        return p == vs[0]
    if len(vs) == 2:
        return pt_seg_d2(p, vs[0], vs[1]) == 0
    return all(cross(a, b, p) >= 0 for a, b in edges(vs))


def segs_meet(a0, a1, b0, b1):
    d1, d2, d3, d4 = cross(b0, b1, a0), cross(b0, b1, a1), cross(a0, a1, b0), cross(a0, a1, b1)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)):
        return True
    return (pt_seg_d2(a0, b0, b1) == 0 or pt_seg_d2(a1, b0, b1) == 0 or pt_seg_d2(b0, a0, a1) == 0
            or pt_seg_d2(b1, a0, a1) == 0)


def set_d2(xs, ys):
    """Squared distance of two convex vertex lists."""
    if any(in_set(p, ys) for p in xs) or any(in_set(p, xs) for p in ys):
        return F(0)
    if any(segs_meet(*e, *f) for e in edges(xs) for f in edges(ys)):
        return F(0)
    best = None
    for p in xs:
        for q0, q1 in edges(ys) or [(ys[0], ys[0])]:
            d = pt_seg_d2(p, q0, q1)
            best = d if best is None else min(best, d)
    for p in ys:
        for q0, q1 in edges(xs) or [(xs[0], xs[0])]:
            best = min(best, pt_seg_d2(p, q0, q1))
    return best


def line_d2(line, vs):
    (px, py), (dx, dy) = line
    side = [dx * (v[1] - py) - dy * (v[0] - px) for v in vs]
    if min(side) <= 0 <= max(side):
        return F(0)
    return min(s * s for s in side) / (dx * dx + dy * dy)


def sign(x):
    return (x > 0) - (x < 0)


def fr(v):
    return (F(float(v[0])), F(float(v[1])))


def core_of(shape):
    """(vertex list, radius) of a single rounded shape, from its public fields, as Fractions."""
    r = F(float(shape.radius))
    if isinstance(shape, c2.Capsule):
        a, b = fr(shape.a), fr(shape.b)
        return ([a] if a == b else [a, b]), r
    if isinstance(shape, c2.RotatedBox):
        return [fr(v) for v in shape.corners], r
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = fr(shape.min), fr(shape.max)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], r
    return [fr(v) for v in shape.vertices], r


def flat_of(shape):
    """The vertex list of a plain point, segment or polygon-kind shape, or ('line', ...)."""
    if isinstance(shape, c2.Point):
        return [fr(shape.xy)]
    if isinstance(shape, c2.Segment):
        return [fr(shape.start), fr(shape.end)]
    if isinstance(shape, c2.Line):
        return ("line", (fr(shape.point), fr(shape.direction)))
    if isinstance(shape, c2.RotatedBox):
        return [fr(v) for v in shape.corners]
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = fr(shape.min), fr(shape.max)
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return [fr(v) for v in shape.vertices]


def within_all(points, core, R):
    return all(set_d2([p], core) <= R * R for p in points)


def inside_shrunk(points, poly, R):
    if len(poly) < 3:
        return False
    for p in points:
        for q0, q1 in edges(poly):
            c = cross(q0, q1, p)
            ee = (q1[0] - q0[0]) ** 2 + (q1[1] - q0[1]) ** 2
            if c < 0 or c * c < R * R * ee:
                return False
    return True


def reference_relate(a, b):
    """Exact DE-9IM code of the rounded a (radius > 0) against b (not an ellipse)."""
    K, r = core_of(a)
    if rounded(b) and float(b.radius) > 0:
        L, s = core_of(b)
        m = sign(set_d2(K, L) - (r + s) ** 2)
        if m >= 0:
            return codes.DISJOINT if m > 0 else codes.TOUCHING
        b_in_a = within_all(L, K, r - s) if s <= r else inside_shrunk(L, K, s - r)
        a_in_b = within_all(K, L, s - r) if r <= s else inside_shrunk(K, L, r - s)
        if b_in_a and a_in_b:
            return codes.EQUAL
        return codes.CONTAINS if b_in_a else codes.WITHIN if a_in_b else codes.OVERLAPPING
    X = core_of(b)[0] if rounded(b) else flat_of(b)
    if X[0] == "line":
        m = sign(line_d2(X[1], K) - r * r)
        return codes.DISJOINT if m > 0 else codes.TOUCHING if m == 0 else codes.CROSSING
    m = sign(set_d2(K, X) - r * r)
    if m >= 0:
        return codes.DISJOINT if m > 0 else codes.TOUCHING
    if len(X) == 1:
        return codes.CONTAINS
    if len(X) == 2:
        return codes.CONTAINS if within_all(X, K, r) else codes.CROSSING
    if within_all(X, K, r):
        return codes.CONTAINS
    return codes.WITHIN if inside_shrunk(K, X, r) else codes.OVERLAPPING


def reference_distance(a, b):
    """Exact distance (as a float via mpmath) of rounded a and flat b (0 when they meet)."""
    import mpmath

    K, r = core_of(a)
    if rounded(b):
        X, s = core_of(b)
    else:
        X, s = flat_of(b), F(0)
    d2 = line_d2(X[1], K) if X[0] == "line" else set_d2(K, X)
    mpmath.mp.dps = 40
    d = mpmath.sqrt(mpmath.mpf(d2.numerator) / d2.denominator) - mpmath.mpf(r.numerator) / r.denominator - mpmath.mpf(s.numerator) / s.denominator
    return max(float(d), 0.0)


# -- random configurations on a small integer grid: exact touching happens often ---------------


def rng_shapes(seed):
    rng = np.random.default_rng(seed)
    radii = [0.5, 1.0, 2.0, 2.5, 5.0]

    def pt():
        return tuple(float(x) for x in rng.integers(-9, 10, 2))

    def tri():
        while True:
            p = [pt() for _ in range(3)]
            if cross(*[fr(v) for v in p]) != 0:
                return p

    rounded = [
        c2.Capsule(pt(), pt(), float(rng.choice(radii))),
        c2.Polygon(tri(), radius=float(rng.choice(radii))),
        c2.Box((-1, -2), (float(rng.integers(0, 4)), 1), radius=float(rng.choice(radii))),
        c2.RotatedBox(pt(), (1.5, 0.5), direction=(3, 4), radius=float(rng.choice(radii))),
    ]
    x, y = pt()
    others = [
        c2.Point(pt()),
        c2.Segment(pt(), (x + 1.0, y)),
        c2.Line(pt(), (float(rng.integers(-3, 4)) or 1.0, float(rng.integers(-3, 4)))),
        c2.Polygon(tri()),
        c2.Box((-2, -1), (2, float(rng.integers(0, 3)))),
        c2.Capsule(pt(), pt(), float(rng.choice(radii))),
    ]
    return rounded, others


def all_pairs(seeds):
    for seed in seeds:
        rounded, others = rng_shapes(seed)
        for a in rounded:
            for b in others + rounded:
                if a is not b:
                    yield a, b


def test_relate_flat_pairs_exact_both_orders():
    counts = {}
    for a, b in all_pairs(range(40)):
        expected = reference_relate(a, b)
        counts[expected] = counts.get(expected, 0) + 1
        assert int(c2.relate(a, b)) == PUBLIC.get(expected, expected), (a, b)
        mirrored = MIRROR[expected]
        assert int(c2.relate(b, a)) == PUBLIC.get(mirrored, mirrored), (b, a)
        assert c2.intersects(a, b) == (expected != codes.DISJOINT) == c2.intersects(b, a)
    # the grid makes every outcome common, touching included
    assert counts.get(codes.TOUCHING, 0) >= 5 and counts.get(codes.DISJOINT, 0) > 50
    assert counts.get(codes.CONTAINS, 0) > 10 and counts.get(codes.WITHIN, 0) > 5


def touching_pairs():
    """Pairs that touch exactly (3-4-5 offsets, faces at the radius, end to end)."""
    cap = c2.Capsule((0.0, 0.0), (4.0, 0.0), 5.0)
    box = c2.Box((0.0, 0.0), (2.0, 1.0), radius=2.5)
    tri = c2.Polygon([(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], radius=5.0)
    rot = c2.RotatedBox((0.0, 0.0), (2.0, 1.0), direction=(3.0, 4.0), radius=1.0)
    return [
        (cap, c2.Point((7.0, 4.0))), (cap, c2.Point((-3.0, -4.0))), (cap, c2.Point((2.0, 5.0))),
        (cap, c2.Segment((-1.0, -5.0), (6.0, -5.0))), (cap, c2.Line((0.0, 5.0), (1.0, 0.0))),
        (cap, c2.Box((-10.0, 5.0), (10.0, 9.0))), (cap, c2.Capsule((13.0, 0.0), (20.0, 0.0), 4.0)),
        (cap, c2.Capsule((7.0, 8.0), (7.0, 9.0), 0.0)), (cap, c2.Polygon([(7.0, 4.0), (9.0, 4.0), (9.0, 9.0)])),
        (box, c2.Point((2.0 + 1.5, 1.0 + 2.0))), (box, c2.Box((4.5, -3.0), (6.0, 3.0))),
        (box, c2.Capsule((-2.5 - 1.0, -5.0), (-3.5, 5.0), 1.0)), (box, c2.Line((0.0, 3.5), (1.0, 0.0))),
        (tri, c2.Point((4.0 + 3.0, -4.0))), (tri, c2.Segment((-5.0, -3.0), (-5.0, 3.0))),
        (tri, c2.Polygon([(2.0 + 3.0 + 3.0, 2.0 + 3.0 + 4.0), (12.0, 12.0), (8.0, 12.0)], radius=0.0)),
        (rot, c2.Line((0.0, 0.0), (3.0, 4.0)).__class__((0.0, 0.0), (3.0, 4.0))),
        # internal tangency: containment with a common boundary point
        (c2.Capsule((0.0, 0.0), (4.0, 0.0), 5.0), c2.Capsule((0.0, 0.0), (3.0, 0.0), 4.0)),
        (c2.Box((-2.0, -2.0), (2.0, 2.0), radius=1.0), c2.Box((-3.0, -1.0), (3.0, 1.0))),
    ]


def test_touching_constructions_exact():
    seen = set()
    c2.exact_fallback_counts(reset=True)
    for a, b in touching_pairs():
        expected = reference_relate(a, b)
        seen.add(expected)
        assert int(c2.relate(a, b)) == PUBLIC.get(expected, expected), (a, b, expected)
        assert int(c2.relate(b, a)) == PUBLIC.get(MIRROR[expected], MIRROR[expected])
        if expected == codes.TOUCHING:
            assert c2.distance(a, b) == 0.0 and c2.contact(b, a).separation == 0.0
    assert codes.TOUCHING in seen and (codes.CONTAINS in seen or codes.WITHIN in seen)
    assert sum(reference_relate(a, b) == codes.TOUCHING for a, b in touching_pairs()) >= 14
    # on a short grid the float kernels re-run without error bounds: no Fraction fallback
    assert not any("rounded" in name for name in c2.exact_fallback_counts())


def test_distance_flat_pairs_against_exact():
    for a, b in all_pairs(range(12)):
        expected = reference_distance(a, b)
        got = c2.distance(a, b)
        assert got == c2.distance(b, a)
        assert abs(got - expected) <= 1e-13 * (1 + expected), (a, b, got, expected)
        assert (got == 0.0) == c2.intersects(a, b)


def test_contact_witnesses_on_rounded_boundaries():
    import mpmath

    for a, b in all_pairs(range(8)):
        c = c2.contact(a, b)
        K, r = core_of(a)
        # point_a lies on a's rounded boundary: at distance r from the core
        d = float(mpmath.sqrt(set_d2([fr(c.point_a)], K)))
        assert abs(d - float(r)) <= 1e-12 * (1 + float(r)), (a, b, c)
        assert c.curvature_a in (0.0, 1.0 / float(r))
        np.testing.assert_allclose(c.point_b - c.point_a, c.separation * c.normal, atol=1e-12)
        m = c2.contact(b, a)
        assert m.separation == c.separation
        np.testing.assert_array_equal(m.normal, -c.normal)
        np.testing.assert_array_equal(m.point_a, c.point_b)
        assert (m.curvature_a, m.curvature_b) == (c.curvature_b, c.curvature_a)


def test_contact_curvature_arc_and_flat():
    box = c2.Box((0, 0), (2, 1), radius=0.25)
    corner = c2.contact(box, c2.Point((3, 2)))  # beyond the corner (2, 1): on the arc
    assert corner.curvature_a == 4.0
    np.testing.assert_allclose(corner.point_a, (2 + 0.25 / math.sqrt(2), 1 + 0.25 / math.sqrt(2)))
    face = c2.contact(box, c2.Point((1, 3)))  # above the top face: on the flat
    assert face.curvature_a == 0.0 and face.separation == 1.75
    assert face.point_a.tolist() == [1.0, 1.25]
    inside = c2.contact(c2.Capsule((0, 0), (4, 0), 1.0), c2.Point((1, 0.25)))
    assert inside.separation == -0.75 and inside.point_a.tolist() == [1.0, 1.0]


def test_closest_point_and_contains_xy():
    cap = c2.Capsule((0, 0), (2, 0), 0.5)
    got = c2.closest_point(cap, [(1, 3), (1, 0.1), (3, 0), (-1, 0)])
    np.testing.assert_allclose(got, [(1, 0.5), (1, 0.5), (2.5, 0), (-0.5, 0)])
    xy = [(2.3, 0.4), (2.3, 0.41), (2.5, 0.0), (2.5, 0.01)]  # 2.3 - 2 < 0.3: the first lies inside
    assert c2.contains_xy(cap, xy).tolist() == [True, False, False, False]  # the interior
    assert c2.intersects_xy(cap, xy).tolist() == [True, False, True, False]  # the closed set


def test_batches_match_single_pairs_both_orders():
    rng = np.random.default_rng(5)
    n = 24
    caps = c2.Capsule(rng.integers(-4, 5, (n, 2)).astype(float), rng.integers(-4, 5, (n, 2)).astype(float),
                      rng.choice([0.0, 0.5, 1.0, 2.5], n))
    boxes = c2.Box(rng.integers(-5, 0, (n, 2)).astype(float), rng.integers(1, 5, (n, 2)).astype(float),
                   radius=rng.choice([0.0, 0.5, 1.0], n))
    tris = c2.Polygon(np.array([[(0, 0), (3, 0), (0, 3)]] * n, dtype=float) + rng.integers(-3, 3, (n, 1, 2)))
    for a, b in [(caps, boxes), (boxes, tris), (caps, tris), (caps, caps[::-1]),
                 (boxes, c2.Point(rng.integers(-5, 5, (n, 2)).astype(float))),
                 (caps, c2.Segment((0.0, 1.0), (2.0, 1.0))),
                 (caps, c2.Circle((1.0, 1.0), 1.5)), (caps, c2.Line((0.0, 2.0), (1.0, 1.0)))]:
        for x, y in [(a, b), (b, a)]:
            rel = c2.relate(x, y)
            dist = c2.distance(x, y)
            con = c2.contact(x, y)
            inter = c2.intersects(x, y)
            for k in range(n):
                xs = x[k] if x.shape else x
                ys = y[k] if y.shape else y
                assert rel[k] == int(c2.relate(xs, ys))
                assert inter[k] == c2.intersects(xs, ys)
                assert dist[k] == c2.distance(xs, ys)
                single = c2.contact(xs, ys)
                assert con.separation[k] == single.separation
                assert con.point_a[k].tolist() == single.point_a.tolist()
                assert con.normal[k].tolist() == single.normal.tolist()


def test_radius_zero_is_todays_shape_bit_for_bit():
    rng = np.random.default_rng(9)
    plain = [c2.Polygon([(0, 0), (2, 0.5), (0.25, 3)]), c2.Box((-1, -1), (1, 2)), c2.RotatedBox((0.5, 0), (1, 2), 0.3)]
    for cls_args, p in zip([((plain[0].vertices,), {}), ((( -1, -1), (1, 2)), {}), (((0.5, 0), (1, 2), 0.3), {})], plain):
        args, _ = cls_args
        zero = type(p)(*args, radius=0.0)
        assert type(zero) is type(p) and zero._params.tobytes() == p._params.tobytes() and zero._verts.tobytes() == p._verts.tobytes()
    others = [c2.Point(rng.normal(size=2)), c2.Segment(rng.normal(size=2), rng.normal(size=2)),
              c2.Ellipse(rng.normal(size=2), (1.0, 0.5), 0.2), c2.Line((0, 0.5), (1, 0.25)), c2.Box((0, 0), (1, 1))]
    # a rounded batch whose rows of radius 0 go to today's kernels: same bits as the plain shapes
    caps = c2.Capsule([(0.0, 0.0), (1.0, 1.0)], [(2.0, 0.5), (1.0, 1.0)], [0.0, 0.0])
    mixed = c2.Box([(-1.0, -1.0), (-1.0, -1.0)], [(1.0, 2.0), (1.0, 2.0)], radius=[0.0, 0.5])
    seg, pnt = c2.Segment((0.0, 0.0), (2.0, 0.5)), c2.Point((1.0, 1.0))
    for o in others:
        for x, y in [(caps[0], seg), (caps[1], pnt), (mixed[0], plain[1])]:
            for f in (c2.relate, c2.distance, c2.intersects):
                assert f(x, o) == f(y, o) and f(o, x) == f(o, y)
            cx, cy = c2.contact(x, o), c2.contact(y, o)
            assert cx.separation == cy.separation and cx.point_a.tolist() == cy.point_a.tolist()
            assert cx.normal.tolist() == cy.normal.tolist() and cx.curvature_a == cy.curvature_a


@pytest.mark.parametrize("k", [-400, 400])
def test_extreme_magnitudes_scale_exactly(k):
    s = 2.0**k
    for a, b in list(all_pairs([3]))[:30]:
        if isinstance(b, c2.Line):
            continue
        big_a = scaled(a, s)
        big_b = scaled(b, s)
        assert int(c2.relate(big_a, big_b)) == int(c2.relate(a, b))
        assert c2.distance(big_a, big_b) == pytest.approx(c2.distance(a, b) * s, rel=1e-13, abs=0)


def scaled(shape, s):
    if isinstance(shape, c2.Capsule):
        return c2.Capsule(np.multiply(shape.a, s), np.multiply(shape.b, s), shape.radius * s)
    if isinstance(shape, c2.Point):
        return c2.Point(np.multiply(shape.xy, s))
    if isinstance(shape, c2.Segment):
        return c2.Segment(np.multiply(shape.start, s), np.multiply(shape.end, s))
    vertices = core_of(shape)[0] if rounded(shape) else flat_of(shape)
    r = float(shape.radius) if rounded(shape) else 0.0
    return c2.Polygon([(float(x) * s, float(y) * s) for x, y in vertices], radius=r * s)


@pytest.mark.parametrize("r, x0", [(2.0**-495, 2.0**-470), (2.0**-100, 2.0**-60), (1.0, 2.0**40), (2.0**470, 2.0**495)])
def test_far_from_the_origin_and_size_ratios(r, x0):
    """A capsule of radius r, 2**40 r from the origin, resting on a box 2**20 (about 1e6) times
    its size: exact touching, and one ulp of the box's top (below the capsule's ulp) apart."""
    big = 2.0**20 * r
    cap = c2.Capsule((x0, 3 * r), (x0 + 2 * r, 3 * r), r)
    box = c2.Box((x0 - big, -big), (x0 + big, 2 * r))
    for a, b in [(cap, box), (box, cap)]:
        assert c2.relate(a, b) == c2.Relation.TOUCHING and c2.distance(a, b) == 0.0
    lower = c2.Box((x0 - big, -big), (x0 + big, math.nextafter(2 * r, 0)))
    assert c2.relate(cap, lower) == c2.Relation.DISJOINT and c2.distance(lower, cap) > 0.0
    assert c2.distance(cap, lower) == pytest.approx(2 * r - math.nextafter(2 * r, 0), rel=1e-6)
    higher = c2.Box((x0 - big, -big), (x0 + big, math.nextafter(2 * r, math.inf)))
    assert c2.relate(cap, higher) == c2.Relation.OVERLAPPING and c2.contact(cap, higher).separation < 0.0
    assert c2.contact(higher, cap).normal.tolist() == [0.0, 1.0]
    batch = c2.relate(c2.Capsule((x0, 3 * r), (x0 + 2 * r, 3 * r), [r, r, r]), c2.Box((x0 - big, -big), [(x0 + big, y) for y in (2 * r, math.nextafter(2 * r, 0), math.nextafter(2 * r, math.inf))]))
    assert batch.tolist() == [1, 0, 2]


def test_near_tangency_one_ulp():
    cap = c2.Capsule((0.0, 0.0), (4.0, 0.0), 0.75)
    for y, expected in [(0.75, codes.TOUCHING), (math.nextafter(0.75, 1), codes.DISJOINT), (math.nextafter(0.75, 0), codes.CONTAINS)]:
        assert int(c2.relate(cap, c2.Point((2.0, y)))) == expected
        assert int(c2.relate(cap, c2.Point((4.0 + 0.45, y * 0.8)))) == reference_relate(cap, c2.Point((4.0 + 0.45, y * 0.8)))
    seg = c2.Segment((-1.0, 1.0), (5.0, 1.0 + 2.0**-50))
    assert int(c2.relate(c2.Capsule((0.0, 0.0), (4.0, 0.0), 1.0), seg)) == reference_relate(c2.Capsule((0.0, 0.0), (4.0, 0.0), 1.0), seg)


def test_ellipse_pairs_against_mpmath():
    import mpmath

    mpmath.mp.dps = 30
    cap = c2.Capsule((0.0, 0.0), (2.0, 0.0), 0.5)
    for center, radii, angle in [((5.0, 1.0), (1.0, 2.0), 0.3), ((1.0, 3.0), (3.0, 0.5), -0.7), ((-4.0, -2.0), (1e-3, 1.0), 1.1)]:
        e = c2.Ellipse(center, radii, angle)
        cx, cy = map(mpmath.mpf, center)
        a, b = map(mpmath.mpf, radii)
        w = e.direction

        def dist(t):
            x = cx + a * mpmath.cos(t) * w[0] - b * mpmath.sin(t) * w[1]
            y = cy + a * mpmath.cos(t) * w[1] + b * mpmath.sin(t) * w[0]
            u = min(max((x * 2) / 4, 0), 1) * 2
            return mpmath.sqrt((x - u) ** 2 + y**2)

        ts = [2 * mpmath.pi * k / 2000 for k in range(2000)]
        k = min(range(2000), key=lambda i: dist(ts[i]))
        t = mpmath.findroot(lambda t: mpmath.diff(dist, t), ts[k])
        expected = float(dist(t)) - 0.5
        assert c2.distance(cap, e) == pytest.approx(expected, rel=1e-12)
        assert c2.distance(e, cap) == c2.distance(cap, e)
    # tangent circle (within the band), contained, containing, equal
    assert c2.relate(cap, c2.Circle((1.0, 2.0), 1.5)) == c2.Relation.TOUCHING
    assert c2.relate(cap, c2.Circle((1.0, 0.0), 4.0)) == c2.Relation.WITHIN
    assert c2.relate(c2.Circle((1.0, 0.0), 4.0), cap) == c2.Relation.CONTAINS
    assert c2.relate(cap, c2.Circle((1.0, 0.1), 0.3)) == c2.Relation.CONTAINS
    assert c2.relate(cap, c2.Ellipse((1.0, 0.0), (1.4, 0.45))) == c2.Relation.CONTAINS
    assert c2.relate(cap, c2.Ellipse((1.0, 0.0), (1.6, 0.45))) == c2.Relation.OVERLAPPING
    assert c2.relate(c2.Capsule((1.0, 1.0), (1.0, 1.0), 2.0), c2.Circle((1.0, 1.0), 2.0)) == c2.Relation.EQUAL


def test_shapely_buffer_cross_check():
    shapely = pytest.importorskip("shapely")
    for a, b in list(all_pairs(range(3))):
        if isinstance(b, c2.Line):
            continue
        K, r = core_of(a)
        core = [(float(x), float(y)) for x, y in K]
        geom_a = (shapely.Point(core[0]) if len(core) == 1 else shapely.LineString(core) if len(core) == 2
                  else shapely.Polygon(core)).buffer(float(r), quad_segs=256)
        if rounded(b):
            L, s = core_of(b)
            pts = [(float(x), float(y)) for x, y in L]
            geom_b = (shapely.Point(pts[0]) if len(pts) == 1 else shapely.LineString(pts) if len(pts) == 2
                      else shapely.Polygon(pts)).buffer(float(s), quad_segs=256)
        else:
            pts = [(float(x), float(y)) for x, y in flat_of(b)]
            geom_b = shapely.Point(pts[0]) if len(pts) == 1 else shapely.LineString(pts) if len(pts) == 2 else shapely.Polygon(pts)
        assert c2.distance(a, b) == pytest.approx(geom_a.distance(geom_b), abs=1e-3 * (1 + float(r)))
    assert c2.Capsule((0, 0), (2, 0), 0.5).area == pytest.approx(shapely.LineString([(0, 0), (2, 0)]).buffer(0.5, quad_segs=512).area, rel=1e-5)


def test_validation_and_choices():
    for bad, error in [(True, TypeError), (-1.0, ValueError), (float("nan"), ValueError), ("1", TypeError),
                       ([0.5, -0.5], ValueError), (1e300, ValueError), (float("inf"), ValueError)]:
        with pytest.raises(error, match="radius"):
            c2.Capsule((0, 0), (1, 0), bad)
        with pytest.raises(error, match="radius"):
            c2.Box((0, 0), (1, 1), radius=bad)
        with pytest.raises(error, match="radius"):
            c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=bad)
    with pytest.raises(TypeError, match="radius"):
        c2.RotatedBox((0, 0), (1, 1), radius=False)
    with pytest.raises(ValueError, match="a and b must lie within"):
        c2.Capsule((1e200, 0), (1, 0), 1.0)
    # a == b: a disc; radius 0: the segment itself
    disc = c2.Capsule((1, 1), (1, 1), 2.0)
    assert c2.relate(disc, c2.Circle((1, 1), 2.0)) == c2.Relation.EQUAL and disc.area == pytest.approx(4 * math.pi)
    assert c2.relate(c2.Capsule((0, 0), (1, 0), 0.0), c2.Segment((0, 0), (1, 0))) == c2.Relation.EQUAL
    assert c2.distance(c2.Capsule((0, 0), (0, 0), 0.0), c2.Point((3, 4))) == 5.0
    box = c2.Box((0, 0), (2, 1), radius=0.5)
    assert repr(box) == "Box(min=(0.0, 0.0), max=(2.0, 1.0), radius=0.5)" and isinstance(box, c2.Box)
    assert box.bounds == (-0.5, -0.5, 2.5, 1.5) and box.area == pytest.approx(2 + 6 * 0.5 + math.pi / 4)
    again = pickle.loads(pickle.dumps(box))
    assert repr(again) == repr(box) and c2.relate(again, box) == c2.Relation.EQUAL
    assert box[()] if False else True
    batch = c2.Polygon([[(0, 0), (1, 0), (0, 1)]] * 3, radius=[0.1, 0.0, 0.2])
    assert batch.shape == (3,) and batch[1].radius == 0.0 and batch.radius.tolist() == [0.1, 0.0, 0.2]


LATER_OPERATIONS = {  # once refused for rounded shapes; their answers: test_rounded_motion.py, test_manifold.py
    "contact_manifold": lambda cap, box: c2.contact_manifold(box, cap),
    "time_of_impact": lambda cap, box: c2.time_of_impact(box, cap, (1, 0)),
    "query_impacts": lambda cap, box: c2.query_impacts(cap, (1, 0)),
    "raycast": lambda cap, box: c2.raycast(cap, (5, 5), (-1, -1)),
    "translate": lambda cap, box: c2.translate(cap, (1, 1)),
    "rotate": lambda cap, box: c2.rotate(cap, 0.5),
}


@pytest.mark.parametrize("operation", sorted(LATER_OPERATIONS))
def test_every_operation_takes_rounded_shapes(operation):
    cap = c2.Capsule((0, 0), (2, 0), 0.5)
    assert LATER_OPERATIONS[operation](cap, c2.Box((0, 0), (1, 1), radius=0.25)) is not None
    assert not hasattr(cap, "__geo_interface__")


def test_area_length_centroid_against_shapely_buffer():
    shapely = pytest.importorskip("shapely")
    cases = [
        (c2.Capsule((0, 0), (2, 1), 0.5), shapely.LineString([(0, 0), (2, 1)])),
        (c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=0.1), shapely.Polygon([(0, 0), (1, 0), (0, 1)])),
        (c2.RotatedBox((1, 2), (2, 0.5), 0.3, radius=0.7), shapely.Polygon(c2.RotatedBox((1, 2), (2, 0.5), 0.3).corners)),
        (c2.Capsule((3, 3), (3, 3), 0.5), shapely.Point(3, 3)),
    ]
    for shape, core in cases:
        fine = core.buffer(float(shape.radius), quad_segs=2048)
        assert c2.area(shape) == shape.area == pytest.approx(fine.area, rel=1e-6)
        assert c2.length(shape) == pytest.approx(fine.length, rel=1e-6)
        np.testing.assert_allclose(c2.centroid(shape), fine.centroid.coords[0], atol=1e-6)
        polygon = c2.to_shapely(shape, tolerance=1e-6)
        r = float(shape.radius)
        assert polygon.within(core.buffer(r + 1e-7, quad_segs=2048)) and polygon.contains(core.buffer(r - 1.1e-6, quad_segs=2048))
        assert c2.to_patch(shape).get_path().vertices.shape[1] == 2
    batch = c2.Capsule([(0, 0), (1, 1)], [(2, 0), (1, 1)], [0.5, 0.0])
    shapes = c2.to_shapely(batch)
    assert shapes.shape == (2,) and shapes[1].geom_type == "Point"
    np.testing.assert_allclose(batch.centroid, [(1, 0), (1, 1)])


def test_radius_zero_capsules_answer_as_segments_and_points_everywhere():
    cap, seg = c2.Capsule((0.0, 0.0), (1.0, 0.5), 0.0), c2.Segment((0.0, 0.0), (1.0, 0.5))
    dot, pnt = c2.Capsule((0.25, 0.5), (0.25, 0.5), 0.0), c2.Point((0.25, 0.5))
    box = c2.Box((0.0, 0.0), (1.0, 1.0))
    for x, y in [(cap, seg), (dot, pnt)]:
        assert c2.length(x) == c2.length(y) and c2.area(x) == c2.area(y) == 0.0 and c2.centroid(x) == c2.centroid(y)
        assert c2.covers(box, x) == c2.covers(box, y) and c2.covered_by(x, box) == c2.covered_by(y, box)
        assert c2.overlap_area(x, box) == c2.overlap_area(y, box)
        assert c2.intersection_points(x, box).tolist() == c2.intersection_points(y, box).tolist()
        assert c2.raycast(x, (0.5, 2.0), (0.0, -1.0)).distance == c2.raycast(y, (0.5, 2.0), (0.0, -1.0)).distance
        assert repr(c2.translate(x, (1.0, 1.0))) == repr(c2.translate(y, (1.0, 1.0)))
        assert c2.time_of_impact(x, box, (0.0, 1.0)).time == c2.time_of_impact(y, box, (0.0, 1.0)).time
    # a mixed batch: the row of radius 0 touching the box's edge is covered like a segment, the
    # disc about a corner is not
    mixed = c2.Capsule([(0.0, 0.0), (0.0, 0.0)], [(1.0, 0.0), (0.0, 0.0)], [0.0, 0.5])
    assert c2.covers(box, mixed).tolist() == [True, False] == [c2.covers(box, seg_) for seg_ in (c2.Segment((0.0, 0.0), (1.0, 0.0)), mixed[1])]
    lone = c2.Box([(0.0, 0.0), (1.0, 1.0)], [(2.0, 2.0), (3.0, 3.0)], radius=[0.5, 0.0])[1]
    assert repr(c2.translate(lone, (1.0, 1.0))) == "Box(min=(2.0, 2.0), max=(4.0, 4.0))"


@pytest.mark.parametrize("s", [2.0**-450, 2.0**450])
def test_ellipse_pairs_at_extreme_magnitudes(s):
    cap = c2.Capsule((0.0, 0.0), (2.0 * s, 0.0), 0.5 * s)
    unit = c2.Capsule((0.0, 0.0), (2.0, 0.0), 0.5)
    for center, radius, expected in [((1.0, 2.0), 1.5, codes.TOUCHING), ((1.0, 0.0), 4.0, codes.WITHIN),
                                     ((5.0, 1.0), 1.0, codes.DISJOINT), ((1.0, 0.1), 0.3, codes.CONTAINS)]:
        circle = c2.Circle((center[0] * s, center[1] * s), radius * s)
        assert int(c2.relate(cap, circle)) == expected and int(c2.relate(circle, cap)) == MIRROR[expected]
        assert c2.distance(cap, circle) == pytest.approx(c2.distance(unit, c2.Circle(center, radius)) * s, rel=1e-12)


def test_batched_area_is_the_per_row_sum_bit_for_bit_and_exact_to_rounding():
    """``area`` of a rounded batch sums each row's shoelace and edge terms in NumPy's pairwise order
    (compiled, no Python loop per row): the same bits as ``np.sum`` per row (rows of 3 to 300
    vertices: below 8 terms, the 8-way unrolled block, and NumPy's recursive split past 128), and
    the core area within a few ulps of the exact one (Fractions)."""
    from fractions import Fraction

    rng = np.random.default_rng(4)
    for count in (3, 4, 7, 8, 9, 17, 128, 129, 300):
        t = np.sort(rng.uniform(0, 2 * np.pi, (5, count)), axis=1)
        v = np.stack([3 * np.cos(t), np.sin(t)], axis=-1) + rng.uniform(-100, 100, (5, 1, 2))
        hull = [c2.Polygon(p).vertices for p in v if _strictly_convex(p)]
        if not hull:
            continue
        radius = rng.uniform(0.1, 1.0, len(hull))
        batch = c2.Polygon(np.stack(hull), radius=radius)
        got = batch.area
        for k, p in enumerate(hull):
            q = np.roll(p, -1, axis=0)
            d, e = p - p[0], q - p[0]
            core = 0.5 * float(np.sum(d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]))
            perimeter = float(np.sum(np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])))
            expected = core + perimeter * radius[k] + np.pi * radius[k] * radius[k]
            assert got[k] == expected and batch[k].area == expected
            exact = sum(Fraction(float(a)) * Fraction(float(b2)) - Fraction(float(b1)) * Fraction(float(a2))
                        for (a, b1), (a2, b2) in zip(p, q)) / 2
            assert abs(core - float(exact)) <= 8 * 2.0**-53 * count * float(np.abs(p).max()) ** 2
    capsules = c2.Capsule(rng.uniform(-5, 5, (4, 2)), rng.uniform(-5, 5, (4, 2)), [0.5, 0.0, 1.0, 2.0])
    ends = capsules.b - capsules.a
    np.testing.assert_array_equal(capsules.area, 2.0 * np.hypot(ends[:, 0], ends[:, 1]) * capsules.radius
                                  + np.pi * capsules.radius * capsules.radius)


def _strictly_convex(p):
    e = np.roll(p, -1, axis=0) - p
    f = np.roll(e, -1, axis=0)
    return bool(np.all(e[:, 0] * f[:, 1] - e[:, 1] * f[:, 0] > 0))


def test_capsule_against_a_far_larger_ellipse_batch():
    """A capsule of size 1 against an ellipse of size 1e149 in a batch: the pair is decided (it
    raised ZeroDivisionError from the ellipse contact kernel before) and agrees with an exact
    reference. The ellipse lies in the disc of radius its major semi-axis about its centre, whose
    distance from the capsule's core (Fractions) exceeds that radius plus the capsule's."""
    capsule = c2.Capsule((-1.0, 0.0), (1.0, 0.0), 2.0)
    center, radii = (3.1408848339220775e149, 8.277637710192877e149), (7.934172840733272e149, 4.277544965850097e149)
    ellipse = c2.Ellipse(center, radii, 1.048939608659783)
    cx, cy = (Fraction(v) for v in center)
    foot = min(max(cx, Fraction(-1)), Fraction(1))  # the nearest point of the core, on the x axis
    assert (cx - foot) ** 2 + cy**2 > (Fraction(radii[0]) + 2) ** 2  # so the exact relation is DISJOINT
    near = c2.Ellipse([(0.0, 0.0), center], [(1.0, 0.5), radii], [0.0, 1.048939608659783])
    for a, b, swapped in ((capsule, near, False), (near, capsule, True)):
        codes = c2.relate(a, b)
        assert codes[1] == c2.Relation.DISJOINT and not c2.intersects(a, b)[1]
        assert codes[0] == (c2.Relation.WITHIN if swapped else c2.Relation.CONTAINS)
