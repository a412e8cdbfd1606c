"""Rounded shapes in motion: translate, rotate, raycast, time_of_impact and query_impacts of
capsules and rounded polygons, boxes and rotated boxes, against independent references.

References (mpmath at 30 digits, or exact rationals):

* **ray casts**: the rounded shape is the union of the discs about its core's vertices and the
  rectangles of its edges (each edge swept along its normal by ``+-r``); the first point of the ray
  in it is the least of the ray's first hits on those discs (the smaller root of a quadratic) and
  on the outer offset segments (a linear equation, kept when the hit lies within the edge), or 0
  from inside;
* **time of impact**: the separation ``dist(core_a, core_b) - r_a - r_b`` of the moved cores
  (vertex-to-edge distances, exact in mpmath), sampled densely from 0 and bisected at its first
  sign change; a capsule against a circle in translation is a quadratic in closed form.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2

mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mp.dps = 30
mpf = mp.mpf


# -- cores ---------------------------------------------------------------------------------------------


def _core(shape):
    """The core vertices (counter-clockwise for a polygon) and radius of a single rounded shape."""
    if isinstance(shape, c2.Capsule):
        a, b = (tuple(map(float, shape.a)), tuple(map(float, shape.b)))
        return ([a] if a == b else [a, b]), float(shape.radius)
    r = float(getattr(shape, "radius", 0.0))
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = map(tuple, (shape.min, shape.max))
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], r
    if isinstance(shape, c2.RotatedBox):
        return [tuple(map(float, v)) for v in c2.RotatedBox(shape.center, shape.half_size, shape.angle).corners], r
    return [tuple(map(float, v)) for v in shape.vertices], r


def _shapes(rng):
    """Random rounded shapes of every core: a capsule, a disc (a == b), rounded boxes, rotated boxes
    and triangles."""
    c = rng.uniform(-2, 2, 2)
    r = float(rng.uniform(0.05, 1.0))
    yield c2.Capsule(tuple(c), tuple(c + rng.uniform(-2, 2, 2)), r)
    yield c2.Capsule(tuple(c), tuple(c), r)
    yield c2.Box(tuple(c), tuple(c + rng.uniform(0.1, 2, 2)), radius=r)
    yield c2.RotatedBox(tuple(c), tuple(rng.uniform(0.1, 1.5, 2)), float(rng.uniform(-3, 3)), radius=r)
    p = rng.uniform(-1, 1, (3, 2))
    e, f = p[1] - p[0], p[2] - p[0]
    if abs(e[0] * f[1] - e[1] * f[0]) > 0.1:
        yield c2.Polygon(p + c, radius=r)


# -- ray casts -----------------------------------------------------------------------------------------


def _ray_reference(vertices, r, origin, direction):
    """First distance (along the unit direction) of the ray in the rounded shape, in mpmath (inf: a miss)."""
    o = [mpf(x) for x in origin]
    length = mp.sqrt(mpf(direction[0]) ** 2 + mpf(direction[1]) ** 2)
    u = [mpf(direction[0]) / length, mpf(direction[1]) / length]
    v = [[mpf(x) for x in p] for p in vertices]
    r = mpf(r)
    n = len(v)

    def dist_to_core(p):
        best = min(mp.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) for q in v)
        for i in range(n if n > 2 else n - 1):
            a, b = v[i], v[(i + 1) % n]
            e = [b[0] - a[0], b[1] - a[1]]
            s = ((p[0] - a[0]) * e[0] + (p[1] - a[1]) * e[1]) / (e[0] ** 2 + e[1] ** 2)
            if 0 <= s <= 1:
                best = min(best, mp.sqrt((p[0] - a[0] - s * e[0]) ** 2 + (p[1] - a[1] - s * e[1]) ** 2))
        if n >= 3 and all((v[(i + 1) % n][0] - v[i][0]) * (p[1] - v[i][1]) - (v[(i + 1) % n][1] - v[i][1]) * (p[0] - v[i][0]) >= 0
                          for i in range(n)):
            return mpf(0)
        return best

    if dist_to_core(o) <= r:
        return mpf(0)
    best = mp.inf
    for q in v:  # the discs
        w = [o[0] - q[0], o[1] - q[1]]
        b = u[0] * w[0] + u[1] * w[1]
        disc = b * b - (w[0] ** 2 + w[1] ** 2 - r * r)
        if disc >= 0 and -b - mp.sqrt(disc) >= 0:
            best = min(best, -b - mp.sqrt(disc))
    for i in range(n if n > 2 else (2 if n == 2 else 0)):  # the outer offset segments (both sides of a segment)
        a, b = v[i], v[(i + 1) % n]
        e = [b[0] - a[0], b[1] - a[1]]
        le = mp.sqrt(e[0] ** 2 + e[1] ** 2)
        m = [e[1] / le, -e[0] / le]
        rate = u[0] * m[0] + u[1] * m[1]
        if rate < 0:
            t = ((o[0] - a[0]) * m[0] + (o[1] - a[1]) * m[1] - r) / -rate
            p = [o[0] + t * u[0] - r * m[0], o[1] + t * u[1] - r * m[1]]
            s = ((p[0] - a[0]) * e[0] + (p[1] - a[1]) * e[1]) / le**2
            if t >= 0 and 0 <= s <= 1:
                best = min(best, t)
    return best


def test_raycast_random_rays_against_mpmath():
    rng = np.random.default_rng(7)
    worst = 0.0
    hits = misses = 0
    for _ in range(12):
        for shape in _shapes(rng):
            vertices, r = _core(shape)
            size = max(max(abs(x) for p in vertices for x in p), r)
            origins = rng.uniform(-6, 6, (8, 2))
            targets = np.array(vertices)[rng.integers(0, len(vertices), 8)] + rng.normal(0, r, (8, 2))
            directions = targets - origins
            batch = c2.raycast(shape, origins, directions)
            for k in range(8):
                single = c2.raycast(shape, tuple(origins[k]), tuple(directions[k]))
                assert single.distance == batch.distance[k] and np.array_equal(single.point, batch.point[k], equal_nan=True)
                expected = _ray_reference(vertices, r, origins[k], directions[k])
                if expected == mp.inf:
                    assert single.distance == math.inf
                    misses += 1
                    continue
                hits += 1
                error = abs(mpf(single.distance) - expected) / (expected + size)
                worst = max(worst, float(error))
                # the point on the boundary, the normal the boundary's there
                p = single.point
                if single.distance > 0:
                    assert abs(float(_distance_to(vertices, p)) - r) <= 1e-13 * (size + single.distance)
                    assert abs(np.hypot(*single.normal) - 1.0) < 1e-15
                    np.testing.assert_allclose(single.normal, _normal_at(vertices, p), atol=1e-7)
    assert worst < 1e-15 and hits > 150 and misses > 20, (worst, hits, misses)  # measured 4.4e-16


def _distance_to(vertices, p):
    return _nearest(vertices, p)[0]


def _nearest(vertices, p):
    v = np.array(vertices, dtype=float)
    best, foot = np.inf, v[0]
    n = len(v)
    for i in range(n if n > 2 else n):
        a, b = v[i], v[(i + 1) % n]
        e = b - a
        s = np.clip(np.dot(p - a, e) / np.dot(e, e), 0, 1) if np.dot(e, e) > 0 else 0.0
        q = a + s * e
        if np.hypot(*(p - q)) < best:
            best, foot = np.hypot(*(p - q)), q
    return best, foot


def _normal_at(vertices, p):
    _, foot = _nearest(vertices, np.asarray(p))
    d = np.asarray(p) - foot
    return d / np.hypot(*d)


def test_raycast_grazing_rays_are_decided_exactly():
    """Rays tangent to an arc or running along a flat hit; the next float beyond misses."""
    disc = c2.Capsule((0.0, 0.0), (0.0, 0.0), 5.0)
    # the tangent 3x + 4y = 25 at (3, 4), from (-1, 7) along (4, -3): a hit at (3, 4), distance 5
    hit = c2.raycast(disc, (-1.0, 7.0), (4.0, -3.0))
    assert hit.distance == 5.0 and hit.point.tolist() == [3.0, 4.0] and hit.normal.tolist() == [0.6, 0.8]
    assert c2.raycast(disc, (-1.0, math.nextafter(7.0, 8.0)), (4.0, -3.0)).distance == math.inf
    assert c2.raycast(disc, (-1.0, math.nextafter(7.0, 6.0)), (4.0, -3.0)).distance < 5.0
    cap = c2.Capsule((0.0, 0.0), (2.0, 0.0), 0.5)
    for y, expected in [(0.5, 3.0), (math.nextafter(0.5, 1.0), math.inf), (-0.5, 3.0), (math.nextafter(-0.5, -1.0), math.inf)]:
        assert c2.raycast(cap, (-3.0, y), (1.0, 0.0)).distance == expected
        back = c2.raycast(cap, (5.0, y), (-1.0, 0.0)).distance  # from the other end: the arc about (2, 0)
        assert back == (3.0 if expected == 3.0 else math.inf)
    box = c2.Box((0.0, 0.0), (1.0, 1.0), radius=0.25)
    assert c2.raycast(box, (-1.0, 1.25), (1.0, 0.0)).point.tolist() == [0.0, 1.25]  # along the top flat: its first end
    assert c2.raycast(box, (2.0, 1.25), (-1.0, 0.0)).point.tolist() == [1.0, 1.25]
    assert c2.raycast(box, (-1.0, math.nextafter(1.25, 2.0)), (1.0, 0.0)).distance == math.inf
    # on the boundary and inside; pointing away; through a flat exactly at its end (a join)
    assert c2.raycast(box, (0.5, 1.25), (0.0, 1.0)) [0] == 0.0 and c2.raycast(box, (0.5, 1.25), (0.0, 1.0)).normal.tolist() == [0.0, 1.0]
    inside = c2.raycast(box, (0.5, 0.5), (1.0, 0.0))
    assert inside.distance == 0.0 and np.isnan(inside.normal).all()
    assert c2.raycast(box, (3.0, 0.5), (1.0, 0.0)).distance == math.inf
    join = c2.raycast(box, (1.0, 3.0), (0.0, -1.0))
    assert join.distance == 1.75 and join.normal.tolist() == [0.0, 1.0]


def test_raycast_far_and_tiny():
    """Magnitudes 1e-150 .. 1e150: the same answers scaled (the exact rung decides out of range)."""
    cap = c2.Capsule((0.0, 0.0), (2.0, 0.0), 0.5)
    base = c2.raycast(cap, (-3.0, 0.25), (1.0, 0.0))
    for s in (2.0**-480, 2.0**-200, 2.0**200, 2.0**480):
        scaled = c2.raycast(c2.Capsule((0.0, 0.0), (2 * s, 0.0), 0.5 * s), (-3 * s, 0.25 * s), (1.0, 0.0))
        assert scaled.distance == pytest.approx(base.distance * s, rel=1e-15)
        assert c2.raycast(c2.Capsule((0.0, 0.0), (2 * s, 0.0), 0.5 * s), (-3 * s, 0.5 * s), (1.0, 0.0)).distance == 3 * s
        assert c2.raycast(c2.Capsule((0.0, 0.0), (2 * s, 0.0), 0.5 * s), (-3 * s, math.nextafter(0.5 * s, math.inf)), (1.0, 0.0)).distance == math.inf


# -- time of impact --------------------------------------------------------------------------------------


def _partner_core(shape):
    """Core vertices, radius and reference point of any single shape the references take: the
    rounded kinds, circles, points, segments, boxes, rotated boxes and polygons."""
    if isinstance(shape, (c2.Capsule,)) or getattr(shape, "radius", None) is not None and not isinstance(shape, c2.Circle):
        vertices, r = _core(shape)
    elif isinstance(shape, c2.Circle):
        vertices, r = [tuple(map(float, shape.center))], float(shape.radius)
    elif isinstance(shape, c2.Point):
        vertices, r = [tuple(map(float, shape.xy))], 0.0
    elif isinstance(shape, c2.Segment):
        vertices, r = [tuple(map(float, shape.start)), tuple(map(float, shape.end))], 0.0
    else:
        vertices, r = _core(shape)
        r = 0.0
    if isinstance(shape, c2.Box):
        ref = tuple((Fraction(a) + Fraction(b)) / 2 for a, b in zip(shape.min, shape.max))
    elif isinstance(shape, c2.RotatedBox):
        ref = tuple(map(Fraction, shape.center))
    elif len(vertices) <= 2:
        ref = tuple((Fraction(p[k]) + Fraction(vertices[-1][k])) / 2 for p in vertices[:1] for k in range(2))
    else:  # the area centroid of the polygon (shoelace, exact)
        v = [tuple(map(Fraction, p)) for p in vertices]
        area = sum(v[i][0] * v[(i + 1) % len(v)][1] - v[(i + 1) % len(v)][0] * v[i][1] for i in range(len(v))) / 2
        ref = tuple(sum((v[i][k] + v[(i + 1) % len(v)][k]) * (v[i][0] * v[(i + 1) % len(v)][1] - v[(i + 1) % len(v)][0] * v[i][1])
                        for i in range(len(v))) / (6 * area) for k in range(2))
    return vertices, r, tuple(float(x) for x in ref)


def _moved_core(vertices, ref, v, w, t, num):
    """The core at time ``t``: turned by ``w t`` about ``ref``, shifted by ``v t`` (``num`` numpy or mpmath)."""
    c, s = (num.cos(w * t), num.sin(w * t))
    return [(ref[0] + c * (x - ref[0]) - s * (y - ref[1]) + v[0] * t, ref[1] + s * (x - ref[0]) + c * (y - ref[1]) + v[1] * t)
            for x, y in vertices]


def _core_distance(a, b, num):
    """Distance of two disjoint convex cores (vertex lists; ``num`` numpy or mpmath): the least
    distance of a vertex of one to an edge (or the vertex) of the other."""
    best = None

    def point_to(p, poly):
        n = len(poly)
        d = min(num.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) for q in poly)
        for i in range(n if n > 2 else n - 1):
            q0, q1 = poly[i], poly[(i + 1) % n]
            ex, ey = q1[0] - q0[0], q1[1] - q0[1]
            s = ((p[0] - q0[0]) * ex + (p[1] - q0[1]) * ey) / (ex * ex + ey * ey)
            if 0 <= s <= 1:
                d = min(d, abs(ex * (p[1] - q0[1]) - ey * (p[0] - q0[0])) / num.sqrt(ex * ex + ey * ey))
        return d

    for p in a:
        d = point_to(p, b)
        best = d if best is None else min(best, d)
    for p in b:
        best = min(best, point_to(p, a))
    return best


def _toi_reference(a, b, va, vb, wa, wb, t_max, samples=64):
    """First time the moved cores of ``a`` and ``b`` are ``r_a + r_b`` apart (inf: never within
    ``t_max``): a float scan for the first sample below, then bisection in mpmath."""
    (ca, ra, refa), (cb, rb, refb) = _partner_core(a), _partner_core(b)

    def sep(t, num):
        return _core_distance(_moved_core(ca, refa, va, wa, t, num), _moved_core(cb, refb, vb, wb, t, num), num) - (ra + rb)

    ts = np.linspace(0.0, t_max, samples + 1)
    values = [sep(t, np) for t in ts]
    below = [k for k, s in enumerate(values) if s <= 0]
    if not below:
        return math.inf
    k = below[0]
    if k == 0:
        return 0.0
    lo, hi = ts[k - 1], ts[k]
    for _ in range(20):  # in floats to 2**-20 of the step (far from the float noise), then in mpmath
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if sep(mid, np) > 0 else (lo, mid)
    to = lambda x: [tuple(map(mpf, p)) for p in x]  # noqa: E731
    ca, cb = to(ca), to(cb)
    refa, refb = tuple(map(mpf, refa)), tuple(map(mpf, refb))
    ra, rb = mpf(ra), mpf(rb)
    lo, hi = mpf(lo), mpf(hi)
    assert sep(lo, mp) > 0 >= sep(hi, mp)
    root = mp.findroot(lambda t: sep(t, mp), (lo, hi), solver="anderson")
    assert lo <= root <= hi and abs(sep(root, mp)) < mpf(10) ** -25
    return float(root)


PARTNERS = {
    "point": lambda: c2.Point((0.3, 0.2)),
    "segment": lambda: c2.Segment((-0.5, -0.4), (0.6, 0.5)),
    "circle": lambda: c2.Circle((0.1, 0.0), 0.7),
    "box": lambda: c2.Box((-0.5, -0.3), (0.4, 0.6)),
    "rotated box": lambda: c2.RotatedBox((0.0, 0.1), (0.6, 0.3), 0.7),
    "polygon": lambda: c2.Polygon([(-0.5, -0.5), (0.7, -0.2), (0.1, 0.6)]),
    "capsule": lambda: c2.Capsule((-0.6, 0.1), (0.5, -0.2), 0.3),
    "disc capsule": lambda: c2.Capsule((0.2, 0.1), (0.2, 0.1), 0.45),
    "rounded box": lambda: c2.Box((-0.4, -0.3), (0.3, 0.5), radius=0.2),
    "rounded rotated box": lambda: c2.RotatedBox((0.0, 0.0), (0.5, 0.2), -0.4, radius=0.25),
    "rounded polygon": lambda: c2.Polygon([(-0.4, -0.4), (0.6, -0.1), (0.0, 0.5)], radius=0.15),
}
ROUNDED = ("capsule", "disc capsule", "rounded box", "rounded rotated box", "rounded polygon")


def _placed(make, offset):
    return c2.translate(make(), offset)


@pytest.mark.parametrize("turning", [False, True], ids=["translation", "turning"])
def test_time_of_impact_every_partner_both_orders_against_mpmath(turning):
    """Each rounded kind against every kind, both orders, single and batched: the time against
    the mpmath reference, the point on both boundaries, the normal of the contact there."""
    rng = np.random.default_rng(11 + turning)
    worst = 0.0
    count = 0
    for k, name_a in enumerate(ROUNDED):
        for j, name_b in enumerate(PARTNERS):
            if turning and (j + k) % 2:  # (turning: every other pair, each kind still against every other)
                continue
            a = PARTNERS[name_a]()
            b = _placed(PARTNERS[name_b], tuple(rng.uniform(2.5, 3.5, 2) * rng.choice([-1, 1], 2)))
            va = tuple(rng.uniform(-0.5, 0.5, 2))
            pa, pb = np.array(c2.motion.reference_points(a)[0]), np.array(c2.motion.reference_points(b)[0])
            vb = tuple((pa - pb) * rng.uniform(0.5, 0.9) + rng.normal(0, 0.3, 2))
            wa, wb = (float(rng.uniform(-2, 2)), float(rng.uniform(-2, 2))) if turning else (0.0, 0.0)
            hit = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=2.0)
            back = c2.time_of_impact(b, a, vb, va, angular_velocity_a=wb, angular_velocity_b=wa, t_max=2.0)
            expected = _toi_reference(a, b, va, vb, wa, wb, 2.0)
            assert math.isinf(hit.time) == math.isinf(expected) == math.isinf(back.time), (name_a, name_b)
            if math.isinf(expected):
                continue
            count += 1
            tol = 1e-9 if turning else 2e-12
            assert abs(hit.time - expected) <= tol and abs(back.time - expected) <= tol, (name_a, name_b, hit.time, back.time, expected)
            worst = max(worst, abs(hit.time - expected), abs(back.time - expected))
            np.testing.assert_allclose(back.normal, -hit.normal, atol=1e-6)
            # the point lies on both boundaries at that time (within the rounding of the moves)
            for shape, v, w, ref in ((a, va, wa, pa), (b, vb, wb, pb)):
                moved = c2.translate(c2.rotate(shape, w * hit.time, origin=tuple(ref)), tuple(np.array(v) * hit.time))
                assert c2.distance(moved, c2.Point(tuple(hit.point))) <= 1e-7
            # batched (the two orders in one call each) gives the same bits
            pair = c2.time_of_impact(a, b, [va, va], [vb, vb], angular_velocity_a=[wa, wa], angular_velocity_b=wb, t_max=2.0)
            assert pair.time.tolist() == [hit.time, hit.time]
    assert count >= (20 if turning else 40), count
    print(f"largest error of the time: {worst:.3g} over {count} hits")


def test_capsule_against_circle_closed_form():
    """A capsule meeting a circle at its end cap in translation: |c + V t - b|^2 = R^2, the smaller
    root exactly (Fractions, one square root in mpmath); both orders, single and batched."""
    cap = c2.Capsule((0.0, 0.0), (2.0, 0.0), 0.5)
    rng = np.random.default_rng(5)
    for _ in range(20):
        c = (float(rng.uniform(4, 6)), float(rng.uniform(-1.2, 1.2)))
        circle = c2.Circle(c, float(rng.uniform(0.2, 1.0)))
        v = (float(rng.uniform(-3, -1)), float(rng.uniform(-0.2, 0.2)))
        d = [Fraction(c[0]) - 2, Fraction(c[1])]
        V = [Fraction(v[0]), Fraction(v[1])]
        R = Fraction(0.5) + Fraction(float(circle.radius))
        qa, qb, qc = V[0] ** 2 + V[1] ** 2, 2 * (d[0] * V[0] + d[1] * V[1]), d[0] ** 2 + d[1] ** 2 - R * R
        disc = qb * qb - 4 * qa * qc
        hit = c2.time_of_impact(cap, circle, (0, 0), v, t_max=5.0)
        if disc < 0:
            assert hit.time == math.inf
            continue
        q = lambda x: mpf(x.numerator) / x.denominator  # noqa: E731
        t = (-q(qb) - mp.sqrt(q(disc))) / (2 * q(qa))
        x = d[0] + V[0] * Fraction(float(t))  # the contact lies on the cap about b: the foot beyond b
        if x < 0:
            continue
        assert abs(hit.time - float(t)) <= 4e-16 * 5, (hit.time, t)
        back = c2.time_of_impact(circle, cap, v, (0, 0), t_max=5.0)
        assert abs(back.time - float(t)) <= 4e-16 * 5
        both = c2.time_of_impact(c2.Capsule([(0.0, 0.0)] * 2, [(2.0, 0.0)] * 2, 0.5), circle, (0, 0), v, t_max=5.0)
        assert both.time.tolist() == [hit.time] * 2


def test_time_of_impact_grazes_and_lines():
    """A capsule passing a box with its flat sliding along an edge at exactly the sum of the
    radii touches; a hair farther it misses; a rounded box dropping onto a line."""
    cap = c2.Capsule((-3.0, 1.5), (-1.0, 1.5), 0.5)
    box = c2.Box((0.0, 0.0), (1.0, 1.0))
    # the cap about (-1, 1.5) grazes the corner (0, 1) at t = 1, then the bottom flat slides along the top edge
    assert c2.time_of_impact(cap, box, (1.0, 0.0), t_max=5.0).time == pytest.approx(1.0, abs=1e-15)
    graze = c2.time_of_impact(c2.Capsule((-3.0, 1.25), (-3.0, 1.25), 0.25), c2.Box((0, 0), (1, 1), radius=0.0), (1.0, 0.0), t_max=5.0)
    assert graze.time == pytest.approx(3.0, abs=1e-15)  # a disc grazing the top edge from its first corner on
    missed = c2.Capsule((-3.0, math.nextafter(1.5, 2.0) + 1e-12), (-1.0, 1.5 + 1e-12), 0.5)
    assert c2.time_of_impact(missed, c2.Box((0.0, -1.0), (1.0, 1.0 - 1e-9)), (1.0, 0.0), t_max=5.0).time == math.inf
    floor = c2.Line((0.0, 0.0), (1.0, 0.0))
    drop = c2.time_of_impact(c2.Box((0.0, 2.0), (1.0, 3.0), radius=0.5), floor, (0.0, -1.0), t_max=5.0)
    assert drop.time == 1.5 and drop.normal.tolist() == [0.0, -1.0]
    spin = c2.time_of_impact(c2.Capsule((-3.0, 2.0), (3.0, 2.0), 0.25), floor, (0.0, 0.0), angular_velocity_a=1.0, t_max=5.0)
    assert spin.time == pytest.approx(math.asin(1.75 / 3.0), abs=1e-9)  # the cap's bottom at 2 - 3 sin(w t) - 0.25 = 0


def test_query_impacts_with_rounded_shapes():
    """query_impacts on a mixed list: each pair's time that of time_of_impact, bit for bit."""
    shapes = [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((4, -1), (5, 1), radius=0.25), c2.Circle((0, 5), 1),
              c2.Polygon([(8, 0), (9, 0), (8, 1)], radius=0.1), c2.Segment((-3, 0), (-2, 0)), c2.Capsule((6, 6), (6, 6), 0.5)]
    v = [(1, 0), (-1, 0), (0, -2), (-1, 0), (1, 0), (-1, -1)]
    w = [0.0, 0.5, 0.0, 0.0, 0.0, 0.0]
    hits = c2.query_impacts(shapes, v, angular_velocity=w, t_max=5)
    found = {}
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            t = c2.time_of_impact(shapes[i], shapes[j], v[i], v[j], angular_velocity_a=w[i], angular_velocity_b=w[j], t_max=5).time
            if math.isfinite(t):
                found[(i, j)] = t
    assert {tuple(p): t for p, t in zip(hits.pairs.T.tolist(), hits.time.tolist())} == found and len(found) >= 5
    # a batch of capsules, radius 0 in one row
    batch = c2.Capsule([(0, 0), (4, 0), (0, 4)], [(1, 0), (5, 0), (0, 4)], [0.5, 0.0, 0.3])
    hits = c2.query_impacts(batch, [(1, 0), (-1, 0), (0, -1)], t_max=3)
    assert hits.pairs.T.tolist() == [[0, 1]] and hits.time.tolist() == [1.25]  # the disc about (0, 4) stays 2.8 away


