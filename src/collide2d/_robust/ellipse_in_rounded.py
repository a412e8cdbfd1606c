"""Exact: whether an ellipse lies in a rounded shape (closed sets), on the stored numbers.

A rounded shape is ``A = K + D(r)`` (``K`` a convex polygon, segment or point; see
:mod:`collide2d._kernels.relate.rounded`). For convex sets, ``E`` lies in ``A`` iff its support
function is at most ``A``'s in every direction: ``h_E(u) <= h_K(u) + r |u|``. The directions split
into the normal cones ``C_i`` of the core's vertices ``v_i`` (``h_K(u) = v_i . u`` there): between
the normals of the two edges at ``v_i`` for a polygon (counter-clockwise; less than a half-turn for
a strictly convex one), two quarter-turns at each end of a segment, four at a point. With the
ellipse's centre ``c`` and shape matrix ``S = a^2 e e^T + b^2 e' e'^T`` (``e`` its unit direction,
``e'`` the perpendicular one; ``S`` is rational in the stored numbers: ``e e^T = w w^T / |w|^2``),
``h_E(u) = c . u + sqrt(u^T S u)``, so on the cone of ``v`` the question is

    ``sqrt(Q) <= r sqrt(P) - L``  for ``u`` in the cone, with ``Q = u^T S u``, ``P = u . u``,
    ``L = (c - v) . u``

(both sides homogeneous of degree 1 in ``u``, so ``u`` need not be a unit vector). Sweep the cone
by ``u(t) = g0 + t (g1 - g0)``, ``t`` in ``[0, 1]`` (``g0``, ``g1`` its rational bounding
directions); ``Q``, ``P`` are quadratics and ``L`` is linear in ``t``. Squaring with the signs kept,
the inequality holds at ``t`` iff

* (i) ``L <= 0`` or ``L^2 <= r^2 P`` (the right-hand side is not negative), and
* (ii) with ``M = r^2 P + L^2 - Q``: ``2 r L sqrt(P) <= M``, that is ``M >= 0`` or ``M^2 <= 4 r^2 L^2 P``
  when ``L <= 0``, and ``M >= 0`` and ``M^2 >= 4 r^2 L^2 P`` when ``L > 0``.

Its truth is constant between consecutive real roots of ``L (r^2 P - L^2) M (M^2 - 4 r^2 L^2 P)``
(degree at most 9, rational coefficients), and where it fails it fails on an open set (both sides
are continuous), so it holds on the whole cone iff it holds at ``t = 0``, ``t = 1`` and at one
rational point between every two consecutive roots. The roots are isolated exactly (Sturm
sequences on Fractions, bisection; a rational root met on the way is divided out), so the answer is
exact: tangency from inside (the largest distance equal to ``r``) counts as inside.

A float certificate on a grid of directions answers first when it can (:func:`_float_certificate`);
the exact sweep runs only for an ellipse within about ``1e-4`` of the pair's size of touching the
boundary from inside. This is the exact rung of ``relate_rounded_ellipse``'s containment test; the kernel decides it in
floating point when a certificate holds (:func:`collide2d._kernels.relate.rounded._ellipse_inside`).
"""

from __future__ import annotations

import math
from fractions import Fraction

# -- polynomials in t: lists of Fractions, lowest degree first ---------------------------------------


def _trim(p):
    while p and p[-1] == 0:
        p = p[:-1]
    return p


def _add(p, q):
    n = max(len(p), len(q))
    return _trim([(p[i] if i < len(p) else 0) + (q[i] if i < len(q) else 0) for i in range(n)])


def _scale(p, k):
    return _trim([k * x for x in p])


def _mul(p, q):
    if not p or not q:
        return []
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, x in enumerate(p):
        for j, y in enumerate(q):
            out[i + j] += x * y
    return _trim(out)


def _value(p, t):
    out = Fraction(0)
    for x in reversed(p):
        out = out * t + x
    return out


def _derivative(p):
    return _trim([i * p[i] for i in range(1, len(p))])


def _divmod(p, q):
    """Quotient and remainder of ``p / q`` (``q`` not zero)."""
    remainder = list(p)
    quotient = [Fraction(0)] * max(len(p) - len(q) + 1, 0)
    while len(remainder) >= len(q):
        k = remainder[-1] / q[-1]
        shift = len(remainder) - len(q)
        quotient[shift] = k
        for i, x in enumerate(q):
            remainder[shift + i] -= k * x
        remainder = _trim(remainder[:-1])
    return _trim(quotient), remainder


def _gcd(p, q):
    while q:
        p, q = q, _divmod(p, q)[1]
    return _scale(p, 1 / p[-1]) if p else p


