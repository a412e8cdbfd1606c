"""Area and perimeter of the cores of rounded rows, in one compiled pass: the terms of
:func:`collide2d._geometry.rounded_core_measures` (the shoelace about a polygon core's first
vertex, the edges' lengths; a segment core's perimeter twice its length, a point's 0), each row
summed in NumPy's order (:func:`area_rounded.numpy_order_sum`), so the same bits as ``np.sum`` of
the row's terms. ``math.hypot`` compiles to the C library's ``hypot``, as ``np.hypot`` does.

A rounded row is ``offset, count, r, x0, y0, x1, y1``; a core of three or more vertices lives in
``verts[offset : offset + count]``.
"""

import math

import numpy as np

from collide2d._jit import kernel

from .area_rounded import PAIRWISE_BLOCK, numpy_order_sum


@kernel
def core_measures_rows(rows, verts, area, perimeter):
    """``area[k]``, ``perimeter[k]`` of the core of ``rows[k]``; a polygon core of more than
    :data:`PAIRWISE_BLOCK` vertices is left as it is (``np.sum`` sums it in blocks: the caller's)."""
    cross = np.empty(PAIRWISE_BLOCK)
    edge = np.empty(PAIRWISE_BLOCK)
    for k in range(rows.shape[0]):
        count = int(rows[k, 1])
        if count < 3:
            area[k] = 0.0
            perimeter[k] = 2.0 * math.hypot(rows[k, 5] - rows[k, 3], rows[k, 6] - rows[k, 4])
            continue
        if count > PAIRWISE_BLOCK:
            continue
        offset = int(rows[k, 0])
        fx = verts[offset, 0]
        fy = verts[offset, 1]
        for i in range(count):
            j = offset + (i + 1 if i + 1 < count else 0)
            px = verts[offset + i, 0]
            py = verts[offset + i, 1]
            qx = verts[j, 0]
            qy = verts[j, 1]
            dx = px - fx
            dy = py - fy
            ex = qx - fx
            ey = qy - fy
            cross[i] = dx * ey - dy * ex
            edge[i] = math.hypot(qx - px, qy - py)
        area[k] = 0.5 * numpy_order_sum(cross, int(0), count)
        perimeter[k] = numpy_order_sum(edge, int(0), count)
