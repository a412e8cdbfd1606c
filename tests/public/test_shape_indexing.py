"""Indexing a batch keeps only what the selection needs: an element of a batch of polygons holds
its own vertices, not the batch's whole vertex table (which made ``boxes[k]`` of 200,000 boxes
copy 12.8 MB); every kind and ``ShapeTable`` rows alike. Reference: the batch's own fields and the
kernels' answers on the whole batch (brute force, element by element)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import collide2d as c2

N = 2000


def batches():
    rng = np.random.default_rng(0)
    lo = rng.uniform(0, 100, (N, 2))
    square = np.stack([lo, lo + [1, 0], lo + [1, 1], lo + [0, 1]], axis=1)
    square[::2, 1] = (square[::2, 0] + square[::2, 2]) / 2 * [1, 0] + square[::2, 0] * [0, 1]  # mixed counts
    return {
        "Box": c2.Box(lo, lo + 1),
        "RotatedBox": c2.RotatedBox(lo, np.ones((N, 2)), rng.uniform(0, 3, N)),
        "Polygon": c2.Polygon(square),
        "Circle": c2.Circle(lo, 1.0),
        "Ellipse": c2.Ellipse(lo, (2, 1), 0.3),
        "Point": c2.Point(lo),
        "Segment": c2.Segment(lo, lo + 1),
        "Line": c2.Line(lo, lo + 1),
    }


def footprint(shape):
    return sum(a.nbytes for a in shape._fields.values()) + shape._params.nbytes + shape._verts.nbytes


def own_vertices(shape, k):
    """The vertices of polygon row ``k`` of the flat batch, read through its (offset, count)."""
    off, count = shape._flat_params()[k].astype(int)
    return shape._verts[off : off + count]


@pytest.mark.parametrize("kind", ["Box", "RotatedBox", "Polygon", "Circle", "Ellipse", "Point", "Segment", "Line"])
def test_an_element_holds_its_own_row_only(kind):
    batch = batches()[kind]
    table = c2.ShapeTable(batch)
    for k in (0, 7, N - 1, -1):
        element, row = batch[k], table[k]
        for shape in (element, row):
            assert footprint(shape) <= 200, footprint(shape)  # was N * 64 bytes for the polygon kinds
            assert not np.shares_memory(shape._verts, batch._verts) or batch._verts.size == 0
            assert len(pickle.dumps(shape)) < 2000
            if batch._kind == "polygon":  # the same polygon, renumbered to offset 0
                np.testing.assert_array_equal(own_vertices(shape, 0), own_vertices(batch, k % N))
                assert shape._params[0] == 0.0
            for name, value in batch.fields.items():
                np.testing.assert_array_equal(shape.fields[name], value[k])


def test_slices_and_fancy_indices_renumber_the_selected_polygons():
    batch = batches()["Polygon"]
    grid = c2.Box(np.zeros((40, 50, 2)), np.ones((40, 50, 2)))
    for index in (slice(3, 9), slice(None, None, -7), [5, 5, 0], np.array([True] * 3 + [False] * (N - 3)), slice(0, 0)):
        part = batch[index]
        picked = np.arange(N)[index]
        assert part._verts.shape[0] == sum(own_vertices(batch, k).shape[0] for k in picked)
        for j, k in enumerate(picked):
            np.testing.assert_array_equal(own_vertices(part, j), own_vertices(batch, k))
    column = grid[:, None]
    assert column.shape == grid.shape[:1] + (1,) + grid.shape[1:]
    assert column._verts.shape == grid._verts.shape
    # the answers do not depend on where the vertices sit
    probe = c2.Circle((50.0, 50.0), 30.0)
    every = c2.contact(batch, probe)
    sample = batch[::97]
    part = c2.contact(sample, probe)
    np.testing.assert_array_equal(part.separation, every.separation[::97])
    np.testing.assert_array_equal(part.point_a, every.point_a[::97])
    for k in (0, 1, 20):
        single = c2.contact(probe, batch[k * 97])
        np.testing.assert_array_equal(single.point_b, every.point_a[k * 97])
    np.testing.assert_array_equal(c2.area(sample), c2.area(batch)[::97])


def test_fields_cannot_be_made_writeable():
    """``shape.fields[name].flags.writeable = True`` succeeded on every single shape and on the
    fields that own their data (a batch of points: the kernels' own parameter table), so that
    ``fields["xy"][0] = ...`` (or ``points.xy[0] = ...``) moved the points behind the kernels' back. Reference: the answers
    before the attempt."""
    every = batches()
    singles = [batch[3] for batch in every.values()]
    singles += [c2.Point((1, 2)), c2.Circle((0, 0), 1), c2.Ellipse((0, 0), (2, 1), 0.3), c2.Box((0, 0), (1, 1)),
                c2.RotatedBox((0, 0), (1, 2), 0.4), c2.Polygon([(0, 0), (1, 0), (0, 1)]), c2.Segment((0, 0), (1, 1)),
                c2.Line((0, 0), (1, 1))]
    probe = c2.Point((50.0, 50.0))
    for shape in [*every.values(), *singles]:
        before = c2.distance(shape, probe)
        assert type(shape)(**shape.fields).shape == shape.shape  # the round trip the mapping is for
        for name, field in shape.fields.items():
            attribute = getattr(shape, name)
            for value in (field, attribute) if isinstance(attribute, np.ndarray) else (field,):
                with pytest.raises(ValueError):
                    value.flags.writeable = True
                with pytest.raises(ValueError):
                    value[...] = 0.0
        with pytest.raises(TypeError):
            shape.fields["xy"] = np.zeros(2)  # type: ignore[index]
        np.testing.assert_array_equal(c2.distance(shape, probe), before)
