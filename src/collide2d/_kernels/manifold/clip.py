"""Contact manifolds of flat pairs: clip the incident face against the reference face.

Every kernel ``manifold_<a>_<b>(pa, va, pb, vb, c, radius_a, radius_b, margin)`` takes the
parameter rows of the two shapes (see :mod:`collide2d._kernels`), their contact ``c`` (the
9-tuple ``separation, nx, ny, pax, pay, pbx, pby, curvature_a, curvature_b`` of
:func:`collide2d.contact`, in the order a, b), the radii of the two shapes' rounding (0 for the
kinds of today; a rounded shape is its core polygon plus a disc of that radius, as Box2D's
``b2Polygon.radius``) and the speculative margin. It returns the 13-tuple

    ``(count, nx, ny, s0, pa0x, pa0y, pb0x, pb0y, s1, pa1x, pa1y, pb1x, pb1y)``

``count`` points (0, 1 or 2) with separations ``s_k`` and witnesses ``pa_k`` on a's boundary and
``pb_k = pa_k + s_k n`` on b's, one unit normal ``n`` from a to b; unused slots are NaN.

Definition (Box2D v3 ``b2CollidePolygons`` / ``b2ClipPolygons``, ``src/manifold.c``)
------------------------------------------------------------------------------------------
Frame: world coordinates; every projection is taken on differences from the first vertex of the
shorter of the two faces (translate first), so rounding is relative to that face's size, not to the
distance from the origin nor to the length of the other face. Floating point throughout: these are measurements, accurate to a few ulps of the sizes.

1. **Reference face.** The contact normal ``n`` of the pair is an edge normal of one of the shapes
   whenever that shape has a face along it (``curvature == 0`` in the contact: the separating axis
   when the shapes overlap, the edge whose foot the closest vertex meets when they are apart). That
   face is the reference face: a's edge whose outward normal is nearest to ``n`` if a has a face,
   else b's edge nearest to ``-n``; when both have one, the edge whose normal is nearer (ties to
   a). Its own unit normal ``m`` (outward from the reference shape) is used from here on.
2. **Incident face.** The edge of the other shape whose outward normal is most anti-parallel to
   ``m`` (``b2ClipPolygons``' search); it holds the other shape's deepest vertex.
3. **Clipping.** With the reference edge ``v11 -> v12`` and its tangent ``t``, the incident edge
   ``v21 -> v22`` is clipped to the slab ``0 <= t.(x - v11) <= |v12 - v11|`` between the reference
   face's side planes. The two clipped end points ``x`` are the manifold points on the incident
   shape, with separations ``s = m.(x - v11)``; their feet ``x - s m`` on the reference face are the
   points on the reference shape. Clipped points that coincide are one point.
4. **Single points.** When neither shape has a face along ``n`` (two vertices apart: Box2D's
   vertex-vertex case), when a shape is a point, or when the incident face misses the slab, the
   manifold is the contact itself: one point.
5. **Rounding radii.** The points move out by the radii along ``m`` onto the rounded boundaries and
   the separations drop by ``radius_a + radius_b`` (``b2ClipPolygons``' midpoint rule without the
   midpoint: both witnesses are kept).
6. **Speculative margin.** Points whose separation exceeds ``margin`` are dropped (Box2D keeps the
   points of a pair whose separation is below its speculative distance, ``4 * b2_linearSlop``); the
   kept points move to the front.

A line has no side planes: against a line, the line is the reference face and the incident
face's two end points are the manifold points (no clipping).
"""

import math

from collide2d._jit import kernel

from ..vec import hypot

NAN = math.nan


@kernel
def _edge_normal(V, off, cnt, i):
    """Outward unit normal of the edge ``V[i] -> V[i + 1]`` (cyclic) of a counter-clockwise vertex
    list: ``(ey, -ex) / |e|``. For a segment (2 vertices) edge 0 has the right normal, edge 1 the
    left one."""
    j = i + 1 if i + 1 < cnt else 0
    ex = V[off + j, 0] - V[off + i, 0]
    ey = V[off + j, 1] - V[off + i, 1]
    length = hypot(ex, ey)
    return ey / length, -ex / length


