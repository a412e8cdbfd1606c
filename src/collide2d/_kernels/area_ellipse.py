"""Overlap area of an ellipse (or circle) with an ellipse or a convex polygon.

Contract (see :mod:`collide2d._kernels`): ``area_ellipse_<b>(pa, va, pb, vb, relation) -> float``
where ``relation`` is the exact relation code of the pair, so that the kernel never re-decides
containment or disjointness: ``DISJOINT`` / ``TOUCHING`` give 0, ``CONTAINS`` the area of ``b``,
``WITHIN`` and ``EQUAL`` the area of ``a``. Only ``OVERLAPPING`` pairs are computed.

Frame: the unit frame of the ellipse ``A = pa`` (:mod:`points_ellipse`), where ``A`` is the unit
circle; the map from the world has determinant ``1 / (a b)``, so world areas are frame areas times
``a b`` (ALGORITHMS.md 5.1).

Segment formula (ALGORITHMS.md 5.1; Eberly, "The Area of Intersecting Ellipses", 2008, uses polar
angles, Hughes & Chraibi 2012 sectors and triangles; the eccentric-angle form is the same area): the
region between the chord ``P -> Q`` of an ellipse and its counter-clockwise arc from ``P`` to ``Q``
has area ``a b (dt - sin dt) / 2`` where ``dt`` in ``[0, 2 pi)`` is the eccentric-angle step,
obtained as ``atan2(cross, dot)`` of the two points in the ellipse's unit frame (no difference of
two angles). ``dt - sin dt`` is taken from its Taylor series below ``dt = 0.25`` (terms to
``dt^15``: the first omitted term is below ``2e-17`` of the sum), since the direct difference loses
``log10(6 / dt^2)`` digits.

Ellipse against ellipse (ALGORITHMS.md 5.1): the crossing points, sorted by angle on ``A``, are the
corners of the convex region ``A n B``; the region is the polygon of those corners plus, between
consecutive corners, the segment of whichever ellipse bounds the region there. Transversal
crossings alternate, so the pieces are A, B, A, B (or the reverse) and one decision fixes them all:
the orientation of the boundary normals (Eberly's rule) at the corner ``X_i`` with the widest angle
between them: moving counter-clockwise along ``A`` from ``X_i`` enters ``B`` iff
``n_A x n_B < 0`` (``n_A = X_i``, ``n_B = P^T (P X_i - s)``); then the arc of ``A`` bounds the region
up to ``X_{i+1}``. Near tangency or equality the normals are nearly parallel at every corner and the
corners' own error along the curve (~sqrt(eps)) reaches their separation; below a sine of
``_TANGENTIAL_SINE`` the midpoint of the longest arc (far from every corner) is tested against the
other ellipse instead. Since the corners lie on a convex curve, the steps on either ellipse sum to
exactly ``2 pi``, which guards against an angle of ``-tiny`` rounded to ``2 pi - tiny`` (and, for
two corners that coincide, tells which step is the full turn).

Ellipse against polygon: the polygon is mapped to the frame and clipped by the unit disc in one
pass over its edges (vertices inside, entry and exit points, in order); the area is the shoelace
sum of that chain (about its first point, to keep slivers accurate) plus a circular segment for
every arc from an exit point to the next entry point.

No allocation, no exceptions.
"""

import math

from collide2d._jit import kernel

from . import codes
from .points_ellipse import conic_in_frame, crossings_in_frame, to_frame, unit_frame
from .vec import hypot

_TWO_PI = 2.0 * math.pi
# Series switch for dt - sin dt (see the module docstring). Dimensionless (radians).
_SERIES_BELOW = 0.25
# Below this sine of the angle between the two boundary normals at every crossing, the normal
# orientation rule is replaced by a midpoint test (see overlap_in_frame). Dimensionless; crossings
# of two curves a depth delta past tangency have sine ~ sqrt(delta / R), so this is delta ~ 1e-10 R,
# where the points' own error (~sqrt(eps) R along the curve) reaches their separation (~1e-5 R).
_TANGENTIAL_SINE = 1e-5


@kernel
def segment_area(dt):
    """``(dt - sin dt) / 2``: the unit-circle segment cut off by a chord spanning the angle ``dt``."""
    if dt < _SERIES_BELOW:
        x = dt * dt
        s = 1.0 / 1307674368000.0
        s = 1.0 / 6227020800.0 - x * s
        s = 1.0 / 39916800.0 - x * s
        s = 1.0 / 362880.0 - x * s
        s = 1.0 / 5040.0 - x * s
        s = 1.0 / 120.0 - x * s
        s = 1.0 / 6.0 - x * s
        return 0.5 * (dt * x) * s
    return 0.5 * (dt - math.sin(dt))


