"""Deterministic built-in scenes shared by the command line, tests, benchmarks and docs.

:func:`load` returns a :class:`Scene` by name (``collide2d sample NAME``); the generators return
shapes. Also here: :func:`translate` and :func:`pair_batches`, which turn the pairs found by
:func:`collide2d.query_pairs` into batches for the pairwise operations.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from collide2d._pairs import pair_batches, shifted_rows, translate
from collide2d.shapes import Box, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment

__all__ = ["SCENES", "Scene", "catalogue", "load", "mixed", "pair_batches", "random_ellipses", "suspension", "translate"]


class Scene(NamedTuple):
    """A built-in scene: ids, shapes (one batch or a list of single shapes) and an optional period."""

    ids: list
    shapes: object
    periodic: tuple | None = None


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


def suspension(n=2000, *, packing=0.55, aspect=2.5, seed=0):
    """A dense suspension of ``n`` elliptical particles in a periodic square box.

    The box side is chosen so that the particles' area fraction is ``packing``; positions and
    orientations are random, so many pairs overlap (an unrelaxed initial state of a simulation).

    Examples
    --------
    >>> from collide2d import scenes
    >>> ellipses, box = scenes.suspension(100, seed=1)
    >>> ellipses.shape, round(box[0], 3)
    ((100,), 38.233)
    """
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.8, 1.2, size=n)
    radii = np.stack([aspect * b, b], axis=-1)
    side = math.sqrt(np.sum(np.pi * radii[:, 0] * radii[:, 1]) / packing)
    center = rng.uniform(0, side, size=(n, 2))
    return Ellipse(center, radii, rng.uniform(0, np.pi, size=n)), (side, side)


def catalogue(n=1_000_000, *, seed=0):
    """A sparse catalogue of ``n`` ellipses (craters, galaxies) with a power-law size spread.

    About one ellipse in ten touches another.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scenes.catalogue(1000, seed=2).shape
    (1000,)
    """
    rng = np.random.default_rng(seed)
    side = math.sqrt(n) * 20.0
    size = 1.0 / rng.uniform(0.1, 1.0, size=n) ** 0.5  # 1 to ~3.2, more small than large
    radii = np.stack([size, size * rng.uniform(0.3, 1.0, size=n)], axis=-1)
    return Ellipse(rng.uniform(0, side, size=(n, 2)), radii, rng.uniform(0, np.pi, size=n))


def load(name, *, size=None, seed=0):
    """Return the built-in scene ``name`` as a :class:`Scene`.

    Parameters
    ----------
    name : {"mixed", "suspension", "catalogue"}
        ``"mixed"``: 11 shapes of every kind with exact touches, crossings and containments;
        ``"suspension"``: a dense suspension of elliptical particles in a periodic box (2000 by
        default); ``"catalogue"``: a sparse catalogue of ellipses (a million by default).
    size : int, optional
        Number of shapes of the random scenes (ignored for ``"mixed"``).
    seed : int, default 0
        Seed of the random scenes.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scene = scenes.load("mixed")
    >>> scene.ids[0], len(scene.shapes), scene.periodic
    ('ellipse-A', 11, None)
    >>> scene = scenes.load("suspension", size=50)
    >>> scene.ids, scene.shapes.shape, [round(x, 3) for x in scene.periodic]
    (None, (50,), [27.187, 27.187])
    """
    if name not in SCENES:
        raise ValueError(f"sample must be one of {', '.join(SCENES)}; got {name!r}")
    if size is not None and (not isinstance(size, (int, np.integer)) or size < 1):
        raise ValueError(f"size must be a positive integer, got {size!r}")
    if name == "mixed":
        named = mixed()
        return Scene([k for k, _ in named], [shape for _, shape in named])
    if name == "suspension":
        ellipses, box = suspension(size or 2000, seed=seed)
        return Scene(None, ellipses, box)
    return Scene(None, catalogue(size or 1_000_000, seed=seed))


SCENES = {"mixed": mixed, "suspension": suspension, "catalogue": catalogue}
