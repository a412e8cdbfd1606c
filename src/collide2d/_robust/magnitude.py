"""Pairs at extreme magnitudes: power-of-two scaling, or the exact path, before a kernel runs.

The float kernels' error bounds (Higham's gamma_k, Shewchuk's orientation bound) assume that no
intermediate result underflows into the subnormals or overflows; the measurement kernels square
and multiply lengths too. Both hold when every non-zero coordinate and size of a pair lies in
``[TAME_LO, TAME_HI] = [2**-100, 2**100]``: the filters' products have degree at most 4, but the
point-ellipse kernel raises lengths to higher powers near an ellipse's centre (a point 1 ulp from
the centre of an ellipse with radii 1e-50 and 1e-53 divided by zero; at unit scale it does not).

A row is *tame* when its own numbers lie there (and an ellipse's direction components are 0 or
within ``2**100`` of each other: a direction is stored exactly as given); a pair of tame rows runs
the kernels unchanged (the common case, at the cost of one cached flag per shape). Any other pair is handled here, one pair at
a time:

* Its numbers are multiplied by ``2**k``: exact while no result leaves the normal floats, and every
  answer transforms exactly (relations are invariant; lengths and points scale by ``2**k``, areas by
  ``4**k``, curvatures by ``2**-k``). A line's direction is scaled on its own to a largest component
  in ``[0.5, 1)`` (a direction has no size).
* ``k`` centres the pair's span of magnitudes on 1: when the largest and the smallest non-zero
  number differ by at most ``2**SPAN_MAX`` (and a line's direction components by at most
  ``2**DIRECTION_SPAN_MAX``), every scaled number lies in the tame interval, and the float kernels
  answer with valid error bounds (undecided signs still go to the exact fallback).
* Wider pairs (a 1e-150 circle beside a 1e150 box; an offset of 1e-300 beside a size of 1) have no
  such ``k``: predicates then run the exact twin (Fractions) directly. Measurements measure a shape
  far smaller than the rest of the pair as a point plus its support (:func:`contact_row`), take
  nested areas from the inner shape (:func:`area_row`), measure a small rounded shape's overlay with
  a far larger polygon against the polygon's half-planes near it (:func:`rounded_local_pair`), and
  otherwise scale the largest number to about 1 when an ellipse is involved (so that no fourth power
  overflows; what underflows lies far below the measurement's accuracy), or centre the numbers for
  the flat kinds (lengths squared once).

The supported range (``_validate.MAGNITUDE_MAX``, ``_validate.SIZE_MIN``) keeps every coordinate
below ``2**500`` and every size above ``2**-500``, so the span of the sizes and coordinates of a pair
is at most ``2**1001`` apart from harmless offsets.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from collide2d._tolerances import DIRECTION_SPAN_MAX, SPAN_MAX, TAME_HI, TAME_LO
from collide2d._tolerances import FLAT_CURVATURE as _FLAT_CURVATURE

_LENGTH_COLUMNS = {"ellipse": 4, "segment": 4, "line": 4, "point": 2}  # ellipse: no direction w


def _numbers(kind, row, verts):
    """The coordinates and sizes of one row (a polygon's vertices; a rounded row's radius and its
    core's vertices or end points), as a flat float64 array."""
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return verts[offset : offset + count].ravel()
    if kind == "rounded":
        if row[1] >= 3:
            offset, count = int(row[0]), int(row[1])
            return np.concatenate([row[2:3], verts[offset : offset + count].ravel()])
        return row[2:7]
    return row[: _LENGTH_COLUMNS[kind]]


def _direction_tame(wx, wy):
    """Whether an ellipse's direction turns by 0 or by more than ``TAME_LO`` rad from an axis: its
    smaller component is 0 or at least ``TAME_LO`` times the larger (the float kernels' range).

    A ``direction`` is stored exactly as given (``(1, 2**-101)`` is not rounded to an axis: the tip
    of an ellipse of radius ``2**60`` moves by ``2**-41``, which decides whether a point there
    touches), so a smaller component makes the row wild: predicates then answer exactly.
    """
    wx, wy = abs(wx), abs(wy)
    return min(wx, wy) == 0.0 or min(wx, wy) >= TAME_LO * max(wx, wy)


def table_tame(kind, params, verts):
    """Per row of a parameter table: all non-zero coordinates and sizes in ``[TAME_LO, TAME_HI]``,
    and an ellipse's direction tame (:func:`_direction_tame`)."""
    if kind == "rounded":  # the radius and ends (columns 2:7; the offset and count are integers), a polygon core's vertices
        values = np.abs(params[:, 2:7])
        tame = ~np.any((values > TAME_HI) | ((values < TAME_LO) & (values != 0.0)), axis=1)
        core = params[:, 1] >= 3
        if core.any():
            tame[core] &= table_tame("polygon", params[core, 0:2], verts)
        return tame
    if kind == "polygon":
        verts = np.abs(verts)
        bad_vertex = np.any((verts > TAME_HI) | ((verts < TAME_LO) & (verts != 0.0)), axis=1)
        if not bad_vertex.any():
            return np.ones(params.shape[0], dtype=bool)
        out = np.empty(params.shape[0], dtype=bool)
        for r, (offset, count) in enumerate(params.astype(np.int64)):
            out[r] = not bad_vertex[offset : offset + count].any()
        return out
    if kind == "rounded":  # the radius and the end points; a polygon core's vertices as a polygon's
        values = np.abs(params[:, 2:7])
        tame = ~np.any((values > TAME_HI) | ((values < TAME_LO) & (values != 0.0)), axis=1)
        core = np.flatnonzero(params[:, 1] >= 3)
        if core.size:
            tame[core] &= table_tame("polygon", params[core, 0:2], verts)
        return tame
    values = np.abs(params[:, : _LENGTH_COLUMNS[kind]])
    tame = ~np.any((values > TAME_HI) | ((values < TAME_LO) & (values != 0.0)), axis=1)
    if kind == "ellipse":
        w = np.abs(params[:, 4:6])
        small, large = np.minimum(w[:, 0], w[:, 1]), np.maximum(w[:, 0], w[:, 1])
        tame &= (small == 0.0) | (small >= TAME_LO * large)
    return tame


def tame_number(x):
    """Whether one float is tame: 0 or of magnitude in ``[TAME_LO, TAME_HI]``."""
    return x == 0.0 or TAME_LO <= abs(x) <= TAME_HI


def wild_mask(index_a, index_b, tame_a, tame_b):
    """``None`` when every pair ``(index_a[k], index_b[k])`` is tame, else the bool mask of the others.

    ``tame_a``, ``tame_b``: per-row flags of each side, or ``True`` for all rows.
    """
    if tame_a is True and tame_b is True:
        return None
    mask = np.zeros(index_a.shape[0], dtype=bool)
    if tame_a is not True:
        mask |= ~tame_a[index_a]
    if tame_b is not True:
        mask |= ~tame_b[index_b]
    return mask if mask.any() else None


def _exponent(x):
    return math.frexp(x)[1]  # x = m 2**e with 0.5 <= m < 1


def _exponents(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """The exponents of the largest and smallest non-zero coordinate or size of a pair (a line's
    direction has no size), or None when every one is 0."""
    parts = [row[:2] if kind == "line" else _numbers(kind, row, verts)
             for kind, row, verts in ((kind_a, row_a, verts_a), (kind_b, row_b, verts_b))]
    values = np.abs(np.concatenate(parts))
    nonzero = values[values != 0.0]
    if nonzero.size == 0:
        return None
    return _exponent(float(nonzero.max())), _exponent(float(nonzero.min()))


def pair_shift(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """``(k, centred)``: the power of two ``2**k`` for the pair, and whether it tames the pair.

    ``centred`` is True when the scaled numbers all lie in the tame interval (see the module notes);
    then ``k`` centres them. Otherwise predicates must answer exactly, and for measurements ``k``
    brings the largest number to ``[0.5, 1)`` when an ellipse is involved (its kernels raise lengths
    to the fourth power), else centres the numbers with the largest at most ``2**500``.
    """
    exponents = _exponents(kind_a, row_a, verts_a, kind_b, row_b, verts_b)
    if exponents is None:
        return 0, True
    e_hi, e_lo = exponents
    centred = e_hi - e_lo <= SPAN_MAX
    for kind, row in ((kind_a, row_a), (kind_b, row_b)):
        if kind == "line":
            d = np.abs(row[2:4])
            d = d[d != 0.0]
            centred = centred and _exponent(float(d.max())) - _exponent(float(d.min())) <= DIRECTION_SPAN_MAX
        elif kind == "ellipse":  # a direction beyond the kernels' range: exact predicates
            centred = centred and _direction_tame(float(row[4]), float(row[5]))
    if centred:
        return -((e_hi + e_lo) // 2), True
    if kind_a != "ellipse" and kind_b != "ellipse":
        # flat kernels square lengths once (degree 2): centring keeps both the tiny edge of a
        # 1e-150 polygon and a 1e50 segment inside the floats' range, the largest below 2**500
        return min(-((e_hi + e_lo) // 2), 500 - e_hi), False
    return -e_hi, False


def scaled_row(kind, row, verts, k, direction="normalise"):
    """The row (and vertices) of one shape multiplied by ``2**k``; a line's direction normalised
    to a largest component in ``[0.5, 1)`` (``direction="normalise"``) or multiplied too ("scale")."""
    if kind == "rounded":  # radius and end points; a polygon core's own vertices, at offset 0
        out = np.array(row, dtype=np.float64)
        out[2:7] = np.ldexp(out[2:7], k)
        if out[1] >= 3:
            out[0] = 0.0
            offset, count = int(row[0]), int(row[1])
            return _frozen(out), _frozen(np.ldexp(verts[offset : offset + count], k))
        return _frozen(out), _frozen(np.zeros((0, 2)))
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return _frozen(np.array([0.0, float(count)])), _frozen(np.ldexp(verts[offset : offset + count], k))
    out = np.array(row, dtype=np.float64)
    n = _LENGTH_COLUMNS[kind]
    if kind == "line":
        out[:2] = np.ldexp(out[:2], k)
        shift = k if direction == "scale" else -_exponent(float(np.max(np.abs(out[2:4]))))
        out[2:4] = np.ldexp(out[2:4], shift)
    else:
        out[:n] = np.ldexp(out[:n], k)
    return _frozen(out), _frozen(np.ascontiguousarray(verts[:0]))


def _frozen(array):
    """``array`` made read-only: a kernel called on scaled or moved rows then sees the argument
    types of a call on a single shape (whose arrays are read-only) and runs that compiled code,
    not a copy compiled for writeable arrays (seconds of compiling on the first pair at an
    extreme magnitude)."""
    array.flags.writeable = False
    return array


def scaled_pair(kind_a, row_a, verts_a, kind_b, row_b, verts_b, k, direction="normalise"):
    """Both rows of a pair multiplied by ``2**k`` (see :func:`scaled_row`)."""
    ra, wa = scaled_row(kind_a, row_a, verts_a, k, direction)
    rb, wb = scaled_row(kind_b, row_b, verts_b, k, direction)
    return ra, wa, rb, wb


def unscale_contact(r, k):
    """A contact 9-tuple of the pair scaled by ``2**k``, brought back to the original scale."""
    back = 2.0**-k if -1000 < k < 1000 else None
    s, nx, ny, pax, pay, pbx, pby, ka, kb = (float(x) for x in r)
    if back is not None:
        return (s * back, nx, ny, pax * back, pay * back, pbx * back, pby * back, ka / back, kb / back)
    f = lambda x: math.ldexp(x, -k) if math.isfinite(x) else x  # noqa: E731
    g = lambda x: math.ldexp(x, k) if math.isfinite(x) else x  # noqa: E731
    return (f(s), nx, ny, f(pax), f(pay), f(pbx), f(pby), g(ka), g(kb))


# -- one pair at a time (rows that are not tame) -----------------------------------------------


def relate_row(name, kernel, kind_a, pa, va, kind_b, pb, vb, eps, exact):
    """A relate or intersects code of one pair: scaled float kernel, else ``exact`` (same signature
    as :func:`collide2d._robust.exact.run`) on the stored numbers."""
    from collide2d._kernels import codes

    k, centred = pair_shift(kind_a, pa, va, kind_b, pb, vb)
    if not centred:
        return exact(name, kind_a, pa, va, kind_b, pb, vb)
    code = kernel(*scaled_pair(kind_a, pa, va, kind_b, pb, vb, k)[:4], eps)
    if code == codes.UNDECIDED:
        return exact(name, kind_a, pa, va, kind_b, pb, vb)
    return int(code)


# -- pairs with a rounded shape (kernel order: the rounded row first) --------------------------------
# The rounded kernels multiply lengths to the fourth power at most, in the pair's own numbers: a pair
# whose numbers are tame runs as it is; else the largest number is scaled to [0.5, 1) when the
# least non-zero one then stays at least TAME_LO, and the answer scaled back; else (relate) the
# exact twin. A relate kernel with an ellipse runs unscaled: it works in the ellipse's frame, scaled.
# A contact with an ellipse, or of sizes too far apart, is measured through the cores (_core_contact).


def extent(kind, row, verts):
    """``(largest, least non-zero)`` magnitude of the numbers of one row (:func:`_numbers`; a
    line's direction included), as Python floats (``inf`` for the least when all are 0)."""
    values = np.abs(row[:4] if kind == "line" else _numbers(kind, row, verts))
    nonzero = values[values != 0.0]
    return float(values.max(initial=0.0)), float(nonzero.min(initial=math.inf))


def single_extent(kind, row, verts):
    """``extent(kind, row, verts)[0]`` in plain Python floats (the scalar path of a pair)."""
    if kind == "polygon" or kind == "rounded" and row[1] >= 3:
        offset, count = int(row[0]), int(row[1])
        hi = float(np.abs(verts[offset : offset + count]).max()) if count else 0.0
        return max(hi, abs(float(row[2]))) if kind == "rounded" else hi
    values = row[2:7].tolist() if kind == "rounded" else row[: 2 if kind == "point" else 4].tolist()
    return max(map(abs, values))


def extent_rows(kind, params, verts):
    """The largest magnitude of the numbers of each row of ``params`` (float64 array): the scale
    of a rounded pair's sign band."""
    if kind == "polygon":
        count = params[:, 1].astype(np.int64)
        out = np.zeros(count.size)
        if count.size and verts.size and (count > 0).all():
            start = np.cumsum(count) - count
            owner = np.repeat(np.arange(count.size), count)
            v = np.abs(verts[params[:, 0].astype(np.int64)[owner] + (np.arange(owner.size) - start[owner])])
            out = np.maximum.reduceat(np.maximum(v[:, 0], v[:, 1]), start)
        return out
    if kind == "rounded":
        out = np.max(np.abs(params[:, 2:7]), axis=1, initial=0.0)
        core = np.flatnonzero(params[:, 1] >= 3)
        if core.size:
            out[core] = np.maximum(out[core], extent_rows("polygon", params[core, 0:2], verts))
        return out
    columns = {"ellipse": 4, "point": 2}.get(kind, 4)
    return np.max(np.abs(params[:, :columns]), axis=1, initial=0.0)


def rounded_shift(kind_a, pa, va, kind_b, pb, vb):
    """``(tame, k)`` of a pair with a rounded shape: whether it runs as it is, else the power of
    two that brings its largest number to ``[0.5, 1)`` with the least still tame (``None``: none)."""
    hi_a, lo_a = extent(kind_a, pa, va)
    hi_b, lo_b = extent(kind_b, pb, vb)
    hi, lo = max(hi_a, hi_b), min(lo_a, lo_b)
    if TAME_LO <= lo and hi <= TAME_HI or hi == 0.0:
        return True, 0
    k = -_exponent(hi)
    return False, (k if math.ldexp(lo, k) >= TAME_LO else None)


def rounded_relate_row(name, kernel, kind_a, pa, va, kind_b, pb, vb, eps, exact):
    """A relate or intersects code of one pair with a rounded shape (see above)."""
    from collide2d._kernels import codes

    tame, k = rounded_shift(kind_a, pa, va, kind_b, pb, vb)
    if kind_b == "ellipse" and not tame:
        # The ellipse kernels decide the separation within a band relative to the pair's scale, no
        # proof at sizes far apart (a capsule 2.5 from an ellipse of size 1e149 came out TOUCHING):
        # decided exactly (the exact rung's circle test, or collide2d._robust.rounded_ellipse).
        return exact(name, kind_a, pa, va, kind_b, pb, vb)
    if kind_b != "ellipse":
        if not tame:
            if k is None:
                return exact(name, kind_a, pa, va, kind_b, pb, vb)
            pa, va, pb, vb = scaled_pair(kind_a, pa, va, kind_b, pb, vb, k, "scale")
    code = kernel(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED:
        return exact(name, kind_a, pa, va, kind_b, pb, vb)
    return int(code)


def rounded_contact_row(kernel, kind_a, pa, va, kind_b, pb, vb, lookup):
    """The contact 9-tuple of one pair with a rounded shape (see above).

    A tame pair runs the kernel as it is; a pair that one power of two tames (and has no
    ellipse) runs it scaled. An ellipse whose distance from the core is positive is measured at
    the pair's full span of precision (:func:`collide2d._robust.rounded_ellipse.contact`: a
    capsule 2.5 from an ellipse of size 1e149 to a few ulps of 2.5). Any other pair (an ellipse
    that meets the core, whose kernels raise lengths to the fourth power in the pair's own
    numbers; sizes too far apart for one scaling) is measured through its cores
    (:func:`_core_contact`). ``lookup``: the glue's table lookup (see
    :func:`contact_row`).
    """
    tame, k = rounded_shift(kind_a, pa, va, kind_b, pb, vb)
    if tame:
        return kernel(pa, va, pb, vb)
    if k is not None and kind_b != "ellipse":
        return unscale_contact(kernel(*scaled_pair(kind_a, pa, va, kind_b, pb, vb, k, "scale")), k)
    if kind_b == "ellipse":  # the nearest feature at the pair's full span of precision, when the core is apart
        from collide2d._robust import rounded_ellipse

        r = rounded_ellipse.contact(pa, va, pb)
        if r is not None:
            return r
    return _core_contact(kind_a, pa, va, kind_b, pb, vb, lookup)


def _rounded_core_points(row, verts):
    """A rounded row's core vertices (polygon) or end points (capsule, disc), as an ``(n, 2)`` array."""
    count = int(row[1])
    if count >= 3:
        offset = int(row[0])
        return np.asarray(verts[offset : offset + count], dtype=np.float64)
    return np.asarray(row[3 : 3 + 2 * count], dtype=np.float64).reshape(-1, 2)


def _clipped_core(row, verts, cx, cy, half):
    """A rounded row's polygon core near ``(cx, cy)``: the square of half-side ``half`` about it
    clipped by the core's half-planes (offsets from error-free cross products), relative to
    ``c``; None when the core is not a polygon."""
    if int(row[1]) < 3:
        return None
    square = [(-half, -half), (half, -half), (half, half), (-half, half)]
    for nx, ny, h in _polygon_half_planes(row, verts, cx, cy):
        if h >= 4.0 * half:
            continue
        square = _clip(square, nx, ny, h)
        if not square:
            break
    return square


def rounded_local_pair(kind_a, pa, va, kind_b, pb, vb):
    """A small rounded shape (``a``) beside a far larger polygon, ellipse or rounded shape
    (``b``), moved to the small shape's first core vertex ``c`` and scaled by ``2**-e`` to about
    1, or None when the pair is not of that kind: ``(row_a, verts_a, row_b, verts_b, cx, cy, e,
    rounded_b)``, world point ``w = c + 2**e x``; ``row_b`` a polygon (``rounded_b`` false) or a
    rounded polygon (true).

    No power of two suits both sizes (the rounded overlay kernels scale the largest number to
    about 1, where the small shape's squared lengths underflow). Near the small shape the large
    one is a set of half-planes whose offsets keep their relative accuracy: a polygon's edges
    (:func:`_polygon_half_planes`), the tangent half-plane of an ellipse whose curvature is
    negligible there (:func:`_ellipse_half_plane`). A square of half-side twice the small shape's size about ``c``,
    clipped by them, meets the small shape exactly where the large shape does (its own edges lie
    outside the small shape), as :func:`_local_area` does for a small ellipse. A rounded shape
    with a polygon core and a radius below ``FLAT_CURVATURE`` times the small size runs as that
    core clipped to a square of half-side twice the small size plus its radius, rounded by its
    radius (the rounded-rounded kernel); one of a larger radius, or with a segment core, is not
    handled here (None: its boundary's offset from ``c`` would need the core's distance beyond
    one float's accuracy).
    """
    if kind_a != "rounded" or kind_b not in ("polygon", "ellipse", "rounded"):
        return None
    core = _rounded_core_points(pa, va)
    radius = float(pa[2])
    cx, cy = float(core[0, 0]), float(core[0, 1])
    local = core - np.array([cx, cy])  # the small shape's own differences: exact or rounded once
    size = float(np.max(np.abs(local), initial=0.0)) + radius
    if not size > 0.0:
        return None
    big = _extent(kind_b, pb, vb)
    if big < math.ldexp(size, SPAN_MAX):
        return None
    e = _exponent(size)
    side = 2.0 * size
    square = [(-side, -side), (side, -side), (side, side), (-side, side)]
    rounded_b = False
    if kind_b == "polygon":
        planes = _polygon_half_planes(pb, vb, cx, cy)
    elif kind_b == "ellipse":
        lo, hi = sorted((float(pb[2]), float(pb[3])))
        if lo / hi * lo < _FLAT_CURVATURE * size:
            return None
        planes = [_ellipse_half_plane(pb, cx, cy)]
    elif float(pb[2]) >= _FLAT_CURVATURE * size:  # its boundary's offset from c is not known to that accuracy
        return None
    else:
        square = _clipped_core(pb, vb, cx, cy, 2.0 * (size + float(pb[2])))
        if square is None:  # a capsule's segment core: not handled locally
            return None
        planes, rounded_b = [], True
    for nx, ny, h in planes:
        if h >= 4.0 * side:  # the whole square is inside this half-plane
            continue
        square = _clip(square, nx, ny, h)
        if not square:
            break
    row_a = np.array(pa, dtype=np.float64)
    row_a[2] = math.ldexp(radius, -e)
    local = np.ldexp(local, -e)
    if int(pa[1]) >= 3:
        row_a[0] = 0.0
        verts_a = local
    else:
        row_a[3 : 3 + local.size] = local.ravel()
        verts_a = np.zeros((0, 2))
    verts_b = np.ldexp(np.array(square, dtype=np.float64).reshape(-1, 2), -e)
    if rounded_b:
        row_b = np.array([0.0, float(len(square)), math.ldexp(float(pb[2]), -e), 0.0, 0.0, 0.0, 0.0])
    else:
        row_b = np.array([0.0, float(len(square))])
    return _frozen(row_a), _frozen(verts_a), _frozen(row_b), _frozen(verts_b), cx, cy, e, rounded_b


def _local_kernel(operation, kernel, kind_b, rounded_b):
    """The kernel of a local pair (:func:`rounded_local_pair`): the table's for a polygon, else
    the rounded-polygon or rounded-rounded one of the same operation."""
    if kind_b == "polygon" and not rounded_b:
        return kernel
    if operation == "area":
        from collide2d._kernels.overlay import area_rounded as module

        return module.area_rounded_rounded if rounded_b else module.area_rounded_polygon
    from collide2d._kernels.overlay import points_rounded as module

    return module.points_rounded_rounded if rounded_b else module.points_rounded_polygon


def rounded_area_row(kernel, kind_a, pa, va, kind_b, pb, vb, relation):
    """Overlap area of one pair with a rounded shape (the rounded row first; NaN for a nested
    pair, as the kernel). The kernel scales the pair itself; a small rounded shape beside a polygon
    too large for one scaling runs against the polygon's half-planes near it
    (:func:`rounded_local_pair`)."""
    from collide2d._kernels import codes

    if relation == codes.OVERLAPPING and rounded_shift(kind_a, pa, va, kind_b, pb, vb)[1] is None:
        local = rounded_local_pair(kind_a, pa, va, kind_b, pb, vb)
        if local is not None:
            row_a, verts_a, row_b, verts_b, _, _, e, rounded_b = local
            if row_b[1] < 3:
                return _TINY  # overlapping, in an area far below the floats' resolution
            kernel = _local_kernel("area", kernel, kind_b, rounded_b)
            area = math.ldexp(float(kernel(row_a, verts_a, row_b, verts_b, relation)), 2 * e)
            return area if area > 0.0 else _TINY
    return float(kernel(pa, va, pb, vb, relation))


def rounded_points_row(kernel, kind_a, pa, va, kind_b, pb, vb, relation, out):
    """Intersection points of one pair with a rounded shape into ``out`` (the rounded row first;
    the kernel's count, with its decision codes): as :func:`rounded_area_row`."""
    from collide2d._kernels import codes

    meet = relation != codes.DISJOINT and relation != codes.EQUAL
    if meet and rounded_shift(kind_a, pa, va, kind_b, pb, vb)[1] is None:
        local = rounded_local_pair(kind_a, pa, va, kind_b, pb, vb)
        if local is not None:
            row_a, verts_a, row_b, verts_b, cx, cy, e, rounded_b = local
            if row_b[1] < 3:
                return -3 if relation == codes.TOUCHING else 0
            kernel = _local_kernel("points", kernel, kind_b, rounded_b)
            count = int(kernel(row_a, verts_a, row_b, verts_b, relation, out))
            found = count if count >= 0 else (-10 - count if count <= -10 else 0)
            out[:found, 0] = np.ldexp(out[:found, 0], e) + cx
            out[:found, 1] = np.ldexp(out[:found, 1], e) + cy
            return count
    return int(kernel(pa, va, pb, vb, relation, out))


def _core(kind, row, verts):
    """``(kind, row, verts, radius)``: a rounded row's core (polygon, segment or point) and its
    radius; a row of another kind as it is, of radius 0."""
    if kind != "rounded":
        return kind, row, verts, 0.0
    count = int(row[1])
    if count >= 3:
        return "polygon", row[0:2], verts, float(row[2])
    empty = verts[:0]
    return ("segment", row[3:7], empty, float(row[2])) if count == 2 else ("point", row[3:5], empty, float(row[2]))


def _core_contact(kind_a, pa, va, kind_b, pb, vb, lookup):
    """The contact of a pair with a rounded shape from its cores' contact at any magnitudes.

    The contact of ``K_a + D(r_a)`` and ``K_b + D(r_b)`` is that of the cores with the separation
    less ``r_a + r_b``, the witnesses moved by ``r_a n`` and ``-r_b n`` and the curvature ``1 / r``
    at a core's vertex (the identity of :mod:`collide2d._kernels.measure.distance_rounded`). The
    cores' contact is a pair of plain kinds: :func:`contact_row` measures it at any magnitudes
    (scaled, moved, or a small shape as a point plus its support); the radii are added in floats
    (a few ulps of the pair's scale, as every contact).
    """
    core_a, row_a, verts_a, radius_a = _core(kind_a, pa, va)
    core_b, row_b, verts_b, radius_b = _core(kind_b, pb, vb)
    entry = lookup("contact", core_a, core_b)
    if entry.swapped:
        r = contact_row(entry.kernel, core_b, row_b, verts_b, core_a, row_a, verts_a, lookup)
        r = (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])
    else:
        r = contact_row(entry.kernel, core_a, row_a, verts_a, core_b, row_b, verts_b, lookup)
    s, nx, ny, pax, pay, pbx, pby, ka, kb = (float(x) for x in r)
    if radius_a > 0.0:
        pax, pay = pax + radius_a * nx, pay + radius_a * ny
        ka = 1.0 / radius_a if ka == math.inf else ka
    if radius_b > 0.0:
        pbx, pby = pbx - radius_b * nx, pby - radius_b * ny
        kb = 1.0 / radius_b if kb == math.inf else kb
    return (s - (radius_a + radius_b), nx, ny, pax, pay, pbx, pby, ka, kb)


def _reference(kind, row, verts):
    """A point of the shape (centre, first vertex, start, the line's point, the point)."""
    if kind == "polygon":
        v = verts[int(row[0])]
        return float(v[0]), float(v[1])
    return float(row[0]), float(row[1])


def _translated(kind, row, verts, tx, ty):
    """The row (and vertices) moved by ``-t`` (rounded: a measurement only needs the differences)."""
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return np.array([0.0, float(count)]), verts[offset : offset + count] - np.array([tx, ty])
    out = np.array(row, dtype=np.float64)
    out[0] -= tx
    out[1] -= ty
    if kind == "segment":
        out[2] -= tx
        out[3] -= ty
    return out, verts[:0]


def _exact_move(kind, row, verts, tx, ty):
    """Whether moving the shape's coordinates by ``-t`` is exact (Knuth's TwoSum error is 0)."""
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        xy = verts[offset : offset + count]
    else:
        xy = np.asarray(row[:4] if kind == "segment" else row[:2]).reshape(-1, 2)
    t = np.array([-tx, -ty])
    s = xy + t
    bv = s - xy
    av = s - bv
    return bool(np.all((xy - av) + (t - bv) == 0.0))


def _extent(kind, row, verts):
    """The size of a shape (largest radius, bounding-box side, coordinate extent, a rounded core's
    extent plus its radius); inf for a line."""
    if kind == "ellipse":
        return max(float(row[2]), float(row[3]))
    if kind == "line":
        return math.inf
    if kind == "rounded":  # the core's coordinate extent plus the radius
        core = _rounded_core_points(row, verts)
        return float(np.max(np.max(core, axis=0) - np.min(core, axis=0))) + float(row[2])
    v = _numbers(kind, row, verts).reshape(-1, 2)
    return float(np.max(np.max(v, axis=0) - np.min(v, axis=0)))


def support(kind, row, verts, ux, uy):
    """Support of a shape relative to its :func:`_reference` point in the unit direction ``u``:
    ``(h, x, y, curvature)`` with ``(x, y)`` the support point's offset from the reference."""
    if kind == "ellipse":
        a, b, wx, wy = (float(x) for x in row[2:6])
        e = _exponent(max(a, b))
        a, b = math.ldexp(a, -e), math.ldexp(b, -e)  # exact; avoids squares of 1e-150
        norm = math.hypot(wx, wy)
        c = (ux * wx + uy * wy) / norm  # u in the ellipse's own frame
        s = (uy * wx - ux * wy) / norm
        rho = math.hypot(a * c, b * s)
        lx = a * a * c / rho
        ly = b * b * s / rho
        x = math.ldexp((lx * wx - ly * wy) / norm, e)
        y = math.ldexp((lx * wy + ly * wx) / norm, e)
        curvature = math.ldexp(rho**3 / (a * b) ** 2, -e) if a != b else math.ldexp(1.0 / a, -e)
        return math.ldexp(rho, e), x, y, curvature
    v = _numbers(kind, row, verts).reshape(-1, 2)
    v = v - v[0]
    proj = v[:, 0] * ux + v[:, 1] * uy
    i = int(np.argmax(proj))
    return float(proj[i]), float(v[i, 0]), float(v[i, 1]), math.inf


def _scaled_contact(kernel, kind_a, pa, va, kind_b, pb, vb):
    """Contact on the pair scaled by ``2**k`` (:func:`pair_shift`), scaled back."""
    k, _ = pair_shift(kind_a, pa, va, kind_b, pb, vb)
    return unscale_contact(kernel(*scaled_pair(kind_a, pa, va, kind_b, pb, vb, k)), k)


def contact_row(kernel, kind_a, pa, va, kind_b, pb, vb, lookup):
    """The contact 9-tuple of one pair at extreme magnitudes.

    ``lookup`` is the glue's table lookup (:func:`collide2d._glue.registry.entry`), passed
    in, not imported, so that this rung never imports the glue above it: case 3 below needs the
    contact kernel of a point stand-in and the other shape.

    1. When a power of two centres the pair's numbers in the tame interval, the kernel runs on the
       scaled pair.
    2. Else, when that holds after moving the pair so that ``a``'s reference point is the origin
       (two tiny shapes far from the origin) and the move is exact, it runs there.
    3. Else, a shape whose size is below ``2**-SPAN_MAX`` of the pair's largest relative coordinate
       or size is measured as its reference point ``r`` plus its support: no single scaling suits
       both sizes (the kernels square lengths). With ``n`` the normal of the contact of the
       stand-in points, ``s = s(points) - h_A(n) - h_B(-n)`` and the witness of a small shape is
       ``r + x_S(+-n)``, with its curvature there (the Minkowski sum of a shape and a point is the
       shape moved).
    4. Else (a harmless offset far below the sizes) the largest number is scaled to about 1.
    """
    if pair_shift(kind_a, pa, va, kind_b, pb, vb)[1]:
        return _scaled_contact(kernel, kind_a, pa, va, kind_b, pb, vb)
    tx, ty = _reference(kind_a, pa, va)
    ra, wa = _translated(kind_a, pa, va, tx, ty)
    rb, wb = _translated(kind_b, pb, vb, tx, ty)
    if _exact_move(kind_a, pa, va, tx, ty) and _exact_move(kind_b, pb, vb, tx, ty) and pair_shift(kind_a, ra, wa, kind_b, rb, wb)[1]:
        s, nx, ny, pax, pay, pbx, pby, ka, kb = _scaled_contact(kernel, kind_a, ra, wa, kind_b, rb, wb)
        return (s, nx, ny, pax + tx, pay + ty, pbx + tx, pby + ty, ka, kb)
    big = max(float(np.max(np.abs(_numbers(kind, row, verts)))) for kind, row, verts in ((kind_a, ra, wa), (kind_b, rb, wb)))
    limit = math.ldexp(big, -SPAN_MAX)
    small_a = 0.0 < _extent(kind_a, pa, va) < limit
    small_b = 0.0 < _extent(kind_b, pb, vb) < limit
    if not (small_a or small_b):
        # a harmless offset far below the sizes (a point at 1e-300 beside a segment of length 40):
        # the largest number scaled to at most TAME_HI, so that a squared cross product of the
        # flat kernels (degree 4 in the lengths: a point's squared distance to an edge) stays finite
        k, _ = pair_shift(kind_a, pa, va, kind_b, pb, vb)
        k = min(k, _exponent(TAME_HI) - _exponents(kind_a, pa, va, kind_b, pb, vb)[0])
        return unscale_contact(kernel(*scaled_pair(kind_a, pa, va, kind_b, pb, vb, k)), k)
    empty = np.zeros((0, 2))
    qa = _reference(kind_a, pa, va)
    qb = _reference(kind_b, pb, vb)
    first = ("point", np.array(qa), empty) if small_a else (kind_a, pa, va)
    second = ("point", np.array(qb), empty) if small_b else (kind_b, pb, vb)
    proxy = lookup("contact", first[0], second[0])
    proxy_kernel, swapped = proxy.kernel, proxy.swapped
    if swapped:
        r = _scaled_contact(proxy_kernel, *second, *first)
        r = (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])
    else:
        r = _scaled_contact(proxy_kernel, *first, *second)
    s, nx, ny, pax, pay, pbx, pby, ka, kb = r
    if small_a:
        h, x, y, ka = support(kind_a, pa, va, nx, ny)
        s, pax, pay = s - h, qa[0] + x, qa[1] + y
    if small_b:
        h, x, y, kb = support(kind_b, pb, vb, -nx, -ny)
        s, pbx, pby = s - h, qb[0] + x, qb[1] + y
    return (s, nx, ny, pax, pay, pbx, pby, ka, kb)


def points_row(kernel, kind_a, pa, va, kind_b, pb, vb, relation, out, tangent, lookup=None):
    """Intersection points of one pair into ``out`` (scaled back); returns the count.

    ``tangent(params_a, params_b, relation, out, count)`` settles a negative count (an exact
    decision of the ellipse-pair kernels). A small ellipse beside a far larger ellipse or
    polygon that no power of two tames runs against the large shape's half-planes near it
    (:func:`_local_points`); ``lookup`` is the glue's table lookup, as for :func:`contact_row`.
    """
    from collide2d._kernels import codes

    k, centred = pair_shift(kind_a, pa, va, kind_b, pb, vb)
    if not centred and lookup is not None and relation in (codes.OVERLAPPING, codes.TOUCHING):
        local = _local_points(kind_a, pa, va, kind_b, pb, vb, relation, out, lookup)
        if local is not None:
            return local
    ra, wa, rb, wb = scaled_pair(kind_a, pa, va, kind_b, pb, vb, k, "scale")
    count = int(kernel(ra, wa, rb, wb, relation, out))
    if count < 0:
        count = tangent(ra, rb, relation, out, count)
    out[:count] = np.ldexp(out[:count], -k)
    return count


def _row_area(kind, row, verts):
    """Area of one region row: ``pi a b`` or the shoelace sum (vertices scaled to about 1 first)."""
    if kind == "ellipse":
        return math.pi * float(row[2]) * float(row[3])
    v = _numbers(kind, row, verts).reshape(-1, 2)
    k = -_exponent(float(np.max(np.abs(v))))
    v = np.ldexp(v - v[0], k)  # differences of floats below 2**500 do not overflow
    twice = float(np.sum(v[:, 0] * np.roll(v[:, 1], -1) - np.roll(v[:, 0], -1) * v[:, 1]))
    return math.ldexp(0.5 * twice, -2 * k)


_TINY = 5e-324  # the smallest positive float


def area_row(kernel, kind_a, pa, va, kind_b, pb, vb, relation, lookup):
    """Overlap area of one pair, computed on the scaled pair and scaled back (by ``4**-k``).

    Nested pairs take the inner shape's area directly (the intersection is the inner shape):
    with sizes 2**1000 apart no single scaling suits both shapes. An overlapping pair whose
    scaled area underflowed to 0 reports the smallest positive float, so that the area is 0
    exactly when the interiors do not meet (as the separation's sign in ``measurement``).
    ``lookup``: the glue's table lookup, passed in (see :func:`contact_row`).
    """
    from collide2d._kernels import codes

    if relation in (codes.DISJOINT, codes.TOUCHING):
        return 0.0
    if relation in (codes.WITHIN, codes.EQUAL):
        return _row_area(kind_a, pa, va)
    if relation == codes.CONTAINS:
        return _row_area(kind_b, pb, vb)
    k, centred = pair_shift(kind_a, pa, va, kind_b, pb, vb)
    if not centred:
        local = _local_area(kind_a, pa, va, kind_b, pb, vb, lookup)
        if local is not None:
            return local if local > 0.0 else _TINY
        # The overlap lies within the smaller shape: scale it to about 1, so that its lengths keep
        # their bits and no product of them underflows (the ellipse kernels divide by the radii),
        # while the squares of the larger shape's numbers stay finite (below 2**1000).
        k_small = -_exponent(min(_extent(kind_a, pa, va), _extent(kind_b, pb, vb)))
        big = max(float(np.max(np.abs(_numbers(kind, row, verts)))) for kind, row, verts in ((kind_a, pa, va), (kind_b, pb, vb)))
        k = max(k, min(k_small, 500 - _exponent(big)))
    area = math.ldexp(float(kernel(*scaled_pair(kind_a, pa, va, kind_b, pb, vb, k), relation)), -2 * k)
    return area if area > 0.0 else _TINY


def _local_area(kind_a, pa, va, kind_b, pb, vb, lookup):
    """Overlap area of a small ellipse with a far larger shape, in coordinates relative to the
    ellipse's centre, or None when the pair is not of that kind.

    For sizes more than ``2**SPAN_MAX`` apart no power of two suits both shapes: the large
    shape's numbers squared overflow once the small one is scaled to 1 (an ellipse of radii
    1e-120 and 1e-150 on the corner of a polygon of size 1e150 had an area of 5e-324). Near the
    small ellipse the large shape is a set of half-planes (:func:`_local_square`); the ellipse and
    that clipped square, scaled to about 1, run the ellipse-polygon kernel.
    """
    if kind_a == "polygon" and kind_b == "ellipse" or kind_b == "polygon" and kind_a == "ellipse":
        ellipse, row, verts = (pb, pa, va) if kind_a == "polygon" else (pa, pb, vb)
        if _extent("polygon", row, verts) < max(float(ellipse[2]), float(ellipse[3])):
            return _small_polygon_area(ellipse, row, verts)
    local = _local_square(kind_a, pa, va, kind_b, pb, vb)
    if local is None or isinstance(local, float):
        return local
    row_e, row_p, verts, e, _, _ = local
    from collide2d._kernels import codes

    kernel = lookup("area", "ellipse", "polygon").kernel
    return math.ldexp(float(kernel(row_e, np.zeros((0, 2)), row_p, verts, codes.OVERLAPPING)), 2 * e)


def _local_points(kind_a, pa, va, kind_b, pb, vb, relation, out, lookup):
    """Intersection points of a small ellipse with a far larger ellipse or polygon into ``out``,
    as :func:`_local_area`: the ellipse's crossings with the clipped square about its centre
    (whose added sides lie outside the ellipse, so every crossing is one with the large shape's
    boundary), moved back by the centre. Returns the count, or None when the pair is not of that
    kind (then one scaling serves the pair)."""
    local = _local_square(kind_a, pa, va, kind_b, pb, vb)
    if local is None:
        return None
    if isinstance(local, float):
        return 0
    row_e, row_p, verts, e, cx, cy = local
    kernel = lookup("points", "ellipse", "polygon").kernel
    count = int(kernel(row_e, np.zeros((0, 2)), row_p, verts, relation, out))
    out[:count] = np.ldexp(out[:count], e) + np.array([cx, cy])
    return count


def _local_square(kind_a, pa, va, kind_b, pb, vb):
    """A small ellipse and the far larger shape near it, in coordinates relative to the
    ellipse's centre and scaled by ``2**-e`` to about 1: ``(row_e, row_p, verts, e, cx, cy)``;
    ``0.0`` when the large shape misses the square about the ellipse; None when the pair is not
    of that kind.

    Near the small ellipse the large shape is a set of half-planes ``n.y >= -h`` in
    ``y = x - c`` (its edges, or the tangent half-plane of a large ellipse whose curvature is
    negligible there), whose offsets ``h`` keep their relative accuracy (:func:`line_foot`'s
    error-free cross products, the level of :func:`points_ellipse.offset_at`). A square of side
    four radii about the centre clipped by those half-planes (Sutherland and Hodgman, "Reentrant
    polygon clipping", CACM 17, 1974) meets the ellipse as the large shape does.
    """
    if kind_a == "ellipse" and kind_b in ("ellipse", "polygon"):
        small, kind_big, big, verts_big = pa, kind_b, pb, vb
    elif kind_b == "ellipse" and kind_a == "polygon":
        small, kind_big, big, verts_big = pb, kind_a, pa, va
    else:
        return None
    cx, cy, ra, rb = (float(v) for v in small[:4])
    radius = max(ra, rb)
    if kind_big == "polygon" and _extent("polygon", big, verts_big) < radius:
        return None
    if kind_big == "ellipse":
        if max(float(big[2]), float(big[3])) < radius:
            small, big = big, small
            cx, cy, ra, rb = (float(v) for v in small[:4])
            radius = max(ra, rb)
        a_big, b_big = float(big[2]), float(big[3])
        lo, hi = min(a_big, b_big), max(a_big, b_big)
        if lo / hi * lo < _FLAT_CURVATURE * radius:
            return None
        planes = [_ellipse_half_plane(big, cx, cy)]
    else:
        if _extent("polygon", big, verts_big) < _FLAT_CURVATURE * radius:
            return None
        planes = _polygon_half_planes(big, verts_big, cx, cy)
    e = _exponent(radius)
    side = 2.0 * radius
    square = [(-side, -side), (side, -side), (side, side), (-side, side)]
    for nx, ny, h in planes:
        if h >= 4.0 * side:  # the whole square is inside this half-plane
            continue
        square = _clip(square, nx, ny, h)
        if not square:
            return 0.0
    if len(square) < 3:
        return 0.0
    row_e = np.array([0.0, 0.0, math.ldexp(ra, -e), math.ldexp(rb, -e), float(small[4]), float(small[5])])
    verts = np.ldexp(np.array(square, dtype=np.float64), -e)
    row_p = np.array([0.0, float(len(square))])
    return row_e, row_p, verts, e, cx, cy


def _small_polygon_area(ellipse, row, verts):
    """Overlap area of a small polygon with a far larger ellipse whose curvature is negligible at
    the polygon's size (see :data:`_FLAT_CURVATURE`), or None when it is not: the polygon, in
    coordinates relative to its first vertex, clipped to the ellipse's tangent half-plane there
    (the mirror case of :func:`_local_area`), and its area by the shoelace formula."""
    offset, count = int(row[0]), int(row[1])
    v = verts[offset : offset + count]
    size = _extent("polygon", row, verts)
    lo, hi = sorted((float(ellipse[2]), float(ellipse[3])))
    if lo / hi * lo < _FLAT_CURVATURE * size:
        return None
    x0, y0 = float(v[0, 0]), float(v[0, 1])
    nx, ny, h = _ellipse_half_plane(ellipse, x0, y0)
    e = _exponent(size)
    if h >= 4.0 * size:  # the polygon lies inside the half-plane
        h = math.inf
    # vertices within 2**SPAN_MAX of each other's size: their differences are exact or rounded once
    shape = [(math.ldexp(float(x) - x0, -e), math.ldexp(float(y) - y0, -e)) for x, y in v]
    clipped = shape if h == math.inf else _clip(shape, nx, ny, math.ldexp(h, -e))
    if len(clipped) < 3:
        return 0.0
    twice = 0.0
    for i in range(len(clipped)):
        xa, ya = clipped[i]
        xb, yb = clipped[(i + 1) % len(clipped)]
        twice += xa * yb - xb * ya
    return math.ldexp(max(twice, 0.0) / 2.0, 2 * e)


def _polygon_half_planes(row, verts, cx, cy):
    """``(nx, ny, h)`` per edge of a counter-clockwise polygon: inward unit normal and the signed
    distance of ``(cx, cy)`` from the edge's line (positive inside), the latter from error-free
    cross products."""
    offset, count = int(row[0]), int(row[1])
    v = verts[offset : offset + count]
    planes = []
    for i in range(count):
        x0, y0 = float(v[i, 0]), float(v[i, 1])
        x1, y1 = float(v[(i + 1) % count, 0]), float(v[(i + 1) % count, 1])
        two_sum = error_free()[0]
        dx, dxl = two_sum(x1, -x0)
        dy, dyl = two_sum(y1, -y0)
        e = _exponent(max(abs(dx), abs(dy)))
        dx, dy, dxl, dyl = (math.ldexp(t, -e) for t in (dx, dy, dxl, dyl))
        norm = math.hypot(dx, dy)
        planes.append((-dy / norm, dx / norm, -_cross_ratio(cx, cy, x0, y0, dx, dy, dxl, dyl) * norm))
    return planes


def _ellipse_half_plane(row, cx, cy):
    """The tangent half-plane of a large ellipse next to the point ``(cx, cy)``: its inward unit
    normal and the signed distance of the point from the boundary (positive inside), to first
    order ``-(q - 1) / |grad q|`` with the level from error-free sums (its second-order error,
    ``h**2`` over the radius of curvature, lies far below rounding here)."""
    from collide2d._kernels.overlay.points_ellipse import offset_at

    sp, sr, g = offset_at(cx, cy, np.asarray(row, dtype=np.float64))
    a, b, wx, wy = (float(v) for v in row[2:6])
    if a == b:
        wx, wy = 1.0, 0.0
    norm = math.hypot(wx, wy)
    ux, uy = wx / norm, wy / norm
    gx = sp / a * ux - sr / b * uy  # half the gradient of q
    gy = sp / a * uy + sr / b * ux
    glen = math.hypot(gx, gy)
    return -gx / glen, -gy / glen, -0.5 * g / glen


def _clip(polygon, nx, ny, h):
    """A convex polygon clipped to the half-plane ``nx x + ny y + h >= 0``."""
    out = []
    count = len(polygon)
    for i in range(count):
        x0, y0 = polygon[i]
        x1, y1 = polygon[(i + 1) % count]
        s0 = nx * x0 + ny * y0 + h
        s1 = nx * x1 + ny * y1 + h
        if s0 >= 0.0:
            out.append((x0, y0))
        if (s0 >= 0.0) != (s1 >= 0.0):
            t = s0 / (s0 - s1)
            out.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
    return out


def lift_line_directions(ellipse_rows, line_rows):
    """Line rows with each direction rescaled by a power of two for ``points_ellipse_line``.

    That kernel forms the second point ``p + d`` of the line and maps both points into the
    ellipse's unit frame (lengths divided by the radii). The direction therefore needs a length of
    about the smaller radius (so that its image in the unit frame is about 1 and its square cannot
    overflow, even for a needle with radii 1e150 and 1e-150), but not below 2**-50 of the
    coordinates (so that ``p + d`` keeps it: a line through (-1e16, 0) along (1, 0) lost it, a
    division by zero). Scaling by a power of two is exact. Arrays of shape ``(n, 6)`` and
    ``(n, 4)``; returns a new ``(n, 4)`` array.
    """
    far = np.max(np.abs(np.concatenate([ellipse_rows[:, :2], line_rows[:, :2]], axis=1)), axis=1)
    size = np.maximum(np.minimum(ellipse_rows[:, 2], ellipse_rows[:, 3]), np.ldexp(far, -50))
    _, e_size = np.frexp(size)
    _, e_dir = np.frexp(np.max(np.abs(line_rows[:, 2:4]), axis=1))
    out = np.array(line_rows[:, :4], dtype=np.float64)
    out[:, 2:4] = np.ldexp(out[:, 2:4], (e_size - e_dir)[:, None])
    return out


@functools.lru_cache(maxsize=None)
def error_free():
    """``(two_sum, two_product)`` of the kernels' ``vec`` as plain Python (the exact twin's copy), which
    work on floats and NumPy arrays alike."""
    from collide2d._robust import exact

    vec = exact.twin_module("vec")
    return vec.two_sum, vec.two_product


def line_foot(cx, cy, px, py, dx, dy, dxl=0.0, dyl=0.0):
    """The foot of ``(cx, cy)`` on the line through ``(px, py)`` along ``(dx + dxl, dy + dyl)``.

    ``f = c + k (-d_y, d_x)`` with ``k = d x (p - c) / |d|^2``: the cross product is carried as
    ``hi + lo`` (TwoSum, TwoProduct; Ogita, Rump & Oishi, "Accurate sum and dot product", SIAM J.
    Sci. Comput. 26, 2005), so the line's offset from ``c`` keeps its relative accuracy however
    far away ``p`` is stored (``f = p + t d`` loses ``eps |p - c|`` across a tilted line: a
    segment from -1e15 to 1e15 met the unit circle 0.1 off). Direction components in ``[0.5, 1)``
    or below (scaled by the caller) keep the products finite. Floats or arrays alike.
    """
    k = _cross_ratio(cx, cy, px, py, dx, dy, dxl, dyl)
    return cx - k * dy, cy + k * dx


def _cross_ratio(cx, cy, px, py, dx, dy, dxl=0.0, dyl=0.0):
    """``k = d x (p - c) / |d|^2`` (the foot of ``c`` is ``c + k (-d_y, d_x)``), the cross product
    carried as ``hi + lo`` (see :func:`line_foot`)."""
    two_sum, two_product = error_free()
    ex, exl = two_sum(px, -cx)
    ey, eyl = two_sum(py, -cy)
    a, al = two_product(dx, ey)
    b, bl = two_product(dy, ex)
    h, hl = two_sum(a, -b)
    cross = h + (hl + (al - bl) + ((dx * eyl + dxl * ey) - (dy * exl + dyl * ex)))
    return cross / (dx * dx + dy * dy)


def foot_lines(ellipse_rows, line_rows, direction_lo=None):
    """Line rows ``(px, py, dx, dy)`` re-based at the foot of each ellipse centre, for the points kernel.

    ``points_ellipse_line`` measures along the line from its stored point: from a point 1e16 away
    the points come out with an error of about 1e16 ulps (a crossing of the unit circle at 0 or
    0.875 instead of +-1). The same line through its foot (:func:`line_foot`, on the line within
    rounding of the ellipse's scale whenever the line meets it) gives points accurate to that
    scale. ``direction_lo``: the rounding errors of the directions (a segment's ``p1 - p0``), or
    none. Directions are then scaled as by :func:`lift_line_directions`.
    """
    _, e = np.frexp(np.max(np.abs(line_rows[:, 2:4]), axis=1))
    d = np.ldexp(line_rows[:, 2:4], -e[:, None])  # largest component in [0.5, 1): d.d cannot overflow
    dl = np.zeros_like(d) if direction_lo is None else np.ldexp(direction_lo, -e[:, None])
    fx, fy = line_foot(ellipse_rows[:, 0], ellipse_rows[:, 1], line_rows[:, 0], line_rows[:, 1], d[:, 0], d[:, 1],
                       dl[:, 0], dl[:, 1])
    return lift_line_directions(ellipse_rows, np.column_stack([fx, fy, d]))
