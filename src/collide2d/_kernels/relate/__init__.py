"""Relate kernels (DE-9IM codes and the ``intersects`` fast paths) and their batch loops.

``conic`` decides ellipse against ellipse (the pencil of the two conics); ``ellipse``, ``polygon``
and ``linear`` hold the pair kernels whose first kind is an ellipse, a polygon, or a segment, line
or point; ``loops`` runs any of them over a batch.
"""
