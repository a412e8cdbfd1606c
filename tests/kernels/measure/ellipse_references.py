"""References and helpers of the ellipse contact tests (``test_distance_ellipse.py``,
``test_distance_ellipse_search.py``): written here, none calls collide2d's kernels except
:func:`kern`, which calls one to be checked. Every reference works from the stored float64
parameter rows converted exactly to 40-digit mpmath numbers:

* :func:`ref_point`: signed distance of a point to an ellipse boundary by dense parametric
  sampling of ``|y - (a cos t, b sin t)|^2`` and bisection on its derivative at 40 digits around
  every sampled local minimum.
* :func:`ref_support_max`: ``max over unit u of [min_{x in B} x.u - max_{x in A} x.u]`` by dense
  sampling of the angle (2**17 angles, float64) and golden-section refinement at 40 digits around
  the best sampled local maxima; with closed-form support functions this is the signed distance
  (Euclidean gap, or minus the penetration depth).
* :func:`ref_boundary_distance`: gap of two separated ellipses from dense sampling of both
  boundaries and a 2-D Newton refinement of the two parameters at 40 digits.
* :func:`naokihori_depth`: the osculating-circle approximation of NaokiHori/Collision-of-Ellipse,
  implemented here so that its error can be measured against the exact depth.
"""


from __future__ import annotations

import math

import mpmath as mp
import numpy as np

import collide2d as c2
from collide2d._kernels.measure import distance_ellipse as K

mp.mp.dps = 40


def _plain(kernel):
    """The Python function of a kernel (the kernel itself under NUMBA_DISABLE_JIT)."""
    return getattr(kernel, "py_func", kernel)


# -- references ------------------------------------------------------------------------------------


def _frame(row):
    """Exact centre, semi-axes and unit axis (mp) of an ellipse parameter row."""
    cx, cy, a, b, wx, wy = (mp.mpf(float(v)) for v in row[:6])
    if a == b:
        return cx, cy, a, b, mp.mpf(1), mp.mpf(0)
    n = mp.sqrt(wx * wx + wy * wy)
    return cx, cy, a, b, wx / n, wy / n


def _local(row, x, y):
    cx, cy, a, b, ux, uy = _frame(row)
    dx = mp.mpf(float(x)) - cx
    dy = mp.mpf(float(y)) - cy
    return a, b, ux * dx + uy * dy, ux * dy - uy * dx


def ref_point(row, x, y, samples=4096):
    """Signed distance (mp) of the point ``(x, y)`` to the boundary of the ellipse ``row``."""
    a, b, y0, y1 = _local(row, x, y)
    t = np.linspace(-np.pi, np.pi, samples, endpoint=False)
    af, bf, y0f, y1f = float(a), float(b), float(y0), float(y1)
    f = (y0f - af * np.cos(t)) ** 2 + (y1f - bf * np.sin(t)) ** 2
    step = 2 * np.pi / samples

    def fp(s):  # derivative of f / 2
        c, sn = mp.cos(s), mp.sin(s)
        return (y0 - a * c) * a * sn - (y1 - b * sn) * b * c

    best = None
    order = np.argsort(f)
    minima = [i for i in order[:64] if f[i] <= f[i - 1] and f[i] <= f[(i + 1) % samples]][:4]
    for i in minima:
        lo, hi = mp.mpf(t[i] - step), mp.mpf(t[i] + step)
        if fp(lo) > 0 or fp(hi) < 0:
            lo, hi = mp.mpf(t[i] - 4 * step), mp.mpf(t[i] + 4 * step)
        for _ in range(140):
            mid = (lo + hi) / 2
            if fp(mid) < 0:
                lo = mid
            else:
                hi = mid
        s = (lo + hi) / 2
        d = mp.sqrt((y0 - a * mp.cos(s)) ** 2 + (y1 - b * mp.sin(s)) ** 2)
        if best is None or d < best:
            best = d
    inside = (y0 / a) ** 2 + (y1 / b) ** 2 < 1
    return -best if inside else best


def ellipse_support(row):
    """``(h_np, h_mp)``: support functions ``h(t) = max_{x in E} x.(cos t, sin t)``."""
    cx, cy, a, b, ux, uy = _frame(row)
    cxf, cyf, af, bf, uxf, uyf = (float(v) for v in (cx, cy, a, b, ux, uy))

    def h_np(t):
        c, s = np.cos(t), np.sin(t)
        return cxf * c + cyf * s + np.hypot(af * (uxf * c + uyf * s), bf * (uxf * s - uyf * c))

    def h_mp(t):
        c, s = mp.cos(t), mp.sin(t)
        return cx * c + cy * s + mp.sqrt((a * (ux * c + uy * s)) ** 2 + (b * (ux * s - uy * c)) ** 2)

    return h_np, h_mp


