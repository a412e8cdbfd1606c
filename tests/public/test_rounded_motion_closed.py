"""Time of impact of translating rounded shapes in closed form
(``_kernels/motion/toi_closed_rounded.py``: the ray against the grown Minkowski difference, with
rigorous float bounds), checked against the exact first contact of ``rounded_motion_references.py``
(the hull of the differences of the cores in rationals, grown by the radii in mpmath, confirmed on
the exact distance): random pairs of every rounded kind against every kind the closed form takes,
aimed at each other; grazes at the sum of the radii, faces sliding, touching and overlapping at
the start, ``t_max`` inf and a contact just after ``t_max``, sizes 1e6 apart, magnitudes 1e-150 and
1e150; both orders, single and batched. The closed form's own answers are held to its promise
(never after the contact, within ``TIME_TOL``), the public answers (the search takes what it
leaves) to the search's."""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d.motion import rounded
from rounded_motion_references import check, first_contact

CODE = {"ellipse": 0, "polygon": 1, "segment": 2, "line": 3, "point": 4, "rounded": 5}


def _rounded_shapes(rng, centre, scale=1.0):
    """One shape of each rounded kind about ``centre``."""
    c, r = np.asarray(centre, dtype=float), float(rng.uniform(0.2, 0.6)) * scale
    corners = np.sort(rng.uniform(0.0, 2.0 * np.pi, 5))
    polygon = c + scale * rng.uniform(0.4, 1.0) * np.stack([np.cos(corners), np.sin(corners)], axis=-1)
    return {
        "capsule": c2.Capsule(c, c + scale * rng.uniform(-1.5, 1.5, 2), r),
        "disc": c2.Capsule(c, c, r),
        "rounded box": c2.Box(c, c + scale * rng.uniform(0.2, 1.5, 2), radius=r),
        "rounded rotated box": c2.RotatedBox(c, scale * rng.uniform(0.2, 1.0, 2), float(rng.uniform(-3, 3)), radius=r),
        "rounded polygon": c2.Polygon(polygon, radius=r),
    }


def _partners(rng, centre, scale=1.0):
    """The rounded kinds and every kind the closed form takes them against."""
    c = np.asarray(centre, dtype=float)
    out = _rounded_shapes(rng, c, scale)
    corners = np.sort(rng.uniform(0.0, 2.0 * np.pi, 5))
    out.update({
        "polygon": c2.Polygon(c + scale * rng.uniform(0.4, 1.0) * np.stack([np.cos(corners), np.sin(corners)], axis=-1)),
        "box": c2.Box(c, c + scale * rng.uniform(0.2, 1.5, 2)),
        "rotated box": c2.RotatedBox(c, scale * rng.uniform(0.2, 1.0, 2), float(rng.uniform(-3, 3))),
        "segment": c2.Segment(c, c + scale * rng.uniform(-1.5, 1.5, 2)),
        "point": c2.Point(c),
        "circle": c2.Circle(c, scale * float(rng.uniform(0.2, 0.8))),
    })
    return out


def _aimed(rng, scale=1.0, far=6.0):
    """A start for ``b`` about ``far`` from ``a`` (at the origin) and a velocity sending it back past
    ``a`` (off the centre by up to about the sizes: about half of them meet)."""
    direction = rng.normal(size=2)
    direction /= np.hypot(*direction)
    start = far * scale * direction
    aim = rng.uniform(-1.5, 1.5) * scale * np.array([-direction[1], direction[0]])
    return start, (aim - start) / far * rng.uniform(2.0, 6.0)


def _closed(a, b, va, vb, t_max):
    """The closed form alone on a batch (rows as given): codes and ``(time, px, py, nx, ny)``."""
    from collide2d._kernels.toi_loops_rounded import closed_rounded_loop  # (its module loaded on use, as the search's)

    a, b = rounded.pair_for_search(a, b)  # (circles as rounded points, as the search takes them)
    (kind_a, ga, gva), (kind_b, gb, gvb) = (c2._glue.run.flat_rows(s) for s in (a, b))
    n = ga.shape[0]
    r = rounded._read_only
    out = np.empty((n, 6))
    closed_rounded_loop(CODE[kind_a], r(ga), r(gva), CODE[kind_b], r(gb), r(gvb), r(np.arange(n)), r(np.arange(n)),
                        r(np.broadcast_to(va, (n, 2))), r(np.broadcast_to(vb, (n, 2))), r(np.broadcast_to(t_max, n)), out)
    return out[:, 0].astype(int), out[:, 1:]


def _batch(shapes):
    """One batch of single shapes of one kind (their fields stacked)."""
    fields = {name: np.stack([np.asarray(s.fields[name]) for s in shapes]) for name in shapes[0].fields}
    return getattr(c2, type(shapes[0]).__name__)(**fields)


