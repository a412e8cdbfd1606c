"""The ellipse pair beyond its contact: the Perram-Wertheim contact against a 40-digit reference,
the measured error of the osculating-circle approximation (NaokiHori/Collision-of-Ellipse), and the
global optimum and cost of the overlapping search (branch and bound on arcs of directions) against
dense sampling. References in ``ellipse_references.py``; the contact itself in
``test_distance_ellipse.py``.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from ellipse_references import EMPTY, TOL_PAIR, _frame, ellipse_support, kern, naokihori_depth, on_boundary, random_pair, ref_support_max

import collide2d as c2
from collide2d._kernels.measure import distance_ellipse as K
from collide2d.perram_wertheim import PerramWertheim, perram_wertheim


# -- Perram-Wertheim -------------------------------------------------------------------------------


def test_perram_wertheim_circles_and_types():
    pw = perram_wertheim(c2.Circle((0, 0), 1), c2.Circle((6, 8), 4))
    assert isinstance(pw, PerramWertheim)
    assert pw.scale == pytest.approx(2.0, rel=1e-15) and pw.approach_distance == pytest.approx(5.0, rel=1e-15)
    np.testing.assert_allclose(pw.normal, (0.6, 0.8), atol=1e-15)
    np.testing.assert_allclose(pw.point, (0.6 * 2, 0.8 * 2), atol=1e-15)  # scaled circles touch at r1 * scale
    with pytest.raises(TypeError, match="a must be"):
        perram_wertheim(c2.Box((0, 0), (1, 1)), c2.Circle((0, 0), 1))
    with pytest.raises(TypeError, match="b must be"):
        perram_wertheim(c2.Circle((0, 0), 1), c2.Point((0, 0)))


def ref_perram_wertheim(A, B):
    """``(sqrt(F*), x*)`` at 40 digits: golden-section maximisation of the concave
    ``F(l) = l (1 - l) d^T C(l)^-1 d`` with ``C(l) = (1 - l) Sigma_A + l Sigma_B`` (matrices)."""
    cA, cB = _frame(A._params), _frame(B._params)

    def sigma(E):
        _, _, a, b, ux, uy = E
        return mp.matrix([[a * a * ux * ux + b * b * uy * uy, (a * a - b * b) * ux * uy], [(a * a - b * b) * ux * uy, a * a * uy * uy + b * b * ux * ux]])

    SA, SB = sigma(cA), sigma(cB)
    d = mp.matrix([cB[0] - cA[0], cB[1] - cA[1]])

    def F(lam):
        return lam * (1 - lam) * (d.T * mp.inverse((1 - lam) * SA + lam * SB) * d)[0]

    lo, hi, inv = mp.mpf(0), mp.mpf(1), (mp.sqrt(5) - 1) / 2
    x1, x2 = hi - inv * (hi - lo), lo + inv * (hi - lo)
    f1, f2 = F(x1), F(x2)
    for _ in range(200):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + inv * (hi - lo)
            f2 = F(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - inv * (hi - lo)
            f1 = F(x1)
    lam = (lo + hi) / 2
    x = (1 - lam) * SA * mp.inverse((1 - lam) * SA + lam * SB) * d
    return mp.sqrt(F(lam)), (cA[0] + x[0], cA[1] + x[1])


def test_perram_wertheim_matches_reference():
    # measured: scale within 3.1e-16 relative; point within 6.5e-14 (1.9e-11 on the aspect-10
    # apart pair, scale 11.7, before lam* got one more Newton step: the solve stops at a step of
    # 1e-11 of lam*; now 3.5e-16). Over 60 pairs per aspect: 1.6e-15 (1), 2.4e-15 (10), 2.0e-13
    # (1e3), 4.0e-13 (1e4).
    rng = np.random.default_rng(6)
    for aspect in (1.0, 10.0, 1e3):
        for mode in ("apart", "overlap"):
            A, B = random_pair(rng, aspect, mode)
            pw = perram_wertheim(A, B)
            scale, point = ref_perram_wertheim(A, B)
            assert abs(float((pw.scale - scale) / scale)) <= 2e-15
            assert max(abs(float(pw.point[0] - point[0])), abs(float(pw.point[1] - point[1]))) <= 1e-12


def test_perram_wertheim_geometry_and_batch():
    # q_A(x*) = q_B(x*) = F*, the normal is the gradient of q_A at x*, and moving B along the
    # centre line to the approach distance makes the pair touch (exact contact separation 0).
    rng = np.random.default_rng(51)
    for aspect in (1.5, 20.0, 1e3):
        for mode in ("apart", "overlap"):
            A, B = random_pair(rng, aspect, mode)
            pw = perram_wertheim(A, B)
            F = pw.scale**2
            qa = on_boundary(A, *pw.point) + 1.0
            qb = on_boundary(B, *pw.point) + 1.0
            assert qa == pytest.approx(F, rel=1e-9) and qb == pytest.approx(F, rel=1e-9)
            assert (pw.scale > 1) == (mode == "apart")
            d = B.center - A.center
            moved = c2.Ellipse(A.center + d / np.hypot(*d) * pw.approach_distance, B._fields["radii"], B._fields["angle"])
            assert abs(kern("ellipse", A, moved)[0]) <= 1e-9 * max(1.0, pw.approach_distance)
            cx, cy, a, b, wx, wy = A._params
            u = np.array([wx, wy]) / np.hypot(wx, wy)
            v = np.array([-u[1], u[0]])
            y = pw.point - A.center
            grad = u * (u @ y) / a**2 + v * (v @ y) / b**2
            np.testing.assert_allclose(pw.normal, grad / np.hypot(*grad), atol=1e-9)
    batch = perram_wertheim(c2.Ellipse([(0, 0), (1, 1)], (2, 1), [0.1, 0.2]), c2.Ellipse((4, 1), (1, 0.5), 0.3))
    one = perram_wertheim(c2.Ellipse((1, 1), (2, 1), 0.2), c2.Ellipse((4, 1), (1, 0.5), 0.3))
    assert batch.scale.shape == (2,) and batch.point.shape == (2, 2)
    assert batch.scale[1] == one.scale and (batch.normal[1] == one.normal).all()


def test_perram_wertheim_normal_is_unit_to_rounding():
    # the normal is divided by its own hypot last, so |n| = 1 within 3u (hypot errs by less than
    # 1 ulp, at most 2u near 1, the two quotients by u): measured 1.70u on 1e4 pairs; |n| at 30 digits
    rng = np.random.default_rng(57)
    worst = 0.0
    with mp.workdps(30):
        for k in range(300):
            A, B = random_pair(rng, 10 ** rng.uniform(0, 3), "apart" if k % 2 else "overlap")
            nx, ny = perram_wertheim(A, B).normal
            worst = max(worst, float(abs(mp.hypot(mp.mpf(float(nx)), mp.mpf(float(ny))) - 1)))
    assert worst <= 3 * 2.0**-53, worst / 2.0**-53


# -- the osculating-circle approximation (NaokiHori/Collision-of-Ellipse) --------------------------


def test_naokihori_approximation_error_is_measured():
    # Measured finding (docs/contact.md): at a fixed point of the alternation both osculating
    # circles are centred on one common normal line, so r0 + r1 - |C0 C1| is the overlap along a
    # stationary direction of g: *exact* when the 10 iterations converge to the global one. It is
    # exact for circles, and it agrees to ~1e-15 on many moderate pairs; it is off by a large
    # amount whenever the iteration stops early or settles on another common normal, which
    # happens for a growing fraction of pairs as the aspect ratio grows.
    circles = (c2.Circle((0.0, 0.0), 1.0), c2.Circle((1.2, 0.9), 0.8))
    exact = -kern("ellipse", *circles)[0]
    assert naokihori_depth(circles[0]._params, circles[1]._params) == pytest.approx(exact, rel=1e-12)
    # their example 0 (overlapping): converged, agrees
    A, B = c2.Ellipse((0.5, 0.5), (2.0, 1.5), 0.2), c2.Ellipse((2.0, 2.5), (1.5, 1.0), 2.0)
    assert naokihori_depth(A._params, B._params) == pytest.approx(-kern("ellipse", A, B)[0], rel=1e-12)
    # crossed thin ellipses (aspect 10): exact depth 2.59, the approximation returns -4.1
    A, B = c2.Ellipse((0.0, 0.0), (3.0, 0.3), 0.0), c2.Ellipse((0.5, 0.5), (3.0, 0.3), 1.2)
    exact = -kern("ellipse", A, B)[0]
    assert abs(naokihori_depth(A._params, B._params) - exact) > 0.5 * exact
    # random overlapping pairs of aspect 10: at least a quarter are off by more than 1 %
    rng = np.random.default_rng(100)
    rel = []
    for _ in range(24):
        A, B = random_pair(rng, 10.0, "overlap")
        exact = -kern("ellipse", A, B)[0]
        rel.append(abs(naokihori_depth(A._params, B._params) - exact) / exact)
    assert np.mean(np.array(rel) > 1e-2) >= 0.25, rel


# -- global optimum of the overlapping search (branch and bound on arcs) -------------------------------


def _rows_g(pa, pb, t):
    """``g(t)`` for rows of ellipse parameters (float64, world frame): ``(pairs, angles)``."""
    c = np.cos(t)[None, :]
    s = np.sin(t)[None, :]

    def rho(p):
        w = p[:, 4:6] / np.hypot(p[:, 4], p[:, 5])[:, None]
        along = w[:, :1] * c + w[:, 1:] * s
        across = w[:, :1] * s - w[:, 1:] * c
        return np.hypot(p[:, 2:3] * along, p[:, 3:4] * across)

    d = pb[:, :2] - pa[:, :2]
    return d[:, :1] * c + d[:, 1:] * s - rho(pa) - rho(pb)


def ref_dense_max(pa, pb, samples=1 << 14, keep=8, chunk=200):
    """Signed distance of ellipse rows by dense sampling of g (``samples`` angles) and a vectorised
    float64 golden-section refinement of the ``keep`` best sampled local maxima of every pair.
    Returns ``(s, local_maxima_count)``."""
    t = np.linspace(-np.pi, np.pi, samples, endpoint=False)
    step = 2 * np.pi / samples
    best = np.empty(len(pa))
    count = np.empty(len(pa), dtype=np.int64)
    inv = (math.sqrt(5) - 1) / 2
    for lo_row in range(0, len(pa), chunk):
        sl = slice(lo_row, lo_row + chunk)
        g = _rows_g(pa[sl], pb[sl], t)
        is_max = (g >= np.roll(g, 1, axis=1)) & (g > np.roll(g, -1, axis=1))
        count[sl] = is_max.sum(axis=1)
        score = np.where(is_max, g, -np.inf)
        cand = np.argsort(-score, axis=1)[:, :keep]
        rows = np.repeat(np.arange(g.shape[0]), keep)
        lo = t[cand.ravel()] - step
        hi = lo + 2 * step
        A, B = pa[sl][rows], pb[sl][rows]

        def f(x, A=A, B=B):
            return _g_pointwise(A, B, x)

        for _ in range(60):
            x1 = hi - inv * (hi - lo)
            x2 = lo + inv * (hi - lo)
            left = f(x1) < f(x2)
            lo = np.where(left, x1, lo)
            hi = np.where(left, hi, x2)
        refined = np.maximum(f(0.5 * (lo + hi)), g[rows, cand.ravel()])
        best[sl] = refined.reshape(-1, keep).max(axis=1)
    return best, count


def _g_pointwise(pa, pb, t):
    """``g`` of row k at angle ``t[k]``."""
    c, s = np.cos(t), np.sin(t)

    def rho(p):
        n = np.hypot(p[:, 4], p[:, 5])
        wx, wy = p[:, 4] / n, p[:, 5] / n
        return np.hypot(p[:, 2] * (wx * c + wy * s), p[:, 3] * (wx * s - wy * c))

    d = pb[:, :2] - pa[:, :2]
    return d[:, 0] * c + d[:, 1] * s - rho(pa) - rho(pb)


def crossed_needles(rng, n):
    """``n`` overlapping pairs of thin ellipses (aspect 10..1e3) crossing at random angles (a third
    of them nearly parallel), B's centre near A's axis: g has 2 to 4 local maxima."""
    rows_a, rows_b = [], []
    while len(rows_a) < n:
        asp_a, asp_b = 10 ** rng.uniform(1, 3, 2)
        A = c2.Ellipse((0.0, 0.0), (1.0, 1.0 / asp_a), rng.uniform(-3, 3))
        axis = A._params[4:6] / np.hypot(*A._params[4:6])
        a_b = rng.uniform(0.3, 1.5)
        turn = rng.uniform(-3.2, 3.2) if rng.uniform() < 0.67 else rng.normal(0.0, 0.05)
        centre = rng.uniform(-0.9, 0.9) * axis + rng.normal(0.0, 0.5 / asp_a, 2)
        B = c2.Ellipse(centre, (a_b, a_b / asp_b), math.atan2(axis[1], axis[0]) + turn)
        if c2.intersects(A, B):
            rows_a.append(A._params)
            rows_b.append(B._params)
    return np.array(rows_a), np.array(rows_b)


def test_overlapping_search_finds_the_global_optimum_on_crossed_needles():
    # 2000 random overlapping crossed needles (several local optima, narrow basins) against dense
    # sampling of g at 2**14 angles plus refinement of the 8 best sampled maxima.
    rng = np.random.default_rng(2026)
    pa, pb = crossed_needles(rng, 2000)
    ref, nmax = ref_dense_max(pa, pb)
    got = np.array([K.contact_ellipse_ellipse(pa[k], EMPTY, pb[k], EMPTY)[0] for k in range(len(pa))])
    assert np.all(got < 0)
    assert np.all(got >= ref - 1e-13)  # never a lower local maximum
    assert np.all(got <= ref + 1e-12)  # and a true value of g
    assert np.count_nonzero(nmax >= 4) >= 100 and np.count_nonzero(nmax >= 2) >= 1000


def test_overlapping_search_evaluation_count():
    # evaluations of g per overlapping pair (aspect 1..1e3): about 36 on average (seed evaluations
    # included) since the trig-free branch and bound (about 140 with the former 16 refined seeds);
    # see docs/contact.md
    rng = np.random.default_rng(8)
    counts = []
    for _ in range(300):
        A, B = random_pair(rng, 10 ** rng.uniform(0, 3), "overlap")
        counts.append(K.contact_ellipse_ellipse_iterations(A._params, EMPTY, B._params, EMPTY))
    assert np.mean(counts) <= 45


def test_benchmark_workload_evaluation_count():
    # the pairs of benchmarks/common.py random_pairs (radii 0.5..2, any angle, offsets up to 3.5):
    # about 12 evaluations per overlapping pair (83 % are certified by the disc bound after one
    # local solve, median 7) and 5 per apart pair
    rng = np.random.default_rng(31)
    n = 4000
    ca = rng.uniform(-100.0, 100.0, (n, 2))
    A = c2.Ellipse(ca, rng.uniform(0.5, 2.0, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    B = c2.Ellipse(ca + rng.uniform(-3.5, 3.5, (n, 2)), rng.uniform(0.5, 2.0, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    hit = np.asarray(c2.intersects(A, B))
    counts = np.array([K.contact_ellipse_ellipse_iterations(A._params[k], EMPTY, B._params[k], EMPTY) for k in range(n)])
    assert hit.sum() > 1000 and (~hit).sum() > 1000
    assert counts[hit].mean() <= 16
    assert counts[~hit].mean() <= 8


def test_near_concentric_near_circles_stay_cheap_and_exact():
    # g is nearly flat here; with tangent-line arc bounds the search split arcs up to its cap
    # (about 450 evaluations per pair); the rolling-disc bounds prune them or certify the first
    # local maximum
    rng = np.random.default_rng(32)
    n = 600
    A = c2.Ellipse(rng.normal(0.0, 1e-3, (n, 2)), np.stack([np.ones(n), 1 - 10 ** rng.uniform(-12, -2, n)], 1),
                   rng.uniform(-3, 3, n))
    r = rng.uniform(0.3, 3.0, n)
    B = c2.Ellipse(rng.normal(0.0, 1e-3, (n, 2)), np.stack([r, r * (1 - 10 ** rng.uniform(-12, -2, n))], 1),
                   rng.uniform(-3, 3, n))
    pa, pb = A._params, B._params
    counts = np.array([K.contact_ellipse_ellipse_iterations(pa[k], EMPTY, pb[k], EMPTY) for k in range(n)])
    assert counts.mean() <= 30 and counts.max() <= 150
    ref, _ = ref_dense_max(pa, pb)
    got = np.array([K.contact_ellipse_ellipse(pa[k], EMPTY, pb[k], EMPTY)[0] for k in range(n)])
    scale = np.maximum(pa[:, 2], pb[:, 2])
    assert np.all(got >= ref - 1e-14 * scale)
    assert np.all(got <= ref + 1e-14 * scale)


def test_rolling_disc_bound_holds_on_the_whole_circle():
    # _g_w: g(v) <= w(u).v - r for every v, with equality at v = u, where r is the sum of the
    # smallest radii of curvature (the discs rolling inside each ellipse)
    rng = np.random.default_rng(33)
    v = np.linspace(-np.pi, np.pi, 4001)
    cv, sv = np.cos(v), np.sin(v)
    for _ in range(200):
        aA, bA, aB, bB = 10 ** rng.uniform(-3, 0, 4)
        phi = rng.uniform(-3, 3)
        cphi, sphi = math.cos(phi), math.sin(phi)
        dx, dy = rng.uniform(-1, 1, 2)
        r = min(aA, bA) ** 2 / max(aA, bA) + min(aB, bB) ** 2 / max(aB, bB)
        t = rng.uniform(-np.pi, np.pi)
        gu, w0, w1 = K._g_w(aA, bA, aB, bB, cphi, sphi, dx, dy, r, math.cos(t), math.sin(t))
        assert abs(w0 * math.cos(t) + w1 * math.sin(t) - r - gu) <= 1e-15
        cb, sb = cv * cphi + sv * sphi, sv * cphi - cv * sphi
        g = dx * cv + dy * sv - np.hypot(aA * cv, bA * sv) - np.hypot(aB * cb, bB * sb)
        assert np.all(g <= w0 * cv + w1 * sv - r + 1e-15)


@pytest.mark.parametrize(
    "pa, pb",
    [
        # Newton bounced between the ends of its bracket (g'' spikes near the flat side of the
        # thin ellipse) until the iteration cap: 0.049 short (found in a 150 000-pair check)
        (
            [-0.9355616702535094, -0.9947344656910027, 1.0, 0.013559223187967704, -0.647473232813506, 0.7620881922651915],
            [-1.5491138553656953, -4.074762802230137, 1.08855079072657, 0.016619733294427088, 0.3279453209577029,
             -0.9446967060712921],
        ),
        # the same from the PW seed before the bisection rule: 0.188 short
        (
            [0.9238278790601779, -0.9236691307912428, 1.0, 0.06241407055444387, -0.5166649296785457, 0.8561876841208728],
            [6.804236110331698, 0.47984792954907096, 2.269108694247381, 0.17794356758428467, -0.922197003805363,
             0.38672042378495003],
        ),
    ],
)
def test_apart_thin_pairs_where_plain_newton_bounces(pa, pb):
    pa, pb = np.array(pa), np.array(pb)
    r = K.contact_ellipse_ellipse(pa, EMPTY, pb, EMPTY)
    ref, _ = ref_support_max(ellipse_support(pa), ellipse_support(pb))
    assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR * max(pa[2], pb[2])
    assert K.contact_ellipse_ellipse_iterations(pa, EMPTY, pb, EMPTY) <= 40
