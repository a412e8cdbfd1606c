"""Exact first contact of translating flat shapes (points, segments, lines, polygons: boxes and
rotated boxes too) in rational arithmetic, written for the tests independently of
``collide2d.motion.exact`` and of the kernels, from the configuration space instead of axes: ``b``
moved by ``v t`` meets ``a`` exactly when ``v t`` lies in the Minkowski difference ``a - b`` (the
convex hull of the differences of their vertices; a strip or a line or the plane when a line is
involved), so the first contact is where the ray ``t -> v t`` enters that set: ``0`` when it holds
the origin, else the first crossing of its boundary, edge by edge."""

import math
from fractions import Fraction

from collide2d._glue import run
from collide2d._kernels.motion import constants

F = Fraction


def core(shape):
    """A single flat shape as exact rationals: ``("points", [(x, y), ...])`` (a polygon's
    vertices, a segment's ends, a point) or ``("line", point, direction)``."""
    kind, p, verts = run.flat_rows(shape)
    p = p[0]
    if kind == "polygon":
        offset, count = int(p[0]), int(p[1])
        return "points", [(F(x), F(y)) for x, y in verts[offset : offset + count].tolist()]
    if kind == "segment":
        return "points", [(F(p[0]), F(p[1])), (F(p[2]), F(p[3]))]
    if kind == "line":
        return "line", (F(p[0]), F(p[1])), (F(p[2]), F(p[3]))
    return "points", [(F(p[0]), F(p[1]))]


def _cross(p, q):
    return p[0] * q[1] - p[1] * q[0]


def _sub(p, q):
    return p[0] - q[0], p[1] - q[1]


def _hull(points):
    """The convex hull of exact points, counter-clockwise, without collinear points (Andrew's
    monotone chain); one or two points when they are all equal or collinear."""
    points = sorted(set(points))
    if len(points) < 3:
        return points
    lower, upper = [], []
    for chain, run_over in ((lower, points), (upper, reversed(points))):
        for p in run_over:
            while len(chain) >= 2 and _cross(_sub(chain[-1], chain[-2]), _sub(p, chain[-2])) <= 0:
                chain.pop()
            chain.append(p)
    hull = lower[:-1] + upper[:-1]
    return hull if len(hull) >= 2 else points[:1]


def _holds_origin(hull):
    """Whether the origin lies in the hull (a point, a segment or a convex polygon, counter-clockwise)."""
    if len(hull) == 1:
        return hull[0] == (0, 0)
    if len(hull) == 2:
        p, q = hull
        return _cross(p, q) == 0 and p[0] * q[0] + p[1] * q[1] <= 0
    return all(_cross(_sub(q, p), (-p[0], -p[1])) >= 0 for p, q in zip(hull, hull[1:] + hull[:1]))


def _ray_hits(hull, v):
    """The times ``t >= 0`` at which ``v t`` lies on an edge of the hull (both ends of an edge along
    the ray; for a single point, when the ray passes through it)."""
    edges = [(hull[0], hull[0])] if len(hull) == 1 else list(zip(hull, hull[1:] + hull[:1]))
    speed2 = v[0] * v[0] + v[1] * v[1]
    hits = []
    for p, q in edges:
        e = _sub(q, p)
        across = _cross(v, e)
        if across != 0:  # v t = p + s e: t = (p x e) / (v x e), s = (p x v) / (v x e)
            t, s = _cross(p, e) / across, _cross(p, v) / across
            if t >= 0 and 0 <= s <= 1:
                hits.append(t)
        elif _cross(p, v) == 0:  # the edge (or the point) lies on the ray's line
            hits += [t for t in ((p[0] * v[0] + p[1] * v[1]) / speed2, (q[0] * v[0] + q[1] * v[1]) / speed2) if t >= 0]
    return hits


def _line_hits(point, direction, others, w):
    """The first ``t >= 0`` at which the line ``point + s direction`` meets the hull of ``others``
    moved by ``w t``, or None: the side ``direction x (q + w t - point)`` of the points must take both
    signs (or zero), and all of them change by ``(direction x w) t``."""
    sides = [_cross(direction, _sub(q, point)) for q in others]
    low, high, rate = min(sides), max(sides), _cross(direction, w)
    if rate == 0:
        return F(0) if low <= 0 <= high else None
    start, end = sorted((-high / rate, -low / rate))  # -high <= rate t <= -low
    return max(start, F(0)) if end >= 0 else None


def _first_time(ca, cb, v):
    """The first ``t >= 0`` at which core ``b`` moved by ``v t`` meets core ``a``, or None."""
    if ca[0] == "line" and cb[0] == "line":
        if _cross(ca[2], cb[2]) != 0:
            return F(0)  # crossing lines always meet
        return _line_hits(ca[1], ca[2], [cb[1]], v)  # parallel: when b's point reaches a's line
    if ca[0] == "line":
        return _line_hits(ca[1], ca[2], cb[1], v)
    if cb[0] == "line":
        return _line_hits(cb[1], cb[2], ca[1], (-v[0], -v[1]))
    difference = _hull([_sub(p, q) for p in ca[1] for q in cb[1]])
    if _holds_origin(difference):
        return F(0)
    if v == (0, 0):
        return None
    return min(_ray_hits(difference, v), default=None)


def first_contact(a, b, va, vb, t_max, shift=(0.0, 0.0)):
    """The exact first time in ``[0, t_max]`` at which ``a`` (moving by ``va``) and ``b`` (by
    ``vb``, shifted by ``shift`` first) share a point, or None."""
    ca, cb = core(a), core(b)
    sx, sy = F(shift[0]), F(shift[1])
    cb = ("points", [(x + sx, y + sy) for x, y in cb[1]]) if cb[0] == "points" else ("line", (cb[1][0] + sx, cb[1][1] + sy), cb[2])
    t = _first_time(ca, cb, (F(vb[0]) - F(va[0]), F(vb[1]) - F(va[1])))
    return None if t is None or (not math.isinf(t_max) and t > F(t_max)) else t


def check(result, exact, t_max, strict=False):
    """A time of impact against the exact first contact: a miss for a miss, else within
    ``TIME_TOL`` of the time scale of it, and (``strict``: the closed form's promise) not after it.
    The search's answers through its band may lie up to its tolerance after the contact."""
    t = float(result)
    if exact is None:
        assert t == math.inf
        return
    scale = t_max if math.isfinite(t_max) else max(float(exact), 1.0)
    tolerance = F(constants.TIME_TOL * scale)
    assert 0.0 <= t and F(t) <= exact + (0 if strict else tolerance)
    assert exact - F(t) <= tolerance
