"""Translating ellipses and circles (and an ellipse and a point): the Perram-Wertheim search of
the compiled loop (:mod:`collide2d._kernels.motion.toi_ellipse`) against an independent slow
reference (for a point, the mpmath root of its quadratic), the first
contact of the two moved ellipses found in mpmath (30 digits) from the static overlap predicate
alone: ``G(t) = max_l F(l, t)`` of Perram and Wertheim's contact function (golden section over
``l``; ``F`` written here from the ellipses' shape matrices, not the kernel's positive-sum form),
whose sublevel sets ``{G <= c}`` are intervals in ``t`` (the ellipses scaled by ``sqrt(c)``
translate); so its minimum over ``[0, t_max]`` by golden section decides hit or miss, and the
first contact is the root of ``G = 1`` before it, by bisection.

The contract (``time_of_impact``'s Notes): within ``1e-12 t_max`` of the first contact, never
after it (beyond that tolerance) and never past ``t_max``; a pair passing within the graze band
(``2**-49`` of its size) may be reported touching at its closest approach."""

import math

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d._kernels.motion import toi_ellipse

DPS = 30
TOL = 1e-12


def _sigma(cx, cy, a, b, angle):
    """Centre and shape matrix ``R diag(a^2, b^2) R^T`` ``(s11, s12, s22)`` of an ellipse."""
    c, s = mpmath.cos(angle), mpmath.sin(angle)
    a2, b2 = mpmath.mpf(a) ** 2, mpmath.mpf(b) ** 2
    return (mpmath.mpf(cx), mpmath.mpf(cy)), (a2 * c * c + b2 * s * s, (a2 - b2) * c * s, a2 * s * s + b2 * c * c)


