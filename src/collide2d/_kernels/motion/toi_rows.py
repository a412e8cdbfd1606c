"""The rows of the compiled translation search for a whole batch, in one pass.

:class:`collide2d.motion.search._Motion` builds the frame of each pair and its rows with a few
dozen NumPy calls over the batch (reference points, extents, the frame, the shapes shifted into
it, the table of numbers :data:`.toi.ROW`); :func:`translation_rows` computes the same floats,
operation for operation, in one compiled pass, so that a translating batch costs its search and
little more (a batch of 16-gons spent about 6 us per pair in those NumPy calls, eight times its
closed-form search).

Per pair ``k`` (rows ``pa[ia[k]]``, ``pb[ib[k]]``), as there:

* the reference point (the centre of an ellipse, the midpoint of a segment, a line's point, the
  point; a polygon's given one, the centre of a box or rotated box, or else its area centroid,
  :func:`_centroid`) and the extent about it (the larger semi-axis, the farther end or vertex, 0
  for a point, inf for a line), the extent rounded up by ``1 + 8 ulp``;
* the frame ``c``: the reference point of ``a`` rounded to a multiple of the power of two ``G >= 2
  D``, ``D = max(r_a, |ref_b - ref_a| + r_b)`` over the finite extents (see
  :func:`collide2d.motion.search._frame_offsets`, which derives why ``x - c`` is exact there;
  ``c = ref_a`` where the rounding overflows);
* when any pair of the batch has a frame other than 0, every pair's rows shifted by ``-c`` (the
  floats of ``move_<kind>_loop`` of :mod:`.loops` with the turn ``(1, 0)``: a point ``+ (dx,
  dy)``, a direction ``(1 x - 0 y, 0 x + 1 y)``), its reference points those of the shifted rows
  and its given ``b`` unshifted (``gdx = gdy = 0``); a polygon's shifted row is ``(offset,
  count)`` into the shifted vertices (the pairs' polygons one after the other, as
  ``collide2d.motion.rigid._moved`` lays them out), and its reference point the area centroid of
  those vertices (a moved box is a polygon); else the rows as given, indexed by ``ia``, ``ib``, and
  ``gd = (v_b - v_a) 0``.

The helpers read rows by index (no array views: a view per row, and its reference count, would
cost more than the arithmetic).
"""

import math

import numpy as np
from numba.extending import register_jitable

from collide2d._jit import kernel

from .rigid import move_xy
from .toi import ELLIPSE, LINE, POLYGON, SEGMENT

GROW = 1.0 + 8 * 2.0**-52  # the extents rounded up (collide2d.motion.rigid._extents)
TINY = 2.2250738585072014e-308  # the smallest normal float: the frame of a pair of extent 0
SQUARE_LO, SQUARE_HI = 2.0**-900, 2.0**1000  # squares of distances as accurate as their products


@register_jitable
def _centroid(p, verts, i):
    """The area centroid of polygon row ``i`` (its vertices in ``verts``), the floats of
    ``collide2d.motion.rigid._polygon_centroids``: the vertices relative to the first, scaled by
    the power of two ``2**-e`` that brings their largest magnitude into ``[0.5, 1)`` (exact; the
    sums are of degree 3 in the lengths), the sums of the shoelace formula in vertex order (as
    ``np.bincount`` adds), the centroid scaled back and added to the first vertex."""
    first = int(p[i, 0])
    count = int(p[i, 1])
    x0, y0 = verts[first, 0], verts[first, 1]
    size = 0.0
    for j in range(count):
        size = max(size, max(abs(verts[first + j, 0] - x0), abs(verts[first + j, 1] - y0)))
    exponent = math.frexp(size)[1]
    down = _power(-exponent)  # 2**-e, or 0.0 where it is no float (then ldexp itself)
    area = 0.0
    sum_x = 0.0
    sum_y = 0.0
    for j in range(count):
        after = first + (j + 1 if j + 1 < count else 0)
        qx0 = _scaled(verts[first + j, 0] - x0, -exponent, down)
        qy0 = _scaled(verts[first + j, 1] - y0, -exponent, down)
        qx1 = _scaled(verts[after, 0] - x0, -exponent, down)
        qy1 = _scaled(verts[after, 1] - y0, -exponent, down)
        cross = qx0 * qy1 - qx1 * qy0
        area += cross
        sum_x += (qx0 + qx1) * cross
        sum_y += (qy0 + qy1) * cross
    area3 = 3.0 * area
    if area3 == 0.0:  # (the constructors refuse a polygon of area 0: NaN, not a ZeroDivisionError)
        return x0 + math.nan, y0 + math.nan
    up = _power(exponent)
    return x0 + _scaled(sum_x / area3, exponent, up), y0 + _scaled(sum_y / area3, exponent, up)


