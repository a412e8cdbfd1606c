"""Kernels of :mod:`collide2d.motion`: rigid motions of parameter rows (:mod:`.rigid`) and their
batch loops (:mod:`.loops`)."""
