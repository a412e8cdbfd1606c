"""The rows of the rounded kind (capsules, rounded polygons and boxes), as the runner needs them.

The rounded kind's pair kernels are lines of the pair table (:mod:`collide2d._glue.registry`, the
rounded row first) run by the runner (:mod:`collide2d._glue.run`) like every other pair. What the
kind adds is read here:

* a row of radius 0 is its core: a polygon (count >= 3), a segment (2) or a point (1), and runs
  as that kind, with that kind's kernels, so that radius 0 gives today's answers bit for bit
  (:func:`plain_if_zero` for whole shapes, :func:`groups` for the rows of a batch);
* two rounded rows run in the order of their keys (:func:`second_first`), so that a pair gives
  the same bits in both orders;
* the outline of a row (:func:`outline`, for the converters).

A rounded row is ``offset, count, r, x0, y0, x1, y1`` (:mod:`collide2d.shapes`).
"""

from __future__ import annotations

import math

import numpy as np

KINDS = ("rounded", "ellipse", "polygon", "segment", "line", "point")
_CORE_KIND = {1: "point", 2: "segment"}  # else polygon


def core_kind(count):
    """The kind of a rounded row's core: ``polygon``, ``segment`` or ``point``."""
    return _CORE_KIND.get(int(count), "polygon")


def core_rows(params, kind):
    """The rows of the cores of rounded rows ``params`` (``(..., 7)``) as rows of ``kind``."""
    if kind == "polygon":
        return np.ascontiguousarray(params[..., 0:2])
    if kind == "segment":
        return np.ascontiguousarray(params[..., 3:7])
    return np.ascontiguousarray(params[..., 3:5])


def _effective(kind, table):
    """Per-row kind index into :data:`KINDS`: a rounded row of radius 0 counts as its core's kind."""
    if kind != "rounded":
        return np.full(len(table), KINDS.index(kind), dtype=np.int64)
    out = np.where(table[:, 1] >= 3, 2, np.where(table[:, 1] == 2, 3, 5))
    return np.where(table[:, 2] > 0.0, 0, out).astype(np.int64)


def as_kind(kind, table, target):
    """The table of rows of side kind ``kind`` seen as rows of ``target`` (a core kind)."""
    return core_rows(table, target) if kind == "rounded" and target != "rounded" else table


def _one_kind(kind, table):
    """Whether every row of the table is of its side's kind (no rounded row of radius 0)."""
    return kind != "rounded" or bool((table[:, 2] > 0.0).all())