# -- the kind table --------------------------------------------------------------------------------------


EVERY_KIND = {
    "point": lambda: c2.Point((0.3, 0.2)),
    "segment": lambda: c2.Segment((-0.5, -0.4), (0.6, 0.5)),
    "line": lambda: c2.Line((0.0, -1.0), (1.0, 1.0)),
    "circle / ellipse": lambda: c2.Ellipse((0.1, 0.0), (0.7, 0.4), 0.3),
    "polygon, box, rotated box": lambda: c2.RotatedBox((0.0, 0.1), (0.6, 0.3), 0.7),
    "rounded": lambda: c2.Box((-0.4, -0.3), (0.3, 0.5), radius=0.2),
}


def _table_row(operation):
    """The cells of the row of ``operation`` in the table of docs/rounded.md (by column title)."""
    with open(__file__.rsplit("tests", 1)[0] + "docs/rounded.md") as f:
        lines = [line for line in f.read().splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[[k for k, line in enumerate(lines) if line.startswith("| operation |")][0]].split("|")[1:-1]]
    for line in lines:
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if operation in cells[0]:
            return dict(zip(header[1:], cells[1:]))
    raise AssertionError(f"docs/rounded.md has no row for {operation}")


@pytest.mark.parametrize("column", sorted(EVERY_KIND))
def test_kind_table_motion_cells(column):
    """Every cell of the motion rows of docs/rounded.md's table holds: time_of_impact and
    query_impacts of each rounded kind against the column's kind, both orders, single and batched
    (the batch rows equal the single answers), translation and turning; translate, rotate and
    raycast of each rounded kind, single and batched. A cell that says no, or a call that raises,
    fails here."""
    assert _table_row("`time_of_impact`, `query_impacts`")[column] == "yes"
    assert _table_row("`translate`, `rotate`, `raycast`")["point"] == "yes (the shape itself)"
    b = c2.translate(EVERY_KIND[column](), (2.5, 0.0))
    for make in (PARTNERS[name] for name in ROUNDED):
        a = make()
        batch = c2.translate(a, [(0.0, 0.0), (0.0, 9.0)])
        for w in (0.0, 1.5):
            for x, y, vx, vy in ((a, b, (1.0, 0.0), (-1.0, 0.0)), (b, a, (-1.0, 0.0), (1.0, 0.0))):
                single = c2.time_of_impact(x, y, vx, vy, angular_velocity_a=w, t_max=2.0)
                assert math.isfinite(single.time), (column, type(a).__name__, w)
                xs, ys = (batch, y) if x is a else (x, batch)
                both = c2.time_of_impact(xs, ys, vx, vy, angular_velocity_a=w, t_max=2.0)
                far = c2.time_of_impact(*((batch[1], y) if x is a else (x, batch[1])), vx, vy, angular_velocity_a=w, t_max=2.0)
                assert both.time.tolist() == [single.time, far.time]
                assert np.array_equal(both.point[0], single.point) and np.array_equal(both.normal[0], single.normal)
            hits = c2.query_impacts([a, b], [(1.0, 0.0), (-1.0, 0.0)], angular_velocity=[w, 0.0], t_max=2.0)
            assert hits.pairs.T.tolist() == [[0, 1]]
            one = c2.time_of_impact(a, b, (1.0, 0.0), (-1.0, 0.0), angular_velocity_a=w, t_max=2.0).time
            # (turning: query_impacts turns a rounded box about its polygon core's centroid, the rows of a
            # table, time_of_impact about the box's centre: the same point to a few ulps, the same time to
            # the rounding of the search)
            assert hits.time[0] == one if w == 0.0 else abs(hits.time[0] - one) <= 1e-12
        moved = c2.rotate(c2.translate(batch, (1.0, 2.0)), 0.5)
        assert moved.shape == (2,) and type(moved[0]).__name__ in ("Capsule", "Box", "RotatedBox", "Polygon")
        assert float(moved[0].radius) == float(a.radius) and c2.area(moved[0]) == pytest.approx(c2.area(a), rel=1e-12)
        rays = c2.raycast(batch, (-5.0, 0.0), (1.0, 0.0))
        assert rays.distance[0] == c2.raycast(a, (-5.0, 0.0), (1.0, 0.0)).distance < math.inf and rays.distance[1] == math.inf
        assert np.array_equal(rays.normal[0], c2.raycast(a, (-5.0, 0.0), (1.0, 0.0)).normal)


