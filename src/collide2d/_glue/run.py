"""The runner: one skeleton for every pair operation, one small signature class per result type.

A call on two shapes always takes the same steps (as shapely's ``core_YY_b_operation`` serves its
scalar and ufunc paths, one line per predicate):

1. look the pair up in the table (:func:`collide2d._glue.registry.entry`): kernel, loop, swapped;
2. swap the shapes into the kernel's order when the caller's order is the other one;
3. single shapes: the kernel on the two rows (**scalar path**), or the robustness ladder for a
   pair at extreme magnitudes; batches: broadcast to row indices and run the **batch loop** over
   the tame rows, the ladder one row at a time over the **extreme rows**;
4. **undecided rows** (the float filter could not certify a sign) go to the exact rung;
5. **mirror** the result back into the caller's order, and **reshape** it to the batch shape.

What differs between operations (the output buffer, how a loop is called, what "undecided"
means, how a result is mirrored) is a *signature*: :class:`Codes`, :class:`Flags`,
:class:`ContactSig`, :class:`SeparationSig`, :class:`PointsSig`, :class:`AreaSig`. The rungs
themselves live in :mod:`collide2d._robust.ladder`.

This module and the registry are the only readers of a shape's private fields (``_kind``,
``_params``, ``_verts``, ``_flat_params()``, ``_tame``) in the library.

Why one file of about 1,000 lines: the skeleton (:func:`run`, :func:`rows`, :func:`mixed_rows` for a
batch whose rows are of several kinds), the signatures it calls and the entry points that call it
are one door; split, each part would import the others back.

Entry points: for shapes :func:`relate_codes`, :func:`intersects_flags`, :func:`contact_values`,
:func:`separation_values`, :func:`intersection_point_values`, :func:`overlap_area_values`; for
rows of parameter tables (the broad phase, motion) :func:`relate_rows`, :func:`contact_rows`,
:func:`separation_rows`.

Why this file is about 800 lines: it is the one door of the glue, the skeleton and the signatures
that fill it in, each signature a few methods that only the skeleton calls; kept in one module so
that a reader follows a call from an entry point through the skeleton to its signature on one page.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d import _geometry
from collide2d._glue import registry
from collide2d._glue import rounded as _rounded
from collide2d._glue.registry import AREA, CONTACT, INTERSECTS, MANIFOLD, PERRAM_WERTHEIM, POINTS, RAY, RAY_HIT, RELATE, SEPARATION
from collide2d._kernels import codes
from collide2d._robust import ladder, magnitude
from collide2d._tolerances import EPS, TAME_HI, TAME_LO
from collide2d.shapes import Shape, _rebuild

__all__ = [
    "broadcast_indices", "check_shape", "contact_rows", "contact_values", "flat_rows", "intersection_point_values",
    "intersects_flags", "kind_of", "overlap_area_values", "relate_codes", "relate_rows", "separation_rows",
    "separation_values", "shape_rows",
]

# MIRROR_RELATION[code] is the code of the swapped pair (CONTAINS <-> WITHIN).
MIRROR_RELATION = np.array([0, 1, 2, 4, 3, 5, 6], dtype=np.int8)
_MIRROR_CODE = (0, 1, 2, 4, 3, 5, 6)  # the same as a tuple, for single pairs (no NumPy scalar)

# Column permutation and signs that turn a contact row of (b, a) into the row of (a, b):
# separation kept, normal negated, witnesses and curvatures swapped.
_CONTACT_MIRROR = np.array([0, 1, 2, 5, 6, 3, 4, 8, 7])
_CONTACT_MIRROR_SIGN = np.array([1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])

REGION_KINDS = ("ellipse", "polygon")


def rounded():
    """The rows of the rounded kind (:mod:`collide2d._glue.rounded`: ``plain_if_zero``, ...)."""
    return _rounded


def plain_or_refuse(operation, *shapes):
    """The arguments with rounded shapes of radius 0 as their cores' kinds (the same answers, bit
    for bit); ``NotImplementedError`` when a rounded shape of radius > 0 remains, which
    ``operation`` does not take yet. Arguments that are not shapes pass as they are."""
    if not any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        return shapes
    shapes = tuple(_rounded.plain_if_zero(s) if isinstance(s, Shape) else s for s in shapes)
    if any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        _rounded.not_implemented(operation, *shapes[:2])
    return shapes


def check_shape(value, name):
    """Raise ``TypeError`` unless ``value`` is a collide2d shape."""
    if not isinstance(value, Shape):
        raise TypeError(f"{name} must be a collide2d shape (Point, Circle, Ellipse, ...), got {type(value).__name__}")


def shape_rows(shape):
    """The kernel rows of a shape: its kind, its parameter table (batch shape plus the row axis)
    and the polygon vertices its rows index (else an empty array). The one read of a shape's
    private fields for the modules above the glue (geometry, translations, the broad phase)."""
    return shape._kind, shape._params, shape._verts


def flat_rows(shape):
    """Like :func:`shape_rows` with the parameter table flattened to ``(size, P)``."""
    return shape._kind, shape._flat_params(), shape._verts


def shape_like(shape, fields, params, verts):
    """A new shape of the class of ``shape`` with the given fields and kernel rows (which the
    caller keeps consistent, e.g. both moved by the same sums: :func:`collide2d._pairs.translate`)."""
    return _rebuild(type(shape), fields, params, verts)


def kind_of(shape):
    """The kernel kind of a shape (``"point"``, ``"segment"``, ``"line"``, ``"ellipse"``,
    ``"polygon"``)."""
    return shape._kind


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


_LENGTH_COLUMNS = {"ellipse": 4, "segment": 4, "line": 4, "point": 2}  # the coordinates and sizes of a row


def tame_rows(shape):
    """``True`` when every row of ``shape`` is tame, else a bool array over its flat rows (cached
    on the shape; see :mod:`collide2d._robust.magnitude`).

    A single shape is tested here in plain Python (no NumPy, no other module: the common path of a
    predicate on new shapes stays in this module); batches by :func:`ladder.table_tame`.
    """
    tame = shape._tame
    if tame is None:
        kind, params = shape._kind, shape._params
        if params.ndim == 1:
            if kind == "polygon" or kind == "rounded" and params[1] >= 3:
                offset, count = int(params[0]), int(params[1])
                values = shape._verts[offset : offset + count].ravel().tolist()
                if kind == "rounded":
                    values.append(float(params[2]))
            elif kind == "rounded":  # the radius and the end points
                values = params[2:7].tolist()
            else:
                values = params[: _LENGTH_COLUMNS[kind]].tolist()
            tame = all(v == 0.0 or TAME_LO <= abs(v) <= TAME_HI for v in values)
            if kind == "ellipse":  # a direction turned from an axis by less than TAME_LO rad is wild
                wx, wy = abs(float(params[4])), abs(float(params[5]))
                tame = tame and (min(wx, wy) == 0.0 or min(wx, wy) >= TAME_LO * max(wx, wy))
            tame = tame or np.zeros(1, dtype=bool)
        else:
            rows = ladder.table_tame(kind, shape._flat_params(), shape._verts)
            tame = True if rows.all() else rows
        object.__setattr__(shape, "_tame", tame)
    return tame


# -- signatures: what differs between operations --------------------------------------------------


class Signature:
    """What one result type needs from the skeleton; the defaults suit a plain array result with
    nothing to settle and nothing to mirror. ``extra`` is what the loop takes beyond the rows
    (the relation codes of points and area), one entry per row."""

    @staticmethod
    def empty(n, extra):
        return np.empty(n)

    @classmethod
    def take(cls, buf, rows):
        """A fresh buffer for ``rows`` of ``buf`` (the tame rows of a batch with extreme rows)."""
        return cls.empty(rows.size, None)

    @staticmethod
    def put(buf, rows, part):
        buf[rows] = part

    @staticmethod
    def part_extra(extra, rows):
        return None if extra is None else extra[rows]

    @staticmethod
    def row_extra(extra, k):
        return None if extra is None else extra[k]

    @staticmethod
    def swap_extra(extra):
        """``extra`` for the rows taken in the other order (a relation mirrored)."""
        return extra

    @staticmethod
    def settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, extra, buf):
        """Undecided rows to the exact rung (nothing by default)."""

    @staticmethod
    def mirror_single(value):
        return value

    @staticmethod
    def mirror(buf):
        return buf

    @staticmethod
    def finish_single(value):
        return value

    @staticmethod
    def reshape(buf, shape):
        return buf.reshape(shape)


class Codes(Signature):
    """Relation codes (int8; an int for single pairs), or 1/0 of a dedicated ``intersects`` kernel."""

    @staticmethod
    def empty(n, extra):
        return np.empty(n, dtype=np.int8)

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        loop(pa, va, ia, pb, vb, ib, EPS, buf)

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        if not tame:
            return ladder.code_row(entry, kind_a, pa, va, kind_b, pb, vb)
        code = entry.kernel(pa, va, pb, vb, EPS)
        if code == codes.UNDECIDED:
            code = ladder.exact_code(entry.name, kind_a, pa, va, kind_b, pb, vb)
        return code

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        buf[k] = ladder.code_row(entry, kind_a, pa, va, kind_b, pb, vb)

    @staticmethod
    def settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, extra, buf):
        for k in np.flatnonzero(buf == codes.UNDECIDED):
            buf[k] = ladder.exact_code(entry.name, kind_a, pa[ia[k]], va, kind_b, pb[ib[k]], vb)


class Relations(Codes):
    """Relation codes, mirrored (``CONTAINS`` <-> ``WITHIN``) for the swapped order."""

    @staticmethod
    def mirror_single(code):
        return _MIRROR_CODE[code]

    @staticmethod
    def mirror(buf):
        return MIRROR_RELATION[buf]

    @staticmethod
    def finish_single(code):
        return int(code)


class Flags(Codes):
    """1/0 flags of an ``intersects`` kernel as bools; intersection is symmetric."""

    @staticmethod
    def finish_single(flag):
        return flag != 0

    @staticmethod
    def reshape(buf, shape):
        return buf.view(np.bool_).reshape(shape)


class ContactSig(Signature):
    """9 floats per pair: separation, normal, the two witness points, the two curvatures."""

    @staticmethod
    def empty(n, extra):
        return np.empty((n, 9))

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        loop(pa, va, ia, pb, vb, ib, buf)

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        if tame:
            r = entry.kernel(pa, va, pb, vb)  # 9 Python floats
        else:
            r = ladder.contact_row(entry, kind_a, pa, va, kind_b, pb, vb, registry.entry)
        if kind_a == "rounded":  # the separation's sign made exact here (rung 5), within the band
            scale = magnitude.single_extent(kind_a, pa, va) + magnitude.single_extent(kind_b, pb, vb)
            if not ladder.outside_band(r[0], scale):
                code = Codes.single(registry.entry(RELATE, kind_a, kind_b), kind_a, pa, va, kind_b, pb, vb, None, tame)
                r = (ladder.fixed_sign(r[0], code),) + tuple(r[1:])
        return r

    @staticmethod
    def settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, extra, buf):
        """Pairs with a rounded shape: the separation's sign made exact within the band (rung 5),
        as :func:`single` does."""
        if kind_a != "rounded" or not ia.shape[0]:
            return
        sep = buf[:, 0] if buf.ndim == 2 else buf
        # the rows inside the band of a bound of every row's scale first (a superset), then those
        # inside their own rows' band (the per-row extents of a polygon core cost a gather)
        near = ladder.near_rows(sep, _table_extent(kind_a, pa, va) + _table_extent(kind_b, pb, vb))
        if near.size:
            scale = magnitude.extent_rows(kind_a, pa[ia[near]], va) + magnitude.extent_rows(kind_b, pb[ib[near]], vb)
            near = near[ladder.near_rows(sep[near], scale)]
        if near.size:
            ja, jb = ia[near], ib[near]
            code = rows(Codes, registry.entry(RELATE, kind_a, kind_b), kind_a, pa, va, ja, used_tame(kind_a, pa, va, ja),
                        kind_b, pb, vb, jb, used_tame(kind_b, pb, vb, jb))
            sep[near] = ladder.fix_signs(sep[near], code)

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        buf[k] = ladder.contact_row(entry, kind_a, pa, va, kind_b, pb, vb, registry.entry)

    @staticmethod
    def mirror_single(r):
        return (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])

    @staticmethod
    def mirror(buf):
        out = buf[:, _CONTACT_MIRROR] * _CONTACT_MIRROR_SIGN
        out[:, 1:3] += 0.0  # no -0.0 normal components
        return out

    @staticmethod
    def reshape(buf, shape):
        return buf.reshape(shape + (9,))


class SeparationSig(ContactSig):
    """The separation alone: loops that store one column (the compiler drops the rest); the
    separation of the swapped pair is the same."""

    @staticmethod
    def empty(n, extra):
        return np.empty(n)

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        return ContactSig.single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame)[0]

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        buf[k] = ladder.contact_row(entry, kind_a, pa, va, kind_b, pb, vb, registry.entry)[0]

    mirror_single = staticmethod(Signature.mirror_single)
    mirror = staticmethod(Signature.mirror)
    reshape = staticmethod(Signature.reshape)


class AreaSig(Signature):
    """The overlap area; ``extra`` is the relation code of each pair (kernel order)."""

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, relation, buf):
        loop(pa, va, ia, pb, vb, ib, relation, buf)

    @staticmethod
    def swap_extra(relation):
        return _MIRROR_CODE[relation] if type(relation) is int else MIRROR_RELATION[relation]

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, relation, tame):
        if not tame:
            area = ladder.area_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, registry.entry)
        else:
            area = float(entry.kernel(pa, va, pb, vb, relation))
        if area != area and kind_a == "rounded":  # a nested pair: the inner shape's own area
            kind, row, verts = (kind_b, pb, vb) if relation == codes.CONTAINS else (kind_a, pa, va)
            area = float(_geometry.plain_areas(kind, row[None], verts)[0])
        return area

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, relation, buf, k):
        relation = int(relation)
        if _rounded.swapped_by_key(kind_a, pa, va, kind_b, pb, vb):  # as the batch loop: in key order
            kind_a, pa, va, kind_b, pb, vb, relation = kind_b, pb, vb, kind_a, pa, va, _MIRROR_CODE[relation]
        buf[k] = ladder.area_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, registry.entry)

    @staticmethod
    def settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, relation, buf):
        """Pairs with a rounded shape: a nested pair's area is the inner shape's own."""
        if kind_a != "rounded":
            return
        nested = np.flatnonzero(buf != buf)
        if nested.size:
            inner = relation[nested] == codes.CONTAINS
            for mask, kind, table, verts, index in ((inner, kind_b, pb, vb, ib), (~inner, kind_a, pa, va, ia)):
                if mask.any():
                    buf[nested[mask]] = _geometry.plain_areas(kind, table[index[nested[mask]]], verts)


def _touching_witness(kind_a, pa, va, kind_b, pb, vb, second, out, count):
    """A touching pair (the rounded row first) whose points kernel asked for a decision: ``count``
    -3 (rounding hid the crossings) or ``-10 - k`` (``k`` points found, in ``out``). The boundaries
    of two touching convex regions share one point, or a segment when both are flat there: unless
    the contact is flat on both sides, the witness of the contact on the caller's first shape
    (``second``: the kernel's ``b``) in ``out[0]`` and the count 1; else the ``k`` points."""
    r = contact_pair(kind_a, pa, va, kind_b, pb, vb)
    if count <= -10 and r[7] == 0.0 and r[8] == 0.0:
        return -10 - count
    out[0] = r[5:7] if second else r[3:5]
    out[1:] = np.nan
    return 1


class PointsSig(Signature):
    """Boundary intersection points: ``extra`` is ``(relation, capacity)``, or ``(relation,
    capacity, second)`` with ``second`` true when the kernel takes the caller's shapes in the other
    order; the buffer is ``(out, count)`` with ``out`` NaN-padded; a negative count asks for an
    exact decision (-1, -2: two ellipses, :func:`ladder.resolve_points`; -3 and ``-10 - k``: a
    touching pair with a rounded shape, :func:`_touching_witness`). Points do not depend on the order of the shapes:
    nothing to mirror."""

    @staticmethod
    def swap_extra(extra):
        relation = extra[0]
        relation = _MIRROR_CODE[relation] if type(relation) is int else MIRROR_RELATION[relation]
        return relation, extra[1], not (extra[2:] and extra[2])

    @staticmethod
    def empty(n, extra):
        return np.full((n, extra[1], 2), np.nan), np.zeros(n, dtype=np.int64)

    @staticmethod
    def take(buf, rows):
        return buf[0][rows], buf[1][rows]

    @staticmethod
    def put(buf, rows, part):
        buf[0][rows], buf[1][rows] = part

    @staticmethod
    def part_extra(extra, rows):
        return (extra[0][rows],) + extra[1:]

    @staticmethod
    def row_extra(extra, k):
        return extra[0][k]

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        loop(pa, va, ia, pb, vb, ib, extra[0], buf[0], buf[1])

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        relation, capacity = extra[0], extra[1]
        out = np.full((capacity, 2), np.nan)
        if not tame:
            count = ladder.points_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, out, registry.entry)
        else:
            count = entry.kernel(pa, va, pb, vb, relation, out)
            count = ladder.resolve_points(pa, pb, relation, out, count)
        if count == -3 or count <= -10:
            count = _touching_witness(kind_a, pa, va, kind_b, pb, vb, extra[2:] and extra[2], out, count)
        return out[:count].copy()

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, relation, buf, k):
        relation = int(relation)
        if _rounded.swapped_by_key(kind_a, pa, va, kind_b, pb, vb):  # as the batch loop: in key order
            kind_a, pa, va, kind_b, pb, vb, relation = kind_b, pb, vb, kind_a, pa, va, _MIRROR_CODE[relation]
        buf[1][k] = ladder.points_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, buf[0][k], registry.entry)

    @staticmethod
    def settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, extra, buf):
        out, count = buf
        for k in np.flatnonzero(count < 0):
            if count[k] == -3 or count[k] <= -10:
                first, second = (kind_a, pa[ia[k]], va), (kind_b, pb[ib[k]], vb)
                swapped = bool(extra[2:] and extra[2])
                if _rounded.swapped_by_key(*first, *second):  # as the batch loop: in key order
                    first, second, swapped = second, first, not swapped
                count[k] = _touching_witness(*first, *second, swapped, out[k], int(count[k]))
            else:
                count[k] = ladder.resolve_points(pa[ia[k]], pb[ib[k]], int(extra[0][k]), out[k], int(count[k]))

    @staticmethod
    def reshape(buf, shape):
        return buf[0].reshape(shape + buf[0].shape[1:]), buf[1].reshape(shape)


