"""``time_of_impact`` with ``t_max=inf``: the search never evaluates the shapes at an infinite time.

A translating pair whose steps slow down searches for the minimum of its separation up to the end
of the search; with an infinite ``t_max`` a probe ahead of the last one (a secant through equal
slopes: a separation that looks linear) was placed at ``t = inf``, where the moved shapes are NaN
(``RuntimeWarning: invalid value encountered in multiply``, an error under the suite's warning
filter). The search of an infinite ``t_max`` now ends where the pair can last touch. Checked
against exact first contacts in mpmath (a line against any kind: the signed distances of the
other shape's extreme points from the line), both orders, single and batched.
"""

import math
import warnings

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d._glue import run
from collide2d.motion import search

mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mp.prec = 400
mpf = mp.mpf


def _sides(shape, q, d):
    """``[low, high]`` of ``d x (x - q)`` over ``shape`` (mpmath, from the stored floats)."""
    kind, p, verts = run.flat_rows(shape)
    p = p[0]
    dx, dy, qx, qy = (mpf(float(x)) for x in (d[0], d[1], q[0], q[1]))

    def cross(x):
        return dx * (mpf(float(x[1])) - qy) - dy * (mpf(float(x[0])) - qx)

    length = mp.hypot(dx, dy)
    if kind == "ellipse":
        cx, cy, ra, rb, co, si = (mpf(float(x)) for x in p[:6])
        h = mp.hypot(co, si)
        co, si = co / h, si / h
        half = mp.sqrt((ra * (-dy * co + dx * si)) ** 2 + (rb * (dy * si + dx * co)) ** 2)
        return cross((p[0], p[1])) - half, cross((p[0], p[1])) + half
    radius = mpf(0)
    if kind == "point":
        points = [p[:2]]
    elif kind == "segment":
        points = [p[:2], p[2:4]]
    elif kind == "polygon":
        points = list(verts[int(p[0]) : int(p[0]) + int(p[1])])
    else:  # rounded: the core's corners and the radius
        count, radius = int(p[1]), mpf(float(p[2]))
        points = list(verts[int(p[0]) : int(p[0]) + count]) if count >= 3 else [p[3:5], p[5:7]][:count]
    sides = [cross(x) for x in points]
    return min(sides) - radius * length, max(sides) + radius * length


def first_contact(line, other, v_other):
    """The exact first ``t >= 0`` at which ``other`` moved by ``v_other t`` meets the still
    ``line`` (None: never), with the rate at which it crosses the line's normal."""
    p = run.flat_rows(line)[1][0]
    low, high = _sides(other, p[:2], p[2:4])
    dx, dy = mpf(float(p[2])), mpf(float(p[3]))
    rate = dx * mpf(float(v_other[1])) - dy * mpf(float(v_other[0]))
    speed = abs(rate) / mp.hypot(dx, dy)
    if low <= 0 <= high:
        return mpf(0), speed
    if rate == 0:
        return None, speed
    first, last = sorted((-high / rate, -low / rate))
    return (max(first, mpf(0)) if last >= 0 else None), speed


def _check(time, exact, speed, relative_speed):
    """A miss for a miss; else within the tolerance of the time reached (``2**-45`` of it, an
    infinite ``t_max``), plus the float noise of the moved coordinates over the speed across the
    line (``2**-42`` of them: a shape carried far along the line is known to its ulps there)."""
    if exact is None:
        assert time == math.inf
        return
    assert math.isfinite(time), float(exact)
    noise = 2.0**-42 * (4.0 + relative_speed * max(float(exact), time)) / float(speed)
    assert abs(mpf(time) - exact) <= 2.0**-43 * max(float(exact), 1.0) + noise, (time, float(exact))


def _never_at_inf(monkeypatch):
    """Fail on any evaluation of a pair at a non-finite time."""
    contact = search._Motion.contact

    def checked(self, rows, t, exact=True, given=False):
        assert np.all(np.isfinite(np.asarray(t))), "a contact evaluated at t = inf"
        return contact(self, rows, t, exact, given)

    monkeypatch.setattr(search._Motion, "contact", checked)


def _both_orders(line, other, v_other, t_max=math.inf):
    """Times of (line, other) and (other, line), single and as a batch of two rows each."""
    zero = (0.0, 0.0)
    times = [c2.time_of_impact(line, other, zero, v_other, t_max=t_max).time,
             c2.time_of_impact(other, line, v_other, zero, t_max=t_max).time]
    pair = np.zeros(2, dtype=int)
    times += c2.time_of_impact(line[pair] if line.shape else c2.translate(line, np.zeros((2, 2))), other,
                               zero, np.array([v_other, v_other]), t_max=t_max).time.tolist()
    times += c2.time_of_impact(c2.translate(other, np.zeros((2, 2))), line, np.array([v_other, v_other]), zero,
                               t_max=t_max).time.tolist()
    return times


