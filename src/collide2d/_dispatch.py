"""Glue between the public functions and the kernels: pair lookup, broadcasting, mirroring.

For a pair of shapes the kernel is the one named for their kinds in the canonical order ellipse,
polygon, segment, line, point; when the caller's order is the other one, the arguments are swapped
before the call and the result is mirrored after it (``CONTAINS`` <-> ``WITHIN``).
"""

from __future__ import annotations

import importlib
import math
import threading

import numpy as np

from collide2d import _exact, _magnitude
from collide2d._kernels import codes
from collide2d.shapes import Shape

EPS = 2.0**-53  # unit roundoff of float64: the ``eps`` that float-mode kernels receive

KIND_ORDER = ("ellipse", "polygon", "segment", "line", "point")

# (operation, first kind) -> kernel module; the batch loops of an operation live in LOOP_MODULES.
_FLAT = ("segment", "line", "point")
KERNEL_MODULES = {
    **{("relate", kind): "relate.linear" for kind in _FLAT},
    ("relate", "ellipse"): "relate.ellipse",
    ("relate", "polygon"): "relate.polygon",
    **{("contact", kind): "measure.distance_flat" for kind in _FLAT + ("polygon",)},
    ("contact", "ellipse"): "measure.distance_ellipse",
    ("points", "ellipse"): "overlay.points_ellipse",
    **{("points", kind): "overlay.points_flat" for kind in _FLAT + ("polygon",)},
    ("area", "ellipse"): "overlay.area_ellipse",
    ("area", "polygon"): "overlay.area_flat",
}
LOOP_MODULES = {"relate": "relate.loops", "contact": "measure.loops", "points": "overlay.loops_points", "area": "overlay.loops_area"}

# MIRROR_RELATION[code] is the code of the swapped pair.
MIRROR_RELATION = np.array([0, 1, 2, 4, 3, 5, 6], dtype=np.int8)
_MIRROR_CODE = (0, 1, 2, 4, 3, 5, 6)  # the same as a tuple, for single pairs (no NumPy scalar)

_cache: dict = {}


def _rounded():
    """The glue of the rounded kind (imported on first use: it imports this module)."""
    return importlib.import_module("collide2d._rounded")


def plain_or_refuse(operation, *shapes):
    """The arguments with rounded shapes of radius 0 as their cores' kinds (the same answers, bit
    for bit); ``NotImplementedError`` when a rounded shape of radius > 0 remains, which
    ``operation`` does not take yet. Arguments that are not shapes pass as they are."""
    if not any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        return shapes
    shapes = tuple(_rounded().plain_if_zero(s) if isinstance(s, Shape) else s for s in shapes)
    if any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        _rounded().not_implemented(operation, *shapes[:2])
    return shapes


def check_shape(value, name):
    """Raise ``TypeError`` unless ``value`` is a collide2d shape."""
    if not isinstance(value, Shape):
        raise TypeError(f"{name} must be a collide2d shape (Point, Circle, Ellipse, ...), got {type(value).__name__}")


def pair_kernel(operation, kind_a, kind_b):
    """Return ``(name, kernel, swapped)`` for an operation on the kinds ``kind_a, kind_b``."""
    key = (operation, kind_a, kind_b)
    if key not in _cache:
        if kind_a == "rounded" or kind_b == "rounded":  # the rounded kind has its own glue (_rounded)
            raise NotImplementedError(f"the {operation} kernels do not take the rounded kind (a Capsule, or a Polygon, Box or RotatedBox with a radius) yet")
        swapped = KIND_ORDER.index(kind_a) > KIND_ORDER.index(kind_b)
        first, second = (kind_b, kind_a) if swapped else (kind_a, kind_b)
        name = f"{operation}_{first}_{second}"
        module = importlib.import_module(f"collide2d._kernels.{KERNEL_MODULES[operation, first]}")
        _cache[key] = (name, getattr(module, name), swapped)
    return _cache[key]


