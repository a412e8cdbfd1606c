"""Batch loops of the rigid motions: row ``k`` of the output is row ``index[k]`` of the input
turned by ``turn[k] = (cos, sin)`` about ``origin[k]`` and shifted by ``shift[k]``
(see :mod:`collide2d._kernels.motion.rigid`). One loop per kernel kind; every iteration writes
its own row."""

from numba import prange

from collide2d._jit import loop

from .rigid import move_xy, turn_vector


@loop(rows=("index", "origin", "turn", "shift", "out"))
def move_ellipse_loop(params, index, origin, turn, shift, out):
    for k in prange(index.shape[0]):
        p = params[index[k]]
        c, s = turn[k, 0], turn[k, 1]
        out[k, 0], out[k, 1] = move_xy(p[0], p[1], origin[k, 0], origin[k, 1], c, s, shift[k, 0], shift[k, 1])
        out[k, 2] = p[2]
        out[k, 3] = p[3]
        out[k, 4], out[k, 5] = turn_vector(p[4], p[5], c, s)


@loop(rows=("index", "origin", "turn", "shift", "out"))
def move_segment_loop(params, index, origin, turn, shift, out):
    for k in prange(index.shape[0]):
        p = params[index[k]]
        c, s = turn[k, 0], turn[k, 1]
        ox, oy, dx, dy = origin[k, 0], origin[k, 1], shift[k, 0], shift[k, 1]
        out[k, 0], out[k, 1] = move_xy(p[0], p[1], ox, oy, c, s, dx, dy)
        out[k, 2], out[k, 3] = move_xy(p[2], p[3], ox, oy, c, s, dx, dy)


@loop(rows=("index", "origin", "turn", "shift", "out"))
def move_line_loop(params, index, origin, turn, shift, out):
    for k in prange(index.shape[0]):
        p = params[index[k]]
        c, s = turn[k, 0], turn[k, 1]
        out[k, 0], out[k, 1] = move_xy(p[0], p[1], origin[k, 0], origin[k, 1], c, s, shift[k, 0], shift[k, 1])
        out[k, 2], out[k, 3] = turn_vector(p[2], p[3], c, s)


@loop(rows=("index", "origin", "turn", "shift", "out"))
def move_point_loop(params, index, origin, turn, shift, out):
    for k in prange(index.shape[0]):
        p = params[index[k]]
        out[k, 0], out[k, 1] = move_xy(
            p[0], p[1], origin[k, 0], origin[k, 1], turn[k, 0], turn[k, 1], shift[k, 0], shift[k, 1]
        )


@loop(rows=("index", "origin", "turn", "shift", "offsets"))
def move_polygon_loop(params, verts, index, origin, turn, shift, offsets, out):
    """Polygon ``index[k]`` moved into ``out[offsets[k] : offsets[k] + count]``."""
    for k in prange(index.shape[0]):
        p = params[index[k]]
        first = int(p[0])
        c, s = turn[k, 0], turn[k, 1]
        ox, oy, dx, dy = origin[k, 0], origin[k, 1], shift[k, 0], shift[k, 1]
        for j in range(int(p[1])):
            v = verts[first + j]
            out[offsets[k] + j, 0], out[offsets[k] + j, 1] = move_xy(v[0], v[1], ox, oy, c, s, dx, dy)
