"""The references of the ellipse overlay tests (``test_overlay_ellipse.py``: overlap area and IoU;
``test_overlay_ellipse_points.py``: intersection points), and their tolerances.

The oracle is an independent mpmath implementation (below, 30 significant digits on the exact
stored numbers): crossing points from the quartic in ``tan(t / 2)`` of the eccentric angle on one
ellipse (``mpmath.polyroots``, polished by ``findroot``), then either

* segments: the polygon of the crossing points plus, between consecutive points, the segment of
  the ellipse whose arc is inside the other, decided by evaluating the arc's middle and quarter
  points (the majority: a tangent point missing from the roots spoils one at most), or
* quadrature of the chord overlap: the integral over ``x`` of the length of the intersection of
  the two vertical chords (``mpmath.quad``, tanh-sinh, split at the crossing points and the ends
  of the x ranges, where the integrand has kinks or square-root ends).

The two reference methods must agree to ~1e-25 (``test_reference_methods_agree``).
"""

from __future__ import annotations

import math

import mpmath as mpm
import numpy as np
import pytest
from mpmath import mp, mpf

import collide2d as c2

EPS = 2.0**-53
# Area tolerance relative to the smaller ellipse's area, for well-conditioned pairs (measured
# worst: 5.6e-16 over random crossing pairs, 1.8e-16 for four crossings; see docs/area.md).
AREA_RTOL = 16 * EPS
# Distance of a returned point from each boundary, in ulps of the point's coordinate scale
# max(|x|, |y|, a) (measured over 400 random crossing pairs: median 0.84, worst 7.3).
RESIDUAL_ULPS = 16
GTE_AREA_TEXT = "0.742400265096634487653997428112015726"


@pytest.fixture(autouse=True)
def _mp_precision():
    """Every reference computation here runs with 30 significant digits (restored afterwards)."""
    with mp.workdps(30):
        yield


# -- the mpmath reference ------------------------------------------------------------------------------


def _ell(shape):
    cx, cy, a, b, wx, wy = [mpf(float(v)) for v in shape._params]
    if a == b:
        wx, wy = mpf(1), mpf(0)
    n = mpm.sqrt(wx * wx + wy * wy)
    return cx, cy, a, b, wx / n, wy / n


def _q(E, x, y):
    cx, cy, a, b, ux, uy = E
    dx, dy = x - cx, y - cy
    return ((ux * dx + uy * dy) / a) ** 2 + ((ux * dy - uy * dx) / b) ** 2


def _point(E, t):
    cx, cy, a, b, ux, uy = E
    c, s = mpm.cos(t), mpm.sin(t)
    return cx + a * c * ux - b * s * uy, cy + a * c * uy + b * s * ux


def _ecc(E, x, y):
    cx, cy, a, b, ux, uy = E
    dx, dy = x - cx, y - cy
    return mpm.atan2((ux * dy - uy * dx) / b, (ux * dx + uy * dy) / a)


