"""``collide2d demo``: a live window of moving, rotating shapes with their collisions outlined in red.

Ellipses (and a few circles, boxes, rotated boxes, polygons and segments) move and spin inside
the window and bounce off its walls. Every frame the shapes are rebuilt as batches from the state
arrays, :func:`collide2d.broadphase.query_pairs` finds the colliding pairs, and the shapes of those
pairs get a red outline. Overlays show what the library measures for the colliding pairs:
boundary intersection points, contact normals with the penetration depth, the overlap regions,
the bounding boxes and the broad-phase grid. In the physics mode the shapes push each other
apart with a Hertz-like force built from :func:`collide2d.measurement.contact` (penetration depth,
normal and the curvature of both boundaries at the contact), and every step stops shapes fast enough
to pass through each other at their first contact in that step (:func:`collide2d.query_impacts`). The bullets mode (``--bullets``, :class:`BulletsDemo`) fires fast small shapes
through thin walls and spinning needles and stops each at its first contact (one call of
:func:`collide2d.query_impacts` per step for all of them), drawing its swept path.

There is no geometry here: every collision answer comes from the public API.
The demo computes only what it needs to *draw* (outline points of each shape) and to *move*
(positions, velocities, masses).

Needs pygame-ce (``pip install 'collide2d[demo]'``); pygame is imported only when a window or
an off-screen surface is opened, so the simulation itself (:class:`World`, :class:`Physics`)
runs without it.

Keys and mouse (also shown with ``H``):

* drag a shape with the left button (release to throw it); wheel over a shape rotates it,
  ``Shift`` + wheel resizes it;
* right click adds an ellipse at the mouse; ``E`` ``C`` ``B`` ``R`` ``P`` ``S`` ``K`` ``U`` add an
  ellipse, circle, box, rotated box, polygon, segment, capsule or rounded box there; ``X``, ``Delete`` or the middle button
  removes the shape under the mouse;
* ``Space`` pauses, ``.`` or ``Right`` advances one frame; ``F`` toggles the physics mode;
* ``1`` intersection points, ``2`` contact normals and depth, ``3`` overlap regions,
  ``4`` bounding boxes, ``5`` broad-phase grid; ``Esc`` or ``Q`` quits.

Examples
--------
>>> import numpy as np
>>> from collide2d.demo import World
>>> world = World.random(count=20, extras=1, seed=1)
>>> len(world), world.kind_counts()["ellipse"]
(27, 20)
>>> pairs, _ = world.step()  # one frame: the colliding pairs, then the move
>>> pairs.shape[1], bool(np.all(pairs[:, 0] < pairs[:, 1]))
(2, True)
>>> World.random(count=20, extras=1, seed=1, separated=True).colliding_pairs().shape
(0, 2)
"""

from __future__ import annotations

from collide2d.demo.bullets import BULLET_KINDS, GHOST_COLOR, STUCK_COLOR, TRAIL_COLOR, Bullets, BulletsDemo, bullet_range
from collide2d.demo.command import DESCRIPTION, HELP, add_arguments, main, run_from_args
from collide2d.demo.physics import Physics, hertz
from collide2d.demo.window import (
    BACKGROUND,
    BOUNDS_COLOR,
    DEPTH_COLOR,
    FILLS,
    GRID_COLOR,
    HELP_LINES,
    NORMAL_COLOR,
    OUTLINE,
    OVERLAP_COLOR,
    POINT_COLOR,
    RED,
    SELECTED,
    TEXT_BAND_ALPHA,
    TEXT_COLOR,
    Demo,
    Timing,
)
from collide2d.demo.world import (
    ADD_KEYS,
    BOX,
    CAPSULE,
    CIRCLE,
    ELLIPSE,
    KIND_NAMES,
    OVERLAYS,
    POLYGON,
    ROTATED_BOX,
    ROUNDED_BOX,
    SEGMENT,
    Groups,
    World,
)

__all__ = ["Bullets", "BulletsDemo", "Demo", "Physics", "World", "add_arguments", "bullet_range", "main", "run_from_args"]
