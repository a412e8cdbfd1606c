"""Contact of two shapes of one flat kind in either argument order (``distance_flat.goes_first``).

Two polygons (boxes, rotated boxes) or two segments reach one kernel in either order; the kernel
computes in a canonical order and mirrors, so ``contact(b, a)`` is ``contact(a, b)`` with the normal
negated and the witnesses and curvatures swapped, bit for bit, single and batched. The ties that
made the two orders differ (equal depths along two axes, collinear segments) are generated on
integer grids. Oracles, in exact rational arithmetic on the stored numbers (``fractions.Fraction``):

* the separation: the largest gap ``g(u) = min over b of u.b - max over a of u.a`` over the edge
  normals of both shapes (and a segment's two directions) when they overlap or touch, else the
  least vertex-to-edge distance (brute force over every pair);
* the normal attains it: ``g(normal) == separation`` up to rounding;
* the tie rule (axis-aligned boxes, whose gaps the kernel computes exactly): the first candidate of
  largest gap in the canonical order, the first shape's outward edge normals, then the second's
  inward ones.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d.measurement import contact

TOL = 1e-12  # agreement with the exact oracle, relative to the scene's size (a few units)


# -- exact oracle ------------------------------------------------------------------------------------


def exact(points):
    return [(Fraction(float(x)), Fraction(float(y))) for x, y in np.asarray(points, dtype=np.float64).reshape(-1, 2)]


def gap(A, B, u):
    """``g(u)`` for the exact direction ``u`` (not unit): in units of ``|u|``."""
    return min(u[0] * x + u[1] * y for x, y in B) - max(u[0] * x + u[1] * y for x, y in A)


def candidates(A, B):
    """Edge normals of A (outward), then of B (inward), in their vertex order; a segment gives its
    left and right normals and its two directions (the kernel's candidate order)."""
    out = []
    for V, sign in ((A, 1), (B, -1)):
        if len(V) >= 3:
            for (x0, y0), (x1, y1) in zip(V, V[1:] + V[:1]):
                out.append((sign * (y1 - y0), -sign * (x1 - x0)))
        elif len(V) == 2:
            (x0, y0), (x1, y1) = V
            ex, ey = x1 - x0, y1 - y0
            out += [(-ey, ex), (ey, -ex), (ex, ey), (-ex, -ey)]
    return out


def unit_gap(A, B, u):
    return float(gap(A, B, u)) / math.hypot(float(u[0]), float(u[1]))


def point_segment_squared(p, s0, s1):
    ex, ey = s1[0] - s0[0], s1[1] - s0[1]
    t = ((p[0] - s0[0]) * ex + (p[1] - s0[1]) * ey) / (ex * ex + ey * ey)
    t = min(max(t, Fraction(0)), Fraction(1))
    dx, dy = p[0] - (s0[0] + t * ex), p[1] - (s0[1] + t * ey)
    return dx * dx + dy * dy


def edges(V):
    return list(zip(V, V[1:] + V[:1])) if len(V) >= 3 else [tuple(V)]


def separation_oracle(A, B):
    """Exact-arithmetic separation of two convex vertex lists (polygons or segments)."""
    depth = max(unit_gap(A, B, u) for u in candidates(A, B))
    if depth <= 0.0:
        return depth
    squared = min(min(point_segment_squared(p, *e) for p in W for e in edges(V)) for V, W in ((A, B), (B, A)))
    return math.sqrt(squared)


def goes_first(A, B):
    """The documented canonical order: more vertices first, then the coordinates lexicographically."""
    if len(A) != len(B):
        return len(A) > len(B)
    return [c for p in A for c in p] <= [c for p in B for c in p]


# -- shapes on integer grids (many exact ties) ---------------------------------------------------------


def random_box(rng):
    lo = rng.integers(-3, 3, size=2)
    return lo / 2.0, (lo + rng.integers(1, 5, size=2)) / 2.0


def hull(points):
    """Counter-clockwise convex hull (Andrew's monotone chain), collinear points dropped."""
    pts = sorted(set(points))

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0]) <= 0:
                out.pop()
            out.append(p)
        return out

    return half(pts)[:-1] + half(pts[::-1])[:-1]


def random_polygon(rng, count):
    while True:
        v = hull([tuple(int(c) for c in p) for p in rng.integers(-3, 4, size=(7, 2))])
        if len(v) == count:
            return np.array(v, dtype=np.float64)


