"""The dedicated ``intersects`` kernel for ellipse pairs (conic.intersects_ellipse_ellipse).

``intersects`` (and ``disjoint``) no longer go through ``relate`` for two ellipses: the kernel
skips the containment classification and answers 1 / 0 / UNDECIDED from cheap certified filters
(bounding and inscribed circles, width along the centre line, a centre inside the other ellipse)
and the Perram-Wertheim certificates; its exact twin tests the separation conditions of the
characteristic cubic on Fractions. Checked here against ``relate(a, b) != DISJOINT`` (itself
exact) on random pairs, near-tangent pairs built from exact tangencies, needles and circles, in
batches (serial and parallel loops) and on single shapes, and the float kernel against its exact
twin wherever the float kernel decides.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d import _dispatch, _exact, _jit
from collide2d._kernels import codes
from collide2d._kernels.relate import conic

EPS = 2.0**-53
NOVERTS = np.zeros((0, 2))
GAPS = [1e-3, 1e-5, 1e-7, 1e-9, 1e-11, 1e-13, 1e-15]


def rows(e):
    return np.ascontiguousarray(e._flat_params())


def random_ellipses(rng, n, spread=3.5, aspect=1.0):
    ca = rng.uniform(-10, 10, (n, 2))
    cb = ca + rng.uniform(-spread, spread, (n, 2))
    ra = rng.uniform(0.5, 2.0, (n, 2))
    rb = rng.uniform(0.5, 2.0, (n, 2))
    if aspect != 1.0:
        ra[:, 1] = ra[:, 0] / aspect
        rb[:, 1] = rb[:, 0] / aspect
    return c2.Ellipse(ca, ra, rng.uniform(-np.pi, np.pi, n)), c2.Ellipse(cb, rb, rng.uniform(-np.pi, np.pi, n))


def tangent_pairs(rng, n, max_aspect=10.0):
    """Externally tangent ellipse pairs (up to ~1e-15 relative), built from the stored directions.

    Returns ``(a, radii_b, angle_b, centre_b, normal, size)``: ``b`` touches ``a`` when centred at
    ``centre_b``; ``normal`` is the unit normal at the contact, from ``a`` to ``b``.
    """
    major = rng.uniform(0.5, 2.0, (n, 2))
    aspect = np.exp(rng.uniform(0.0, np.log(max_aspect), (n, 2)))
    radii_a = np.stack([major[:, 0], major[:, 0] / aspect[:, 0]], -1)
    radii_b = np.stack([major[:, 1], major[:, 1] / aspect[:, 1]], -1)
    a = c2.Ellipse(rng.uniform(-10, 10, (n, 2)), radii_a, rng.uniform(-np.pi, np.pi, n))
    angle_b = rng.uniform(-np.pi, np.pi, n)
    wa = np.asarray(a.direction)
    wa = wa / np.hypot(wa[:, 0], wa[:, 1])[:, None]
    wb = np.asarray(c2.Ellipse(np.zeros((n, 2)), radii_b, angle_b).direction)
    wb = wb / np.hypot(wb[:, 0], wb[:, 1])[:, None]
    t = rng.uniform(-np.pi, np.pi, n)
    aa, ba = radii_a[:, 0], radii_a[:, 1]
    lx, ly = aa * np.cos(t), ba * np.sin(t)
    p = np.asarray(a.center) + np.stack([wa[:, 0] * lx - wa[:, 1] * ly, wa[:, 1] * lx + wa[:, 0] * ly], -1)
    nx, ny = np.cos(t) / aa, np.sin(t) / ba
    normal = np.stack([wa[:, 0] * nx - wa[:, 1] * ny, wa[:, 1] * nx + wa[:, 0] * ny], -1)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    mx = -(wb[:, 0] * normal[:, 0] + wb[:, 1] * normal[:, 1])
    my = -(-wb[:, 1] * normal[:, 0] + wb[:, 0] * normal[:, 1])
    ab, bb = radii_b[:, 0], radii_b[:, 1]
    scale = np.sqrt((ab * mx) ** 2 + (bb * my) ** 2)
    qx, qy = ab * ab * mx / scale, bb * bb * my / scale
    q = np.stack([wb[:, 0] * qx - wb[:, 1] * qy, wb[:, 1] * qx + wb[:, 0] * qy], -1)
    size = np.maximum(radii_a.max(axis=1), radii_b.max(axis=1))
    return a, radii_b, angle_b, p - q, normal, size


def assert_matches_relate(a, b):
    got = c2.intersects(a, b)
    expected = np.asarray(c2.relate(a, b)) != c2.Relation.DISJOINT
    assert got.dtype == bool and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(c2.disjoint(a, b), ~expected)
    return got


def exact_flag(pa, pb):
    row_a, _ = _exact.exact_row("ellipse", pa, None)
    row_b, _ = _exact.exact_row("ellipse", pb, None)
    return int(_exact.kernel_function("intersects_ellipse_ellipse")(row_a, NOVERTS, row_b, NOVERTS, 0))


def exact_relate(pa, pb):
    row_a, _ = _exact.exact_row("ellipse", pa, None)
    row_b, _ = _exact.exact_row("ellipse", pb, None)
    return int(_exact.kernel_function("relate_ellipse_ellipse")(row_a, NOVERTS, row_b, NOVERTS, 0))


# -- batches against relate -----------------------------------------------------------------------


@pytest.mark.parametrize("aspect", [1.0, 10.0, 1e3])
def test_random_pairs_match_relate(aspect):
    rng = np.random.default_rng(11)
    a, b = random_ellipses(rng, 3000, aspect=aspect)
    got = assert_matches_relate(a, b)
    assert 0.05 < got.mean() < 0.95


@pytest.mark.parametrize("direction", [1.0, -1.0], ids=["apart", "together"])
def test_near_tangent_pairs_match_relate_and_construction(direction):
    rng = np.random.default_rng(12)
    n = 150
    a, radii_b, angle_b, centre_b, normal, size = tangent_pairs(rng, n)
    for gap in GAPS:
        b = c2.Ellipse(centre_b + (direction * gap * size)[:, None] * normal, radii_b, angle_b)
        got = assert_matches_relate(a, b)
        if gap >= 1e-12:  # the construction error (~1e-15 relative) is far below the gap
            assert np.all(got == (direction < 0)), gap


def test_exactly_tangent_axis_aligned_pairs():
    # a = (0, 0) with semi-axes (2, 1), b to its right along x: tangent at x = 2 exactly
    a = c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.0)
    for rb in [(1.0, 3.0), (0.5, 0.25), (3.0, 3.0)]:
        touching = c2.Ellipse((2.0 + rb[0], 0.0), rb, 0.0)
        assert c2.intersects(a, touching) and c2.relate(a, touching) == c2.Relation.TOUCHING
        apart = c2.Ellipse((np.nextafter(2.0 + rb[0], 9.0), 0.0), rb, 0.0)
        assert not c2.intersects(a, apart) and c2.disjoint(a, apart)
        closer = c2.Ellipse((np.nextafter(2.0 + rb[0], 0.0), 0.0), rb, 0.0)
        assert c2.intersects(a, closer)


def test_needles():
    rng = np.random.default_rng(13)
    n = 400
    # crossing needles, needles side by side with tiny gaps, collinear needles end to end
    c = rng.uniform(-5, 5, (n, 2))
    t = rng.uniform(-np.pi, np.pi, n)
    w = np.stack([np.cos(t), np.sin(t)], -1)
    perp = np.stack([-w[:, 1], w[:, 0]], -1)
    thin = 1e-5
    a = c2.Ellipse(c, np.stack([np.full(n, 1.0), np.full(n, thin)], -1), t)
    crossing = c2.Ellipse(c + 0.3 * w, np.stack([np.full(n, 1.0), np.full(n, thin)], -1), t + rng.uniform(0.1, 3.0, n))
    side = rng.choice([-1.0, 1.0], n)[:, None]
    parallel = c2.Ellipse(c + side * (2 * thin * (1 + rng.choice([-1e-3, 1e-3], n)))[:, None] * perp,
                          np.stack([np.full(n, 1.0), np.full(n, thin)], -1), t)
    end = c2.Ellipse(c + (2.0 + rng.choice([-1e-9, 1e-9], n))[:, None] * w, np.stack([np.full(n, 1.0), np.full(n, thin)], -1), t)
    assert assert_matches_relate(a, crossing).all()
    assert_matches_relate(a, parallel)
    assert_matches_relate(a, end)


def test_circles_and_mixed():
    rng = np.random.default_rng(14)
    n = 500
    ca = rng.integers(-8, 8, (n, 2)).astype(float)
    cb = ca + rng.integers(-4, 5, (n, 2)).astype(float)
    ra = rng.integers(1, 4, n).astype(float)
    rb = rng.integers(1, 4, n).astype(float)
    a, b = c2.Circle(ca, ra), c2.Circle(cb, rb)
    got = assert_matches_relate(a, b)
    assert got.any() and not got.all()
    # exact tangencies of circles (integer data: many) are decided exactly
    np.testing.assert_array_equal(got, np.hypot(*(cb - ca).T) <= ra + rb)
    # circles against ellipses, and concentric pairs
    e = c2.Ellipse(cb, np.stack([rb, rb / 2], -1), rng.uniform(-3, 3, n))
    assert_matches_relate(a, e)
    assert_matches_relate(e, a)
    assert c2.intersects(c2.Ellipse((1.0, 1.0), (5.0, 0.1), 0.4), c2.Ellipse((1.0, 1.0), (0.1, 5.0), 0.4))


def test_broadcasting_and_large_batches_use_both_loops():
    rng = np.random.default_rng(15)
    a, b = random_ellipses(rng, 2 * _jit.SERIAL_BELOW + 17)
    got = assert_matches_relate(a, b)  # parallel loop
    small = c2.intersects(a[:100], b[:100])  # serial loop
    np.testing.assert_array_equal(small, got[:100])
    col = c2.Ellipse(np.asarray(a.center)[:40, None], np.asarray(a.radii)[:40, None], np.asarray(a.angle)[:40, None])
    row = c2.Ellipse(np.asarray(b.center)[None, :30], np.asarray(b.radii)[None, :30], np.asarray(b.angle)[None, :30])
    grid = c2.intersects(col, row)
    assert grid.shape == (40, 30)
    np.testing.assert_array_equal(grid, np.asarray(c2.relate(col, row)) != 0)
    empty = c2.intersects(a[:0], b[:0])
    assert empty.shape == (0,) and empty.dtype == bool


# -- single shapes ---------------------------------------------------------------------------------


def test_scalars_match_batches_and_return_bool():
    rng = np.random.default_rng(16)
    a, b = random_ellipses(rng, 60)
    batch = c2.intersects(a, b)
    for k in range(60):
        value = c2.intersects(a[k], b[k])
        assert type(value) is bool and value == batch[k]
        assert type(c2.disjoint(a[k], b[k])) is bool and c2.disjoint(a[k], b[k]) == (not value)
        assert c2.intersects(b[k], a[k]) == value


def test_scalar_exact_fallback_is_counted_under_the_intersects_kernel():
    # 0.1 + 0.1 == 0.2 exactly, but 0.1**2 is not a float: the exact float stage cannot decide
    a, b = c2.Circle((0.0, 0.0), 0.1), c2.Circle((0.2, 0.0), 0.1)
    c2.exact_fallback_counts(reset=True)
    assert c2.intersects(a, b) is True and c2.disjoint(a, b) is False
    assert c2.exact_fallback_counts(reset=True) == {"intersects_ellipse_ellipse": 2}
    batch = c2.intersects(c2.Circle([(0.0, 0.0), (0.0, 0.0)], 0.1), c2.Circle([(0.2, 0.0), (5.0, 0.0)], 0.1))
    assert batch.tolist() == [True, False]
    assert c2.exact_fallback_counts(reset=True) == {"intersects_ellipse_ellipse": 1}


def test_exactly_touching_short_numbers_need_no_fallback():
    # circles at a Pythagorean distance, unit circles side by side: decided by the exact float stage
    c2.exact_fallback_counts(reset=True)
    assert c2.intersects(c2.Circle((0.0, 0.0), 1.0), c2.Circle((2.0, 0.0), 1.0)) is True
    assert c2.intersects(c2.Circle((1.0, 2.0), 2.0), c2.Circle((4.0, 6.0), 3.0)) is True
    assert c2.touches(c2.Circle((1.0, 2.0), 2.0), c2.Circle((4.0, 6.0), 3.0)) is True
    batch = c2.intersects(c2.Circle([(0.0, 0.0), (0.0, 0.0)], 1.0), c2.Circle([(2.0, 0.0), (5.0, 0.0)], 1.0))
    assert batch.tolist() == [True, False]
    assert c2.exact_fallback_counts(reset=True) == {}


def test_other_kinds_still_use_relate():
    assert _dispatch.intersects_kernel("ellipse", "polygon") is None
    assert _dispatch.intersects_kernel("point", "point") is None
    assert _dispatch.intersects_kernel("ellipse", "ellipse")[0] == "intersects_ellipse_ellipse"
    assert c2.intersects(c2.Box((0, 0), (1, 1)), c2.Circle((2, 0.5), 1)) is True
    assert c2.disjoint(c2.Box((0, 0), (1, 1)), c2.Circle((2.5, 0.5), 1)) is True


# -- float kernel against its exact twin ------------------------------------------------------------


def test_float_decisions_match_exact_twin():
    rng = np.random.default_rng(17)
    pairs = []
    a, b = random_ellipses(rng, 40)
    pairs += list(zip(rows(a), rows(b)))
    a, radii_b, angle_b, centre_b, normal, size = tangent_pairs(rng, 20)
    for gap in (1e-4, -1e-4, 1e-9, -1e-9, 1e-14, -1e-14, 0.0):
        b = c2.Ellipse(centre_b + (gap * size)[:, None] * normal, radii_b, angle_b)
        pairs += list(zip(rows(a), rows(b)))[:6]
    a, b = random_ellipses(rng, 20, aspect=1e4, spread=1.0)
    pairs += list(zip(rows(a), rows(b)))
    decided = 0
    for pa, pb in pairs:
        exact = exact_flag(pa, pb)
        assert exact == int(exact_relate(pa, pb) != codes.DISJOINT), (pa.tolist(), pb.tolist())
        flag = conic.intersects_ellipse_ellipse(pa, NOVERTS, pb, NOVERTS, EPS)
        assert flag == getattr(conic.intersects_ellipse_ellipse, "py_func", conic.intersects_ellipse_ellipse)(pa, NOVERTS, pb, NOVERTS, EPS)
        if flag != codes.UNDECIDED:
            decided += 1
            assert flag == exact, (pa.tolist(), pb.tolist())
    assert decided > len(pairs) // 2


def test_exact_twin_on_fractions_with_integer_data():
    # exact mode on Fractions: circles, concentric pairs and tangent axis-aligned ellipses
    twin = _exact.kernel_function("intersects_ellipse_ellipse")
    assert not hasattr(twin, "py_func")
    F = Fraction
    rows_ = [
        ((0, 0, 2, 1, 1, 0), (3, 0, 1, 3, 1, 0), 1),  # tangent at (2, 0)
        ((0, 0, 2, 1, 1, 0), (F(301, 100), 0, 1, 3, 1, 0), 0),
        ((0, 0, 2, 1, 1, 0), (0, 0, 1, 3, 1, 0), 1),  # concentric
        ((0, 0, 1, 1, 1, 0), (2, 0, 1, 1, 1, 0), 1),  # tangent circles
        ((0, 0, 1, 1, 1, 0), (F(201, 100), 0, 1, 1, 1, 0), 0),
        ((0, 0, 4, 1, 1, 1), (0, 3, 4, 1, 1, -1), 1),  # crossing needles (w not unit)
    ]
    for ra, rb, expected in rows_:
        pa = np.array([F(x) for x in ra], dtype=object)
        pb = np.array([F(x) for x in rb], dtype=object)
        assert twin(pa, NOVERTS, pb, NOVERTS, 0) == expected, (ra, rb)
        assert twin(pb, NOVERTS, pa, NOVERTS, 0) == expected, (ra, rb)
