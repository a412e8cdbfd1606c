"""The robustness ladder: what happens to a pair after (or instead of) the float kernel.

The float kernels answer most pairs: a certified filter either decides a sign or returns
``UNDECIDED`` (relate, intersects), and their error bounds hold while every number of the pair is
*tame* (non-zero magnitudes in ``[TAME_LO, TAME_HI]``, :mod:`collide2d._tolerances`). The
rungs, in order, one pair at a time:

1. **tame and decided**: the float kernel's answer stands (the batch loop, or the scalar path);
2. **extreme magnitudes** (a row that is not tame): the pair is scaled by ``2**k``
   (:func:`collide2d._robust.magnitude.pair_shift`; exact while nothing leaves the normal floats) and the
   float kernel runs on it; its answer is scaled back (lengths ``2**-k``, areas ``4**-k``);
   pairs no power of two tames go to rung 3 (predicates) or to the size-disparate measurements of
   :mod:`collide2d._robust.magnitude` (a shape far smaller than the other measured as a point plus its
   support, nested areas from the inner shape);
3. **undecided signs**: the *exact twin*, the same kernel source run on ``fractions.Fraction``
   (:mod:`collide2d._robust.exact`), counted in :func:`collide2d.exact_fallback_counts`;
4. **sign fix-ups** after a measurement: a separation's sign follows the exact relation
   (:func:`sign_consistent`); the tangent points of two ellipses are counted exactly
   (:func:`resolve_points`).

Every function here takes an entry of the pair table (:mod:`collide2d._glue.registry`): the
ladder never looks a kernel up by name.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._robust import exact, magnitude, rounded_ellipse
from collide2d._kernels import codes
from collide2d._tolerances import BAND, EPS, PW_SIZE_RATIO

table_tame = magnitude.table_tame


wild_mask = magnitude.wild_mask  # (index_a, index_b, tame_a, tame_b): None, or the rows to take one at a time


_ROUNDED_ELLIPSE = ("relate_rounded_ellipse", "intersects_rounded_ellipse")


def exact_code(name, kind_a, pa, va, kind_b, pb, vb):
    """Rung 3: the exact twin of kernel ``name`` on the stored numbers of one pair; a rounded
    shape against an ellipse by :func:`collide2d._robust.rounded_ellipse.relation` (the twin of
    that kernel decides within its band)."""
    if name in _ROUNDED_ELLIPSE:
        exact.count(name)
        return rounded_ellipse.relation(name, pa, va, pb)
    return exact.run(name, kind_a, pa, va, kind_b, pb, vb)


def code_row(entry, kind_a, pa, va, kind_b, pb, vb):
    """Rungs 2 and 3 for a relate or intersects code: the scaled float kernel, else exact."""
    if kind_a == "rounded":  # a rounded shape comes first in its kernels
        return magnitude.rounded_relate_row(entry.name, entry.kernel, kind_a, pa, va, kind_b, pb, vb, EPS, exact_code)
    return magnitude.relate_row(entry.name, entry.kernel, kind_a, pa, va, kind_b, pb, vb, EPS, exact.run)


def contact_row(entry, kind_a, pa, va, kind_b, pb, vb, lookup):
    """Rung 2 for a contact 9-tuple (see :func:`collide2d._robust.magnitude.contact_row`); ``lookup``
    is the table's (a point stand-in needs the contact kernel of another kind pair)."""
    if kind_a == "rounded":
        return magnitude.rounded_contact_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, lookup)
    return magnitude.contact_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, lookup)


def area_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, lookup):
    """Rung 2 for an overlap area (see :func:`collide2d._robust.magnitude.area_row`); ``lookup`` is
    the table's (a clipped square runs the ellipse-polygon kernel)."""
    if kind_a == "rounded":  # the kernels scale the pair themselves; a small shape beside a huge polygon: local
        return magnitude.rounded_area_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation)
    return magnitude.area_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation, lookup)


def points_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, out, lookup=None):
    """Rung 2 for intersection points into ``out``; returns the count (``lookup``: as
    :func:`area_row`)."""
    if kind_a == "rounded":  # as area_row
        return magnitude.rounded_points_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation, out)
    return magnitude.points_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation, out, resolve_points, lookup)