def _square_free(p):
    """``p`` without repeated factors (the same real roots, each simple)."""
    g = _gcd(p, _derivative(p))
    return _divmod(p, g)[0] if len(g) > 1 else p


def _sturm(p):
    chain = [p, _derivative(p)]
    while len(chain[-1]) > 1:
        remainder = _divmod(chain[-2], chain[-1])[1]
        if not remainder:
            break
        chain.append(_scale(remainder, -1))
    return chain


def _variations(chain, t):
    signs = [s for s in ((_value(p, t) > 0) - (_value(p, t) < 0) for p in chain) if s]
    return sum(1 for x, y in zip(signs, signs[1:]) if x != y)


def _events(p):
    """The real roots of the square-free ``p`` in ``(0, 1)`` as sorted events: ``("point", x)`` for
    a rational root met exactly, ``("open", lo, hi)`` for an interval holding one root, with
    ``p(lo)``, ``p(hi)`` not zero."""
    roots = []
    while len(p) > 1 and _value(p, Fraction(0)) == 0:
        p = _divmod(p, [Fraction(0), Fraction(1)])[0]
    while len(p) > 1 and _value(p, Fraction(1)) == 0:
        p = _divmod(p, [Fraction(-1), Fraction(1)])[0]
    if len(p) <= 1:
        return roots
    chain = _sturm(p)
    work = [(Fraction(0), Fraction(1))]
    while work:
        lo, hi = work.pop()
        count = _variations(chain, lo) - _variations(chain, hi)
        if count == 0:
            continue
        if count == 1:
            roots.append(("open", lo, hi))
            continue
        mid = (lo + hi) / 2
        if _value(p, mid) == 0:  # a rational root: keep it and divide it out
            roots.append(("point", mid))
            p = _divmod(p, [-mid, Fraction(1)])[0]
            chain = _sturm(p) if len(p) > 1 else [p]
            work += [(lo, mid), (mid, hi)]
            continue
        work += [(lo, mid), (mid, hi)]
    points = {r[1] for r in roots if r[0] == "point"}
    final = []
    for r in roots:  # an interval may end at a rational root divided out later: shrink it off
        while r[0] == "open" and (r[1] in points or r[2] in points):
            lo, hi = r[1], r[2]
            mid = (lo + hi) / 2
            r = ("open", lo, mid) if _variations(chain, lo) - _variations(chain, mid) == 1 else ("open", mid, hi)
        final.append(r)
    return sorted(final, key=lambda r: r[1])


def _samples(events):
    """``0``, ``1`` and one rational point in every gap between consecutive roots (module notes)."""
    out = [Fraction(0), Fraction(1)]
    bounds = [("point", Fraction(0))] + events + [("point", Fraction(1))]
    for left, right in zip(bounds, bounds[1:]):
        if left[0] == "open":
            out.append(left[2])  # not a root, above the left root, at most the right root's bound
        elif right[0] == "open":
            out.append(right[1])
        else:
            out.append((left[1] + right[1]) / 2)
        if left[0] == "point" and left[1] not in (0, 1):
            out.append(left[1])
    return out


# -- the decision ----------------------------------------------------------------------------------


def _cones(core):
    """``(v, g0, g1)``: each core vertex with the bounding directions of (part of) its normal cone,
    counter-clockwise, each part less than a half-turn."""
    n = len(core)
    if n == 1:
        axes = [(1, 0), (0, 1), (-1, 0), (0, -1)]
        return [(core[0], axes[k], axes[(k + 1) % 4]) for k in range(4)]
    if n == 2:
        (ax, ay), (bx, by) = core
        ex, ey = bx - ax, by - ay
        right, left = (ey, -ex), (-ey, ex)
        return [(core[1], right, (ex, ey)), (core[1], (ex, ey), left),
                (core[0], left, (-ex, -ey)), (core[0], (-ex, -ey), right)]
    out = []
    for i in range(n):
        (px, py), (vx, vy), (nx, ny) = core[i - 1], core[i], core[(i + 1) % n]
        before = (vy - py, -(vx - px))  # outward normal of the edge ending at v
        after = (ny - vy, -(nx - vx))  # of the edge starting at v
        out.append((core[i], before, after))
    return out