@kernel
def _nearest_edge(V, off, cnt, ux, uy):
    """The edge of the vertex list whose outward unit normal has the largest dot product with
    ``u`` (first one on ties), and that dot product."""
    best = -math.inf
    k = 0
    for i in range(cnt):
        mx, my = _edge_normal(V, off, cnt, i)
        d = mx * ux + my * uy
        if d > best:
            best = d
            k = i
    return k, best


@kernel
def _empty():
    return (0.0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN)


@kernel
def _keep(nx, ny, s0, a0x, a0y, b0x, b0y, s1, a1x, a1y, b1x, b1y, count, margin):
    """The manifold of ``count`` candidate points (1 or 2) without those whose separation exceeds
    ``margin``; kept points first, unused slots NaN."""
    keep0 = s0 <= margin
    keep1 = count == 2 and s1 <= margin
    if keep0 and keep1:
        return (2.0, nx, ny, s0, a0x, a0y, b0x, b0y, s1, a1x, a1y, b1x, b1y)
    if keep0:
        return (1.0, nx, ny, s0, a0x, a0y, b0x, b0y, NAN, NAN, NAN, NAN, NAN)
    if keep1:
        return (1.0, nx, ny, s1, a1x, a1y, b1x, b1y, NAN, NAN, NAN, NAN, NAN)
    return (0.0, nx, ny, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN)


@kernel
def manifold_single(c, radius_a, radius_b, margin):
    """The one-point manifold of the contact ``c`` (step 4 of the module notes): its witnesses moved
    out by the radii along the normal, its separation less their sum."""
    s, nx, ny = c[0], c[1], c[2]
    return _keep(nx, ny, s - radius_a - radius_b,
                 c[3] + radius_a * nx, c[4] + radius_a * ny, c[5] - radius_b * nx, c[6] - radius_b * ny,
                 NAN, NAN, NAN, NAN, NAN, int(1), margin)