def test_radius_zero_motion_is_the_plain_shapes_bit_for_bit():
    """A rounded shape of radius 0 moves, casts and meets exactly as its plain shape."""
    pairs = [(c2.Capsule((0.0, 0.0), (1.0, 0.5), 0.0), c2.Segment((0.0, 0.0), (1.0, 0.5))),
             (c2.Capsule((0.25, 0.5), (0.25, 0.5), 0.0), c2.Point((0.25, 0.5))),
             (c2.Box((0.0, 0.0), (1.0, 2.0), radius=0.0), c2.Box((0.0, 0.0), (1.0, 2.0))),
             (c2.Polygon([(0, 0), (2, 0), (0, 1)], radius=0.0), c2.Polygon([(0, 0), (2, 0), (0, 1)]))]
    for x, y in pairs:
        assert repr(c2.rotate(x, 0.3)) == repr(c2.rotate(y, 0.3)) and repr(c2.translate(x, (1, 2))) == repr(c2.translate(y, (1, 2)))
        for other, w in itertools.product((c2.Ellipse((3.0, 0.7), (0.5, 0.3), 0.4), c2.Capsule((3.0, 0.0), (3.2, 1.0), 0.25),
                                           c2.Segment((3.0, -0.5), (3.5, 1.0))), (0.0, 0.7)):
            hx = c2.time_of_impact(x, other, (1.0, 0.1), angular_velocity_a=w, t_max=4.0)
            hy = c2.time_of_impact(y, other, (1.0, 0.1), angular_velocity_a=w, t_max=4.0)
            assert math.isfinite(hy.time) and hx.time == hy.time and np.array_equal(hx.point, hy.point, equal_nan=True)
        rx, ry = c2.raycast(x, (-2.0, 0.3), (1.0, 0.05)), c2.raycast(y, (-2.0, 0.3), (1.0, 0.05))
        assert rx.distance == ry.distance and np.array_equal(rx.normal, ry.normal, equal_nan=True)
    # rows of radius 0 in a batch with positive radii: the plain kernels' ray answers, bit for bit
    mixed = c2.Capsule([(0.0, 0.0), (0.0, 0.0)], [(1.0, 0.5), (1.0, 0.5)], [0.0, 0.25])
    assert c2.raycast(mixed, (0.5, 2.0), (0.1, -1.0)).distance[0] == c2.raycast(pairs[0][1], (0.5, 2.0), (0.1, -1.0)).distance


