"""Glue between the public functions and the kernels: pair lookup, broadcasting, mirroring.

For a pair of shapes the kernel is the one named for their kinds in the canonical order ellipse,
polygon, segment, line, point; when the caller's order is the other one, the arguments are swapped
before the call and the result is mirrored after it (``CONTAINS`` <-> ``WITHIN``).
"""

from __future__ import annotations

import importlib

import numpy as np

from collide2d import _exact
from collide2d._kernels import codes
from collide2d.shapes import Shape

EPS = 2.0**-53  # unit roundoff of float64: the ``eps`` that float-mode kernels receive

KIND_ORDER = ("ellipse", "polygon", "segment", "line", "point")
_MODULE_OF_KIND = {"ellipse": "ellipse", "polygon": "polygon", "segment": "linear", "line": "linear", "point": "linear"}

# MIRROR_RELATION[code] is the code of the swapped pair.
MIRROR_RELATION = np.array([0, 1, 2, 4, 3, 5, 6], dtype=np.int8)

_cache: dict = {}


def check_shape(value, name):
    """Raise ``TypeError`` unless ``value`` is a collide2d shape."""
    if not isinstance(value, Shape):
        raise TypeError(f"{name} must be a collide2d shape (Point, Circle, Ellipse, ...), got {type(value).__name__}")


def pair_kernels(operation, kind_a, kind_b):
    """Return ``(name, kernel, loop, swapped)`` for an operation on the kinds ``kind_a, kind_b``."""
    key = (operation, kind_a, kind_b)
    if key not in _cache:
        swapped = KIND_ORDER.index(kind_a) > KIND_ORDER.index(kind_b)
        first, second = (kind_b, kind_a) if swapped else (kind_a, kind_b)
        name = f"{operation}_{first}_{second}"
        module = importlib.import_module(f"collide2d._kernels.{_MODULE_OF_KIND[first]}")
        loops = importlib.import_module("collide2d._kernels.loops")
        _cache[key] = (name, getattr(module, name), getattr(loops, name + "_loop"), swapped)
    return _cache[key]


def broadcast_indices(a, b):
    """Batch shape of the pair and flat row indices into each side's parameter table."""
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"batch shapes {a.shape} of a and {b.shape} of b do not broadcast") from None
    index_a = np.broadcast_to(np.arange(a.size).reshape(a.shape), shape).ravel()
    index_b = np.broadcast_to(np.arange(b.size).reshape(b.shape), shape).ravel()
    return shape, index_a, index_b


def relate_codes(a, b):
    """Relation codes of ``a`` against ``b``: an int for single shapes, else an int8 array.

    Undecided results of the float kernels are settled by the exact fallback.
    """
    check_shape(a, "a")
    check_shape(b, "b")
    name, kernel, loop, swapped = pair_kernels("relate", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    if not first.shape and not second.shape:  # scalar fast path: the same kernel, no loop
        code = kernel(first._params, first._verts, second._params, second._verts, EPS)
        if code == codes.UNDECIDED:
            code = _exact.relate(name, first._kind, first._params, first._verts, second._kind, second._params, second._verts)
        return int(MIRROR_RELATION[code]) if swapped else int(code)
    shape, index_a, index_b = broadcast_indices(first, second)
    out = np.empty(index_a.shape[0], dtype=np.int8)
    params_a, params_b = first._flat_params(), second._flat_params()
    if out.size:
        loop(params_a, first._verts, index_a, params_b, second._verts, index_b, EPS, out)
    for k in np.flatnonzero(out == codes.UNDECIDED):
        out[k] = _exact.relate(
            name, first._kind, params_a[index_a[k]], first._verts, second._kind, params_b[index_b[k]], second._verts
        )
    if swapped:
        out = MIRROR_RELATION[out]
    return out.reshape(shape)