def _crossings(A, B, phase=mpf("0.3183098861837907"), imag_tol=None, merge=None):
    """Eccentric angles on A of the real common points (sorted); tangent points may appear twice.

    Roots with an imaginary part below ``imag_tol`` (default ``10**(-dps/2)``) count as real;
    with ``merge``, angles closer than it are merged (a double root, i.e. a tangent point, once).
    """
    cx, cy, a, b, ux, uy = A
    bx, by, ab, bb, vx, vy = B

    def comps(px, py):
        return (vx * px + vy * py) / ab, (vx * py - vy * px) / bb

    d1, d2 = comps(cx - bx, cy - by)
    p1, p2 = comps(a * ux, a * uy)
    r1, r2 = comps(-b * uy, b * ux)
    cp, sp = mpm.cos(phase), mpm.sin(phase)
    coeffs = [mpf(0)] * 5
    # q_B(x(t)) = sum over k of (d_k + P_k cos tau + R_k sin tau)^2 with t = tau + phase; times
    # (1 + s^2)^2 for s = tan(tau / 2) each square becomes (d (1 + s^2) + P (1 - s^2) + 2 R s)^2
    for d, p, r in ((d1, p1, r1), (d2, p2, r2)):
        P, R = p * cp + r * sp, -p * sp + r * cp
        l2, l1, l0 = d - P, 2 * R, d + P
        for i, c in enumerate((l2 * l2, 2 * l2 * l1, l1 * l1 + 2 * l2 * l0, 2 * l1 * l0, l0 * l0)):
            coeffs[i] += c
    for i, c in enumerate((1, 0, 2, 0, 1)):
        coeffs[i] -= c
    while coeffs and coeffs[0] == 0:
        coeffs = coeffs[1:]
    if len(coeffs) < 2:
        return []
    roots = mpm.polyroots(coeffs, maxsteps=400, extraprec=4 * mp.prec)
    out = []
    imag_tol = mpf(10) ** (-mp.dps // 2) if imag_tol is None else imag_tol
    for s in roots:
        if abs(mpm.im(s)) < imag_tol:
            t = 2 * mpm.atan(mpm.re(s)) + phase
            try:
                t = mpm.findroot(lambda tt: _q(B, *_point(A, tt)) - 1, t)
            except (ValueError, ZeroDivisionError):
                pass
            out.append(t % (2 * mpm.pi))
    out = sorted(out)
    if merge is not None:
        merged = []
        for t in out:
            if not merged or t - merged[-1] >= merge:
                merged.append(t)
        if len(merged) > 1 and merged[0] + 2 * mpm.pi - merged[-1] < merge:
            merged.pop()
        out = merged
    return out


def ref_area_segments(a, b, ts=None, **roots):
    """Segment-sum reference; ``ts`` the angles of the points on ``a`` if known, else ``roots`` go
    to :func:`_crossings`.

    Each arc between consecutive points is classified by testing its points at 1/4, 1/2 and 3/4
    against the other ellipse (the majority): a tangent point missing from the roots can spoil
    one of them, never two.
    """
    A, B = _ell(a), _ell(b)
    ts = _crossings(A, B, **roots) if ts is None else ts
    area_a, area_b = mpm.pi * A[2] * A[3], mpm.pi * B[2] * B[3]
    if len(ts) < 2:
        if _q(B, A[0], A[1]) <= 1 and area_a <= area_b:
            return area_a
        if _q(A, B[0], B[1]) <= 1 and area_b <= area_a:
            return area_b
        return mpf(0)
    pts = [_point(A, t) for t in ts]
    n = len(ts)
    x0, y0 = pts[0]
    total = mpf(0)
    for i in range(1, n - 1):
        total += ((pts[i][0] - x0) * (pts[i + 1][1] - y0) - (pts[i][1] - y0) * (pts[i + 1][0] - x0)) / 2
    for i in range(n):
        j = (i + 1) % n
        dt = (ts[j] - ts[i]) % (2 * mpm.pi)
        if sum(_q(B, *_point(A, ts[i] + f * dt)) <= 1 for f in (mpf(1) / 4, mpf(1) / 2, mpf(3) / 4)) >= 2:
            total += A[2] * A[3] / 2 * (dt - mpm.sin(dt))
        else:
            db = (_ecc(B, *pts[j]) - _ecc(B, *pts[i])) % (2 * mpm.pi)
            total += B[2] * B[3] / 2 * (db - mpm.sin(db))
    return total


def _chord(E, x):
    cx, cy, a, b, ux, uy = E
    m11 = ux * ux / a**2 + uy * uy / b**2
    m12 = ux * uy * (1 / a**2 - 1 / b**2)
    m22 = uy * uy / a**2 + ux * ux / b**2
    X = x - cx
    disc = m12 * m12 * X * X - m22 * (m11 * X * X - 1)
    if disc < 0:
        return None
    r = mpm.sqrt(disc)
    return cy + (-m12 * X - r) / m22, cy + (-m12 * X + r) / m22


def _xrange(E):
    cx, cy, a, b, ux, uy = E
    h = mpm.sqrt(a * a * ux * ux + b * b * uy * uy)
    return cx - h, cx + h


def _poly_chord(V, x):
    ys = []
    for (x0, y0), (x1, y1) in zip(V, V[1:] + V[:1]):
        if min(x0, x1) <= x <= max(x0, x1):
            ys += [y0, y1] if x0 == x1 else [y0 + (x - x0) * (y1 - y0) / (x1 - x0)]
    return (min(ys), max(ys)) if ys else None


def _quad_chords(chord_a, chord_b, breaks):
    def f(x):
        ca, cb = chord_a(x), chord_b(x)
        if ca is None or cb is None:
            return mpf(0)
        return max(mpf(0), min(ca[1], cb[1]) - max(ca[0], cb[0]))

    return mpm.quad(f, sorted(set(breaks)))


def ref_area_quadrature(a, b):
    A, B = _ell(a), _ell(b)
    lo, hi = max(_xrange(A)[0], _xrange(B)[0]), min(_xrange(A)[1], _xrange(B)[1])
    if lo >= hi:
        return mpf(0)
    xs = [_point(A, t)[0] for t in _crossings(A, B)]
    return _quad_chords(lambda x: _chord(A, x), lambda x: _chord(B, x), [lo, hi] + [x for x in xs if lo < x < hi])


def _verts(p):
    o, n = int(p._params[0]), int(p._params[1])
    return [(mpf(float(x)), mpf(float(y))) for x, y in p._verts[o : o + n]]


def ref_area_ellipse_polygon(e, p):
    """Quadrature of the chord overlap, split at the polygon's vertices and edge crossings."""
    E, V = _ell(e), _verts(p)
    xs = [v[0] for v in V]
    lo, hi = max(_xrange(E)[0], min(xs)), min(_xrange(E)[1], max(xs))
    if lo >= hi:
        return mpf(0)
    cx, cy, a, b, ux, uy = E
    breaks = [lo, hi] + [x for x in xs if lo < x < hi]
    for p0, p1 in zip(V, V[1:] + V[:1]):  # edge crossings from the quadratic in the unit frame
        X0 = (ux * (p0[0] - cx) + uy * (p0[1] - cy)) / a
        Y0 = (ux * (p0[1] - cy) - uy * (p0[0] - cx)) / b
        ex = (ux * (p1[0] - p0[0]) + uy * (p1[1] - p0[1])) / a
        ey = (ux * (p1[1] - p0[1]) - uy * (p1[0] - p0[0])) / b
        al, be, ga = ex * ex + ey * ey, ex * X0 + ey * Y0, X0 * X0 + Y0 * Y0 - 1
        if be * be - al * ga >= 0:
            for t in ((-be - mpm.sqrt(be * be - al * ga)) / al, (-be + mpm.sqrt(be * be - al * ga)) / al):
                x = p0[0] + t * (p1[0] - p0[0])
                if 0 <= t <= 1 and lo < x < hi:
                    breaks.append(x)
    return _quad_chords(lambda x: _chord(E, x), lambda x: _poly_chord(V, x), breaks)


def _area(shape):
    p = shape._params
    return math.pi * p[2] * p[3]


def _random_ellipse(rng, spread=0.5):
    return c2.Ellipse(rng.normal(size=2) * spread, rng.uniform(0.1, 2.0, 2), rng.uniform(0, 2 * np.pi))


def _tangent_offset(make, lo, hi, inside_code=None):
    """Bisect the translation parameter where ``relate(*make(t))`` stops being ``inside_code``.

    ``inside_code=None`` means "the interiors meet" (overlapping or nested): for two convex shapes
    translated along a line that holds on an interval of ``t``, whose end is external tangency.
    """
    inside = (c2.Relation.OVERLAPPING, c2.Relation.CONTAINS, c2.Relation.WITHIN) if inside_code is None else (inside_code,)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if c2.relate(*make(mid)) in inside:
            lo = mid
        else:
            hi = mid
    return lo


# an ellipse 2 x 1 and a circle touching it at a vertex and crossing it twice (exact numbers)
TANGENT_AND_CROSSINGS = {
    # ellipse 2 x 1 and a circle inside it at one vertex, crossing it twice besides (exact numbers)
    "circle-right": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((1, 0), 1)),
    "circle-left": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((-0.5, 0), 1.5)),
    "big-circle-top": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, -1), 2)),
    "big-circle-bottom": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, 1), 2)),
}