@pytest.mark.parametrize("turning", [0.0, 0.7])
def test_time_of_impact_batch_mixing_radius_zero_rows_is_the_plain_kinds_bit_for_bit(turning):
    """A batch of rounded shapes with rows of radius 0 among rows of radius > 0: each row of radius
    0 meets its partner at the flat kind's time, point and normal (the plain pair, single and
    batched), bit for bit, in both argument orders; the other rows as the rounded shapes alone."""
    rng = np.random.default_rng(27)
    n = 12
    start = rng.uniform(-1.0, 1.0, (n, 2))
    end = start + rng.uniform(0.3, 1.5, (n, 2))
    lo = rng.uniform(-1.0, 1.0, (n, 2))
    hi = lo + rng.uniform(0.3, 1.5, (n, 2))
    radius = np.where(np.arange(n) % 3 == 0, 0.0, rng.uniform(0.05, 0.3, n))
    zero = np.flatnonzero(radius == 0.0)
    velocity = np.stack([np.full(n, -6.0), rng.uniform(-1.0, 1.0, n)], -1)
    mixed = {"capsule": (c2.Capsule(start, end, radius), c2.Segment(start, end)),
             "rounded box": (c2.Box(lo, hi, radius=radius), c2.Box(lo, hi))}
    partners = (c2.Capsule((3.0, 0.0), (3.2, 1.0), 0.25), c2.Box((3.0, -0.5), (3.6, 0.4), radius=0.1),
                c2.Segment((3.0, -0.5), (3.5, 1.0)), c2.Ellipse((3.0, 0.7), (0.5, 0.3), 0.4), c2.Box((3.0, -0.5), (3.6, 0.4)), c2.Circle((3.0, 0.2), 0.4))
    met = 0
    for (rounded, plain), other in itertools.product(mixed.values(), partners):
        for first_rounded in (True, False):
            def impacts(shape, rows=None):
                shape = shape if rows is None else shape[rows]
                v = velocity if rows is None else velocity[rows]
                pair = (shape, other) if first_rounded else (other, shape)
                return c2.time_of_impact(*pair, velocity_b=v if first_rounded else -v, angular_velocity_a=turning, t_max=2.0)

            got = impacts(rounded)
            flat = impacts(plain, zero)
            positive = np.flatnonzero(radius > 0.0)
            alone = impacts(rounded, positive)  # the rows of radius > 0 answer as without the others
            for field in ("time", "point", "normal"):
                assert np.array_equal(getattr(got, field)[zero], getattr(flat, field), equal_nan=True), field
                assert np.array_equal(getattr(got, field)[positive], getattr(alone, field), equal_nan=True), field
            for k in zero[:2]:  # and the single plain calls
                one = c2.time_of_impact(*((plain[k], other) if first_rounded else (other, plain[k])),
                                        velocity_b=velocity[k] if first_rounded else -velocity[k],
                                        angular_velocity_a=turning, t_max=2.0)
                assert one.time == got.time[k] and np.array_equal(one.point, got.point[k], equal_nan=True)
            met += int(np.isfinite(got.time[zero]).sum())
    assert met >= 10  # most radius-0 rows meet their partner within t_max