@register_jitable
def _power(exponent):
    """``2**exponent`` where it is a float (normal or subnormal), else 0.0."""
    if -1074 <= exponent <= 1023:
        return math.ldexp(1.0, exponent)
    return 0.0


@register_jitable
def _scaled(x, exponent, power):
    """``ldexp(x, exponent)``, ``power`` being ``_power(exponent)``: the product with that power of
    two where it is a float (rounded once, as ldexp rounds), else ldexp."""
    if power != 0.0:
        return x * power
    return math.ldexp(x, exponent)


@register_jitable
def _farthest(verts, first, count, rx, ry):
    """The largest ``hypot`` of the vertices ``verts[first:first + count]`` less ``(rx, ry)``, the
    float that ``np.hypot`` and a maximum give, with few calls of ``hypot``: only vertices whose
    squared distance, as computed, is within ``2**-40`` of the largest can have the largest
    ``hypot`` (both are within a few ulps of the exact distance and its square), when the squares
    neither overflow nor lose digits to underflow (else every vertex's ``hypot``)."""
    top = 0.0
    for j in range(first, first + count):
        dx = verts[j, 0] - rx
        dy = verts[j, 1] - ry
        top = max(top, dx * dx + dy * dy)
    if not SQUARE_LO <= top <= SQUARE_HI:
        top = 0.0  # (every vertex)
    r = 0.0
    for j in range(first, first + count):
        dx = verts[j, 0] - rx
        dy = verts[j, 1] - ry
        if dx * dx + dy * dy >= top * (1.0 - 2.0**-40):
            r = max(r, math.hypot(dx, dy))
    return r


@register_jitable
def _reach(kind, p, verts, refs, given, i):
    """Reference point and extent of row ``i`` of ``p`` (a line's extent: inf); a polygon's
    reference point is ``refs[i]`` when ``given`` (boxes), else its centroid."""
    if kind == POLYGON:
        if given:
            rx, ry = refs[i, 0], refs[i, 1]
        else:
            rx, ry = _centroid(p, verts, i)
        return rx, ry, _farthest(verts, int(p[i, 0]), int(p[i, 1]), rx, ry) * GROW
    if kind == SEGMENT:
        rx = 0.5 * (p[i, 0] + p[i, 2])
        ry = 0.5 * (p[i, 1] + p[i, 3])
        r = max(math.hypot(p[i, 0] - rx, p[i, 1] - ry), math.hypot(p[i, 2] - rx, p[i, 3] - ry))
    elif kind == ELLIPSE:
        rx, ry, r = p[i, 0], p[i, 1], max(p[i, 2], p[i, 3])
    elif kind == LINE:
        rx, ry, r = p[i, 0], p[i, 1], math.inf
    else:
        rx, ry, r = p[i, 0], p[i, 1], 0.0
    return rx, ry, r * GROW


@register_jitable
def _reference(kind, p, verts, i):
    """The reference point of row ``i`` of ``p`` (:func:`_reach` without the extent; a polygon's:
    its centroid)."""
    if kind == POLYGON:
        return _centroid(p, verts, i)
    if kind == SEGMENT:
        return 0.5 * (p[i, 0] + p[i, 2]), 0.5 * (p[i, 1] + p[i, 3])
    return p[i, 0], p[i, 1]


@register_jitable
def _grid_point(x, grid):
    """``x`` rounded to a multiple of ``grid`` (exact: scaling by a power of two, an integer,
    scaled back), or ``x`` where ``x / grid`` overflows (a pair of extent 0)."""
    scaled = x / grid
    return np.rint(scaled) * grid if math.isfinite(scaled) else x


@register_jitable
def _shifted(kind, p, verts, i, dx, dy, out, out_verts, k, offset):
    """``out[k]`` = row ``i`` of ``p`` shifted by ``(dx, dy)`` (see the module notes); a polygon's
    vertices into ``out_verts[offset:]``, its row ``(offset, count)``."""
    if kind == POLYGON:
        first = int(p[i, 0])
        count = int(p[i, 1])
        for j in range(count):
            out_verts[offset + j, 0], out_verts[offset + j, 1] = move_xy(verts[first + j, 0], verts[first + j, 1], 0.0,
                                                                         0.0, 1.0, 0.0, dx, dy)
        out[k, 0] = float(offset)
        out[k, 1] = float(count)
        return
    out[k, 0] = p[i, 0] + dx
    out[k, 1] = p[i, 1] + dy
    if kind == SEGMENT:
        out[k, 2] = p[i, 2] + dx
        out[k, 3] = p[i, 3] + dy
        return
    j = 4 if kind == ELLIPSE else 2  # the column of the direction (of an ellipse, a line)
    if kind == ELLIPSE:
        out[k, 2] = p[i, 2]
        out[k, 3] = p[i, 3]
    if kind == ELLIPSE or kind == LINE:
        out[k, j] = 1.0 * p[i, j] - 0.0 * p[i, j + 1]
        out[k, j + 1] = 0.0 * p[i, j] + 1.0 * p[i, j + 1]


