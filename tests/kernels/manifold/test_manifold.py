"""contact_manifold (``_kernels/manifold``): up to two contact points per pair.

Oracles, independent of the kernels:

* exact clipping in :class:`fractions.Fraction` of the incident edge against the slab of the
  reference edge, on the stored float64 vertices (:func:`exact_clip`), with the separations of the
  clipped points from the reference line in 40-digit mpmath;
* brute force on the exact polygons: every manifold point lies on its shape's boundary (its exact
  distance to the nearest edge, in Fractions and mpmath) and ``points_b - points_a`` is the stated
  separation times the normal;
* Box2D's ``b2CollidePolygons`` (pybox2d, ``box2d`` on PyPI) on random polygon pairs, with its skin
  radius set to 0 (the same geometry) and at its default 0.01 against the kernels' radius slot.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d._kernels.manifold import clip

mpmath.mp.dps = 40
TOL = 1e-12  # agreement asked of points and separations, relative to the scene's size (about 1)


# -- helpers ---------------------------------------------------------------------------------------


def random_polygon(rng, count=None, center=(0.0, 0.0), size=1.0, float32=False):
    """A strictly convex polygon: points at sorted random angles on a rotated ellipse."""
    count = count or int(rng.integers(3, 9))
    while True:
        t = np.sort(rng.uniform(0, 2 * np.pi, count))
        if np.min(np.diff(np.r_[t, t[0] + 2 * np.pi])) > 0.3:
            break
    rx, ry, turn = size * rng.uniform(0.5, 1.5), size * rng.uniform(0.3, 1.0), rng.uniform(0, np.pi)
    x, y = rx * np.cos(t), ry * np.sin(t)
    v = np.stack([x * np.cos(turn) - y * np.sin(turn) + center[0], x * np.sin(turn) + y * np.cos(turn) + center[1]], axis=-1)
    return v.astype(np.float32).astype(np.float64) if float32 else v


def vertex_list(shape):
    """The vertices of a single flat shape as the kernels see them (a segment has two)."""
    if shape._kind == "polygon":
        off, n = int(shape._params[0]), int(shape._params[1])
        return np.array(shape._verts[off : off + n])
    return np.array(shape._params).reshape(-1, 2)


def exact_edge_distance(v, point):
    """Exact squared distance (a Fraction) from ``point`` to the closed boundary of the vertex list ``v``."""
    px, py = (Fraction(float(c)) for c in point)
    best = None
    n = len(v)
    for i in range(n if n > 2 else 1):
        (x0, y0), (x1, y1) = (tuple(Fraction(float(c)) for c in v[i]), tuple(Fraction(float(c)) for c in v[(i + 1) % n]))
        ex, ey = x1 - x0, y1 - y0
        t = ((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey)
        t = min(max(t, Fraction(0)), Fraction(1))
        d = (px - x0 - t * ex) ** 2 + (py - y0 - t * ey) ** 2
        best = d if best is None or d < best else best
    return best


def exact_clip(v1, i1, v2, i2):
    """The incident edge ``v2[i2] -> v2[i2 + 1]`` clipped exactly to the slab of the reference edge
    ``v1[i1] -> v1[i1 + 1]`` (``0 <= e.(x - v11) <= e.e``), as Fraction points (empty if it misses),
    and the separations of those points from the reference line in mpmath."""
    f = lambda p: (Fraction(float(p[0])), Fraction(float(p[1])))  # noqa: E731
    a0, a1 = f(v1[i1]), f(v1[(i1 + 1) % len(v1)])
    b0, b1 = f(v2[i2]), f(v2[(i2 + 1) % len(v2)])
    e = (a1[0] - a0[0], a1[1] - a0[1])
    ee = e[0] ** 2 + e[1] ** 2
    proj = lambda p: e[0] * (p[0] - a0[0]) + e[1] * (p[1] - a0[1])  # noqa: E731
    lo, hi = proj(b1), proj(b0)  # the incident edge runs against the tangent
    if hi < 0 or ee < lo:
        return []
    lerp = lambda s: (b1[0] + s * (b0[0] - b1[0]), b1[1] + s * (b0[1] - b1[1]))  # noqa: E731
    pts = [lerp((0 - lo) / (hi - lo)) if lo < 0 and hi > lo else b1, lerp((ee - lo) / (hi - lo)) if hi > ee and hi > lo else b0]
    norm = mpmath.sqrt(mpmath.mpf(ee.numerator) / ee.denominator)
    seps = [mpmath.mpf((e[1] * (p[0] - a0[0]) - e[0] * (p[1] - a0[1])).numerator) / (e[1] * (p[0] - a0[0]) - e[0] * (p[1] - a0[1])).denominator / norm for p in pts]
    return list(zip(pts, seps))


def nearest_edge(v, u):
    """Index of the edge of the vertex list whose outward normal is nearest to ``u`` (floats)."""
    n = len(v)
    e = np.roll(v, -1, axis=0) - v
    normals = np.stack([e[:, 1], -e[:, 0]], axis=-1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    return int(np.argmax(normals @ u))


def check_boundaries(a, b, m):
    """Brute force on the exact shapes: each point on its boundary, at the stated separation."""
    va, vb = vertex_list(a), vertex_list(b)
    for k in range(m.count):
        assert math.sqrt(exact_edge_distance(va, m.points_a[k])) <= TOL
        assert math.sqrt(exact_edge_distance(vb, m.points_b[k])) <= TOL
        np.testing.assert_allclose(m.points_b[k] - m.points_a[k], m.separations[k] * m.normal, atol=TOL)
    assert abs(math.hypot(*m.normal) - 1.0) < 1e-15
    assert np.isnan(m.separations[m.count :]).all() and np.isnan(m.points_a[m.count :]).all()


def pairs(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        a = c2.Polygon(random_polygon(rng))
        b = c2.Polygon(random_polygon(rng, center=rng.uniform(-1.5, 1.5, 2)))
        out.append((a, b))
    return out


# -- resting faces ---------------------------------------------------------------------------------


@pytest.mark.parametrize("swap", [False, True])
def test_face_to_face_resting_boxes_give_two_points(swap):
    floor, box = c2.Box((0, 0), (4, 1)), c2.Box((1, 1), (2, 2))  # touching along x in [1, 2]
    a, b = (box, floor) if swap else (floor, box)
    m = c2.contact_manifold(a, b)
    assert m.count == 2
    assert m.separations.tolist() == [0.0, 0.0]
    assert m.normal.tolist() == ([0.0, -1.0] if swap else [0.0, 1.0])
    assert sorted(map(tuple, m.points_a.tolist())) == [(1.0, 1.0), (2.0, 1.0)]
    assert sorted(map(tuple, m.points_b.tolist())) == [(1.0, 1.0), (2.0, 1.0)]
    assert c2.contact(a, b).separation == 0.0  # one point is all that contact gives


@pytest.mark.parametrize("swap", [False, True])
def test_resting_rotated_box_segment_and_line(swap):
    box = c2.RotatedBox((0.0, 0.5), (1.0, 0.5), 0.0)
    for floor in (c2.Segment((-3, 0), (3, 0)), c2.Line((0, 0), (1, 0)), c2.Box((-3, -1), (3, 0))):
        a, b = (box, floor) if swap else (floor, box)
        m = c2.contact_manifold(a, b)
        assert m.count == 2, floor
        np.testing.assert_allclose(sorted(m.points_b[:, 0] if not swap else m.points_a[:, 0]), [-1.0, 1.0], atol=1e-15)
        np.testing.assert_allclose(m.separations, [0.0, 0.0], atol=1e-15)
        check_boundaries(a, b, m) if floor._kind != "line" else None


@pytest.mark.parametrize("swap", [False, True])
def test_segment_resting_on_a_line(swap):
    line, segment = c2.Line((0, 1), (2, 0)), c2.Segment((3, 1), (-1, 1))  # lying on it
    a, b = (segment, line) if swap else (line, segment)
    m = c2.contact_manifold(a, b)
    assert m.count == 2 and m.separations.tolist() == [0.0, 0.0]
    ends = m.points_a if swap else m.points_b
    assert sorted(map(tuple, ends.tolist())) == [(-1.0, 1.0), (3.0, 1.0)]
    np.testing.assert_array_equal(m.points_a, m.points_b)


@pytest.mark.parametrize("scale", [2.0**-400, 2.0**400])
def test_extreme_magnitudes_scale_exactly(scale):
    floor, box = c2.RotatedBox((0, -1), (4, 1), 0.0), c2.RotatedBox((1.5, 0.9), (0.5, 1), 0.0)
    m = c2.contact_manifold(floor, box)
    big = c2.contact_manifold(c2.RotatedBox((0, -scale), (4 * scale, scale), 0.0),
                              c2.RotatedBox((1.5 * scale, 0.9 * scale), (0.5 * scale, scale), 0.0))
    assert big.count == m.count == 2
    np.testing.assert_allclose(big.points_a / scale, m.points_a, rtol=1e-15)
    np.testing.assert_allclose(big.separations / scale, m.separations, rtol=1e-14)


def test_a_tilted_box_has_a_speculative_second_point_that_the_margin_drops():
    floor, tilted = c2.Box((-10, -1), (10, 0)), c2.RotatedBox((0, 0.5), (1, 0.5), 0.1)
    m = c2.contact_manifold(floor, tilted)
    assert m.count == 2 and min(m.separations) < 0 < max(m.separations)
    check_boundaries(floor, tilted, m)
    deep = c2.contact_manifold(floor, tilted, margin=0.0)
    assert deep.count == 1 and deep.separations[0] == min(m.separations)
    assert c2.contact_manifold(floor, c2.Box((0, 5), (1, 6)), margin=1.0).count == 0


# -- the clip region and the boundaries, against exact arithmetic -----------------------------------


def test_random_polygon_pairs_against_exact_clipping():
    clipped = 0
    for a, b in pairs(1, 120):
        m = c2.contact_manifold(a, b)
        c = c2.contact(a, b)
        check_boundaries(a, b, m)
        if c.curvature_a != 0.0 and c.curvature_b != 0.0:  # two corners: the contact itself
            assert m.count == 1 and m.separations[0] == c.separation
            continue
        va, vb = vertex_list(a), vertex_list(b)
        ia, ib = nearest_edge(va, c.normal), nearest_edge(vb, -c.normal)
        da = np.dot(c.normal, np.roll(va, -1, 0)[ia] - va[ia])  # ~0 when a's edge is a face
        on_a = c.curvature_a == 0.0
        v1, i1, v2 = (va, ia, vb) if on_a else (vb, ib, va)
        n1 = c.normal if on_a else -c.normal
        i2 = nearest_edge(v2, -n1)
        exact = exact_clip(v1, i1, v2, i2)
        incident = m.points_b if on_a else m.points_a
        if not exact:
            assert m.count == 1 and m.separations[0] == c.separation
            continue
        clipped += 1
        distinct = exact if exact[0][0] != exact[1][0] else exact[:1]
        assert m.count == len(distinct), (da, exact)
        for k, (p, s) in enumerate(distinct):
            np.testing.assert_allclose(incident[k], [float(p[0]), float(p[1])], atol=TOL)
            assert abs(m.separations[k] - float(s)) <= TOL
        # the deepest point is the contact's
        assert abs(min(m.separations[: m.count]) - c.separation) <= TOL
    assert clipped > 40


@pytest.mark.parametrize("kinds", [("segment", "polygon"), ("polygon", "segment"), ("segment", "segment")])
def test_segments_on_the_boundaries(kinds):
    rng = np.random.default_rng(2)
    for _ in range(40):
        shapes = []
        for kind in kinds:
            if kind == "segment":
                p = rng.uniform(-1, 1, 2)
                shapes.append(c2.Segment(p, p + rng.uniform(-2, 2, 2)))
            else:
                shapes.append(c2.Polygon(random_polygon(rng)))
        m = c2.contact_manifold(*shapes)
        assert 1 <= m.count <= 2
        check_boundaries(*shapes, m)


# -- curved pairs, orders, batches -------------------------------------------------------------------


@pytest.mark.parametrize("other", [c2.Box((0, 0), (1, 1)), c2.Segment((0, 0), (2, 1)), c2.Point((0.5, 3)),
                                   c2.Ellipse((0.3, 2), (2, 0.5), 0.3), c2.Line((0, 3), (1, 1))])
def test_curved_and_point_pairs_are_the_contact(other):
    for a, b in [(c2.Circle((0.5, 1.8), 1.0), other), (other, c2.Circle((0.5, 1.8), 1.0)),
                 (c2.Point((0.2, 0.3)), other), (other, c2.Point((0.2, 0.3)))]:
        m, c = c2.contact_manifold(a, b), c2.contact(a, b)
        assert m.count == 1
        assert m.normal.tolist() == c.normal.tolist() and m.separations[0] == c.separation
        assert m.points_a[0].tolist() == c.point_a.tolist() and m.points_b[0].tolist() == c.point_b.tolist()


def test_both_orders_give_the_same_points_and_a_flipped_normal():
    for a, b in pairs(3, 60):
        m, w = c2.contact_manifold(a, b), c2.contact_manifold(b, a)
        assert m.count == w.count
        np.testing.assert_allclose(w.normal, -m.normal, atol=1e-14)
        got = sorted(map(tuple, np.round(w.points_b[: w.count], 9)))
        assert got == sorted(map(tuple, np.round(m.points_a[: m.count], 9)))
        np.testing.assert_allclose(np.sort(w.separations[: w.count]), np.sort(m.separations[: m.count]), atol=TOL)


@pytest.mark.parametrize("margin", [math.inf, 0.0, 0.3])
def test_batch_equals_single(margin):
    rng = np.random.default_rng(4)
    a = c2.RotatedBox(rng.uniform(-1, 1, (30, 2)), rng.uniform(0.2, 1, (30, 2)), rng.uniform(0, 3, 30))
    b = c2.RotatedBox(rng.uniform(-1, 1, (30, 2)), rng.uniform(0.2, 1, (30, 2)), rng.uniform(0, 3, 30))
    for x, y in [(a, b), (b, a), (a, c2.Box((-0.5, -0.5), (0.5, 0.5))), (c2.Segment((0, 0), (1, 0.2)), b),
                 (a, c2.Circle((0, 0), 0.5)), (c2.Line((0, 0), (1, 0)), b), (a, c2.Line((0, 0), (1, 0)))]:
        m = c2.contact_manifold(x, y, margin=margin)
        assert m.count.dtype == np.int64 and m.count.shape == (30,) and m.points_a.shape == (30, 2, 2)
        for k in range(30):
            s = c2.contact_manifold(x[k] if x.shape else x, y[k] if y.shape else y, margin=margin)
            assert s.count == m.count[k]
            np.testing.assert_array_equal(s.points_a, m.points_a[k])
            np.testing.assert_array_equal(s.points_b, m.points_b[k])
            np.testing.assert_array_equal(s.separations, m.separations[k])
            np.testing.assert_array_equal(s.normal, m.normal[k])
    column = c2.Box(rng.uniform(-1, 0, (5, 1, 2)), rng.uniform(0.5, 1, (5, 1, 2)))
    grid = c2.contact_manifold(column, b[:6])  # broadcast (5, 1) against (6,)
    assert grid.count.shape == (5, 6) and grid.points_b.shape == (5, 6, 2, 2)
    assert c2.contact_manifold(a[:0], b[:0]).count.shape == (0,)


def test_bad_input():
    box = c2.Box((0, 0), (1, 1))
    with pytest.raises(TypeError, match="a must be a collide2d shape"):
        c2.contact_manifold((0, 0), box)
    with pytest.raises(TypeError, match="b must be a collide2d shape"):
        c2.contact_manifold(box, "box")
    for bad in (math.nan, "1", None, True):
        with pytest.raises(TypeError, match="margin must be a real number"):
            c2.contact_manifold(box, box, margin=bad)
    with pytest.raises(ValueError, match="do not broadcast"):
        c2.contact_manifold(c2.Point(np.zeros((3, 2))), c2.Point(np.zeros((4, 2))))


def test_rounding_radius_slot_moves_the_points_out():
    box = c2.Box((0, 0), (4, 1))
    other = c2.Box((1, 1.5), (2, 2))
    row = tuple(np.concatenate([[c2.contact(box, other).separation], *c2.contact(box, other)[1:4],
                                [c2.contact(box, other).curvature_a, c2.contact(box, other).curvature_b]]).tolist())
    r = clip.manifold_polygon_polygon(box._params, box._verts, other._params, other._verts, row, 0.1, 0.2, math.inf)
    assert r[0] == 2.0 and r[3] == pytest.approx(0.2) and r[8] == pytest.approx(0.2)
    assert r[5] == pytest.approx(1.1) and r[7] == pytest.approx(1.3)  # on the rounded faces


# -- Box2D ------------------------------------------------------------------------------------------


def _box2d_incident_points(box2d, va, vb, radius):
    """Box2D v2.3's manifold of two polygons at identity transforms: the incident points (the
    clipped points of the incident face whose separation is within the skin radii) and the
    reference normal, a's outward face normal or b's turned to point from a to b."""
    pa, pb = box2d.b2PolygonShape(vertices=va.tolist()), box2d.b2PolygonShape(vertices=vb.tolist())
    pa.radius = pb.radius = radius
    xf = box2d.b2Transform()
    xf.SetIdentity()
    m = box2d.b2Manifold()
    box2d.b2CollidePolygons(m, pa, xf, pb, xf)
    points = np.array([tuple(p.localPoint) for p in m.points][: m.pointCount]).reshape(-1, 2)
    normal = np.array(tuple(m.localNormal)) * (1.0 if m.type_ == box2d.b2Manifold.e_faceA else -1.0)
    return m.pointCount, m.type_ == box2d.b2Manifold.e_faceA, points, normal


def _face_separations(v1, v2):
    """The separation of ``v2`` from ``v1`` along each of ``v1``'s unit edge normals, and the normals."""
    e = np.roll(v1, -1, 0) - v1
    n = np.stack([e[:, 1], -e[:, 0]], -1) / np.hypot(e[:, 0], e[:, 1])[:, None]
    return ((v2[None, :, :] - v1[:, None, :]) * n[:, None, :]).sum(-1).min(1), n


