"""Packed uniform grid with the narrow phase fused in: the fast path of ``query_pairs``.

Same element contract as :mod:`collide2d._kernels.broadphase.sweep` (boxes ``xmin, ymin, xmax, ymax``
rounded outward, query rows ``qid``, target columns ``tid``, *self* mode keeps ``tid > qid``),
restricted to the common case: no periodic images, so a target column identifies its element.
What makes it faster than :func:`sweep.grid_rows` followed by the narrow phase (measured
2026-11-22 on 2 cores; figures in https://collide2d.readthedocs.io/en/latest/benchmarks.html#broad-phase-scenes-and-growth):

* the cell entries are *packed*: the box, the column and (for ellipses) the centre and the
  largest and smallest semi-axis of every entry are copied next to each other in cell order
  (:func:`grid_pack`), so the inner loop streams through contiguous memory instead of gathering
  by element;
* each cell's entries are split in four groups by where the box starts (:func:`grid_pack`), so
  that a query visits each target once and needs no reference-point test per candidate;
* the queries are put in cell order by a counting sort (:func:`cell_order`, O(n)) instead of
  ``np.argsort``, so that consecutive queries visit neighbouring cells;
* the fill pass runs the circle filter on each candidate as soon as it is found
  (:func:`fused_rows`) and writes only the columns that may meet: rejected candidates are never
  stored; :func:`resolve_rows` settles the rest with two cheap certified filters before the
  ``intersects`` kernel (not ``relate``: containment is not asked);
* the kept columns of a row come as a few increasing runs, merged (:func:`compact_rows`) rather
  than sorted.

The count pass (:func:`fused_rows` with ``out`` empty) counts the bounding-box candidates of each
row: an upper bound of what the fill pass keeps. The fill pass writes each row into its own slice
and reports how many it kept; :func:`compact_rows` merges the kept part of each slice and packs
the rows together. Every step writes at positions fixed by prefix sums, so the result is
identical whatever the number of threads.

Pairs reported once: a target box is inserted into every cell it overlaps, and a pair is taken
only in the cell holding the corner ``(max(xmin), max(ymin))`` of the two boxes (Ericson,
*Real-Time Collision Detection*, 2005, ch. 7; see :mod:`sweep`). :func:`sweep.cell_of` is
monotone, and that corner lies in both boxes, so its cell is in the cell range of both.
"""

import math

import numpy as np
from numba import prange

from collide2d._jit import call_at
from collide2d._jit import kernel, loop

from ..codes import DISJOINT, UNDECIDED
from ..relate.conic import _circle_filter, intersects_ellipse_ellipse
from .sweep import cell_of, cell_range

_EPS = 2.0**-53  # the float-mode ``eps`` of the pair kernels (unit roundoff)


