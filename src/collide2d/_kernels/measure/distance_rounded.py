"""Contact kernels for the rounded kind (capsules, rounded polygons and boxes) against every kind.

A rounded row ``(offset, count, r, x0, y0, x1, y1)`` is the Minkowski sum ``K + D(r)`` of a convex
core ``K`` and the closed disc of radius ``r``: the polygon ``va[offset : offset + count]`` when
``count >= 3``, the segment ``(x0, y0)-(x1, y1)`` when ``count == 2``, the point ``(x0, y0)`` when
``count == 1`` (see :mod:`collide2d._kernels`). Every kernel ``contact_rounded_<kind>(pa, va, pb,
vb)`` takes the rounded shape first and returns the 9-tuple of
:mod:`collide2d._kernels.measure.distance_flat`.

Rounding by a disc (Minkowski sum)
----------------------------------
For convex ``A``, ``B`` the separation is the signed distance of the origin to the boundary of the
Minkowski difference ``B - A`` (negative inside). Rounding ``A`` by ``D(ra)`` and ``B`` by
``D(rb)`` replaces ``B - A`` by ``(B - A) + D(ra + rb)``, whose signed distance function is that of
``B - A`` minus ``ra + rb``, outside and inside alike, with the same nearest boundary direction.
Hence the contact of the rounded pair is the contact of the cores (computed by the existing
kernels, which are exact in their choice of features) with

* ``separation - (ra + rb)``, the same normal ``n`` (from a to b);
* ``point_a + ra n`` and ``point_b - rb n``: the support points of the rounded shapes (the
  support point of ``K + D(r)`` in ``u`` is ``K``'s plus ``r u``), which lie on the rounded
  boundaries;
* curvature ``1 / r`` where the core's witness is a vertex (the boundary there is an arc of
  radius ``r``), ``0`` where it is a face (the boundary is the face moved out by ``r``).

This is the construction of Box2D v3 (``b2ShapeDistance`` with ``radius`` in ``src/distance.c``:
the distance of the cores minus the radii, the witnesses moved along the normal) and of parry's
``RoundShape``. A row with ``r == 0`` returns the core's contact unchanged, bit for bit.
"""

import math

from collide2d._jit import kernel

from .distance_ellipse import contact_ellipse_point, contact_ellipse_polygon, contact_ellipse_segment
from .distance_flat import contact_convex, line_convex, mirror

INF = math.inf


@kernel
def round_contact(r, ra, rb):
    """The contact ``r`` of two cores turned into the contact of the cores rounded by ``ra`` and ``rb``."""
    s, nx, ny, pax, pay, pbx, pby, ka, kb = r
    if ra == 0.0 and rb == 0.0:
        return r
    if ra > 0.0:
        pax += ra * nx
        pay += ra * ny
        ka = 1.0 / ra if ka == INF else ka
    if rb > 0.0:
        pbx -= rb * nx
        pby -= rb * ny
        kb = 1.0 / rb if kb == INF else kb
    return (s - (ra + rb), nx, ny, pax, pay, pbx, pby, ka, kb)


@kernel
def core_against_list(pa, va, VB, offb, nb):
    """Contact of the core of the rounded row ``pa`` (as a) with the vertex list ``VB[offb : offb + nb]``."""
    count = int(pa[1])
    if count >= 3:
        return contact_convex(va, int(pa[0]), count, VB, offb, nb)
    if count == 2:
        return contact_convex(pa[3:7].reshape((2, 2)), int(0), int(2), VB, offb, nb)
    return contact_convex(pa[3:5].reshape((1, 2)), int(0), int(1), VB, offb, nb)


@kernel
def line_against_core(pl, pb, vb):
    """Contact of the line row ``pl`` (as a) with the core of the rounded row ``pb``."""
    count = int(pb[1])
    if count >= 3:
        return line_convex(pl[0], pl[1], pl[2], pl[3], vb, int(pb[0]), count)
    if count == 2:
        return line_convex(pl[0], pl[1], pl[2], pl[3], pb[3:7].reshape((2, 2)), int(0), int(2))
    return line_convex(pl[0], pl[1], pl[2], pl[3], pb[3:5].reshape((1, 2)), int(0), int(1))


@kernel
def ellipse_against_core(pe, ve, pb, vb):
    """Contact of the ellipse row ``pe`` (as a) with the core of the rounded row ``pb``."""
    count = int(pb[1])
    if count >= 3:
        return contact_ellipse_polygon(pe, ve, pb[0:2], vb)
    if count == 2:
        return contact_ellipse_segment(pe, ve, pb[3:7], vb)
    return contact_ellipse_point(pe, ve, pb[3:5], vb)


# -- the kernels (the rounded shape first) ---------------------------------------------------------


@kernel
def contact_rounded_rounded(pa, va, pb, vb):
    """Rounded a against rounded b: the cores' contact, rounded by both radii."""
    count = int(pb[1])
    if count >= 3:
        r = core_against_list(pa, va, vb, int(pb[0]), count)
    elif count == 2:
        r = core_against_list(pa, va, pb[3:7].reshape((2, 2)), int(0), int(2))
    else:
        r = core_against_list(pa, va, pb[3:5].reshape((1, 2)), int(0), int(1))
    return round_contact(r, pa[2], pb[2])


@kernel
def contact_rounded_ellipse(pa, va, pb, vb):
    """Rounded a against ellipse b: the ellipse against the core (mirrored), rounded by a's radius.
    The core's kernel is called here, not through :func:`ellipse_against_core`: a call that passes
    arrays is a call at run time (not inlined), and this one level cost as much as the segment
    kernel itself on a capsule against a circle."""
    count = int(pa[1])
    if count == 2:
        r = contact_ellipse_segment(pb, vb, pa[3:7], va)
    elif count >= 3:
        r = contact_ellipse_polygon(pb, vb, pa[0:2], va)
    else:
        r = contact_ellipse_point(pb, vb, pa[3:5], va)
    return round_contact(mirror(r), pa[2], 0.0)


@kernel
def contact_rounded_polygon(pa, va, pb, vb):
    """Rounded a against polygon b."""
    return round_contact(core_against_list(pa, va, vb, int(pb[0]), int(pb[1])), pa[2], 0.0)


@kernel
def contact_rounded_segment(pa, va, pb, vb):
    """Rounded a against segment b (b as a 2-vertex list)."""
    return round_contact(core_against_list(pa, va, pb[0:4].reshape((2, 2)), int(0), int(2)), pa[2], 0.0)


@kernel
def contact_rounded_line(pa, va, pb, vb):
    """Rounded a against line b (the line against the core, mirrored)."""
    return round_contact(mirror(line_against_core(pb, pa, va)), pa[2], 0.0)


@kernel
def contact_rounded_point(pa, va, pb, vb):
    """Rounded a against point b; inside: ``-`` the distance to the rounded boundary."""
    return round_contact(core_against_list(pa, va, pb[0:2].reshape((1, 2)), int(0), int(1)), pa[2], 0.0)