@pytest.mark.parametrize("radius", [0.0, 0.01])
def test_random_polygon_pairs_against_box2d(radius):
    """The same geometry (float32-exact vertices; Box2D's skin radius 0, or 0.01 on both sides
    against the kernels' radius slot). Box2D v2.3 (pybox2d) differs from v3, whose definition
    collide2d follows, in two documented ways: its reference face is not always the best separating
    axis (a biased comparison of a's and b's axes, and a search that can stop at a local maximum),
    and it widens the side planes by the skin radii, so clipped points slide along the incident
    edge by at most the sum of the radii."""
    box2d = pytest.importorskip("Box2D", reason="pybox2d is not installed (pip install box2d)")
    rng = np.random.default_rng(5)
    same = other_face = 0
    for _ in range(150):
        va = random_polygon(rng, float32=True)
        vb = random_polygon(rng, center=rng.uniform(-1.2, 1.2, 2).astype(np.float32), float32=True)
        a, b = c2.Polygon(va), c2.Polygon(vb)
        count, face_a, points, normal = _box2d_incident_points(box2d, va, vb, radius)
        c = c2.contact(a, b)
        row = (c.separation, *c.normal.tolist(), *c.point_a.tolist(), *c.point_b.tolist(), c.curvature_a, c.curvature_b)
        r = clip.manifold_polygon_polygon(a._params, a._verts, b._params, b._verts, row, radius, radius, 0.0)
        ours = int(r[0])
        if count and np.abs(np.array(r[1:3]) - normal).max() > 1e-5:
            # Box2D took another reference face: never a better separating axis than ours
            sep_a, n_a = _face_separations(va, vb)
            sep_b, n_b = _face_separations(vb, va)
            theirs = sep_a[np.argmax(n_a @ normal)] if face_a else sep_b[np.argmax(n_b @ -normal)]
            assert theirs <= max(sep_a.max(), sep_b.max()) + 1e-6
            other_face += 1
            continue
        if (count == 0) != (ours == 0):  # Box2D v2.3 drops a clip with fewer than two points
            other_face += 1
            continue
        if count == 0:
            continue
        if count != ours:  # a widened side plane let a second point in (or kept one out)
            assert radius > 0
            continue
        same += 1
        incident = np.array([r[6:8], r[11:13]] if face_a else [r[4:6], r[9:11]])[:ours]
        incident += (radius * normal) if face_a else (-radius * normal)  # back onto the core polygon
        tangent = np.array([-normal[1], normal[0]])
        for p in incident:
            q = points[np.argmin(np.abs(points - p).max(axis=1))]
            if radius == 0:
                assert np.abs(q - p).max() < 1e-5  # float32 rounding of Box2D
            else:  # the side plane moved by the radii: the clipped point slides along the incident edge
                assert abs(np.dot(q - p, tangent)) <= 2 * radius + 1e-5
    assert same >= 60 and other_face <= same // 5


