"""What the shape constructors of :mod:`collide2d.shapes` share: fields broadcast to one batch,
kernel parameter rows filled from them (single shapes packed with struct), directions and angles
checked and scaled, the corners of boxes as polygon rows, and the bounds of ellipse and polygon rows.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from collide2d import _angles
from collide2d._validate import broadcast_batch, check_range, pair, real


def _frozen(array):
    """Mark a new array read-only and return it."""
    array.flags.writeable = False
    return array


def _broadcast_fields(vectors, scalars):
    """Broadcast vector fields (trailing 2) and scalar fields to one batch shape (views)."""
    vectors = {name: np.asarray(array, dtype=np.float64) for name, array in vectors.items()}
    scalars = {name: np.asarray(array, dtype=np.float64) for name, array in scalars.items()}
    shapes = {name: array.shape[:-1] for name, array in vectors.items()}
    shapes.update({name: array.shape for name, array in scalars.items()})
    batch = broadcast_batch(shapes)
    out = {name: np.broadcast_to(array, batch + (2,)) for name, array in vectors.items()}
    out.update({name: np.broadcast_to(array, batch) for name, array in scalars.items()})
    return batch, out


def _put(params, column, values):
    """``params[..., column] = values``: ``column`` an int, or ``(start, stop)`` for a vector field.

    An ``(x, y)`` pair is copied as one complex128 (16 bytes, bit for bit) when both sides allow
    it: NumPy's copy along a last axis of length 2 costs about three times more.
    """
    if type(column) is int:
        params[..., column] = values
        return
    start, stop = column
    if stop - start == 2 and start % 2 == 0 and params.shape[-1] % 2 == 0 and values.strides[-1] == 8:
        try:
            params.view(np.complex128)[..., start // 2] = values.view(np.complex128)[..., 0]
            return
        except ValueError:  # a layout the view does not allow: the plain copy below
            pass
    params[..., start:stop] = values


def _rows(batch, width, *columns):
    """A new read-only parameter array ``batch + (width,)`` filled from ``(column, values)`` pairs
    (see :func:`_put`)."""
    params = np.empty(batch + (width,))
    for column, values in columns:
        _put(params, column, values)
    return _frozen(params)


# Single shapes pack their Python floats with struct: np.frombuffer of the bytes is a read-only
# float64 array (aligned: bytes data sits 32 bytes into a 16-byte aligned object), made in a third
# of the time of np.array followed by clearing the writeable flag.
_PACK = {n: struct.Struct(f"{n}d").pack for n in range(2, 9)}  # n floats


_frombuffer = np.frombuffer


def _copy(array):
    """A read-only copy of a (possibly broadcast) array."""
    return _frozen(np.array(array, dtype=np.float64))


def _any_equal_rows(first, second):
    """Whether some point of ``first`` equals the one of ``second`` (both coordinates)."""
    second = np.broadcast_to(second, first.shape)  # not a reduction over the short last axis:
    return bool(np.any((first[..., 0] == second[..., 0]) & (first[..., 1] == second[..., 1])))


def _two_points(first, second, names):
    """Rows ``(x0, y0, x1, y1)`` of a segment or line and its two fields (views of the row)."""
    if type(first) is tuple and type(second) is tuple:
        params = _frombuffer(_PACK[4](*first, *second))
    else:
        batch, f = _broadcast_fields({names[0]: first, names[1]: second}, {})
        params = _rows(batch, 4, ((0, 2), f[names[0]]), ((2, 4), f[names[1]]))
    return params, {names[0]: params[..., 0:2], names[1]: params[..., 2:4]}


def _ellipse_bounds(params):
    """Tight bounds of ellipse rows ``cx, cy, a, b, wx, wy``, rounded outward."""
    cx, cy, a, b, wx, wy = np.moveaxis(params, -1, 0)
    # hypot, not sqrt of squares: squares of radii near the ends of the range under- or overflow
    # (a circle of radius 1e-160 got bounds 0.99994 of its radius)
    norm = np.hypot(wx, wy)
    hx = np.hypot(a * wx, b * wy) / norm
    hy = np.hypot(a * wy, b * wx) / norm
    # a few ulps of slack cover the rounding of the half-widths and of the sums below
    hx = hx * (1 + 8 * np.finfo(float).eps)
    hy = hy * (1 + 8 * np.finfo(float).eps)
    bounds = np.stack([cx - hx, cy - hy, cx + hx, cy + hy], axis=-1)
    return np.concatenate(
        [np.nextafter(bounds[..., :2], -np.inf), np.nextafter(bounds[..., 2:], np.inf)], axis=-1
    )


# Directions given by the caller are scaled by a power of two (exact: the same set) when their
# largest component lies outside this range, so that the kernels' squares neither overflow nor
# underflow.
_DIRECTION_RANGE = (2.0**-500, 2.0**500)


def _direction(value):
    """The ``direction`` argument: a non-zero vector, as a tuple or an array (see :func:`pair`)."""
    w = pair(value, "direction")
    if type(w) is tuple:
        if w == (0.0, 0.0):
            raise ValueError("direction must be a non-zero vector")
        size = max(abs(w[0]), abs(w[1]))
        if _DIRECTION_RANGE[0] <= size <= _DIRECTION_RANGE[1]:
            return w
        return tuple(_scale_direction(np.array(w)).tolist())
    size = np.maximum(np.abs(w[..., 0]), np.abs(w[..., 1]))  # not a reduction over the short last axis
    if size.size and size.min() == 0:
        raise ValueError("direction must be a non-zero vector")
    if size.size and (size.min() < _DIRECTION_RANGE[0] or size.max() > _DIRECTION_RANGE[1]):
        return _scale_direction(w)
    return w


def _scale_direction(w):
    size = np.max(np.abs(w), axis=-1, keepdims=True)
    outside = (size < _DIRECTION_RANGE[0]) | (size > _DIRECTION_RANGE[1])
    exponent = np.where(outside, np.frexp(size)[1], 0)
    scaled = np.ldexp(w, -exponent)
    if not np.array_equal(np.ldexp(scaled, exponent), w):
        raise ValueError("direction has components too different in size (beyond 2**1000) to be stored exactly")
    return scaled


SAME_TURN = 2.0**-30  # radians: an angle given with a direction must name its turn within this


def _orientation(angle, direction):
    """The validated orientation ``(angle, w, single)``: ``w`` is None when it is given as an
    angle; ``single`` is ``(angle, wx, wy)`` when both are Python numbers, else None. With a
    direction, ``angle`` is None unless one was given too (see :func:`_direction_angle`)."""
    if direction is None:
        angle = real(angle, "angle")
        if type(angle) is not float:
            return angle, None, None
        return angle, None, (angle, 1.0, 0.0) if angle == 0.0 else (angle, *_angles.direction_scalar(angle))
    w = _direction(direction)
    if type(angle) in (float, int, np.float64) and angle == 0:  # 0 is the default: not given
        return None, w, (math.atan2(w[1], w[0]), w[0], w[1]) if type(w) is tuple else None
    angle = real(angle, "angle")
    if type(w) is tuple and type(angle) is float:
        _same_turn(angle, math.atan2(w[1], w[0]))
        return angle, w, (angle, w[0], w[1])
    return angle, w, None


def _same_turn(angle, computed):
    """Refuse an angle given with a direction that names another turn: the pair that
    :attr:`Shape.fields` gives for a shape built from a direction (its ``atan2``) is taken back."""
    with np.errstate(invalid="ignore"):
        off = np.abs(np.remainder(np.asarray(angle, dtype=np.float64) - computed + math.pi, 2.0 * math.pi) - math.pi)
    if not np.all(off <= SAME_TURN):
        raise ValueError(
            "give the orientation as angle or as direction, not both (angle must stay 0), unless the angle is "
            "the direction's, atan2(direction[1], direction[0]), as shape.fields gives them"
        )


def _direction_angle(f, angle):
    """The angles of a batch built from the broadcast direction ``f["direction"]``: those given with
    it (``f["angle"]``, checked), else the direction's."""
    computed = _angles.angle_of(f["direction"])
    if angle is None:
        return _frozen(computed)
    _same_turn(f["angle"], computed)
    return _frozen(np.array(f["angle"], dtype=np.float64))