@kernel
def _clip(V1, off1, cnt1, i1, V2, off2, cnt2, radius_1, radius_2, margin, reference_is_a, c):
    """Steps 2, 3, 5 and 6 of the module notes for the reference edge ``i1`` of the vertex list 1;
    the contact ``c`` when the incident face misses the slab."""
    mx, my = _edge_normal(V1, off1, cnt1, i1)
    i2, _ = _nearest_edge(V2, off2, cnt2, -mx, -my)
    j1 = i1 + 1 if i1 + 1 < cnt1 else 0
    j2 = i2 + 1 if i2 + 1 < cnt2 else 0
    # Frame: differences from an origin o at the first vertex of the shorter of the two faces (v11
    # or v21), so that the clipped points keep that face's own precision however long the other
    # face is: a unit box on a floor 1e150 wide (differences from the floor's end would round both
    # ends of the box to one number), or a floor 1e150 wide clipped to a unit box's face.
    v11x, v11y = V1[off1 + i1, 0], V1[off1 + i1, 1]
    v21x, v21y = V2[off2 + i2, 0], V2[off2 + i2, 1]
    e1 = abs(V1[off1 + j1, 0] - v11x) + abs(V1[off1 + j1, 1] - v11y)
    e2 = abs(V2[off2 + j2, 0] - v21x) + abs(V2[off2 + j2, 1] - v21y)
    ox, oy = (v11x, v11y) if e1 <= e2 else (v21x, v21y)
    tx, ty = -my, mx  # tangent: along the reference edge (counter-clockwise)
    r1x, r1y = v11x - ox, v11y - oy
    lower1 = tx * r1x + ty * r1y
    upper1 = tx * (V1[off1 + j1, 0] - ox) + ty * (V1[off1 + j1, 1] - oy)
    offset = 0.0 - (mx * r1x + my * r1y)  # m.(o - v11): the separation of o
    # the incident edge runs against the tangent: its first vertex projects highest
    x21, y21 = v21x - ox, v21y - oy
    x22, y22 = V2[off2 + j2, 0] - ox, V2[off2 + j2, 1] - oy
    upper2 = tx * x21 + ty * y21
    lower2 = tx * x22 + ty * y22
    if upper2 < lower1 or upper1 < lower2:  # the incident face misses the slab
        return manifold_single(c, radius_1 if reference_is_a else radius_2,
                               radius_2 if reference_is_a else radius_1, margin)
    span = upper2 - lower2
    # Clip the lower end to the side plane t.(x - o) = lower1 and the upper end to t.(x - o) =
    # upper1. A clipped end is built in the (t, m) frame, x - o = L t + h m with h interpolated
    # along the incident edge (not x and y interpolated between the ends, which loses L when the
    # incident edge is much longer than the slab is wide); an end that needs no clipping keeps its
    # stored coordinates (exactly on the boundary).
    h21 = mx * x21 + my * y21
    h22 = mx * x22 + my * y22
    lox, loy = x22, y22
    lo_x, lo_y = V2[off2 + j2, 0], V2[off2 + j2, 1]
    if lower2 < lower1 and span > 0.0:
        h = h22 + (lower1 - lower2) * ((h21 - h22) / span)
        lox, loy = lower1 * tx + h * mx, lower1 * ty + h * my
        lo_x, lo_y = ox + lox, oy + loy
    upx, upy = x21, y21
    up_x, up_y = v21x, v21y
    if upper2 > upper1 and span > 0.0:
        h = h22 + (upper1 - lower2) * ((h21 - h22) / span)
        upx, upy = upper1 * tx + h * mx, upper1 * ty + h * my
        up_x, up_y = ox + upx, oy + upy
    count = 1 if (lox == upx and loy == upy) else 2
    radius = radius_1 + radius_2
    s_lo = offset + (mx * lox + my * loy)  # separations of the core shapes, along m
    s_up = offset + (mx * upx + my * upy)
    # witnesses on the reference shape (feet, moved out by radius_1) and on the incident shape
    # (moved in by radius_2), back in world coordinates
    r_lo_x, r_lo_y = lo_x - (s_lo - radius_1) * mx, lo_y - (s_lo - radius_1) * my
    r_up_x, r_up_y = up_x - (s_up - radius_1) * mx, up_y - (s_up - radius_1) * my
    i_lo_x, i_lo_y = lo_x - radius_2 * mx, lo_y - radius_2 * my
    i_up_x, i_up_y = up_x - radius_2 * mx, up_y - radius_2 * my
    if r_lo_x == r_up_x and r_lo_y == r_up_y and i_lo_x == i_up_x and i_lo_y == i_up_y:
        count = 1  # one point in floats (a capsule whose core is below its coordinates' resolution)
    if reference_is_a:
        return _keep(mx + 0.0, my + 0.0, s_lo - radius, r_lo_x, r_lo_y, i_lo_x, i_lo_y,
                     s_up - radius, r_up_x, r_up_y, i_up_x, i_up_y, int(count), margin)
    return _keep(0.0 - mx, 0.0 - my, s_lo - radius, i_lo_x, i_lo_y, r_lo_x, r_lo_y,
                 s_up - radius, i_up_x, i_up_y, r_up_x, r_up_y, int(count), margin)


@kernel
def manifold_convex(VA, offa, na, VB, offb, nb, c, radius_a, radius_b, margin):
    """Manifold of two vertex lists (polygon, segment or point each); see the module notes."""
    nx, ny, face_a, face_b = c[1], c[2], c[7] == 0.0, c[8] == 0.0
    if na < 2 or nb < 2 or not (face_a or face_b) or not (abs(nx) + abs(ny) > 0.0):
        return manifold_single(c, radius_a, radius_b, margin)
    ia, dot_a = _nearest_edge(VA, offa, na, nx, ny)
    ib, dot_b = _nearest_edge(VB, offb, nb, -nx, -ny)
    if face_a and (not face_b or dot_a >= dot_b):
        return _clip(VA, offa, na, ia, VB, offb, nb, radius_a, radius_b, margin, bool(True), c)
    return _clip(VB, offb, nb, ib, VA, offa, na, radius_b, radius_a, margin, bool(False), c)


