"""measure_pairs gives, for every pair query_pairs found, what the pairwise functions give."""

import numpy as np
import pytest

import collide2d as c2


def _mixed_scene(rng):
    return [
        c2.Ellipse(rng.uniform(0, 6, (12, 2)), rng.uniform(0.3, 1.0, (12, 2)), rng.uniform(0, np.pi, 12)),
        c2.Circle(rng.uniform(0, 6, (6, 2)), rng.uniform(0.2, 0.8, 6)),
        c2.Box.from_center(rng.uniform(0, 6, (4, 2)), rng.uniform(0.2, 0.8, (4, 2))),
        c2.Segment(rng.uniform(0, 6, (4, 2)), rng.uniform(0, 6, (4, 2))),
        c2.Point(rng.uniform(0, 6, (5, 2))),
    ]


def _flat(scene):
    return [shape for batch in scene for shape in batch]


def test_measure_pairs_matches_pairwise_functions():
    rng = np.random.default_rng(5150)
    scene = _mixed_scene(rng)
    singles = _flat(scene)
    pairs = c2.query_pairs(scene)
    assert pairs.shape[1] > 10
    m = c2.measure_pairs(scene, pairs)
    for k, (i, j) in enumerate(pairs.T):
        a, b = singles[i], singles[j]
        contact = c2.contact(a, b)
        assert m.relation[k] == c2.relate(a, b)
        assert m.separation[k] == contact.separation
        np.testing.assert_array_equal(m.normal[k], contact.normal)
        np.testing.assert_array_equal(m.point_a[k], contact.point_a)
        assert m.overlap_area[k] == pytest.approx(c2.overlap_area(a, b), rel=1e-12, abs=1e-15)
        region = a._kind in ("ellipse", "polygon") and b._kind in ("ellipse", "polygon")
        assert np.isnan(m.iou[k]) != region


def test_measure_pairs_periodic_shift_moves_b():
    # two circles touching across the left/right edge of a 10 x 10 box: centres 0.5 and 9.5, r = 0.5
    circles = c2.Circle([(0.5, 5.0), (9.5, 5.0)], 0.5)
    pairs, shifts = c2.query_pairs(circles, periodic=(10.0, 10.0), return_shifts=True)
    assert pairs.tolist() == [[0], [1]]
    m = c2.measure_pairs(circles, pairs, shifts=shifts)
    assert m.relation.tolist() == [int(c2.Relation.TOUCHING)]
    assert m.separation.tolist() == [0.0]
    assert m.overlap_area.tolist() == [0.0]


def test_measure_pairs_rejects_bad_arrays():
    circles = c2.Circle([(0, 0), (1, 0)], 1)
    with pytest.raises(ValueError, match="pairs"):
        c2.measure_pairs(circles, np.zeros((3, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="shifts"):
        c2.measure_pairs(circles, np.array([[0], [1]]), shifts=np.zeros((2, 2)))


def test_translate_moves_stored_rows_like_the_periodic_narrow_phase():
    # a rotated box rebuilt from its moved centre rounds its corners differently (183 of 200 boxes
    # below differ in the last bit); scenes.translate must move the stored corners instead, which
    # is what the periodic narrow phase of query_pairs tests (_pairs.shifted_rows)
    from collide2d import _pairs, scenes

    rng = np.random.default_rng(2718)
    boxes = c2.RotatedBox(rng.uniform(0, 10, (200, 2)), rng.uniform(0.1, 1.0, (200, 2)), rng.uniform(0, 3, 200))
    shift = rng.choice([-10.0, 0.0, 10.0], (200, 2))
    moved = scenes.translate(boxes, shift)
    np.testing.assert_array_equal(moved.corners, boxes.corners + shift[:, None])
    rows, verts = _pairs.shifted_rows("polygon", boxes._flat_params(), boxes._verts, np.arange(200), shift)
    np.testing.assert_array_equal(verts, moved._verts)
    np.testing.assert_array_equal(rows, moved._params)
    single = scenes.translate(boxes[3], shift[:4])  # one shape against several offsets
    np.testing.assert_array_equal(single.corners, boxes[3].corners + shift[:4, None])


def test_measure_pairs_periodic_rotated_boxes_agree_with_the_query():
    rng = np.random.default_rng(31)
    boxes = c2.RotatedBox(rng.uniform(0, 10, (60, 2)), rng.uniform(0.2, 1.2, (60, 2)), rng.uniform(0, 3, 60))
    pairs, shifts = c2.query_pairs(boxes, periodic=(10.0, 10.0), return_shifts=True)
    assert np.any(shifts != 0)
    m = c2.measure_pairs(boxes, pairs, shifts=shifts)
    assert np.all(m.relation != int(c2.Relation.DISJOINT))  # every pair found intersects, as measured
    candidates, cshifts = c2.query_pairs(boxes, periodic=(10.0, 10.0), return_shifts=True, predicate=None)
    found = set(map(tuple, pairs.T.tolist()))
    rest = np.array([k for k, p in enumerate(candidates.T.tolist()) if tuple(p) not in found], dtype=np.int64)
    m_rest = c2.measure_pairs(boxes, candidates[:, rest], shifts=cshifts[rest])
    assert np.all(m_rest.relation == int(c2.Relation.DISJOINT))