@kernel
def ccw_angle(x0, y0, x1, y1):
    """Counter-clockwise angle in ``[0, 2 pi)`` from direction ``(x0, y0)`` to ``(x1, y1)``."""
    t = math.atan2(x0 * y1 - y0 * x1, x0 * x1 + y0 * y1)
    if t < 0.0:
        t += _TWO_PI
    return t


@kernel
def ellipse_area(pa):
    """``pi a b``."""
    return math.pi * pa[2] * pa[3]


@kernel
def polygon_area(pb, vb):
    """Shoelace area of a counter-clockwise polygon row, about its first vertex."""
    offset = int(pb[0])
    count = int(pb[1])
    ox = vb[offset, 0]
    oy = vb[offset, 1]
    s = 0.0
    for i in range(1, count - 1):
        ax = vb[offset + i, 0] - ox
        ay = vb[offset + i, 1] - oy
        bx = vb[offset + i + 1, 0] - ox
        by = vb[offset + i + 1, 1] - oy
        s += ax * by - ay * bx
    return 0.5 * s


@kernel
def _sort_step(t0, x0, y0, t1, x1, y1):
    if t1 < t0:
        return t1, x1, y1, t0, x0, y0
    return t0, x0, y0, t1, x1, y1


@kernel
def _pick(i, a0, a1, a2, a3):
    if i == 0:
        return a0
    if i == 1:
        return a1
    if i == 2:
        return a2
    return a3


@kernel
def _fix_wrap(n, d0, d1, d2, d3, long_index):
    """Make the steps around a closed convex chain sum to ``2 pi``.

    A sum near ``4 pi`` means that a step of ``-tiny`` was rounded to ``2 pi - tiny``: the largest
    step is set back to 0. A sum near 0 means that all corners coincide to rounding (a crossing
    pair at a tangency): the step ``long_index`` is the full turn.
    """
    total = d0 + d1 + (d2 if n > 2 else 0.0) + (d3 if n > 3 else 0.0)
    if n > 2 and total > 3.0 * math.pi:
        big = max(max(d0, d1), max(d2 if n > 2 else 0.0, d3 if n > 3 else 0.0))
        if d0 == big:
            d0 = 0.0
        elif d1 == big:
            d1 = 0.0
        elif d2 == big:
            d2 = 0.0
        else:
            d3 = 0.0
    elif total < math.pi:
        if long_index == 0:
            d0 += _TWO_PI
        elif long_index == 1:
            d1 += _TWO_PI
        elif long_index == 2:
            d2 += _TWO_PI
        else:
            d3 += _TWO_PI
    return d0, d1, d2, d3