def vertices_support(points):
    """Support functions of the convex hull of ``points`` (a polygon or a segment)."""
    pts = np.asarray(points, dtype=float)
    mpts = [(mp.mpf(float(x)), mp.mpf(float(y))) for x, y in pts]

    def h_np(t):
        return np.max(np.cos(t)[:, None] * pts[:, 0] + np.sin(t)[:, None] * pts[:, 1], axis=1)

    def h_mp(t):
        c, s = mp.cos(t), mp.sin(t)
        return max(x * c + y * s for x, y in mpts)

    return h_np, h_mp


def ref_support_max(support_a, support_b, samples=1 << 17, keep=6):
    """``(s, t*)``: ``max_t [-h_B(t + pi) - h_A(t)]`` (signed distance, normal angle)."""
    ha_np, ha_mp = support_a
    hb_np, hb_mp = support_b
    t = np.linspace(-np.pi, np.pi, samples, endpoint=False)
    g = -hb_np(t + np.pi) - ha_np(t)
    step = 2 * np.pi / samples
    is_max = (g >= np.roll(g, 1)) & (g >= np.roll(g, -1))
    cand = np.flatnonzero(is_max)
    cand = cand[np.argsort(-g[cand])][:keep]
    pi = mp.pi

    def gm(s):
        return -hb_mp(s + pi) - ha_mp(s)

    best, best_t = None, None
    inv = (mp.sqrt(5) - 1) / 2
    for i in cand:
        lo, hi = mp.mpf(t[i] - 2 * step), mp.mpf(t[i] + 2 * step)
        x1 = hi - inv * (hi - lo)
        x2 = lo + inv * (hi - lo)
        f1, f2 = gm(x1), gm(x2)
        for _ in range(110):
            if f1 < f2:
                lo, x1, f1 = x1, x2, f2
                x2 = lo + inv * (hi - lo)
                f2 = gm(x2)
            else:
                hi, x2, f2 = x2, x1, f1
                x1 = hi - inv * (hi - lo)
                f1 = gm(x1)
        s = (lo + hi) / 2
        v = gm(s)
        if best is None or v > best:
            best, best_t = v, s
    return best, best_t


def ref_boundary_distance(row_a, row_b, samples=3000):
    """Distance (mp) between the boundaries of two separated ellipses."""
    A = _frame(row_a)
    B = _frame(row_b)

    def pt_np(E, t):
        cx, cy, a, b, ux, uy = (float(v) for v in E)
        x, y = a * np.cos(t), b * np.sin(t)
        return cx + ux * x - uy * y, cy + uy * x + ux * y

    t = np.linspace(-np.pi, np.pi, samples, endpoint=False)
    ax, ay = pt_np(A, t)
    bx, by = pt_np(B, t)
    d2 = (ax[:, None] - bx[None, :]) ** 2 + (ay[:, None] - by[None, :]) ** 2
    i, j = np.unravel_index(np.argmin(d2), d2.shape)

    def pt(E, s):
        cx, cy, a, b, ux, uy = E
        x, y = a * mp.cos(s), b * mp.sin(s)
        return cx + ux * x - uy * y, cy + uy * x + ux * y

    def grad(s, r):
        # d/ds and d/dr of |P_A(s) - P_B(r)|^2 / 2
        pa, pb = pt(A, s), pt(B, r)
        dx, dy = pa[0] - pb[0], pa[1] - pb[1]
        _, _, a, b, ux, uy = A
        tax = -a * mp.sin(s) * ux - b * mp.cos(s) * uy
        tay = -a * mp.sin(s) * uy + b * mp.cos(s) * ux
        _, _, a2, b2, vx, vy = B
        tbx = -a2 * mp.sin(r) * vx - b2 * mp.cos(r) * vy
        tby = -a2 * mp.sin(r) * vy + b2 * mp.cos(r) * vx
        return [dx * tax + dy * tay, -(dx * tbx + dy * tby)]

    s, r = mp.findroot(lambda s, r: grad(s, r), (mp.mpf(t[i]), mp.mpf(t[j])), tol=mp.mpf(10) ** -35, maxsteps=200)
    pa, pb = pt(A, s), pt(B, r)
    return mp.sqrt((pa[0] - pb[0]) ** 2 + (pa[1] - pb[1]) ** 2)


