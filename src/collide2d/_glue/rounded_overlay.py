"""Glue of the overlay operations (``intersection_points``, ``overlap_area``, hence ``iou``) for
pairs with a rounded shape: the kernels of :mod:`collide2d._kernels.overlay.area_rounded` and
:mod:`collide2d._kernels.overlay.points_rounded` behind :mod:`collide2d._glue.run`.

* Rows of radius 0 count as their core's kind (:func:`collide2d._glue.rounded._groups`) and go back to
  the plain kernels through :mod:`collide2d._glue.run`: the same answers, bit for bit.
* The exact relation of each pair (:func:`collide2d.run.relate_codes`) decides what needs
  computing: disjoint and touching regions have area 0, nested ones the smaller area (Steiner's
  formula for a rounded shape); only ``OVERLAPPING`` pairs run the area kernel. Disjoint and
  equal pairs have no meeting points; a touching pair whose kernel finds none (a tangency missed
  by rounding) gets the contact's witness on the rounded boundary, once.
* Points, segments and lines have no area: 0.
"""

from __future__ import annotations

import sys

import numpy as np

from collide2d._glue import derived, run
from collide2d._glue import points as _points
from collide2d._glue import rounded as _rounded
from collide2d._kernels import codes

_KIND_CODE = {"rounded": 0, "ellipse": 1, "polygon": 2, "segment": 3, "line": 4, "point": 5}
_REGIONS = ("rounded", "ellipse", "polygon")


def _kernels():
    from collide2d._kernels.overlay import loops_rounded

    return loops_rounded


def _pieces(kind, table):
    """Pieces of each row's boundary (see :mod:`collide2d._kernels.overlay.boundary_rounded`)."""
    if kind == "rounded":
        count = table[:, 1]
        return np.where(count == 1, 1, 2 * count).astype(np.int64)
    if kind == "polygon":
        return table[:, 1].astype(np.int64)
    return np.ones(len(table), dtype=np.int64)


def _capacity(a, b):
    """Rows of the point array of a batch pair: 2 against a segment or a line, 1 against a point,
    else 4 times the larger piece count (each piece of a convex boundary meets another convex
    boundary at most twice, a circular arc an ellipse at most four times)."""
    kinds = (a._kind, b._kind)
    if "point" in kinds:
        return 1
    if "segment" in kinds or "line" in kinds:
        return 2
    most = [int(_pieces(s._kind, s._flat_params()).max(initial=1)) for s in (a, b)]
    return 4 * max(most)


def _ordered(ka, kb, ta, va, ia, tb, vb, ib, rows):
    """The parts of a group in the kernels' order, so that a pair gives the same bits in both
    orders: ``[(rows, ka, table, verts, index, kb, table, verts, index)]`` with the rounded side
    first (two rounded rows: in the order of :func:`collide2d._glue.rounded._second_first`)."""
    first = (ka, ta, va, ia[rows])
    second = (kb, tb, vb, ib[rows])
    if ka == kb == "rounded":
        flip = _rounded._second_first(ta, va, ia[rows], tb, vb, ib[rows])
        return [(rows[~flip], ka, ta, va, ia[rows[~flip]], kb, tb, vb, ib[rows[~flip]]),
                (rows[flip], kb, tb, vb, ib[rows[flip]], ka, ta, va, ia[rows[flip]])]
    if ka != "rounded":
        first, second = second, first
    return [(rows,) + first + second]


def _relation(a, b):
    return np.ascontiguousarray(run.relate_codes(a, b), dtype=np.int8).ravel()


def _single_order(a, b):
    """Two single shapes (at least one rounded of radius > 0) in the kernels' order."""
    if a._kind != "rounded":
        return b, a
    if b._kind != "rounded":
        return a, b
    # the order of _rounded._second_first, from the keys cached on the shapes
    flip = _rounded._shape_extremes(b, "rounded", b._params)[1] < _rounded._shape_extremes(a, "rounded", a._params)[1]
    return (b, a) if flip else (a, b)


def _single_points(a, b):
    code = int(run.relate_codes(a, b))
    if code == codes.DISJOINT or code == codes.EQUAL:
        return np.zeros((0, 2))
    if "point" in (a._kind, b._kind):
        point = a if a._kind == "point" else b
        return point._params.reshape(1, 2).copy() if code == codes.TOUCHING else np.zeros((0, 2))
    first, second = _single_order(a, b)
    out = np.full((_capacity(a, b), 2), np.nan)
    from collide2d._kernels.overlay.points_rounded import points_rounded_any

    count = points_rounded_any(_KIND_CODE[first._kind], first._params, first._verts,
                               _KIND_CODE[second._kind], second._params, second._verts, out)
    if count == 0 and code == codes.TOUCHING:  # a tangency that rounding hid: the contact witness
        return np.array([_rounded.contact_values(a, b)[3:5]], dtype=np.float64)
    return out[:count].copy()


def _single_area(a, b):
    if a._kind not in _REGIONS or b._kind not in _REGIONS:
        return 0.0
    code = int(run.relate_codes(a, b))
    if code == codes.OVERLAPPING:
        first, second = _single_order(a, b)
        from collide2d._kernels.overlay.area_rounded import area_rounded_region

        return float(area_rounded_region(_KIND_CODE[first._kind], first._params, first._verts,
                                         _KIND_CODE[second._kind], second._params, second._verts))
    if code == codes.CONTAINS:
        return float(derived.shape_areas(b))
    if code in (codes.WITHIN, codes.EQUAL):
        return float(derived.shape_areas(a))
    return 0.0


