"""The order in which two rounded rows are computed, so that a pair gives the same bits in both
orders.

The glue runs two rounded shapes in the order of their keys: the core's vertex count, the radius,
then the first two core vertices ``(x0, y0, x1, y1)`` (a point core's vertex twice), compared
column by column (:func:`collide2d._glue.rounded.second_first` over a batch, ``shape_key`` for
a single shape). The overlay's batch loops read the same keys here, row by row, and swap the two
rows themselves, so that a batch runs in one pass of one output array.

A rounded row is ``offset, count, r, x0, y0, x1, y1``; a core of three or more vertices lives in
the vertex table ``verts[offset : offset + count]`` (:mod:`collide2d.shapes`).
"""

from collide2d._jit import kernel


@kernel
def _key(row, verts, column):
    """Column ``column`` (0..5) of the order key of a rounded row."""
    if column == 0:
        return row[1]
    if column == 1:
        return row[2]
    count = int(row[1])
    k = column - 2  # x0, y0, x1, y1
    if count >= 3:
        offset = int(row[0])
        return verts[offset + k // 2, k % 2]
    if count == 1 and k >= 2:  # a point core: its vertex twice
        k -= 2
    return row[3 + k]


@kernel
def second_first(row_a, verts_a, row_b, verts_b):
    """Whether the pair of rounded rows ``(a, b)`` is computed as ``(b, a)``: ``b`` has the smaller
    key at the first column where the keys differ (equal keys: ``(a, b)``)."""
    for column in range(6):
        ka = _key(row_a, verts_a, column)
        kb = _key(row_b, verts_b, column)
        if kb < ka:
            return True
        if kb != ka:
            return False
    return False
