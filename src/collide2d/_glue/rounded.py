"""Glue for the rounded kind (capsules, rounded polygons and boxes): the pair kernels of
:mod:`collide2d._kernels.relate.rounded` and :mod:`collide2d._kernels.measure.distance_rounded`
behind the public functions.

:mod:`collide2d._glue.run` hands every pair with a shape of kind ``"rounded"`` to the functions
here (``relate_pairs``, ``relate_codes``, ``intersects_flags``, ``contact_values``,
``separation_values``), which

* treat a row of radius 0 as its core's kind (``polygon``, ``segment`` or ``point``): such pairs
  go back to the existing kernels through :mod:`collide2d._glue.run`, so radius 0 gives today's
  answers bit for bit;
* call the rounded kernels with the rounded shape first, mirroring codes and contacts for the
  other order (``CONTAINS`` <-> ``WITHIN``; the normal negated, the witnesses swapped);
* settle ``UNDECIDED`` codes on Fractions (the same kernel source, uncompiled, as
  :mod:`collide2d._exact` does for the other kinds; counted under the kernel's name in
  :func:`collide2d.exact_fallback_counts`);
* take pairs whose numbers leave ``[TAME_LO, TAME_HI]`` (where the kernels' polynomials of degree
  four could overflow or underflow) one at a time: scaled by a power of two (exact) when that
  brings them in, else on Fractions;
* make the sign of a separation agree with the exact predicate, as :mod:`collide2d.measurement`
  does for the other kinds.
"""

from __future__ import annotations

import importlib
import math
import sys
from fractions import Fraction

import numpy as np

from collide2d._glue import derived, run
from collide2d._robust import exact as _exact
from collide2d._kernels import codes
from collide2d._tolerances import BAND as _BAND  # the sign-consistency band of collide2d.measurement
from collide2d._tolerances import EPS, TAME_HI, TAME_LO  # pairs in range run the float kernels unscaled