@kernel
def manifold_line_convex(px, py, dx, dy, V, off, cnt, c, radius_b, margin):
    """Manifold of the line ``p + t d`` (as a) and a vertex list (as b): the line is the reference
    face, the incident face's end points are the points (no side planes to clip against)."""
    nx, ny = c[1], c[2]
    if cnt < 2:
        return manifold_single(c, 0.0, radius_b, margin)
    i2, _ = _nearest_edge(V, off, cnt, -nx, -ny)
    j2 = i2 + 1 if i2 + 1 < cnt else 0
    length = hypot(dx, dy)
    mx, my = -dy / length, dx / length  # the line's unit left normal, turned to b's side
    if mx * nx + my * ny < 0.0:
        mx, my = -mx, -my
    lo_x, lo_y = V[off + j2, 0], V[off + j2, 1]
    up_x, up_y = V[off + i2, 0], V[off + i2, 1]
    s_up = mx * (up_x - px) + my * (up_y - py)
    s_lo = s_up + (mx * (lo_x - up_x) + my * (lo_y - up_y))  # the face's own precision (see _clip)
    return _keep(mx + 0.0, my + 0.0, s_lo - radius_b, lo_x - s_lo * mx, lo_y - s_lo * my,
                 lo_x - radius_b * mx, lo_y - radius_b * my,
                 s_up - radius_b, up_x - s_up * mx, up_y - s_up * my,
                 up_x - radius_b * mx, up_y - radius_b * my, int(2), margin)


@kernel
def mirror(r):
    """The manifold of the swapped pair: the normal negated, the witnesses swapped."""
    return (r[0], 0.0 - r[1], 0.0 - r[2], r[3], r[6], r[7], r[4], r[5], r[8], r[11], r[12], r[9], r[10])


@kernel
def mirror_contact(c):
    """The contact 9-tuple of the swapped pair."""
    return (c[0], 0.0 - c[1], 0.0 - c[2], c[5], c[6], c[3], c[4], c[8], c[7])


# -- the kernels, one per ordered pair of flat kinds with a face ------------------------------------


@kernel
def manifold_polygon_polygon(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_convex(va, int(pa[0]), int(pa[1]), vb, int(pb[0]), int(pb[1]), c, radius_a, radius_b, margin)


@kernel
def manifold_polygon_segment(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_convex(va, int(pa[0]), int(pa[1]), pb[0:4].reshape((2, 2)), int(0), int(2), c, radius_a, radius_b, margin)


@kernel
def manifold_segment_polygon(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_convex(pa[0:4].reshape((2, 2)), int(0), int(2), vb, int(pb[0]), int(pb[1]), c, radius_a, radius_b, margin)


@kernel
def manifold_segment_segment(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_convex(pa[0:4].reshape((2, 2)), int(0), int(2), pb[0:4].reshape((2, 2)), int(0), int(2), c, radius_a, radius_b, margin)


@kernel
def manifold_line_polygon(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_line_convex(pa[0], pa[1], pa[2], pa[3], vb, int(pb[0]), int(pb[1]), c, radius_b, margin)


@kernel
def manifold_line_segment(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return manifold_line_convex(pa[0], pa[1], pa[2], pa[3], pb[0:4].reshape((2, 2)), int(0), int(2), c, radius_b, margin)


@kernel
def manifold_polygon_line(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return mirror(manifold_line_convex(pb[0], pb[1], pb[2], pb[3], va, int(pa[0]), int(pa[1]),
                                       mirror_contact(c), radius_a, margin))


@kernel
def manifold_segment_line(pa, va, pb, vb, c, radius_a, radius_b, margin):
    return mirror(manifold_line_convex(pb[0], pb[1], pb[2], pb[3], pa[0:4].reshape((2, 2)), int(0), int(2),
                                       mirror_contact(c), radius_a, margin))