def overlap_area_values(a, b):
    """:func:`collide2d.run.overlap_area_values` for pairs with a rounded shape."""
    if not a.shape and not b.shape and a._params.ndim == 1 and b._params.ndim == 1:
        return _single_area(a, b)
    shape, ia, ib = run.broadcast_indices(a, b)
    out = np.zeros(ia.shape[0])
    if out.size and a._kind in _REGIONS and b._kind in _REGIONS:
        ta, tb = a._flat_params(), b._flat_params()
        relation = _relation(a, b)
        def area_of(shape, rows):  # the areas of the rows of nested pairs only
            sub = object.__new__(type(shape))
            sub._finish({}, shape._flat_params()[rows], shape._verts)
            return np.asarray(derived.shape_areas(sub), dtype=np.float64).reshape(-1)
        for ka, kb, rows in _rounded._groups(a._kind, ta, ia, b._kind, tb, ib):
            if ka not in _REGIONS or kb not in _REGIONS:
                continue  # a radius-0 capsule: a segment or a point, no area
            if ka != "rounded" and kb != "rounded":  # radius 0: today's kernels on the cores
                sa = _rounded._plain_batch(ka, _rounded._as_kind(a._kind, ta, ka)[ia[rows]], a._verts)
                sb = _rounded._plain_batch(kb, _rounded._as_kind(b._kind, tb, kb)[ib[rows]], b._verts)
                out[rows] = run.overlap_area_values(sa, sb)
                continue
            code = relation[rows]
            inner = rows[code == codes.CONTAINS]
            if inner.size:
                out[inner] = area_of(b, ib[inner])
            outer = rows[(code == codes.WITHIN) | (code == codes.EQUAL)]
            if outer.size:
                out[outer] = area_of(a, ia[outer])
            todo = rows[code == codes.OVERLAPPING]
            for sub, k1, t1, v1, i1, k2, t2, v2, i2 in _ordered(
                    ka, kb, _rounded._as_kind(a._kind, ta, ka), a._verts, ia,
                    _rounded._as_kind(b._kind, tb, kb), b._verts, ib, todo):
                if sub.size:
                    part = np.empty(sub.size)
                    _kernels().area_rounded_region_loop(_KIND_CODE[k1], t1, v1, i1, _KIND_CODE[k2], t2, v2, i2, part)
                    out[sub] = part
    if not shape:
        return float(out[0])
    return out.reshape(shape)


def intersection_point_values(a, b):
    """:func:`collide2d.points.intersection_point_values` for pairs with a rounded shape."""
    single = not a.shape and not b.shape
    if single and a._params.ndim == 1 and b._params.ndim == 1:
        return _single_points(a, b)
    shape, ia, ib = run.broadcast_indices(a, b)
    capacity = _capacity(a, b)
    n = ia.shape[0]
    out = np.full((n, capacity, 2), np.nan)
    count = np.zeros(n, dtype=np.int64)
    ta, tb = a._flat_params(), b._flat_params()
    relation = _relation(a, b)
    for ka, kb, rows in _rounded._groups(a._kind, ta, ia, b._kind, tb, ib):
        if ka != "rounded" and kb != "rounded":  # radius 0: today's kernels on the cores
            sa = _rounded._plain_batch(ka, _rounded._as_kind(a._kind, ta, ka)[ia[rows]], a._verts)
            sb = _rounded._plain_batch(kb, _rounded._as_kind(b._kind, tb, kb)[ib[rows]], b._verts)
            points, found = _points.intersection_point_values(sa, sb)
            width = min(points.shape[1], capacity)
            out[rows, :width] = points[:, :width]
            count[rows] = np.minimum(found, capacity)
            continue
        code = relation[rows]
        if "point" in (ka, kb):  # a point on the rounded boundary is the one meeting point
            touch = rows[code == codes.TOUCHING]
            tp, ip = (tb, ib) if kb == "point" else (ta, ia)
            xy = _rounded._as_kind(b._kind if kb == "point" else a._kind, tp, "point")
            out[touch, 0] = xy[ip[touch]]
            count[touch] = 1
            continue
        todo = rows[(code != codes.DISJOINT) & (code != codes.EQUAL)]
        for sub, k1, t1, v1, i1, k2, t2, v2, i2 in _ordered(
                ka, kb, _rounded._as_kind(a._kind, ta, ka), a._verts, ia,
                _rounded._as_kind(b._kind, tb, kb), b._verts, ib, todo):
            if sub.size:
                part = np.full((sub.size, capacity, 2), np.nan)
                found = np.zeros(sub.size, dtype=np.int64)
                _kernels().points_rounded_any_loop(_KIND_CODE[k1], t1, v1, i1, _KIND_CODE[k2], t2, v2, i2, part, found)
                out[sub], count[sub] = part, found
        missed = rows[(code == codes.TOUCHING) & (count[rows] == 0)]
        if missed.size:  # a tangency that rounding hid from the kernel: the contact witness
            witness = _rounded._contact_pairs(a._kind, ta, a._verts, ia[missed], b._kind, tb, b._verts, ib[missed], 9)
            out[missed, 0] = witness[:, 3:5]
            count[missed] = 1
    if single:
        return out[0, : count[0]].copy()
    return out.reshape(shape + (capacity, 2)), count.reshape(shape)


run.ROUNDED_OVERLAY.append(sys.modules[__name__])  # collide2d._glue.run hands rounded overlay pairs to this module
