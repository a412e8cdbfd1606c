"""Overlap area of a rounded shape (capsule, rounded polygon or box) with a region: an ellipse,
a polygon or another rounded shape.

Contract: ``area_rounded_region(ka, pa, va, kb, pb, vb) -> float`` for an ``OVERLAPPING`` pair
(the glue answers the other relations from the exact code: 0 or the smaller area); kinds are the
codes of :mod:`boundary_rounded`, either may be the rounded one.

Method: both regions are convex, so the boundary of ``A n B`` is made of the pieces of each
boundary that lie inside the other. Every piece of ``A`` is split at its crossings with the
boundary of ``B`` (:func:`boundary_rounded.all_crossings`, each crossing computed once and shared
by both sub-pieces that end there) and kept when its middle lies inside ``B``, and the same for
``B``; a piece lying on both boundaries (a shared flat, say) is kept from ``A`` only. Green's
theorem then gives the area as half the sum of the chords' cross products (the polygon of the
sub-pieces' ends) plus, for each kept arc, the segment between the arc and its chord, ``a b
(dt - sin dt) / 2`` with ``dt`` the step of eccentric angle (exact for circles and ellipses;
``dt - sin dt`` from its series for small steps, :func:`area_ellipse.segment_area`). The pair is
scaled by a power of two and translated to a vertex of the smaller shape first
(:func:`boundary_rounded.pair_frame`).
"""

import math

from collide2d._jit import kernel

from .boundary_rounded import _ON_BOUNDARY, all_crossings, inside_area, pair_frame


@kernel
def area_rounded_region(ka, pa, va, kb, pb, vb):
    """Area of the intersection of two overlapping convex regions, one of them rounded."""
    scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b, ell_a, ell_b = pair_frame(ka, pa, va, kb, pb, vb)
    cross, m = all_crossings(pieces_a, pieces_b)
    cross = cross[:m]
    tol = _ON_BOUNDARY * size
    chord_a, arcs_a = inside_area(pieces_a, cross, int(0), kb, core_b, r_b, ell_b, bool(True), tol)
    chord_b, arcs_b = inside_area(pieces_b, cross, int(1), ka, core_a, r_a, ell_a, bool(False), tol)
    area = 0.5 * (chord_a + chord_b) + (arcs_a + arcs_b)
    area = max(area, 0.0)
    e = math.frexp(scale)[1] - 1
    return math.ldexp(area, -2 * e)
