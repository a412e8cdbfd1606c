"""Old import path of the glue, kept for the tests that import it (to be removed once they import the new path).

The glue is :mod:`collide2d._glue`: the pair table (:mod:`collide2d._glue.registry`) and the
runner (:mod:`collide2d._glue.run`). Library modules import those, not this.
"""

from __future__ import annotations

from collide2d._glue import registry
from collide2d._glue.derived import covers_flags, iou_values, relate_code_xy, shape_areas
from collide2d._glue.registry import INTERSECTS, KIND_ORDER
from collide2d._glue.points import intersection_point_values, points_capacity
from collide2d._glue.run import (
    _MIRROR_CODE,
    MIRROR_RELATION,
    REGION_KINDS,
    broadcast_indices,
    check_shape,
    contact_values,
    intersects_flags,
    overlap_area_values,
    plain_or_refuse,
    relate_codes,
    relate_rows,
    separation_values,
)
from collide2d._kernels import codes
from collide2d._tolerances import EPS

__all__ = [
    "EPS", "KIND_ORDER", "MIRROR_RELATION", "REGION_KINDS", "_MIRROR_CODE", "broadcast_indices", "check_shape",
    "codes", "contact_values", "covers_flags", "intersection_point_values", "intersects_flags", "intersects_kernel",
    "iou_values", "overlap_area_values", "pair_kernel", "plain_or_refuse", "points_capacity", "relate_code_xy", "relate_codes",
    "relate_pairs", "separation_values", "shape_areas",
]


def pair_kernel(operation, kind_a, kind_b):
    """``(name, kernel, swapped)`` of the table's entry (see :func:`registry.entry`)."""
    entry = registry.entry(operation, kind_a, kind_b)
    return entry.name, entry.kernel, entry.swapped


def intersects_kernel(kind_a, kind_b):
    """``(name, kernel, swapped)`` of a dedicated ``intersects`` kernel, or ``None``."""
    entry = registry.entry(INTERSECTS, kind_a, kind_b)
    return None if entry is None else (entry.name, entry.kernel, entry.swapped)


relate_pairs = relate_rows