def random_collinear_segments(rng):
    """Two segments on one line of the grid: their end points ``(a0, a1), (b0, b1)``."""
    d = rng.integers(-2, 3, size=2)
    while not d.any():
        d = rng.integers(-2, 3, size=2)
    base = rng.integers(-2, 3, size=2)
    t = rng.integers(-3, 4, size=4)
    ends = base + t[:, None] * d
    return (ends[0], ends[1]), (ends[2], ends[3])


def assert_mirrored(ab, ba):
    """``ba`` is ``ab`` for the swapped pair, bit for bit."""
    np.testing.assert_array_equal(ba.separation, ab.separation)
    np.testing.assert_array_equal(ba.normal, 0.0 - ab.normal)
    np.testing.assert_array_equal(ba.point_a, ab.point_b)
    np.testing.assert_array_equal(ba.point_b, ab.point_a)
    np.testing.assert_array_equal(ba.curvature_a, ab.curvature_b)
    np.testing.assert_array_equal(ba.curvature_b, ab.curvature_a)


def check_pair(a, b, A, B):
    """Both orders of one single pair: mirrored bit for bit, and right by the exact oracle."""
    ab, ba = contact(a, b), contact(b, a)
    assert_mirrored(ab, ba)
    want = separation_oracle(A, B)
    assert abs(ab.separation - want) <= TOL * 8, (ab, want)
    n = exact([ab.normal])[0]
    assert abs(unit_gap(A, B, n) - ab.separation) <= TOL * 8, (ab, A, B)
    return ab


def check_batch(a_batch, b_batch, singles):
    """Both orders of a batch agree with the single calls (and so mirror each other)."""
    ab, ba = contact(a_batch, b_batch), contact(b_batch, a_batch)
    assert_mirrored(ab, ba)
    for k, one in enumerate(singles):
        np.testing.assert_array_equal(ab.separation[k], one.separation)
        np.testing.assert_array_equal(ab.normal[k], one.normal)
        np.testing.assert_array_equal(ab.point_a[k], one.point_a)
        np.testing.assert_array_equal(ab.point_b[k], one.point_b)


# -- tests ---------------------------------------------------------------------------------------------


def test_boxes_tied_along_two_axes_take_negated_normals():
    # overlapping by 1 along x and along y: the normal was (1, 0) one way and (0, -1) the other
    a = c2.Box((-0.75, -1.75), (-0.25, 0.25))
    b = c2.Box((-1.25, -0.75), (0.75, 1.25))
    ab, ba = contact(a, b), contact(b, a)
    assert ab.separation == ba.separation == -1.0
    assert ab.normal.tolist() == [0.0, 1.0] and ba.normal.tolist() == [0.0, -1.0]
    assert ab.point_a.tolist() == ba.point_b.tolist() == [-0.5, 0.25]
    assert ab.point_b.tolist() == ba.point_a.tolist() == [-0.5, -0.75]
    batch_a = c2.Box([(-0.75, -1.75), (-1.25, -0.75)], [(-0.25, 0.25), (0.75, 1.25)])
    batch_b = c2.Box([(-1.25, -0.75), (-0.75, -1.75)], [(0.75, 1.25), (-0.25, 0.25)])
    batched = contact(batch_a, batch_b)
    assert batched.normal.tolist() == [[0.0, 1.0], [0.0, -1.0]]
    assert_mirrored(batched, contact(batch_b, batch_a))


def test_collinear_segments_take_negated_normals():
    a, b = c2.Segment((0, 0), (2, 0)), c2.Segment((1, 0), (3, 0))
    ab, ba = contact(a, b), contact(b, a)
    assert ab.separation == 0.0 and ab.normal.tolist() == [0.0, 1.0] and ba.normal.tolist() == [0.0, -1.0]
    batched = contact(c2.Segment([(0, 0), (1, 0)], [(2, 0), (3, 0)]), c2.Segment([(1, 0), (0, 0)], [(3, 0), (2, 0)]))
    assert batched.normal.tolist() == [[0.0, 1.0], [0.0, -1.0]]


