"""Ellipse against ellipse (collide2d._kernels.relate.conic) against an independent reference.

Reference (written separately from the kernel, shares no code with it): the extremes of the
normalised quadratic q_A over the boundary of B. With B's boundary x(t) = c_B + a cos t u + b sin t u^,
q_A(x(t)) is a trigonometric polynomial of degree 2; its critical points are the real roots of a
quartic in s = tan(t/2), found with mpmath at 80 digits from the exact stored numbers. Then

* min = max = 1                         -> EQUAL
* max <= 1 (max = 1: internal tangency) -> CONTAINS
* min < 1 < max                         -> boundaries cross -> OVERLAPPING
* min >= 1: B's boundary is outside A: WITHIN if c_A is inside B, else DISJOINT (min > 1) or
  TOUCHING (min = 1),
with "= 1" meaning within 1e-40 (the float-built test pairs are never that close to tangency
unless they are exactly tangent).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d import _exact
from collide2d._kernels import codes
from collide2d._kernels.relate import conic

R = c2.Relation
EPS = 2.0**-53
NOVERTS = np.zeros((0, 2))

# -- reference ------------------------------------------------------------------------------------


def _mp_row(params):
    return [mpmath.mpf(float(v)) for v in params]


def _q(row, x, y):
    """Normalised quadratic of an ellipse row at (x, y): <= 1 inside."""
    cx, cy, a, b, wx, wy = row
    n = mpmath.sqrt(wx * wx + wy * wy)
    ux, uy = wx / n, wy / n
    px, py = x - cx, y - cy
    s = ux * px + uy * py
    t = -uy * px + ux * py
    return (s / a) ** 2 + (t / b) ** 2


def reference(pa, pb):
    """Exact (80-digit) relation of ellipse row pa against ellipse row pb."""
    with mpmath.workdps(80):
        A, B = _mp_row(pa), _mp_row(pb)
        cx, cy, a, b, wx, wy = B
        n = mpmath.sqrt(wx * wx + wy * wy)
        ux, uy = wx / n, wy / n
        # x(t) - c_A = p0 + cos t * p1 + sin t * p2; q_A is then a quadratic form in (1, cos, sin)
        acx, acy, aa, ab, awx, awy = A
        an = mpmath.sqrt(awx * awx + awy * awy)
        vx, vy = awx / an, awy / an

        def coords(px, py):  # A's local coordinates divided by its semi-axes
            return ((vx * px + vy * py) / aa, (-vy * px + vx * py) / ab)

        s0, t0 = coords(cx - acx, cy - acy)
        s1, t1 = coords(a * ux, a * uy)
        s2, t2 = coords(-b * uy, b * ux)
        # q(t) = (s0 + s1 c + s2 s)^2 + (t0 + t1 c + t2 s)^2
        al = s1 * s1 + t1 * t1  # c^2
        be = s2 * s2 + t2 * t2  # s^2
        ga = s1 * s2 + t1 * t2  # c s (times 2)
        de = s0 * s1 + t0 * t1  # c (times 2)
        ep = s0 * s2 + t0 * t2  # s (times 2)
        ze = s0 * s0 + t0 * t0

        def qt(t):
            c, s = mpmath.cos(t), mpmath.sin(t)
            return al * c * c + be * s * s + 2 * ga * c * s + 2 * de * c + 2 * ep * s + ze

        # q'(t) (1 + s^2)^2 / 2 as a quartic in s = tan(t/2), highest degree first
        k1, k2, k3, k4 = 2 * (be - al), ga, -2 * de, ep
        # k1 s(1 - s^2) + k2 ((1 - s^2)^2 - 4 s^2) + k3 s (1 + s^2) + k4 (1 - s^4)
        coeffs = [k2 - k4, -k1 + k3, -6 * k2, k1 + k3, k2 + k4]
        ts = [mpmath.mpf(0), mpmath.pi]
        while coeffs and abs(coeffs[0]) < mpmath.mpf(10) ** -70:
            coeffs = coeffs[1:]
        if len(coeffs) >= 2:
            roots = mpmath.polyroots(coeffs, maxsteps=400, extraprec=400)
            for r in roots:
                if abs(mpmath.im(r)) < mpmath.mpf(10) ** -30:
                    ts.append(2 * mpmath.atan(mpmath.re(r)))
        values = [qt(t) for t in ts]
        lo, hi = min(values), max(values)
        tol = mpmath.mpf(10) ** -40
        if abs(lo - 1) < tol and abs(hi - 1) < tol:
            return R.EQUAL
        if hi < 1 + tol:
            return R.CONTAINS
        if lo < 1 - tol:
            return R.OVERLAPPING
        inside = _q(B, acx, acy) < 1
        if inside:
            return R.WITHIN
        return R.DISJOINT if lo > 1 + tol else R.TOUCHING


def rel(a, b):
    return c2.relate(a, b)


def ell(center, radii, angle=0.0):
    return c2.Ellipse(center, radii, angle)


def check(a, b, expected=None):
    """Relation via the public API; checked against the reference (and ``expected``) both ways."""
    truth = reference(a._params, b._params)
    if expected is not None:
        assert truth == expected, (a, b, truth, expected)
    got = rel(a, b)
    assert got == truth, (a, b, got, truth)
    mirror = {R.CONTAINS: R.WITHIN, R.WITHIN: R.CONTAINS}.get(truth, truth)
    assert rel(b, a) == mirror
    return truth


# -- (a) the user's pairs (horizontal semi-axis, vertical semi-axis, cx, cy) -----------------------

COLLIDE = [
    ((1, 1, 0, 0), (1, 1, 1, 0), R.OVERLAPPING),
    ((11.2, 5, -5, 0), (11.2, 10, 10, -5), R.OVERLAPPING),
    ((7.1, 5, -5, -15), (11.2, 10, 10, -10), R.OVERLAPPING),
    ((5, 35.4, -10, 0), (40.3, 20, 30, -30), R.OVERLAPPING),
    ((10, 18, -15, 5), (21.2, 15, 15, 10), R.OVERLAPPING),
    ((5, 11.2, 10, 10), (21.2, 15, 15, 10), R.WITHIN),
    ((5, 11.2, 10, 5), (21.2, 15, 15, 10), R.OVERLAPPING),  # its bottom pokes out of the second
    ((1, 60, -40, 0), (60, 1, 0, 10), R.OVERLAPPING),
    ((6.27, 8.68, -8, -2), (10, 11.66, 8, 0), R.OVERLAPPING),
]
# The approximate source claimed none of these collide; the exact reference agrees for all nine.
APART = [
    ((1, 1, 0, 0), (1, 1, 3, 0)),
    ((11.2, 5, -15, 10), (11.2, 10, 10, -5)),
    ((7.1, 5, -5, -15), (11.2, 10, 10, -5)),
    ((5, 35.4, -10, 0), (36.4, 10, 30, -30)),
    ((10, 14.1, -15, 0), (21.2, 15, 15, 10)),
    ((1, 60, -62, -52), (60, 1, 0, 10)),
    ((20, 63.3, -40, -20), (40, 72.1, 20, 0)),
    ((60, 84.9, -80, -20), (100, 116.6, 80, 0)),
    ((40.3, 35, 10, 20), (3.4, 2.2, 42.5, -10)),
]


def _user(t):
    h, v, cx, cy = t
    return ell((cx, cy), (h, v))


@pytest.mark.parametrize("p, q, expected", COLLIDE)
def test_user_pairs_collide(p, q, expected):
    a, b = _user(p), _user(q)
    check(a, b, expected)
    assert c2.intersects(a, b) and not c2.disjoint(a, b)
    assert c2.overlaps(a, b) == (expected == R.OVERLAPPING)
    assert c2.within(a, b) == (expected == R.WITHIN)


@pytest.mark.parametrize("p, q", APART)
def test_user_pairs_apart(p, q):
    a, b = _user(p), _user(q)
    check(a, b, R.DISJOINT)
    assert not c2.intersects(a, b) and c2.disjoint(a, b)


def test_user_pairs_batch():
    pairs = [(p, q) for p, q, _ in COLLIDE] + APART
    a = ell([(p[2], p[3]) for p, _ in pairs], [(p[0], p[1]) for p, _ in pairs])
    b = ell([(q[2], q[3]) for _, q in pairs], [(q[0], q[1]) for _, q in pairs])
    got = c2.relate(a, b)
    want = [e for _, _, e in COLLIDE] + [R.DISJOINT] * len(APART)
    assert list(got) == list(want)
    assert list(c2.intersects(a, b)) == [True] * 9 + [False] * 9


# -- (b) exact tangencies ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (ell((0, 0), (1, 1)), ell((2, 0), (1, 1)), R.TOUCHING),
        (ell((0, 0), (3, 3)), ell((0, 5), (2, 2)), R.TOUCHING),
        (ell((0.5, 0.25), (0.75, 0.75)), ell((0.5, 1.5), (0.5, 0.5)), R.TOUCHING),
        (ell((0, 0), (2, 1)), ell((3, 0), (1, 3)), R.TOUCHING),
        (ell((0, 0), (2, 1)), ell((3, 0), (1, 1)), R.TOUCHING),
        (ell((0, 0), (2, 1)), ell((0, 0), (1, 1)), R.CONTAINS),
        (ell((0, 0), (2, 1)), ell((1.5, 0), (0.5, 0.5)), R.CONTAINS),
        (ell((0, 0), (2, 1)), ell((0, 0), (2, 0.5)), R.CONTAINS),
        (ell((0, 0), (2, 1)), ell((0, 0), (1.5, 1)), R.CONTAINS),
        (ell((0, 0), (2, 1), 0.7), ell((0, 0), (1, 1)), R.CONTAINS),
        (ell((0, 0), (1, 1)), ell((0, 0), (2, 1)), R.WITHIN),
        (ell((0, 0), (3, 3)), ell((1, 0), (2, 2)), R.CONTAINS),
        (ell((0, 0), (2, 1)), ell((0, 2), (1, 1), 1.0), R.TOUCHING),
        (ell((0, 0), (4, 1), np.pi / 2), ell((2, 0), (1, 1)), R.TOUCHING),
    ],
)
def test_exact_tangencies(a, b, expected):
    check(a, b, expected)


def test_exact_tangency_kernel_modes():
    """The float kernel may not decide exact tangencies; the exact branch must."""
    a, b = ell((0, 0), (2, 1)), ell((3, 0), (1, 3))
    assert conic.relate_ellipse_ellipse(a._params, NOVERTS, b._params, NOVERTS, EPS) in (codes.UNDECIDED, codes.TOUCHING)
    twin = _exact.kernel_function("relate_ellipse_ellipse")
    ra, va = _exact.exact_row("ellipse", a._params, NOVERTS)
    rb, vb = _exact.exact_row("ellipse", b._params, NOVERTS)
    assert twin(ra, va, rb, vb, 0) == codes.TOUCHING


# -- (c) tangent pairs moved apart / together -----------------------------------------------------

GAPS = [1e-3, 1e-6, 1e-9, 1e-12, 1e-15]


@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("sign", [1, -1])
def test_shifted_tangencies(gap, sign):
    s = sign * gap
    cases = [
        (ell((0, 0), (2, 1)), ell((3 + 3 * s, 0), (1, 3))),  # vertex to vertex
        (ell((0, 0), (2, 1)), ell((3 + 3 * s, 0), (1, 1))),
        (ell((0, 0), (1, 1)), ell((2 + 2 * s, 0), (1, 1))),
        (ell((0, 0), (2, 1)), ell((0, 0), (1 + s, 1 + s))),  # internal double tangency
        (ell((0, 0), (2, 1)), ell((1.5 + 1.5 * s, 0), (0.5, 0.5))),  # osculating circle
        (ell((0, 0), (2, 1)), ell((0, 0), (2, 0.5 + s))),
        (ell((0, 0), (2, 1), 0.3), ell((0, 0), (2 - 2 * s, 1), 0.3)),
    ]
    for a, b in cases:
        check(a, b)


def _tangent_pair(rng, aspect, gap, outside=True):
    """A random ellipse pair tangent at a support point, then shifted by gap * size along the normal."""
    a1 = 1.0
    b1 = 1.0 / aspect
    a2 = rng.uniform(0.3, 3)
    b2 = a2 / aspect * rng.uniform(1, 2)
    th1, th2 = rng.uniform(0, np.pi, 2)
    phi = rng.uniform(0, 2 * np.pi)
    A = ell((0, 0), (a1, b1), th1)
    with mpmath.workdps(50):
        n = (mpmath.cos(phi), mpmath.sin(phi))

        def support(row, nx, ny):
            cx, cy, a, b, wx, wy = _mp_row(row)
            w = mpmath.sqrt(wx * wx + wy * wy)
            ux, uy = wx / w, wy / w
            pu, pv = ux * nx + uy * ny, -uy * nx + ux * ny
            rho = mpmath.sqrt(a * a * pu * pu + b * b * pv * pv)
            su, sv = a * a * pu / rho, b * b * pv / rho
            return ux * su - uy * sv, uy * su + ux * sv

        B0 = ell((0, 0), (a2, b2), th2)
        sx, sy = support(A._params, *n)
        if outside:  # B's support point in direction -n at A's support point in direction n
            tx, ty = support(B0._params, -n[0], -n[1])
            cx, cy = sx - tx, sy - ty
        else:  # B inside A, touching at the same support point
            B0 = ell((0, 0), (a2 * b1 / 3, b2 * b1 / 3), th2) if aspect > 1 else ell((0, 0), (0.5, 0.3), th2)
            tx, ty = support(B0._params, *n)
            cx, cy = sx - tx, sy - ty
        size = max(a1, a2)
        cx += gap * size * n[0]
        cy += gap * size * n[1]
        return A, ell((float(cx), float(cy)), B0.radii, th2)


@pytest.mark.parametrize("aspect", [1, 10, 1e3])
def test_random_shifted_tangencies(aspect):
    rng = np.random.default_rng(int(aspect))
    seen = set()
    for gap in [1e-3, 1e-6, 1e-9, 1e-12, 1e-15]:
        for sign in (1, -1):
            for outside in (True, False):
                for _ in range(2):
                    a, b = _tangent_pair(rng, aspect, sign * gap, outside)
                    seen.add(check(a, b))
    assert {R.DISJOINT, R.OVERLAPPING} <= seen


# -- (d) nested, identical, circles, needles, far away, tiny -------------------------------------


def test_equal_sets_written_differently():
    base = ell((1, 2), (3, 1), 0.25)
    wx, wy = base.direction  # the float angles 0.25 + pi and 0.25 + pi/2 are other rotations
    for other in [
        c2.Ellipse((1, 2), (3, 1), direction=(-wx, -wy)),
        c2.Ellipse((1, 2), (1, 3), direction=(-wy, wx)),
        c2.Ellipse((1, 2), (1, 3), direction=(wy, -wx)),
    ]:
        assert rel(base, other) == R.EQUAL
        assert c2.equals(base, other) and c2.contains(base, other) and c2.within(base, other)
    assert rel(ell((0, 0), (2, 1)), ell((0, 0), (1, 2), np.pi / 2)) == R.EQUAL
    for angle in [0.0, 0.3, 1.0, 2.5]:
        assert rel(c2.Circle((1, 1), 2), ell((1, 1), (2, 2), angle)) == R.EQUAL
    # the same set as raw kernel rows: w and -w, a scaled w, swapped radii with perpendicular w
    twin = _exact.kernel_function("relate_ellipse_ellipse")
    rows = [
        np.array([0.0, 0.0, 3.0, 1.0, 0.5, 1.0]),
        np.array([0.0, 0.0, 3.0, 1.0, -0.5, -1.0]),
        np.array([0.0, 0.0, 3.0, 1.0, 3.0, 6.0]),
        np.array([0.0, 0.0, 1.0, 3.0, -1.0, 0.5]),
    ]
    for r in rows[1:]:
        code = conic.relate_ellipse_ellipse(rows[0], NOVERTS, r, NOVERTS, EPS)
        assert code in (codes.EQUAL, codes.UNDECIDED)
        ra, va = _exact.exact_row("ellipse", rows[0], NOVERTS)
        rb, vb = _exact.exact_row("ellipse", r, NOVERTS)
        assert twin(ra, va, rb, vb, 0) == codes.EQUAL


def test_nearly_identical():
    a = ell((0.1, 0.2), (3.0, 1.0), 0.4)
    up = np.nextafter(3.0, 4.0)
    check(a, ell((0.1, 0.2), (up, 1.0), 0.4), R.WITHIN)
    check(a, ell((0.1, 0.2), (np.nextafter(3.0, 0.0), 1.0), 0.4), R.CONTAINS)
    check(a, ell((np.nextafter(0.1, 1), 0.2), (3.0, 1.0), 0.4), R.OVERLAPPING)
    check(a, ell((0.1, 0.2), (3.0, 1.0), 0.4 + 2.0**-38), R.OVERLAPPING)
    check(c2.Circle((0, 0), 1.0), c2.Circle((0, 0), np.nextafter(1.0, 2.0)), R.WITHIN)


def test_nested_and_concentric():
    check(ell((0, 0), (5, 3), 0.2), ell((0.5, -0.3), (1, 0.5), 1.1), R.CONTAINS)
    check(ell((0, 0), (5, 3), 0.2), ell((0, 0), (4, 2), 1.1), R.OVERLAPPING)
    check(ell((0, 0), (5, 3), 0.2), ell((0, 0), (2.9, 2), 1.1), R.CONTAINS)
    check(ell((0, 0), (5, 1)), ell((0, 0), (1, 5)), R.OVERLAPPING)
    check(ell((0, 0), (1, 1)), ell((0, 0), (5, 1)), R.WITHIN)  # internal double tangency


def test_circles_as_ellipses_any_angle():
    for angle in [0.0, 0.1, 1.0, 3.0]:
        check(ell((0, 0), (1, 1), angle), ell((2, 0), (1, 1), -angle), R.TOUCHING)
        check(ell((0, 0), (2, 2), angle), ell((0.5, 0.5), (1, 1), angle), R.CONTAINS)
        check(ell((0, 0), (1, 1), angle), ell((2.5, 0), (2, 1), angle))
        check(ell((0, 0), (1, 1), angle), ell((3, 0), (2, 1), 0.0), R.TOUCHING)


@pytest.mark.parametrize("aspect", [2.0**7, 2.0**10, 2.0**13])
def test_needles(aspect):
    t = 1.0 / aspect
    check(ell((0, 0), (1, t), 0.3), ell((0, 0), (1, t), 0.3 + np.pi / 2), R.OVERLAPPING)  # crossed
    check(ell((0, 0), (1, t)), ell((1 + t, 0), (t, 1)), R.TOUCHING)  # tip to side, exact contact
    check(ell((0, 0), (1, t)), ell((1 + t * (1 + 1e-9), 0), (t, 1)), R.DISJOINT)
    check(ell((0, 0), (1, t)), ell((1 + t * (1 - 1e-9), 0), (t, 1)), R.OVERLAPPING)
    check(ell((0, 0), (1, t), 0.7), ell((0, 0), (1, t), 0.7 + 1e-6), R.OVERLAPPING)
    for gap in [1e-3, 1e-9, 1e-12]:  # parallel needles, one above the other
        check(ell((0, 0), (1, t)), ell((0, 2 * t * (1 + gap)), (1, t)), R.DISJOINT)
        check(ell((0, 0), (1, t)), ell((0, 2 * t * (1 - gap)), (1, t)), R.OVERLAPPING)
        check(ell((0, 0), (1, t)), ell((0.3, 2 * t * (1 - gap)), (1, t)))
    rng = np.random.default_rng(7)
    for _ in range(5):
        a, b = _tangent_pair(rng, aspect, 1e-10 * rng.choice([-1, 1]))
        check(a, b)


def test_far_from_origin_and_tiny():
    for c in [1e6, -3e6 + 0.25]:
        check(ell((c, c), (1, 0.5), 0.3), ell((c + 1.5, c), (0.6, 0.4), 1.0))
        check(ell((c, c), (2, 1)), ell((c + 3, c), (1, 3)), R.TOUCHING)
        check(ell((c, c), (2, 1)), ell((c + 3 + 2**-20, c), (1, 3)), R.DISJOINT)
        check(ell((c, c), (2, 1)), ell((c + 3 - 2**-20, c), (1, 3)), R.OVERLAPPING)
    s = 2.0**-20  # about 1e-6, a power of two so that the tangency is exact
    check(ell((0, 0), (2 * s, s)), ell((3 * s, 0), (s, 3 * s)), R.TOUCHING)
    check(ell((0, 0), (2 * s, s), 0.2), ell((2.5 * s, 0.5 * s), (s, 0.3 * s), 1.2))
    check(ell((0, 0), (2 * s, s)), ell((0, 0), (s, s)), R.CONTAINS)
    check(ell((0, 0), (2e6, 1e6)), ell((1, 1), (1e-6, 2e-6)), R.CONTAINS)


# -- (e) properties: symmetry, monotonicity, exact transforms -------------------------------------


def _random_pair(rng):
    asp = 10 ** rng.uniform(0, 2)
    out = []
    for _ in range(2):
        a = rng.uniform(0.3, 3)
        b = a / asp * rng.uniform(1, 2)
        out.append(((rng.normal(size=2) * 1.5).round(3), (a, b), rng.uniform(-4, 4)))
    return out


def test_properties_random():
    rng = np.random.default_rng(11)
    mirror = np.array([0, 1, 2, 4, 3, 5])
    for _ in range(150):
        (ca, ra, ta), (cb, rb, tb) = _random_pair(rng)
        a, b = ell(ca, ra, ta), ell(cb, rb, tb)
        r = rel(a, b)
        assert rel(b, a) == mirror[r]
        # monotonicity: shrinking B (same centre) never creates overlap or un-contains
        small = ell(cb, (rb[0] * 0.5, rb[1] * 0.5), tb)
        rs = rel(a, small)
        if r == R.DISJOINT:
            assert rs == R.DISJOINT
        if r == R.CONTAINS:
            assert rs == R.CONTAINS
        if r == R.TOUCHING:
            assert rs in (R.DISJOINT, R.CONTAINS)
        # exact transforms: integer translation, power-of-two scaling, quarter turn (x, y) -> (-y, x)
        a2, b2 = ell(np.add(ca, (7, -3)), ra, ta), ell(np.add(cb, (7, -3)), rb, tb)
        assert rel(a2, b2) == r
        a4, b4 = ell(np.multiply(ca, 4), np.multiply(ra, 4), ta), ell(np.multiply(cb, 4), np.multiply(rb, 4), tb)
        assert rel(a4, b4) == r
        aq = c2.Ellipse((-ca[1], ca[0]), ra, direction=(-a.direction[1], a.direction[0]))
        bq = c2.Ellipse((-cb[1], cb[0]), rb, direction=(-b.direction[1], b.direction[0]))
        assert rel(aq, bq) == r


def test_reference_random_sample():
    rng = np.random.default_rng(5)
    found = set()
    for _ in range(120):
        (ca, ra, ta), (cb, rb, tb) = _random_pair(rng)
        found.add(check(ell(ca, ra, ta), ell(cb, rb, tb)))
    assert {R.DISJOINT, R.OVERLAPPING, R.CONTAINS, R.WITHIN} <= found


# -- (f) float kernel vs exact twin; fallback rate ------------------------------------------------


def _random_rows(rng, n):
    rows = []
    for _ in range(n):
        asp = 10 ** rng.uniform(0, rng.choice([1, 2, 4]))
        pair = []
        for _ in range(2):
            a = rng.uniform(0.3, 3)
            b = a / asp * rng.uniform(1, 2) if rng.random() < 0.9 else a
            if rng.random() < 0.5:
                a, b = b, a
            c = rng.normal(size=2) * rng.choice([0.3, 1, 3])
            pair.append(ell(c, (a, b), rng.uniform(-4, 4))._params.copy())
        rows.append(pair)
    return rows


def test_float_agrees_with_exact_twin():
    rng = np.random.default_rng(3)
    twin = _exact.kernel_function("relate_ellipse_ellipse")
    decided = 0
    for pa, pb in _random_rows(rng, 1500):
        code = conic.relate_ellipse_ellipse(pa, NOVERTS, pb, NOVERTS, EPS)
        if code == codes.UNDECIDED:
            continue
        decided += 1
        ra, va = _exact.exact_row("ellipse", pa, NOVERTS)
        rb, vb = _exact.exact_row("ellipse", pb, NOVERTS)
        assert twin(ra, va, rb, vb, 0) == code, (pa, pb, code)
    assert decided >= 1490


def test_fallback_rate_random():
    rng = np.random.default_rng(4)
    rows = _random_rows(rng, 10_000)
    pa = np.array([r[0] for r in rows])
    pb = np.array([r[1] for r in rows])
    undecided = sum(conic.relate_ellipse_ellipse(x, NOVERTS, y, NOVERTS, EPS) == codes.UNDECIDED for x, y in zip(pa, pb))
    assert undecided <= 10  # measured: 1 in 10^4 (a near-tangent containment)


def test_batch_matches_scalar_and_counts_fallbacks():
    rng = np.random.default_rng(9)
    n = 400
    ca = rng.normal(size=(n, 2))
    cb = rng.normal(size=(n, 2))
    ra = rng.uniform(0.2, 2, size=(n, 2))
    rb = rng.uniform(0.2, 2, size=(n, 2))
    ta, tb = rng.uniform(-3, 3, n), rng.uniform(-3, 3, n)
    a, b = ell(ca, ra, ta), ell(cb, rb, tb)
    c2.exact_fallback_counts(reset=True)
    batch = c2.relate(a, b)
    assert [int(x) for x in batch] == [int(rel(a[i], b[i])) for i in range(n)]
    assert c2.exact_fallback_counts().get("relate_ellipse_ellipse", 0) <= 4
    # tangent pairs of short numbers are decided by the exact float stage
    c2.exact_fallback_counts(reset=True)
    t = c2.relate(ell([(0, 0), (0, 0)], (2, 1)), ell([(3, 0), (3, 0)], [(1, 3), (1, 1)]))
    assert list(t) == [R.TOUCHING, R.TOUCHING]
    assert c2.exact_fallback_counts() == {}
    # with 53-bit sizes (0.1 + 0.1 == 0.2 exactly) they go through the exact fallback and are counted
    t = c2.relate(ell([(0, 0), (0, 0)], (0.1, 0.05)), ell([(0.2, 0), (0.2, 0)], [(0.1, 0.3), (0.1, 0.1)]))
    assert list(t) == [R.TOUCHING, R.TOUCHING]
    assert c2.exact_fallback_counts()["relate_ellipse_ellipse"] == 2


def test_cubic_coefficients_match_determinant():
    """The exact kernel's c(tau) = det(tau E_B - E_A) and its discriminant, against the determinant.

    The reference builds both homogeneous conic matrices from the stored numbers, evaluates the
    3x3 determinant of the pencil at tau = 0, 1, 2, 3 on Fractions and recovers the four
    coefficients by finite differences; the discriminant is sympy's, of those.
    """
    from fractions import Fraction

    import sympy

    from collide2d import _exact

    # the exact twin's copy: plain Python all the way down, so it runs on Fractions
    pencil = _exact.load_uncompiled_kernels("collide2d._kernels_exact", ("relate.conic",))["relate.conic"]._pencil_exact
    rng = np.random.default_rng(2)
    for _ in range(5):
        (ca, ra, ta), (cb, rb, tb) = _random_pair(rng)
        A = [Fraction(float(v)) for v in ell(ca, ra, ta)._params]
        B = [Fraction(float(v)) for v in ell(cb, rb, tb)._params]

        def conic_matrix(row):
            cx, cy, a, b, wx, wy = row
            m11 = b * b * wx * wx + a * a * wy * wy
            m12 = (b * b - a * a) * wx * wy
            m22 = b * b * wy * wy + a * a * wx * wx
            k = a * a * b * b * (wx * wx + wy * wy)
            px, py = cx - A[0], cy - A[1]
            e1, e2 = m11 * px + m12 * py, m12 * px + m22 * py
            return [[m11, m12, -e1], [m12, m22, -e2], [-e1, -e2, e1 * px + e2 * py - k]]

        EA, EB = conic_matrix(A), conic_matrix(B)

        def det(m):
            return (
                m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
            )

        v0, v1, v2, v3 = (det([[t * EB[i][j] - EA[i][j] for j in range(3)] for i in range(3)]) for t in range(4))
        # Newton's forward differences of a cubic sampled at 0, 1, 2, 3
        d3 = (v3 - 3 * v2 + 3 * v1 - v0) / 6
        d2 = (v2 - 2 * v1 + v0) / 2 - 3 * d3
        d1 = v1 - v0 - d2 - d3
        want = [d3, d2, d1, v0]
        got = pencil(np.array(A, dtype=object), np.array(B, dtype=object))
        assert list(got[11:15]) == want
        x = sympy.Symbol("x")
        disc = sympy.discriminant(sympy.Poly([sympy.Rational(c.numerator, c.denominator) for c in want], x))
        assert got[15] == Fraction(int(disc.p), int(disc.q))
        assert all(isinstance(x, Fraction) for x in got[11:])  # no float crept into the exact path