# -- turning pairs in the compiled loops of their cores ----------------------------------------------------------

TURNING_PARTNERS = dict(PARTNERS, ellipse=lambda: c2.Ellipse((0.1, 0.0), (0.7, 0.25), 0.3),
                        line=lambda: c2.Line((0.0, -1.0), (1.0, 1.0)))


def _moved(shape, v, w, t):
    return c2.translate(c2.rotate(shape, w * t), np.multiply.outer(t, v))


def _brute_force(a, b, va, vb, wa, wb, time, t_max, samples=120):
    """The brute-force contract of a turning answer (as tests/kernels/motion/test_toi_turning.py
    for the flat kinds, with the exact rounded predicates): apart on a grid of times before
    ``time`` and a nanosecond before it, within 1e-9 at it, and not after the first intersecting
    time of a grid over ``[0, t_max]`` bisected on the exact predicate to 1e-12."""
    if time == 0.0:
        assert c2.intersects(a, b)
        return
    grid = np.linspace(0.0, min(time, t_max), samples, endpoint=not math.isfinite(time))
    if math.isfinite(time):
        grid = np.append(grid, time - 1e-9)
        at = np.array([time])
        assert c2.distance(_moved(a, va, wa, at), _moved(b, vb, wb, at))[0] < 1e-9
    assert not np.any(c2.intersects(_moved(a, va, wa, grid), _moved(b, vb, wb, grid)))
    grid = np.linspace(0.0, t_max, samples + 1)
    hit = np.flatnonzero(c2.intersects(_moved(a, va, wa, grid), _moved(b, vb, wb, grid)))
    if hit.size:
        lo, hi = grid[hit[0] - 1], grid[hit[0]]
        while hi - lo > 1e-12:
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if c2.intersects(_moved(a, va, wa, np.array([mid])), _moved(b, vb, wb, np.array([mid])))[0] else (mid, hi)
        assert time <= hi + 1e-9, (time, hi)