def test_random_box_ties_follow_the_documented_rule_both_orders_single_and_batched():
    rng = np.random.default_rng(25)
    pairs, singles, ties = [], [], 0
    for _ in range(150):
        (amin, amax), (bmin, bmax) = random_box(rng), random_box(rng)
        a, b = c2.Box(amin, amax), c2.Box(bmin, bmax)
        A, B = (exact([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])]) for lo, hi in ((amin, amax), (bmin, bmax)))  # as stored
        one = check_pair(a, b, A, B)
        if one.separation <= 0.0:
            # the tie rule: the first candidate of largest gap in the canonical order
            first, second, sign = (A, B, 1.0) if goes_first(A, B) else (B, A, -1.0)
            gaps = [gap(first, second, u) / Fraction(math.hypot(*map(float, u))) for u in candidates(first, second)]
            best = max(gaps)
            ties += gaps.count(best) > 1
            u = candidates(first, second)[gaps.index(best)]
            want = sign * np.array([float(u[0]), float(u[1])]) / math.hypot(float(u[0]), float(u[1]))
            assert one.normal.tolist() == (want + 0.0).tolist(), (a, b, one)
        pairs.append((amin, amax, bmin, bmax))
        singles.append(one)
    assert ties >= 20  # the grid makes ties common
    amin, amax, bmin, bmax = (np.array(column) for column in zip(*pairs))
    check_batch(c2.Box(amin, amax), c2.Box(bmin, bmax), singles)


def test_random_rotated_boxes_both_orders_single_and_batched():
    rng = np.random.default_rng(26)
    rows, singles = [], []
    for _ in range(60):
        angle = float(rng.choice([0.0, 0.3, math.pi / 4, 1.0]))  # one angle for both: parallel faces, ties
        ca, cb = rng.integers(-4, 5, size=(2, 2)) / 4.0
        ha, hb = rng.integers(1, 5, size=(2, 2)) / 4.0
        a, b = c2.RotatedBox(ca, ha, angle), c2.RotatedBox(cb, hb, angle)
        singles.append(check_pair(a, b, exact(a.corners), exact(b.corners)))
        rows.append((ca, ha, cb, hb, angle))
    ca, ha, cb, hb, angle = (np.array(column) for column in zip(*rows))
    check_batch(c2.RotatedBox(ca, ha, angle), c2.RotatedBox(cb, hb, angle), singles)


@pytest.mark.parametrize("count", [3, 4, 5])
def test_random_polygons_both_orders_single_and_batched(count):
    rng = np.random.default_rng(27 + count)
    va, vb, singles = [], [], []
    for _ in range(40):
        A, B = random_polygon(rng, count), random_polygon(rng, rng.choice([count, 4]))
        a, b = c2.Polygon(A), c2.Polygon(B)
        one = check_pair(a, b, exact(a.vertices), exact(b.vertices))
        if len(B) == count:
            va.append(A)
            vb.append(B)
            singles.append(one)
    check_batch(c2.Polygon(np.array(va)), c2.Polygon(np.array(vb)), singles)


def test_random_collinear_and_grid_segments_both_orders_single_and_batched():
    rng = np.random.default_rng(28)
    ends, singles = [], []
    for k in range(120):
        if k % 2:
            (a0, a1), (b0, b1) = random_collinear_segments(rng)
        else:  # any two segments of the grid: touching, crossing at a vertex, parallel, apart
            a0, a1, b0, b1 = rng.integers(-3, 4, size=(4, 2))
        if (a0 == a1).all() or (b0 == b1).all():
            continue
        a, b = c2.Segment(a0, a1), c2.Segment(b0, b1)
        singles.append(check_pair(a, b, exact([a0, a1]), exact([b0, b1])))
        ends.append((a0, a1, b0, b1))
    a0, a1, b0, b1 = (np.array(column, dtype=np.float64) for column in zip(*ends))
    check_batch(c2.Segment(a0, a1), c2.Segment(b0, b1), singles)


def test_same_shape_twice_keeps_one_normal():
    # the one case no order rule can mirror: a shape against itself (documented)
    box = c2.Box((0, 0), (2, 1))
    assert contact(box, box).normal.tolist() == contact(box, c2.Box((0, 0), (2, 1))).normal.tolist() == [0.0, -1.0]


def test_goes_first_is_the_documented_order():
    from collide2d._kernels.measure.distance_flat import goes_first as kernel_goes_first

    rng = np.random.default_rng(29)
    for _ in range(200):
        na, nb = rng.integers(1, 5, size=2)
        A = rng.integers(-1, 2, size=(na, 2)).astype(np.float64)
        B = rng.integers(-1, 2, size=(nb, 2)).astype(np.float64)
        want = goes_first([tuple(p) for p in A.tolist()], [tuple(p) for p in B.tolist()])
        assert kernel_goes_first(A, 0, na, B, 0, nb) == want
        if not (na == nb and (A == B).all()):
            assert kernel_goes_first(B, 0, nb, A, 0, na) != want
