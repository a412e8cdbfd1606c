"""Intersection points and overlap areas, and their batch loops.

``points_ellipse`` / ``points_flat`` find the common boundary points, ``area_ellipse`` /
``area_flat`` the overlap areas (the area kernels reuse the point kernels' crossings);
``loops_points`` and ``loops_area`` run them over a batch.
"""
