"""Coercion of user input to float64 arrays, with errors that name the argument and the rule."""

from __future__ import annotations

import numbers

import numpy as np


def as_float_array(value, name, *, vector=False):
    """Return ``value`` as a float64 array, finite everywhere.

    With ``vector=True`` the last axis must have length 2 (an ``(x, y)`` pair or an array of them).
    Raises ``TypeError`` for non-numeric input and ``ValueError`` for NaN, infinity or a wrong shape.
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a number or an array of numbers, got {type(value).__name__}")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nested sequences
        raise ValueError(f"{name} must be a rectangular array of numbers: {error}") from None
    if array.dtype == object or not (
        np.issubdtype(array.dtype, np.number) or np.issubdtype(array.dtype, np.bool_)
    ):
        raise TypeError(f"{name} must contain real numbers, got dtype {array.dtype}")
    if np.issubdtype(array.dtype, np.complexfloating):
        raise TypeError(f"{name} must contain real numbers, got complex values")
    array = array.astype(np.float64)
    if vector and (array.ndim == 0 or array.shape[-1] != 2):
        raise ValueError(f"{name} must have a last axis of length 2 (x, y), got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        bad = "NaN" if np.any(np.isnan(array)) else "infinity"
        raise ValueError(f"{name} must be finite, got {bad}")
    return array


def as_positive_array(value, name, *, vector=False):
    """Like :func:`as_float_array`, and every entry must be strictly positive."""
    array = as_float_array(value, name, vector=vector)
    if np.any(array <= 0):
        raise ValueError(f"{name} must be positive (> 0), got {array[array <= 0].flat[0]!r}")
    return array


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
