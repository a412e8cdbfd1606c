"""What the broad phase takes in: collections of shapes as flat kernel rows, the checks of its
arguments, and the kernel modules it calls (imported with Numba on first use).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable
from typing import Any, Union

import numpy as np

from collide2d import predicates
from collide2d._glue import run
from collide2d.shapes import Box, Shape
from collide2d.table import KIND_NAMES, ShapeTable

#: What :func:`query_pairs`, :func:`query` and :func:`measure_pairs` accept as a collection.
Shapes = Union[Shape[Any], Iterable[Shape[Any]], ShapeTable]


class _LazyKernels:
    """Kernels of one module, imported (with Numba) on first use so that ``import collide2d`` stays fast."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        import importlib

        return getattr(importlib.import_module(f"collide2d._kernels.{self._module}"), name)


sweep = _LazyKernels("broadphase.sweep")
grid = _LazyKernels("broadphase.grid")
circles = _LazyKernels("broadphase.circles")
conic = _LazyKernels("relate.conic")
screen = _LazyKernels("broadphase.index")


def _truth_array(table):
    """A predicate's truth table over the relation codes as a bool array (see :mod:`predicates`)."""
    return np.asarray(getattr(table, "array", table), dtype=bool)


PREDICATES = {
    "intersects": _truth_array(predicates._INTERSECTS),
    "touches": _truth_array(predicates._TOUCHES),
    "overlaps": _truth_array(predicates._OVERLAPS),
    "contains": _truth_array(predicates._CONTAINS),
    "within": _truth_array(predicates._WITHIN),
    "equals": _truth_array(predicates._EQUALS),
}
BACKENDS = ("auto", "grid", "sweep", "brute")


# -- inputs ---------------------------------------------------------------------------------------


class _Collection:
    """Flat kernel view of a shape batch, a list of shapes or a :class:`ShapeTable`."""

    def __init__(self, shapes, name):
        if isinstance(shapes, Shape):
            self.kind, params, verts = run.flat_rows(shapes)
            self.kinds = None
            self.params = np.ascontiguousarray(params)
            self.verts = np.ascontiguousarray(verts)
            self._shape = shapes  # bounds on first use: the circle grid never reads them
            return
        if not isinstance(shapes, ShapeTable):
            if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__iter__"):
                raise TypeError(
                    f"{name} must be a shape, a batch of shapes, a list of shapes or a ShapeTable, "
                    f"got {type(shapes).__name__}"
                )
            try:
                shapes = ShapeTable(shapes)
            except TypeError as error:
                raise TypeError(f"{name}: {error}") from None
        codes = np.unique(shapes.kinds)
        self.kind = KIND_NAMES[int(codes[0])] if len(codes) == 1 else ("point" if len(codes) == 0 else None)
        self.kinds = shapes.kinds
        self.params = shapes.params
        self.verts = shapes.vertices
        self.bounds = shapes.bounds

    @functools.cached_property
    def bounds(self):
        """The boxes ``(n, 4)`` of a batch, computed on first use (a table's are set in ``__init__``)."""
        return np.asarray(self._shape._bounds(), dtype=np.float64).reshape(-1, 4)

    def __len__(self):
        return self.params.shape[0]

    def grown(self, h):
        """A copy whose bounds are grown by ``h`` on every side, rounded outward."""
        from collide2d._nearest import grow_bounds

        out = object.__new__(_Collection)
        out.__dict__.update(self.__dict__)
        out.bounds = grow_bounds(self.bounds, h)
        return out

    def kind_codes(self, index):
        if self.kinds is None:
            return np.full(index.shape[0], KIND_NAMES.index(self.kind), dtype=np.int8)
        return self.kinds[index]


def _check_predicate(predicate):
    if predicate is None:
        return None
    if predicate == "disjoint":
        raise ValueError(
            "predicate 'disjoint' is not supported: nearly every pair of many shapes is disjoint, so "
            "the answer has O(n**2) pairs; take the complement of the 'intersects' pairs instead"
        )
    if not isinstance(predicate, str) or predicate not in PREDICATES:
        allowed = ", ".join(["None"] + [repr(name) for name in PREDICATES])
        raise ValueError(f"predicate must be one of {allowed}; got {predicate!r}")
    return PREDICATES[predicate]


def _check_max_distance(max_distance, predicate):
    """``max_distance`` as a float (``None`` when not given), checked against the predicate."""
    if max_distance is None:
        return None
    if isinstance(max_distance, (bool, np.bool_)) or not isinstance(max_distance, numbers.Real):
        raise TypeError(f"max_distance must be a real number or None, got {type(max_distance).__name__}")
    d = float(max_distance)
    if not (math.isfinite(d) and d >= 0.0):
        raise ValueError(f"max_distance must be finite and non-negative, got {max_distance!r}")
    if predicate not in ("intersects", None):
        raise ValueError(
            "max_distance combines with predicate 'intersects' (the pairs at distance <= max_distance) "
            f"or None (the pairs whose bounds are within max_distance), not with {predicate!r}"
        )
    return d


def _check_periodic(periodic):
    """Return ``(origin, length)`` as float arrays of shape (2,) for a periodic box, or None."""
    if periodic is None:
        return None
    if isinstance(periodic, Box):
        if periodic.shape:
            raise ValueError("periodic must be a single Box, not a batch")
        origin = np.array(periodic.min, dtype=np.float64)
        length = np.array(periodic.max, dtype=np.float64) - origin
    else:
        try:
            length = np.array(periodic, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"periodic must be (Lx, Ly) or a Box, got {periodic!r}") from None
        if length.shape != (2,):
            raise ValueError(f"periodic must be (Lx, Ly) or a Box, got an array of shape {length.shape}")
        origin = np.zeros(2)
    if not np.all(np.isfinite(length)) or np.any(length <= 0):
        raise ValueError(f"periodic box lengths must be finite and positive, got {tuple(length.tolist())}")
    return origin, length


def _check_margin(margin):
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, numbers.Real):
        raise TypeError(f"margin must be a real number, got {type(margin).__name__}")
    margin = float(margin)
    if not (math.isfinite(margin) and margin >= 0.0):
        raise ValueError(f"margin must be finite and non-negative, got {margin!r}")
    return margin
