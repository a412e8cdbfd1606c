"""Batched ``time_of_impact`` of rounded shapes beside an ellipse of a far other size (numbers no
power of two tames, 1e149 against 1): each such row of a batch gets the answer of its single call,
bit for bit, in both orders, beside tame rows; the times are the exact first contacts of
``test_rounded_ellipse_magnitudes.IMPACTS`` (closed forms: a disc meeting the end of an axis, a
tangent line). The batches searched the pair in the frame of the huge ellipse, moved by the
relative motion: its rounding lost the approach (a miss, ``inf``) or the band gave 5e-324.
"""

import numpy as np
import pytest

import collide2d as c2
from test_rounded_ellipse_magnitudes import IMPACTS, _batch


def _same(batch, k, single):
    assert batch.time[k] == single.time
    assert np.array_equal(batch.point[k], single.point, equal_nan=True)
    assert np.array_equal(batch.normal[k], single.normal, equal_nan=True)


@pytest.mark.parametrize("case", range(len(IMPACTS)))
def test_batch_rows_are_their_single_calls(case):
    shape, ellipse, velocity, expected = IMPACTS[case]
    back = tuple(-v for v in velocity)
    still = (0.0, 0.0)
    single = c2.time_of_impact(shape, ellipse, velocity, t_max=5.0)
    mirrored = c2.time_of_impact(ellipse, shape, still, velocity, t_max=5.0)
    moving = c2.time_of_impact(ellipse, shape, back, t_max=5.0)
    for hit in (single, mirrored, moving):
        assert abs(hit.time - expected) <= 5e-12
    for a, b, va, vb, want in ((shape, ellipse, velocity, still, single), (ellipse, shape, still, velocity, mirrored),
                               (ellipse, shape, back, still, moving)):
        for batch_a, batch_b in ((_batch(a), b), (a, _batch(b)), (_batch(a), _batch(b))):
            got = c2.time_of_impact(batch_a, batch_b, va, vb, t_max=5.0)
            _same(got, 0, want)
            # the tame row beside it: its own single call
            tame = c2.time_of_impact(batch_a[1] if batch_a.shape else a, batch_b[1] if batch_b.shape else b, va, vb,
                                     t_max=5.0)
            _same(got, 1, tame)