@kernel
def overlap_in_frame(p1, p2, r1, r2, sp, sr, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3):
    """Area of ``A n B`` in the unit frame of ``A`` from its ``n`` (2..4) crossing points."""
    # sort the corners by angle on A (a sorting network on up to four entries; absent ones last)
    t0 = math.atan2(Y0, X0)
    t1 = math.atan2(Y1, X1)
    t2 = math.atan2(Y2, X2) if n > 2 else math.inf
    t3 = math.atan2(Y3, X3) if n > 3 else math.inf
    t0, X0, Y0, t1, X1, Y1 = _sort_step(t0, X0, Y0, t1, X1, Y1)
    t2, X2, Y2, t3, X3, Y3 = _sort_step(t2, X2, Y2, t3, X3, Y3)
    t0, X0, Y0, t2, X2, Y2 = _sort_step(t0, X0, Y0, t2, X2, Y2)
    t1, X1, Y1, t3, X3, Y3 = _sort_step(t1, X1, Y1, t3, X3, Y3)
    t1, X1, Y1, t2, X2, Y2 = _sort_step(t1, X1, Y1, t2, X2, Y2)
    det_p = p1 * r2 - p2 * r1  # > 0: B's unit frame Z = P X - s keeps the orientation
    # corner polygon about X0
    poly = 0.0
    for i in range(1, n - 1):
        ax = _pick(i, X0, X1, X2, X3) - X0
        ay = _pick(i, Y0, Y1, Y2, Y3) - Y0
        bx = _pick(i + 1, X0, X1, X2, X3) - X0
        by = _pick(i + 1, Y0, Y1, Y2, Y3) - Y0
        poly += 0.5 * (ax * by - ay * bx)
    # steps on A and on B between consecutive corners, and which arc bounds the region
    dA0 = dA1 = dA2 = dA3 = 0.0
    dB0 = dB1 = dB2 = dB3 = 0.0
    onA0 = onA1 = onA2 = onA3 = False
    best_sine = -1.0  # the crossing with the largest |sin| of the angle between the normals
    best_i = 0
    best_on_a = False
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        xi = _pick(i, X0, X1, X2, X3)
        yi = _pick(i, Y0, Y1, Y2, Y3)
        xj = _pick(j, X0, X1, X2, X3)
        yj = _pick(j, Y0, Y1, Y2, Y3)
        zpi = p1 * xi + p2 * yi - sp
        zri = r1 * xi + r2 * yi - sr
        zpj = p1 * xj + p2 * yj - sp
        zrj = r1 * xj + r2 * yj - sr
        gx = p1 * zpi + r1 * zri  # n_B = P^T Z (half the gradient of q_B)
        gy = p2 * zpi + r2 * zri
        cr = xi * gy - yi * gx
        on_a = cr < 0.0
        sine = abs(cr) / (hypot(xi, yi) * hypot(gx, gy))
        if sine > best_sine:
            best_sine = sine
            best_i = i
            best_on_a = on_a
        da = ccw_angle(xi, yi, xj, yj)
        db = ccw_angle(zpi, zri, zpj, zrj)
        if i == 0:
            dA0, dB0, onA0 = da, db, on_a
        elif i == 1:
            dA1, dB1, onA1 = da, db, on_a
        elif i == 2:
            dA2, dB2, onA2 = da, db, on_a
        else:
            dA3, dB3, onA3 = da, db, on_a
    # sorted by angle on A, only the last step (back to the first corner) can be the full turn
    dA0, dA1, dA2, dA3 = _fix_wrap(n, dA0, dA1, dA2, dA3, n - 1)
    longest = 0
    for i in range(1, n):
        if _pick(i, dA0, dA1, dA2, dA3) > _pick(longest, dA0, dA1, dA2, dA3):
            longest = i
    dB0, dB1, dB2, dB3 = _fix_wrap(n, dB0, dB1, dB2, dB3, longest)
    if n == 2 or n == 4:
        # Transversal crossings alternate: the pieces are A, B, A, B (or B, A, B, A) around the
        # region, so one decision fixes all of them. It is taken at the crossing with the widest
        # angle between the normals; when even that one is nearly tangential (sine below
        # _TANGENTIAL_SINE: a lens or a sliver within ~1e-10 of tangency, or near-identical
        # ellipses), the computed points may have swapped along the curve (their error, ~sqrt(eps),
        # is then the size of their separation) and the local orientation means nothing; the
        # midpoint of the longest arc of A between corners, far from every corner, is tested
        # against B instead.
        if best_sine >= _TANGENTIAL_SINE:
            parity_on_a = best_on_a == (best_i % 2 == 0)
        else:
            h = math.atan2(_pick(longest, Y0, Y1, Y2, Y3), _pick(longest, X0, X1, X2, X3))
            h += 0.5 * _pick(longest, dA0, dA1, dA2, dA3)
            zp = p1 * math.cos(h) + p2 * math.sin(h) - sp
            zr = r1 * math.cos(h) + r2 * math.sin(h) - sr
            inside = zp * zp + zr * zr < 1.0
            parity_on_a = inside == (longest % 2 == 0)
            if n == 2:
                # Two corners within rounding of each other: their order along either curve is
                # unreliable, so each ellipse's piece is chosen by the midpoint of its own longer
                # arc (inside the other ellipse: that arc, else the shorter one).
                la = _pick(longest, dA0, dA1, dA2, dA3)
                piece_a = la if inside else _pick(1 - longest, dA0, dA1, dA2, dA3)
                lb_index = 0 if dB0 >= dB1 else 1
                lb = dB0 if lb_index == 0 else dB1
                zpi = p1 * _pick(lb_index, X0, X1, X2, X3) + p2 * _pick(lb_index, Y0, Y1, Y2, Y3) - sp
                zri = r1 * _pick(lb_index, X0, X1, X2, X3) + r2 * _pick(lb_index, Y0, Y1, Y2, Y3) - sr
                g = math.atan2(zri, zpi) + 0.5 * lb
                # the midpoint Z = (cos g, sin g) of B's longer arc, back in A's frame: X = P^-1 (Z + s)
                u = math.cos(g) + sp
                v = math.sin(g) + sr
                mx = (r2 * u - p2 * v) / det_p
                my = (p1 * v - r1 * u) / det_p
                piece_b = lb if mx * mx + my * my < 1.0 else (dB1 if lb_index == 0 else dB0)
                return segment_area(piece_a) + segment_area(piece_b) / det_p
    total = poly
    for i in range(n):
        if _pick(i, onA0, onA1, onA2, onA3):
            total += segment_area(_pick(i, dA0, dA1, dA2, dA3))
        else:
            total += segment_area(_pick(i, dB0, dB1, dB2, dB3)) / det_p
    return total


