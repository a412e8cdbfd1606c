"""Event-driven molecular dynamics of hard disks and hard ellipses in a periodic box (an app of collide2d).

The event loops run in compiled code (:mod:`collide2d._kernels.events`); this module keeps their
state in arrays, measures the pressure and checks the runs with the library's exact predicates.
Nothing in the library imports it.
"""

from __future__ import annotations

from ._disks import HardDisks
from ._ellipses import HardEllipses
from ._engine import thermal_velocities

__all__ = ["HardDisks", "HardEllipses", "thermal_velocities"]