def _cases(seed, count, scale=1.0, far=6.0):
    """``{(name_a, name_b): [(a, b, vb, t_max), ...]}``: ``a`` still at the origin, ``b`` aimed at it."""
    rng = np.random.default_rng(seed)
    cases = {}
    for k in range(count):
        shapes_a = _rounded_shapes(rng, (0.0, 0.0), scale)
        start, vb = _aimed(rng, scale, far)
        shapes_b = _partners(rng, start, scale)
        t_max = (1.5, math.inf)[k % 2]
        for name_a, a in shapes_a.items():
            for name_b, b in shapes_b.items():
                cases.setdefault((name_a, name_b), []).append((a, b, vb, t_max))
    return cases


def test_closed_form_decides_random_pairs_never_late():
    """Every rounded kind against every partner, aimed at each other: the closed form decides
    almost every pair apart at the start, each answer a miss where the exact one is and else no
    later than the exact first contact and within TIME_TOL of it, its point on both boundaries and
    its normal the contact normal there; both orders."""
    decided = apart = 0
    for (name_a, name_b), cases in _cases(27, 6).items():
        for a, b, vb, t_max in cases:
            for x, y, vx, vy in ((a, b, (0.0, 0.0), vb), (b, a, vb, (0.0, 0.0))):
                exact = first_contact(x, y, vx, vy, t_max)
                if exact is not None and exact == 0:
                    continue
                apart += 1
                (code,), (out,) = _closed(x, y, np.array(vx), np.array(vy), t_max)
                if code < 0:
                    continue
                decided += 1
                check(out[0], exact if code == 0 else None, t_max, strict=True)
                assert (exact is None) == (code == 1), (name_a, name_b)
                if code == 1:
                    continue
                t = out[0]
                moved_x, moved_y = c2.translate(x, np.multiply(vx, t)), c2.translate(y, np.multiply(vy, t))
                for shape in (moved_x, moved_y):
                    assert c2.distance(c2.Point(out[1:3]), shape) <= 1e-9, (name_a, name_b)
                contact = c2.contact(moved_x, moved_y)
                assert np.allclose(out[3:5], contact.normal, atol=1e-6), (name_a, name_b, out[3:5], contact.normal)
    assert decided >= 0.97 * apart, (decided, apart)


@pytest.mark.parametrize("scale", [1.0, 2e-150, 1e149], ids=["unit", "1e-150", "1e149"])
def test_public_answers_batched_single_both_orders(scale):
    """``time_of_impact`` of batches and single calls, both orders: the same floats everywhere (a
    pair's answer does not depend on its batch or its order), within the tolerance of the exact
    first contact (the closed form's answers or the search's), at every magnitude."""
    for (name_a, name_b), cases in _cases(int(1 + math.log10(scale) % 97), 3, scale).items():
        for a, b, vb, t_max in cases:
            exact = first_contact(a, b, (0.0, 0.0), vb, t_max)
            forward = c2.time_of_impact(a, b, velocity_b=vb, t_max=t_max)
            backward = c2.time_of_impact(b, a, velocity_a=vb, t_max=t_max)
            assert forward.time == backward.time, (name_a, name_b)
            check(forward.time, exact, t_max)
            if math.isfinite(forward.time) and forward.time > 0.0:
                assert np.array_equal(forward.normal, -backward.normal)
        pairs = [(a, b, vb, t_max) for a, b, vb, t_max in cases]
        batch_a = _batch([p[0] for p in pairs])
        batch_b = _batch([p[1] for p in pairs])
        velocity = np.array([p[2] for p in pairs])
        t_max = np.array([p[3] for p in pairs])
        times = c2.time_of_impact(batch_a, batch_b, velocity_b=velocity, t_max=t_max).time
        singles = [c2.time_of_impact(a, b, velocity_b=vb, t_max=t).time for a, b, vb, t in pairs]
        assert times.tolist() == singles, (name_a, name_b)