def pair_loop(operation, name):
    """Return the batch loop of kernel ``name`` (imported only when a batch needs it)."""
    module = importlib.import_module(f"collide2d._kernels.{LOOP_MODULES[operation]}")
    return getattr(module, name + "_loop")


def _range_index(n):
    index = np.arange(n, dtype=np.int64)
    index.flags.writeable = False  # as the broadcast views below: the loops see the same array types
    return index


def broadcast_indices(a, b):
    """Batch shape of the pair and flat row indices into each side's parameter table."""
    shape_a = a._params.shape[:-1]
    shape_b = b._params.shape[:-1]
    # fast paths (no broadcast views): equal batch shapes, or a single shape against a batch
    if shape_a == shape_b:
        index = _range_index(math.prod(shape_a))  # read-only, so both sides can share it
        return shape_a, index, index
    if not shape_a:
        return shape_b, np.zeros(math.prod(shape_b), dtype=np.int64), _range_index(math.prod(shape_b))
    if not shape_b:
        return shape_a, _range_index(math.prod(shape_a)), np.zeros(math.prod(shape_a), dtype=np.int64)
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
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return _rounded().relate_codes(a, b)
        return relate_codes(a, b)
    name, kernel, swapped = pair_kernel("relate", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    if first._params.ndim == 1 and second._params.ndim == 1:  # scalar fast path: the same kernel, no loop
        if not _magnitude.shapes_tame(first, second):  # extreme magnitudes: scaled, or exact
            code = _magnitude.relate_row(name, kernel, first._kind, first._params, first._verts,
                                         second._kind, second._params, second._verts, EPS, _exact.relate)
            return _MIRROR_CODE[code] if swapped else int(code)
        code = kernel(first._params, first._verts, second._params, second._verts, EPS)
        if code == codes.UNDECIDED:
            code = _exact.relate(name, first._kind, first._params, first._verts, second._kind, second._params, second._verts)
        return _MIRROR_CODE[code] if swapped else int(code)
    shape, index_a, index_b = broadcast_indices(first, second)
    out = relate_indexed(
        name, first._kind, first._flat_params(), first._verts, index_a,
        second._kind, second._flat_params(), second._verts, index_b,
        _magnitude.tame_rows(first), _magnitude.tame_rows(second),
    )
    if swapped:
        out = MIRROR_RELATION[out]
    return out.reshape(shape)


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

        return int(relate_codes(shape, Point((x, y))))
    name, kernel, swapped = pair_kernel("relate", shape._kind, "point")
    if _magnitude.tame_rows(shape) is not True or not (_magnitude.tame_number(x) and _magnitude.tame_number(y)):
        from collide2d.shapes import Point  # extreme magnitudes: the general path

        return int(relate_codes(shape, Point((x, y))))
    row = _point_row(x, y)
    code = kernel(shape._params, shape._verts, row, _NO_VERTS, EPS)
    if code == codes.UNDECIDED:
        code = _exact.relate(name, shape._kind, shape._params, shape._verts, "point", row, _NO_VERTS)
    return int(code)


def relate_indexed(name, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b,
                   tame_a=None, tame_b=None):
    """Codes of kernel ``name`` on the rows ``params_a[index_a[k]]`` against ``params_b[index_b[k]]``.

    The kinds must already be in the kernel's order (no mirroring here). Parameter tables may be
    wider than the kind's row (extra columns are ignored). Undecided results of the float kernel
    are settled by the exact fallback. Rows at extreme magnitudes (``tame_a``/``tame_b``, computed
    when not given) go through :mod:`collide2d._magnitude`. Returns an int8 array of ``len(index_a)`` codes.
    """
    out = np.empty(index_a.shape[0], dtype=np.int8)
    if out.size:
        if tame_a is None:
            tame_a = _magnitude.table_tame(kind_a, params_a, verts_a)
            tame_b = _magnitude.table_tame(kind_b, params_b, verts_b)
        wild = _magnitude.wild_mask(None, None, index_a, index_b, tame_a, tame_b)
        loop = pair_loop("relate", name)
        if wild is None:
            loop(params_a, verts_a, index_a, params_b, verts_b, index_b, EPS, out)
        else:
            _relate_wild(name, loop, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b, wild, out)
    for k in np.flatnonzero(out == codes.UNDECIDED):
        out[k] = _exact.relate(name, kind_a, params_a[index_a[k]], verts_a, kind_b, params_b[index_b[k]], verts_b)
    return out


def _relate_wild(name, loop, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b, wild, out):
    """Fill ``out`` for a batch with rows at extreme magnitudes: the loop on the others, then one
    row at a time through :func:`_magnitude.relate_row`."""
    tame = np.flatnonzero(~wild)
    if tame.size:
        part = np.empty(tame.size, dtype=np.int8)
        loop(params_a, verts_a, index_a[tame], params_b, verts_b, index_b[tame], EPS, part)
        out[tame] = part
    kernel = getattr(importlib.import_module(f"collide2d._kernels.{_module_of(name)}"), name)
    for k in np.flatnonzero(wild):
        out[k] = _magnitude.relate_row(name, kernel, kind_a, params_a[index_a[k]], verts_a,
                                       kind_b, params_b[index_b[k]], verts_b, EPS, _exact.run)


def _module_of(name):
    """The kernel module that defines the pair kernel ``name`` (``relate_*`` or ``intersects_*``)."""
    first = name.split("_")[1]
    return KERNEL_MODULES["relate", first]


_intersects_cache: dict = {}


def intersects_kernel(kind_a, kind_b):
    """``(name, kernel, swapped)`` of a dedicated ``intersects_<a>_<b>`` kernel, or ``None``.

    Such a kernel lives next to the relate kernel of the pair (the module of ``KERNEL_MODULES``)
    and returns 1 (the closed shapes meet), 0 (disjoint) or ``UNDECIDED``; its batch loop
    ``<name>_loop`` lives with the relate loops. Intersection is symmetric: ``swapped`` only tells
    which shape goes first.
    """
    key = (kind_a, kind_b)
    if key not in _intersects_cache:
        name, _, swapped = pair_kernel("relate", kind_a, kind_b)
        first = kind_b if swapped else kind_a
        module = importlib.import_module(f"collide2d._kernels.{KERNEL_MODULES['relate', first]}")
        iname = "intersects" + name[len("relate"):]
        kernel = getattr(module, iname, None)
        _intersects_cache[key] = None if kernel is None else (iname, kernel, swapped)
    return _intersects_cache[key]


def intersects_flags(a, b):
    """Whether ``a`` and ``b`` share a point: a bool for single shapes, else a bool array.

    Uses the pair's dedicated ``intersects`` kernel when there is one (it skips the containment
    classification), else ``relate`` codes ``!= DISJOINT``. Undecided results are settled by the
    exact fallback, counted under the kernel's name.
    """
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return _rounded().intersects_flags(a, b)
        return intersects_flags(a, b)
    entry = intersects_kernel(a._kind, b._kind)
    if entry is None:
        return relate_codes(a, b) != codes.DISJOINT  # a bool for single shapes (int codes)
    name, kernel, swapped = entry
    first, second = (b, a) if swapped else (a, b)
    if first._params.ndim == 1 and second._params.ndim == 1:  # scalar fast path
        if not _magnitude.shapes_tame(first, second):  # extreme magnitudes: scaled, or exact
            return _magnitude.relate_row(name, kernel, first._kind, first._params, first._verts,
                                         second._kind, second._params, second._verts, EPS, _exact.run) != 0
        flag = kernel(first._params, first._verts, second._params, second._verts, EPS)
        if flag == codes.UNDECIDED:
            flag = _exact.run(name, first._kind, first._params, first._verts, second._kind, second._params, second._verts)
        return flag != 0
    shape, index_a, index_b = broadcast_indices(first, second)
    params_a, params_b = first._flat_params(), second._flat_params()
    out = np.empty(index_a.shape[0], dtype=np.int8)
    if out.size:
        wild = _magnitude.wild_mask(first, second, index_a, index_b)
        loop = pair_loop("relate", name)
        if wild is None:
            loop(params_a, first._verts, index_a, params_b, second._verts, index_b, EPS, out)
        else:
            _relate_wild(name, loop, first._kind, params_a, first._verts, index_a,
                         second._kind, params_b, second._verts, index_b, wild, out)
    for k in np.flatnonzero(out == codes.UNDECIDED):
        out[k] = _exact.run(name, first._kind, params_a[index_a[k]], first._verts, second._kind, params_b[index_b[k]], second._verts)
    return out.view(np.bool_).reshape(shape)


def relate_pairs(kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b):
    """Relation codes of ``a``-rows against ``b``-rows for one kind pair, in the caller's order.

    Like :func:`relate_codes` on index arrays: the arguments are swapped for the kernel when the
    kinds come in the mirrored order, and ``CONTAINS``/``WITHIN`` are mirrored back.
    """
    if kind_a == "rounded" or kind_b == "rounded":
        return _rounded().relate_pairs(kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b)
    name, _, swapped = pair_kernel("relate", kind_a, kind_b)
    if swapped:
        out = relate_indexed(name, kind_b, params_b, verts_b, index_b, kind_a, params_a, verts_a, index_a)
        return MIRROR_RELATION[out]
    return relate_indexed(name, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b)


# Column permutation and signs that turn a contact row of (b, a) into the row of (a, b):
# separation kept, normal negated, witnesses and curvatures swapped.
_CONTACT_MIRROR = np.array([0, 1, 2, 5, 6, 3, 4, 8, 7])
_CONTACT_MIRROR_SIGN = np.array([1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])


def contact_values(a, b):
    """Contact of ``a`` against ``b`` as 9 numbers per pair.

    ``(separation, nx, ny, pax, pay, pbx, pby, curvature_a, curvature_b)``: a tuple of Python
    floats for single shapes, else a float64 array of shape ``batch + (9,)``. Mirrored pairs are
    computed in the canonical order and mirrored here.
    """
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return _rounded().contact_values(a, b)
        return contact_values(a, b)
    name, kernel, swapped = pair_kernel("contact", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    if first._params.ndim == 1 and second._params.ndim == 1:  # scalar fast path: the same kernel, no loop
        if _magnitude.shapes_tame(first, second):
            r = kernel(first._params, first._verts, second._params, second._verts)  # 9 Python floats
        else:  # extreme magnitudes: computed on the pair scaled by a power of two
            r = _magnitude.contact_row(kernel, first._kind, first._params, first._verts,
                                       second._kind, second._params, second._verts, pair_kernel)
        if swapped:
            return (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])
        return r
    shape, index_a, index_b = broadcast_indices(first, second)
    out = np.empty((index_a.shape[0], 9))
    if out.shape[0]:
        _measure_rows(pair_loop("contact", name), kernel, first, second, index_a, index_b, out, 9)
    if swapped:
        out = out[:, _CONTACT_MIRROR] * _CONTACT_MIRROR_SIGN
        out[:, 1:3] += 0.0  # no -0.0 normal components
    return out.reshape(shape + (9,))


def separation_values(a, b):
    """The separation alone (the first of the 9 numbers of :func:`contact_values`).

    A Python float for single shapes, else a float64 array of the batch shape, computed by the
    ``separation_*`` loops, which store one column and let the compiler drop the rest of the
    contact. The separation does not change when the pair is mirrored.
    """
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return _rounded().separation_values(a, b)
        return separation_values(a, b)
    name, kernel, swapped = pair_kernel("contact", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    if first._params.ndim == 1 and second._params.ndim == 1:
        if not _magnitude.shapes_tame(first, second):  # extreme magnitudes: computed on the scaled pair
            return _magnitude.contact_row(kernel, first._kind, first._params, first._verts,
                                          second._kind, second._params, second._verts, pair_kernel)[0]
        return kernel(first._params, first._verts, second._params, second._verts)[0]
    shape, index_a, index_b = broadcast_indices(first, second)
    out = np.empty(index_a.shape[0])
    if out.shape[0]:
        loop = pair_loop("contact", "separation" + name[len("contact") :])
        _measure_rows(loop, kernel, first, second, index_a, index_b, out, 1)
    return out.reshape(shape)


def _measure_rows(loop, kernel, first, second, index_a, index_b, out, width):
    """Run a contact (``width`` 9) or separation (``width`` 1) loop into ``out``; rows at extreme
    magnitudes go one at a time through :func:`_magnitude.contact_row` instead."""
    params_a, params_b = first._flat_params(), second._flat_params()
    wild = _magnitude.wild_mask(first, second, index_a, index_b)
    if wild is None:
        loop(params_a, first._verts, index_a, params_b, second._verts, index_b, out)
        return
    tame = np.flatnonzero(~wild)
    if tame.size:
        part = np.empty((tame.size,) + out.shape[1:])
        loop(params_a, first._verts, index_a[tame], params_b, second._verts, index_b[tame], part)
        out[tame] = part
    for k in np.flatnonzero(wild):
        r = _magnitude.contact_row(kernel, first._kind, params_a[index_a[k]], first._verts,
                                   second._kind, params_b[index_b[k]], second._verts, pair_kernel)
        out[k] = r if width == 9 else r[0]


# -- intersection points, overlap area, IoU (collide2d.overlay) ---------------------------------------

REGION_KINDS = ("ellipse", "polygon")

# Rows of the NaN-padded point array per kind pair (canonical order); pairs with a polygon use
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


def _max_vertex_count(shape):
    if shape._kind != "polygon" or shape._params.size == 0:
        return 0
    return int(shape._params[..., 1].max())


def points_capacity(first, second):
    """Rows of the point array for a pair in canonical kind order (see ``_POINTS_CAPACITY``)."""
    key = (first._kind, second._kind)
    if "polygon" in key:
        return 2 * max(_max_vertex_count(first), _max_vertex_count(second), 1)
    return _POINTS_CAPACITY[key]


def _exact_twin_function(module, name):
    """The uncompiled kernel ``module.name`` of the exact twin (run on Fractions)."""
    return getattr(_exact.twin_module(module), name)


def ellipse_contact_points(params_a, params_b, relation, out):
    """Tangent points of two nested ellipses whose contact the float filter could not settle.

    Counts the points where the boundaries meet exactly (0, 1 or 2, on Fractions; counted in
    :func:`collide2d.exact_fallback_counts` as ``contact_count_ellipse_ellipse``) and computes them
    in floating point. Returns the count.
    """
    from collide2d._kernels.overlay import points_ellipse

    name = "contact_count_ellipse_ellipse"
    _exact._counts[name] += 1
    row_a, _ = _exact.exact_row("ellipse", params_a, None)
    row_b, _ = _exact.exact_row("ellipse", params_b, None)
    count = int(_exact_twin_function("overlay.points_ellipse", name)(row_a, row_b))
    maximise = relation == codes.WITHIN
    return int(points_ellipse.tangent_points_ellipse_ellipse(params_a, params_b, maximise, count, out))


def ellipse_crossing_points(params_a, params_b, out):
    """Points of two overlapping ellipses whose computed crossings suggest a tangent point.

    Decides on Fractions whether the boundaries have a multiple contact (counted in
    :func:`collide2d.exact_fallback_counts` as ``crossing_contact_ellipse_ellipse``) and computes
    the points in floating point accordingly. Returns the count.
    """
    from collide2d._kernels.overlay import points_ellipse

    name = "crossing_contact_ellipse_ellipse"
    _exact._counts[name] += 1
    row_a, _ = _exact.exact_row("ellipse", params_a, None)
    row_b, _ = _exact.exact_row("ellipse", params_b, None)
    kind = int(_exact_twin_function("overlay.points_ellipse", name)(row_a, row_b))
    return int(points_ellipse.crossing_points_ellipse_ellipse(params_a, params_b, kind, out))


def _resolve_points(params_a, params_b, relation, out, count):
    """Finish a point kernel's answer that needs an exact decision (a negative ``count``)."""
    if count == -1:
        return ellipse_contact_points(params_a, params_b, relation, out)
    if count == -2:
        return ellipse_crossing_points(params_a, params_b, out)
    return count


def intersection_point_values(a, b):
    """Boundary intersection points of ``a`` and ``b``.

    Single shapes: an ndarray ``(k, 2)``. Batches: ``(points, count)`` with ``points`` of shape
    ``batch + (K, 2)`` NaN-padded (``K`` from :func:`points_capacity`) and ``count`` int64 of the
    batch shape. Points do not depend on the order of ``a`` and ``b``, so mirrored pairs need no
    mirroring beyond swapping the arguments.
    """
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return importlib.import_module("collide2d._rounded_overlay").intersection_point_values(a, b)
    name, kernel, swapped = pair_kernel("points", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    capacity = points_capacity(first, second)
    relation = relate_codes(first, second)
    if name in ("points_ellipse_line", "points_ellipse_segment"):
        return _straight_ellipse_points(name, kernel, first, second, relation, capacity)
    if not first.shape and not second.shape:
        out = np.full((capacity, 2), np.nan)
        if not _magnitude.shapes_tame(first, second):  # extreme magnitudes: scaled pair
            count = _magnitude.points_row(kernel, first._kind, first._params, first._verts, second._kind,
                                          second._params, second._verts, relation, out, _resolve_points)
            return out[:count].copy()
        count = kernel(first._params, first._verts, second._params, second._verts, relation, out)
        count = _resolve_points(first._params, second._params, relation, out, count)
        return out[:count].copy()
    shape, index_a, index_b = broadcast_indices(first, second)
    relation = np.ascontiguousarray(relation, dtype=np.int8).ravel()
    n = index_a.shape[0]
    out = np.full((n, capacity, 2), np.nan)
    count = np.zeros(n, dtype=np.int64)
    _points_rows(name, kernel, first._kind, first._flat_params(), first._verts, index_a, _magnitude.tame_rows(first),
                 second._kind, second._flat_params(), second._verts, index_b, _magnitude.tame_rows(second),
                 relation, out, count)
    return out.reshape(shape + (capacity, 2)), count.reshape(shape)


def _points_rows(name, kernel, kind_a, params_a, verts_a, index_a, tame_a, kind_b, params_b, verts_b, index_b, tame_b,
                 relation, out, count):
    """Fill ``out`` and ``count`` (one row per pair of indices): the batch loop on tame pairs, one
    pair at a time through :func:`_magnitude.points_row` for the others, then the tangent points."""
    if not index_a.shape[0]:
        return
    loop = pair_loop("points", name)
    wild = _magnitude.wild_mask(None, None, index_a, index_b, tame_a, tame_b)
    if wild is None:
        loop(params_a, verts_a, index_a, params_b, verts_b, index_b, relation, out, count)
    else:
        tame = np.flatnonzero(~wild)
        part_out, part_count = out[tame], count[tame]
        loop(params_a, verts_a, index_a[tame], params_b, verts_b, index_b[tame], relation[tame], part_out, part_count)
        out[tame], count[tame] = part_out, part_count
        for k in np.flatnonzero(wild):
            count[k] = _magnitude.points_row(kernel, kind_a, params_a[index_a[k]], verts_a, kind_b,
                                             params_b[index_b[k]], verts_b, int(relation[k]), out[k],
                                             _resolve_points)
    for k in np.flatnonzero(count < 0):
        count[k] = _resolve_points(params_a[index_a[k]], params_b[index_b[k]], int(relation[k]), out[k], int(count[k]))


def _straight_ellipse_points(name, kernel, ellipses, straight, relation, capacity):
    """Points of ellipses against lines or segments, with the line through the foot of the centre.

    Lines are re-based at the foot of the ellipse centre with a direction of the pair's magnitude
    (:func:`_magnitude.foot_lines`). A segment whose two ends lie outside the ellipse's bounding
    box meets the boundary where its line does (it covers the whole chord when it meets the
    ellipse at all), and is computed as that line; other segments take the segment kernel.
    Returns what :func:`intersection_point_values` returns.
    """
    from collide2d.shapes import _ellipse_bounds

    if not ellipses.shape and not straight.shape:
        out = _straight_ellipse_points_single(name, kernel, ellipses, straight, int(relation), capacity)
        if out is not None:
            return out
    shape, index_a, index_b = broadcast_indices(ellipses, straight)
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
        two_sum = _magnitude.error_free()[0]
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
            table_b = _magnitude.foot_lines(table_e, table[rows], None if lines_lo is None else lines_lo[rows])
        else:
            table_b = np.ascontiguousarray(table[rows])
        part_out, part_count = out[rows], count[rows]
        ident = np.arange(rows.size, dtype=np.int64)
        kern = kernel if kname == name else pair_kernel("points", "ellipse", "line")[1]
        _points_rows(kname, kern, "ellipse", table_e, empty, ident, _magnitude.table_tame("ellipse", table_e, empty),
                     kind_b, table_b, empty, ident, _magnitude.table_tame(kind_b, table_b, empty),
                     np.ascontiguousarray(relation[rows]), part_out, part_count)
        out[rows], count[rows] = part_out, part_count
    if not shape:
        return out[0, : count[0]].copy()
    return out.reshape(shape + (capacity, 2)), count.reshape(shape)


def _straight_ellipse_points_single(name, kernel, ellipse, straight, relation, capacity):
    """The single-pair case of :func:`_straight_ellipse_points` in plain floats (no NumPy
    broadcasting), for tame pairs; ``None`` hands the pair to the general path."""
    if relation == codes.DISJOINT:
        return np.zeros((0, 2))
    if not _magnitude.tame_rows(ellipse) is True:
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
            if not _magnitude.tame_rows(straight) is True:
                return None
            out = np.full((capacity, 2), np.nan)
            count = kernel(ellipse._params, ellipse._verts, straight._params, straight._verts, relation, out)
            return out[:count].copy()
        px, py = x0, y0
        two_sum = _magnitude.error_free()[0]
        dx, dxl = two_sum(x1, -x0)
        dy, dyl = two_sum(y1, -y0)
    else:
        px, py, dx, dy = straight._params.tolist()
        dxl = dyl = 0.0
        radius = max(a, b)
        if (max(abs(px - cx), abs(py - cy)) <= 16.0 * radius and max(abs(dx), abs(dy)) >= radius / 16.0
                and _magnitude.tame_rows(straight) is True):
            # the stored point is already near the ellipse and the direction is not small:
            # the kernel's own frame loses nothing to speak of (the common case, at full speed)
            out = np.full((capacity, 2), np.nan)
            count = kernel(ellipse._params, ellipse._verts, straight._params, straight._verts, relation, out)
            return out[:count].copy()
    # _magnitude.foot_lines for one row, in plain floats
    e_dir = math.frexp(max(abs(dx), abs(dy)))[1]
    dx, dy = math.ldexp(dx, -e_dir), math.ldexp(dy, -e_dir)
    fx, fy = _magnitude.line_foot(cx, cy, px, py, dx, dy, math.ldexp(dxl, -e_dir), math.ldexp(dyl, -e_dir))
    size = max(min(a, b), math.ldexp(max(abs(cx), abs(cy), abs(fx), abs(fy)), -50))
    shift = math.frexp(size)[1] - math.frexp(max(abs(dx), abs(dy)))[1]
    row = np.array([fx, fy, math.ldexp(dx, shift), math.ldexp(dy, shift)])
    if not all(v == 0.0 or _magnitude.TAME_LO <= abs(v) <= _magnitude.TAME_HI for v in row.tolist()):
        return None
    out = np.full((capacity, 2), np.nan)
    line_kernel = kernel if name == "points_ellipse_line" else pair_kernel("points", "ellipse", "line")[1]
    count = line_kernel(ellipse._params, ellipse._verts, row, ellipse._verts, relation, out)
    return out[:count].copy()


def shape_areas(shape):
    """Area of every shape of a batch (0 for points, segments and lines): float64, batch shape."""
    params = shape._flat_params()
    if shape._kind == "ellipse":
        areas = np.pi * params[:, 2] * params[:, 3]
    elif shape._kind == "polygon":
        offset = params[:, 0].astype(np.int64)
        count = params[:, 1].astype(np.int64)
        if count.size:
            owner = np.repeat(np.arange(count.size), count)
            local = np.arange(owner.size) - np.repeat(np.cumsum(count) - count, count)
            i0 = offset[owner] + local
            i1 = offset[owner] + (local + 1) % count[owner]
            v = shape._verts
            origin = v[offset[owner]]
            p = v[i0] - origin
            q = v[i1] - origin
            areas = 0.5 * np.bincount(owner, weights=p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0], minlength=count.size)
        else:
            areas = np.zeros(0)
    elif shape._kind == "rounded":  # Steiner's formula (the shape's own area)
        areas = np.asarray(shape.area, dtype=np.float64).reshape(-1)
    else:
        areas = np.zeros(params.shape[0])
    return areas.reshape(shape.shape)


def overlap_area_values(a, b):
    """Area of the intersection of ``a`` and ``b``: a float for single shapes, else a float64 array."""
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind == "rounded" or b._kind == "rounded":
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if a._kind == "rounded" or b._kind == "rounded":
            return importlib.import_module("collide2d._rounded_overlay").overlap_area_values(a, b)
    if a._kind not in REGION_KINDS or b._kind not in REGION_KINDS:
        shape, _, _ = broadcast_indices(a, b)
        return 0.0 if not shape else np.zeros(shape)
    name, kernel, swapped = pair_kernel("area", a._kind, b._kind)
    first, second = (b, a) if swapped else (a, b)
    relation = relate_codes(first, second)
    if not first.shape and not second.shape:
        if not _magnitude.shapes_tame(first, second):  # extreme magnitudes: scaled pair
            return _magnitude.area_row(kernel, first._kind, first._params, first._verts,
                                       second._kind, second._params, second._verts, relation, pair_kernel)
        return float(kernel(first._params, first._verts, second._params, second._verts, relation))
    shape, index_a, index_b = broadcast_indices(first, second)
    relation = np.ascontiguousarray(relation, dtype=np.int8).ravel()
    out = np.empty(index_a.shape[0])
    if out.size:
        params_a, params_b = first._flat_params(), second._flat_params()
        loop = pair_loop("area", name)
        wild = _magnitude.wild_mask(first, second, index_a, index_b)
        if wild is None:
            loop(params_a, first._verts, index_a, params_b, second._verts, index_b, relation, out)
        else:
            tame = np.flatnonzero(~wild)
            part = np.empty(tame.size)
            loop(params_a, first._verts, index_a[tame], params_b, second._verts, index_b[tame], relation[tame], part)
            out[tame] = part
            for k in np.flatnonzero(wild):
                out[k] = _magnitude.area_row(kernel, first._kind, params_a[index_a[k]], first._verts,
                                             second._kind, params_b[index_b[k]], second._verts, int(relation[k]),
                                             pair_kernel)
    return out.reshape(shape)


def iou_values(a, b):
    """Intersection over union ``I / (area_a + area_b - I)``, clipped to [0, 1]; 0 when the union
    has no area."""
    inter = overlap_area_values(a, b)
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
        a, b = _rounded().plain_if_zero(a), _rounded().plain_if_zero(b)
        if b._kind == "rounded":
            return _rounded().covers_flags(a, b, table)
    code = relate_codes(a, b)
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

        start_in = relate_codes(sub_a, Point(rows[:, 0:2])) != codes.DISJOINT
        end_in = relate_codes(sub_a, Point(rows[:, 2:4])) != codes.DISJOINT
        out[touching] = start_in & end_in
    return out


def _broadcast_take(shape, batch, mask):
    """The shapes of ``shape`` broadcast to ``batch`` at the True entries of ``mask`` (a 1-D batch;
    a single shape stays single, as it broadcasts against any batch)."""
    if not shape.shape:
        return shape
    flat = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch)[mask]
    return shape[np.unravel_index(flat, shape.shape)]
