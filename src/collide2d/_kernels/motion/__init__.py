"""Kernels of moving shapes: ray casts (``raycast``) and their batch loop."""