def naokihori_depth(row_a, row_b, iterations=10):
    """Approximate penetration depth of NaokiHori/Collision-of-Ellipse (float64).

    Each ellipse is replaced by its osculating circle at the boundary point whose normal passes
    through the other ellipse's current centre of curvature (starting from the centres); after a
    fixed number of alternations the depth is ``r0 + r1 - |C0 - C1|``. Exact for circles only.
    The foot point is found here by dense sampling plus Newton (independent of collide2d).
    """
    E = [tuple(float(v) for v in _frame(r)) for r in (row_a, row_b)]
    centres = [np.array(E[0][:2]), np.array(E[1][:2])]
    radii = [0.0, 0.0]
    ts = np.linspace(-np.pi, np.pi, 8192, endpoint=False)
    for _ in range(iterations):
        new = []
        for k in range(2):
            cx, cy, a, b, ux, uy = E[k]
            q = centres[1 - k] - (cx, cy)
            y0, y1 = ux * q[0] + uy * q[1], ux * q[1] - uy * q[0]
            f = (y0 - a * np.cos(ts)) ** 2 + (y1 - b * np.sin(ts)) ** 2
            s = ts[np.argmin(f)]
            for _ in range(30):  # Newton on the derivative of f / 2
                c, sn = np.cos(s), np.sin(s)
                f1 = (y0 - a * c) * a * sn - (y1 - b * sn) * b * c
                f2 = (a * sn) ** 2 + (y0 - a * c) * a * c + (b * c) ** 2 + (y1 - b * sn) * b * sn
                if f2 <= 0:
                    break
                s -= f1 / f2
            c, sn = np.cos(s), np.sin(s)
            # centre of curvature (evolute) and radius of curvature at eccentric angle s
            xc = (a * a - b * b) / a * c**3
            yc = (b * b - a * a) / b * sn**3
            radii[k] = (a * a * sn * sn + b * b * c * c) ** 1.5 / (a * b)
            new.append(np.array([cx + ux * xc - uy * yc, cy + uy * xc + ux * yc]))
        centres = new
    return radii[0] + radii[1] - float(np.hypot(*(centres[1] - centres[0])))


# -- helpers ---------------------------------------------------------------------------------------

EMPTY = np.zeros((0, 2))
# Tolerances, in units of the pair's length scale L (largest semi-axis, or |p - c| for far points):
# measured maxima are quoted in docs/contact.md (point: 5.8e-16; pairs: 1.6e-15).
TOL_POINT = 1.5e-15
TOL_PAIR = 4e-15
TOL_INVARIANT = 4e-15


def kern(kind, a, b):
    """Call the kernel ``contact_ellipse_<kind>`` directly on two single shapes."""
    return getattr(K, f"contact_ellipse_{kind}")(a._params, a._verts, b._params, b._verts)


def random_pair(rng, aspect, mode):
    """An ellipse pair: A of semi-axes (1, 1/aspect), B random; ``mode`` 'apart' or 'overlap'."""
    a_b = rng.uniform(0.3, 3.0)
    A = c2.Ellipse((rng.uniform(-1, 1), rng.uniform(-1, 1)), (1.0, 1.0 / aspect), rng.uniform(-3, 3))
    for _ in range(1000):
        scale = rng.uniform(1.05, 3.0) if mode == "apart" else rng.uniform(0.0, 0.9)
        ang = rng.uniform(-3, 3)
        B = c2.Ellipse(
            A.center + scale * (1.0 + a_b) * np.array([math.cos(ang), math.sin(ang)]),
            (a_b, a_b / aspect * rng.uniform(1.0, 2.0)),
            rng.uniform(-3, 3),
        )
        if c2.disjoint(A, B) == (mode == "apart"):
            return A, B
    raise AssertionError("no pair")


def check_invariants(r, scale):
    """|normal| = 1 and point_b - point_a = separation * normal.

    The residual is the tangential component ``g'(u*)`` of the optimality condition; witness points
    on a flat part of an ellipse move by (radius of curvature) x (angle error), so the allowance
    grows with the radii of curvature ``1 / curvature`` at the witness points.
    """
    s, nx, ny, pax, pay, pbx, pby, ka, kb = r
    scale = scale + (1.0 / ka if ka > 0 else 0.0) + (1.0 / kb if kb > 0 else 0.0)
    assert abs(math.hypot(nx, ny) - 1.0) <= 4e-16
    assert abs(pbx - pax - s * nx) <= TOL_INVARIANT * scale
    assert abs(pby - pay - s * ny) <= TOL_INVARIANT * scale


def on_boundary(e, x, y):
    """``q(x) - 1`` of the stored ellipse at a point (float64)."""
    cx, cy, a, b, wx, wy = e._params
    n = math.hypot(wx, wy) if a != b else 1.0
    ux, uy = (wx / n, wy / n) if a != b else (1.0, 0.0)
    y0 = ux * (x - cx) + uy * (y - cy)
    y1 = ux * (y - cy) - uy * (x - cx)
    return (y0 / a) ** 2 + (y1 / b) ** 2 - 1.0


def ellipse_curvature_at(e, x, y):
    """Curvature ``a b / (a^2 sin^2 t + b^2 cos^2 t)^{3/2}`` at the boundary point nearest (x, y)."""
    cx, cy, a, b, wx, wy = e._params
    n = math.hypot(wx, wy) if a != b else 1.0
    ux, uy = (wx / n, wy / n) if a != b else (1.0, 0.0)
    y0 = ux * (x - cx) + uy * (y - cy)
    y1 = ux * (y - cy) - uy * (x - cx)
    t = math.atan2(y1 / b, y0 / a)
    return a * b / (a * a * math.sin(t) ** 2 + b * b * math.cos(t) ** 2) ** 1.5
