"""The README's tour (and a few more calls) as a strictly typed user script.

`make typecheck` runs ``mypy --strict`` on this file: every ``assert_type`` states the type a
checker must infer, and the test suite runs :func:`main`, whose ``isinstance`` checks make sure
that the types a checker infers are the ones the calls return.
"""

from __future__ import annotations

import sys

import numpy as np
import numpy.typing as npt

import collide2d as c2
from collide2d.typing import Batch, Single

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # pragma: no cover - Python 3.10
    from typing_extensions import assert_type

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def tour() -> None:
    """The tour of the README, line by line."""
    a = c2.Ellipse(center=(0, 0), radii=(2, 1), angle=0.0)
    b = c2.Ellipse((3, 0), (1, 3))
    assert_type(a, c2.Ellipse[Single])
    relation = c2.relate(a, b)
    assert_type(relation, c2.Relation)
    assert relation is c2.Relation.TOUCHING
    hit = c2.intersects(a, c2.Circle((2.2, 0), 0.5))
    assert_type(hit, bool)
    assert hit is True
    inside = c2.contains(c2.Box((-3, -2), (3, 2)), a)
    assert_type(inside, bool)
    assert inside is True

    rng = np.random.default_rng(7)
    dots: c2.Circle[Batch] = c2.Circle(rng.uniform(-5, 5, size=(1000, 2)), 0.2)
    flags = c2.intersects(a, dots)
    assert_type(flags, BoolArray)
    assert isinstance(flags, np.ndarray) and flags.shape == (1000,)
    codes = c2.relate(dots[:, None], dots[None, :])
    assert isinstance(codes, np.ndarray) and codes.shape == (1000, 1000)
    points = c2.contains_xy(a, [(1, 0.5), (3, 3)])
    assert_type(points, BoolArray)
    assert isinstance(points, np.ndarray) and points.tolist() == [True, False]

    c = c2.contact(a, c2.Ellipse((2.5, 1), (1, 0.5), angle=0.4))
    assert_type(c, c2.Contact[float])
    separation: float = c.separation
    normal: FloatArray = c.normal
    assert isinstance(separation, float) and normal.shape == (2,)
    area = c2.overlap_area(a, c2.Circle((2, 0), 1))
    assert_type(area, float)
    assert isinstance(area, float) and area > 0

    cells = c2.Ellipse(
        rng.uniform(0, 100, (10_000, 2)), rng.uniform(0.5, 1.5, (10_000, 2)), rng.uniform(0, np.pi, 10_000)
    )
    pairs = c2.query_pairs(cells)
    assert_type(pairs, npt.NDArray[np.int64])
    assert pairs.shape[0] == 2
    m = c2.measure_pairs(cells, pairs)
    assert_type(m, c2.PairMeasures)
    assert m.iou.shape == (pairs.shape[1],)


def more() -> None:
    """Further calls: every single-pair result types as its Python value, batches as arrays."""
    box = c2.Box.from_center((0, 0), (1, 1))
    assert_type(box, c2.Box[Single])
    seg = c2.Segment((0, 0), (3, 0))
    point = c2.Point((0.5, 0.5))
    for result in (c2.disjoint(box, seg), c2.touches(box, seg), c2.overlaps(box, seg), c2.within(point, box),
                   c2.equals(box, box), c2.contains_xy(box, (0.5, 0.5))):
        assert_type(result, bool)
        assert isinstance(result, bool)
    gap = c2.distance(box, c2.Circle((4, 0), 1))
    assert_type(gap, float)
    assert gap == 2.0
    ratio = c2.iou(box, c2.Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]))
    assert_type(ratio, float)
    assert ratio == 0.25
    crossing = c2.intersection_points(box, seg)
    assert_type(crossing, FloatArray)
    assert crossing.shape == (1, 2)
    foot = c2.closest_point(box, (3, 0))
    assert_type(foot, FloatArray)
    assert foot.tolist() == [1.0, 0.0]

    segments: c2.Segment[Batch] = c2.Segment([(0, 0), (5, 5)], [(3, 0), (6, 6)])
    points, count = c2.intersection_points(box, segments)
    assert_type(count, npt.NDArray[np.int64])
    assert count.tolist() == [1, 0] and points.shape[:2] == (2, 8)
    gaps = c2.distance(segments, box)
    assert_type(gaps, FloatArray)
    assert gaps.shape == (2,)

    pairs, shifts = c2.query_pairs(c2.Circle([(0.5, 5), (9.5, 5)], 1), periodic=(10, 10), return_shifts=True)
    assert_type(shifts, FloatArray)
    assert pairs.tolist() == [[0], [1]] and shifts.tolist() == [[-10.0, 0.0]]
    table = c2.ShapeTable([box, seg, point])
    first = table[0]
    assert_type(first, c2.Shape[Single])
    assert c2.query(table, box, predicate="contains").tolist() == [[0], [0]]

    pw = c2.perram_wertheim(c2.Circle((0, 0), 1), c2.Circle((4, 0), 1))
    assert_type(pw, c2.PerramWertheim[float])
    assert_type(pw.scale, float)
    assert pw.scale == 2.0
    blob = c2.Ellipse.from_covariance((1, 2), [[4, 0], [0, 1]], n_sigma=2)
    assert_type(blob, c2.Ellipse[Single])
    assert blob.radii.tolist() == [4.0, 2.0]
    fallbacks: dict[str, int] = c2.exact_fallback_counts()
    assert isinstance(fallbacks, dict)


def depth(a: c2.Ellipse[Single], b: c2.Ellipse[Single]) -> float:
    """A natural script: the penetration depth of two single ellipses, typed as a float."""
    return -c2.contact(a, b).separation


def results() -> None:
    """The result types: scalar fields are floats for two single shapes, arrays for batches."""
    a, b = c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((2.5, 0), (1, 1))
    assert_type(depth(a, b), float)
    assert depth(a, b) == 0.5
    many: c2.Circle[Batch] = c2.Circle([(3, 0), (9, 0)], 1)
    contacts = c2.contact(a, many)
    assert_type(contacts, c2.Contact[FloatArray])
    assert_type(contacts.separation, FloatArray)
    assert contacts.separation.tolist() == [0.0, 6.0]
    either: c2.Contact = contacts  # a bare Contact holds either
    assert either is contacts

    impact = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((5, 0), 1), (1, 0), t_max=10)
    assert_type(impact, c2.Impact[float])
    assert_type(impact.time, float)
    assert impact.time == 3.0
    impacts = c2.time_of_impact(many, a, (-1, 0), t_max=10)
    assert_type(impacts.time, FloatArray)
    assert impacts.time.tolist() == [0.0, 6.0]

    hit = c2.raycast(c2.Circle((5, 0), 1), (0, 0), (1, 0))
    assert_type(hit, c2.RayHit[float])
    assert_type(hit.distance, float)
    assert hit.distance == 4.0
    hits = c2.raycast(many, (0, 0), (1, 0), max_distance=100)
    assert_type(hits.distance, FloatArray)
    assert hits.distance.tolist() == [2.0, 8.0]
    for value in (impact.time, hit.distance):
        assert isinstance(value, float)


def main() -> None:
    tour()
    more()
    results()


if __name__ == "__main__":
    main()
