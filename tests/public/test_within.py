"""query_pairs / query with ``max_distance``: every pair at distance at most ``d``, exact at ``d``.

References, independent of the library's decision:

* shapes without curves, and circles (a circle is its centre plus its radius): the exact squared
  distance in rational arithmetic (:class:`fractions.Fraction`), from the textbook definition
  (0 when the shapes meet, else the nearest vertex-to-edge or vertex-to-line distance);
* other ellipses: :func:`collide2d.distance` on every pair, away from a thin band around ``d``
  (its accuracy is a few ulps), and lattices whose distances are known by construction;
* periodic boxes: the same over the nine images of each pair.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import random_fields, stack_fields

import collide2d as c2
from collide2d import _pairs
from collide2d.table import ShapeTable

# -- the exact reference ---------------------------------------------------------------------------


def _vertices(shape):
    """Rational vertices of a single flat shape (a line: its point), and whether it is closed."""
    name = type(shape).__name__
    if name == "Point":
        return [tuple(map(Fraction, shape.xy.tolist()))], False
    if name == "Segment":
        return [tuple(map(Fraction, shape.start.tolist())), tuple(map(Fraction, shape.end.tolist()))], False
    if name == "Line":
        return [tuple(map(Fraction, shape.point.tolist()))], False
    offset, count = (int(x) for x in shape._params[:2])
    return [tuple(map(Fraction, v)) for v in shape._verts[offset : offset + count].tolist()], True


def _point_segment2(p, s, e):
    dx, dy = e[0] - s[0], e[1] - s[1]
    t = min(max(((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / (dx * dx + dy * dy), Fraction(0)), Fraction(1))
    return (s[0] + t * dx - p[0]) ** 2 + (s[1] + t * dy - p[1]) ** 2


def _line_distance2(line, points):
    (px, py), = _vertices(line)[0]
    dx, dy = (Fraction(v) for v in line.direction.tolist())
    return min(((x - px) * dy - (y - py) * dx) ** 2 for x, y in points) / (dx * dx + dy * dy)


def flat_distance2(a, b):
    """Exact squared distance of two single shapes without curves."""
    if c2.intersects(a, b):
        return Fraction(0)
    if type(a).__name__ == "Line":
        a, b = b, a
    if type(b).__name__ == "Line":
        return _line_distance2(b, _vertices(a)[0])
    (pa, closed_a), (pb, closed_b) = _vertices(a), _vertices(b)
    best = min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for p in pa for q in pb)
    for points, other, closed in ((pa, pb, closed_b), (pb, pa, closed_a)):
        edges = list(zip(other, other[1:] + (other[:1] if closed else [])))
        best = min([best] + [_point_segment2(p, s, e) for s, e in edges for p in points])
    return best


def is_circle(shape):
    return type(shape).__name__ == "Circle" or (type(shape).__name__ == "Ellipse" and shape.radii[0] == shape.radii[1])


def exact_within(a, b, d):
    """``distance(a, b) <= d`` exactly, for shapes without curves and circles; None otherwise."""
    d = Fraction(d)
    reach = d
    for shape in (a, b):
        if type(shape).__name__ in ("Circle", "Ellipse"):
            if not is_circle(shape):
                return None
            reach += Fraction(float(shape.radii[0] if type(shape).__name__ == "Ellipse" else shape.radius))
    a, b = (c2.Point(s.center) if type(s).__name__ in ("Circle", "Ellipse") else s for s in (a, b))
    return flat_distance2(a, b) <= reach * reach


def reference_pairs(shapes, d, *, others=None, band=1e-9):
    """Brute-force pairs at distance <= d of a list of single shapes (``others``: the query's b).

    Returns ``(pairs, unsure)``: ``unsure`` holds the pairs (non-circular ellipses only) whose float
    distance lies within ``band`` (relative) of ``d``; the library may answer either way there."""
    self_mode = others is None
    others = shapes if self_mode else others
    found, unsure = [], []
    for i, a in enumerate(shapes):
        for j, b in enumerate(others):
            if self_mode and j <= i:
                continue
            exact = exact_within(a, b, d)
            if exact is None:
                dist = c2.distance(a, b)
                scale = max(1.0, d)
                if abs(dist - d) <= band * scale:
                    unsure.append((i, j))
                    continue
                exact = dist <= d
            if exact:
                found.append((i, j))
    return found, unsure


def check(result, reference):
    """``result`` (2, n) holds every reference pair, and only those (up to the unsure ones)."""
    found, unsure = reference
    got = set(map(tuple, result.T.tolist()))
    assert result.dtype == np.int64
    assert sorted(got) == list(map(tuple, result.T.tolist())), "pairs must come sorted"
    assert set(found) <= got, f"missing {sorted(set(found) - got)[:5]}"
    assert got <= set(found) | set(unsure), f"extra {sorted(got - set(found) - set(unsure))[:5]}"


# -- scenes -----------------------------------------------------------------------------------------


FLAT_AND_CIRCLES = ("Point", "Circle", "Box", "RotatedBox", "Polygon", "Segment", "Line")


def mixed_shapes(seed, n_per_kind, kinds, span=5):
    rng = np.random.default_rng(seed)
    batches = [getattr(c2, kind)(**stack_fields(kind, [random_fields(kind, rng, span=span) for _ in range(n_per_kind)],
                                               (n_per_kind,))) for kind in kinds]
    return batches, [shape for batch in batches for shape in ShapeTable([batch])]


@pytest.mark.parametrize("d", [1.0, 0.5, 2.0**-30])
def test_flat_shapes_and_circles_exact(d):
    # small-integer data: many pairs exactly 1 (or 0.5) apart, decided exactly
    batches, singles = mixed_shapes(3, 7, FLAT_AND_CIRCLES)
    reference = reference_pairs(singles, d)
    assert not reference[1]
    result = c2.query_pairs(batches, max_distance=d)
    check(result, reference)
    table = ShapeTable(batches)
    np.testing.assert_array_equal(c2.query_pairs(table, max_distance=d), result)
    if d == 1.0:  # the boundary matters: many pairs are exactly 1 apart
        closer = c2.query_pairs(batches, max_distance=math.nextafter(1.0, 0.0))
        assert closer.shape[1] < result.shape[1]
        check(closer, reference_pairs(singles, math.nextafter(1.0, 0.0)))


def test_mixed_with_ellipses_matches_brute_force():
    kinds = ("Ellipse", "Circle", "Box", "RotatedBox", "Polygon", "Segment", "Point", "Line")
    batches, singles = mixed_shapes(8, 6, kinds)
    for d in (1.0, 0.3):
        reference = reference_pairs(singles, d)
        check(c2.query_pairs(batches, max_distance=d), reference)


@pytest.mark.parametrize("density", ["dense", "sparse"])
def test_random_ellipses_match_brute_force(density):
    rng = np.random.default_rng(5)
    n = 250
    side = 25.0 if density == "dense" else 120.0
    ellipses = c2.Ellipse(rng.uniform(0, side, (n, 2)), rng.uniform(0.2, 2.0, (n, 2)), rng.uniform(0, np.pi, n))
    d = 1.5
    i, j = np.triu_indices(n, 1)
    dist = c2.distance(ellipses[i], ellipses[j])
    sure = np.abs(dist - d) > 1e-9
    expected = set(zip(i[sure & (dist <= d)].tolist(), j[sure & (dist <= d)].tolist()))
    result = c2.query_pairs(ellipses, max_distance=d)
    got = set(map(tuple, result.T.tolist()))
    assert got - set(zip(i[~sure].tolist(), j[~sure].tolist())) == expected
    for backend in ("grid", "sweep", "brute"):
        np.testing.assert_array_equal(c2.query_pairs(ellipses, max_distance=d, backend=backend), result)
    # between two collections, both orders, and a single shape against the batch
    a, b = ellipses[:100], ellipses[100:]
    ab = c2.query(a, b, max_distance=d)
    ba = c2.query(b, a, max_distance=d)
    expected_ab = sorted((p, q - 100) for p, q in got if p < 100 <= q)
    assert list(map(tuple, ab.T.tolist())) == expected_ab
    assert sorted(map(tuple, ba[::-1].T.tolist())) == expected_ab
    single = c2.query(ellipses[7], ellipses, max_distance=d)
    expected_single = sorted({q for p, q in got if p == 7} | {p for p, q in got if q == 7} | {7})
    assert single[0].tolist() == [0] * len(expected_single) and single[1].tolist() == expected_single


def test_query_both_orders_mixed():
    batches, singles = mixed_shapes(13, 5, FLAT_AND_CIRCLES + ("Ellipse",))
    a, b = batches[:4], batches[4:]
    sa = [s for batch in a for s in ShapeTable([batch])]
    sb = [s for batch in b for s in ShapeTable([batch])]
    reference = reference_pairs(sa, 1.0, others=sb)
    ab = c2.query(a, b, max_distance=1.0)
    check(ab, reference)
    ba = c2.query(b, a, max_distance=1.0)
    assert sorted(map(tuple, ba[::-1].T.tolist())) == list(map(tuple, ab.T.tolist()))


# -- lattices exactly d apart -----------------------------------------------------------------------


def lattice(n, step_x, step_y):
    x, y = np.meshgrid(np.arange(n) * step_x, np.arange(n) * step_y)
    return np.stack([x.ravel(), y.ravel()], axis=-1)


def neighbours(n):
    """Index pairs of the horizontal and vertical neighbours of an n x n lattice (row-major)."""
    out = []
    for k in range(n * n):
        if (k + 1) % n:
            out.append((k, k + 1))
        if k + n < n * n:
            out.append((k, k + n))
    return sorted(out)


def lattice_shapes(name, n, d):
    """An n x n lattice of shapes whose horizontal and vertical neighbours are exactly d apart,
    the diagonal ones farther."""
    if name == "circle":
        return c2.Circle(lattice(n, 2 * 0.75 + d, 2 * 0.75 + d), 0.75)
    if name == "ellipse":  # aligned ellipses meet vertex to vertex
        return c2.Ellipse(lattice(n, 2 * 1.5 + d, 2 * 0.5 + d), (1.5, 0.5))
    if name == "turned-ellipse":  # a chain along the direction (3, 4), vertex to vertex: 2 a + d == 5
        centres = np.array([(3.0 * k, 4.0 * k) for k in range(n * n)])
        return c2.Ellipse(centres, ((5.0 - d) / 2, 0.5), direction=(3, 4))
    if name == "box":
        lo = lattice(n, 1.0 + d, 2.0 + d)
        return c2.Box(lo, lo + (1.0, 2.0))
    if name == "polygon":  # diamonds tip to tip
        centres = lattice(n, 2.0 + d, 2.0 + d)
        return c2.Polygon(centres[:, None, :] + np.array([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]))
    if name == "point":
        return c2.Point(lattice(n, d, d))
    raise KeyError(name)


@pytest.mark.parametrize("name", ["circle", "ellipse", "turned-ellipse", "box", "polygon", "point"])
@pytest.mark.parametrize("d", [0.5, 0.375, 0.1875])
def test_lattice_exactly_d_apart(name, d):
    n = 5
    shapes = lattice_shapes(name, n, d)
    expected = [(k, k + 1) for k in range(n * n - 1)] if name == "turned-ellipse" else neighbours(n)
    assert list(map(tuple, c2.query_pairs(shapes, max_distance=d).T.tolist())) == expected
    assert c2.query_pairs(shapes, max_distance=math.nextafter(d, 0.0)).shape == (2, 0)
    if name in ("turned-ellipse", "polygon"):
        return
    # the same lattice in a periodic box that closes the rows and columns d apart too
    step = {"circle": (1.5 + d, 1.5 + d), "ellipse": (3.0 + d, 1.0 + d), "box": (1.0 + d, 2.0 + d), "point": (d, d)}[name]
    length = (n * step[0], n * step[1])
    periodic, shifts = c2.query_pairs(shapes, max_distance=d, periodic=length, return_shifts=True)
    wrap = sorted(expected + [(k, k + n - 1) for k in range(0, n * n, n)] + [(k, k + n * (n - 1)) for k in range(n)])
    assert list(map(tuple, periodic.T.tolist())) == wrap
    assert np.count_nonzero(shifts.any(axis=1)) == 2 * n
    assert c2.query_pairs(shapes, max_distance=math.nextafter(d, 0.0), periodic=length).shape == (2, 0)


def test_ellipse_against_box_and_segment_exactly_d_apart():
    d = 0.25
    ellipse = c2.Ellipse((0.0, 0.0), (2.0, 1.0))
    shapes = [ellipse, c2.Box((2.0 + d, -1.0), (3.0, 1.0)), c2.Segment((-5.0, 1.0 + d), (5.0, 1.0 + d)),
              c2.Point((0.0, -1.0 - d)), c2.Line((-2.0 - d, 0.0), (0.0, 1.0))]
    assert c2.query_pairs(shapes, max_distance=d)[:, :4].tolist() == [[0, 0, 0, 0], [1, 2, 3, 4]]
    near = c2.query_pairs(shapes, max_distance=math.nextafter(d, 0.0))
    assert 0 not in near[0].tolist()


# -- the close calls of turned ellipses -------------------------------------------------------------


def test_turned_ellipses_close_calls_are_certified():
    rng = np.random.default_rng(21)
    kept = dropped = 0
    for _ in range(40):
        a = c2.Ellipse(rng.uniform(-1, 1, 2), rng.uniform(0.2, 2.0, 2), rng.uniform(0, np.pi))
        b = c2.Ellipse(rng.uniform(3, 5, 2), rng.uniform(0.2, 2.0, 2), rng.uniform(0, np.pi))
        s = c2.distance(a, b)
        assert s > 0.0
        for factor, inside in ((1 + 1e-12, True), (1 - 1e-12, False), (1 + 1e-7, True), (1 - 1e-7, False)):
            pairs = c2.query_pairs([a, b], max_distance=s * factor)
            assert (pairs.shape[1] == 1) == inside, (factor, s)
            kept += inside
            dropped += not inside
    assert kept == dropped == 80


# -- periodic boxes ---------------------------------------------------------------------------------


def test_periodic_matches_nine_images():
    length = (24.0, 18.0)
    rng = np.random.default_rng(4)
    batches, singles = mixed_shapes(17, 6, ("Circle", "Ellipse", "Box", "Polygon", "Segment", "Point"), span=3)
    moves = [rng.integers(0, 4, (batch.size, 2)) * np.array([6.0, 4.5]) for batch in batches]
    batches = [_pairs.translate(batch, move) for batch, move in zip(batches, moves)]
    singles = [shape for batch in batches for shape in ShapeTable([batch])]
    d = 1.0
    found, unsure = [], []
    shifts_of = {}
    images = [np.array((kx * length[0], ky * length[1])) for kx in (-1, 0, 1) for ky in (-1, 0, 1)]
    centre = [0.5 * (np.asarray(s.bounds[:2]) + np.asarray(s.bounds[2:])) for s in singles]
    for i, a in enumerate(singles):
        for j in range(i + 1, len(singles)):
            wrap = np.floor(centre[j] / length) * length - np.floor(centre[i] / length) * length
            for image in images:
                b = _pairs.translate(singles[j], image - wrap)
                exact = exact_within(a, b, d)
                if exact is None:
                    dist = c2.distance(a, b)
                    if abs(dist - d) <= 1e-9:
                        unsure.append((i, j))
                        continue
                    exact = dist <= d
                if exact:
                    found.append((i, j))
                    shifts_of[i, j] = image - wrap
    assert any(np.any(shift != 0) for shift in shifts_of.values()), "pairs across the edges expected"
    pairs, shifts = c2.query_pairs(batches, max_distance=d, periodic=length, return_shifts=True)
    check(pairs, (found, unsure))
    for (i, j), shift in zip(map(tuple, pairs.T.tolist()), shifts):
        if (i, j) in shifts_of:
            np.testing.assert_array_equal(shift, shifts_of[i, j])


# -- options and errors -----------------------------------------------------------------------------


def test_zero_and_candidates():
    batches, singles = mixed_shapes(2, 6, FLAT_AND_CIRCLES, span=4)
    np.testing.assert_array_equal(c2.query_pairs(batches, max_distance=0), c2.query_pairs(batches))
    np.testing.assert_array_equal(c2.query_pairs(batches, max_distance=0.0, predicate=None),
                                  c2.query_pairs(batches, predicate=None))
    d = 1.0
    candidates = c2.query_pairs(batches, max_distance=d, predicate=None)
    bounds = ShapeTable(batches).bounds
    i, j = np.triu_indices(len(singles), 1)
    with np.errstate(invalid="ignore"):
        gap_x = np.maximum(bounds[j, 0] - bounds[i, 2], bounds[i, 0] - bounds[j, 2])
        gap_y = np.maximum(bounds[j, 1] - bounds[i, 3], bounds[i, 1] - bounds[j, 3])
    near = ~(gap_x > d) & ~(gap_y > d)
    assert set(map(tuple, candidates.T.tolist())) >= set(zip(i[near].tolist(), j[near].tolist()))
    within = c2.query_pairs(batches, max_distance=d)
    assert set(map(tuple, within.T.tolist())) <= set(map(tuple, candidates.T.tolist()))


def test_errors():
    circles = c2.Circle([(0, 0), (3, 0)], 1)
    for bad in ("1", True, None if False else [1.0], 1j):
        with pytest.raises(TypeError, match="max_distance"):
            c2.query_pairs(circles, max_distance=bad)
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="max_distance"):
            c2.query_pairs(circles, max_distance=bad)
    with pytest.raises(ValueError, match="max_distance"):
        c2.query_pairs(circles, max_distance=1.0, predicate="touches")
    with pytest.raises(ValueError, match="predicate"):
        c2.query(circles, circles, max_distance=1.0, predicate="bogus")
    with pytest.raises(ValueError, match="grown by max_distance"):
        c2.query_pairs(circles, max_distance=3.0, periodic=(10.0, 10.0))
    assert c2.query_pairs(circles, max_distance=1.0).tolist() == [[0], [1]]
    assert c2.query_pairs(circles, max_distance=np.float32(0.5)).shape == (2, 0)


def random_ellipse_pairs(seed, n, side, smallest):
    """Two batches of ``n`` random ellipses in a square of ``side``, and their distances."""
    rng = np.random.default_rng(seed)
    a, b = (c2.Ellipse(rng.uniform(0, side, (n, 2)), rng.uniform(smallest, 1.5, (n, 2)), rng.uniform(0, np.pi, n))
            for _ in range(2))
    return a, b, c2.distance(a, b)


@pytest.mark.nojit
def test_circle_filter_with_a_gap_is_certain():
    from collide2d._kernels.broadphase import sweep

    n = 400
    a, b, dist = random_ellipse_pairs(9, n, 6.0, 0.2)
    index = np.arange(n)
    status = np.empty(n, dtype=np.int8)
    d = 0.75
    sweep.ellipse_pair_filter(a._flat_params(), index, b._flat_params(), index, d, status)
    assert np.all(dist[status == 0] > d) and np.all(dist[status == 1] < d)
    assert 50 < np.count_nonzero(status == 0) and 50 < np.count_nonzero(status == 1) and np.any(status == 2)
    # exactly at the gap: circles whose circumscribed circles are d apart stay undecided
    c = c2.Circle([(0.0, 0.0), (2.0 + d, 0.0)], 1.0)
    sweep.ellipse_pair_filter(c._flat_params(), np.array([0]), c._flat_params(), np.array([1]), d, status[:1])
    assert status[0] == 2


@pytest.mark.nojit
def test_centre_line_filter_with_a_gap_is_certain():
    from collide2d._kernels.broadphase import grid

    n = 600
    a, b, dist = random_ellipse_pairs(10, n, 5.0, 0.1)
    index = np.arange(n)
    for gap in (0.05, 0.5):
        status = np.full(n, 2, dtype=np.int8)
        status[::7] = 0  # decided before: left alone
        grid.centre_line_rows(a._flat_params(), index, b._flat_params(), index, gap, status)
        assert np.all(status[::7] == 0)
        undecided_before = np.ones(n, dtype=bool)
        undecided_before[::7] = False
        assert np.all(dist[undecided_before & (status == 1)] <= gap)
        assert np.all(dist[undecided_before & (status == 0)] > gap)
        assert np.count_nonzero(status[undecided_before] != 2) > n // 2
    # exactly at the gap along the centre line: vertex to vertex, never decided the wrong way
    pa = c2.Ellipse([(0.0, 0.0)], (1.5, 0.5))._flat_params()
    pb = c2.Ellipse([(3.0 + 0.25, 0.0), (3.0 + 0.25, 0.0)], (1.5, 0.5))._flat_params()
    status = np.full(2, 2, dtype=np.int8)
    grid.centre_line_rows(pa, np.zeros(2, dtype=np.int64), pb, np.arange(2), 0.25, status)
    assert status[0] != 0
    grid.centre_line_rows(pa, np.zeros(1, dtype=np.int64), pb, np.arange(1), math.nextafter(0.25, 0), status[1:])
    assert status[1] != 1