@kernel
def area_ellipse_ellipse(pa, va, pb, vb, relation):
    """Area of the intersection of two ellipses (see the module docstring).

    ``OVERLAPPING`` pairs whose crossing points cannot be resolved in floating point (fewer than
    two found: boundaries that agree to rounding, e.g. near-identical ellipses) return the smaller
    area; the true value then differs from it by at most the perimeter times the distance between
    the boundaries (ALGORITHMS.md 5.2), i.e. by rounding.
    """
    if relation == codes.DISJOINT or relation == codes.TOUCHING:
        return 0.0
    if relation == codes.CONTAINS:
        return ellipse_area(pb)
    if relation == codes.WITHIN or relation == codes.EQUAL:
        return ellipse_area(pa)
    p1, p2, r1, r2, sp, sr = conic_in_frame(pa, pb)
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3 = crossings_in_frame(p1, p2, r1, r2, sp, sr)
    small = min(ellipse_area(pa), ellipse_area(pb))
    if n < 2:
        # The boundaries meet (exactly) but no crossing survived rounding: the pair is within
        # rounding of a tangency or of equality. Nested-like pairs (either centre inside the
        # other: internal tangency, near-identical) have the smaller area, externally tangent ones
        # a lens below rounding.
        qa = sp * sp + sr * sr  # q_B at the centre of A (the frame's origin)
        cx, cy, a, b, ux, uy = unit_frame(pa)
        X, Y = to_frame(pb[0], pb[1], cx, cy, a, b, ux, uy)
        if qa < 1.0 or X * X + Y * Y < 1.0:
            return small
        return 0.0
    area = pa[2] * pa[3] * overlap_in_frame(p1, p2, r1, r2, sp, sr, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    return max(0.0, min(area, small))


@kernel
def _inside_polygon(X, Y, pb, vb, cx, cy, a, b, ux, uy, tol):
    """Is the frame point ``(X, Y)`` left of (or within ``tol`` of) every edge of the polygon?"""
    offset = int(pb[0])
    count = int(pb[1])
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        x0, y0 = to_frame(vb[k0, 0], vb[k0, 1], cx, cy, a, b, ux, uy)
        x1, y1 = to_frame(vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy)
        ex = x1 - x0
        ey = y1 - y0
        if ex * (Y - y0) - ey * (X - x0) < -tol * hypot(ex, ey):
            return False
    return True


@kernel
def disc_polygon_in_frame(pb, vb, cx, cy, a, b, ux, uy):
    """Area of (unit disc) n (polygon mapped to the unit frame of the ellipse).

    One pass over the edges emits the boundary chain of the intersection: vertices inside the disc
    (``|V| < 1``), the entry and exit points of each edge (roots of ``|V + t E|^2 = 1`` with the
    discriminant ``|E|^2 - (E x V)^2`` from Lagrange's identity and the cancellation-free pair
    ``q = -(beta + sign(beta) sqrt(disc))``, ``t1 = q / alpha``, ``t2 = gamma / q``). Which roots
    exist follows from the inside/outside state of the two end points, so entries and exits always
    alternate. The shoelace sum is accumulated about the first emitted point; every exit adds the
    segment up to the next entry (the last exit wraps to the first entry).

    An arc whose exit and entry lie on the same edge (the only crossing pair) takes its angle from
    the half chord, ``dt = 2 asin(sqrt(disc) / |E|)`` (the small side when the disc centre is right
    of the edge, else ``2 pi - dt``), which keeps thin caps accurate to a few ulps. An arc longer
    than pi whose midpoint is outside the polygon by more than ``1e-9`` (frame units, i.e. relative
    to the semi-axes) can only be a rounded ``-tiny`` angle: it is set to 0.
    """
    offset = int(pb[0])
    count = int(pb[1])
    have_first = False
    ox = oy = 0.0  # first emitted point (shoelace origin)
    first_is_entry = False
    first_edge = -1
    px = py = 0.0  # previous emitted point, relative to the origin
    shoelace = 0.0
    arcs = 0.0
    pending = False  # an exit waits for its entry
    exit_x = exit_y = 0.0
    exit_edge = -1
    exit_small = 0.0  # half-chord angle of the exit's own edge
    exit_right = False  # disc centre strictly right of the exit's edge
    n_emitted = 0
    n_cross = 0
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        X0, Y0 = to_frame(vb[k0, 0], vb[k0, 1], cx, cy, a, b, ux, uy)
        X1, Y1 = to_frame(vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy)
        in0 = X0 * X0 + Y0 * Y0 < 1.0
        in1 = X1 * X1 + Y1 * Y1 < 1.0
        ex = X1 - X0
        ey = Y1 - Y0
        alpha = ex * ex + ey * ey
        beta = ex * X0 + ey * Y0
        gamma = (X0 * X0 + Y0 * Y0) - 1.0
        cr = ex * Y0 - ey * X0  # E x V: the origin is right of the edge iff V x E < 0 iff cr > 0
        sa = math.sqrt(alpha)
        disc = (sa - abs(cr)) * (sa + abs(cr))
        # up to three points from this edge: [vertex], [entry], [exit]
        for slot in range(3):
            kind = 0  # 0 none, 1 vertex, 2 entry, 3 exit
            qx = qy = 0.0
            if slot == 0:
                if in0:
                    kind = 1
                    qx, qy = X0, Y0
            else:
                want_entry = slot == 1
                has = False
                if (not in0) and (not in1):
                    has = disc > 0.0 and -beta > 0.0 and -beta < alpha
                elif want_entry:
                    has = (not in0) and in1
                else:
                    has = in0 and (not in1)
                if has:
                    root = math.sqrt(max(disc, 0.0))
                    q = -(beta + root) if beta >= 0.0 else -(beta - root)
                    t1 = q / alpha
                    t2 = gamma / q if q != 0.0 else t1
                    if t1 > t2:
                        t1, t2 = t2, t1
                    t = t1 if want_entry else t2
                    t = max(0.0, min(1.0, t))
                    qx = X0 + t * ex
                    qy = Y0 + t * ey
                    kind = 2 if want_entry else 3
            if kind == 0:
                continue
            n_emitted += 1
            if not have_first:
                have_first = True
                ox = qx
                oy = qy
                px = 0.0
                py = 0.0
                first_is_entry = kind == 2
                first_edge = i
            else:
                rx = qx - ox
                ry = qy - oy
                shoelace += px * ry - py * rx
                px = rx
                py = ry
            if kind == 2 and pending:
                arcs += _arc(exit_x, exit_y, qx, qy, exit_edge == i, exit_small, exit_right, pb, vb, cx, cy, a, b, ux, uy)
                pending = False
            if kind == 3:
                n_cross += 1
                pending = True
                exit_x = qx
                exit_y = qy
                exit_edge = i
                exit_small = 2.0 * math.asin(min(1.0, math.sqrt(max(disc, 0.0)) / sa))
                exit_right = cr > 0.0
    if n_emitted == 0:
        # the boundary of the polygon misses the open disc: the disc is inside the polygon or outside
        return math.pi if _inside_polygon(0.0, 0.0, pb, vb, cx, cy, a, b, ux, uy, 0.0) else 0.0
    # close the chain: the last point -> the first point adds nothing (the first point is the origin)
    if pending and first_is_entry:
        arcs += _arc(exit_x, exit_y, ox, oy, exit_edge == first_edge and n_cross == 1, exit_small, exit_right, pb, vb, cx, cy, a, b, ux, uy)
    return 0.5 * shoelace + arcs


@kernel
def _arc(xe, ye, xn, yn, same_edge, small, right, pb, vb, cx, cy, a, b, ux, uy):
    """Segment area of the unit-circle arc counter-clockwise from exit ``(xe, ye)`` to entry ``(xn, yn)``."""
    if same_edge:
        dt = small if right else _TWO_PI - small
        return segment_area(dt)
    dt = ccw_angle(xe, ye, xn, yn)
    if dt > math.pi:
        h = math.atan2(ye, xe) + 0.5 * dt
        if not _inside_polygon(math.cos(h), math.sin(h), pb, vb, cx, cy, a, b, ux, uy, 1e-9):
            dt = 0.0
    return segment_area(dt)


@kernel
def area_ellipse_polygon(pa, va, pb, vb, relation):
    """Area of the intersection of an ellipse and a convex polygon (see the module docstring)."""
    if relation == codes.DISJOINT or relation == codes.TOUCHING:
        return 0.0
    if relation == codes.CONTAINS:
        return polygon_area(pb, vb)
    if relation == codes.WITHIN or relation == codes.EQUAL:
        return ellipse_area(pa)
    cx, cy, a, b, ux, uy = unit_frame(pa)
    area = a * b * disc_polygon_in_frame(pb, vb, cx, cy, a, b, ux, uy)
    return max(0.0, min(area, min(ellipse_area(pa), polygon_area(pb, vb))))
