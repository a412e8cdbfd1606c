"""Kernels of :mod:`collide2d.events`: the event loop of hard disks in a periodic box (:mod:`.disks`)
and the contact search and collision of hard ellipses (:mod:`.ellipses`)."""
