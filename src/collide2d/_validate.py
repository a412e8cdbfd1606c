"""Coercion of user input to float64 arrays, with errors that name the argument and the rule."""

from __future__ import annotations

import math
import numbers

import numpy as np


def as_float_array(value, name, *, vector=False) -> np.ndarray:
    """Return ``value`` as a float64 array, finite everywhere (``value`` itself when it already is
    one: do not write into the result).

    With ``vector=True`` the last axis must have length 2 (an ``(x, y)`` pair or an array of them).
    Raises ``TypeError`` for non-numeric input (strings, booleans: ``True`` is not a length) and
    ``ValueError`` for NaN, infinity or a wrong shape.
    """
    array = _real_array(value, name)
    if vector and (array.ndim == 0 or array.shape[-1] != 2):
        raise ValueError(f"{name} must have a last axis of length 2 (x, y), got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        bad = "NaN" if np.any(np.isnan(array)) else "infinity"
        raise ValueError(f"{name} must be finite, got {bad}")
    return array


def _has_bool(value):
    """Whether a (nested) tuple or list holds a Python or NumPy boolean: NumPy would read
    ``[[True, 2.0]]`` as the floats ``[[1.0, 2.0]]``."""
    if isinstance(value, (bool, np.bool_)):
        return True
    return isinstance(value, (tuple, list)) and any(_has_bool(item) for item in value)


def _real_array(value, name):
    """``value`` as a float64 array of real numbers (no copy of float64 input: callers copy what they
    keep), or a ``TypeError`` naming ``name``: strings, None, booleans (``True`` is not a length, a
    speed or a time), times, complex and object values; a ``ValueError`` for ragged sequences."""
    if type(value) is np.ndarray and value.dtype == np.float64:  # (what the rules below return it as)
        return value
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__}")
    if _has_bool(value):
        raise TypeError(f"{name} must be a number or an array of numbers, not a boolean")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array of numbers: {error}") from None
    if array.dtype == object or not np.issubdtype(array.dtype, np.number):  # np.bool_ is not a number
        raise TypeError(f"{name} must contain real numbers, got dtype {array.dtype}")
    if array.dtype.kind in "mM":  # timedelta64 counts as an integer type in NumPy's hierarchy
        raise TypeError(f"{name} must contain real numbers, got dtype {array.dtype} (a time, not a length)")
    if np.issubdtype(array.dtype, np.complexfloating):
        raise TypeError(f"{name} must contain real numbers, got complex values")
    return array.astype(np.float64, copy=False)


def as_limit_array(value, name, *, unit="inf for no limit"):
    """A limit (``t_max``, ``max_distance``) as a float64 array: real numbers, not booleans, not NaN,
    not negative; ``inf`` allowed (``unit`` says what it means in the error)."""
    if type(value) is float and value >= 0.0:  # (a plain float that passes every rule below)
        return np.array(value)
    array = _real_array(value, name)
    if np.any(np.isnan(array)) or np.any(array < 0):
        raise ValueError(f"{name} must be >= 0 ({unit}), got NaN or a negative value")
    return array


def as_positive_array(value, name, *, vector=False):
    """Like :func:`as_float_array`, and every entry must be strictly positive."""
    array = as_float_array(value, name, vector=vector)
    if np.any(array <= 0):
        raise ValueError(f"{name} must be positive (> 0), got {array[array <= 0].flat[0]!r}")
    return array


# Fast paths for single shapes built from Python numbers. Each returns Python floats when the input
# is a plain number (or a tuple or list of two) that passes every rule, and otherwise hands the
# input to the array functions above, which apply the same rules and raise the errors. bool and
# NumPy scalars other than float64 take the array path (so they keep exactly its behaviour).
_PLAIN_TYPES = frozenset((float, int, np.float64))


def real(value, name, *, positive=False):
    """A finite real number (``float``) or a finite float64 array (see :func:`as_float_array`)."""
    if type(value) in _PLAIN_TYPES:
        try:
            x = float(value)  # an int beyond float64 raises OverflowError: array path
        except OverflowError:
            x = math.nan
        if x - x == 0.0 and (x > 0.0 or not positive):  # x - x is 0 exactly when x is finite
            return x
    return (as_positive_array if positive else as_float_array)(value, name)


