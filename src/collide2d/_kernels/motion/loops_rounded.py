"""Batch loop of the rigid motions of rounded rows (capsules, rounded polygons and boxes): row
``k`` of the output is row ``index[k]`` of the input turned by ``turn[k] = (cos, sin)`` about
``origin[k]`` and shifted by ``shift[k]``, as :mod:`.loops` moves the other kinds.

A rounded row ``(offset, count, r, x0, y0, x1, y1)`` is its core (a polygon
``verts[offset : offset + count]`` when ``count >= 3``, else the segment or point of its end
columns) grown by the disc of radius ``r``. A rigid move moves the core and keeps ``r``: the
Minkowski sum of a moved set and a disc is the moved sum (a disc is invariant under turns about
its centre). Every coordinate is moved by :func:`.rigid.move_xy`, so a rounded row moves with the
same floats as the plain row of its core, and a quarter turn is exact up to one rounding.
"""

from numba import prange

from collide2d._jit import loop

from .rigid import move_xy


@loop(rows=("index", "origin", "turn", "shift", "offsets", "out"))
def move_rounded_loop(params, verts, index, origin, turn, shift, offsets, out, out_verts):
    """Rounded row ``index[k]`` moved into ``out[k]``; a polygon core's vertices into
    ``out_verts[offsets[k] : offsets[k] + count]`` (``out[k, 0] = offsets[k]``; ``offsets`` int64)."""
    for k in prange(index.shape[0]):
        p = params[index[k]]
        c, s = turn[k, 0], turn[k, 1]
        ox, oy, dx, dy = origin[k, 0], origin[k, 1], shift[k, 0], shift[k, 1]
        count = int(p[1])
        out[k, 0] = p[0]
        out[k, 1] = p[1]
        out[k, 2] = p[2]
        out[k, 3], out[k, 4] = 0.0, 0.0
        out[k, 5], out[k, 6] = 0.0, 0.0
        if count >= 3:
            first = int(p[0])
            start = offsets[k]
            out[k, 0] = start
            for j in range(count):
                v = verts[first + j]
                out_verts[start + j, 0], out_verts[start + j, 1] = move_xy(v[0], v[1], ox, oy, c, s, dx, dy)
        else:
            out[k, 3], out[k, 4] = move_xy(p[3], p[4], ox, oy, c, s, dx, dy)
            out[k, 5], out[k, 6] = move_xy(p[5], p[6], ox, oy, c, s, dx, dy)
            if count == 2 and out[k, 3] == out[k, 5] and out[k, 4] == out[k, 6]:
                # a segment core moved far beyond its length rounds to one point: that point's row,
                # as a capsule built with a == b (the relations of a count-2 row of length 0 are
                # not those of a point: a search then saw TOUCHING where the pair is apart)
                out[k, 1] = 1.0
