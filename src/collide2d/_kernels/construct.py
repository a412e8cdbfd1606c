"""Construction loops: the stored direction of many angles at once, and the range rule of many
ellipse rows in one pass.

The kernel is :func:`angles.direction_reduced`, compiled here as it is: :mod:`collide2d._angles`
runs the same function in Python for single shapes, so a shape stores the same bits whichever path
built it. Angles beyond ``REDUCE_LIMIT`` come back as NaN and are reduced exactly in Python by the
caller.
"""

import math

from numba import prange

from collide2d._jit import kernel, loop

from .angles import direction_reduced

angle_direction = kernel(direction_reduced)


@kernel
def ellipse_rows_in_range(rows, coordinate_max, size_min, aspect_max):
    """True when every ellipse row ``cx, cy, a, b, wx, wy`` has its centre within
    ``+-coordinate_max``, its radii in ``[size_min, coordinate_max]`` and their ratio at most
    ``aspect_max``: the fast accept of the range rule for batches (one pass over contiguous rows;
    NumPy reductions over the strided columns cost several times more)."""
    for i in range(rows.shape[0]):
        cx = rows[i, 0]
        cy = rows[i, 1]
        a = rows[i, 2]
        b = rows[i, 3]
        if not (-coordinate_max <= cx <= coordinate_max and -coordinate_max <= cy <= coordinate_max):
            return False
        if not (size_min <= a <= coordinate_max and size_min <= b <= coordinate_max):
            return False
        if not (a <= aspect_max * b and b <= aspect_max * a):
            return False
    return True


@loop(rows=("theta", "out"))
def direction_loop(theta, out):
    # returns the number of angles left as NaN (beyond REDUCE_LIMIT)
    large = 0
    for i in prange(theta.shape[0]):
        out[i, 0], out[i, 1] = angle_direction(theta[i])
        if out[i, 0] != out[i, 0]:
            large += 1
    return large


@loop(rows=("theta", "rows"))
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


@kernel
def box_corners(cx, cy, hx, hy, wx, wy):
    """The corners ``c + sx hx u + sy hy u^`` for ``(sx, sy) = (-1, -1), (1, -1), (1, 1), (-1, 1)``
    (counter-clockwise), ``u = w / sqrt(wx² + wy²)``, as ``(x0, y0, ..., x3, y3)``: the very
    operations of the single-shape path in collide2d.shapes (``sx = +-1`` makes
    ``sx hx ux = +-(hx ux)`` exactly; the sum of squares is the same for ``w`` turned by a quarter)."""
    norm = math.sqrt(wx * wx + wy * wy)
    ux, uy = wx / norm, wy / norm
    p, q, r, t = hx * ux, hy * uy, hx * uy, hy * ux
    return cx + (-p + q), cy + (-r - t), cx + (p + q), cy + (r - t), cx + (p - q), cy + (r + t), cx + (-p - q), cy + (-r + t)


@kernel
def left_turn_certain(ax, ay, bx, by, cx, cy):
    """True when the float filter proves the turn ``a -> b -> c`` left (Shewchuk's bound)."""
    left = (bx - ax) * (cy - ay)
    right = (by - ay) * (cx - ax)
    return left - right > (abs(left) + abs(right)) * _TURN_BOUND


@kernel
def left_turns_certain(x0, y0, x1, y1, x2, y2, x3, y3):
    """1 when the float filter proves the four turns of the quadrilateral left, else 0."""
    if (
        left_turn_certain(x3, y3, x0, y0, x1, y1)
        and left_turn_certain(x0, y0, x1, y1, x2, y2)
        and left_turn_certain(x1, y1, x2, y2, x3, y3)
        and left_turn_certain(x2, y2, x3, y3, x0, y0)
    ):
        return 1
    return 0


@loop(rows=("rows", "corners", "certain"))
def rotated_box_loop(rows, corners, certain):
    # rows: cx, cy, hx, hy, wx, wy; corners (n, 4, 2); certain[i] = 1 when the float filter proves
    # all four turns left, 0 leaves the exact decision to the caller
    for i in prange(rows.shape[0]):
        k = box_corners(rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], rows[i, 5])
        for j in range(4):
            corners[i, j, 0], corners[i, j, 1] = k[2 * j], k[2 * j + 1]
        certain[i] = left_turns_certain(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7])


@loop(rows=("theta", "rows", "corners", "certain"))
def rotated_box_angle_loop(theta, rows, corners, certain):
    # as rotated_box_loop, the direction first written into rows[:, 4:6] from the angle; returns
    # the number of angles beyond REDUCE_LIMIT, whose rows are left NaN for the caller
    large = 0
    for i in prange(rows.shape[0]):
        rows[i, 4], rows[i, 5] = angle_direction(theta[i])
        if rows[i, 4] != rows[i, 4]:
            large += 1
            certain[i] = 0
            continue
        k = box_corners(rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], rows[i, 5])
        for j in range(4):
            corners[i, j, 0], corners[i, j, 1] = k[2 * j], k[2 * j + 1]
        certain[i] = left_turns_certain(k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7])
    return large


@loop(rows=("w", "out"))
def atan2_loop(w, out):
    # the angle reported for a direction: math.atan2, as for single shapes (NumPy's arctan2 may
    # differ from the C library's in the last bit)
    for i in prange(w.shape[0]):
        out[i] = math.atan2(w[i, 1], w[i, 0])
