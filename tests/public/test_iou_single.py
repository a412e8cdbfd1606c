"""``iou`` of single shapes in Python floats: the same bits as a batch row.

A single pair's ``iou`` adds the two shapes' areas in Python floats (``_geometry.single_area``:
a rounded core's measures from the compiled pass for one row, Steiner's formula in floats)
instead of the vectorised ``plain_areas`` (about ten microseconds for one row). Both must give the
same bits: the areas row by row over random shapes of every kind with an area (rounded cores up to
11 vertices, sizes 1e-140..1e140), and ``iou`` of single pairs against the rows of a batch of the
same pairs, both orders (nested, disjoint, touching, overlapping and radius-0 rounded pairs).
"""

from __future__ import annotations

import math

import numpy as np

import collide2d as c2
from collide2d import _geometry
from collide2d._glue.derived import unit_ratio


def _shape(rng, k, scale):
    lo = rng.normal(size=2) * scale
    hi = lo + rng.uniform(0.1, 3.0, 2) * scale
    if k == 0:
        return c2.Ellipse(rng.normal(size=2) * scale, rng.uniform(0.1, 3.0, 2) * scale, rng.uniform(-3, 3))
    if k == 1:
        return c2.Box(lo, hi)
    if k == 2:
        return c2.Capsule(rng.normal(size=2) * scale, rng.normal(size=2) * scale, rng.uniform(0.1, 2.0) * scale)
    if k == 3:
        return c2.Box(lo, hi, radius=rng.uniform(0.1, 2.0) * scale)
    n = int(rng.integers(3, 12))
    t = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
    ring = np.c_[np.cos(t), np.sin(t)] * scale * rng.uniform(0.5, 2.0) + rng.normal(size=2) * scale
    if k == 4:
        return c2.Polygon(ring, radius=rng.uniform(0.01, 1.0) * scale)
    if k == 5:
        return c2.Polygon(ring)
    if k == 6:
        return c2.Capsule(lo, lo, scale)  # a point core: a disc
    return c2.Capsule(lo, hi, 0.0 * scale)  # radius 0: its segment


def test_single_area_equals_plain_areas_bit_for_bit():
    rng = np.random.default_rng(3)
    for k in range(6000):
        kind = int(rng.integers(8)) if k < 2000 else int(rng.choice([3, 4]))  # then rounded polygons
        s = _shape(rng, kind, 10.0 ** rng.uniform(-140, 140))
        single = _geometry.single_area(s._kind, s._params, s._verts)
        batch = float(_geometry.plain_areas(s._kind, s._params[None], s._verts)[0])
        assert type(single) is float
        assert single == batch, (s, single, batch)


def test_single_iou_equals_batch_rows_both_orders():
    rng = np.random.default_rng(4)
    for k_a in range(8):
        for k_b in range(8):
            pairs = []
            for j in range(6):
                scale = 10.0 ** rng.choice([-140.0, 0.0, 140.0])
                a = _shape(rng, k_a, scale)
                b = a if j == 0 else _shape(rng, k_b, scale)  # j == 0: the same shape twice
                if j == 1 and k_b in (1, 5):  # a box far away (0) or a polygon around both
                    b = c2.Box(np.asarray(a.bounds[:2]) - 10 * scale, np.asarray(a.bounds[2:]) + 10 * scale)
                pairs.append((a, b))
            for first, second in ((0, 1), (1, 0)):
                singles = [c2.iou(p[first], p[second]) for p in pairs]
                assert all(type(v) is float and 0.0 <= v <= 1.0 for v in singles)
                for (a, b), value in zip(pairs, singles):
                    x, y = (a, b) if first == 0 else (b, a)
                    batch = c2.iou(_batch_of(x), _batch_of(y))
                    assert batch.shape == (2,)
                    assert math.copysign(1.0, value) == math.copysign(1.0, batch[0]) and value == batch[0] == batch[1]


def _batch_of(shape):
    """A batch of two copies of a single shape (the batch path of the glue)."""
    cls = type(shape)
    fields = {name: np.stack([np.asarray(value)] * 2) for name, value in shape.fields.items()}
    return cls(**fields)


def test_unit_ratio_is_the_numpy_expression():
    values = [0.0, -0.0, 1.0, 2.0, -1.0, math.nan, math.inf, -math.inf, 1e-300, 5e-324, 0.5, 1.0 + 2.0**-52, 1e300]
    for inter in values:
        for union in values:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                ratio = np.where(union > 0, np.asarray(inter) / np.where(union > 0, union, 1.0), 0.0)
            want = float(np.clip(ratio, 0.0, 1.0))
            assert repr(unit_ratio(inter, union)) == repr(want), (inter, union)