def groups(kind_a, ta, ia, kind_b, tb, ib):
    """``(ka, kb, rows)``: the pairs ``ta[ia[k]]``, ``tb[ib[k]]`` grouped by their rows' kinds
    (a rounded row of radius 0 as its core's kind)."""
    if _one_kind(kind_a, ta) and _one_kind(kind_b, tb):  # every row keeps its kind: one group
        yield kind_a, kind_b, np.arange(ia.shape[0])
        return
    ea = _effective(kind_a, ta[ia])
    eb = _effective(kind_b, tb[ib])
    key = ea * len(KINDS) + eb
    if key.size and (key == key[0]).all():  # one group (the common case): no sorting
        yield KINDS[int(key[0]) // len(KINDS)], KINDS[int(key[0]) % len(KINDS)], np.arange(key.size)
        return
    for value in np.unique(key).tolist():
        rows = np.flatnonzero(key == value)
        yield KINDS[value // len(KINDS)], KINDS[value % len(KINDS)], rows


def core_groups(kind_a, ta, ia, kind_b, tb, ib):
    """``(ka, kb, rows)``: the pairs grouped by the kinds of their rows' cores (a rounded row's
    polygon, segment or point, whatever its radius; other rows their own kind)."""
    def kinds(kind, table):
        if kind != "rounded":
            return np.full(len(table), KINDS.index(kind), dtype=np.int64)
        return np.where(table[:, 1] >= 3, 2, np.where(table[:, 1] == 2, 3, 5)).astype(np.int64)

    key = kinds(kind_a, ta[ia]) * len(KINDS) + kinds(kind_b, tb[ib])
    for value in np.unique(key).tolist():
        yield KINDS[value // len(KINDS)], KINDS[value % len(KINDS)], np.flatnonzero(key == value)


def _keys(table, verts, index):
    """Sort keys of rounded rows ``table[index]``, column by column: count, radius and the first
    two core vertices (a point core's twice)."""
    rows = table[index]
    count = rows[:, 1]
    ends = count >= 2
    x0, y0 = rows[:, 3], rows[:, 4]
    x1, y1 = np.where(ends, rows[:, 5], x0), np.where(ends, rows[:, 6], y0)
    polygon = np.flatnonzero(count >= 3)
    if polygon.size:
        offset = rows[polygon, 0].astype(np.int64)
        x0, y0, x1, y1 = x0.copy(), y0.copy(), x1.copy(), y1.copy()
        x0[polygon], y0[polygon] = verts[offset, 0], verts[offset, 1]
        x1[polygon], y1[polygon] = verts[offset + 1, 0], verts[offset + 1, 1]
    return count, rows[:, 2], x0, y0, x1, y1


def second_first(ta, va, ia, tb, vb, ib):
    """Pairs of two rounded rows that the kernel takes in the order (b, a): those whose ``b`` has
    the smaller :func:`_keys` (compared lexicographically), so that a pair gives the same bits in
    both orders."""
    less = np.zeros(ia.shape[0], dtype=bool)
    same = np.ones(ia.shape[0], dtype=bool)
    for x, y in zip(_keys(ta, va, ia), _keys(tb, vb, ib)):  # b < a at the first column where they differ
        less |= same & (y < x)
        same &= y == x
    return less


_TAG = "rounded key"


def shape_key(shape):
    """The key of :func:`second_first` of a single rounded shape, as a list (cached in the shape's
    unused ``_scalar`` slot, tagged; a slot holding anything else is left alone)."""
    cached = shape._scalar
    if type(cached) is tuple and cached[0] == _TAG:
        return cached[1]
    key = row_key(shape._params, shape._verts)
    if cached is None:
        object.__setattr__(shape, "_scalar", (_TAG, key))
    return key


def row_key(row, verts):
    """The key of :func:`second_first` of one rounded row, as a list (compared as lists)."""
    values = row.tolist()
    count = int(values[1])
    if count >= 3:
        offset = int(values[0])
        return [values[1], values[2]] + verts[offset : offset + 2].ravel().tolist()
    return values[1:3] + values[3:5] + (values[5:7] if count == 2 else values[3:5])


def swapped_by_key(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """Whether the pair of rows is computed as ``(b, a)``: two rounded rows whose ``b`` has the
    smaller key (:func:`second_first` for one pair; the overlay's batch loops decide the same in
    :mod:`collide2d._kernels.overlay.order_rounded`)."""
    return kind_a == kind_b == "rounded" and row_key(row_b, verts_b) < row_key(row_a, verts_a)


def _plain(shape):
    """A rounded shape of radius 0 as a shape of its core's kind, with that kind's fields: a
    rounded Polygon, Box or RotatedBox as the plain class, a Capsule as a Segment (or a Point when
    its ends coincide)."""
    from collide2d import shapes

    fields = {name: value for name, value in shape._fields.items() if name != "radius"}
    if isinstance(shape, shapes.Capsule):
        kind = core_kind(shape._params.reshape(-1, 7)[0, 1]) if shape.size else "segment"
        if kind == "segment":
            cls, fields = shapes.Segment, {"start": fields["a"], "end": fields["b"]}
        else:
            cls, fields = shapes.Point, {"xy": fields["a"]}
    else:
        kind, cls = "polygon", type(shape).__mro__[2]  # (the private class, the mixin, the public class)
    new = object.__new__(cls)
    new._finish(fields, core_rows(shape._params, kind), shape._verts)
    return new


plain = _plain


def plain_batch(kind, table, verts):
    """A shape of the plain ``kind`` on the kernel rows ``table`` (no fields: for the glue only)."""
    from collide2d import shapes

    cls = {"ellipse": shapes.Ellipse, "polygon": shapes.Polygon, "segment": shapes.Segment,
           "line": shapes.Line, "point": shapes.Point}[kind]
    new = object.__new__(cls)
    new._finish({}, table, verts)
    return new


def is_rounded(shape):
    """Whether ``shape`` is of the rounded kind (a Capsule, or a Polygon, Box or RotatedBox built
    with a radius), for the modules that do not read a shape's private fields."""
    return shape._kind == "rounded"


def plain_if_zero(shape):
    """A rounded shape whose radii are all 0 and whose cores are of one kind, as a shape of that
    kind (the same rows as :class:`~collide2d.Segment`, :class:`~collide2d.Point` or
    :class:`~collide2d.Polygon` would store): every operation then answers as for it, bit for
    bit. Any other shape is returned as it is."""
    if shape._kind != "rounded":
        return shape
    rows = shape._params
    if rows.ndim == 1:
        return _plain(shape) if shape_key(shape)[1] == 0.0 else shape  # the radius (a cached float)
    counts = rows[..., 1]
    if rows.size and not np.any(rows[..., 2]) and (np.all(counts >= 3) or np.all(counts == counts.flat[0])):
        return _plain(shape)
    return shape


def far_apart(a, b, tame_rows):
    """Whether single shapes ``a`` and ``b`` are a rounded shape and an ellipse whose numbers no
    power of two tames (sizes far apart): their predicates are decided exactly and their contact
    is measured at the small shape's scale (:mod:`collide2d._robust.rounded_ellipse`), the float
    kernels' not. ``tame_rows``: :func:`collide2d._glue.run.tame_rows` (passed in: the flag it
    caches on each shape answers the common case)."""
    from collide2d._robust import magnitude

    if {a._kind, b._kind} != {"rounded", "ellipse"} or a._params.ndim != 1 or b._params.ndim != 1:
        return False
    if tame_rows(a) is True and tame_rows(b) is True:  # the common case
        return False
    r, e = (a, b) if a._kind == "rounded" else (b, a)
    return magnitude.rounded_shift("rounded", r._params, r._verts, "ellipse", e._params, e._verts)[1] is None


def small_moves(a, b, tame_rows):
    """Whether a motion search of the single shapes ``(a, b)`` should run as ``(b, a)``: a pair of
    :func:`far_apart`, ``a`` the smaller. The search moves ``b`` by the relative motion, and a
    shift of 2.5 of an ellipse of size 1e149 is lost in its rounding (the search never saw the
    pair come closer)."""
    from collide2d._robust import magnitude

    return far_apart(a, b, tame_rows) and magnitude.single_extent(a._kind, a._params, a._verts) < magnitude.single_extent(
        b._kind, b._params, b._verts)


def not_implemented(operation, a, b=None):
    """Raise ``NotImplementedError`` naming ``operation`` and the rounded kind."""
    names = [type(s).__name__ for s in (a, b) if s is not None and s._kind == "rounded"]
    raise NotImplementedError(
        f"{operation} is not implemented for the rounded kind yet ({', '.join(names)} with a radius); "
        "relate, the predicates, distance, contact, closest_point, intersection_points, overlap_area and iou are"
    )


# -- conversion: inscribed polygons of the outline -------------------------------------------------


def outline(row, verts, tolerance=None):
    """The boundary of one rounded row (``r > 0``) as a counter-clockwise ``(m, 2)`` array: each arc
    of radius ``r`` about a core vertex replaced by chords whose sagitta is at most ``tolerance``
    (default ``1e-3 r``), so the polygon lies inside the shape; the flat stretches are exact."""
    from collide2d.shapes import _core_vertices

    values = row.tolist()
    r = values[2]
    tol = 1e-3 * r if tolerance is None else float(tolerance)
    if not tol >= 1e-12 * r:
        raise ValueError(f"tolerance must be positive and at least 1e-12 times the radius ({1e-12 * r!r}), got {tol!r}")
    step = 2.0 * math.acos(max(1.0 - tol / r, 0.0)) if tol < 2.0 * r else math.pi / 2
    v = _core_vertices(values, verts)
    if len(v) == 1:
        m = max(8, math.ceil(2.0 * math.pi / step))
        theta = np.linspace(0.0, 2.0 * math.pi, m, endpoint=False)
        return v[0] + r * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    e = np.roll(v, -1, axis=0) - v
    angle = np.arctan2(-e[:, 0], e[:, 1])  # the direction of each edge's outward normal (ey, -ex)
    pieces = []
    for i in range(len(v)):
        start = angle[i - 1]
        turn = (angle[i] - start) % (2.0 * math.pi)
        if len(v) == 2:
            turn = math.pi
        m = max(1, math.ceil(turn / step))
        theta = start + np.linspace(0.0, turn, m + 1)
        pieces.append(v[i] + r * np.stack([np.cos(theta), np.sin(theta)], axis=-1))
    return np.concatenate(pieces)


def to_shapely(shape, tolerance):
    """:func:`collide2d.to_shapely` of a rounded shape: polygons of :func:`outline` (the core's
    own geometry where the radius is 0)."""
    import shapely

    rows = shape._flat_params()
    out = np.empty(len(rows), dtype=object)
    for k, row in enumerate(rows):
        if row[2] > 0.0:
            out[k] = shapely.Polygon(outline(row, shape._verts, tolerance))
        else:
            kind = core_kind(row[1])
            core = core_rows(row, kind)
            if kind == "point":
                out[k] = shapely.Point(core)
            elif kind == "segment":
                out[k] = shapely.LineString(core.reshape(2, 2))
            else:
                out[k] = shapely.Polygon(shape._verts[int(row[0]) : int(row[0]) + int(row[1])])
    return out[0] if not shape.shape else out.reshape(shape.shape)


def to_patch(shape, **kwargs):
    """:func:`collide2d.to_patch` of a single rounded shape: a polygon patch of :func:`outline`."""
    from matplotlib import patches

    row = shape._params
    if row[2] == 0.0:
        raise NotImplementedError("to_patch of a rounded shape of radius 0: use the Segment, Point or Polygon itself")
    return patches.Polygon(outline(row, shape._verts), closed=True, **kwargs)