def pair(value, name, *, positive=False):
    """A finite ``(x, y)`` tuple of floats, or a float64 array with a last axis of length 2."""
    if type(value) in (tuple, list) and len(value) == 2:
        x, y = value
        if type(x) in _PLAIN_TYPES and type(y) in _PLAIN_TYPES:
            try:
                x, y = float(x), float(y)
            except OverflowError:
                x = math.nan
            if x - x == 0.0 and y - y == 0.0 and (not positive or (x > 0.0 and y > 0.0)):
                return (x, y)
    return (as_positive_array if positive else as_float_array)(value, name, vector=True)


def check_option(value, name, allowed):
    """Raise ``ValueError`` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        choices = ", ".join(repr(choice) for choice in allowed)
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    return value


def is_real_scalar(value):
    """True for a Python or NumPy real number (not bool)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def broadcast_batch(name_by_shape):
    """Broadcast the batch shapes of several fields; the error names the fields that disagree."""
    try:
        return np.broadcast_shapes(*name_by_shape.values())
    except ValueError:
        parts = ", ".join(f"{name} {shape}" for name, shape in name_by_shape.items())
        raise ValueError(f"batch shapes do not broadcast: {parts}") from None


def points(value, name, *, most=32):
    """A list of finite ``(x, y)`` float tuples when ``value`` is a list or tuple of at most
    ``most`` plain pairs, else a float64 array with a last axis of length 2 (see :func:`pair`)."""
    if type(value) in (tuple, list) and len(value) <= most:
        out = []
        for point in value:
            if type(point) not in (tuple, list) or len(point) != 2:
                break
            x, y = point
            if type(x) not in _PLAIN_TYPES or type(y) not in _PLAIN_TYPES:
                break
            try:
                x, y = float(x), float(y)
            except OverflowError:
                break
            if x - x != 0.0 or y - y != 0.0:  # NaN or infinity: the array path raises
                break
            out.append((x, y))
        else:
            return out
    return as_float_array(value, name, vector=True)


# -- the supported range of magnitudes ---------------------------------------------------------
# Every coordinate lies in [-MAGNITUDE_MAX, MAGNITUDE_MAX] and every size (radius, half-size, box
# side, segment extent, polygon extent) in [SIZE_MIN, MAGNITUDE_MAX]; tiny non-zero coordinates are
# allowed (they are offsets, not sizes), and so is any non-zero line direction (it has no size: the
# glue rescales it by a power of two where its magnitude matters). Powers of two, so that the glue may scale
# a pair by a power of two exactly: any two numbers of a pair then differ by at most 2**1000 in
# magnitude (ignoring offsets below SIZE_MIN), and after scaling the larger one to about 1 no
# length of the pair falls below the normal floats (2**-1022) and no square overflows.
MAGNITUDE_MAX = 2.0**500  # about 3.27e150
SIZE_MIN = 2.0**-500  # about 3.05e-151
ASPECT_MAX = 2.0**100  # largest ratio of an ellipse's two radii (about 1.27e30)
RANGE_TEXT = "[2**-500, 2**500] (about 3.05e-151 to 3.27e150)"


def check_coordinates(array, name):
    """Raise ``ValueError`` unless every entry of ``array`` has magnitude at most ``MAGNITUDE_MAX``."""
    if array.size <= 8:  # single shapes: plain floats are several times faster than NumPy here
        if all(-MAGNITUDE_MAX <= v <= MAGNITUDE_MAX for v in array.ravel().tolist()):
            return array
    elif np.all(np.abs(array) <= MAGNITUDE_MAX):
        return array
    if array.size:
        bad = array[~(np.abs(array) <= MAGNITUDE_MAX)].flat[0]
        raise ValueError(
            f"{name} must lie within +-2**500 (about 3.27e150), the supported range of coordinates; got {float(bad)!r}"
        )
    return array