class PerramWertheimSig(Signature):
    """Six floats per pair (point, normal, scale, approach distance); float answers: nothing to
    settle, a symmetric table entry; rows of sizes far apart go to :func:`ladder.perram_wertheim_row`."""

    @staticmethod
    def empty(n, extra):
        return np.empty((n, 6))

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        loop(pa, va, ia, pb, vb, ib, buf)

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        if tame:
            return entry.kernel(pa, va, pb, vb)
        return ladder.perram_wertheim_row(entry, pa, va, pb, vb)

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        buf[k] = ladder.perram_wertheim_row(entry, pa, va, pb, vb)

    @staticmethod
    def reshape(buf, shape):
        return buf.reshape(shape + (6,))


class ManifoldSig(Signature):
    """The 13 numbers of a contact manifold (count, normal, two separations, two points on each
    side) per pair; ``extra`` is ``(contacts, margin)`` or ``(contacts, margin, radius_a,
    radius_b)``: the pairs' 9 contact numbers (rows in the caller's order, which is the kernel's:
    manifold entries are never swapped), the largest separation kept, and the radii the points move
    out by (a rounded shape's core runs the kernel; one per row, 0 by default). Float answers built
    on a decided contact: nothing to settle; an extreme row runs the same kernel on its own."""

    @staticmethod
    def empty(n, extra):
        return np.empty((n, 13))

    @staticmethod
    def part_extra(extra, rows):
        return (extra[0][rows], extra[1]) + tuple(r[rows] for r in extra[2:])

    @staticmethod
    def row_extra(extra, k):
        return (tuple(extra[0][k].tolist()), extra[1]) + tuple(float(r[k]) for r in extra[2:])

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        if len(extra) == 2:
            zeros = np.zeros(ia.shape[0])  # no radii: the shapes' own boundaries
            extra = extra + (zeros, zeros)
        contacts, margin, radius_a, radius_b = extra
        loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, buf)

    @staticmethod
    def single(entry, kind_a, pa, va, kind_b, pb, vb, extra, tame):
        contact, margin, radius_a, radius_b = extra if len(extra) == 4 else extra + (0.0, 0.0)
        return entry.kernel(pa, va, pb, vb, contact, radius_a, radius_b, margin)

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        contact, margin, radius_a, radius_b = extra if len(extra) == 4 else extra + (0.0, 0.0)
        buf[k] = entry.kernel(pa, va, pb, vb, contact, radius_a, radius_b, margin)

    @staticmethod
    def reshape(buf, shape):
        return buf  # flat (rows, 13): the caller picks its columns