def _holds(t, g0, g1, cx, cy, vx, vy, S, r2):
    ux, uy = g0[0] + t * (g1[0] - g0[0]), g0[1] + t * (g1[1] - g0[1])
    P = ux * ux + uy * uy
    Q = S[0] * ux * ux + 2 * S[1] * ux * uy + S[2] * uy * uy
    L = (cx - vx) * ux + (cy - vy) * uy
    if L > 0 and L * L > r2 * P:
        return False
    M = r2 * P + L * L - Q
    if L <= 0:
        return M >= 0 or M * M <= 4 * r2 * L * L * P
    return M >= 0 and M * M >= 4 * r2 * L * L * P


_GRID = 4096  # directions per cone of the float certificate


def _float_certificate(ellipse, core, radius):
    """``True`` or ``False`` when a float certificate decides, else ``None``.

    On each cone, ``g(u) = h_E(u) - v . u - r`` over unit ``u`` at :data:`_GRID` + 1 evenly spaced
    angles: ``g`` is Lipschitz in the angle with constant ``|c - v| + max(a, b) + r`` (each term's
    derivative is bounded by its size), so the largest sample plus that constant times half the
    spacing bounds ``g`` on the cone; a sample above the rounding bound shows a direction where the
    ellipse sticks out. The float ``g`` is within ``1e-12`` of the pair's scale of the exact one."""
    import numpy as np

    cx, cy, a, b, wx, wy = (float(x) for x in ellipse[:6])
    r = float(radius)
    norm = math.hypot(wx, wy)
    ex, ey = wx / norm, wy / norm
    scale = max(abs(cx), abs(cy), a, b, r, *(abs(float(x)) for v in core for x in v))
    slack = 1e-12 * scale
    undecided = False
    for v, g0, g1 in _cones([(float(x), float(y)) for x, y in core]):
        t0, t1 = math.atan2(g0[1], g0[0]), math.atan2(g1[1], g1[0])
        if t1 < t0:
            t1 += 2 * math.pi
        theta = np.linspace(t0, t1, _GRID + 1)
        ux, uy = np.cos(theta), np.sin(theta)
        along, across = ux * ex + uy * ey, uy * ex - ux * ey
        g = (cx - v[0]) * ux + (cy - v[1]) * uy + np.sqrt(a * a * along * along + b * b * across * across) - r
        best = float(g.max())
        if best > slack:
            return False
        lipschitz = math.hypot(cx - v[0], cy - v[1]) + max(a, b) + r
        if best + lipschitz * 0.5 * (t1 - t0) / _GRID + slack >= 0.0:
            undecided = True
    return None if undecided else True


def ellipse_in_rounded(ellipse, core, radius):
    """Whether the closed ellipse row ``ellipse`` (``cx, cy, a, b, wx, wy``, floats) lies in the
    closed set of points within ``radius`` of the convex ``core`` (a list of ``(x, y)``: 1, 2 or
    ``n >= 3`` counter-clockwise vertices). Exact (module notes); a float certificate
    (:func:`_float_certificate`) answers first when it can."""
    certain = _float_certificate(ellipse, core, radius)
    if certain is not None:
        return certain
    cx, cy, a, b, wx, wy = (Fraction(float(x)) for x in ellipse[:6])
    ww = wx * wx + wy * wy
    a2, b2 = a * a, b * b
    S = ((a2 * wx * wx + b2 * wy * wy) / ww, (a2 - b2) * wx * wy / ww, (a2 * wy * wy + b2 * wx * wx) / ww)
    r = Fraction(float(radius))
    r2 = r * r
    core = [(Fraction(float(x)), Fraction(float(y))) for x, y in core]
    for v, g0, g1 in _cones(core):
        dx, dy = g1[0] - g0[0], g1[1] - g0[1]
        ux, uy = [Fraction(g0[0]), Fraction(dx)], [Fraction(g0[1]), Fraction(dy)]  # u(t), lowest degree first
        P = _add(_mul(ux, ux), _mul(uy, uy))
        Q = _add(_add(_scale(_mul(ux, ux), S[0]), _scale(_mul(ux, uy), 2 * S[1])), _scale(_mul(uy, uy), S[2]))
        L = _add(_scale(ux, cx - v[0]), _scale(uy, cy - v[1]))
        M = _add(_add(_scale(P, r2), _mul(L, L)), _scale(Q, -1))
        G = _add(_scale(P, r2), _scale(_mul(L, L), -1))
        H = _add(_mul(M, M), _scale(_mul(_mul(L, L), P), -4 * r2))
        product = [Fraction(1)]
        for factor in (L, G, M, H):
            if factor:  # an identically zero factor has one sign everywhere
                product = _mul(product, factor)
        events = _events(_square_free(product)) if len(product) > 1 else []
        for t in _samples(events):
            if not _holds(t, g0, g1, cx, cy, v[0], v[1], S, r2):
                return False
    return True
