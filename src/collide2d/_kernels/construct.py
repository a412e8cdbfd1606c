"""Construction loops: the stored direction of many angles at once.

The kernel is :func:`collide2d._angles.direction_reduced`, compiled here as it is: Python runs the
same function for single shapes, so a shape stores the same bits whichever path built it. Angles
beyond ``REDUCE_LIMIT`` come back as NaN and are reduced exactly in Python by the caller.
"""

import math

from numba import prange

from collide2d._angles import direction_reduced
from collide2d._jit import kernel, loop

angle_direction = kernel(direction_reduced)


@loop
def direction_loop(theta, out):
    # returns the number of angles left as NaN (beyond REDUCE_LIMIT)
    large = 0
    for i in prange(theta.shape[0]):
        out[i, 0], out[i, 1] = angle_direction(theta[i])
        if out[i, 0] != out[i, 0]:
            large += 1
    return large


@loop
def ellipse_direction_loop(theta, rows):
    # rows: cx, cy, a, b filled; w written here, (1, 0) for a circle (equal radii); returns the
    # number of angles left as NaN (beyond REDUCE_LIMIT)
    large = 0
    for i in prange(theta.shape[0]):
        if rows[i, 2] == rows[i, 3]:
            rows[i, 4] = 1.0
            rows[i, 5] = 0.0
        else:
            rows[i, 4], rows[i, 5] = angle_direction(theta[i])
            if rows[i, 4] != rows[i, 4]:
                large += 1
    return large


# Shewchuk's error bound for orient2d, with room to spare (collide2d._convex uses the same).
_TURN_BOUND = 6 * 2.0**-53


@loop
def rotated_box_loop(rows, corners, certain):
    # rows: cx, cy, hx, hy, wx, wy. The corners c + sx hx u + sy hy u^ for (sx, sy) = (-1, -1),
    # (1, -1), (1, 1), (-1, 1), counter-clockwise, u = w / hypot(w), with the very operations of
    # the single-shape path in collide2d.shapes (sx = +-1 makes sx hx ux = +-(hx ux) exactly).
    # certain[i] = 1 when the float filter proves all four turns left; 0 leaves the exact
    # decision to the caller.
    for i in prange(rows.shape[0]):
        cx, cy, hx, hy, wx, wy = rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], rows[i, 5]
        norm = math.hypot(wx, wy)
        ux, uy = wx / norm, wy / norm
        p, q, r, t = hx * ux, hy * uy, hx * uy, hy * ux
        corners[i, 0, 0], corners[i, 0, 1] = cx + (-p + q), cy + (-r - t)
        corners[i, 1, 0], corners[i, 1, 1] = cx + (p + q), cy + (r - t)
        corners[i, 2, 0], corners[i, 2, 1] = cx + (p - q), cy + (r + t)
        corners[i, 3, 0], corners[i, 3, 1] = cx + (-p - q), cy + (-r + t)
        ok = 1
        for j in range(4):
            a, c = (j + 3) % 4, (j + 1) % 4
            ax, ay = corners[i, a, 0], corners[i, a, 1]
            left = (corners[i, j, 0] - ax) * (corners[i, c, 1] - ay)
            right = (corners[i, j, 1] - ay) * (corners[i, c, 0] - ax)
            if not left - right > (abs(left) + abs(right)) * _TURN_BOUND:
                ok = 0
        certain[i] = ok


@loop
def atan2_loop(w, out):
    # the angle reported for a direction: math.atan2, as for single shapes (NumPy's arctan2 may
    # differ from the C library's in the last bit)
    for i in prange(w.shape[0]):
        out[i] = math.atan2(w[i, 1], w[i, 0])
