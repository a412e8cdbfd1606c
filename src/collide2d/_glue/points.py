"""Intersection points: the runner's points signature, and ellipses against lines and segments.

Most pairs take :func:`collide2d._glue.run.run` with :class:`~collide2d._glue.run.PointsSig`.
The points kernel of an ellipse and a line measures along the line from its stored point; from a
point far away that loses the answer's accuracy (1e16 ulps from 1e16 away). The glue therefore
re-bases each line at the foot of the ellipse centre (:func:`collide2d._robust.magnitude.foot_lines`,
error-free cross products) before the kernel runs, and runs a segment that crosses the ellipse's
whole bounding box as its line.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._robust import magnitude
from collide2d._glue import registry, rounded, run
from collide2d._glue.registry import POINTS
from collide2d._kernels import codes

__all__ = ["intersection_point_values", "points_capacity"]


def _max_vertex_count(shape):
    if shape._kind != "polygon" or shape._params.size == 0:
        return 0
    if shape._params.ndim == 1:  # a single shape: no NumPy reduction (microseconds a call)
        return int(shape._params[1])
    return int(shape._params[..., 1].max())


# Rows of the NaN-padded point array per kind pair (kernel order); pairs with a polygon use
# 2 x the largest vertex count of the polygons involved (a line meets a convex edge chain at most
# twice per edge). See :func:`points_capacity`.
_POINTS_CAPACITY = {
    ("ellipse", "ellipse"): 4,
    ("ellipse", "segment"): 2,
    ("ellipse", "line"): 2,
    ("ellipse", "point"): 1,
    ("segment", "segment"): 2,
    ("segment", "line"): 2,
    ("segment", "point"): 1,
    ("line", "line"): 1,
    ("line", "point"): 1,
    ("point", "point"): 1,
}


def _rounded_pieces(shape):
    """The most pieces of a boundary among the rows of a shape: a rounded row has a flat and an arc
    per core vertex (a disc: one arc), a polygon one edge per vertex, other kinds 1 (see
    :mod:`collide2d._kernels.overlay.boundary_rounded`)."""
    if shape._kind not in ("rounded", "polygon") or shape._params.size == 0:
        return 1
    if shape._params.ndim == 1:  # a single shape: no NumPy reduction (microseconds a call)
        n = int(shape._params[1])
        return 1 if n == 1 and shape._kind == "rounded" else (n if shape._kind == "polygon" else 2 * n)
    count = shape._params[..., 1]
    if shape._kind == "polygon":
        return int(count.max())
    return int(np.where(count == 1, 1, 2 * count).max())


def points_capacity(first, second):
    """Rows of the point array for a pair in kernel order (see ``_POINTS_CAPACITY``); with a rounded
    shape: 1 against a point, 2 against a segment or a line, else 4 times the most pieces of a
    boundary (each piece of a convex boundary meets another convex boundary at most twice, a
    circular arc an ellipse at most four times)."""
    key = (first._kind, second._kind)
    if "rounded" in key:
        if "point" in key:
            return 1
        if "segment" in key or "line" in key:
            return 2
        return 4 * max(_rounded_pieces(first), _rounded_pieces(second))
    if "polygon" in key:
        return 2 * max(_max_vertex_count(first), _max_vertex_count(second), 1)
    return _POINTS_CAPACITY[key]


def intersection_point_values(a, b):
    """Boundary intersection points of ``a`` and ``b``.

    Single shapes: an ndarray ``(k, 2)``. Batches: ``(points, count)`` with ``points`` of shape
    ``batch + (K, 2)`` NaN-padded (``K`` from :func:`points_capacity`) and ``count`` int64 of the
    batch shape.
    """
    a, b, left_rounded = run.checked_pair(a, b)
    entry = registry.entry(POINTS, a._kind, b._kind)
    first, second = (b, a) if entry.swapped else (a, b)
    capacity = points_capacity(first, second)
    relation = run.checked_relate_codes(first, second)
    if entry.name in ("points_ellipse_line", "points_ellipse_segment"):
        return ellipse_points(entry, first, second, relation, capacity)
    if first._params.ndim != 1 or second._params.ndim != 1:
        relation = np.ascontiguousarray(relation, dtype=np.int8).ravel()
    return run.run(run.PointsSig, entry, a, b, (relation, capacity, entry.swapped),
                   special=_ELLIPSE_STRAIGHT if left_rounded else None)


def _ellipse_rows(entry, kind_a, rows_a, verts_a, kind_b, rows_b, verts_b, extra):
    """:func:`ellipse_points` of a group of rows (a batch with capsules of radius 0 against ellipses),
    for :func:`collide2d._glue.run.mixed_rows`."""
    ellipses = rounded.plain_batch(kind_a, rows_a, verts_a)
    straight = rounded.plain_batch(kind_b, rows_b, verts_b)
    return ellipse_points(entry, ellipses, straight, extra[0], extra[1])


_ELLIPSE_STRAIGHT = {"points_ellipse_line": _ellipse_rows, "points_ellipse_segment": _ellipse_rows}


def ellipse_points(entry, ellipses, straight, relation, capacity):
    """Points of ellipses against lines or segments, with the line through the foot of the centre.

    Lines are re-based at the foot of the ellipse centre with a direction of the pair's magnitude
    (:func:`magnitude.foot_lines`). A segment whose two ends lie outside the ellipse's bounding
    box meets the boundary where its line does (it covers the whole chord when it meets the
    ellipse at all), and is computed as that line; other segments take the segment kernel.
    Returns what :func:`intersection_point_values` returns.
    """
    from collide2d.shapes import _ellipse_bounds

    name, kernel = entry.name, entry.kernel

    if not ellipses.shape and not straight.shape:
        out = _single(name, kernel, ellipses, straight, int(relation), capacity)
        if out is not None:
            return out
    shape, index_a, index_b = run.broadcast_indices(ellipses, straight)
    rows_e = ellipses._flat_params()[index_a]
    rows_s = straight._flat_params()[index_b]
    relation = np.atleast_1d(np.ascontiguousarray(relation, dtype=np.int8)).ravel()
    n = rows_e.shape[0]
    out = np.full((n, capacity, 2), np.nan)
    count = np.zeros(n, dtype=np.int64)
    lines_lo = None  # a segment's direction p1 - p0 as hi + lo
    if name == "points_ellipse_line":
        as_line = np.ones(n, dtype=bool)
        lines = rows_s
    else:
        box = _ellipse_bounds(rows_e)
        outside = [(rows_s[:, i] < box[:, 0]) | (rows_s[:, i] > box[:, 2]) | (rows_s[:, i + 1] < box[:, 1])
                   | (rows_s[:, i + 1] > box[:, 3]) for i in (0, 2)]
        as_line = outside[0] & outside[1]
        two_sum = magnitude.error_free()[0]
        dx, dxl = two_sum(rows_s[:, 2], -rows_s[:, 0])
        dy, dyl = two_sum(rows_s[:, 3], -rows_s[:, 1])
        lines = np.column_stack([rows_s[:, :2], dx, dy])
        lines_lo = np.column_stack([dxl, dyl])
    empty = np.zeros((0, 2))
    for mask, kind_b, table, kname in ((as_line, "line", lines, "points_ellipse_line"), (~as_line, straight._kind, rows_s, name)):
        rows = np.flatnonzero(mask)
        if not rows.size:
            continue
        table_e = np.ascontiguousarray(rows_e[rows])
        if kind_b == "line":
            table_b = magnitude.foot_lines(table_e, table[rows], None if lines_lo is None else lines_lo[rows])
        else:
            table_b = np.ascontiguousarray(table[rows])
        part_out, part_count = out[rows], count[rows]
        ident = np.arange(rows.size, dtype=np.int64)
        part = entry if kname == name else registry.entry(POINTS, "ellipse", "line")
        part_out, part_count = run.rows(run.PointsSig, part, "ellipse", table_e, empty, ident,
                                        magnitude.table_tame("ellipse", table_e, empty), kind_b, table_b, empty, ident,
                                        magnitude.table_tame(kind_b, table_b, empty),
                                        (np.ascontiguousarray(relation[rows]), capacity))
        out[rows], count[rows] = part_out, part_count
    if not shape:
        return out[0, : count[0]].copy()
    return out.reshape(shape + (capacity, 2)), count.reshape(shape)


def _single(name, kernel, ellipse, straight, relation, capacity):
    """The single-pair case of :func:`ellipse_points` in plain floats (no NumPy
    broadcasting), for tame pairs; ``None`` hands the pair to the general path."""
    if relation == codes.DISJOINT:
        return np.zeros((0, 2))
    if not run.tame_rows(ellipse) is True:
        return None
    cx, cy, a, b, wx, wy = ellipse._params.tolist()
    if name == "points_ellipse_segment":
        x0, y0, x1, y1 = straight._params.tolist()
        norm = math.hypot(wx, wy)
        hx = math.hypot(a * wx, b * wy) / norm * (1 + 8 * 2.0**-52)  # as shapes._ellipse_bounds
        hy = math.hypot(a * wy, b * wx) / norm * (1 + 8 * 2.0**-52)
        lo_x, hi_x = math.nextafter(cx - hx, -math.inf), math.nextafter(cx + hx, math.inf)
        lo_y, hi_y = math.nextafter(cy - hy, -math.inf), math.nextafter(cy + hy, math.inf)
        outside = [x < lo_x or x > hi_x or y < lo_y or y > hi_y for x, y in ((x0, y0), (x1, y1))]
        if not (outside[0] and outside[1]):
            if not run.tame_rows(straight) is True:
                return None
            out = np.full((capacity, 2), np.nan)
            count = kernel(ellipse._params, ellipse._verts, straight._params, straight._verts, relation, out)
            return out[:count].copy()
        px, py = x0, y0
        two_sum = magnitude.error_free()[0]
        dx, dxl = two_sum(x1, -x0)
        dy, dyl = two_sum(y1, -y0)
    else:
        px, py, dx, dy = straight._params.tolist()
        dxl = dyl = 0.0
        radius = max(a, b)
        if (max(abs(px - cx), abs(py - cy)) <= 16.0 * radius and max(abs(dx), abs(dy)) >= radius / 16.0
                and run.tame_rows(straight) is True):
            # the stored point is already near the ellipse and the direction is not small:
            # the kernel's own frame loses nothing to speak of (the common case, at full speed)
            out = np.full((capacity, 2), np.nan)
            count = kernel(ellipse._params, ellipse._verts, straight._params, straight._verts, relation, out)
            return out[:count].copy()
    # magnitude.foot_lines for one row, in plain floats
    e_dir = math.frexp(max(abs(dx), abs(dy)))[1]
    dx, dy = math.ldexp(dx, -e_dir), math.ldexp(dy, -e_dir)
    fx, fy = magnitude.line_foot(cx, cy, px, py, dx, dy, math.ldexp(dxl, -e_dir), math.ldexp(dyl, -e_dir))
    size = max(min(a, b), math.ldexp(max(abs(cx), abs(cy), abs(fx), abs(fy)), -50))
    shift = math.frexp(size)[1] - math.frexp(max(abs(dx), abs(dy)))[1]
    row = np.array([fx, fy, math.ldexp(dx, shift), math.ldexp(dy, shift)])
    if not all(v == 0.0 or magnitude.TAME_LO <= abs(v) <= magnitude.TAME_HI for v in row.tolist()):
        return None
    out = np.full((capacity, 2), np.nan)
    line_kernel = kernel if name == "points_ellipse_line" else registry.entry(POINTS, "ellipse", "line").kernel
    count = line_kernel(ellipse._params, ellipse._verts, row, ellipse._verts, relation, out)
    return out[:count].copy()
