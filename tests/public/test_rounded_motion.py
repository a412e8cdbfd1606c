"""Rounded shapes in motion: translate, rotate, raycast, time_of_impact and query_impacts of
capsules and rounded polygons, boxes and rotated boxes, against independent references.

References (mpmath at 50 digits, or exact rationals):

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

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2

mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mp.dps = 50
mpf = mp.mpf


# -- cores ---------------------------------------------------------------------------------------------


def _core(shape):
    """The core vertices (counter-clockwise for a polygon) and radius of a single rounded shape."""
    if isinstance(shape, c2.Capsule):
        a, b = (tuple(map(float, shape.a)), tuple(map(float, shape.b)))
        return ([a] if a == b else [a, b]), float(shape.radius)
    r = float(shape.radius)
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