@kernel
def cell_order(xmin, ymin, xmax, ymax, x0, y0, inv, nx, ny):
    """Element indices in row-major order of the cell of their box centre (a stable counting sort).

    Non-finite centres clamp to the first or last cell (``cell_of``); NaN goes to cell 0.
    """
    ne = xmin.shape[0]
    cell = np.empty(ne, dtype=np.int64)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    for e in range(ne):
        cx = 0.5 * xmin[e] + 0.5 * xmax[e]  # halves first: no overflow for huge boxes
        cy = 0.5 * ymin[e] + 0.5 * ymax[e]
        c = cell_of(cy, y0, inv, ny) * nx + cell_of(cx, x0, inv, nx)
        cell[e] = c
        start[c + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    order = np.empty(ne, dtype=np.int64)
    for e in range(ne):
        c = cell[e]
        order[start[c]] = e
        start[c] += 1
    return order


@kernel
def _entry_group(cx, cy, cx0, cy0):
    """Group of a box that starts in cell column ``cx0`` and row ``cy0``, within cell ``(cx, cy)``:
    0 starts here in x only, 1 in both, 2 in y only, 3 in neither."""
    if cx == cx0:
        return 0 if cy != cy0 else 1
    return 2 if cy == cy0 else 3


@kernel
def grid_pack(xmin, ymin, xmax, ymax, tid, params, x0, y0, inv, nx, ny):
    """Counting sort of the targets into ``nx * ny`` cells and four groups per cell.

    A target is inserted into every cell its box overlaps. Within cell ``c = cy * nx + cx`` its
    entries ``start[4 c] .. start[4 c + 4] - 1`` come in four groups (see :func:`_entry_group`):
    ``start[4 c + g] .. start[4 c + g + 1] - 1`` holds the boxes whose first cell column is ``cx``
    but first row is not ``cy`` (g = 0), both (g = 1), only the row (g = 2), neither (g = 3);
    so the boxes that *start* in column ``cx`` are one range (groups 0-1), those that start in row
    ``cy`` another (groups 1-2). Within a group, entries keep the order of the input arrays.

    Returns ``(start, ex0, ey0, ex1, ey1, et, ecx, ecy, erx, ern)``: entry ``k`` holds the box, the
    column ``et[k] = tid[e]`` and, when ``params`` (ellipse rows, one per input element) is not
    empty, the centre and the largest and smallest semi-axis of the ellipse (what the circle
    filter reads: the fill pass never has to gather a target's row).
    """
    ne = xmin.shape[0]
    start = np.zeros(4 * nx * ny + 1, dtype=np.int64)
    for e in range(ne):
        if tid[e] < 0:
            continue
        cx0, cx1, cy0, cy1 = cell_range(xmin[e], ymin[e], xmax[e], ymax[e], x0, y0, inv, nx, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                start[4 * (cy * nx + cx) + _entry_group(cx, cy, cx0, cy0) + 1] += 1
    for c in range(4 * nx * ny):
        start[c + 1] += start[c]
    total = start[4 * nx * ny]
    circles = params.shape[0] > 0
    nc = total if circles else 0
    ex0 = np.empty(total)
    ey0 = np.empty(total)
    ex1 = np.empty(total)
    ey1 = np.empty(total)
    et = np.empty(total, dtype=np.int64)
    ecx = np.empty(nc)
    ecy = np.empty(nc)
    erx = np.empty(nc)
    ern = np.empty(nc)
    fill = start[:-1].copy()
    for e in range(ne):
        if tid[e] < 0:
            continue
        cx0, cx1, cy0, cy1 = cell_range(xmin[e], ymin[e], xmax[e], ymax[e], x0, y0, inv, nx, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                g = 4 * (cy * nx + cx) + _entry_group(cx, cy, cx0, cy0)
                k = fill[g]
                ex0[k] = xmin[e]
                ey0[k] = ymin[e]
                ex1[k] = xmax[e]
                ey1[k] = ymax[e]
                et[k] = tid[e]
                if circles:
                    ecx[k] = params[e, 0]
                    ecy[k] = params[e, 1]
                    erx[k] = max(params[e, 2], params[e, 3])
                    ern[k] = min(params[e, 2], params[e, 3])
                fill[g] = k + 1
    return start, ex0, ey0, ex1, ey1, et, ecx, ecy, erx, ern


@loop
def fused_rows(r0, r1, qx0, qy0, qx1, qy1, qrow, qparams, self_mode, x0, y0, inv, nx, ny,
               start, ex0, ey0, ex1, ey1, et, ecx, ecy, erx, ern, narrow, offsets, kept, out):
    """Count or fill the rows ``r0 .. r1 - 1`` (the queries ``i`` with ``r0 <= qrow[i] < r1``).

    The query arrays (boxes, result rows ``qrow``, ellipse rows ``qparams``) come in cell order
    (:func:`cell_order`), so neighbouring queries read the same cells and the reads are
    sequential.

    Counting (``out`` empty): ``offsets[row - r0]`` receives the number of targets whose box
    overlaps the query's. Filling: ``offsets`` holds their prefix sums; row ``row`` writes its
    kept columns from ``out[offsets[row - r0] - offsets[0]]`` on and their number into
    ``kept[row - r0]``. The columns of a row come as a few increasing runs (the entries of a
    group follow the order in which :func:`grid_pack` read the targets). With ``narrow`` a
    candidate is kept when the circle filter of the query's ellipse and the entry's circles
    (``conic._circle_filter``, applied as in ``conic.quick_intersects_ellipse_ellipse``: bounding
    circles apart, inscribed circles overlapping, common centre) says they meet, dropped when it
    says they do not, and kept as ``-1 - t`` otherwise, for :func:`resolve_rows`. The full
    kernel is not called here: inlined into this loop it slows down every candidate, also those
    the filter settles (measured: 237 against 35 ns a candidate).

    Each overlapping target is met once: it is taken only in the cell of the reference corner
    ``(max(xmin), max(ymin))``, whose column is ``max(cx0, first column of the target)`` (the
    cell of a maximum is the maximum of the cells, ``cell_of`` being monotone). In a column
    right of the query's first one, that means the targets that start in that column (groups
    0-1 of :func:`grid_pack`); likewise for rows (groups 1-2); in the query's own first cell,
    every target. The body is written out here rather than in a helper taking the 20 arrays:
    with such a call the count pass over 1e6 queries took 517 instead of 205 CPU ms (measured
    2026-11-22).
    """
    write = out.shape[0] > 0
    base = offsets[0]
    for i in prange(qx0.shape[0]):
        row = qrow[i]
        if row < r0 or row >= r1:
            continue
        pos = offsets[row - r0] - base if write else 0
        count = 0
        bx0, by0, bx1, by1 = qx0[i], qy0[i], qx1[i], qy1[i]
        qcx = qcy = qrx = qrn = 0.0
        if narrow and write:
            qcx = qparams[i, 0]
            qcy = qparams[i, 1]
            qrx = max(qparams[i, 2], qparams[i, 3])
            qrn = min(qparams[i, 2], qparams[i, 3])
        cx0 = cell_of(bx0, x0, inv, nx)
        cx1 = cell_of(bx1, x0, inv, nx)
        cy0 = cell_of(by0, y0, inv, ny)
        cy1 = cell_of(by1, y0, inv, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = 4 * (cy * nx + cx)
                if cx == cx0:
                    lo = start[c] if cy == cy0 else start[c + 1]
                    hi = start[c + 4] if cy == cy0 else start[c + 3]
                else:
                    lo = start[c] if cy == cy0 else start[c + 1]
                    hi = start[c + 2]
                for k in range(lo, hi):
                    t = et[k]
                    if self_mode and t <= row:
                        continue
                    if ex0[k] > bx1 or ex1[k] < bx0 or ey0[k] > by1 or ey1[k] < by0:
                        continue
                    if not write:
                        count += 1
                        continue
                    if narrow and not (ecx[k] == qcx and ecy[k] == qcy):  # a common centre: they meet
                        flag = _circle_filter(ecx[k] - qcx, ecy[k] - qcy, qrx, qrn, erx[k], ern[k], _EPS)
                        if flag == DISJOINT:
                            continue
                        if flag == UNDECIDED:
                            t = -1 - t  # for resolve_rows
                    out[pos + count] = t
                    count += 1
        if write:
            kept[row - r0] = count
        else:
            offsets[row - r0] = count


_SAFE_LO = 2.0**-300  # lengths and |w|^2 inside [_SAFE_LO, _SAFE_HI]: no square under- or overflows
_SAFE_HI = 2.0**300


@kernel
def _ellipse_terms(a, b, wx, wy, dx, dy):
    """``X = (p^2 / a^2 + r^2 / b^2) / W``, ``Y = (a^2 p^2 + b^2 r^2) / W`` and the relative error
    bound ``eps_rel`` of both (in units of u), with ``p = w.d``, ``r = w x d``, ``W = |w|^2``;
    ``eps_rel < 0`` when the row is out of the safe range (no answer).

    Error bound (u = 2**-53; ``dx, dy`` carry one rounding each): ``|p^ - p| <= 3.01 u |w| |d|``
    (Cauchy-Schwarz on ``|wx dx| + |wy dy|``), likewise ``r``; so the rounded squares err by at
    most ``6.1 u |w| |d| |p|`` (resp. ``|r|``) plus a second-order term. Summed with weights
    ``1 / a^2, 1 / b^2`` this is at most ``6.1 u W D sqrt(a^-4 + b^-4)`` (Cauchy-Schwarz again,
    ``p^2 + r^2 = W D``), while ``X W >= W D / max(a, b)^2``: relative ``6.1 u rho`` with
    ``rho = 1 + (max(a, b) / min(a, b))^2``; the same for ``Y`` (weights ``a^2, b^2``, ``Y W >=
    min(a, b)^2 W D``). The remaining roundings (squares of a and b, divisions, the sum, W) add
    at most 8u; ``8 rho + 16`` covers all with room.
    """
    small = min(a, b)
    large = max(a, b)
    W = wx * wx + wy * wy
    if not (small > _SAFE_LO and large < _SAFE_HI and W > _SAFE_LO and W < _SAFE_HI):
        return 0.0, 0.0, -1.0
    ratio = large / small
    if not ratio < 2.0**100:
        return 0.0, 0.0, -1.0
    p = wx * dx + wy * dy
    r = wx * dy - wy * dx
    pp = p * p
    rr = r * r
    X = (pp / (a * a) + rr / (b * b)) / W
    Y = (a * a * pp + b * b * rr) / W
    return X, Y, 8.0 * (1.0 + ratio * ratio) + 16.0


@kernel
def _centre_line_filter(xa, ya, aa, ba, wxa, wya, xb, yb, ab, bb, wxb, wyb, gap):
    """Middle filter for ellipse pairs the circle filter leaves: 1 / 0 / ``UNDECIDED``, certified.

    With ``d = c_B - c_A``, ``D = |d|^2`` and the terms of :func:`_ellipse_terms`:

    * the boundary of A along the centre line lies at the fraction ``s_A = 1 / sqrt(X_A)`` of
      ``d`` from ``c_A`` (``X_A`` is the ellipse's quadratic form ``|M (d)|^2`` at ``d``), that of B
      at ``1 - s_B``; when ``s_A + s_B >= 1`` the closed ellipses share a point of the segment
      ``c_A c_B``: 1;
    * the support of A along ``d`` is ``h_A = sqrt(Y_A) / |d|``; when ``h_A + h_B < |d|``, i.e.
      ``sqrt(Y_A) + sqrt(Y_B) < D``, a line perpendicular to ``d`` separates them: 0.

    With ``gap > 0`` the question is whether the distance is at most ``gap``: 1 when the two
    boundary points on the segment are less than ``gap`` apart (``(1 - s_A - s_B) |d| < gap``),
    0 when the supports along ``d`` are more than ``gap`` apart (``sqrt(Y_A) + sqrt(Y_B) + gap |d|
    < D``); ``gap = 0`` gives the tests above. ``sqrt(D)`` carries at most 4u, its product with
    ``gap`` 5u: bounded by 8u, and the differences and sums by the 16u already there.

    Each side is evaluated with its relative error bound moved against the test (``X`` and ``Y``
    within ``eps_rel u``; ``D`` within 6u; square roots, divisions and sums 16u more). On the
    dense 1e4 scene this settles 72 % of the pairs that the circle filter leaves (45 % and 28 %);
    the rest go to the Perram-Wertheim kernel (``conic.intersects_ellipse_ellipse``), which costs
    about three times as much (measured 2026-11-22).
    """
    u = _EPS
    dx = xb - xa
    dy = yb - ya
    if not (abs(dx) < _SAFE_HI and abs(dy) < _SAFE_HI):
        return UNDECIDED
    D = dx * dx + dy * dy
    if not D > 2.0**-600:
        return UNDECIDED
    XA, YA, eA = _ellipse_terms(aa, ba, wxa, wya, dx, dy)
    XB, YB, eB = _ellipse_terms(ab, bb, wxb, wyb, dx, dy)
    if eA < 0.0 or eB < 0.0:
        return UNDECIDED
    reach = (1.0 / math.sqrt(XA * (1.0 + eA * u)) + 1.0 / math.sqrt(XB * (1.0 + eB * u))) * (1.0 - 16.0 * u)
    if gap == 0.0:
        if reach > 1.0:
            return 1
        spread = 0.0
    else:
        spread = gap * math.sqrt(D) * (1.0 + 8.0 * u)
        if (1.0 - reach) * (1.0 + u) * math.sqrt(D) * (1.0 + 8.0 * u) < gap * (1.0 - 2.0 * u):
            return 1
    if (math.sqrt(YA * (1.0 + eA * u)) + math.sqrt(YB * (1.0 + eB * u)) + spread) * (1.0 + 16.0 * u) < D * (1.0 - 6.0 * u):
        return 0
    return UNDECIDED


@loop(rows=("ia", "ib", "out"))
def centre_line_rows(pa, ia, pb, ib, gap, out):
    """:func:`_centre_line_filter` (with ``gap``) on the ellipse pairs ``pa[ia[k]]``, ``pb[ib[k]]``
    that ``out[k] == 2`` marks undecided: ``out[k]`` becomes 0 or 1 where it decides."""
    for k in prange(ia.shape[0]):
        if out[k] != 2:
            continue
        a = pa[ia[k]]
        b = pb[ib[k]]
        flag = _centre_line_filter(a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1], b[2], b[3], b[4], b[5], gap)
        if flag != UNDECIDED:
            out[k] = flag


_SHRINK = 1.0 - 2.0**-20  # the trial points of _witness_filter sit this fraction of the way to the boundary


@kernel
def _strictly_inside(cx, cy, a, b, wx, wy, x, y):
    """Certified: the point ``(x, y)`` lies in the interior of the ellipse row ``pe``.

    ``X`` of :func:`_ellipse_terms` at ``y = (x, y) - c`` (one rounding per component, as for
    ``d``) is the ellipse's quadratic form, ``< 1`` inside; with its relative error bound moved
    against the test, and ``2**-100`` for the absolute error of squares that underflow (at most
    ``2**-1074 / (a^2 W) <= 2**-174`` each, within the safe range).
    """
    X, _, e = _ellipse_terms(a, b, wx, wy, x - cx, y - cy)
    return e >= 0.0 and X * (1.0 + e * _EPS) + 2.0**-100 < 1.0


@kernel
def _inner_support_point(cx, cy, a, b, wx, wy, vx, vy):
    """A point just inside ellipse ``pe`` near its support point in the direction ``v``.

    In the ellipse's frame (unit ``w``), the support point for the direction ``(p, q)`` is
    ``(a^2 p, b^2 q) / sqrt(a^2 p^2 + b^2 q^2)``; it is pulled towards the centre by ``_SHRINK``.
    Not certified: :func:`_strictly_inside` checks whatever point comes out.
    """
    p = wx * vx + wy * vy
    q = wx * vy - wy * vx
    H = math.sqrt(a * a * p * p + b * b * q * q)
    W = math.sqrt(wx * wx + wy * wy)
    if not (H > 0.0 and H < math.inf and W > 0.0):
        return cx, cy
    sx = a * a * p / H * _SHRINK
    sy = b * b * q / H * _SHRINK
    return cx + (sx * wx - sy * wy) / W, cy + (sx * wy + sy * wx) / W


@kernel
def _apart_along(aa, ba, wxa, wya, ab, bb, wxb, wyb, dx, dy, vx, vy):
    """Certified: the projections of the two ellipses on the axis ``v`` are disjoint.

    ``|d.v| > sqrt(Y_A(v)) + sqrt(Y_B(v))`` with ``Y`` of :func:`_ellipse_terms` at ``v`` (the
    support of an ellipse along ``v``, times ``|v|``, squared). ``v`` is a stored direction,
    exact; ``d.v`` errs by at most ``3.01 u (|dx vx| + |dy vy|)`` (one rounding of ``d``, two of the
    dot product), and the right side gets the bounds of ``Y`` and 16u for the roots and sums.
    """
    _, YA, eA = _ellipse_terms(aa, ba, wxa, wya, vx, vy)
    _, YB, eB = _ellipse_terms(ab, bb, wxb, wyb, vx, vy)
    if eA < 0.0 or eB < 0.0:
        return False
    p = dx * vx + dy * vy
    S = abs(dx * vx) + abs(dy * vy)
    return abs(p) - 3.1 * _EPS * S > (math.sqrt(YA * (1.0 + eA * _EPS)) + math.sqrt(YB * (1.0 + eB * _EPS))) * (1.0 + 16.0 * _EPS)


@kernel
def _witness_filter(xa, ya, aa, ba, wxa, wya, xb, yb, ab, bb, wxb, wyb):
    """Second middle filter, after :func:`_centre_line_filter`: 1 / 0 / ``UNDECIDED``, certified.

    Meet (1): a point just inside A near its support point towards B lies strictly inside B, or
    the same with A and B swapped (:func:`_inner_support_point`, :func:`_strictly_inside`).
    Apart (0): the projections on one of the four axes ``w_A``, ``w_A^``, ``w_B``, ``w_B^`` are
    disjoint (:func:`_apart_along`; the centre line was tried before). Measured on the dense 1e4
    scene (2026-11-22): of the 313k pairs that reach it, it settles 152k of the 193k meeting and
    72k of the 120k disjoint ones; the Perram-Wertheim kernel then sees 89k pairs instead of 313k.
    """
    dx = xb - xa
    dy = yb - ya
    if not (abs(dx) < _SAFE_HI and abs(dy) < _SAFE_HI):
        return UNDECIDED
    x, y = _inner_support_point(xa, ya, aa, ba, wxa, wya, dx, dy)
    if _strictly_inside(xa, ya, aa, ba, wxa, wya, x, y) and _strictly_inside(xb, yb, ab, bb, wxb, wyb, x, y):
        return 1
    x, y = _inner_support_point(xb, yb, ab, bb, wxb, wyb, -dx, -dy)
    if _strictly_inside(xb, yb, ab, bb, wxb, wyb, x, y) and _strictly_inside(xa, ya, aa, ba, wxa, wya, x, y):
        return 1
    for vx, vy in ((wxa, wya), (-wya, wxa), (wxb, wyb), (-wyb, wxb)):
        if _apart_along(aa, ba, wxa, wya, ab, bb, wxb, wyb, dx, dy, vx, vy):
            return 0
    return UNDECIDED


@loop
def resolve_rows(r0, offsets, kept, out, params_a, params_b, at):
    """Decide the candidates the circle filter left (stored ``-1 - j``): :func:`_centre_line_filter`,
    :func:`_witness_filter`, then the full ``intersects`` kernel (``conic.intersects_ellipse_ellipse``),
    called at ``at``: the address of its machine code (see :func:`collide2d._jit.loop`; ``None``
    links it in).

    Row ``r`` (query ``params_a[r0 + r]``) holds ``kept[r]`` columns from
    ``out[offsets[r] - offsets[0]]`` on; each ``-1 - j`` becomes ``j`` when the ellipses meet, is
    dropped when they do not, and stays ``-1 - j`` when the float kernel cannot decide (the glue
    decides those exactly). The row is compacted in place, in order, and ``kept[r]`` updated.
    """
    base = offsets[0]
    for r in prange(kept.shape[0]):
        lo = offsets[r] - base
        w = lo
        q = r0 + r
        xa, ya, aa, ba, wxa, wya = (params_a[q, 0], params_a[q, 1], params_a[q, 2], params_a[q, 3],
                                    params_a[q, 4], params_a[q, 5])
        for a in range(lo, lo + kept[r]):
            t = out[a]
            if t < 0:
                j = -1 - t
                xb, yb, ab, bb, wxb, wyb = (params_b[j, 0], params_b[j, 1], params_b[j, 2], params_b[j, 3],
                                            params_b[j, 4], params_b[j, 5])
                flag = _centre_line_filter(xa, ya, aa, ba, wxa, wya, xb, yb, ab, bb, wxb, wyb, 0.0)
                if flag == UNDECIDED:
                    flag = _witness_filter(xa, ya, aa, ba, wxa, wya, xb, yb, ab, bb, wxb, wyb)
                if flag == UNDECIDED:
                    flag = call_at(intersects_ellipse_ellipse, at, params_a[r0 + r], params_a, params_b[-1 - t], params_b,
                                   (_EPS,))
                if flag == 0:
                    continue
                if flag == 1:
                    t = -1 - t
            out[w] = t
            w += 1
        kept[r] = w - lo


@kernel
def _merge_pass(a, aoff, b, boff, n):
    """Merge consecutive pairs of non-decreasing runs of ``a[aoff : aoff + n]`` into ``b[boff:]``;
    return the number of merged runs written (1: ``b`` holds the sorted slice)."""
    runs = 0
    s = 0
    while s < n:
        m = s + 1
        while m < n and a[aoff + m] >= a[aoff + m - 1]:
            m += 1
        e = m
        if m < n:
            e = m + 1
            while e < n and a[aoff + e] >= a[aoff + e - 1]:
                e += 1
        i = s
        j = m
        k = s
        while i < m and j < e:
            if a[aoff + j] < a[aoff + i]:
                b[boff + k] = a[aoff + j]
                j += 1
            else:
                b[boff + k] = a[aoff + i]
                i += 1
            k += 1
        while i < m:
            b[boff + k] = a[aoff + i]
            i += 1
            k += 1
        while j < e:
            b[boff + k] = a[aoff + j]
            j += 1
            k += 1
        runs += 1
        s = e
    return runs


@loop
def compact_rows(offsets, kept, kept_offsets, out, result):
    """Sort the kept part of every row slice of ``out`` into ``result`` (rows packed together).

    Row ``r`` reads ``out[offsets[r] - offsets[0] :][:kept[r]]`` (clobbered: used as scratch) and
    writes ``result[kept_offsets[r] : kept_offsets[r + 1]]``. A bottom-up natural merge sort:
    the rows come as a few increasing runs (:func:`fused_rows`), so a few linear passes
    usually sort them; any order is still sorted correctly, in O(k log k).
    """
    base = offsets[0]
    for r in prange(kept.shape[0]):
        lo = offsets[r] - base
        n = kept[r]
        o = kept_offsets[r]
        if n == 0:
            continue
        while True:
            if _merge_pass(out, lo, result, o, n) == 1:
                break
            if _merge_pass(result, o, out, lo, n) == 1:
                for a in range(n):
                    result[o + a] = out[lo + a]
                break
