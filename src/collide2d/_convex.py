"""Validation and cleaning of convex polygons, in time linear in the number of vertices.

A polygon is given as a closed sequence of vertices. Cleaning keeps the same point set:

1. A vertex equal to its predecessor (cyclically) is dropped.
2. The turn at every remaining vertex is the exact sign of ``orient(prev, v, next)``.
3. A vertex with turn 0 lies on the line through its neighbours. Either the boundary continues
   straight on there (the two edges point the same way) and the vertex is dropped, or it reverses
   (``[(0, 0), (2, 0), (1, 0), ...]`` doubles back along an edge), which is an error: dropping it
   would silently describe a different polygon.
4. The remaining turns must all have one sign (negative: the polygon is reversed to
   counter-clockwise), and the boundary must wind once (a pentagram turns the same way at every
   vertex but winds twice): with every turn below pi, the number of windings is the number of
   edges at which the edge direction crosses from the lower half-plane to the upper one.

Step 3 drops every straight-on vertex at once: if ``orient(a, b, c) = 0`` then ``a, b, c`` lie on
one line in that order, so the edge that replaces a run of them points the same way as each edge it
replaces and no remaining turn changes sign. Each step is one vectorised pass, so cleaning is O(n).

Exact signs: for a difference ``b - a`` of floats, float64 subtraction gives the exact sign and is
zero exactly when ``a == b``. So when a factor of one of the two products of
``(bx - ax)(cy - ay) - (by - ay)(cx - ax)`` is zero, the sign is the exact sign of the other
product, a product of exact signs. Otherwise the float value is trusted when it exceeds the bound
``6 ε (|left| + |right|)`` (it covers the rounding of the differences, the products and the
subtraction: Shewchuk's ``ccwerrboundA`` is ``(3 + 16ε) ε``), and the rare rest is decided with
Python integers from the exact values of the floats. J. R. Shewchuk, "Adaptive precision
floating-point arithmetic and fast robust geometric predicates", Discrete Comput. Geom. 18 (1997).
"""

from __future__ import annotations

import numpy as np

from collide2d._tolerances import ORIENT_BOUND as _BOUND
# Counters of the work done, read by the tests of linear cost: triples whose turn was evaluated,
# and those decided by the exact integer fallback.
COUNTS = {"turns": 0, "exact": 0}


