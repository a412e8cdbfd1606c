"""The rows of a translating batch built in one compiled pass
(:func:`collide2d._kernels.motion.toi_rows.translation_rows`) against the NumPy construction they
replace (:class:`collide2d.motion.search._Motion` and ``_kernel_rows``), bit for bit: the frame of
each pair, the rows shifted into it, the index table and every number of the search's rows, for
every pair of the kinds without vertex lists, near the origin and far from it, at extreme
magnitudes, with signed zeros, for batches and for one shape against a batch. And
``time_of_impact`` of translating batches (which now takes those rows) against the general path
on the same pairs (``_impact_flat`` of a ``_Motion``), including grazes and near misses that the
loop hands on to the exact decision."""

import numpy as np
import pytest

import collide2d as c2
from collide2d._glue import run
from collide2d.motion import search

KINDS = ("ellipse", "circle", "segment", "line", "point", "box", "rotated", "polygon", "16-gon")
# (scale of the shapes, offset of the batch from the origin)
PLACES = [(1.0, 0.0), (1.0, 0.75), (1.0, 1e6), (1e-6, 3.0), (1.0, 2.0**52), (1e10, 1e15), (1e-140, 1e-135),
          (1e140, 1e145), (1e-140, 1e140)]


def _shapes(kind, n, rng, scale, offset):
    centre = offset + rng.uniform(-1.0, 1.0, (n, 2)) * scale
    if kind == "ellipse":
        return c2.Ellipse(centre, rng.uniform(0.1, 1.0, (n, 2)) * scale, rng.uniform(-3.0, 3.0, n))
    if kind == "circle":
        return c2.Circle(centre, rng.uniform(0.1, 1.0, n) * scale)
    if kind == "segment":
        return c2.Segment(centre, centre + rng.uniform(0.5, 1.0, (n, 2)) * max(scale, abs(offset) * 1e-12))
    if kind == "line":
        return c2.Line(centre, rng.uniform(-1.0, 1.0, (n, 2)))
    scale = max(scale, abs(offset) * 1e-12) if kind in ("box", "rotated", "polygon", "16-gon") else scale
    if kind == "box":
        return c2.Box(centre, centre + rng.uniform(0.1, 1.0, (n, 2)) * scale)
    if kind == "rotated":
        return c2.RotatedBox(centre, rng.uniform(0.1, 1.0, (n, 2)) * scale, rng.uniform(-3.0, 3.0, n))
    if kind in ("polygon", "16-gon"):  # convex, counter-clockwise, radii 0.2 to 1 of the scale
        k = 5 if kind == "polygon" else 16
        phase = np.linspace(0.0, 2.0 * np.pi, k, endpoint=False) + rng.uniform(0.0, 1.0, (n, 1))
        if k == 5:  # irregular
            phase = phase + rng.uniform(0.0, 0.6, (n, k))
        radius = rng.uniform(0.2, 1.0, (n, 1)) * scale
        return c2.Polygon(centre[:, None, :] + radius[..., None] * np.stack([np.cos(phase), np.sin(phase)], axis=-1))
    return c2.Point(centre)


def _bits(x):
    x = np.ascontiguousarray(x)
    return x.dtype.str, x.shape, x.view(np.uint8).tobytes()


def _motions(rng, n):
    """Velocities (some zero, some -0.0), angular velocities 0 or -0.0, and t_max (0, finite, inf)."""
    va = rng.normal(size=(n, 2)) * rng.choice([0.0, 1.0, 1e-8, 1e8], n)[:, None]
    va[::5] *= -0.0
    vb = rng.normal(size=(n, 2))
    wa = np.where(rng.random(n) < 0.5, -0.0, 0.0)
    return va, vb, wa, np.zeros(n), rng.choice([0.0, 1e-3, 1.0, np.inf], n)


@pytest.mark.parametrize("kind_b", KINDS)
@pytest.mark.parametrize("kind_a", KINDS)
def test_rows_match_the_numpy_construction(kind_a, kind_b):
    rng = np.random.default_rng(KINDS.index(kind_a) * 7 + KINDS.index(kind_b))
    ro = search._read_only
    for scale, offset in PLACES:
        n = 12
        a, b = _shapes(kind_a, n, rng, scale, offset), _shapes(kind_b, n, rng, scale, offset)
        # a batch against a batch, one shape against the batch, the batch against one shape
        for shape_a, shape_b, ia, ib in ((a, b, np.arange(n), np.arange(n)), (a[3], b, np.zeros(n, int), np.arange(n)),
                                         (a, b[5], np.arange(n), np.zeros(n, int))):
            va, vb, wa, wb, t_max = _motions(rng, n)
            motion = search._Motion(shape_a, shape_b, ia, ib, va, vb, wa, wb)
            index, numbers = search._kernel_rows(motion, np.arange(n), t_max)
            (ka, ga, gva), (kb, gb, gvb) = run.flat_rows(shape_a), run.flat_rows(shape_b)
            c = np.ascontiguousarray
            shifted, index2, numbers2, fa, fva, fb, fvb = search._rows_kernel()(
                search._KIND_CODE[ka], ro(c(ga)), ro(c(gva)), search._given_references(shape_a), search._KIND_CODE[kb],
                ro(c(gb)), ro(c(gvb)), search._given_references(shape_b), ro(ia), ro(ib), ro(va), ro(vb), ro(wa), ro(wb),
                ro(t_max))
            assert shifted == motion.shifted
            assert _bits(index2) == _bits(index)
            assert _bits(numbers2) == _bits(numbers), (scale, offset)
            if shifted:
                assert _bits(fa) == _bits(run.flat_rows(motion.a)[1])
                assert _bits(fb) == _bits(run.flat_rows(motion.b)[1])
                assert _bits(fva) == _bits(run.flat_rows(motion.a)[2])
                assert _bits(fvb) == _bits(run.flat_rows(motion.b)[2])


