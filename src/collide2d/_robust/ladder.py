"""The robustness ladder: what happens to a pair after (or instead of) the float kernel.

The float kernels answer most pairs: a certified filter either decides a sign or returns
``UNDECIDED`` (relate, intersects), and their error bounds hold while every number of the pair is
*tame* (non-zero magnitudes in ``[TAME_LO, TAME_HI]``, :mod:`collide2d._robust.tolerances`). The
rungs, in order, one pair at a time:

1. **tame and decided**: the float kernel's answer stands (the batch loop, or the scalar path);
2. **extreme magnitudes** (a row that is not tame): the pair is scaled by ``2**k``
   (:func:`collide2d._magnitude.pair_shift`; exact while nothing leaves the normal floats) and the
   float kernel runs on it; its answer is scaled back (lengths ``2**-k``, areas ``4**-k``);
   pairs no power of two tames go to rung 3 (predicates) or to the size-disparate measurements of
   :mod:`collide2d._magnitude` (a shape far smaller than the other measured as a point plus its
   support, nested areas from the inner shape);
3. **undecided signs**: the *exact twin*, the same kernel source run on ``fractions.Fraction``
   (:mod:`collide2d._exact`), counted in :func:`collide2d.exact_fallback_counts`;
4. **sign fix-ups** after a measurement: a separation's sign follows the exact relation
   (:func:`sign_consistent`); the tangent points of two ellipses are counted exactly
   (:func:`resolve_points`).

Every function here takes an entry of the pair table (:mod:`collide2d._glue.registry`): the
ladder never looks a kernel up by name.
"""

from __future__ import annotations

import numpy as np

from collide2d import _exact, _magnitude
from collide2d._kernels import codes
from collide2d._robust.tolerances import EPS

table_tame = _magnitude.table_tame


def _pair_kernel(operation, kind_a, kind_b):
    """The table's ``(name, kernel, swapped)`` for the rungs that need a second kernel (a point
    stand-in's contact, the ellipse-polygon area of a clipped square)."""
    from collide2d._glue import registry

    entry = registry.entry(operation, kind_a, kind_b)
    return entry.name, entry.kernel, entry.swapped


def tame_of(kind, params, verts, flat_params):
    """``True`` when every row is tame, else per-row flags (see :func:`_magnitude.tame_rows`)."""
    if params.ndim == 1:  # a single shape: plain Python is faster than NumPy here
        values = _magnitude._numbers(kind, params, verts).tolist()
        tame = all(v == 0.0 or _magnitude.TAME_LO <= abs(v) <= _magnitude.TAME_HI for v in values)
        if kind == "ellipse":
            tame = tame and _magnitude._direction_tame(float(params[4]), float(params[5]))
        return tame or np.zeros(1, dtype=bool)
    rows = _magnitude.table_tame(kind, flat_params(), verts)
    return True if rows.all() else rows


def wild_mask(index_a, index_b, tame_a, tame_b):
    """``None`` when every pair ``(index_a[k], index_b[k])`` is tame, else the mask of the others."""
    return _magnitude.wild_mask(None, None, index_a, index_b, tame_a, tame_b)


def exact_code(name, kind_a, pa, va, kind_b, pb, vb):
    """Rung 3: the exact twin of kernel ``name`` on the stored numbers of one pair."""
    return _exact.run(name, kind_a, pa, va, kind_b, pb, vb)


def code_row(entry, kind_a, pa, va, kind_b, pb, vb):
    """Rungs 2 and 3 for a relate or intersects code: the scaled float kernel, else exact."""
    return _magnitude.relate_row(entry.name, entry.kernel, kind_a, pa, va, kind_b, pb, vb, EPS, _exact.run)


def contact_row(entry, kind_a, pa, va, kind_b, pb, vb):
    """Rung 2 for a contact 9-tuple (see :func:`_magnitude.contact_row`)."""
    return _magnitude.contact_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, _pair_kernel)


def area_row(entry, kind_a, pa, va, kind_b, pb, vb, relation):
    """Rung 2 for an overlap area (see :func:`_magnitude.area_row`)."""
    return _magnitude.area_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation, _pair_kernel)


def points_row(entry, kind_a, pa, va, kind_b, pb, vb, relation, out):
    """Rung 2 for intersection points into ``out``; returns the count."""
    return _magnitude.points_row(entry.kernel, kind_a, pa, va, kind_b, pb, vb, relation, out, resolve_points)


def tame_number(x):
    """Whether one float is tame: 0 or of magnitude in ``[TAME_LO, TAME_HI]``."""
    return _magnitude.tame_number(x)


def tame_table(values):
    """Per row of a plain float table: every component 0 or of tame magnitude."""
    values = np.abs(values)
    return ~np.any((values > _magnitude.TAME_HI) | ((values < _magnitude.TAME_LO) & (values != 0.0)), axis=1)


def exact_ray(entry, kind, row, verts, ray):
    """Rung 3 for a ray cast: the decision of one shape row and one ray on Fractions (exact for
    the stored numbers), counted under the decision kernel's name."""
    from fractions import Fraction

    name = entry.name
    _exact._counts[name] += 1
    exact_row, exact_verts = _exact.exact_row(kind, row, verts)
    exact_ray = np.array([Fraction(float(x)) for x in ray], dtype=object)
    code, feature = _twin("motion.raycast", name)(exact_row, exact_verts, exact_ray, 0)
    return int(code), int(feature)


def _twin(module, name):
    return getattr(_exact.twin_module(module), name)


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
    _exact._counts[name] += 1
    row_a, _ = _exact.exact_row("ellipse", params_a, None)
    row_b, _ = _exact.exact_row("ellipse", params_b, None)
    decided = int(_twin("overlay.points_ellipse", name)(row_a, row_b))
    if count == -1:
        maximise = relation == codes.WITHIN
        return int(points_ellipse.tangent_points_ellipse_ellipse(params_a, params_b, maximise, decided, out))
    return int(points_ellipse.crossing_points_ellipse_ellipse(params_a, params_b, decided, out))


def counts(*, reset=False):
    """The number of exact fallbacks per kernel since the last reset (rung 3 and rung 4)."""
    return _exact.counts(reset=reset)
