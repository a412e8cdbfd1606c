"""Screening a kept candidate list: the narrow phase of :class:`collide2d.Index`.

An index keeps, row by row, the columns whose inflated boxes overlap (CSR: row ``r`` owns
``columns[offsets[r] - offsets[0] : offsets[r + 1] - offsets[0]]``, sorted). Each query screens
that list against the *current* boxes, with the same closed-box test and, for ``intersects``
among ellipses, the same circle filter as the fused grid (:func:`grid.fused_rows`); the output
has the layout :func:`grid.resolve_rows` and :func:`grid.compact_rows` take, so the rest of the
narrow phase is the fused grid's.
"""

from numba import prange

from collide2d._jit import loop

from ..codes import DISJOINT, UNDECIDED
from ..relate.conic import _circle_filter

_EPS = 2.0**-53  # the float-mode ``eps`` of the pair kernels (unit roundoff)


@loop
def screen_rows(r0, offsets, columns, xmin, ymin, xmax, ymax, params, narrow, kept, out):
    """Keep the candidates of rows ``r0 .. r0 + len(kept) - 1`` whose current boxes overlap.

    Row ``r`` (shape ``r0 + r``) reads its columns and writes the kept ones from
    ``out[offsets[r] - offsets[0]]`` on, in order, and their number into ``kept[r]``. With
    ``narrow`` (ellipse rows ``params``) a candidate the circle filter finds disjoint is dropped
    and one it cannot decide is written as ``-1 - j`` (for :func:`grid.resolve_rows`).
    """
    base = offsets[0]
    for r in prange(kept.shape[0]):
        q = r0 + r
        lo = offsets[r] - base
        hi = offsets[r + 1] - base
        bx0, by0, bx1, by1 = xmin[q], ymin[q], xmax[q], ymax[q]
        qcx = qcy = qrx = qrn = 0.0
        if narrow:
            qcx = params[q, 0]
            qcy = params[q, 1]
            qrx = max(params[q, 2], params[q, 3])
            qrn = min(params[q, 2], params[q, 3])
        w = lo
        for k in range(lo, hi):
            t = columns[k]
            if xmin[t] > bx1 or xmax[t] < bx0 or ymin[t] > by1 or ymax[t] < by0:
                continue
            if narrow and not (params[t, 0] == qcx and params[t, 1] == qcy):  # a common centre: they meet
                flag = _circle_filter(params[t, 0] - qcx, params[t, 1] - qcy, qrx, qrn,
                                      max(params[t, 2], params[t, 3]), min(params[t, 2], params[t, 3]), _EPS)
                if flag == DISJOINT:
                    continue
                if flag == UNDECIDED:
                    t = -1 - t
            out[w] = t
            w += 1
        kept[r] = w - lo