def _golden(f, lo, hi, steps):
    """The minimiser of a unimodal ``f`` on ``[lo, hi]`` and its value (golden section)."""
    g = (mpmath.sqrt(5) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        if f1 <= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - g * (hi - lo)
            f1 = f(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + g * (hi - lo)
            f2 = f(x2)
    return (x1, f1) if f1 <= f2 else (x2, f2)


def reference(ea, eb, va, vb, t_max):
    """First contact time of ellipses ``(cx, cy, a, b, angle)`` moving at ``va``, ``vb`` within
    ``[0, t_max]`` (mpf), ``None`` for none; and the closest approach ``(t, G - 1)``."""
    with mpmath.workdps(DPS):
        (ca, sa), (cb, sb) = _sigma(*ea), _sigma(*eb)
        ux, uy = mpmath.mpf(vb[0]) - mpmath.mpf(va[0]), mpmath.mpf(vb[1]) - mpmath.mpf(va[1])

        def g(t):
            rx, ry = cb[0] - ca[0] + t * ux, cb[1] - ca[1] + t * uy

            def minus_f(lam):  # -lam (1 - lam) r^T C^-1 r, C = (1 - lam) Sigma_A + lam Sigma_B
                c11, c12, c22 = ((1 - lam) * sa[i] + lam * sb[i] for i in range(3))
                return -(lam * (1 - lam) * (c22 * rx * rx - 2 * c12 * rx * ry + c11 * ry * ry) / (c11 * c22 - c12 * c12))

            return -_golden(minus_f, mpmath.mpf(0), mpmath.mpf(1), 64)[1]

        if g(mpmath.mpf(0)) <= 1:
            return mpmath.mpf(0), (0, 0)
        top = mpmath.mpf(t_max)
        t_min, g_min = _golden(g, mpmath.mpf(0), top, 90)
        if g(top) < g_min:
            t_min, g_min = top, g(top)
        if g_min > 1:
            return None, (t_min, g_min - 1)
        lo, hi = mpmath.mpf(0), t_min
        for _ in range(60):
            mid = (lo + hi) / 2
            if g(mid) > 1:
                lo = mid
            else:
                hi = mid
        return hi, (t_min, g_min - 1)


def shapes(e):
    return c2.Ellipse((e[0], e[1]), (e[2], e[3]), angle=e[4])


def answers(ea, eb, va, vb, t_max):
    """time_of_impact of (a, b) and (b, a), single and in a batch of two copies (the pair
    duplicated: the batched loop), as floats."""
    out = []
    a, b = shapes(ea), shapes(eb)
    for x, y, vx, vy in ((a, b, va, vb), (b, a, vb, va)):
        out.append(c2.time_of_impact(x, y, vx, vy, t_max=t_max).time)
        batch = c2.time_of_impact(x, y, np.tile(vx, (2, 1)), np.tile(vy, (2, 1)), t_max=t_max)
        out.extend(batch.time.tolist())
    return out


def check_contract(ea, eb, va, vb, t_max, band=0.0, shallow=TOL):
    """The answers within the contract: a miss, or a touch at the closest approach within the
    graze ``band``; a hit within ``TOL t_max`` of the first contact and not after it, or within
    ``shallow t_max`` of it for a pair penetrating by less than ``1e-9`` (its first contact,
    ill-conditioned, is known to about the float noise over ``sqrt(2 d c)``: the Notes; the
    general search, which such pairs go to, is off by 1.2e-10 either way at ``d = 1e-12``)."""
    expected, (t_min, gap) = reference(ea, eb, va, vb, t_max)
    for t in answers(ea, eb, va, vb, t_max):
        if expected is None:
            assert t == math.inf or (gap <= band and abs(t - float(t_min)) <= 1e-6 * t_max), (t, gap)
        else:
            late = t - float(expected)
            if -gap < 1e-9:
                assert t <= t_max and abs(late) <= shallow * t_max, (t, float(expected))
            else:
                assert t <= t_max and late <= TOL * t_max and -late <= TOL * t_max, (t, float(expected))
    return expected


def _random_pairs(n, seed):
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(n):
        ca = rng.uniform(-5, 5, 2)
        heading = rng.uniform(0, 2 * np.pi)
        cb = ca + rng.uniform(4.5, 8.0) * np.array([math.cos(heading), math.sin(heading)])
        ra, rb = rng.uniform(0.5, 2.0, 2), rng.uniform(0.5, 2.0, 2)
        aim = heading + rng.normal(0, 0.25)
        va = rng.uniform(2, 8) * np.array([math.cos(aim), math.sin(aim)])
        vb = rng.uniform(-1, 1, 2)
        pairs.append(((*ca.tolist(), *ra.tolist(), float(rng.uniform(-3, 3))),
                      (*cb.tolist(), *rb.tolist(), float(rng.uniform(-3, 3))), tuple(va.tolist()), tuple(vb.tolist())))
    return pairs


@pytest.mark.parametrize("pair", _random_pairs(6, 11))
def test_random_pairs_against_the_reference(pair):
    check_contract(*pair, 1.0)


def test_the_fast_path_decides_random_pairs():
    # the Perram-Wertheim search itself (not the general search it hands pairs to) decides random
    # pairs, hits and misses, with answers within the contract (the reference above)
    from collide2d._glue import run
    from collide2d.motion import search

    pairs = _random_pairs(40, 12)
    a = c2.Ellipse([p[0][:2] for p in pairs], [p[0][2:4] for p in pairs], angle=[p[0][4] for p in pairs])
    b = c2.Ellipse([p[1][:2] for p in pairs], [p[1][2:4] for p in pairs], angle=[p[1][4] for p in pairs])
    va, vb = np.array([p[2] for p in pairs]), np.array([p[3] for p in pairs])
    n = len(pairs)
    motion = search._Motion(a, b, np.arange(n), np.arange(n), va, vb, np.zeros(n), np.zeros(n))
    index, numbers = search._kernel_rows(motion, np.arange(n), np.ones(n))
    (_, ga, _), (_, gb, _) = run.flat_rows(a), run.flat_rows(b)
    (_, fa, _), (_, fb, _) = run.flat_rows(motion.a), run.flat_rows(motion.b)
    codes, times = [], []
    for k in range(n):
        out = np.full(6, np.nan)
        i = index[k]
        codes.append(toi_ellipse.translate_ellipses(ga[i[0]], gb[i[1]], fa[i[2]], fb[i[3]], numbers[k], out))
        times.append(out[1])
    assert codes.count(0) >= 15 and codes.count(1) >= 10 and codes.count(-1) == 0
    for (ea, eb, pva, pvb), code, t in list(zip(pairs, codes, times))[:6]:
        expected, _ = reference(ea, eb, pva, pvb, 1.0)
        assert (expected is None) == (code == 1)
        if expected is not None:
            assert abs(t - float(expected)) <= TOL


@pytest.mark.parametrize("offset", [1e-12, 1e-15, 0.0, -1e-12, -1e-6])
def test_near_grazes(offset):
    # b passes a's top with its lowest point at 1 + offset (a's height 1, b's half height 0.5):
    # a miss above, a graze at 0, a hit below; the answer within the contract or the graze band
    ea = (0.0, 0.0, 2.0, 1.0, 0.0)
    eb = (5.0, 1.5 + offset, 0.7, 0.5, 0.0)
    expected = check_contract(ea, eb, (0.0, 0.0), (-1.0, 0.0), 10.0, band=2.0**-49 * 8, shallow=1e-10)
    assert (expected is None) == (offset > 0)


def _half_height(a, b, angle):
    return mpmath.sqrt((mpmath.mpf(a) * mpmath.sin(angle)) ** 2 + (mpmath.mpf(b) * mpmath.cos(angle)) ** 2)


@pytest.mark.parametrize("offset", [1e-12, 1e-15, -1e-12])
def test_near_grazes_tilted(offset):
    # both ellipses turned, b sliding left past a: they graze when the vertical projections just
    # touch, b's centre at the sum of the half heights (mpmath); b placed offset above that
    with mpmath.workdps(DPS):
        y = _half_height(2.0, 0.5, 0.3) + _half_height(1.0, 0.4, -1.1)
        yb = float(y + offset)
        apart = mpmath.mpf(yb) > y
    ea, eb = (0.0, 0.0, 2.0, 0.5, 0.3), (6.0, yb, 1.0, 0.4, -1.1)
    expected = check_contract(ea, eb, (0.0, 0.0), (-1.0, 0.0), 10.0, band=2.0**-49 * 8, shallow=1e-10)
    assert (expected is None) == bool(apart)


def test_containment_and_overlap_at_the_start():
    for ea, eb in (((0.0, 0.0, 3.0, 2.0, 0.2), (0.5, 0.1, 1.0, 0.5, 1.0)),  # b inside a
                   ((0.0, 0.0, 1.0, 0.5, 0.2), (0.2, 0.1, 4.0, 3.0, 1.0)),  # a inside b
                   ((0.0, 0.0, 1.0, 1.0, 0.0), (1.5, 0.0, 1.0, 1.0, 0.0))):  # crossing
        assert answers(ea, eb, (1.0, 0.0), (-1.0, 0.5), 1.0) == [0.0] * 6


@pytest.mark.parametrize("aspect", [1e2, 1e4])
def test_thin_ellipses(aspect):
    # a needle (a = 1, b = 1 / aspect) crossing an ellipse's path and a flat ellipse along it
    for ea, eb, vb in (((0.0, 0.0, 1.0, 1.0 / aspect, 0.3), (4.0, 0.2, 2.0, 0.5, 0.1), (-3.0, 0.0)),
                       ((0.0, 0.0, 3.0, 3.0 / aspect, 0.0), (2.0, 1.0, 1.0, 1.0 / aspect, 1.2), (0.0, -1.0)),
                       ((0.0, 0.0, 3.0, 3.0 / aspect, 0.0), (5.0, 0.5, 1.0, 1.0 / aspect, 0.0), (-1.0, 0.0))):
        check_contract(ea, eb, (0.0, 0.0), vb, 4.0, band=2.0**-49 * 8)


@pytest.mark.parametrize("scale", [1e-150, 1e150])
def test_extreme_magnitudes(scale):
    # the same pair scaled (positions, sizes, velocities): the same time
    ea = (-1.0 * scale, 0.5 * scale, 1.0 * scale, 0.5 * scale, 0.4)
    eb = (3.0 * scale, 0.7 * scale, 0.8 * scale, 0.6 * scale, -0.3)
    base = ((-1.0, 0.5, 1.0, 0.5, 0.4), (3.0, 0.7, 0.8, 0.6, -0.3))
    expected, _ = reference(*base, (0.0, 0.0), (-2.0, 0.0), 4.0)
    for t in answers(ea, eb, (0.0, 0.0), (-2.0 * scale, 0.0), 4.0):
        assert abs(t - float(expected)) <= TOL * 4.0


def test_t_max_edges():
    # two unit circles meeting at t = 2 exactly, and ellipses meeting at t* just before and
    # after t_max
    ea, eb = (0.0, 0.0, 1.0, 1.0, 0.0), (5.0, 0.0, 1.0, 1.0, 0.0)
    assert answers(ea, eb, (0.0, 0.0), (-1.5, 0.0), 2.0) == [2.0] * 6
    assert all(t == math.inf for t in answers(ea, eb, (0.0, 0.0), (-1.5, 0.0), math.nextafter(2.0, 0.0) * (1 - 1e-9)))
    ea, eb = (0.0, 0.0, 2.0, 1.0, 0.3), (6.0, 0.4, 1.0, 0.6, -0.5)
    t_star, _ = reference(ea, eb, (0.0, 0.0), (-1.0, 0.0), 10.0)
    for t_max, hit in ((float(t_star) * (1 + 1e-9), True), (float(t_star) * (1 - 1e-9), False), (math.inf, True)):
        for t in answers(ea, eb, (0.0, 0.0), (-1.0, 0.0), t_max):
            if hit:
                assert abs(t - float(t_star)) <= TOL * (t_max if math.isfinite(t_max) else float(t_star)), t
            else:
                assert t == math.inf


def test_circles_by_the_closed_quadratic():
    # circles and circles of every size ratio: the first iterate is the answer (the maximiser is
    # R_a / (R_a + R_b) at every time), within a few ulps of the quadratic's root
    rng = np.random.default_rng(5)
    for _ in range(20):
        ra, rb = rng.uniform(0.1, 3.0, 2)
        cb = rng.uniform(-8, 8, 2)
        v = -cb * rng.uniform(0.5, 2.0) + rng.normal(0, 0.3, 2)
        hit = c2.time_of_impact(c2.Circle((0, 0), ra), c2.Circle(cb, rb), (0, 0), tuple(v.tolist()), t_max=2.0)
        with mpmath.workdps(40):
            a = mpmath.mpf(v[0]) ** 2 + mpmath.mpf(v[1]) ** 2
            b = mpmath.mpf(cb[0]) * v[0] + mpmath.mpf(cb[1]) * v[1]
            c = mpmath.mpf(cb[0]) ** 2 + mpmath.mpf(cb[1]) ** 2 - (mpmath.mpf(ra) + mpmath.mpf(rb)) ** 2
            disc = b * b - a * c
            root = (-b - mpmath.sqrt(disc)) / a if disc >= 0 and b < 0 else None
        if c <= 0:
            assert hit.time == 0.0
        elif root is None or root > 2.0:
            assert hit.time == math.inf
        else:
            assert abs(hit.time - float(root)) <= 2e-15  # (a few ulps: the rounding of the quadratic's coefficients)
            assert abs(np.hypot(*hit.normal) - 1.0) < 1e-15


def _point_reference(e, p, v, t_max):
    """First time the point ``p`` moving at ``v`` (relative to the ellipse) enters the closed
    ellipse ``e = (cx, cy, a, b, angle)``: the smaller root of a quadratic, in mpmath (40 digits),
    or None."""
    with mpmath.workdps(40):
        c, s = mpmath.cos(e[4]), mpmath.sin(e[4])
        dx, dy = mpmath.mpf(p[0]) - mpmath.mpf(e[0]), mpmath.mpf(p[1]) - mpmath.mpf(e[1])
        vx, vy = mpmath.mpf(v[0]), mpmath.mpf(v[1])
        a2, b2 = mpmath.mpf(e[2]) ** 2, mpmath.mpf(e[3]) ** 2
        # in the ellipse's axes: (x / a)^2 + (y / b)^2 = 1 along the line
        x0, y0, x1, y1 = c * dx + s * dy, -s * dx + c * dy, c * vx + s * vy, -s * vx + c * vy
        qa = x1 * x1 / a2 + y1 * y1 / b2
        qb = x0 * x1 / a2 + y0 * y1 / b2
        qc = x0 * x0 / a2 + y0 * y0 / b2 - 1
        if qc <= 0:
            return mpmath.mpf(0)
        disc = qb * qb - qa * qc
        if qa == 0 or disc < 0 or qb >= 0:
            return None
        root = (-qb - mpmath.sqrt(disc)) / qa
        return root if root <= t_max else None


def test_ellipse_and_point_by_the_closed_form():
    # random ellipses (a third of them circles) and points passing by or entering, both orders,
    # single and batched: the closed form of the compiled loop, against the mpmath root
    from collide2d._glue import run
    from collide2d.motion import search

    rng = np.random.default_rng(8)
    for trial in range(24):
        a, b = rng.uniform(0.3, 2.0, 2)
        b = a if trial % 3 == 0 else b
        e = (*rng.uniform(-3, 3, 2).tolist(), float(a), float(b), float(rng.uniform(-3, 3)))
        heading = rng.uniform(0, 2 * np.pi)
        p = (e[0] + 4.0 * math.cos(heading), e[1] + 4.0 * math.sin(heading))
        v = tuple((np.array(e[:2]) - np.array(p)) * rng.uniform(0.3, 1.5) + rng.normal(0, 0.5, 2))
        expected = _point_reference(e, p, v, 1.0)
        ellipse, point = shapes(e), c2.Point(p)
        for x, y, vx, vy in ((ellipse, point, (0.0, 0.0), v), (point, ellipse, v, (0.0, 0.0))):
            for hit in (c2.time_of_impact(x, y, vx, vy, t_max=1.0),
                        c2.time_of_impact(x, y, np.tile(vx, (2, 1)), np.tile(vy, (2, 1)), t_max=1.0)):
                for t in np.atleast_1d(hit.time):
                    if expected is None:
                        assert t == math.inf
                    else:
                        assert abs(t - float(expected)) <= TOL, (t, float(expected))
    # and the closed form itself decides such pairs (not the general search it hands pairs to)
    ellipse = c2.Ellipse((0.5, -0.2), (1.5, 0.7), angle=0.3)
    for point, v, code in (((4.0, 0.1), (-3.0, 0.0), 0), ((4.0, 3.0), (-3.0, 0.0), 1)):
        for swapped in (False, True):
            a, b = (c2.Point(point), ellipse) if swapped else (ellipse, c2.Point(point))
            va, vb = (v, (0.0, 0.0)) if swapped else ((0.0, 0.0), v)
            motion = search._Motion(a, b, np.zeros(1, np.int64), np.zeros(1, np.int64), np.array([va]),
                                    np.array([vb]), np.zeros(1), np.zeros(1))
            index, numbers = search._kernel_rows(motion, np.arange(1), np.ones(1))
            out = np.full(6, np.nan)
            rows = [run.flat_rows(s)[1] for s in (a, b, motion.a, motion.b)]
            assert toi_ellipse.translate_ellipse_point(swapped, rows[0][0], rows[1][0], rows[2][0], rows[3][0],
                                                       numbers[0], out) == code


def test_coincident_centres_overlap_at_the_start_without_error():
    # Two ellipses (or an ellipse and a point) with the same centre: the Perram-Wertheim start
    # divides by the quadratic forms of r0 = 0, which a compiled kernel raises on; such a pair
    # overlaps at t = 0 (the general search's answer), both orders, single and batched, also in a
    # batch beside pairs apart (the demo's bullets spawned inside a disc).
    e, c, p = c2.Ellipse((3.0, -2.0), (2.0, 1.0), 0.3), c2.Circle((3.0, -2.0), 1.0), c2.Point((3.0, -2.0))
    far = c2.Ellipse([(3.0, -2.0), (40.0, -2.0)], [(2.0, 1.0), (2.0, 1.0)], [0.3, 0.3])
    for a, b in ((e, c), (c, e), (e, e), (c, c), (e, p), (p, e), (c, p), (p, c)):
        assert c2.time_of_impact(a, b, (0.0, 0.0), (1.0, 0.0), t_max=1.0).time == 0.0
        if a is not p:
            moved = far if a is e else c2.Circle([(3.0, -2.0), (40.0, -2.0)], 1.0)
            got = c2.time_of_impact(moved, b, (0.0, 0.0), (1.0, 0.0), t_max=1.0)
            assert np.asarray(got.time).tolist() == [0.0, math.inf]
            got = c2.time_of_impact(b, moved, (1.0, 0.0), (0.0, 0.0), t_max=1.0)
            assert np.asarray(got.time).tolist() == [0.0, math.inf]