def _polygon_bounds(params, verts):
    """Bounds of polygon rows: the extremes of their stored vertices (one compiled pass)."""
    from collide2d._kernels.broadphase import bounds

    flat = np.ascontiguousarray(params.reshape(-1, 2))
    out = np.empty((len(flat), 4))
    bounds.polygon_bounds(flat, verts, out)
    return out.reshape(params.shape[:-1] + (4,))


def _corner_polygons(corners, batch):
    """Pack ``corners`` of shape ``batch + (4, 2)`` (counter-clockwise) as polygon rows."""
    flat = corners.reshape(-1, 4, 2)
    params = np.empty((len(flat), 2))
    params[:, 0] = np.arange(0.0, 4.0 * len(flat), 4.0)  # exact: integers below 2**53
    params[:, 1] = 4.0
    return _frozen(params.reshape(batch + (2,))), _frozen(flat.reshape(-1, 2))


_TOO_SMALL = "half_size is too small relative to center to give four distinct float64 corners"


def _too_small(center, half_size):
    """Raise for corners that collapse: the range rule's message when it is the cause."""
    check_range("rotatedbox", {"center": np.asarray(center, dtype=np.float64), "half_size": np.asarray(half_size, dtype=np.float64)})
    raise ValueError(_TOO_SMALL)
