"""Deterministic built-in scenes shared by the command line, tests, benchmarks and docs.

Each scene is a list of ``(name, shape)`` pairs of single shapes.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d.shapes import Box, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment

__all__ = ["SCENES", "mixed", "random_ellipses"]


def mixed():
    """A small scene of every kind, with exact touches, crossings and containments.

    Examples
    --------
    >>> from collide2d import scenes
    >>> [name for name, _ in scenes.mixed()][:3]
    ['ellipse-A', 'ellipse-B', 'circle-C']
    """
    return [
        ("ellipse-A", Ellipse((0, 0), (2, 1))),
        ("ellipse-B", Ellipse((3, 0), (1, 3))),  # touches A vertex to vertex at (2, 0)
        ("circle-C", Circle((0, 2), 1)),  # touches A at its co-vertex (0, 1)
        ("ellipse-D", Ellipse((-1.5, -1), (1.5, 0.4), angle=math.radians(30))),
        ("box-E", Box((4, -1), (6, 1))),  # touches B's vertex (4, 0)
        ("rotated-box-F", RotatedBox((5, 3), (1, 0.5), angle=math.radians(45))),
        ("polygon-G", Polygon([(-4, 2), (-2, 2), (-3, 4)])),
        ("segment-H", Segment((-3, 3), (1, 3))),  # crosses G, touches C at (0, 3)
        ("line-I", Line((0, -3), (1, 0))),  # tangent to B at (3, -3)
        ("point-J", Point((5, 0))),  # inside box E
        ("circle-K", Circle((5, 0), 0.5)),  # inside box E
    ]


def random_ellipses(n, *, seed=0, extent=100.0, size=(0.5, 2.0)):
    """A batch of ``n`` random ellipses in a square of side ``extent``.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scenes.random_ellipses(1000, seed=1).shape
    (1000,)
    """
    rng = np.random.default_rng(seed)
    center = rng.uniform(0, extent, size=(n, 2))
    radii = rng.uniform(size[0], size[1], size=(n, 2))
    angle = rng.uniform(0, np.pi, size=n)
    return Ellipse(center, radii, angle)


SCENES = {"mixed": mixed}