# -- a short face against a long one (mixed magnitudes) -----------------------------------------------


def _mixed_scenes():
    """A small box (axis-aligned or tilted) resting on, or hanging under, a face 1e17 to 1e300
    times longer. Projections taken from the long face's end rounded both ends of the small face to
    one number: one point instead of two, and separations off by an ulp of the long face."""
    for floor_half, box_size in ((1e150, 1.0), (1e150, 1e-150), (1e17, 1.0), (1.0, 1e-150)):
        floor = c2.Box((-floor_half, -floor_half), (floor_half, 0.0))
        ceiling = c2.Box((-floor_half, 0.0), (floor_half, floor_half))
        s = box_size
        yield floor, c2.Box((3 * s, -s / 4), (4 * s, s))  # sunk by a quarter of its height
        yield floor, c2.Polygon([(s, 0.0), (2 * s, s / 8), (1.5 * s, s)])  # tilted: one point touches
        yield c2.Box((-2 * s, -s), (s, s / 2)), ceiling  # the short face is the reference (ties to a)


@pytest.mark.parametrize("swap", [False, True])
def test_a_short_face_on_a_long_one_keeps_both_ends(swap):
    scenes = list(_mixed_scenes())
    for long_or_short, other in scenes:
        a, b = (other, long_or_short) if swap else (long_or_short, other)
        m = c2.contact_manifold(a, b)
        c = c2.contact(a, b)
        va, vb = vertex_list(a), vertex_list(b)
        on_a = c.curvature_a == 0.0 and (c.curvature_b != 0.0 or np.dot(c.normal, _unit_normal(va, nearest_edge(va, c.normal)))
                                         >= np.dot(-c.normal, _unit_normal(vb, nearest_edge(vb, -c.normal))))
        v1, v2 = (va, vb) if on_a else (vb, va)
        n1 = c.normal if on_a else -c.normal
        exact = exact_clip(v1, nearest_edge(v1, n1), v2, nearest_edge(v2, -n1))
        size = min(np.ptp(va, axis=0).min(), np.ptp(vb, axis=0).min())  # the small shape's size
        assert m.count == 2, (a, b, m)
        incident = m.points_b if on_a else m.points_a
        for p, sep in exact:
            k = int(np.argmin(np.abs(incident - [float(p[0]), float(p[1])]).max(axis=1)))
            assert np.abs(incident[k] - [float(p[0]), float(p[1])]).max() <= 1e-15 * size, (a, b, m)
            assert abs(m.separations[k] - float(sep)) <= 1e-15 * size, (a, b, m)
        np.testing.assert_allclose(m.points_b - m.points_a, m.separations[:, None] * m.normal, rtol=0, atol=1e-15 * size)
    # batched: the same answers row by row
    firsts = [x for x, _ in scenes if x._kind == "polygon" and x.__class__ is c2.Box]
    for x, y in scenes[:2]:
        xs = c2.Box(np.broadcast_to(x.min, (3, 2)), np.broadcast_to(x.max, (3, 2)))
        a, b = (y, xs) if swap else (xs, y)
        m, single = c2.contact_manifold(a, b), c2.contact_manifold(*((y, x) if swap else (x, y)))
        assert m.count.tolist() == [2, 2, 2] and firsts
        np.testing.assert_array_equal(m.points_a[1], single.points_a)
        np.testing.assert_array_equal(m.separations[2], single.separations)