# -- rung 4: the sign of a separation follows the exact relation ------------------------------------

TINY = float(np.nextafter(0.0, 1.0))
"""The separation reported for exactly disjoint pairs whose float separation came out <= 0: the
smallest positive float (subnormal), far below the accuracy of any separation."""


def row_scale(kind, p, verts):
    """Largest absolute coordinate or size of each kernel row of ``p`` (float64 array): the scale
    that a separation's accuracy (a few ulps of it) and :data:`BAND` are relative to."""
    if kind == "rounded":  # the core's scale (polygon vertices or the end points) plus the radius
        core = np.where(p[:, 1] >= 3, row_scale("polygon", p[:, 0:2] * (p[:, 1:2] >= 3), verts), 0.0)
        ends = np.max(np.abs(p[:, 3:7]), axis=1, initial=0.0)
        return np.maximum(core, ends) + p[:, 2]
    if kind == "polygon":
        offset = p[:, 0].astype(np.int64)
        count = p[:, 1].astype(np.int64)
        out = np.zeros(count.size)
        if count.size == 0 or verts.size == 0:
            return out
        start = np.cumsum(count) - count
        owner = np.repeat(np.arange(count.size), count)
        v = verts[offset[owner] + (np.arange(owner.size) - start[owner])]
        np.maximum.at(out, owner, np.maximum(np.abs(v[:, 0]), np.abs(v[:, 1])))
        return out
    ncols = {"ellipse": 4, "line": 2}.get(kind, p.shape[1])  # ellipse: centre and semi-axes
    out = np.zeros(p.shape[0])
    for j in range(ncols):
        np.maximum(out, np.abs(p[:, j]), out=out)
    return out


def outside_band(sep, scale):
    """Whether a float separation's sign is already the exact one: ``|sep| > BAND * scale`` (the
    separation is accurate to a few ulps of ``scale``; NaN counts as inside)."""
    return abs(sep) > BAND * scale


def near_rows(sep, scale):
    """Indices of the separations inside the band (their sign is decided exactly)."""
    return np.flatnonzero(~(np.abs(sep) > BAND * scale))


def fixed_sign(sep, code):
    """One separation made to agree with the exact relation ``code``: a disjoint pair's separation
    is > 0 (:data:`TINY` if it came out <= 0); a touching pair's is 0.0, an intersecting pair's <= 0."""
    if code == codes.DISJOINT:
        return sep if sep > 0.0 else TINY
    return 0.0 if sep > 0.0 or code == codes.TOUCHING else sep


def fix_signs(sep, code):
    """:func:`fixed_sign` over arrays; ``sep`` is changed in place."""
    disjoint = code == codes.DISJOINT
    sep[disjoint & ~(sep > 0.0)] = TINY
    sep[~disjoint & ((sep > 0.0) | (code == codes.TOUCHING))] = 0.0
    return sep


# -- Perram-Wertheim at sizes far apart ------------------------------------------------------------


