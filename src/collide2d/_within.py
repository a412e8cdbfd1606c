"""Pairs within a distance: the decision ``distance(a, b) <= d`` on the candidates of a query.

The broad phase of :func:`collide2d.query_pairs` with ``max_distance=d`` finds the pairs whose
bounds, grown by ``d / 2`` on every side, overlap; :func:`within_pairs` then decides each pair:

1. ellipse pairs go through the bounding-circle filter (``sweep.ellipse_pair_filter`` with the
   gap ``d``: circumscribed circles farther than ``d`` apart, or inscribed ones closer) and the
   centre-line filter (``grid.centre_line_rows``: the boundary points on the segment between the
   centres closer than ``d``, or the supports along it farther apart), which settle most of them;
2. the rest get their floating-point separation ``s`` from the contact kernels; outside the band
   ``|s - d| <= BAND * scale`` (``scale`` the largest coordinate or size of the pair, and ``d``)
   ``s <= d`` decides: the separation is accurate to a few ulps of ``scale`` and the band leaves a
   margin of about 1e5 (the same band decides the sign of :func:`collide2d.contact`);
3. the pairs in the band are decided one at a time in exact rational arithmetic
   (:func:`_decide`): exactly for two shapes without curves (squared distances of vertices to
   edges and lines); with an ellipse by two certificates, an *in* certificate (the ellipse with both semi-axes
   grown by ``d`` lies inside the set of points within ``d`` of it and meets the other shape) and
   an *out* certificate (a direction along which the two shapes' supports are more than ``d``
   apart, the contact normal). The *in* certificate is exact for circles (when ``r + d`` is a
   float) and for nearest points at an end of an ellipse's axis. A pair for which neither holds
   has a distance within rounding of ``d`` and is kept: no pair at distance ``<= d`` is dropped.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from collide2d._glue import run
from collide2d._kernels import codes
from collide2d.measurement import row_scale

BAND = 2.0**-32
_SQRT_BITS = 160  # bits after the binary point of the rational square-root bounds


def _kernels(name):
    import importlib

    return importlib.import_module(f"collide2d._kernels.broadphase.{name}")


def within_pairs(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb, d):
    """Boolean mask over the pairs ``(params_a[ia[k]], params_b[jb[k]])``: distance at most ``d``.

    ``d > 0``; ``d == 0`` is ``intersects``, which the caller runs instead.
    """
    out = np.zeros(ia.shape[0], dtype=bool)
    if ia.shape[0] == 0:
        return out
    rest = np.arange(ia.shape[0])
    if kind_a == "ellipse" and kind_b == "ellipse":
        status = np.empty(ia.shape[0], dtype=np.int8)
        _kernels("sweep").ellipse_pair_filter(params_a, ia, params_b, jb, float(d), status)
        _kernels("grid").centre_line_rows(params_a, ia, params_b, jb, float(d), status)
        out[status == 1] = True
        rest = np.flatnonzero(status == 2)
    if rest.size == 0:
        return out
    ra, rb = ia[rest], jb[rest]
    sep = separation_rows(kind_a, params_a, verts_a, ra, kind_b, params_b, verts_b, rb)
    scale = row_scale(kind_a, params_a[ra], verts_a) + row_scale(kind_b, params_b[rb], verts_b) + d
    band = ~(np.abs(sep - d) > BAND * scale)  # NaN goes to the exact decision too
    out[rest[~band & (sep <= d)]] = True
    for k in rest[band].tolist():
        out[k] = _decide(kind_a, params_a[ia[k]], verts_a, kind_b, params_b[jb[k]], verts_b, d)
    return out


def separation_rows(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb):
    """Float separation of the rows ``params_a[ia[k]]`` against ``params_b[jb[k]]`` (any kinds)."""
    return run.separation_rows(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb)


# -- the exact decision of one pair ------------------------------------------------------------------


def _row(values):
    row = np.array(values, dtype=np.float64)
    row.flags.writeable = False  # read-only like the shapes' own rows: the same compiled loops
    return row


def _meet(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """Exact: the closed shapes of the two rows share a point."""
    one = np.zeros(1, dtype=np.int64)
    code = run.relate_rows(kind_a, _row(row_a)[None], verts_a, one, kind_b, _row(row_b)[None], verts_b, one)
    return int(code[0]) != codes.DISJOINT


def _grown(row, d):
    """The ellipse row with both semi-axes grown by ``d``, rounded down."""
    out = np.array(row, dtype=np.float64)
    for j in (2, 3):
        value = float(out[j]) + d
        if Fraction(value) > Fraction(float(out[j])) + Fraction(d):
            value = math.nextafter(value, -math.inf)
        out[j] = value
    return out


def _decide(kind_a, row_a, verts_a, kind_b, row_b, verts_b, d):
    """``distance <= d`` of one pair: exact without curves, else certified (see the module docstring)."""
    if kind_a != "ellipse" and kind_b != "ellipse":
        return _flat_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b) <= Fraction(d) ** 2
    # the ellipse with semi-axes a + d, b + d lies within d of the ellipse (its support
    # sqrt((a + d)^2 u1^2 + (b + d)^2 u2^2) never exceeds sqrt(a^2 u1^2 + b^2 u2^2) + d); for a
    # circle it is exactly the set of points within d, so the test is exact when r + d is a float
    if kind_a == "ellipse" and _meet("ellipse", _grown(row_a, d), verts_a, kind_b, row_b, verts_b):
        return True
    if kind_b == "ellipse" and _meet(kind_a, row_a, verts_a, "ellipse", _grown(row_b, d), verts_b):
        return True
    u = _gap_direction(kind_a, row_a, verts_a, kind_b, row_b, verts_b)
    if u is not None and _gap_exceeds(kind_a, row_a, verts_a, kind_b, row_b, verts_b, u, d):
        return False
    return True  # within rounding of d: kept, so that no pair at distance <= d is dropped


def _sqrt_up(x):
    """A rational upper bound of ``sqrt(x)`` for a rational ``x >= 0`` (within ``2**-_SQRT_BITS``)."""
    n, q = x.numerator, x.denominator
    root = math.isqrt(n * q << (2 * _SQRT_BITS))
    return Fraction(root + 1, q << _SQRT_BITS)


def _points(kind, row, verts):
    """The vertices of a flat shape (or a line's point) as rational pairs."""
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return [(Fraction(float(x)), Fraction(float(y))) for x, y in verts[offset : offset + count]]
    if kind == "segment":
        return [(Fraction(float(row[0])), Fraction(float(row[1]))), (Fraction(float(row[2])), Fraction(float(row[3])))]
    return [(Fraction(float(row[0])), Fraction(float(row[1])))]


def _edges(kind, points):
    if kind == "polygon":
        return list(zip(points, points[1:] + points[:1]))
    if kind == "segment":
        return [(points[0], points[1])]
    return []


def _point_segment2(p, s, e):
    dx, dy = e[0] - s[0], e[1] - s[1]
    t = ((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / (dx * dx + dy * dy)
    t = min(max(t, Fraction(0)), Fraction(1))
    x, y = s[0] + t * dx - p[0], s[1] + t * dy - p[1]
    return x * x + y * y


def _flat_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """Exact squared distance of two shapes without curves, as a Fraction."""
    if _meet(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
        return Fraction(0)
    if kind_b == "line":
        kind_a, row_a, verts_a, kind_b, row_b, verts_b = kind_b, row_b, verts_b, kind_a, row_a, verts_a
    if kind_a == "line":
        # disjoint from a line: a convex shape's nearest point to it is a vertex (a parallel line: its point)
        (px, py), dx, dy = _points("point", row_a, verts_a)[0], Fraction(float(row_a[2])), Fraction(float(row_a[3]))
        others = _points("point" if kind_b == "line" else kind_b, row_b, verts_b)
        return min(((x - px) * dy - (y - py) * dx) ** 2 for x, y in others) / (dx * dx + dy * dy)
    pa, pb = _points(kind_a, row_a, verts_a), _points(kind_b, row_b, verts_b)
    best = min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for p in pa for q in pb)
    for points, edges in ((pa, _edges(kind_b, pb)), (pb, _edges(kind_a, pa))):
        for s, e in edges:
            for p in points:
                best = min(best, _point_segment2(p, s, e))
    return best


def _gap_direction(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """The direction to test the supports along: a line's normal, else the contact normal."""
    r = run.contact_pair(kind_a, _row(row_a), verts_a, kind_b, _row(row_b), verts_b)
    nx, ny = r[1], r[2]
    for kind, row in ((kind_a, row_a), (kind_b, row_b)):
        if kind == "line":  # a line's support is finite only along its normal
            lx, ly = -float(row[3]), float(row[2])
            return (lx, ly) if lx * nx + ly * ny >= 0 else (-lx, -ly)
    if not (math.isfinite(nx) and math.isfinite(ny)) or (nx == 0 and ny == 0):
        return None
    return nx, ny


def _support_up(kind, row, verts, ux, uy):
    """A rational upper bound of ``max p.u`` over the shape (``None`` when unbounded)."""
    if kind == "ellipse":
        cx, cy, a, b, wx, wy = (Fraction(float(x)) for x in row[:6])
        p, r = wx * ux + wy * uy, wx * uy - wy * ux
        return cx * ux + cy * uy + _sqrt_up((a * a * p * p + b * b * r * r) / (wx * wx + wy * wy))
    if kind == "line":
        if Fraction(float(row[2])) * ux + Fraction(float(row[3])) * uy != 0:
            return None
        kind = "point"
    return max(x * ux + y * uy for x, y in _points(kind, row, verts))


def _gap_exceeds(kind_a, row_a, verts_a, kind_b, row_b, verts_b, u, d):
    """Certified: along ``u`` (from a to b) the supports of the two shapes are more than ``d`` apart."""
    ux, uy = Fraction(u[0]), Fraction(u[1])
    top_a = _support_up(kind_a, row_a, verts_a, ux, uy)
    top_b = _support_up(kind_b, row_b, verts_b, -ux, -uy)  # minus the lowest point of b along u
    if top_a is None or top_b is None:
        return False
    return -top_b - top_a > Fraction(d) * _sqrt_up(ux * ux + uy * uy)
