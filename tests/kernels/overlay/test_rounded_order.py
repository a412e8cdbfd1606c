"""The order in which the overlay's batch loops compute two rounded rows.

Two rounded shapes are computed in the order of their keys (vertex count, radius, first two core
vertices), so that a pair gives the same bits in both argument orders. The glue decides it for a
batch in NumPy (``second_first``) and for one pair in Python (``swapped_by_key``); the batch loops
of ``intersection_points`` and ``overlap_area`` decide it row by row in the kernel
(``order_rounded.second_first``). The three must agree on every row, ties included; and a batch
must give, row by row, the bits of the single calls in both orders.
"""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2
from collide2d._glue import rounded
from collide2d._kernels.overlay import order_rounded


def _shapes(rng, n):
    """Rounded shapes with many ties in the leading key columns: counts 1, 2, 4 (points, segments,
    boxes), radii from a short list, core vertices on a coarse grid."""
    shapes = []
    for _ in range(n):
        kind = rng.integers(3)
        r = float(rng.choice([0.25, 0.5]))
        x, y = (float(v) for v in rng.integers(-2, 3, 2))
        if kind == 0:
            shapes.append(c2.Capsule((x, y), (x, y), r))  # a point core (a disc)
        elif kind == 1:
            shapes.append(c2.Capsule((x, y), (x + float(rng.integers(0, 2)), y + 1.0), r))
        else:
            shapes.append(c2.Box((x, y), (x + 1.0, y + float(rng.integers(1, 3))), radius=r))
    return shapes


def test_kernel_glue_and_single_orders_agree():
    rng = np.random.default_rng(5)
    a, b = _shapes(rng, 300), _shapes(rng, 300)
    count = 0
    for sa, sb in zip(a, b):
        if sa._kind != "rounded" or sb._kind != "rounded":
            continue
        count += 1
        kernel = order_rounded.second_first(sa._params, sa._verts, sb._params, sb._verts)
        single = rounded.swapped_by_key("rounded", sa._params, sa._verts, "rounded", sb._params, sb._verts)
        assert kernel == single == (rounded.shape_key(sb) < rounded.shape_key(sa))
        batch = rounded.second_first(sa._params[None], sa._verts, np.zeros(1, np.int64), sb._params[None], sb._verts,
                                     np.zeros(1, np.int64))
        assert bool(batch[0]) == kernel
    assert count == 300
    # identical shapes: no swap either way
    s = a[0]
    assert not order_rounded.second_first(s._params, s._verts, s._params, s._verts)


@pytest.mark.parametrize("operation", ["intersection_points", "overlap_area"])
def test_batch_rows_equal_single_calls_both_orders(operation):
    rng = np.random.default_rng(11)
    n = 60
    lo = rng.integers(-3, 3, (n, 2)).astype(float)
    size = rng.integers(1, 4, (n, 2)).astype(float)
    shift = rng.uniform(-1.5, 1.5, (n, 2))
    a = c2.Box(lo, lo + size, radius=0.25)
    b = c2.Capsule(lo + shift, lo + shift + size[:, ::-1], rng.choice([0.25, 0.5], n))
    op = getattr(c2, operation)
    for first, second in ((a, b), (b, a)):
        got = op(first, second)
        for k in range(n):
            want = op(first[k], second[k])
            other = op(second[k], first[k])
            if operation == "overlap_area":
                assert got[k] == want == other
            else:
                points, count = got
                assert count[k] == len(want) == len(other)
                assert np.array_equal(points[k, : count[k]], want)
                assert sorted(map(tuple, want.tolist())) == sorted(map(tuple, other.tolist()))