@pytest.mark.parametrize("name_a", ROUNDED)
def test_turning_rounded_pairs_in_the_compiled_loops_against_brute_force(name_a, outcome_codes):
    """Each rounded kind turning against every kind (and each rounded kind), both orders, batched
    and one pair at a time: the compiled turning loops of the cores decide them (but a few pairs
    the float filters hand back), a pair alone and in its batch the same floats, both orders the
    same time to 1e-9, and every time passes the brute-force reference."""
    from collide2d.motion import rounded

    codes = outcome_codes(rounded, "run_turning")
    rng = np.random.default_rng(sum(map(ord, name_a)))
    n, t_max = 3, 2.0
    for name_b, make in TURNING_PARTNERS.items():
        a = c2.rotate(c2.translate(PARTNERS[name_a](), rng.uniform(-0.2, 0.2, (n, 2))), rng.uniform(0, 3, n))
        place = np.stack([np.full(n, 3.0), rng.uniform(-1.5, 1.5, n)], -1)
        b = c2.rotate(c2.translate(make(), place), rng.uniform(0, 3, n))
        va = rng.uniform(-0.3, 0.3, (n, 2))
        vb = -place * rng.uniform(0.6, 1.2, (n, 1)) + rng.uniform(-0.5, 0.5, (n, 2))
        wa = rng.uniform(-3, 3, n)
        wb = np.zeros(n) if name_b == "line" else rng.uniform(-3, 3, n)  # (a turning line: the Python search)
        times = []
        for order, (x, y, vx, vy, wx, wy) in enumerate(((a, b, va, vb, wa, wb), (b, a, vb, va, wb, wa))):
            del codes[:]
            batch = c2.time_of_impact(x, y, vx, vy, angular_velocity_a=wx, angular_velocity_b=wy, t_max=t_max)
            assert sum(code <= 2 for code in codes) >= n - 1, (name_a, name_b, codes)  # hit, miss, overlap: decided
            for k in range(n):
                one = c2.time_of_impact(x[k], y[k], tuple(vx[k]), tuple(vy[k]), angular_velocity_a=float(wx[k]),
                                        angular_velocity_b=float(wy[k]), t_max=t_max)
                assert one.time == batch.time[k] and np.array_equal(one.point, batch.point[k], equal_nan=True)
                if order == 0:  # (the other order: the same time to 1e-9, below)
                    _brute_force(x[k], y[k], vx[k], vy[k], wx[k], wy[k], float(batch.time[k]), t_max)
            times.append(batch.time)
        assert np.allclose(times[0], times[1], rtol=0.0, atol=1e-9), (name_a, name_b, times)