KINDS = ("rounded", "ellipse", "polygon", "segment", "line", "point")
_CORE_KIND = {1: "point", 2: "segment"}  # else polygon
_MIRROR_CODE = (0, 1, 2, 4, 3, 5, 6)
_MIRROR_ARRAY = np.array(_MIRROR_CODE, dtype=np.int8)
_CONTACT_MIRROR = np.array([0, 1, 2, 5, 6, 3, 4, 8, 7])
_CONTACT_MIRROR_SIGN = np.array([1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
_TINY = float(np.nextafter(0.0, 1.0))
_INTERSECTS = ("rounded", "ellipse", "polygon", "segment")  # partners with an intersects kernel


def _module(name):
    return importlib.import_module(f"collide2d._kernels.{name}")


_kernels: dict = {}


def _kernel(operation, other):
    """The kernel ``<operation>_rounded_<other>`` (looked up once)."""
    key = (operation, other)
    if key not in _kernels:
        module = _module("relate.rounded" if operation != "contact" else "measure.distance_rounded")
        _kernels[key] = getattr(module, f"{operation}_rounded_{other}")
    return _kernels[key]


def _loop(operation, other):
    module = _module("measure.loops_rounded" if operation in ("contact", "separation") else "relate.loops_rounded")
    return getattr(module, f"{operation}_rounded_{other}_loop")


# -- rows ----------------------------------------------------------------------------------------


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


def _as_kind(kind, table, target):
    """The table of rows of side kind ``kind`` seen as rows of ``target`` (a core kind)."""
    return core_rows(table, target) if kind == "rounded" and target != "rounded" else table


def _keys(table, verts, index):
    """Sort keys of rounded rows ``table[index]``: count, radius and the first two core vertices."""
    rows = table[index]
    polygon = rows[:, 1] >= 3
    v = np.empty((len(rows), 4))
    v[:, 0:2] = rows[:, 3:5]
    v[:, 2:4] = np.where((rows[:, 1] >= 2)[:, None], rows[:, 5:7], rows[:, 3:5])
    if polygon.any():
        offset = rows[polygon, 0].astype(np.int64)
        v[polygon, 0:2] = verts[offset]
        v[polygon, 2:4] = verts[offset + 1]
    return np.column_stack([rows[:, 1], rows[:, 2], v])


def _second_first(ta, va, ia, tb, vb, ib):
    """Pairs of two rounded rows that the kernel takes in the order (b, a): those whose ``b`` has
    the smaller :func:`_keys`, so that a pair gives the same bits in both orders."""
    ka, kb = _keys(ta, va, ia), _keys(tb, vb, ib)
    differ = ka != kb
    column = np.argmax(differ, axis=1)
    rows = np.arange(len(ka))
    return differ.any(axis=1) & (kb[rows, column] < ka[rows, column])


def _extremes(kind, table, verts):
    """Per row: the largest magnitude and the least non-zero magnitude of its numbers.

    Column by column (a NumPy reduction over a short last axis costs far more per row)."""
    n = len(table)
    hi = np.zeros(n)
    lo = np.full(n, np.inf)
    columns = {"ellipse": range(0, 4), "rounded": range(2, 7), "polygon": range(0)}.get(kind, range(table.shape[1]))
    for j in columns:
        value = np.abs(table[:, j])
        np.maximum(hi, value, out=hi)
        np.minimum(lo, np.where(value > 0.0, value, np.inf), out=lo)
    if kind in ("polygon", "rounded") and n:
        rows = np.flatnonzero(table[:, 1] >= 3) if kind == "rounded" else np.arange(n)
        if rows.size:
            count = table[rows, 1].astype(np.int64)
            starts = np.cumsum(count) - count
            index = np.repeat(table[rows, 0].astype(np.int64) - starts, count) + np.arange(int(count.sum()))
            x, y = np.abs(verts[index, 0]), np.abs(verts[index, 1])
            big = np.maximum(x, y)
            small = np.minimum(np.where(x > 0.0, x, np.inf), np.where(y > 0.0, y, np.inf))
            hi[rows] = np.maximum(hi[rows], np.maximum.reduceat(big, starts))
            lo[rows] = np.minimum(lo[rows], np.minimum.reduceat(small, starts))
    return hi, lo


def _numbers(kind, row, verts):
    """The numbers of one row that its kernels multiply (a list of floats)."""
    values = row.tolist()
    if kind == "rounded":
        count = int(values[1])
        if count >= 3:
            offset = int(values[0])
            return [values[2]] + verts[offset : offset + count].ravel().tolist()
        return values[2:7]
    if kind == "polygon":
        offset, count = int(values[0]), int(values[1])
        return verts[offset : offset + count].ravel().tolist()
    return values[0:4] if kind == "ellipse" else values


def _single_extremes(kind, row, verts):
    """:func:`_extremes` of one row, in plain floats."""
    hi = 0.0
    lo = math.inf
    for x in _numbers(kind, row, verts):
        x = abs(x)
        if x > hi:
            hi = x
        if 0.0 < x < lo:
            lo = x
    return hi, lo


_TAG = "rounded extremes"


def _shape_extremes(shape, kind, row):
    """``(extremes, key)`` of a single shape: :func:`_single_extremes`, and :func:`_single_key`
    for a rounded row (else None). Kept in the shape's unused ``_scalar`` slot (tagged; a slot
    holding anything else is left alone). ``row`` may be the core row of a rounded shape of radius
    0, seen as ``kind``."""
    cached = shape._scalar
    if type(cached) is tuple and cached[0] == _TAG and cached[1] == kind:
        return cached[2]
    value = (_single_extremes(kind, row, shape._verts), _single_key(row, shape._verts) if kind == "rounded" else None)
    if cached is None:
        object.__setattr__(shape, "_scalar", (_TAG, kind, value))
    return value


def _single_key(row, verts):
    values = row.tolist()
    count = int(values[1])
    if count >= 3:
        offset = int(values[0])
        return [values[1], values[2]] + verts[offset : offset + 2].ravel().tolist()
    return values[1:3] + values[3:5] + (values[5:7] if count == 2 else values[3:5])


def _scaled(kind, row, verts, k):
    """A row (and its own vertices) scaled by ``2**k``: exactly the same shape, scaled."""
    row = np.array(row, dtype=np.float64)
    if kind in ("polygon", "rounded") and (kind == "polygon" or row[1] >= 3):
        offset, count = int(row[0]), int(row[1])
        verts = np.ldexp(verts[offset : offset + count], k)
        row[0] = 0.0
    else:
        verts = np.zeros((0, 2))
    if kind == "rounded":
        row[2:7] = np.ldexp(row[2:7], k)
    elif kind == "ellipse":
        row[0:4] = np.ldexp(row[0:4], k)
    elif kind != "polygon":
        row = np.ldexp(row, k)
    row.flags.writeable = False
    verts.flags.writeable = False
    return row, verts


def _fraction_row(kind, row, verts):
    """A row and its vertices as object arrays of Fractions (exact)."""
    if kind == "rounded":
        count = int(row[1])
        out = np.array([Fraction(0), Fraction(count)] + [Fraction(float(x)) for x in row[2:7]], dtype=object)
        if count >= 3:
            offset = int(row[0])
            v = np.array([[Fraction(float(x)), Fraction(float(y))] for x, y in verts[offset : offset + count]], dtype=object)
        else:
            v = np.zeros((0, 2), dtype=object)
        return out, v
    return _exact.exact_row(kind, row, verts)


def _exact_code(name, kind_b, row_a, verts_a, row_b, verts_b):
    """The kernel ``name`` (rounded first) run on Fractions: exact."""
    counts = getattr(_exact, "_counts", None)
    if counts is not None:
        counts[name] += 1
    twin = _exact.load_uncompiled_kernels("collide2d._kernels_exact", ("relate.rounded",))["relate.rounded"]
    fa, fva = _fraction_row("rounded", row_a, verts_a)
    fb, fvb = _fraction_row(kind_b, row_b, verts_b)
    return int(getattr(twin, name)(fa, fva, fb, fvb, 0))


def _pair_scale(hi_a, lo_a, hi_b, lo_b):
    """``(tame, k)``: whether the pair runs as it is, else the power of two that brings it into
    range (``None`` when none does)."""
    hi = max(hi_a, hi_b)
    lo = min(lo_a, lo_b)
    if TAME_LO <= lo and hi <= TAME_HI or hi == 0.0:
        return True, 0
    k = -math.frexp(hi)[1]
    if math.ldexp(lo, k) >= TAME_LO:
        return False, k
    return False, None


# -- relate ------------------------------------------------------------------------------------


def _code_row(operation, other, row_a, verts_a, row_b, verts_b, extremes=None):
    """One pair (the rounded row first): the float kernel, scaled or exact as needed.
    ``extremes``: the pair's :func:`_single_extremes`, when known."""
    kernel = _kernel(operation, other)
    name = kernel.__name__
    if other != "ellipse":
        if extremes is None:
            extremes = _single_extremes("rounded", row_a, verts_a) + _single_extremes(other, row_b, verts_b)
        tame, k = _pair_scale(*extremes)
        if not tame:
            if k is None:
                return _exact_code(name, other, row_a, verts_a, row_b, verts_b)
            ra, va = _scaled("rounded", row_a, verts_a, k)
            rb, vb = _scaled(other, row_b, verts_b, k)
            code = kernel(ra, va, rb, vb, EPS)
            if code == codes.UNDECIDED:
                return _exact_code(name, other, ra, va, rb, vb)
            return int(code)
    code = kernel(row_a, verts_a, row_b, verts_b, EPS)
    if code == codes.UNDECIDED:
        return _exact_code(name, other, row_a, verts_a, row_b, verts_b)
    return int(code)


def _rounded_rows(operation, other, ta, va, ia, tb, vb, ib):
    """Codes of ``operation`` (``relate`` or ``intersects``) on rounded rows ``ta[ia]`` (r > 0)
    against rows ``tb[ib]`` of kind ``other``: int8 array."""
    out = np.empty(ia.shape[0], dtype=np.int8)
    if not out.size:
        return out
    wild = np.zeros(ia.shape[0], dtype=bool)
    if other != "ellipse":
        hi_a, lo_a = _extremes("rounded", ta[ia], va)  # the rows in use only: a mixed table's other rows
        hi_b, lo_b = _extremes(other, tb[ib], vb)  # are of other kinds (their columns mean other things)
        hi = np.maximum(hi_a, hi_b)
        lo = np.minimum(lo_a, lo_b)
        wild = ~(((lo >= TAME_LO) & (hi <= TAME_HI)) | (hi == 0.0))
    tame = np.flatnonzero(~wild)
    if tame.size == ia.shape[0]:
        _loop(operation, other)(ta, va, ia, tb, vb, ib, EPS, out)
    elif tame.size:
        part = np.empty(tame.size, dtype=np.int8)
        _loop(operation, other)(ta, va, ia[tame], tb, vb, ib[tame], EPS, part)
        out[tame] = part
    redo = np.flatnonzero(wild | (out == codes.UNDECIDED))
    for k in redo.tolist():
        out[k] = _code_row(operation, other, ta[ia[k]], va, tb[ib[k]], vb)
    return out


def _groups(kind_a, ta, ia, kind_b, tb, ib):
    """``(ka, kb, rows)``: the pairs grouped by their rows' effective kinds (:func:`_effective`)."""
    ea = _effective(kind_a, ta)[ia]
    eb = _effective(kind_b, tb)[ib]
    key = ea * len(KINDS) + eb
    for value in np.unique(key).tolist():
        rows = np.flatnonzero(key == value)
        yield KINDS[value // len(KINDS)], KINDS[value % len(KINDS)], rows


def relate_pairs(kind_a, ta, va, ia, kind_b, tb, vb, ib, operation="relate"):
    """Codes of rows ``ta[ia[k]]`` against ``tb[ib[k]]`` in the caller's order (one of the kinds
    ``"rounded"``). ``operation="intersects"`` gives 1/0 flags instead (int8)."""
    out = np.empty(ia.shape[0], dtype=np.int8)
    for ka, kb, rows in _groups(kind_a, ta, ia, kind_b, tb, ib):
        if ka != "rounded" and kb != "rounded":  # radius 0: the core's kind, today's kernels
            code = run.relate_rows(ka, _as_kind(kind_a, ta, ka), va, ia[rows], kb, _as_kind(kind_b, tb, kb), vb, ib[rows])
            out[rows] = (code != codes.DISJOINT) if operation == "intersects" else code
            continue
        if ka == kb == "rounded":
            flip = _second_first(ta, va, ia[rows], tb, vb, ib[rows])
            parts = ((rows[~flip], False), (rows[flip], True))
        else:
            parts = ((rows, ka != "rounded"),)
        for sub, swapped in parts:
            if sub.size:
                out[sub] = _rounded_codes(operation, ka, kb, kind_a, ta, va, ia[sub], kind_b, tb, vb, ib[sub], swapped)
    return out


def _rounded_codes(operation, ka, kb, kind_a, ta, va, ia, kind_b, tb, vb, ib, swapped):
    """Codes of one group with a rounded side of radius > 0: the kernel with the rounded row first
    (``swapped``: b's row), mirrored back."""
    if swapped:
        ka, kb = kb, ka
        first, second = (_as_kind(kind_b, tb, ka), vb, ib), (_as_kind(kind_a, ta, kb), va, ia)
    else:
        first, second = (ta, va, ia), (_as_kind(kind_b, tb, kb), vb, ib)
    op = operation if operation == "relate" or kb in _INTERSECTS else "relate"
    code = _rounded_rows(op, kb, *first, *second)
    if operation == "intersects":
        return code if op == "intersects" else (code != codes.DISJOINT).astype(np.int8)
    return _MIRROR_ARRAY[code] if swapped else code


def _single_pair(a, b):
    """``(other kind, rounded row, its verts, other row, its verts, swapped, extremes)`` of a
    single pair with a rounded shape of radius > 0, else ``None`` (both of radius 0 or not
    rounded); ``extremes`` as :func:`_code_row` takes them."""
    pa, pb = a._params, b._params
    ra = a._kind == "rounded" and pa[2] > 0.0
    rb = b._kind == "rounded" and pb[2] > 0.0
    if not (ra or rb):
        return None
    if ra and rb and _shape_extremes(b, "rounded", pb)[1] < _shape_extremes(a, "rounded", pa)[1]:
        ra = False  # two rounded shapes: the kernel takes them in the order of their keys
    if ra:
        first, other, swapped = a, b, False
    else:
        first, other, swapped = b, a, True
    kind, row = other._kind, other._params
    if kind == "rounded" and row[2] == 0.0:
        kind = core_kind(row[1])
        row = core_rows(row, kind)
    extremes = _shape_extremes(first, "rounded", first._params)[0] + _shape_extremes(other, kind, row)[0]
    return kind, first._params, first._verts, row, other._verts, swapped, extremes


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
        return _plain(shape) if rows[2] == 0.0 else shape
    counts = rows[..., 1]
    if rows.size and not np.any(rows[..., 2]) and (np.all(counts >= 3) or np.all(counts == counts.flat[0])):
        return _plain(shape)
    return shape


def covers_flags(a, b, table):
    """:func:`collide2d._glue.derived.covers_flags` with a rounded ``b``: a row of radius 0 is its
    core (a segment or a point, covered when touching as the plain kinds decide); a row of radius
    > 0 is a region, covered only with ``CONTAINS`` or ``EQUAL``."""
    code = relate_codes(a, b)
    if type(code) is int:
        if code == codes.TOUCHING and b._params[2] == 0.0:
            return derived.covers_flags(a, _plain(b), table)
        return table.single[code]
    out = table.array[code]
    zero = np.broadcast_to(b._params[..., 2] == 0.0, code.shape)
    for k in zip(*np.nonzero((code == codes.TOUCHING) & zero)):
        ka = tuple(i if n > 1 else 0 for i, n in zip(k[len(code.shape) - a.ndim :], a.shape)) if a.shape else ()
        kb = tuple(i if n > 1 else 0 for i, n in zip(k[len(code.shape) - b.ndim :], b.shape))
        out[k] = derived.covers_flags(a[ka] if a.shape else a, _plain(b[kb]), table)
    return out


def relate_codes(a, b):
    """:func:`collide2d._glue.run.relate_codes` for pairs with a rounded shape."""
    if a._params.ndim == 1 and b._params.ndim == 1:
        single = _single_pair(a, b)
        if single is None:
            return run.relate_codes(*(_plain(s) if s._kind == "rounded" else s for s in (a, b)))
        kind, first, fverts, row, verts, swapped, extremes = single
        code = _code_row("relate", kind, first, fverts, row, verts, extremes)
        return _MIRROR_CODE[code] if swapped else code
    shape, ia, ib = run.broadcast_indices(a, b)
    return relate_pairs(a._kind, a._flat_params(), a._verts, ia, b._kind, b._flat_params(), b._verts, ib).reshape(shape)


def intersects_flags(a, b):
    """:func:`collide2d._glue.run.intersects_flags` for pairs with a rounded shape."""
    if a._params.ndim == 1 and b._params.ndim == 1:
        single = _single_pair(a, b)
        if single is None:
            return run.intersects_flags(*(_plain(s) if s._kind == "rounded" else s for s in (a, b)))
        kind, first, fverts, row, verts, _, extremes = single
        if kind in _INTERSECTS:
            return _code_row("intersects", kind, first, fverts, row, verts, extremes) != 0
        return _code_row("relate", kind, first, fverts, row, verts, extremes) != codes.DISJOINT
    shape, ia, ib = run.broadcast_indices(a, b)
    out = relate_pairs(a._kind, a._flat_params(), a._verts, ia, b._kind, b._flat_params(), b._verts, ib, "intersects")
    return out.view(np.bool_).reshape(shape)


# -- contact -----------------------------------------------------------------------------------


def _contact_row(other, row_a, verts_a, row_b, verts_b, extremes=None):
    """The contact 9-tuple of one pair (rounded first), scaled by a power of two when needed."""
    kernel = _kernel("contact", other)
    if extremes is None:
        extremes = _single_extremes("rounded", row_a, verts_a) + _single_extremes(other, row_b, verts_b)
    tame, k = _pair_scale(*extremes)
    if tame or other == "ellipse":
        return kernel(row_a, verts_a, row_b, verts_b)
    k = -math.frexp(max(extremes[0], extremes[2]))[1]
    from collide2d._robust.magnitude import unscale_contact

    ra, va = _scaled("rounded", row_a, verts_a, k)
    rb, vb = _scaled(other, row_b, verts_b, k)
    return unscale_contact(kernel(ra, va, rb, vb), k)


def _mirror_contact(r):
    return (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])


def _consistent(separation, code):
    """The separation with the sign of the exact relation (see collide2d.measurement)."""
    if code == codes.DISJOINT:
        return separation if separation > 0.0 else _TINY
    return 0.0 if separation > 0.0 or code == codes.TOUCHING else separation


def _single_contact(a, b, separation_only):
    single = _single_pair(a, b)
    if single is None:
        plain = [_plain(s) if s._kind == "rounded" else s for s in (a, b)]
        return (run.separation_values if separation_only else run.contact_values)(*plain)
    kind, first, fverts, row, verts, swapped, extremes = single
    r = _contact_row(kind, first, fverts, row, verts, extremes)
    s = r[0]
    if not abs(s) > _BAND * (extremes[0] + extremes[2]):
        s = _consistent(s, _code_row("relate", kind, first, fverts, row, verts, extremes))
        r = (s,) + tuple(r[1:])
    if separation_only:
        return r[0]
    return _mirror_contact(r) if swapped else r


def _plain_batch(kind, table, verts):
    from collide2d import shapes

    cls = {"ellipse": shapes.Ellipse, "polygon": shapes.Polygon, "segment": shapes.Segment,
           "line": shapes.Line, "point": shapes.Point}[kind]
    new = object.__new__(cls)
    new._finish({}, table, verts)
    return new


def _contact_pairs(kind_a, ta, va, ia, kind_b, tb, vb, ib, width):
    """Contacts (``width`` 9) or separations (``width`` 1) of rows ``ta[ia]`` against ``tb[ib]``."""
    out = np.empty((ia.shape[0], 9))
    for ka, kb, rows in _groups(kind_a, ta, ia, kind_b, tb, ib):
        if ka != "rounded" and kb != "rounded":  # radius 0: today's kernels on the cores
            sa = _plain_batch(ka, _as_kind(kind_a, ta, ka)[ia[rows]], va)
            sb = _plain_batch(kb, _as_kind(kind_b, tb, kb)[ib[rows]], vb)
            if width == 1:
                out[rows, 0] = run.separation_values(sa, sb)
            else:
                out[rows] = run.contact_values(sa, sb)
            continue
        if ka == kb == "rounded":
            flip = _second_first(ta, va, ia[rows], tb, vb, ib[rows])
            parts = ((rows[~flip], False), (rows[flip], True))
        else:
            parts = ((rows, ka != "rounded"),)
        for sub, swapped in parts:
            if sub.size:
                out[sub] = _rounded_contacts(ka, kb, kind_a, ta, va, ia[sub], kind_b, tb, vb, ib[sub], swapped)
    return out if width == 9 else out[:, 0].copy()


def _rounded_contacts(ka, kb, kind_a, ta, va, ia, kind_b, tb, vb, ib, swapped):
    """Contacts of one group with a rounded side of radius > 0 (the kernel with the rounded row
    first, ``swapped``: b's row), sign-consistent, mirrored back: array ``(len(ia), 9)``."""
    if swapped:
        other, t1, v1, i1, t2, v2, i2 = ka, tb, vb, ib, _as_kind(kind_a, ta, ka), va, ia
    else:
        other, t1, v1, i1, t2, v2, i2 = kb, ta, va, ia, _as_kind(kind_b, tb, kb), vb, ib
    part = np.empty((i1.shape[0], 9))
    hi_1, lo_1 = _extremes("rounded", t1[i1], v1)  # the rows in use only (a mixed table holds other kinds)
    hi_2, lo_2 = _extremes(other, t2[i2], v2)
    hi = np.maximum(hi_1, hi_2)
    lo = np.minimum(lo_1, lo_2)
    wild = ~(((lo >= TAME_LO) & (hi <= TAME_HI)) | (hi == 0.0)) & (other != "ellipse")
    tame = np.flatnonzero(~wild)
    if tame.size == i1.shape[0]:
        _loop("contact", other)(t1, v1, i1, t2, v2, i2, part)
    elif tame.size:
        sub = np.empty((tame.size, 9))
        _loop("contact", other)(t1, v1, i1[tame], t2, v2, i2[tame], sub)
        part[tame] = sub
    for k in np.flatnonzero(wild).tolist():
        part[k] = _contact_row(other, t1[i1[k]], v1, t2[i2[k]], v2)
    near = np.flatnonzero(~(np.abs(part[:, 0]) > _BAND * (hi_1 + hi_2)))
    if near.size:
        code = _rounded_rows("relate", other, t1, v1, i1[near], t2, v2, i2[near])
        part[near, 0] = [_consistent(s, c) for s, c in zip(part[near, 0].tolist(), code.tolist())]
    if swapped:
        part = part[:, _CONTACT_MIRROR] * _CONTACT_MIRROR_SIGN
        part[:, 1:3] += 0.0
    return part


def contact_values(a, b):
    """:func:`collide2d._glue.run.contact_values` for pairs with a rounded shape."""
    if a._params.ndim == 1 and b._params.ndim == 1:
        return _single_contact(a, b, False)
    shape, ia, ib = run.broadcast_indices(a, b)
    out = _contact_pairs(a._kind, a._flat_params(), a._verts, ia, b._kind, b._flat_params(), b._verts, ib, 9)
    return out.reshape(shape + (9,))


def separation_values(a, b):
    """:func:`collide2d._glue.run.separation_values` for pairs with a rounded shape."""
    if a._params.ndim == 1 and b._params.ndim == 1:
        return _single_contact(a, b, True)
    shape, ia, ib = run.broadcast_indices(a, b)
    return _contact_pairs(a._kind, a._flat_params(), a._verts, ia, b._kind, b._flat_params(), b._verts, ib, 1).reshape(shape)


contact_pairs = _contact_pairs  # the entry point of collide2d._glue.run.contact_rows / separation_rows


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


run.ROUNDED.append(sys.modules[__name__])  # collide2d._glue.run hands the rounded kind to this module