def check_sizes(sizes, name, limit=MAGNITUDE_MAX):
    """Raise ``ValueError`` unless every size lies in the supported range ``[SIZE_MIN, MAGNITUDE_MAX]``.

    Sizes are non-negative lengths computed by the caller (radii, half-sizes, box sides, the larger
    coordinate extent of a segment, a polygon's extents); a
    box side or a segment extent may reach ``limit = 2 * MAGNITUDE_MAX`` since its ends may.
    """
    sizes = np.asarray(sizes)
    if sizes.size <= 8 and all(SIZE_MIN <= v <= limit for v in sizes.ravel().tolist()):
        return sizes  # single shapes: plain floats are several times faster than NumPy here
    ok = (sizes >= SIZE_MIN) & (sizes <= limit)
    if sizes.size and not np.all(ok):
        bad = sizes[~ok].flat[0]
        raise ValueError(f"{name} must lie in the supported range of sizes {RANGE_TEXT}; got {float(bad)!r}")
    return sizes


_COORDINATE_FIELDS = ("xy", "center", "start", "end", "point", "min", "max", "vertices")


def _sizes_ok(low, high, limit=MAGNITUDE_MAX):
    return SIZE_MIN <= low and high <= limit


def _row_in_range(kind, v):
    """The range rule on one kernel row ``v`` (a list of floats) of a point, circle, ellipse,
    segment or line."""
    m = MAGNITUDE_MAX
    if not (-m <= v[0] <= m and -m <= v[1] <= m):
        return False
    if kind == "circle" or kind == "ellipse":
        a, b = v[2], v[3]
        return SIZE_MIN <= a <= m and SIZE_MIN <= b <= m and a <= ASPECT_MAX * b and b <= ASPECT_MAX * a
    if kind == "segment":
        extent = max(abs(v[2] - v[0]), abs(v[3] - v[1]))
        return -m <= v[2] <= m and -m <= v[3] <= m and SIZE_MIN <= extent <= 2.0 * m
    return True  # point, line (any non-zero direction)


_ROW_KINDS = ("point", "circle", "ellipse", "segment", "line")
_COMPILED_FROM = 64  # batches of at least this many ellipses check their rows in one compiled pass