def test_capsule_meeting_a_line_within_the_noise(monkeypatch):
    """The reported pair: apart by 5e-324 in floats at 0 (8.5e-17 exactly), the line sweeping over
    the capsule; its time 7.5e-17 is known to the float noise of the separation over the speed
    (the same answer as with t_max=10)."""
    _never_at_inf(monkeypatch)
    capsule = c2.Capsule((-0.1321511371973788, -1.1121653074659366), (0.996222449093605, 1.6914337476850207),
                         0.5247992842665467)
    line = c2.Line((-1.4465971518525549, 1.6711945315635834), (-0.44288246419380284, 1.601039478678522))
    v = (1.883446152502545, -2.5565503391614497)
    exact, speed = first_contact(line, capsule, (-v[0], -v[1]))
    assert 7.5e-17 < exact < 7.6e-17
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for t_max in (math.inf, 10.0):
            hit = c2.time_of_impact(capsule, line, (0, 0), v, t_max=t_max)
            assert hit.time == 5e-324 and np.all(np.isfinite(hit.point)) and np.all(np.isfinite(hit.normal))
            times = _both_orders(line, capsule, (-v[0], -v[1]), t_max)
            assert times == [5e-324] * 6
            _check(times[0], exact, speed, math.hypot(*v))


# every kind against a line it is nearly parallel to (crossing at 1e-15 of its speed along it):
# the search crawls, looks for the minimum of the separation, and ran to t = inf
KINDS = {
    "point": lambda: c2.Point((0.3, -0.2)),
    "segment": lambda: c2.Segment((0.1, 0.2), (0.9, -0.5)),
    "circle": lambda: c2.Circle((0.2, 0.1), 0.7),
    "ellipse": lambda: c2.Ellipse((0.4, -0.3), (1.3, 0.6), 0.7),
    "box": lambda: c2.Box((-0.5, -0.25), (0.75, 0.5)),
    "rotated box": lambda: c2.RotatedBox((0.1, 0.2), (0.8, 0.3), 0.4),
    "polygon": lambda: c2.Polygon([(0.0, 0.0), (1.0, 0.2), (0.6, 0.9), (-0.3, 0.5)]),
    "capsule": lambda: c2.Capsule((-0.1, -0.2), (0.5, 0.4), 0.3),
    "rounded box": lambda: c2.Box((-0.5, -0.25), (0.75, 0.5), radius=0.25),
    "rounded rotated box": lambda: c2.RotatedBox((0.1, 0.2), (0.8, 0.3), 0.4, radius=0.2),
    "rounded polygon": lambda: c2.Polygon([(0.0, 0.0), (1.0, 0.2), (0.6, 0.9), (-0.3, 0.5)], radius=0.15),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_nearly_parallel_line_at_infinite_t_max(kind, monkeypatch):
    _never_at_inf(monkeypatch)
    other = KINDS[kind]()
    line = c2.Line((-0.37, 1.9), (0.9977985721982904, 0.06631748878729608))
    along = np.array([0.9977985721982904, 0.06631748878729608])
    normal = np.array([0.06631748878729608, -0.9977985721982904])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for across in (1e-15, 1e-9):
            v = tuple(2.0 * along - across * normal)  # (the other shape moves up towards the line)
            exact, speed = first_contact(line, other, v)
            assert exact is not None and exact > 0
            for time in _both_orders(line, other, v):
                _check(time, exact, speed, math.hypot(*v))


@pytest.mark.parametrize("kind", sorted(KINDS) + ["line"])
def test_still_receding_parallel_pairs_at_infinite_t_max(kind, monkeypatch):
    """No contact ever, at once, without warnings: every kind against every kind (a line parallel
    to the gap), still, moving together, apart, and sliding along the gap; both orders, single
    and batched."""
    _never_at_inf(monkeypatch)
    shapes = {**KINDS, "line": lambda: c2.Line((0.0, 0.5), (1.0, 0.0))}
    a = shapes[kind]()
    motions = np.array([[0.0, 0.0], [1.5, 0.5], [0.25, 3.0], [2.0, 0.0]])  # (b's, relative to a: still, apart, apart, sliding)
    common = np.array([0.7, -1.1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for other in sorted(shapes):
            b = c2.translate(shapes[other](), (0.0, 5.0))  # above a by 2.5 at least, both of extent < 2
            for order in (0, 1):
                x, y = (a, b) if order == 0 else (b, a)
                sign = 1.0 if order == 0 else -1.0  # (y moves away from x)
                single = [c2.time_of_impact(x, y, common, common + sign * m, t_max=math.inf).time for m in motions]
                batch = c2.time_of_impact(c2.translate(x, np.zeros((4, 2))), y, common, common + sign * motions,
                                          t_max=math.inf).time
                assert single == [math.inf] * 4 and batch.tolist() == [math.inf] * 4, (kind, other, order)


# pairs of a random sweep that evaluated at t = inf (a warning, an error under -W error): a line
# carried along itself at speed 2, crossing at 1e-15 of that (or exactly parallel: no contact)
FOUND = [
    (c2.Capsule((-0.20689292471224427, -0.33372600380413486), (-0.4999951440689655, 0.419485404635246), 0.3551516248693427),
     c2.Line((-1.5649581575452567, -0.601286281825348), (0.35044613089326493, -0.9365828897337067)),
     (0.7008922617865307, -1.873165779467413)),
    (c2.Capsule((0.42051328729557524, 0.2595634588920596), (1.1908353700900713, -0.4415363415413666), 0.15905261357542935),
     c2.Line((-1.1721981537068382, -0.13646891561233815), (0.98092836370579, -0.19436960996380445)),
     (1.9618567274115801, -0.3887392199276079)),
    (c2.Ellipse((0.4906519855992447, -1.7341631645456537), (1.8596344617699607, 1.9283176188967925), 2.2816372905797557),
     c2.Line((-0.9100058607647856, 0.0626175133893926), (0.9977985721982904, 0.06631748878729608)),
     (1.9955971443965808, 0.13263497757459317)),
    (c2.Point((1.1337161247821332, 1.5835072794204326)),
     c2.Line((-0.3471461988320058, -0.7901482623176597), (-0.19108696666242342, -0.9815731104567574)),
     (-0.38217393332484684, -1.9631462209135149)),
    (c2.Circle((-0.2611520974955673, 0.22474070650557698), 0.38596288267029444),
     c2.Line((-0.27589992892188014, 0.6289779280839614), (-0.9453737547010228, -0.32598844139400135)),
     (-1.8907475094020454, -0.6519768827880037)),
]


@pytest.mark.parametrize("case", range(len(FOUND)))
def test_line_carried_along_itself_at_infinite_t_max(case, monkeypatch):
    _never_at_inf(monkeypatch)
    other, line, v_line = FOUND[case]
    exact, speed = first_contact(line, other, (-v_line[0], -v_line[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for time in _both_orders(line, other, (-v_line[0], -v_line[1])):
            _check(time, exact, speed, math.hypot(*v_line))


# -- a capsule carried far beyond its length: its core rounds to one point --------------------------

def test_capsule_whose_moved_core_collapses_to_a_point():
    """A capsule of size 1 carried to 5e148 by the search: both ends of its core round to one
    point, a segment row of length 0 whose exact relation to a segment read TOUCHING while it was
    apart, so every check before the contact failed and the time came 2.3e-10 (relative) early in
    the order (segment, capsule). The moved core is now that point's row. Exact reference: the
    first contact of the cores' Minkowski difference grown by the radius (mpmath, 300 bits)."""
    import sys
    import pathlib

    sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "public"))
    import rounded_motion_references as reference

    segment = c2.Segment((4e148, 4e148), (6e148, 1e148))
    ends = [((-0.5772296891002251, -0.18149709763284383), (-0.6990932680754975, 0.8091025091428783)),
            ((0.25, 0.5), (1.25, 0.0))]
    capsules = c2.Capsule([a for a, _ in ends], [b for _, b in ends], 0.25)
    v, still = (1.0, 0.5), (0.0, 0.0)
    batch_ab = c2.time_of_impact(segment, capsules, still, v, t_max=math.inf)
    batch_ba = c2.time_of_impact(capsules, segment, v, still, t_max=math.inf)
    for k, (a, b) in enumerate(ends):
        capsule = c2.Capsule(a, b, 0.25)
        precision, reference.mp.prec = reference.mp.prec, 1200  # (coordinates 2**494 apart from ulps of 1)
        try:
            exact = reference.first_contact(segment, capsule, still, v, math.inf)
        finally:
            reference.mp.prec = precision
        for time in (c2.time_of_impact(segment, capsule, still, v, t_max=math.inf).time,
                     c2.time_of_impact(capsule, segment, v, still, t_max=math.inf).time,
                     batch_ab.time[k], batch_ba.time[k]):
            assert abs(mpf(float(time)) - exact) <= 2.0**-45 * exact, (float(time), float(exact))