def _general(a, b, va, vb, t_max):
    """``time_of_impact`` of translating flat batches by the general path (a ``_Motion``)."""
    n = max(a.size, b.size)
    ia = np.broadcast_to(np.arange(a.size), n).copy() if a.shape else np.zeros(n, int)
    ib = np.broadcast_to(np.arange(b.size), n).copy() if b.shape else np.zeros(n, int)
    motion = search._Motion(a, b, ia, ib, va, vb, np.zeros(n), np.zeros(n))
    return search._impact_flat(motion, t_max)


def _grazing_batch(kind_a, kind_b, rng, n, offset):
    """Pairs a moving at (1, 0) past b: some meet, some pass by, some graze (b's lowest point at
    a's highest), some overlap at the start."""
    a = _shapes(kind_a, n, rng, 1.0, offset)
    b = _shapes(kind_b, n, rng, 1.0, offset)
    b = c2.translate(b, np.stack([np.full(n, 4.0), rng.choice([-1.0, 0.0, 1.0, 3.0], n)], axis=-1))
    va = np.tile([1.0, 0.0], (n, 1))
    vb = np.zeros((n, 2))
    if kind_a == "circle" and kind_b == "circle":  # exact grazes: b tangent to a's path
        ra, rb = np.asarray(a.radius), np.asarray(b.radius)
        centre = np.asarray(a.center) + np.stack([np.full(n, 4.0), ra + rb], axis=-1)
        b = c2.Circle(np.where((np.arange(n) % 3 == 0)[:, None], centre, np.asarray(b.center)), rb)
    return a, b, va, vb


@pytest.mark.parametrize("kind_a, kind_b", [("circle", "circle"), ("ellipse", "point"), ("point", "ellipse"),
                                            ("segment", "point"), ("segment", "line"), ("line", "ellipse"),
                                            ("16-gon", "16-gon"), ("box", "polygon"), ("rotated", "point"),
                                            ("polygon", "segment"), ("line", "box"), ("circle", "16-gon")])
def test_batches_match_the_general_path(kind_a, kind_b):
    rng = np.random.default_rng(5)
    n = 24
    for offset in (0.0, 1e6):
        a, b, va, vb = _grazing_batch(kind_a, kind_b, rng, n, offset)
        for t_max in (np.full(n, 10.0), np.full(n, np.inf)):
            found = c2.time_of_impact(a, b, va, vb, t_max=t_max)
            expected = _general(a, b, va, vb, t_max)
            for got, want in zip(found, expected):
                assert _bits(got) == _bits(want)
            single = c2.time_of_impact(a[0], b, va[0], vb, t_max=t_max)  # one shape against the batch
            for got, want in zip(single, _general(a[0], b, va[0][None].repeat(n, 0), vb, t_max)):
                assert _bits(got) == _bits(want)


@pytest.mark.parametrize("offset", [10.0, -3.5e7, 1e100, 2.0**-30])
def test_pairs_of_extent_zero_off_the_origin(offset):
    """A point on a point (or on a line's point, or two lines through one point) has a frame of
    extent 0: its rounding overflowed off the origin (an OverflowError for single shapes, NaN
    points and a RuntimeWarning for batches). Now the same answer as the pair at the origin,
    moved with it: touching at 0 at the common point, both orders, single and batched."""
    o = np.array([offset, -offset])
    pairs = [(c2.Point(o), c2.Point(o)), (c2.Point(o), c2.Line(o, (1.0, 1.0))), (c2.Line(o, (1.0, 0.0)), c2.Line(o, (0.0, 1.0)))]
    for a, b in pairs + [(b, a) for a, b in pairs]:
        at_origin = c2.time_of_impact(c2.translate(a, -o), c2.translate(b, -o), (1.0, 0.0), (0.0, -2.0), t_max=np.inf)
        assert at_origin.time == 0.0 and at_origin.point.tolist() == [0.0, 0.0]
        single = c2.time_of_impact(a, b, (1.0, 0.0), (0.0, -2.0), t_max=np.inf)
        batch = c2.time_of_impact(c2.translate(a, [(0.0, 0.0)] * 3), b, (1.0, 0.0), (0.0, -2.0), t_max=np.inf)
        assert single.time == 0.0 and single.point.tolist() == o.tolist()
        assert np.array_equal(single.normal, at_origin.normal, equal_nan=True)
        assert batch.time.tolist() == [0.0] * 3 and batch.point.tolist() == [o.tolist()] * 3
        assert np.array_equal(batch.normal, np.tile(at_origin.normal, (3, 1)), equal_nan=True)
