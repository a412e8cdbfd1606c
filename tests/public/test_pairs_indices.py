"""measure_pairs refuses pair indices outside the collection (negative ones do not count from the end)."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2


def _collection():
    """Five shapes numbered 0 to 4 across three batches of different kinds."""
    return [c2.Circle([(0, 0), (1.5, 0)], 1), c2.Box((0, -1), (1, 1)), c2.Ellipse([(3, 0), (9, 9)], (2, 1), 0.3)]


@pytest.mark.parametrize("bad", [-1, -5, 5, 6, 2**40])
@pytest.mark.parametrize("side", [0, 1])
def test_measure_pairs_refuses_indices_outside_the_collection(bad, side):
    pairs = np.array([[0, 1, 2], [1, 2, 3]], dtype=np.int64)
    pairs[side, 1] = bad
    with pytest.raises(ValueError, match=rf"pairs must index shapes 0 to 4; got {bad}"):
        c2.measure_pairs(_collection(), pairs)


def test_measure_pairs_accepts_the_whole_range_and_no_pairs():
    shapes = _collection()
    pairs = np.array([[0, 4], [4, 0]], dtype=np.int32)  # the first and the last shape, both orders
    got = c2.measure_pairs(shapes, pairs)
    one = c2.measure_pairs(shapes[0][0], np.array([[0], [0]]))  # a single shape: index 0 only
    assert one.relation.tolist() == [int(c2.Relation.EQUAL)]
    want = c2.distance(shapes[0][0], shapes[2][1])
    np.testing.assert_allclose(np.maximum(got.separation, 0.0), [want, want], rtol=1e-12)
    assert c2.measure_pairs(shapes, np.zeros((2, 0), dtype=np.int64)).relation.shape == (0,)
    with pytest.raises(ValueError, match="pairs must index shapes 0 to 0; got 1"):
        c2.measure_pairs(shapes[0][0], np.array([[0], [1]]))
    with pytest.raises(ValueError, match=r"pairs must index no shape \(the collection is empty\); got 0"):
        c2.measure_pairs([], np.array([[0], [0]]))