class RaySig(Signature):
    """A shape against ray rows: the buffer is ``(code, feature, out)``, ``out`` the 5 numbers of
    the hit (distance, point, normal) NaN-padded. A row at extreme magnitudes, or whose decision the
    float filter left open, is decided exactly (:func:`ladder.exact_ray`) and then measured."""

    @staticmethod
    def empty(n, extra):
        return np.empty(n, dtype=np.int8), np.zeros(n, dtype=np.int64), np.full((n, 5), np.nan)

    @staticmethod
    def put(buf, rows, part):
        buf[0][rows], buf[1][rows], buf[2][rows] = part

    @staticmethod
    def call_loop(loop, pa, va, ia, pb, vb, ib, extra, buf):
        loop(pa, va, ia, pb, vb, ib, EPS, buf[0], buf[1], buf[2])

    @staticmethod
    def row(entry, kind_a, pa, va, kind_b, pb, vb, extra, buf, k):
        buf[0][k] = codes.UNDECIDED  # settled below, with the rows the float filter left open

    @staticmethod
    def settle(entry, kind, pa, va, ia, kind_b, rays, vb, ib, extra, buf):
        code, feature, out = buf
        measure = registry.entry(RAY_HIT, kind, "ray").kernel
        for k in np.flatnonzero(code == codes.UNDECIDED):
            row, ray = pa[ia[k]], rays[ib[k]]
            code[k], feature[k] = ladder.exact_ray(entry, kind, row, va, ray)
            out[k] = measure(row, va, ray, int(code[k]), int(feature[k]))