def _unit_normal(v, i):
    e = np.roll(v, -1, axis=0)[i] - v[i]
    return np.array([e[1], -e[0]]) / np.hypot(*e)


def test_margin_as_a_zero_dimensional_array():
    """``margin=np.array(0.0)`` (what a reduction such as ``np.max`` of a 0-d input gives back) was
    refused as not a real number; it is the number it holds. Both orders, single and batched."""
    floor, tilted = c2.Box((-10, -1), (10, 0)), c2.RotatedBox((0, 0.5), (1, 0.5), 0.1)
    boxes = c2.RotatedBox([(0, 0.5), (3, 0.5)], (1, 0.5), 0.1)
    for a, b in [(floor, tilted), (tilted, floor), (floor, boxes), (boxes, floor)]:
        for margin in (0.0, 0.05, math.inf, -1.0):
            got, want = c2.contact_manifold(a, b, margin=np.array(margin)), c2.contact_manifold(a, b, margin=margin)
            for x, y in zip(got, want):
                np.testing.assert_array_equal(x, y)
        assert np.all(c2.contact_manifold(a, b, margin=np.array(0.0)).count == 1)  # the raised corner dropped
    for bad in (np.array(True), np.array(math.nan), np.array([0.5]), np.array("1")):
        with pytest.raises(TypeError, match="margin must be a real number"):
            c2.contact_manifold(floor, tilted, margin=bad)


