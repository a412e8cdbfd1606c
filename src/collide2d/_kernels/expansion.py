"""Exact signs of small float polynomials by expansion arithmetic: the rare path of the filters.

When :func:`vec.orient` cannot certify a sign (the three points are collinear within rounding),
the sign is computed exactly from error-free transformations instead of being guessed from the
rounded value, so that every decision about input vertices agrees with the exact relation code
(and, in ``overlay/points_flat``, the vertex / edge attribution that de-duplicates points stays
consistent). ``(b - a) x (c - a) = ax by - ax cy + bx cy - bx ay + cx ay - cx by``: six products,
each split exactly into ``hi + lo`` (Dekker's TwoProduct with Veltkamp's split), summed exactly
into a nonoverlapping expansion (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
Robust Geometric Predicates", DCG 18 (1997), Grow-Expansion, Theorem 10); the sign of an
expansion is the sign of its largest nonzero component. Exact while no product overflows or
underflows (coordinates between about 1e-100 and 1e100, wider than the filter's own range). The
12-entry scratch is allocated only on this path (nearly collinear triples), never on the filtered
one.

Shared by the overlay kernels (``overlay/area_flat``, ``overlay/points_flat``) and the flat
contact kernels (``measure/distance_flat``), which sum an expansion to a correctly computed value
where the float cross product cancels.
"""

import numpy as np

from collide2d._jit import kernel

from .vec import two_product, two_sum


@kernel
def grow(e, m, b):
    """Add ``b`` to the nonoverlapping expansion ``e[:m]`` (Shewchuk's Grow-Expansion)."""
    q = b
    for i in range(m):
        q, h = two_sum(q, e[i])
        e[i] = h
    e[m] = q
    return m + 1


@kernel
def expansion_sign(e, m):
    """Sign (1, -1, 0) of the nonoverlapping expansion ``e[:m]``: that of its largest nonzero component."""
    for i in range(m - 1, -1, -1):
        if e[i] > 0.0:
            return 1
        if e[i] < 0.0:
            return -1
    return 0


@kernel
def grow_product(e, m, a, b):
    p, q = two_product(a, b)
    m = grow(e, m, q)
    return grow(e, m, p)


@kernel
def orient_expansion(e, ax, ay, bx, by, cx, cy):
    """Write ``(b - a) x (c - a)`` into ``e`` (12 entries) as a nonoverlapping expansion, smallest
    component first; returns its length (see the module docstring)."""
    m = grow_product(e, int(0), ax, by)
    m = grow_product(e, m, -ax, cy)
    m = grow_product(e, m, bx, cy)
    m = grow_product(e, m, -bx, ay)
    m = grow_product(e, m, cx, ay)
    return grow_product(e, m, -cx, by)


@kernel
def orient_exact(ax, ay, bx, by, cx, cy):
    """Exact sign of ``(b - a) x (c - a)`` in floating point (see the module docstring)."""
    e = np.empty(12)
    return expansion_sign(e, orient_expansion(e, ax, ay, bx, by, cx, cy))


@kernel
def line_side_exact(px, py, dx, dy, qx, qy):
    """Exact sign of ``d x (q - p) = dx qy - dx py - dy qx + dy px`` (as :func:`orient_exact`)."""
    e = np.empty(8)
    m = grow_product(e, int(0), dx, qy)
    m = grow_product(e, m, -dx, py)
    m = grow_product(e, m, -dy, qx)
    m = grow_product(e, m, dy, px)
    return expansion_sign(e, m)