# -- the skeleton, written once ------------------------------------------------------------------


def rows(sig, entry, kind_a, pa, va, ia, tame_a, kind_b, pb, vb, ib, tame_b, extra=None):
    """The answers of ``entry`` on rows ``pa[ia[k]]`` against ``pb[ib[k]]`` (kernel order, no
    mirroring): the batch loop on tame rows, the ladder one row at a time on extreme rows, then
    the exact rung on undecided rows. ``tame_a``/``tame_b``: ``True`` or per-row flags."""
    n = ia.shape[0]
    buf = sig.empty(n, extra)
    if n:
        wild = ladder.wild_mask(ia, ib, tame_a, tame_b)
        if wild is None:
            sig.call_loop(entry.loop(), pa, va, ia, pb, vb, ib, extra, buf)
        else:
            tame = np.flatnonzero(~wild)
            if tame.size:
                part = sig.take(buf, tame)
                sig.call_loop(entry.loop(), pa, va, ia[tame], pb, vb, ib[tame], sig.part_extra(extra, tame), part)
                sig.put(buf, tame, part)
            for k in np.flatnonzero(wild):
                sig.row(entry, kind_a, pa[ia[k]], va, kind_b, pb[ib[k]], vb, sig.row_extra(extra, k), buf, k)
    sig.settle(entry, kind_a, pa, va, ia, kind_b, pb, vb, ib, extra, buf)
    return buf