def _resting_pairs(seed, count):
    """Rotated boxes resting face to face on rotated boxes: the same angle (or 1e-13 and 1e-7 off),
    touching, 1e-9 apart or sunk by 1e-9 or 0.05, shifted along the face."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        angle = float(rng.choice([0.0, math.pi / 2, rng.uniform(0, 2 * math.pi)]))
        u = np.array([math.cos(angle), math.sin(angle)])
        up = np.array([-u[1], u[0]])
        ha, hb = rng.uniform(0.5, 1, 2), rng.uniform(0.2, 0.5, 2)
        gap = float(rng.choice([0.0, 1e-9, -1e-9, -0.05]))
        ca = rng.uniform(-0.3, 0.3, 2)
        cb = ca + up * (ha[1] + hb[1] + gap) + u * rng.uniform(-ha[0] - 0.9 * hb[0], ha[0] + 0.9 * hb[0])
        turn = float(rng.choice([0.0, 0.0, 1e-13, -1e-7]))
        yield c2.RotatedBox(ca, ha, angle), c2.RotatedBox(cb, hb, angle + turn)


@pytest.mark.parametrize("swap", [False, True])
def test_resting_rotated_boxes_against_exact_clipping(swap):
    pairs_ = [(b, a) if swap else (a, b) for a, b in _resting_pairs(6, 60)]
    for a, b in pairs_:
        m, c = c2.contact_manifold(a, b), c2.contact(a, b)
        check_boundaries(a, b, m)
        va, vb = vertex_list(a), vertex_list(b)
        ia, ib = nearest_edge(va, c.normal), nearest_edge(vb, -c.normal)
        nearer = np.dot(c.normal, _unit_normal(va, ia)) - np.dot(-c.normal, _unit_normal(vb, ib))
        # the face whose normal is nearer to n (ties to a); within rounding of a tie, either face
        errors = []
        for on_a in {nearer >= 0, nearer > -1e-12} | {nearer >= 1e-12}:
            v1, i1, v2 = (va, ia, vb) if on_a else (vb, ib, va)
            exact = exact_clip(v1, i1, v2, nearest_edge(v2, -(c.normal if on_a else -c.normal)))
            assert len(exact) == 2 and exact[0][0] != exact[1][0]
            incident = m.points_b if on_a else m.points_a
            error = 0.0
            for p, sep in exact:  # as a set: the order follows the reference face's tangent
                k = int(np.argmin(np.abs(incident - [float(p[0]), float(p[1])]).max(axis=1)))
                error = max(error, np.abs(incident[k] - [float(p[0]), float(p[1])]).max(), abs(m.separations[k] - float(sep)))
            errors.append(error)
        assert m.count == 2 and min(errors) <= 4e-16, (a, b, m, errors)
    # batched, both orders in one call: row k is the single answer bit for bit
    first = c2.RotatedBox(*(np.array([getattr(a, f) for a, _ in pairs_]) for f in ("center", "half_size", "angle")))
    second = c2.RotatedBox(*(np.array([getattr(b, f) for _, b in pairs_]) for f in ("center", "half_size", "angle")))
    batch = c2.contact_manifold(first, second)
    for k in (0, 17, 59):
        single = c2.contact_manifold(first[k], second[k])
        for x, y in zip(single, batch):
            np.testing.assert_array_equal(x, y[k])

# -- rounded shapes -------------------------------------------------------------------------------
# Contact manifolds with rounded shapes (capsules, polygons and boxes with a radius).
#
# Definition (:func:`collide2d.contact_manifold`): the manifold of the cores, each point moved out by
# the radii along the normal (Box2D v3's ``b2CollidePolygons`` with ``radius``, ``b2CollideCapsules``).
# Checked against
#
# * the clip kernels on the cores with the radii, bit for bit (the runner adds nothing);
# * brute force on the exact shapes: the reference side's point lies on its rounded boundary (its
#   distance to the core, from Fractions, is the radius within rounding), the incident side's on or
#   inside it, ``points_b - points_a = s n``, and the deepest separation is :func:`collide2d.contact`'s
#   (the rounded pair's own, exact-sign contact);
# * Box2D v2.3 (pybox2d) on random rounded polygon pairs, where its skin radius is our radius;
# * both orders (the normal flips, the points swap), single and batched, mixed radii in one batch.


def _core(shape):
    """The core vertices of a single rounded shape (a segment: its two ends) and its radius."""
    if isinstance(shape, c2.Capsule):
        return np.array([shape.a, shape.b], dtype=float), float(shape.radius)
    if isinstance(shape, c2.RotatedBox):
        return np.array(c2.RotatedBox(shape.center, shape.half_size, shape.angle).corners, dtype=float), float(shape.radius)
    return np.array(shape.vertices, dtype=float), float(shape.radius)


def _distance_to_core(v, point):
    """Distance from ``point`` to the closed convex set of the vertex list ``v`` (1, 2 or n points),
    from exact squared distances (Fractions) to its boundary, 0 inside."""
    p = [Fraction(float(c)) for c in point]
    v = [[Fraction(float(c)) for c in q] for q in v]
    n = len(v)
    if n >= 3:  # inside: every edge turns left of the point
        if all((v[(i + 1) % n][0] - v[i][0]) * (p[1] - v[i][1]) - (v[(i + 1) % n][1] - v[i][1]) * (p[0] - v[i][0]) >= 0
               for i in range(n)):
            return 0.0
    best = None
    for i in range(n if n > 2 else 1):
        a, b = v[i], v[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        ee = ex * ex + ey * ey
        t = 0 if ee == 0 else min(1, max(0, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / ee))
        dx, dy = p[0] - a[0] - t * ex, p[1] - a[1] - t * ey
        d2 = dx * dx + dy * dy
        best = d2 if best is None else min(best, d2)
    return math.sqrt(best)


def _scenes(rng, count):
    """Random pairs of rounded shapes near each other: polygons, boxes, capsules (both with radii)."""
    pairs = []
    for _ in range(count):
        ra, rb = rng.uniform(0.02, 0.3, 2)
        va = random_polygon(rng)
        vb = random_polygon(rng, center=rng.uniform(-1.6, 1.6, 2))
        kind = rng.integers(3)
        if kind == 0:
            a, b = c2.Polygon(va, radius=ra), c2.Polygon(vb, radius=rb)
        elif kind == 1:
            a = c2.Polygon(va, radius=ra)
            b = c2.Capsule(vb[0], vb[1], rb)
        else:
            a = c2.Capsule(va[0], va[2], ra)
            b = c2.RotatedBox(vb[0], rng.uniform(0.2, 1.0, 2), rng.uniform(-3, 3), radius=rb)
        pairs.append((a, b))
    return pairs


def test_the_manifold_is_the_clip_kernel_on_the_cores_bit_for_bit():
    floor = c2.Box((-10, -1), (10, 0), radius=0.05)
    capsule = c2.Capsule((-1, 0.3), (1, 0.31), 0.25)
    m = c2.contact_manifold(floor, capsule)
    cores = c2.Box((-10, -1), (10, 0)), c2.Segment((-1, 0.3), (1, 0.31))
    c = c2.contact(*cores)
    row = (c.separation, *c.normal.tolist(), *c.point_a.tolist(), *c.point_b.tolist(), c.curvature_a, c.curvature_b)
    r = clip.manifold_polygon_segment(cores[0]._params, cores[0]._verts, cores[1]._params, cores[1]._verts,
                                      row, 0.05, 0.25, math.inf)
    assert m.count == int(r[0]) == 2
    np.testing.assert_array_equal(m.normal, r[1:3])
    np.testing.assert_array_equal(m.separations, [r[3], r[8]])
    np.testing.assert_array_equal(m.points_a, [r[4:6], r[9:11]])
    np.testing.assert_array_equal(m.points_b, [r[6:8], r[11:13]])


def test_a_capsule_lying_on_a_rounded_floor_touches_at_both_ends():
    floor = c2.Box((-10, -1), (10, 0), radius=0.5)
    capsule = c2.Capsule((-1, 0.75), (1, 0.75), 0.25)  # exactly touching: 0.75 = 0.5 + 0.25
    m = c2.contact_manifold(floor, capsule)
    assert m.count == 2 and m.normal.tolist() == [0.0, 1.0] and m.separations.tolist() == [0.0, 0.0]
    assert sorted(m.points_a[:, 0].tolist()) == [-1.0, 1.0] and m.points_a[:, 1].tolist() == [0.5, 0.5]
    np.testing.assert_array_equal(m.points_a, m.points_b)
    sunk = c2.contact_manifold(floor, c2.Capsule((-1, 0.7), (1, 0.7), 0.25), margin=0.0)
    assert sunk.count == 2 and sunk.separations == pytest.approx([-0.05, -0.05], abs=1e-15)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_rounded_pairs_against_brute_force_both_orders(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for a, b in _scenes(rng, 40):
        m = c2.contact_manifold(a, b)
        back = c2.contact_manifold(b, a)
        assert back.count == m.count
        np.testing.assert_array_equal(back.normal, -m.normal)
        if m.count == 0:
            continue
        (core_a, r_a), (core_b, r_b) = _core(a), _core(b)
        for k in range(m.count):
            pa, pb, s = m.points_a[k], m.points_b[k], m.separations[k]
            np.testing.assert_allclose(pb - pa, s * m.normal, atol=1e-12)
            # the reference side's point is on its rounded boundary (the foot on the core face moved
            # out by the radius); the incident side's is the clipped core point moved by the radius
            # along the reference normal: on the boundary when the faces are parallel, else inside
            gap_a, gap_b = _distance_to_core(core_a, pa) - r_a, _distance_to_core(core_b, pb) - r_b
            assert min(abs(gap_a), abs(gap_b)) < 1e-12 and max(gap_a, gap_b) < 1e-12
            if m.count == 1:
                assert abs(gap_a) < 1e-12 and abs(gap_b) < 1e-12
        assert sorted(back.separations[: m.count].tolist()) == pytest.approx(sorted(m.separations[: m.count].tolist()), abs=1e-14)
        c = c2.contact(a, b)
        if m.count == 2 or c.curvature_a == 0.0 or c.curvature_b == 0.0:
            # the deepest point of a face contact is the pair's own contact
            assert min(m.separations[: m.count]) == pytest.approx(c.separation, abs=1e-12)
        checked += 1
    assert checked >= 25


def test_batches_with_mixed_radii_equal_single_calls_bit_for_bit():
    rng = np.random.default_rng(3)
    va = np.stack([random_polygon(rng, count=4) for _ in range(6)])
    vb = np.stack([random_polygon(rng, count=4, center=rng.uniform(-1.5, 1.5, 2)) for _ in range(6)])
    a = c2.Polygon(va, radius=[0.1, 0.0, 0.2, 0.05, 0.0, 0.3])
    b = c2.Capsule(vb[:, 0], vb[:, 2], [0.0, 0.2, 0.1, 0.0, 0.3, 0.05])
    for x, y in ((a, b), (b, a)):
        m = c2.contact_manifold(x, y, margin=0.5)
        for k in range(6):
            one = c2.contact_manifold(x[k], y[k], margin=0.5)
            assert int(m.count[k]) == one.count
            for field in ("normal", "separations", "points_a", "points_b"):
                np.testing.assert_array_equal(getattr(m, field)[k], getattr(one, field))
    # radius 0 rows are the plain shapes' manifolds
    plain = c2.contact_manifold(c2.Polygon(va[1]), c2.Segment(vb[1, 0], vb[1, 2]))
    rounded = c2.contact_manifold(a[1], c2.Capsule(vb[1, 0], vb[1, 2], 0.0))
    np.testing.assert_array_equal(plain.points_a, rounded.points_a)


def test_curved_partners_get_the_contact_point():
    capsule = c2.Capsule((0, 0), (2, 0), 0.5)
    for other in (c2.Circle((1, 2), 1.0), c2.Ellipse((1, -2), (2, 1), 0.3), c2.Point((1, 1))):
        for x, y in ((capsule, other), (other, capsule)):
            m, c = c2.contact_manifold(x, y), c2.contact(x, y)
            assert m.count == 1 and m.separations[0] == c.separation
            np.testing.assert_array_equal(m.normal, c.normal)
            np.testing.assert_array_equal(m.points_a[0], c.point_a)


def test_rounded_polygon_pairs_against_box2d():
    """Box2D v2.3's ``b2CollidePolygons`` with the skin radius set to our radius: its points are the
    incident core vertices clipped by side planes widened by the radii; ours, moved back onto the
    core, lie on the same incident edge within the radii's sum (as in test_manifold's comparison)."""
    box2d = pytest.importorskip("Box2D", reason="pybox2d is not installed (pip install box2d)")
    rng = np.random.default_rng(9)
    radius = 0.03
    same = 0
    for _ in range(80):
        va = random_polygon(rng, float32=True)
        vb = random_polygon(rng, center=rng.uniform(-1.2, 1.2, 2).astype(np.float32), float32=True)
        m = c2.contact_manifold(c2.Polygon(va, radius=radius), c2.Polygon(vb, radius=radius), margin=0.0)
        count, face_a, points, normal = _box2d_incident_points(box2d, va, vb, radius)
        if count == 0 or m.count != count or np.abs(m.normal - normal).max() > 1e-5:
            continue  # another reference face or a widened side plane (see test_manifold)
        incident = (m.points_b if face_a else m.points_a)[: m.count] + (radius if face_a else -radius) * normal
        tangent = np.array([-normal[1], normal[0]])
        for p in incident:
            q = points[np.argmin(np.abs(points - p).max(axis=1))]
            assert abs(np.dot(q - p, tangent)) <= 2 * radius + 1e-5
        same += 1
    assert same >= 20