@kernel
def translation_rows(kind_a, pa, verts_a, refs_a, kind_b, pb, verts_b, refs_b, ia, ib, va, vb, wa, wb, t_max):
    """``(shifted, index, numbers, fa, fva, fb, fvb)`` of the translating pairs ``pa[ia[k]]``,
    ``pb[ib[k]]`` (kind codes of :mod:`.toi`; a polygon's vertices in ``verts_a``, ``verts_b``, its
    reference point in ``refs_a``, ``refs_b`` when they have rows, else its centroid): the index
    table and the numbers (:data:`.toi.ROW`) of the loops of :mod:`collide2d._kernels.toi_loops`,
    and, when ``shifted``, the rows in the frame and their vertices (else ``fa``, ``fb`` are
    empty: the loops take the rows as given)."""
    n = ia.shape[0]
    numbers = np.empty((n, 16))
    index = np.empty((n, 4), dtype=np.int64)
    shifted = False
    count_a = count_b = 0  # the vertices of the shifted polygons
    given_a = refs_a.shape[0] > 0
    given_b = refs_b.shape[0] > 0
    for k in range(n):
        ax, ay, reach_a = _reach(kind_a, pa, verts_a, refs_a, given_a, ia[k])
        bx, by, reach_b = _reach(kind_b, pb, verts_b, refs_b, given_b, ib[k])
        if kind_a == POLYGON:
            count_a += int(pa[ia[k], 1])
        if kind_b == POLYGON:
            count_b += int(pb[ib[k], 1])
        finite_a = reach_a if math.isfinite(reach_a) else 0.0
        finite_b = reach_b if math.isfinite(reach_b) else 0.0
        span = max(finite_a, math.hypot(bx - ax, by - ay) + finite_b)
        grid = math.ldexp(1.0, math.frexp(max(2.0 * span, TINY))[1])  # a power of two >= 2 D
        frame_x = _grid_point(ax, grid)
        frame_y = _grid_point(ay, grid)
        shifted = shifted or frame_x != 0.0 or frame_y != 0.0
        numbers[k, 8], numbers[k, 9], numbers[k, 10], numbers[k, 11] = ax, ay, bx, by
        numbers[k, 12], numbers[k, 13] = frame_x, frame_y
        numbers[k, 14] = max(finite_a, finite_b)
    fa = np.empty((n if shifted else 0, pa.shape[1]))
    fb = np.empty((n if shifted else 0, pb.shape[1]))
    fva = np.empty((count_a if shifted else 0, 2))
    fvb = np.empty((count_b if shifted else 0, 2))
    offset_a = offset_b = 0
    for k in range(n):
        if shifted:  # both shifted by -frame once; the given b is searched unshifted
            dx, dy = -numbers[k, 12], -numbers[k, 13]
            _shifted(kind_a, pa, verts_a, ia[k], dx, dy, fa, fva, k, offset_a)
            _shifted(kind_b, pb, verts_b, ib[k], dx, dy, fb, fvb, k, offset_b)
            if kind_a == POLYGON:
                offset_a += int(fa[k, 1])
            if kind_b == POLYGON:
                offset_b += int(fb[k, 1])
            # the reference points of the shifted rows (a shifted polygon's: its centroid)
            numbers[k, 8], numbers[k, 9] = _reference(kind_a, fa, fva, k)
            numbers[k, 10], numbers[k, 11] = _reference(kind_b, fb, fvb, k)
            numbers[k, 0] = 0.0
            numbers[k, 1] = 0.0
            index[k, 2] = k
            index[k, 3] = k
        else:  # the search's own evaluation at time 0 (see _Motion.contact)
            numbers[k, 0] = (vb[k, 0] - va[k, 0]) * 0.0
            numbers[k, 1] = (vb[k, 1] - va[k, 1]) * 0.0
            index[k, 2] = ia[k]
            index[k, 3] = ib[k]
        index[k, 0] = ia[k]
        index[k, 1] = ib[k]
        numbers[k, 2], numbers[k, 3], numbers[k, 4], numbers[k, 5] = va[k, 0], va[k, 1], vb[k, 0], vb[k, 1]
        numbers[k, 6], numbers[k, 7] = wa[k], wb[k]
        numbers[k, 15] = t_max[k]
    return shifted, index, numbers, fa, fva, fb, fvb