def used_tame(kind, table, verts, index):
    """:func:`tame_rows` of the rows ``table[index]`` only (the other rows of a mixed table may be
    of other kinds): ``True`` when all are tame, else per-row flags over ``table``."""
    tame = ladder.table_tame(kind, table[index], verts)
    if tame.all():
        return True
    out = np.ones(table.shape[0], dtype=bool)
    out[index] = tame
    return out


def mixed_rows(sig, operation, kind_a, ta, va, ia, kind_b, tb, vb, ib, extra=None, special=None, tame=(None, None)):
    """:func:`rows` for kinds one of which is ``"rounded"``, in the caller's order (mirrored back;
    ``extra`` in the caller's order too).

    The pairs are grouped by the kinds of their rows (a rounded row of radius 0 as its core's
    kind: :func:`collide2d._glue.rounded.groups`), and each group runs its own table entry; two
    rounded rows run in the order of their keys (:func:`collide2d._glue.rounded.second_first`; not
    for codes, which are exact in either order; points and areas in one pass, whose loops take
    each pair in key order themselves). ``tame``: each side's :func:`tame_rows` when known
    (a shape's, cached), used for the groups that take that side's rows as they are.
    A group without an entry: ``INTERSECTS`` answers ``relate != DISJOINT``, ``AREA`` 0.
    ``special`` maps a kernel's name to the function that answers its group instead,
    ``f(entry, kind_a, table_a, verts_a, kind_b, table_b, verts_b, extra) -> buffer`` on the
    group's rows in kernel order (the points of an ellipse and a line: :mod:`collide2d._glue.points`).
    """
    n = ia.shape[0]
    buf = None  # made when the rows come in more than one part
    for ka, kb, group in _rounded.groups(kind_a, ta, ia, kind_b, tb, ib):
        xa, xb = _rounded.as_kind(kind_a, ta, ka), _rounded.as_kind(kind_b, tb, kb)
        entry, part_sig = registry.entry(operation, ka, kb), sig
        if entry is None and operation != INTERSECTS:  # no area between these kinds
            buf = sig.empty(n, extra) if buf is None else buf
            buf[group] = 0.0
            continue
        if entry is None:
            entry, part_sig = registry.entry(RELATE, ka, kb), Codes
        if ka == kb == "rounded" and part_sig in (PointsSig, AreaSig):
            parts = ((group, False),)  # their loops (and rows, settle) take each pair in key order
        elif ka == kb == "rounded" and not issubclass(part_sig, Codes):
            flip = _rounded.second_first(xa, va, ia[group], xb, vb, ib[group])
            parts = ((group[~flip], False), (group[flip], True))
        else:
            parts = ((group, entry.swapped),)
        for part, swapped in parts:
            if not part.size:
                continue
            ja, jb = ia[part], ib[part]
            part_extra = None if extra is None else sig.part_extra(extra, part)
            if swapped:
                part_extra = None if extra is None else sig.swap_extra(part_extra)
                ka_, xa_, va_, ja_, kb_, xb_, vb_, jb_ = kb, xb, vb, jb, ka, xa, va, ja
            else:
                ka_, xa_, va_, ja_, kb_, xb_, vb_, jb_ = ka, xa, va, ja, kb, xb, vb, jb
            tame_a = tame[0] if ka == kind_a and tame[0] is not None else None
            tame_b = tame[1] if kb == kind_b and tame[1] is not None else None
            if tame_a is None:
                tame_a = used_tame(ka, xa, va, ja)
            if tame_b is None:
                tame_b = used_tame(kb, xb, vb, jb)
            if swapped:
                tame_a, tame_b = tame_b, tame_a
            if special is not None and entry.name in special:
                out = special[entry.name](entry, ka_, xa_[ja_], va_, kb_, xb_[jb_], vb_, part_extra)
            else:
                out = rows(part_sig, entry, ka_, xa_, va_, ja_, tame_a, kb_, xb_, vb_, jb_, tame_b, part_extra)
            if swapped:
                out = part_sig.mirror(out)
            if part_sig is not sig:
                out = (out != codes.DISJOINT).astype(np.int8)
            elif part.size == n:  # one part of every row (in order: the parts are increasing): no copy
                return out
            buf = sig.empty(n, extra) if buf is None else buf
            sig.put(buf, part, out)
    return sig.empty(n, extra) if buf is None else buf


