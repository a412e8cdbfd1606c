"""Bounding boxes of a whole table in one compiled pass (the broad phase reads them first)."""

from numba import prange

from collide2d._jit import kernel, loop


@kernel
def widen(x0, y0, x1, y1, x, y):
    """The box ``x0, y0, x1, y1`` grown to hold the point ``(x, y)``."""
    return min(x0, x), min(y0, y), max(x1, x), max(y1, y)


@loop(rows=("params", "out"))
def polygon_bounds(params, verts, out):
    """``out[r] = (xmin, ymin, xmax, ymax)`` of polygon row ``r`` (``offset, count`` into ``verts``):
    the extremes of its stored vertices, exact (``Polygon.bounds`` and the broad phase read them)."""
    for r in prange(params.shape[0]):
        first = int(params[r, 0])
        x0 = x1 = verts[first, 0]
        y0 = y1 = verts[first, 1]
        for v in range(first + 1, first + int(params[r, 1])):
            x0, y0, x1, y1 = widen(x0, y0, x1, y1, verts[v, 0], verts[v, 1])
        out[r, 0] = x0
        out[r, 1] = y0
        out[r, 2] = x1
        out[r, 3] = y1