def _scaled(name, s):
    """A rounded shape or partner with every length times ``s`` (the shapes of :data:`PARTNERS`,
    and a thin rounded box of aspect 1e4)."""
    return {
        "capsule": lambda: c2.Capsule((-0.6 * s, 0.1 * s), (0.5 * s, -0.2 * s), 0.3 * s),
        "rounded box": lambda: c2.Box((-0.4 * s, -0.3 * s), (0.3 * s, 0.5 * s), radius=0.2 * s),
        "thin rounded box": lambda: c2.Box((-1.0 * s, -1e-4 * s), (1.0 * s, 1e-4 * s), radius=1e-4 * s),
        "rounded polygon": lambda: c2.Polygon([(-0.4 * s, -0.4 * s), (0.6 * s, -0.1 * s), (0.0, 0.5 * s)], radius=0.15 * s),
        "point": lambda: c2.Point((0.3 * s, 0.2 * s)),
        "segment": lambda: c2.Segment((-0.5 * s, -0.4 * s), (0.6 * s, 0.5 * s)),
        "box": lambda: c2.Box((-0.5 * s, -0.3 * s), (0.4 * s, 0.6 * s)),
        "circle": lambda: c2.Circle((0.1 * s, 0.0), 0.7 * s),
    }[name]()


@pytest.mark.parametrize("name_a,name_b", [("capsule", "segment"), ("rounded box", "box"), ("thin rounded box", "capsule"),
                                           ("rounded polygon", "point"), ("capsule", "circle"), ("thin rounded box", "rounded polygon")])
