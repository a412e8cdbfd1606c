"""The eight shape classes: immutable, validated at construction, batchable.

Every field may be an array; the *batch shape* of a shape is the broadcast of its fields' shapes
(vector fields carry a trailing axis of length 2). A single shape is a batch of shape ``()``.

Each shape also stores the parameter rows its kernels read (see :mod:`collide2d._kernels`): the
shape *is* the set described exactly by those stored float64 numbers. An orientation is stored as
the direction vector of the shape's own x axis: either the ``direction`` given, used exactly, or
the direction of ``angle`` within about one ulp (see :mod:`collide2d._angles`).

Construction has two paths with the same rules: Python numbers (and tuples or lists of two) are
checked and packed with plain float arithmetic and one small array; anything else goes through
NumPy in a few whole-array passes.

The classes live in private modules by concern: the base class :class:`Shape` in ``_base``, the
flat kinds (point, segment, line, polygon, box, rotated box) in ``_flat``, the curved kinds
(circle, ellipse) in ``_curved``, the capsule and what rounded shapes share in ``_rounded``; what
the constructors share is in :mod:`collide2d._shape_build`, the foreign formats in
:mod:`collide2d._formats`. Every class's home is this module (``collide2d.shapes.Ellipse``): the
name a pickle stores, the one the API reference shows, the one doctest finds its examples under.
"""

from __future__ import annotations

import inspect

from collide2d.shapes._base import Shape, direction_from_angle
from collide2d.shapes._base import _rebuild as _rebuild  # pickles name it here; the glue rebuilds shapes with it
from collide2d.shapes._curved import Circle, Ellipse
from collide2d.shapes._flat import Box, Line, Point, Polygon, RotatedBox, Segment, _RoundedBox, _RoundedPolygon, _RoundedRotatedBox
from collide2d.shapes._rounded import Capsule, _RoundedMixin
from collide2d.shapes._rounded import _core_vertices as _core_vertices  # read by the glue (rounded kind)
from collide2d._shape_build import _ellipse_bounds as _ellipse_bounds  # read by the glue (points)

__all__ = ["Box", "Capsule", "Circle", "Ellipse", "Line", "Point", "Polygon", "RotatedBox", "Segment", "Shape"]


def _make_home(*objects):
    """Give each class and function (and each class's own methods) this module as its home, as
    ``numpy._utils.set_module`` does: pickles then store ``collide2d.shapes.Ellipse`` and
    ``collide2d.shapes._rebuild`` (the bytes of the single-module layout), and doctest collects
    the examples of the classes and of their methods once, here."""
    for thing in objects:
        thing.__module__ = __name__
        for value in vars(thing).values() if inspect.isclass(thing) else ():
            function = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if inspect.isfunction(function):
                function.__module__ = __name__


_make_home(Shape, Point, Segment, Line, Circle, Ellipse, Polygon, Box, RotatedBox, Capsule, _RoundedMixin,
           _RoundedPolygon, _RoundedBox, _RoundedRotatedBox, _rebuild, direction_from_angle)
del _make_home, inspect
