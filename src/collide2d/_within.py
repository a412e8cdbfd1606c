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
from collide2d._robust import exact
from collide2d._kernels import codes
from collide2d._tolerances import BAND
from collide2d._robust.ladder import row_scale



def _sweep():
    from collide2d._kernels.broadphase import sweep  # lazily: the first distance query loads it

    return sweep


def _grid():
    from collide2d._kernels.broadphase import grid

    return grid


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
        _sweep().ellipse_pair_filter(params_a, ia, params_b, jb, float(d), status)
        _grid().centre_line_rows(params_a, ia, params_b, jb, float(d), status)
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


def _decide(kind_a, row_a, verts_a, kind_b, row_b, verts_b, d):
    """``distance <= d`` of one pair: exact without curves, else certified (see the module docstring)."""
    if kind_a == "rounded" or kind_b == "rounded":
        return _decide_rounded(kind_a, row_a, verts_a, kind_b, row_b, verts_b, d)
    if kind_a != "ellipse" and kind_b != "ellipse":
        return _flat_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b) <= Fraction(d) ** 2
    # the ellipse with semi-axes a + d, b + d lies within d of the ellipse (its support
    # sqrt((a + d)^2 u1^2 + (b + d)^2 u2^2) never exceeds sqrt(a^2 u1^2 + b^2 u2^2) + d); for a
    # circle it is exactly the set of points within d, so the test is exact when r + d is a float
    if kind_a == "ellipse" and _meet("ellipse", exact.grown(row_a, d), verts_a, kind_b, row_b, verts_b):
        return True
    if kind_b == "ellipse" and _meet(kind_a, row_a, verts_a, "ellipse", exact.grown(row_b, d), verts_b):
        return True
    u = _gap_direction(kind_a, row_a, verts_a, kind_b, row_b, verts_b)
    if u is not None and _gap_exceeds(kind_a, row_a, verts_a, kind_b, row_b, verts_b, u, d):
        return False
    return True  # within rounding of d: kept, so that no pair at distance <= d is dropped


def _decide_rounded(kind_a, row_a, verts_a, kind_b, row_b, verts_b, d):
    """``distance <= d`` with a rounded shape: a rounded shape is the set of points within its
    radius ``r`` of its core, so ``distance(a, b) <= d`` exactly when the cores are within
    ``r_a + r_b + d`` of each other, decided on Fractions (:func:`_flat_distance2`) for cores
    without curves; with an ellipse the pair is kept (its distance is within rounding of ``d``)."""
    from collide2d._glue import rounded as _rounded

    reach = Fraction(d)
    cores = []
    for kind, row in ((kind_a, row_a), (kind_b, row_b)):
        if kind == "rounded":
            reach += Fraction(float(row[2]))
            kind = _rounded.core_kind(row[1])
            row = _rounded.core_rows(np.asarray(row, dtype=np.float64), kind)
        cores.append((kind, row))
    (kind_a, row_a), (kind_b, row_b) = cores
    if kind_a == "ellipse" or kind_b == "ellipse":
        return True
    return _flat_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b) <= reach**2


def _flat_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """Exact squared distance of two shapes without curves, as a Fraction."""
    if _meet(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
        return Fraction(0)
    return exact.apart_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b)


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


def _gap_exceeds(kind_a, row_a, verts_a, kind_b, row_b, verts_b, u, d):
    """Certified: along ``u`` (from a to b) the supports of the two shapes are more than ``d`` apart."""
    ux, uy = Fraction(u[0]), Fraction(u[1])
    top_a = exact.support_up(kind_a, row_a, verts_a, ux, uy)
    top_b = exact.support_up(kind_b, row_b, verts_b, -ux, -uy)  # minus the lowest point of b along u
    if top_a is None or top_b is None:
        return False
    return -top_b - top_a > Fraction(d) * exact.sqrt_up(ux * ux + uy * uy)