def run(sig, entry, a, b, extra=None, swap=True, special=None):
    """``sig``'s answer for the shapes ``a`` and ``b`` (caller's order): scalar path or batch,
    mirrored back when the table holds the pair in the other order, reshaped to the batch.

    ``extra`` (relations for points and area) is already in the kernel's order. Two rounded shapes
    run in the order of their keys; a batch with a rounded shape runs :func:`mixed_rows` (with
    ``special``).
    """
    swapped = entry.swapped
    if a._params.ndim == 1 and b._params.ndim == 1:  # scalar path: the same kernel, no loop
        if a._kind == "rounded" == b._kind:
            swapped = _rounded.shape_key(b) < _rounded.shape_key(a)
            if swapped and extra is not None:
                extra = sig.swap_extra(extra)
        first, second = (b, a) if swapped else (a, b)
        tame = tame_rows(first) is True and tame_rows(second) is True
        value = sig.single(entry, first._kind, first._params, first._verts, second._kind, second._params,
                           second._verts, extra, tame)
        if swapped and swap:
            value = sig.mirror_single(value)
        return sig.finish_single(value)
    if a._kind == "rounded" or b._kind == "rounded":
        shape, index_a, index_b = broadcast_indices(a, b)
        if swapped and extra is not None:
            extra = sig.swap_extra(extra)  # mixed_rows takes it in the caller's order
        buf = mixed_rows(sig, entry.operation, a._kind, a._flat_params(), a._verts, index_a,
                         b._kind, b._flat_params(), b._verts, index_b, extra, special, (tame_rows(a), tame_rows(b)))
        return sig.reshape(buf, shape)
    first, second = (b, a) if swapped else (a, b)
    shape, index_a, index_b = broadcast_indices(first, second)
    buf = rows(sig, entry, first._kind, first._flat_params(), first._verts, index_a, tame_rows(first),
               second._kind, second._flat_params(), second._verts, index_b, tame_rows(second), extra)
    if swapped and swap:
        buf = sig.mirror(buf)
    return sig.reshape(buf, shape)


# -- entry points for shapes ---------------------------------------------------------------------


def checked_pair(a, b):
    """``a`` and ``b`` checked as shapes, a rounded shape whose radii are all 0 replaced by its core
    (the core's kernels then answer, bit for bit), and whether a rounded shape is left."""
    check_shape(a, "a")
    check_shape(b, "b")
    if a._kind != "rounded" and b._kind != "rounded":
        return a, b, False
    a, b = _rounded.plain_if_zero(a), _rounded.plain_if_zero(b)
    return a, b, a._kind == "rounded" or b._kind == "rounded"


def relate_codes(a, b):
    """Relation codes of ``a`` against ``b``: an int for single shapes, else an int8 array."""
    a, b, _ = checked_pair(a, b)
    return checked_relate_codes(a, b)


def checked_relate_codes(a, b):
    """:func:`relate_codes` of a pair already through :func:`checked_pair`."""
    return run(Relations, registry.entry(RELATE, a._kind, b._kind), a, b)


def intersects_flags(a, b):
    """Whether ``a`` and ``b`` share a point: a bool for single shapes, else a bool array.

    The pair's dedicated ``intersects`` kernel when there is one (it skips the containment
    classification), else ``relate`` codes ``!= DISJOINT``.
    """
    a, b, _ = checked_pair(a, b)
    entry = registry.entry(INTERSECTS, a._kind, b._kind)
    if entry is None:
        return relate_codes(a, b) != codes.DISJOINT  # a bool for single shapes (int codes)
    return run(Flags, entry, a, b)


def contact_values(a, b):
    """Contact of ``a`` against ``b`` as 9 numbers per pair.

    ``(separation, nx, ny, pax, pay, pbx, pby, curvature_a, curvature_b)``: a tuple of Python
    floats for single shapes, else a float64 array of shape ``batch + (9,)``.
    """
    a, b, _ = checked_pair(a, b)
    return run(ContactSig, registry.entry(CONTACT, a._kind, b._kind), a, b)


def separation_values(a, b):
    """The separation alone: a Python float for single shapes, else a float64 array."""
    a, b, _ = checked_pair(a, b)
    return run(SeparationSig, registry.entry(SEPARATION, a._kind, b._kind), a, b)


def overlap_area_values(a, b):
    """Area of the intersection of ``a`` and ``b``: a float for single shapes, else a float64 array."""
    a, b, _ = checked_pair(a, b)
    entry = registry.entry(AREA, a._kind, b._kind)
    if entry is None:  # a point, a segment or a line has no area
        shape, _, _ = broadcast_indices(a, b)
        return 0.0 if not shape else np.zeros(shape)
    first, second = (b, a) if entry.swapped else (a, b)
    relation = checked_relate_codes(first, second)
    if first._params.ndim != 1 or second._params.ndim != 1:
        relation = np.ascontiguousarray(relation, dtype=np.int8).ravel()
    return run(AreaSig, entry, a, b, relation)


def _single_scale(shape):
    """:func:`ladder.row_scale` of a single shape, as a Python float (no array operations)."""
    p = shape._params.tolist()
    kind = shape._kind
    if kind == "ellipse":  # centre and semi-axes
        return max(abs(p[0]), abs(p[1]), p[2], p[3])
    if kind == "polygon":
        v = shape._verts[int(p[0]) : int(p[0]) + int(p[1])]
        return float(np.abs(v).max()) if v.size else 0.0
    if kind == "line":
        return max(abs(p[0]), abs(p[1]))
    return max(map(abs, p))