def _hard_cases():
    """``(name, a, b, vb, t_max)``: grazes at the sum of the radii (exactly, and 1e-12 or an ulp
    inside or outside), faces sliding at it or nearly, touching and overlapping at the start, a
    contact at ``t_max`` exactly and just after it, sizes 1e6 apart."""
    r = 0.25
    box = c2.Box((0.0, 0.0), (1.0, 1.0), radius=r)
    cases = []
    for name, y in (("graze", 1.5), ("graze inside 1e-12", 1.5 - 1e-12), ("graze outside 1e-12", 1.5 + 1e-12),
                    ("graze inside 1 ulp", np.nextafter(1.5, 0.0)), ("graze outside 1 ulp", np.nextafter(1.5, 2.0))):
        cases.append((name + " (disc past a corner)", box, c2.Capsule((-3.0, y), (-3.0, y), r), (2.0, 0.0), math.inf))
        cases.append((name + " (capsule along a face)", box, c2.Capsule((-4.0, y), (-3.0, y), r), (2.0, 0.0), math.inf))
    for name, gap in (("faces sliding at the radii", 0.0), ("faces sliding apart", 1e-9)):
        cases.append((name, box, c2.Box((-3.0, 1.5 + gap), (-2.0, 2.5), radius=r), (2.0, 0.0), math.inf))
    cases.append(("faces closing while sliding", box, c2.Box((-0.2, 1.51), (0.8, 2.5), radius=r), (0.1, -0.01), 10.0))
    cases.append(("touching at the start", box, c2.Capsule((1.5, 0.5), (2.5, 0.5), r), (1.0, 1.0), 1.0))
    cases.append(("overlapping at the start", box, c2.Capsule((1.0, 0.5), (2.5, 0.5), r), (1.0, 1.0), 1.0))
    cases.append(("contact at t_max", box, c2.Capsule((4.5, 0.5), (5.5, 0.5), r), (-2.0, 0.0), 1.5))
    cases.append(("contact just after t_max", box, c2.Capsule((4.5, 0.5), (5.5, 0.5), r), (-2.0, 0.0),
                  float(np.nextafter(1.5, 0.0))))
    cases.append(("small at large", c2.Box((-500.0, -500.0), (500.0, 500.0), radius=10.0),
                  c2.Capsule((900.0, 3.0), (900.001, 3.0007), 1e-4), (-100.0, 1.0), 10.0))
    cases.append(("large at small", c2.Capsule((0.0, 0.0), (1e-3, 5e-4), 1e-4),
                  c2.RotatedBox((900.0, 0.0), (400.0, 300.0), 0.3, radius=10.0), (-100.0, 0.0), math.inf))
    return cases


@pytest.mark.parametrize("case", _hard_cases(), ids=lambda case: case[0])
def test_hard_cases_against_the_exact_first_contact(case):
    """Grazes, faces sliding, the start, ``t_max`` and sizes 1e6 apart, both orders, single and
    in a batch: the public answer within the tolerance of the exact first contact; the closed
    form's own answer, where it gives one, never after it."""
    _, a, b, vb, t_max = case
    exact = first_contact(a, b, (0.0, 0.0), vb, t_max)
    for x, y, vx, vy in ((a, b, (0.0, 0.0), vb), (b, a, vb, (0.0, 0.0))):
        single = c2.time_of_impact(x, y, vx, vy, t_max=t_max)
        batch = c2.time_of_impact(_batch([x, x]), _batch([y, y]), np.array([vx, vx]), np.array([vy, vy]), t_max=t_max)
        assert batch.time.tolist() == [single.time, single.time]
        check(single.time, exact, t_max)
        (code,), (out,) = _closed(x, y, np.array(vx), np.array(vy), t_max)
        if code >= 0:
            check(out[0], exact if code == 0 else None, t_max, strict=True)


def test_circles_in_a_batch_of_ellipses_as_single_circles():
    """A batch of ellipses mixing circles with other ellipses against rounded shapes, both orders:
    each circle's answer is its single call's (a rounded point in the closed form either way), bit
    for bit, within the tolerance of the exact first contact."""
    rng = np.random.default_rng(5)
    shapes = _rounded_shapes(rng, (0.0, 0.0))
    centres = np.array([_aimed(rng)[0] for _ in range(6)])
    velocity = -centres / 3.0 + rng.uniform(-0.3, 0.3, (6, 2))
    semi = np.array([[0.5, 0.5], [0.4, 0.3], [0.7, 0.7], [0.6, 0.2], [0.3, 0.3], [0.9, 0.9]])
    ellipses = c2.Ellipse(centres, semi, 0.3)
    for name, a in shapes.items():
        for k in np.flatnonzero(semi[:, 0] == semi[:, 1]).tolist():
            circle = c2.Circle(centres[k], semi[k, 0])
            exact = first_contact(a, circle, (0.0, 0.0), velocity[k], math.inf)
            forward = c2.time_of_impact(a, ellipses, velocity_b=velocity, t_max=math.inf).time[k]
            backward = c2.time_of_impact(ellipses, a, velocity_a=velocity, t_max=math.inf).time[k]
            single = c2.time_of_impact(a, circle, velocity_b=velocity[k], t_max=math.inf).time
            assert forward == backward == single, name
            check(single, exact, math.inf)
