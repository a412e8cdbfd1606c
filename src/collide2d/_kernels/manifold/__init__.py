"""Contact manifold kernels (up to two contact points per pair) and their batch loops.

``clip`` holds the kernels (reference face, incident face, clipping against the reference face's
side planes, after Box2D's ``b2ClipPolygons`` in ``src/manifold.c``), ``loops`` runs them over a
batch. They start from the pair's :func:`collide2d.contact` (its 9 numbers, passed in as a
tuple), so this family computes no distance of its own.
"""
