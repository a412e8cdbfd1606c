"""Contact kernels (signed separation, normal, witness points, curvature) and their batch loops.

``distance_ellipse`` holds the pairs with an ellipse, ``distance_flat`` the pairs of flat kinds,
``loops`` runs either over a batch.
"""
