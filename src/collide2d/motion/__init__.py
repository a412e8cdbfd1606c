"""Shapes in motion: rigid moves, time of impact, first contacts among many moving shapes.

Every shape moves rigidly: it translates with its velocity and turns with its angular velocity
(radians per unit time, counter-clockwise) about its *reference point*: the centre of a circle,
ellipse, box or rotated box, the area centroid of a polygon, the midpoint of a segment, the
``point`` of a line, the point itself. Velocities are constant over ``[0, t_max]``.

The package: :mod:`~collide2d.motion.rigid` (reference points, extents, moved rows,
:func:`translate`, :func:`rotate`), :mod:`~collide2d.motion.search` (:func:`time_of_impact`) and
:mod:`~collide2d.motion.impacts` (:func:`query_impacts`).
"""

from collide2d.motion.impacts import Impacts, query_impacts
from collide2d.motion.rigid import reference_points, rotate, translate
from collide2d.motion.search import Impact, _Motion, time_of_impact  # _Motion, reference_points: for the tests
from collide2d.motion.search import _CERTIFY, _DISC_MARGIN, _GRAZE, _NOISE, _TIME_TOL  # noqa: F401  (listed in _tolerances)

__all__ = ["Impact", "Impacts", "query_impacts", "rotate", "time_of_impact", "translate"]