def perram_wertheim_row(entry, pa, va, pb, vb):
    """The Perram-Wertheim 6-tuple of one ellipse pair that is not tame (rung 3 for PW).

    The kernel works in the frame of the larger radius; a pair of sizes more than ``2**64`` apart
    then squares the small radii towards underflow (down to a division by zero); closer sizes keep
    full precision in the kernel itself (its contact parameter is found as a ratio, see
    ``perram_wertheim_ellipse_ellipse``). When the smaller ellipse's largest radius is below
    ``PW_SIZE_RATIO`` times the other's smaller radius:

    * the small ellipse is inflated by a power of two to that ratio and the kernel gives the scale
      factor, the normal and the approach distance (the contact function changes by a relative
      amount of the order of the ratio, far below rounding);
    * the contact point is then the small ellipse's own boundary point with that outward normal,
      scaled by the scale factor about its centre (the two scaled ellipses touch there, with a
      common normal): ``c + scale * Sigma n / sqrt(n^T Sigma n)``, computed in the small ellipse's
      frame (:func:`collide2d._robust.magnitude.support`).

    Other pairs run the kernel as they are.
    """
    lo_a, hi_a = sorted((float(pa[2]), float(pa[3])))
    lo_b, hi_b = sorted((float(pb[2]), float(pb[3])))
    if hi_a < PW_SIZE_RATIO * lo_b:
        small, big, flip = pa, pb, False
    elif hi_b < PW_SIZE_RATIO * lo_a:
        small, big, flip = pb, pa, True
    else:
        return entry.kernel(pa, va, pb, vb)
    m = math.frexp(PW_SIZE_RATIO * min(float(big[2]), float(big[3])))[1] - math.frexp(hi_a if not flip else hi_b)[1]
    cx, cy = float(small[0]), float(small[1])
    inflated = np.array([0.0, 0.0, math.ldexp(float(small[2]), m), math.ldexp(float(small[3]), m),
                         float(small[4]), float(small[5])])
    moved = np.array(big, dtype=np.float64)
    moved[0] -= cx
    moved[1] -= cy
    _, _, nx, ny, scale, approach = entry.kernel(inflated, va, moved, vb)  # normal from small to big
    if not scale > 0.0:  # concentric to rounding: the kernel's answer, the first shape's centre
        return float(pa[0]), float(pa[1]), nx, ny, scale, approach
    _, x, y, _ = magnitude.support("ellipse", small, va, nx, ny)
    point = (cx + scale * x, cy + scale * y)
    if flip:
        nx, ny = 0.0 - nx, 0.0 - ny
    return point[0], point[1], nx, ny, scale, approach


def tame_number(x):
    """Whether one float is tame: 0 or of magnitude in ``[TAME_LO, TAME_HI]``."""
    return magnitude.tame_number(x)


def tame_table(values):
    """Per row of a plain float table: every component 0 or of tame magnitude."""
    values = np.abs(values)
    return ~np.any((values > magnitude.TAME_HI) | ((values < magnitude.TAME_LO) & (values != 0.0)), axis=1)


def exact_ray(entry, kind, row, verts, ray):
    """Rung 3 for a ray cast: the decision of one shape row and one ray on Fractions (exact for
    the stored numbers), counted under the decision kernel's name."""
    from fractions import Fraction

    name = entry.name
    exact._counts[name] += 1
    exact_row, exact_verts = exact.exact_row(kind, row, verts)
    exact_ray = np.array([Fraction(float(x)) for x in ray], dtype=object)
    module = entry.kernel.__module__.rsplit("_kernels.", 1)[1]  # motion.raycast, raycast_rounded
    code, feature = _twin(module, name)(exact_row, exact_verts, exact_ray, 0)
    return int(code), int(feature)


def _twin(module, name):
    return getattr(exact.twin_module(module), name)


def resolve_points(params_a, params_b, relation, out, count):
    """Rung 4 for points: finish a point kernel's answer that needs an exact decision.

    ``count == -1``: two nested ellipses whose contact the float filter could not settle; the
    points where the boundaries meet are counted exactly (``contact_count_ellipse_ellipse``) and
    computed in floating point. ``count == -2``: two overlapping ellipses whose computed crossings
    suggest a tangent point; whether the boundaries have a multiple contact is decided exactly
    (``crossing_contact_ellipse_ellipse``). Other counts stand.
    """
    if count not in (-1, -2):
        return count
    from collide2d._kernels.overlay import points_ellipse

    name = "contact_count_ellipse_ellipse" if count == -1 else "crossing_contact_ellipse_ellipse"
    exact._counts[name] += 1
    row_a, _ = exact.exact_row("ellipse", params_a, None)
    row_b, _ = exact.exact_row("ellipse", params_b, None)
    decided = int(_twin("overlay.points_ellipse", name)(row_a, row_b))
    if count == -1:
        maximise = relation == codes.WITHIN
        return int(points_ellipse.tangent_points_ellipse_ellipse(params_a, params_b, maximise, decided, out))
    return int(points_ellipse.crossing_points_ellipse_ellipse(params_a, params_b, decided, out))


def counts(*, reset=False):
    """The number of exact fallbacks per kernel since the last reset (rung 3 and rung 4)."""
    return exact.counts(reset=reset)
