"""Answers built on the runner's: the relation of a shape and a bare point, areas, IoU, covers.

Like :mod:`collide2d._glue.run`, these read a shape's private fields (they belong to the glue).
"""

from __future__ import annotations

import threading

import numpy as np

from collide2d import _geometry
from collide2d._glue import registry, rounded, run
from collide2d._glue.registry import RELATE
from collide2d._kernels import codes
from collide2d._robust.magnitude import tame_number
from collide2d._robust import ladder
from collide2d._tolerances import EPS


_NO_VERTS = np.zeros((0, 2))  # the vertex array of a point: read-only, as the shapes' (one compiled type)
_NO_VERTS.flags.writeable = False
_scratch = threading.local()


def _point_row(x, y):
    """A read-only parameter row ``(x, y)`` of a point, reused by this thread (no allocation).

    Valid until the next call in the same thread: kernels and the exact fallback read it at once.
    """
    try:
        row, view = _scratch.point
    except AttributeError:
        row = np.empty(2)
        view = row.view()
        view.flags.writeable = False
        _scratch.point = row, view
    row[0] = x
    row[1] = y
    return view


def relate_code_xy(shape, x, y):
    """Relation code (an int) of a single ``shape`` against the point ``(x, y)`` (two floats).

    The same kernel as ``relate_codes(shape, Point((x, y)))``, without building the point.
    """
    if shape._kind == "rounded":
        from collide2d.shapes import Point

        return int(run.relate_codes(shape, Point((x, y))))
    entry = registry.entry(RELATE, shape._kind, "point")
    if run.tame_rows(shape) is not True or not (tame_number(x) and tame_number(y)):
        from collide2d.shapes import Point  # extreme magnitudes: the general path

        return int(run.relate_codes(shape, Point((x, y))))
    row = _point_row(x, y)
    code = entry.kernel(shape._params, shape._verts, row, _NO_VERTS, EPS)
    if code == codes.UNDECIDED:
        code = ladder.exact_code(entry.name, shape._kind, shape._params, shape._verts, "point", row, _NO_VERTS)
    return int(code)


def shape_areas(shape):
    """Area of every shape of a batch (0 for points, segments and lines): float64, batch shape."""
    areas = _geometry.plain_areas(shape._kind, shape._flat_params(), shape._verts)
    return areas.reshape(shape.shape)


def unit_ratio(inter, union):
    """``inter / union`` clipped to [0, 1], 0 when ``union`` is not positive: the expression of
    :func:`iou_values` on Python floats, with the same bits as its NumPy form (``np.clip`` keeps a
    NaN and a -0.0)."""
    ratio = inter / union if union > 0 else 0.0
    ratio = ratio if ratio != ratio or ratio >= 0.0 else 0.0
    return ratio if ratio != ratio or ratio <= 1.0 else 1.0


def iou_values(a, b):
    """Intersection over union ``I / (area_a + area_b - I)``, clipped to [0, 1]; 0 when the union
    has no area."""
    inter = run.overlap_area_values(a, b)
    if type(inter) is float:  # single shapes: Python floats, the same operations as below
        union = _geometry.single_area(a._kind, a._params, a._verts) + _geometry.single_area(
            b._kind, b._params, b._verts) - inter
        return unit_ratio(inter, union)
    union = shape_areas(a) + shape_areas(b) - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(union > 0, np.asarray(inter) / np.where(union > 0, union, 1.0), 0.0)
    ratio = np.clip(ratio, 0.0, 1.0)
    return float(ratio) if ratio.ndim == 0 else ratio


def covers_flags(a, b, table):
    """Whether no point of ``b`` lies outside ``a``: a bool for single shapes, else a bool array.

    ``table`` is the truth table of the codes that imply it (``CONTAINS``, ``EQUAL``). The other
    covering pairs are coded ``TOUCHING``: ``b`` lies in the boundary of ``a``, which only a point
    or a segment can (a region in ``a`` has its interior in the interior of ``a``, and only a line
    holds a line). A touching point lies in ``a``; a touching segment lies in ``a`` exactly when
    both its end points do, every shape being convex. The end points are decided by the relate
    kernels against a point, exact like the codes.
    """
    if getattr(a, "_kind", None) == "rounded" or getattr(b, "_kind", None) == "rounded":
        a, b = rounded.plain_if_zero(a), rounded.plain_if_zero(b)
        if b._kind == "rounded":
            return _covers_rounded(a, b, table)
    code = run.relate_codes(a, b)
    if type(code) is int:
        if code != codes.TOUCHING or b._kind not in ("point", "segment"):
            return table.single[code]
        if b._kind == "point":
            return True
        x0, y0, x1, y1 = b._params.tolist()
        return relate_code_xy(a, x0, y0) != codes.DISJOINT and relate_code_xy(a, x1, y1) != codes.DISJOINT
    out = table.array[code]
    touching = code == codes.TOUCHING
    if b._kind == "point":
        out |= touching
    elif b._kind == "segment" and touching.any():
        sub_a = _broadcast_take(a, code.shape, touching)
        rows = np.broadcast_to(b._params, code.shape + (4,))[touching]
        from collide2d.shapes import Point

        start_in = run.relate_codes(sub_a, Point(rows[:, 0:2])) != codes.DISJOINT
        end_in = run.relate_codes(sub_a, Point(rows[:, 2:4])) != codes.DISJOINT
        out[touching] = start_in & end_in
    return out


def _covers_rounded(a, b, table):
    """:func:`covers_flags` with a rounded ``b``: a row of radius 0 is its core (a segment or a
    point, covered when touching as the plain kinds decide); a row of radius > 0 is a region,
    covered only with ``CONTAINS`` or ``EQUAL``."""
    code = run.relate_codes(a, b)
    if type(code) is int:
        if code == codes.TOUCHING and b._params[2] == 0.0:
            return covers_flags(a, rounded.plain(b), table)
        return table.single[code]
    out = table.array[code]
    zero = np.broadcast_to(b._params[..., 2] == 0.0, code.shape)
    for k in zip(*np.nonzero((code == codes.TOUCHING) & zero)):
        ka = tuple(i if n > 1 else 0 for i, n in zip(k[len(code.shape) - a.ndim :], a.shape)) if a.shape else ()
        kb = tuple(i if n > 1 else 0 for i, n in zip(k[len(code.shape) - b.ndim :], b.shape))
        out[k] = covers_flags(a[ka] if a.shape else a, rounded.plain(b[kb]), table)
    return out


def _broadcast_take(shape, batch, mask):
    """The shapes of ``shape`` broadcast to ``batch`` at the True entries of ``mask`` (a 1-D batch;
    a single shape stays single, as it broadcasts against any batch)."""
    if not shape.shape:
        return shape
    flat = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch)[mask]
    return shape[np.unravel_index(flat, shape.shape)]
