"""Broad-phase kernels: ``sweep`` (sweep and prune, and the cell helpers) and ``grid`` (the uniform
grid with the narrow phase fused into it)."""