def _table_extent(kind, table, verts):
    """An upper bound of :func:`magnitude.extent_rows` over all rows of ``table`` (a float): the
    largest magnitude in the whole table (an ellipse's direction, a rounded row's offset and count
    included: a larger bound only widens the superset), a contiguous reduction, ten to twenty
    times faster than one over the strided columns."""
    if kind == "polygon":
        values = verts
    else:
        values = (table, verts) if kind == "rounded" and verts.size else table
    bound = 0.0
    for v in values if type(values) is tuple else (values,):
        if v.size:
            bound = max(bound, float(v.max()), -float(v.min()))  # no |table| copy
    return bound


def _global_scale(shape):
    """An upper bound of :func:`ladder.row_scale` over all rows (a float)."""
    table = shape._verts if shape._kind == "polygon" else shape._params
    return max(float(table.max()), -float(table.min())) if table.size else 0.0  # no |table| copy


def sign_consistent(a, b, sep):
    """Make the sign of the separation agree with the exact predicates (the ladder's rung 4); return it.

    ``sep`` is a float for single shapes, else a 1-D float64 array (possibly a strided view) over
    the flattened batch, changed in place. ``separation > 0`` exactly when the exact
    :func:`collide2d.intersects` is false, and ``separation == 0.0`` exactly for pairs whose exact
    relation is ``TOUCHING``. Only the pairs inside the band (:func:`ladder.outside_band`; first
    against a bound of the scale over the whole batch, then against the scale of each pair) pay for
    their exact relation. Normals and witness points are left as computed.
    """
    if not isinstance(sep, np.ndarray):
        if ladder.outside_band(sep, _single_scale(a) + _single_scale(b)):
            return sep
        return ladder.fixed_sign(sep, relate_codes(a, b))
    if sep.size == 0:
        return sep
    near = ladder.near_rows(sep, _global_scale(a) + _global_scale(b))
    if near.size:
        _, index_a, index_b = broadcast_indices(a, b)
        s = sep[near]
        sign_consistent_rows(a._kind, a._flat_params(), a._verts, index_a[near],
                             b._kind, b._flat_params(), b._verts, index_b[near], s)
        sep[near] = s
    return sep


def sign_consistent_rows(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, ib, sep):
    """:func:`sign_consistent` of the kernel rows ``params_a[ia[k]]``, ``params_b[ib[k]]``.

    ``sep`` (float64, one entry per pair, contiguous) holds their float separations and is changed
    in place, so that ``max(sep, 0)`` is the distance of each pair.
    """
    scale = ladder.row_scale(kind_a, params_a[ia], verts_a) + ladder.row_scale(kind_b, params_b[ib], verts_b)
    near = ladder.near_rows(sep, scale)
    if near.size:
        code = relate_rows(kind_a, params_a, verts_a, ia[near], kind_b, params_b, verts_b, ib[near])
        s = sep[near]
        sep[near] = ladder.fix_signs(s, code)
    return sep


def contact_pair(kind_a, pa, va, kind_b, pb, vb):
    """The contact 9-tuple of one pair of rows, in the caller's order (read-only rows, as a
    single shape's, run the same compiled code)."""
    entry = registry.entry(CONTACT, kind_a, kind_b)
    if entry.swapped:
        kind_a, pa, va, kind_b, pb, vb = kind_b, pb, vb, kind_a, pa, va
    tame = bool(ladder.table_tame(kind_a, pa[None], va)[0] and ladder.table_tame(kind_b, pb[None], vb)[0])
    r = ContactSig.single(entry, kind_a, pa, va, kind_b, pb, vb, None, tame)
    return ContactSig.mirror_single(r) if entry.swapped else r


def exact_pair(operation, kind_a, pa, va, kind_b, pb, vb):
    """The exact rung for one pair whose float answer was undecided (kinds in kernel order): the
    code or flag of ``operation``'s kernel on Fractions, counted under its name."""
    entry = registry.entry(operation, kind_a, kind_b)
    return ladder.exact_code(entry.name, kind_a, pa, va, kind_b, pb, vb)


def perram_wertheim_values(a, b):
    """Perram-Wertheim of two ellipses (circles included): 6 floats for single shapes, else an
    array ``batch + (6,)``."""
    return run(PerramWertheimSig, registry.entry(PERRAM_WERTHEIM, a._kind, b._kind), a, b)


def ray_single(shape, ray, ray_row):
    """The hit of one ray (``ray`` four floats ``ox, oy, dx, dy``; ``ray_row`` the same as a
    read-only array) on a single shape: ``(distance, px, py, nx, ny)``, the kernels directly."""
    entry = registry.entry(RAY, shape._kind, "ray")
    if tame_rows(shape) is True and all(map(ladder.tame_number, ray)):
        code, feature = entry.kernel(shape._params, shape._verts, ray_row, EPS)
    else:
        code = codes.UNDECIDED
    if code == codes.UNDECIDED:
        code, feature = ladder.exact_ray(entry, shape._kind, shape._params, shape._verts, ray)
    return registry.entry(RAY_HIT, shape._kind, "ray").kernel(shape._params, shape._verts, ray_row, code, feature)


def ray_rows(shape, index_s, rays, index_r):
    """The hits ``(n, 5)`` of the rays ``rays[index_r[k]]`` (rows ``ox, oy, dx, dy``) on the
    shapes ``shape[index_s[k]]`` (flat indices)."""
    entry = registry.entry(RAY, shape._kind, "ray")
    _, _, out = rows(RaySig, entry, shape._kind, shape._flat_params(), shape._verts, index_s, tame_rows(shape),
                     "ray", rays, rays[:0], index_r, ladder.tame_table(rays))
    return out


