"""Nearest-neighbour candidates over a packed R-tree of boxes (the search of :mod:`collide2d._nearest`).

The tree (built by the glue, Sort-Tile-Recursive packing: Leutenegger, Lopez and Edgington,
*STR: a simple and efficient algorithm for R-tree packing*, ICDE 1997) holds the target boxes
``ix0, iy0, ix1, iy1`` in leaf order, and nodes ``nx0 .. ny1`` whose children are the contiguous
range ``first[k] .. last[k] - 1`` of the items (``leaf[k]``) or of the nodes; the roots are
``root0 .. root1 - 1``. For a query box ``Q`` and a target box ``T``:

* ``MINDIST(Q, T)``, the distance between the two boxes, is at most the distance between any
  shape inside ``Q`` and any shape inside ``T``;
* ``MAXDIST(Q, T)``, the largest distance between a point of ``Q`` and a point of ``T``, is at
  least it (Roussopoulos, Kelley and Vincent, *Nearest neighbor queries*, SIGMOD 1995, use the
  tighter MINMAXDIST for boxes that touch their object on every side; a shape need not).

So the nearest shape lies among the targets with ``MINDIST <= U``, for ``U`` the smallest
``MAXDIST`` over the targets. :func:`nearest_rows` finds both in one depth-first search per
query: it visits the nearer children first, lowers ``U`` at every target it meets, skips every
node with ``MINDIST > U`` and keeps the targets met within the current ``U``, which it filters
by the final one at the end. Distances are compared squared (an overflow to ``inf`` only keeps
more), with the reach ``U + slack``. It takes the rows ``r0 .. r1 - 1`` of the queries, so that
slices run in threads.
"""

import math

import numpy as np

from collide2d._jit import kernel


@kernel
def min_dist2(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1):
    """Squared distance between two closed boxes (0 when they overlap; infinite sides allowed)."""
    dx = max(0.0, bx0 - ax1, ax0 - bx1)
    dy = max(0.0, by0 - ay1, ay0 - by1)
    return dx * dx + dy * dy


@kernel
def max_dist(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1):
    """Largest distance between a point of one box and a point of the other."""
    return math.hypot(max(ax1 - bx0, bx1 - ax0), max(ay1 - by0, by1 - ay0))


@kernel
def nearest_rows(r0, r1, qx0, qy0, qx1, qy1, bound, use_max, skip_same, ix0, iy0, ix1, iy1, nx0, ny0, nx1, ny1,
                 first, last, leaf, root0, root1, depth, slack, most, out_bound):
    """``(counts, targets)``: the leaf positions of the targets kept for the queries ``r0 .. r1 - 1``.

    Query ``q`` starts from ``U = bound[q]``; with ``use_max`` every target's ``MAXDIST`` lowers
    it (with ``skip_same``, not that of a target whose box equals the query's: it may be the
    query shape itself, which ``exclusive`` drops). The targets with ``MINDIST <= U + slack`` for
    the final ``U`` (written to ``out_bound[q]``) follow each other in ``targets``, ``counts[q - r0]``
    of them for query ``q``. A query stops searching once it kept more than ``most`` targets
    (a count for a budget, not an answer).
    """
    size = (depth + 1) * (np.max(last - first) + 1) + (root1 - root0)
    stack = np.empty(size, dtype=np.int64)
    gaps = np.empty(size)
    counts = np.zeros(r1 - r0, dtype=np.int64)
    kept = np.empty(16 * (r1 - r0) + 16, dtype=np.int64)
    kept_gaps = np.empty(kept.shape[0])
    n_kept = 0
    for q in range(r0, r1):
        a0, b0, a1, b1 = qx0[q], qy0[q], qx1[q], qy1[q]
        u = bound[q]
        reach2 = (u + slack) * (u + slack)
        start = n_kept
        top = 0
        for c in range(root0, root1):
            stack[top] = c
            gaps[top] = 0.0
            top += 1
        full = False
        while top > 0 and not full:
            top -= 1
            node = stack[top]
            if gaps[top] > reach2:
                continue
            if leaf[node]:
                for t in range(first[node], last[node]):
                    d2 = min_dist2(a0, b0, a1, b1, ix0[t], iy0[t], ix1[t], iy1[t])
                    if not d2 <= reach2:
                        continue
                    if use_max and not (skip_same and ix0[t] == a0 and iy0[t] == b0 and ix1[t] == a1 and iy1[t] == b1):
                        m = max_dist(a0, b0, a1, b1, ix0[t], iy0[t], ix1[t], iy1[t])
                        if m < u:
                            u = m
                            reach2 = (u + slack) * (u + slack)
                    if n_kept == kept.shape[0]:  # grow the buffers
                        more = np.empty(2 * n_kept, dtype=np.int64)
                        more[:n_kept] = kept
                        kept = more
                        more_gaps = np.empty(2 * n_kept)
                        more_gaps[:n_kept] = kept_gaps
                        kept_gaps = more_gaps
                    kept[n_kept] = t
                    kept_gaps[n_kept] = d2
                    n_kept += 1
                    if n_kept - start > most:
                        full = True
                        break
            else:  # the children within reach, nearest on top of the stack
                base = top
                for c in range(first[node], last[node]):
                    d2 = min_dist2(a0, b0, a1, b1, nx0[c], ny0[c], nx1[c], ny1[c])
                    if d2 <= reach2:
                        k = top
                        while k > base and gaps[k - 1] < d2:
                            stack[k] = stack[k - 1]
                            gaps[k] = gaps[k - 1]
                            k -= 1
                        stack[k] = c
                        gaps[k] = d2
                        top += 1
        k = start  # keep the targets within the final reach
        for p in range(start, n_kept):
            if kept_gaps[p] <= reach2:
                kept[k] = kept[p]
                k += 1
        n_kept = k
        counts[q - r0] = k - start
        out_bound[q] = u
    return counts, kept[:n_kept].copy()
