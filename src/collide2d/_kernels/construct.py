"""Construction loops: the stored direction of many angles at once.

The kernel is :func:`collide2d._angles.direction_reduced`, compiled here as it is: Python runs the
same function for single shapes, so a shape stores the same bits whichever path built it. Angles
beyond ``REDUCE_LIMIT`` come back as NaN and are reduced exactly in Python by the caller.
"""

from numba import prange

from collide2d._angles import direction_reduced
from collide2d._jit import kernel, loop

angle_direction = kernel(direction_reduced)


@loop
def direction_loop(theta, out):
    for i in prange(theta.shape[0]):
        out[i, 0], out[i, 1] = angle_direction(theta[i])


@loop
def ellipse_direction_loop(theta, rows):
    # rows: cx, cy, a, b filled; w written here, (1, 0) for a circle (equal radii)
    for i in prange(theta.shape[0]):
        if rows[i, 2] == rows[i, 3]:
            rows[i, 4] = 1.0
            rows[i, 5] = 0.0
        else:
            rows[i, 4], rows[i, 5] = angle_direction(theta[i])
