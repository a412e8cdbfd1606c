"""Batch loops for the manifold kernels: one ``prange`` loop per pair kernel.

``manifold_<a>_<b>_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out)``
evaluates ``out[k, 0:13] = manifold_<a>_<b>(params_a[ia[k]], verts_a, params_b[ib[k]], verts_b,
contacts[k], radius_a[k], radius_b[k], margin)`` (the 13-tuple of
:mod:`collide2d._kernels.manifold.clip`; ``contacts`` holds the pairs' 9 contact numbers). The
loops are written out one by one because Numba caches only module-level functions; every
iteration writes its own row.
"""

from numba import prange

from collide2d._jit import kernel, loop

from .clip import (
    manifold_line_polygon,
    manifold_line_segment,
    manifold_polygon_line,
    manifold_polygon_polygon,
    manifold_polygon_segment,
    manifold_segment_line,
    manifold_segment_polygon,
    manifold_segment_segment,
)


@kernel
def store(out, k, r):
    """Write the 13-tuple ``r`` into row ``k`` of ``out``."""
    for j in range(13):
        out[k, j] = r[j]


@kernel
def row(contacts, k):
    """Row ``k`` of the contact table as the 9-tuple the kernels take."""
    return (contacts[k, 0], contacts[k, 1], contacts[k, 2], contacts[k, 3], contacts[k, 4],
            contacts[k, 5], contacts[k, 6], contacts[k, 7], contacts[k, 8])


@loop
def manifold_polygon_polygon_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                               radius_a[k], radius_b[k], margin))


@loop
def manifold_polygon_segment_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_polygon_segment(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                               radius_a[k], radius_b[k], margin))


@loop
def manifold_segment_polygon_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_segment_polygon(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                               radius_a[k], radius_b[k], margin))


@loop
def manifold_segment_segment_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_segment_segment(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                               radius_a[k], radius_b[k], margin))


@loop
def manifold_line_polygon_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_line_polygon(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                            radius_a[k], radius_b[k], margin))


@loop
def manifold_line_segment_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_line_segment(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                            radius_a[k], radius_b[k], margin))


@loop
def manifold_polygon_line_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_polygon_line(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                            radius_a[k], radius_b[k], margin))


@loop
def manifold_segment_line_loop(pa, va, ia, pb, vb, ib, contacts, radius_a, radius_b, margin, out):
    for k in prange(ia.shape[0]):
        store(out, k, manifold_segment_line(pa[ia[k]], va, pb[ib[k]], vb, row(contacts, k),
                                            radius_a[k], radius_b[k], margin))