def _certainly_in_range(kind, fields, params=None):
    """The range rule's fast accept: True when every field is certainly in range.

    Single shapes compare Python floats (a NumPy reduction on a two-element array costs more than
    the whole constructor), from the kernel row ``params`` where it holds the fields; batches take
    one ``min`` and one ``max`` per array. False sends the shape to the checks that name the rule.
    """
    m = MAGNITUDE_MAX
    if params is not None and params.ndim == 1 and kind in _ROW_KINDS:
        return _row_in_range(kind, params.tolist())
    if kind == "polygon" and fields["vertices"].ndim == 2 and len(fields["vertices"]) <= 64:
        xs, ys = zip(*fields["vertices"].tolist())  # one small polygon: plain floats
        lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
        if not (-m <= min(lo_x, lo_y) and max(hi_x, hi_y) <= m):
            return False
        return _sizes_ok(min(hi_x - lo_x, hi_y - lo_y), max(hi_x - lo_x, hi_y - lo_y), 2.0 * m)
    if params is not None and kind in ("circle", "ellipse") and params.size >= 6 * _COMPILED_FROM:
        from collide2d._kernels.construct import ellipse_rows_in_range

        rows = np.ascontiguousarray(params.reshape(-1, 6))
        return bool(ellipse_rows_in_range(rows, m, SIZE_MIN, ASPECT_MAX))
    if kind != "polygon" and all(fields[name].ndim <= 1 for name in _COORDINATE_FIELDS if name in fields):
        values = {name: fields[name].tolist() for name in fields if name != "angle"}
        for name in _COORDINATE_FIELDS:
            if name in values and not all(-m <= v <= m for v in values[name]):
                return False
        if kind == "circle":
            return _sizes_ok(values["radius"], values["radius"])
        if kind == "ellipse":
            a, b = values["radii"]
            return _sizes_ok(min(a, b), max(a, b)) and max(a, b) <= ASPECT_MAX * min(a, b)
        if kind == "rotatedbox":
            return _sizes_ok(min(values["half_size"]), max(values["half_size"]))
        if kind == "box":
            sides = [hi - lo for lo, hi in zip(values["min"], values["max"])]
            return _sizes_ok(min(sides), max(sides), 2.0 * m)
        if kind == "segment":
            extent = max(abs(e - s) for s, e in zip(values["start"], values["end"]))
            return _sizes_ok(extent, extent, 2.0 * m)
        return True  # point, line
    for name in _COORDINATE_FIELDS:
        if name in fields and fields[name].size and not (-m <= fields[name].min() and fields[name].max() <= m):
            return False
    if kind in ("circle", "ellipse", "rotatedbox"):
        sizes = fields["radius" if kind == "circle" else "radii" if kind == "ellipse" else "half_size"]
        if sizes.size == 0:
            return True
        low, high = sizes.min(), sizes.max()
        if not _sizes_ok(low, high):
            return False
        if kind == "ellipse" and high > ASPECT_MAX * low:  # the batch spans more than 2**100: per row
            a, b = sizes[..., 0], sizes[..., 1]
            return bool(np.all(a <= ASPECT_MAX * b) and np.all(b <= ASPECT_MAX * a))
        return True
    if kind == "box":
        sides = fields["max"] - fields["min"]
    elif kind == "segment":
        delta = np.abs(fields["end"] - fields["start"])
        sides = np.maximum(delta[..., 0], delta[..., 1])
    elif kind == "polygon":
        v = fields["vertices"]
        sides = np.max(v, axis=-2) - np.min(v, axis=-2)
    else:
        return True  # point, line
    return sides.size == 0 or _sizes_ok(sides.min(), sides.max(), 2.0 * m)


def check_range(kind, fields, params=None):
    """Apply the range rule to the validated, broadcast fields of one shape kind (see ``MAGNITUDE_MAX``).

    ``kind`` is the class name in lower case. Coordinates: at most ``MAGNITUDE_MAX`` in magnitude.
    Sizes per kind: radius or radii (and their ratio at most ``ASPECT_MAX``), half-size, box sides ``max - min``, a segment's larger
    coordinate extent ``max(|dx|, |dy|)``, a polygon's bounding-box width and height; each in ``[SIZE_MIN, MAGNITUDE_MAX]`` (``2 * MAGNITUDE_MAX`` for
    sides and extents, whose ends may lie at opposite limits). ``params``, the shape's kernel rows,
    gives single shapes a faster check.
    """
    if _certainly_in_range(kind, fields, params):
        return
    for name in _COORDINATE_FIELDS:
        if name in fields:
            check_coordinates(fields[name], name)
    if kind == "circle":
        check_sizes(fields["radius"], "radius")
    elif kind == "ellipse":
        radii = check_sizes(fields["radii"], "radii")
        if radii.size and not np.all(np.max(radii, axis=-1) <= ASPECT_MAX * np.min(radii, axis=-1)):
            raise ValueError(
                "radii may differ by at most a factor 2**100 (about 1.27e30), the supported range of an "
                "ellipse's aspect ratio (a thinner ellipse is a segment to float64 precision)"
            )
    elif kind == "rotatedbox":
        check_sizes(fields["half_size"], "half_size")
    elif kind == "box":
        check_sizes(fields["max"] - fields["min"], "the box's sides (max - min)", 2.0 * MAGNITUDE_MAX)
    elif kind == "segment":
        extent = np.max(np.abs(fields["end"] - fields["start"]), axis=-1)
        check_sizes(extent, "the segment's extent max(|end - start|)", 2.0 * MAGNITUDE_MAX)
    elif kind == "polygon":
        v = fields["vertices"]
        extent = np.max(v, axis=-2) - np.min(v, axis=-2)
        check_sizes(extent, "the polygon's extent (the width and height of its vertices' bounding box)", 2.0 * MAGNITUDE_MAX)
