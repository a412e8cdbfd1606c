"""Exact first contact of translating rounded shapes (capsules, rounded polygons, boxes and rotated
boxes; circles as rounded points; the flat kinds as cores of radius 0), written for the tests
independently of the kernels: ``b`` moved by ``V t`` (``V = v_b - v_a``) touches ``a`` exactly when
the distance of ``-V t`` to the Minkowski difference ``D`` of the cores (``b - a``: the convex hull
of the differences of their corners, in exact rationals) is at most ``R = r_a + r_b``.

The first contact is found on the boundary of ``D`` grown by ``R`` (its edges moved out along
their normals, arcs about its corners), in mpmath at 300 bits, and then confirmed on the exact
distance itself: positive just before it, zero at it (to 1e-60 of the sizes involved). A miss is
confirmed by the distance of the whole path ``{-V t}`` (a segment up to ``t_max``, or far enough
beyond the closest approach without one) to ``D``, segment against edge: above ``R``."""

import math
from fractions import Fraction

import mpmath

from collide2d._glue import run
from collide2d._kernels.motion import constants
from motion_references import _cross, _hull as hull, _sub  # (the exact hull of the flat kinds' reference)

F = Fraction
mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mp.prec = 300
mpf = mp.mpf


def _mp(x):
    return mpf(x.numerator) / x.denominator


def core(shape):
    """``(corners, radius)`` of a single shape as exact rationals: a rounded shape's core and
    radius, a circle's centre and radius, a flat shape's corners and 0."""
    kind, p, verts = run.flat_rows(shape)
    p = p[0] if p.ndim == 2 else p
    if kind == "rounded":
        count = int(p[1])
        corners = verts[int(p[0]) : int(p[0]) + count].tolist() if count >= 3 else [p[3:5].tolist(), p[5:7].tolist()][:count]
        return [(F(x), F(y)) for x, y in corners], F(p[2])
    if kind == "polygon":
        return [(F(x), F(y)) for x, y in verts[int(p[0]) : int(p[0]) + int(p[1])].tolist()], F(0)
    if kind == "segment":
        return [(F(p[0]), F(p[1])), (F(p[2]), F(p[3]))], F(0)
    if kind == "point":
        return [(F(p[0]), F(p[1]))], F(0)
    if kind == "ellipse" and p[2] == p[3]:
        return [(F(p[0]), F(p[1]))], F(p[2])
    raise ValueError(f"no reference for {kind}")


def _point_segment(p, a, b):
    ex, ey = b[0] - a[0], b[1] - a[1]
    length2 = ex * ex + ey * ey
    s = 0 if length2 == 0 else min(max(((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / length2, 0), 1)
    return mp.hypot(a[0] + s * ex - p[0], a[1] + s * ey - p[1])


def _edges(polygon):
    n = len(polygon)
    return [(polygon[0], polygon[0])] if n == 1 else [(polygon[i], polygon[(i + 1) % n]) for i in range(n if n > 2 else 1)]


def distance(p, polygon):
    """Distance of the point ``p`` to the convex ``polygon`` (mpmath; 0 inside)."""
    n = len(polygon)
    if n >= 3 and all(_cross(_sub(polygon[(i + 1) % n], polygon[i]), _sub(p, polygon[i])) >= 0 for i in range(n)):
        return mpf(0)
    return min(_point_segment(p, a, b) for a, b in _edges(polygon))


def _segments_apart(a, b, c, d):
    """Distance of the segments ``ab`` and ``cd`` (mpmath)."""
    o1, o2 = _cross(_sub(b, a), _sub(c, a)), _cross(_sub(b, a), _sub(d, a))
    o3, o4 = _cross(_sub(d, c), _sub(a, c)), _cross(_sub(d, c), _sub(b, c))
    if o1 * o2 < 0 and o3 * o4 < 0:
        return mpf(0)
    return min(_point_segment(a, c, d), _point_segment(b, c, d), _point_segment(c, a, b), _point_segment(d, a, b))


def first_contact(a, b, va, vb, t_max):
    """The exact first time in ``[0, t_max]`` at which ``a`` (moving by ``va``) and ``b`` (by ``vb``)
    touch, as an mpmath number (0: touching or overlapping at the start), or None."""
    (core_a, ra), (core_b, rb) = core(a), core(b)
    v = (F(vb[0]) - F(va[0]), F(vb[1]) - F(va[1]))
    diff = [tuple(map(_mp, p)) for p in hull([_sub(q, p) for p in core_a for q in core_b])]
    radius = _mp(ra + rb)
    vx, vy = _mp(v[0]), _mp(v[1])

    def gap(t):
        return distance((-vx * t, -vy * t), diff) - radius

    if gap(mpf(0)) <= 0:
        return mpf(0)
    speed = mp.hypot(vx, vy)
    if speed == 0:
        return None
    size = max(mp.hypot(*p) for p in diff) + radius
    t_end = mpf(t_max) if math.isfinite(t_max) else 2 * size / speed + 1  # (beyond it the distance only grows)
    times = []
    n = len(diff)
    sides = [] if n < 2 else ([(diff[0], diff[1]), (diff[1], diff[0])] if n == 2 else _edges(diff))
    for p, q in sides:  # -V t crossing an edge moved out by R, its foot on the edge
        ex, ey = q[0] - p[0], q[1] - p[1]
        length = mp.hypot(ex, ey)
        nx, ny = ey / length, -ex / length
        rate, height = -(nx * vx + ny * vy), -(nx * p[0] + ny * p[1])
        if rate < 0 and height > radius:
            t = (radius - height) / rate
            along = ((-vx * t - p[0]) * ex + (-vy * t - p[1]) * ey) / (length * length)
            if 0 <= along <= 1:
                times.append(t)
    for p in diff:  # |V t + p| = R
        c2, c1, c0 = vx * vx + vy * vy, vx * p[0] + vy * p[1], p[0] * p[0] + p[1] * p[1] - radius * radius
        disc = c1 * c1 - c2 * c0
        if c1 < 0 and disc >= 0:
            times.append((-c1 - mp.sqrt(disc)) / c2)
    first = min(times, default=None)
    if first is None or first > t_end:
        path = ((mpf(0), mpf(0)), (-vx * t_end, -vy * t_end))
        nearest = min(_segments_apart(*path, p, q) for p, q in _edges(diff)) if n > 1 else _point_segment(diff[0], *path)
        assert nearest > radius, "the reference's pieces and its distance disagree"
        return None
    noise = mpf(2) ** -200 * (size + speed * first)
    assert gap(first - noise * 2**80 / speed) > 0 and abs(gap(first)) < noise, "the reference disagrees with itself"
    return first


def check(time, exact, t_max, strict=False):
    """A time of impact against the exact first contact: a miss for a miss, else within
    ``TIME_TOL`` of the time scale of it, and (``strict``: the closed form's promise) not after it."""
    if exact is None:
        assert time == math.inf
        return
    scale = t_max if math.isfinite(t_max) else max(float(exact), 1.0)
    assert 0.0 <= time and (not strict or time <= exact), (time, float(exact))
    assert abs(exact - time) <= constants.TIME_TOL * scale, (time, float(exact))