def manifold_values(a, b, contacts, margin):
    """The 13 numbers of the contact manifold of ``a`` and ``b`` (see
    :mod:`collide2d._kernels.manifold.clip`) given their contacts: ``contacts`` the 9-tuple of a
    single pair, else a ``(rows, 9)`` table over the broadcast batch; a tuple for single shapes,
    else a ``(rows, 13)`` array. Pairs without a face on both sides get the one-point manifold
    (:func:`registry.one_point_manifold`) from the caller."""
    return run(ManifoldSig, registry.entry(MANIFOLD, a._kind, b._kind), a, b, (contacts, margin))


def manifold_rows(kind_a, ta, va, ia, kind_b, tb, vb, ib, margin):
    """The 13 numbers of the contact manifolds of ``ta[ia[k]]``, ``tb[ib[k]]`` (``(n, 13)``), one of
    the kinds ``"rounded"``: each pair's cores (a rounded row's polygon, segment or point) run the
    manifold kernel of their kinds on the cores' sign-consistent contact, with the radii (Box2D's
    ``b2CollidePolygons`` with ``radius``: clip the cores, then move the points out by the radii
    along the normal); a pair whose cores have no face on both sides, or with an ellipse, gets the
    one-point manifold of its own contact."""
    out = np.empty((ia.shape[0], 13))
    radius_a = ta[ia, 2] if kind_a == "rounded" else np.zeros(ia.shape[0])
    radius_b = tb[ib, 2] if kind_b == "rounded" else np.zeros(ib.shape[0])
    for ca, cb, group in _rounded.core_groups(kind_a, ta, ia, kind_b, tb, ib):
        ja, jb = ia[group], ib[group]
        entry = registry.entry(MANIFOLD, ca, cb)
        if entry is None:  # no face on both sides: the one point of the shapes' own contact
            c = contact_rows(kind_a, ta, va, ja, kind_b, tb, vb, jb)
            sign_consistent_rows(kind_a, ta, va, ja, kind_b, tb, vb, jb, c[:, 0])
            kernel = registry.one_point_manifold()
            out[group] = [kernel(tuple(row), 0.0, 0.0, margin) for row in c.tolist()]
            continue
        xa, xb = _rounded.as_kind(kind_a, ta, ca), _rounded.as_kind(kind_b, tb, cb)
        c = contact_rows(ca, xa, va, ja, cb, xb, vb, jb)
        sign_consistent_rows(ca, xa, va, ja, cb, xb, vb, jb, c[:, 0])
        extra = (np.ascontiguousarray(c), margin, np.ascontiguousarray(radius_a[group]), np.ascontiguousarray(radius_b[group]))
        out[group] = rows(ManifoldSig, entry, ca, xa, va, ja, True, cb, xb, vb, jb, True, extra)
    return out


# -- entry points for rows of parameter tables (broad phase, motion, distance queries) -----------


def _row_tame(kind, params, verts):
    return ladder.table_tame(kind, params, verts)


def relate_rows(kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b,
                tame_a=None, tame_b=None, operation=RELATE):
    """Relation codes (or, with ``operation=INTERSECTS``, 1/0 flags of the dedicated kernel) of
    ``a``-rows against ``b``-rows, in the caller's order of the kinds (mirrored back here).

    Parameter tables may be wider than the kind's row (extra columns are ignored). Undecided
    results are settled exactly; rows at extreme magnitudes go through the ladder.
    """
    if kind_a == "rounded" or kind_b == "rounded":  # per row: radius 0 as the core's kind
        sig = Relations if operation == RELATE else Flags
        return mixed_rows(sig, operation, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b)
    entry = registry.entry(operation, kind_a, kind_b)
    if entry.swapped:
        kind_a, params_a, verts_a, index_a, tame_a, kind_b, params_b, verts_b, index_b, tame_b = (
            kind_b, params_b, verts_b, index_b, tame_b, kind_a, params_a, verts_a, index_a, tame_a)
    if tame_a is None:
        tame_a = _row_tame(kind_a, params_a, verts_a)
    if tame_b is None:
        tame_b = _row_tame(kind_b, params_b, verts_b)
    out = rows(Codes, entry, kind_a, params_a, verts_a, index_a, tame_a, kind_b, params_b, verts_b, index_b, tame_b)
    return MIRROR_RELATION[out] if entry.swapped and operation == RELATE else out


def contact_rows(kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b):
    """Contact rows ``(n, 9)`` of ``a``-rows against ``b``-rows in the caller's order (the entry
    point for code that holds parameter tables rather than shapes, such as the motion search)."""
    if kind_a == "rounded" or kind_b == "rounded":
        return mixed_rows(ContactSig, CONTACT, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b)
    entry = registry.entry(CONTACT, kind_a, kind_b)
    if entry.swapped:
        out = rows(ContactSig, entry, kind_b, params_b, verts_b, index_b, _row_tame(kind_b, params_b, verts_b),
                   kind_a, params_a, verts_a, index_a, _row_tame(kind_a, params_a, verts_a))
        return ContactSig.mirror(out)
    return rows(ContactSig, entry, kind_a, params_a, verts_a, index_a, _row_tame(kind_a, params_a, verts_a),
                kind_b, params_b, verts_b, index_b, _row_tame(kind_b, params_b, verts_b))


def separation_rows(kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b):
    """Separations of ``a``-rows against ``b``-rows (symmetric: no mirroring needed)."""
    if kind_a == "rounded" or kind_b == "rounded":
        return mixed_rows(SeparationSig, SEPARATION, kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b)
    entry = registry.entry(SEPARATION, kind_a, kind_b)
    if entry.swapped:
        kind_a, params_a, verts_a, index_a, kind_b, params_b, verts_b, index_b = (
            kind_b, params_b, verts_b, index_b, kind_a, params_a, verts_a, index_a)
    return rows(SeparationSig, entry, kind_a, params_a, verts_a, index_a, _row_tame(kind_a, params_a, verts_a),
                kind_b, params_b, verts_b, index_b, _row_tame(kind_b, params_b, verts_b))
