"""The exact float stage: exactly touching shapes decided in compiled code, without the Fraction
fallback, and always in agreement with the Fraction twin of the kernels (the reference)."""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d import _dispatch, _exact
from collide2d._kernels import codes, vec

R = c2.Relation


def twin_code(a, b):
    """The relation code of two single shapes from the Fraction twin of the kernels."""
    name, _, swapped = _dispatch.pair_kernel("relate", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    code = _exact.relate(name, first._kind, first._params, first._verts, second._kind, second._params, second._verts)
    code = _dispatch._MIRROR_CODE[code] if swapped else int(code)
    return codes.OVERLAPPING if code == codes.CROSSING else code  # as the public relate reports it


# -- the checked operations ----------------------------------------------------------------------


@pytest.mark.parametrize("compiled", [True, False])
def test_checked_operations_are_exact_or_nan(compiled):
    add = vec.exact_add if compiled else vec.exact_add.py_func
    mul = vec.exact_mul if compiled else vec.exact_mul.py_func
    assert add(0.5, 0.25) == 0.75 and add(2.0**60, -(2.0**60)) == 0.0
    assert math.isnan(add(1.0, 2.0**-60)) and math.isnan(add(0.1, 0.2))
    assert math.isnan(add(1e308, 1e308)) and math.isnan(add(math.nan, 1.0))
    assert mul(3.0, 7.0) == 21.0 and mul(0.0, 0.1) == 0.0 and mul(2.0**-400, 2.0**-400) == 2.0**-800
    assert mul(float(2**26 + 1), float(2**26 + 1)) == float((2**26 + 1) ** 2)  # 53 bits: exact
    assert math.isnan(mul(float(2**27 + 1), float(2**27 + 1)))  # 55 bits: rounded
    assert math.isnan(mul(0.1, 0.1)) and math.isnan(mul(2.0**-500, 2.0**-500))  # rounded; underflow
    assert math.isnan(mul(2.0**500, 2.0**500)) and math.isnan(mul(math.inf, 1.0))
    assert vec.exact_sign(-0.0) == 0 and vec.exact_sign(math.nan) == codes.UNKNOWN_SIGN


# -- lattices and touching constructions ------------------------------------------------------------


def lattices(side):
    """The three lattices of bench_lattice.py: every neighbour touches exactly."""
    k = np.arange(side * side)
    g = np.stack([k % side, k // side], axis=1).astype(np.float64)
    return {
        "circles": c2.Circle(g, 0.5),
        "ellipses": c2.Ellipse(g, (0.5, 0.25)),
        "quarter turns": c2.Ellipse(2 * g, (1.0, 0.5), math.pi / 2),
    }


def neighbours(side):
    k = np.arange(side * side)
    right = k[k % side < side - 1]
    up = k[k // side < side - 1]
    return np.concatenate([right, up]), np.concatenate([right + 1, up + side]), right.size


@pytest.mark.parametrize("name", ["circles", "ellipses", "quarter turns"])
@pytest.mark.parametrize("side", [12, 70])  # serial and parallel loops
def test_lattices_need_no_fallback(name, side):
    shapes = lattices(side)[name]
    i, j, n_right = neighbours(side)
    touching = np.ones(i.size, dtype=bool)
    if name == "ellipses":
        touching[n_right:] = False  # vertex to vertex along x only
    if name == "quarter turns":
        touching[:n_right] = False  # along y only
    expected = np.stack([i[touching], j[touching]])
    expected = expected[:, np.lexsort(expected[::-1])]
    c2.exact_fallback_counts(reset=True)
    for predicate in ("intersects", "touches"):
        np.testing.assert_array_equal(c2.query_pairs(shapes, predicate=predicate), expected)
    rel = np.asarray(c2.relate(shapes[i], shapes[j]))
    assert np.all(rel[touching] == int(R.TOUCHING)) and np.all(rel[~touching] == int(R.DISJOINT))
    np.testing.assert_array_equal(c2.touches(shapes[i], shapes[j]), touching)
    np.testing.assert_array_equal(c2.intersects(shapes[j], shapes[i]), touching)
    assert c2.exact_fallback_counts(reset=True) == {}
    for k in range(0, i.size, max(1, i.size // 25)):  # the Fraction twin agrees
        assert twin_code(shapes[i[k]], shapes[j[k]]) == rel[k]


def constructions():
    """Exactly touching pairs of the kinds that tile maps and packings produce, with the relation."""
    q = math.pi / 2
    return [
        (c2.Circle((0, 0), 2), c2.Circle((3, 4), 3), R.TOUCHING),  # Pythagorean distance
        (c2.Circle((1, 2), 5), c2.Circle((-2, -2), 10), R.WITHIN),  # |d| = 5 = 10 - 5: inside, tangent
        (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3)), R.TOUCHING),  # vertex to vertex
        (c2.Ellipse((0, 0), (2, 1), q), c2.Ellipse((0, 3), (1, 3), q), R.TOUCHING),  # quarter turns
        (c2.Ellipse((0, 0), (2, 1), q), c2.Ellipse((2, 0), (2, 1), q), R.TOUCHING),
        (c2.Ellipse((0, 0), (0.375, 0.75), 3 * q), c2.Ellipse((1.5, 0), (0.125, 0.75), -q), R.TOUCHING),
        (c2.Box((0, 0), (1, 1)), c2.Box((1, 0), (2, 1)), R.TOUCHING),  # shared edge
        (c2.Box((0, 0), (1, 1)), c2.Box((1, 1), (2, 2)), R.TOUCHING),  # shared corner
        (c2.Box((0, 0), (0.1, 0.3)), c2.Box((0.1, 0.2), (0.7, 0.9)), R.TOUCHING),
        (c2.RotatedBox((0, 0), (1, 0.5), q), c2.RotatedBox((1, 0), (1, 0.5), q), R.TOUCHING),
        (c2.Circle((0, 0), 1), c2.Box((1, -1), (2, 1)), R.TOUCHING),  # circle on a box edge
        (c2.Circle((0, 0), 5), c2.Box((3, 4), (5, 6)), R.TOUCHING),  # on a box corner
        (c2.Circle((1, 1), 1), c2.Box((0, 0), (3, 2)), R.WITHIN),  # inside, tangent to two edges
        (c2.Ellipse((0, 0), (2, 1)), c2.Box((-1, 1), (1, 2)), R.TOUCHING),
        (c2.Ellipse((0, 0), (2, 1), q), c2.Box((-1, 2), (1, 3)), R.TOUCHING),
        (c2.Ellipse((0, 0), (5, 10)), c2.Point((3, 8)), R.TOUCHING),
        (c2.Circle((0, 0), 1), c2.Segment((-2, 1), (2, 1)), R.TOUCHING),
        (c2.Ellipse((0, 0), (2, 1)), c2.Line((0, 1), (1, 0)), R.TOUCHING),
        (c2.Segment((0, 0), (1, 1)), c2.Segment((1, 1), (2, 0)), R.TOUCHING),
        (c2.Polygon([(0, 0), (2, 0), (1, 1)]), c2.Polygon([(0, 0), (1, -1), (2, 0)]), R.TOUCHING),
    ]


def test_touching_constructions_need_no_fallback():
    cases = constructions()
    c2.exact_fallback_counts(reset=True)
    got = [(c2.relate(a, b), c2.relate(b, a), c2.touches(a, b), c2.intersects(b, a)) for a, b, _ in cases]
    assert c2.exact_fallback_counts(reset=True) == {}
    mirror = {R.WITHIN: R.CONTAINS, R.CONTAINS: R.WITHIN}
    for (a, b, expected), (ab, ba, touches, meet) in zip(cases, got):
        assert (ab, ba, touches, meet) == (expected, mirror.get(expected, expected), expected == R.TOUCHING, True)
        assert twin_code(a, b) == int(expected)


def test_short_random_pairs_agree_with_the_fraction_twin():
    """Integer centres and radii, quarter turns: many exact tangencies, inner and outer; every
    compiled answer equals the Fraction twin's, and most need no fallback."""
    rng = np.random.default_rng(17)
    n = 1500
    a = c2.Ellipse(rng.integers(0, 4, (n, 2)), rng.integers(1, 4, (n, 2)), rng.integers(0, 4, n) * (math.pi / 2))
    b = c2.Ellipse(rng.integers(0, 4, (n, 2)), rng.integers(1, 4, (n, 2)), rng.integers(0, 4, n) * (math.pi / 2))
    c2.exact_fallback_counts(reset=True)
    rel = np.asarray(c2.relate(a, b))
    meet = np.asarray(c2.intersects(a, b))
    fallbacks = sum(c2.exact_fallback_counts(reset=True).values())
    assert np.count_nonzero(rel == int(R.TOUCHING)) > 50
    assert fallbacks == 0
    twin = np.array([twin_code(a[k], b[k]) for k in range(n)])
    np.testing.assert_array_equal(rel, twin)
    np.testing.assert_array_equal(meet, twin != int(R.DISJOINT))


def test_flat_kinds_on_a_grid_need_no_fallback():
    """Polylines (segments end to end), points on box edges and corners, lines through box corners:
    integer and half-integer data are decided by the exact re-run of the flat kernels."""
    rng = np.random.default_rng(3)
    n = 400
    start = rng.integers(-20, 20, (n, 2)) / 2
    end = start + rng.integers(1, 6, (n, 2)) / 2
    after = end + rng.integers(-5, 6, (n, 2)) / 4
    after[np.all(after == end, axis=1)] += 1.0
    seg, nxt = c2.Segment(start, end), c2.Segment(end, after)
    boxes = c2.Box(start, end)
    t = rng.integers(0, 5, (n, 1)) / 4
    on_edge = c2.Point(start + t * np.stack([end[:, 0] - start[:, 0], np.zeros(n)], axis=1))
    line = c2.Line(end, rng.integers(-3, 4, (n, 2)) + np.array([0.5, 0.0]))
    c2.exact_fallback_counts(reset=True)
    results = [np.asarray(c2.relate(seg, nxt)), np.asarray(c2.relate(boxes, on_edge)),
               np.asarray(c2.relate(boxes, line)), np.asarray(c2.relate(seg, on_edge)),
               np.asarray(c2.relate(boxes, boxes[::-1]))]
    assert c2.exact_fallback_counts(reset=True) == {}
    assert np.all(results[0] != int(R.DISJOINT)) and np.all(results[1] == int(R.TOUCHING))
    pairs = [(seg, nxt), (boxes, on_edge), (boxes, line), (seg, on_edge), (boxes, boxes[::-1])]
    for (a, b), got in zip(pairs, results):
        for k in range(0, n, 8):
            assert twin_code(a[k], b[k]) == got[k]