def test_turning_rounded_pairs_at_every_magnitude_against_mpmath(name_a, name_b):
    """A turning rounded pair at lengths times 1, 1e-150 and 1e150 (velocities too; the turns and
    times unchanged), both orders, single and batched: the time of the mpmath reference of the
    distance of the cores (module notes) to 1e-9 at every magnitude, aspects to 1e4."""
    va, vb, wa, wb = (0.3, -0.2), (-2.1, -0.1), 1.7, -0.9
    a0, b0 = _scaled(name_a, 1.0), c2.translate(_scaled(name_b, 1.0), (2.4, 0.3))
    expected = _toi_reference(a0, b0, va, vb, wa, wb, 2.0, samples=200)
    assert 0.0 < expected < 2.0
    # the sizes within the supported range; polygon cores only where their area centroid (the reference
    # point of the turn) is computed without overflow or underflow (motion.rigid._polygon_centroids)
    polygon = "polygon" in name_a + name_b
    for s in (1.0, 1e-25 if polygon else 1e-146 if "thin" in name_a + name_b else 3e-150, 1e25 if polygon else 1e150):
        a, b = _scaled(name_a, s), c2.translate(_scaled(name_b, s), (2.4 * s, 0.3 * s))
        sva, svb = tuple(x * s for x in va), tuple(x * s for x in vb)
        hit = c2.time_of_impact(a, b, sva, svb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=2.0)
        back = c2.time_of_impact(b, a, svb, sva, angular_velocity_a=wb, angular_velocity_b=wa, t_max=2.0)
        pair = c2.time_of_impact(c2.translate(a, [(0.0, 0.0), (0.0, 0.0)]), b, sva, svb, angular_velocity_a=wa,
                                 angular_velocity_b=wb, t_max=2.0)
        assert abs(hit.time - expected) <= 1e-9 and abs(back.time - expected) <= 1e-9, (s, hit.time, back.time, expected)
        assert pair.time.tolist() == [hit.time, hit.time]
        np.testing.assert_allclose(hit.point / s, back.point / s, atol=1e-7)


def test_turning_rounded_grazes():
    """A capsule turning about its centre past points at the reach of its cap (1 + r from the
    centre, met at a quarter turn: a graze), a hair inside it and outside it: the graze and the
    hits at the reference time, the near miss missed."""
    capsule = c2.Capsule((-1.0, 0.0), (1.0, 0.0), 0.25)
    for gap, expected in ((0.0, math.pi / 2), (-1e-6, None), (1e-6, math.inf), (1e-3, math.inf)):
        point = c2.Point((0.0, 1.25 + gap))
        hit = c2.time_of_impact(capsule, point, angular_velocity_a=1.0, t_max=3.0)
        back = c2.time_of_impact(point, capsule, angular_velocity_b=1.0, t_max=3.0)
        batch = c2.time_of_impact(c2.translate(capsule, [(0.0, 0.0)] * 2), point, angular_velocity_a=1.0, t_max=3.0)
        if expected is None:  # the cap's circle (centre (cos t, sin t), radius r) first reaches the point
            expected = float(mp.findroot(lambda t: mp.hypot(mp.cos(t), mp.sin(t) - (mpf(1.25) + mpf(gap))) - mpf(0.25),
                                         (mpf(1.4), mpf(1.5707)), solver="anderson"))
        # (at the graze the separation is quadratic in time: its float noise places the minimum to
        # about 1e-8; there the distance is within 1e-9, as the turning band states)
        assert abs(hit.time - expected) <= (1e-7 if gap == 0.0 else 1e-9) or hit.time == expected == math.inf, (gap, hit.time)
        if math.isfinite(expected):
            assert c2.distance(_moved(capsule, (0.0, 0.0), 1.0, np.array([hit.time])), point)[0] <= 1e-9
        assert back.time == hit.time and batch.time.tolist() == [hit.time, hit.time]
