"""Kernels of :mod:`collide2d.motion` and :mod:`collide2d.raycast`: rigid motions of parameter
rows (:mod:`.rigid`) and their batch loops (:mod:`.loops`); ray casts (:mod:`.raycast`) and their
batch loops (:mod:`.loops_raycast`)."""