def orient_exact(ax, ay, bx, by, cx, cy):
    """Exact sign of ``(b - a) x (c - a)`` for Python floats (integers over a common power of 2)."""
    COUNTS["exact"] += 1
    ratios = [value.as_integer_ratio() for value in (ax, ay, bx, by, cx, cy)]
    den = max(d for _, d in ratios)  # every denominator is a power of two
    ax, ay, bx, by, cx, cy = (n * (den // d) for n, d in ratios)
    det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (det > 0) - (det < 0)


def orient_signs(a, b, c):
    """Exact signs of the turns ``a -> b -> c`` for arrays of points of shape ``(n, 2)``."""
    COUNTS["turns"] += len(a)
    abx, aby = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    acx, acy = c[:, 0] - a[:, 0], c[:, 1] - a[:, 1]
    left, right = abx * acy, aby * acx
    value = left - right
    bound = (np.abs(left) + np.abs(right)) * _BOUND
    sign = np.sign(value).astype(np.int8)
    zero_left = (abx == 0) | (acy == 0)
    zero_right = (aby == 0) | (acx == 0)
    sign[zero_left] = -(np.sign(aby) * np.sign(acx))[zero_left]
    sign[zero_right & ~zero_left] = (np.sign(abx) * np.sign(acy))[zero_right & ~zero_left]
    for i in np.flatnonzero((np.abs(value) <= bound) & ~zero_left & ~zero_right):
        sign[i] = orient_exact(*(float(x) for x in (a[i, 0], a[i, 1], b[i, 0], b[i, 1], c[i, 0], c[i, 1])))
    return sign


def turn_signs(v):
    """Exact turns at every vertex of the closed polygon ``v`` (a list of ``(x, y)`` floats): the
    float filter of :func:`orient_signs` inline, :func:`orient_sign` where it cannot decide."""
    n = len(v)
    COUNTS["turns"] += n
    signs = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = v[i - 1], v[i], v[i + 1 - n]
        left, right = (bx - ax) * (cy - ay), (by - ay) * (cx - ax)
        value, bound = left - right, (abs(left) + abs(right)) * _BOUND
        signs.append(1 if value > bound else -1 if value < -bound else orient_sign(ax, ay, bx, by, cx, cy))
    return signs


def orient_sign(ax, ay, bx, by, cx, cy):
    """:func:`orient_signs` for one triple of Python floats (not counted in ``COUNTS``)."""
    abx, aby, acx, acy = bx - ax, by - ay, cx - ax, cy - ay
    if abx == 0.0 or acy == 0.0:
        return -((aby > 0) - (aby < 0)) * ((acx > 0) - (acx < 0))
    if aby == 0.0 or acx == 0.0:
        return ((abx > 0) - (abx < 0)) * ((acy > 0) - (acy < 0))
    left, right = abx * acy, aby * acx
    value = left - right
    if abs(value) > (abs(left) + abs(right)) * _BOUND:
        return 1 if value > 0 else -1
    return orient_exact(ax, ay, bx, by, cx, cy)


def _sign(x):
    return (x > 0) - (x < 0)


def _label(name, index, batched):
    return f"{name}[{index}]" if batched else name


def clean(flat, name):
    """Clean a batch of polygons ``flat`` of shape ``(m, n, 2)`` (finite floats).

    Returns ``(vertices, counts, reversed)``: the stored counter-clockwise vertices of all
    polygons one after the other, the number of each, and whether each was given clockwise.
    Raises ``ValueError`` naming ``name`` (and the polygon's index in a batch).
    """
    m = len(flat)
    batched = flat.shape[0] != 1
    keep = np.any(flat != np.roll(flat, 1, axis=1), axis=2)  # step 1
    verts = flat[keep]
    counts = keep.sum(axis=1)
    _check_three(counts, name, batched)
    signs, prev, nxt = _turns(verts, counts)
    zero = signs == 0
    if zero.any():  # step 3
        polygon = np.repeat(np.arange(m), counts)
        nonzero = np.bincount(polygon[~zero], minlength=m)
        if np.any(nonzero == 0):
            _raise_area(name, int(np.flatnonzero(nonzero == 0)[0]), batched)
        before, after = verts - verts[prev], verts[nxt] - verts
        # the two edges are parallel: same direction iff their coordinate signs agree (exact)
        straight = np.sum(np.sign(before) * np.sign(after), axis=1) > 0
        reverse = zero & ~straight
        if reverse.any():
            i = int(np.flatnonzero(reverse)[0])
            at = _label(name, int(polygon[i]), batched)
            raise ValueError(
                f"{at} must be convex: the boundary reverses direction at vertex "
                f"{tuple(verts[i].tolist())} (an edge doubles back on the previous one)"
            )
        verts, signs, counts = verts[~zero], signs[~zero], nonzero
        _check_three(counts, name, batched)
        prev, nxt = _neighbours(counts)
    polygon = np.repeat(np.arange(m), counts)
    positive = np.bincount(polygon, weights=signs > 0, minlength=m)
    mixed = (positive != 0) & (positive != counts)
    if mixed.any():
        at = _label(name, int(np.flatnonzero(mixed)[0]), batched)
        raise ValueError(f"{at} must be convex (the turns change direction)")
    edges = verts[nxt] - verts
    upper = (edges[:, 1] > 0) | ((edges[:, 1] == 0) & (edges[:, 0] > 0))
    # step 4: the heading turns one way by less than pi at each vertex, so it passes the heading
    # 0 once per turn of the boundary: count the edges where it goes from the lower half-plane of
    # directions to the upper one (the other way round for a clockwise polygon). Exact signs only.
    crossing = np.where(signs > 0, ~upper & upper[nxt], upper & ~upper[nxt])
    windings = np.bincount(polygon, weights=crossing, minlength=m)
    if np.any(windings > 1):  # a convex polygon winds once; a pentagram twice
        at = _label(name, int(np.flatnonzero(windings > 1)[0]), batched)
        raise ValueError(f"{at} must be convex and simple (its boundary winds more than once)")
    clockwise = positive == 0
    if clockwise.any():
        start = np.repeat(np.cumsum(counts) - counts, counts)
        flip = np.repeat(clockwise, counts)
        position = np.arange(len(verts))
        order = np.where(flip, start + (start + np.repeat(counts, counts) - 1 - position), position)
        verts = verts[order]
    return verts, counts, clockwise


def _neighbours(counts):
    """Indices of the previous and next vertex, cyclic within each polygon of the flat list."""
    start = np.repeat(np.cumsum(counts) - counts, counts)
    size = np.repeat(counts, counts)
    local = np.arange(len(start)) - start
    return start + (local - 1) % size, start + (local + 1) % size


def _turns(verts, counts):
    prev, nxt = _neighbours(counts)
    return orient_signs(verts[prev], verts, verts[nxt]), prev, nxt


def _check_three(counts, name, batched):
    if np.any(counts < 3):
        _raise_area(name, int(np.flatnonzero(counts < 3)[0]), batched)


def _raise_area(name, index, batched):
    raise ValueError(
        f"{_label(name, index, batched)} must span a positive area (it has fewer than 3 non-collinear vertices)"
    )


def clean_small(points, name):
    """:func:`clean` for one polygon given as a list of ``(x, y)`` Python floats (no NumPy calls).

    Returns the list of stored counter-clockwise vertices. The same steps and exact signs as
    :func:`clean`, so the same result and the same errors.
    """
    v = [p for i, p in enumerate(points) if p != points[i - 1]]  # step 1 (points[-1] wraps)
    n = len(v)
    if n < 3:
        _raise_area(name, 0, False)
    signs = turn_signs(v)  # step 2
    if 0 in signs:  # step 3
        if signs.count(0) == n:
            _raise_area(name, 0, False)
        for i in range(n):
            if signs[i] == 0:
                (ax, ay), (bx, by), (cx, cy) = v[i - 1], v[i], v[i + 1 - n]
                if _sign(bx - ax) * _sign(cx - bx) + _sign(by - ay) * _sign(cy - by) < 0:
                    raise ValueError(
                        f"{name} must be convex: the boundary reverses direction at vertex "
                        f"{(bx, by)} (an edge doubles back on the previous one)"
                    )
        v = [p for p, sign in zip(v, signs) if sign]
        signs = [sign for sign in signs if sign]
        n = len(v)
        if n < 3:
            _raise_area(name, 0, False)
    if signs.count(signs[0]) != n:
        raise ValueError(f"{name} must be convex (the turns change direction)")
    if n > 4:  # n exterior angles, each below pi, sum below n pi: winding twice needs n >= 5
        upper = [dy > 0 or (dy == 0 and dx > 0) for dx, dy in ((q[0] - p[0], q[1] - p[1]) for p, q in zip(v, v[1:] + v[:1]))]
        windings = sum(upper[i + 1 - n] and not upper[i] for i in range(n))  # as in clean(), step 4
        if signs[0] < 0:
            windings = sum(upper[i] and not upper[i + 1 - n] for i in range(n))
        if windings > 1:
            raise ValueError(f"{name} must be convex and simple (its boundary winds more than once)")
    return v if signs[0] > 0 else v[::-1]


def turns_left(points):
    """Whether every turn of the closed polygon ``points`` (a few ``(x, y)`` floats) is a strict
    left turn, exactly."""
    return min(turn_signs(points)) > 0
