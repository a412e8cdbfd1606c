"""collide2d.events: the compiled event loops of hard disks and hard ellipses, against independent
references (exact roots in mpmath, the plain NumPy engine, the library's exact predicates and
distances, the textbook impulse, the equations of state)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d._kernels.events import disks as disk_kernels
from collide2d._kernels.events import ellipses as ellipse_kernels
from collide2d.events import HardDisks, HardEllipses, baseline, equations

# -- disks ------------------------------------------------------------------------------------------


def contact_time_reference(r, v, d0, dd):
    """First tau >= 0 with |r + v tau| = d0 + dd tau, from the quadratic in 60-digit arithmetic,
    read off the sign changes of the gap (not from the kernel's case analysis)."""
    with mpmath.workdps(60):
        r = [mpmath.mpf(x) for x in r]
        v = [mpmath.mpf(x) for x in v]
        d0, dd = mpmath.mpf(d0), mpmath.mpf(dd)
        a = v[0] ** 2 + v[1] ** 2 - dd**2
        b = r[0] * v[0] + r[1] * v[1] - d0 * dd
        c = r[0] ** 2 + r[1] ** 2 - d0**2
        if a == 0:
            roots = [-c / (2 * b)] if b != 0 else []
        else:
            disc = b * b - a * c
            roots = [] if disc < 0 else [(-b - mpmath.sqrt(disc)) / a, (-b + mpmath.sqrt(disc)) / a]
        # a contact is a root where the squared gap a t^2 + 2 b t + c goes from + to - (the pair closes)
        hits = [t for t in roots if t >= 0 and a * t + b < 0]
        return float(min(hits)) if hits else math.inf


def test_disk_contact_time_matches_the_exact_root():
    rng = np.random.default_rng(4)
    for _ in range(2000):
        r = rng.normal(0.0, 2.0, 2)
        v = rng.normal(0.0, 1.0, 2)
        d0 = abs(rng.normal(1.0, 0.3))
        if np.hypot(*r) <= d0:
            r *= 1.01 * d0 / np.hypot(*r)  # apart at the start
        dd = 0.0 if rng.random() < 0.5 else abs(rng.normal(0.0, 1.0))
        got = disk_kernels.contact_time(r[0], r[1], v[0], v[1], d0, dd)
        want = contact_time_reference(r, v, d0, dd)
        if math.isinf(want):
            assert math.isinf(got)
        else:
            assert abs(got - want) <= 1e-12 * (1.0 + want)
    # touching and approaching: now; touching and leaving: never (at a fixed size)
    assert disk_kernels.contact_time(1.0, 0.0, -1.0, 0.0, 1.0, 0.0) == 0.0
    assert math.isinf(disk_kernels.contact_time(1.0, 0.0, 1.0, 0.0, 1.0, 0.0))


def test_disks_conserve_energy_and_momentum_and_stay_apart():
    disks = HardDisks.lattice(64, 0.5, seed=3)
    energy, momentum = disks.kinetic_temperature(), disks.momentum().copy()
    assert disks.run(3000) == 3000
    assert disks.overlaps() == 0  # exact, by query_pairs
    assert abs(disks.kinetic_temperature() / energy - 1.0) < 1e-13
    assert np.abs(disks.momentum() - momentum).max() < 1e-13
    assert disks.counters[disk_kernels.CROSSINGS] > 0 and disks.counters[disk_kernels.STALE] > 0


def test_disks_follow_the_plain_numpy_engine():
    # the same start; the Python loop of heapq and the quadratic of two circles in NumPy: the same
    # trajectory, so the same collision virial and elapsed time
    mine = HardDisks.lattice(64, 0.5, seed=3)
    plain = baseline.Simulation(64, 0.5, 3, "numpy")
    np.testing.assert_array_equal(mine.velocity, plain.vel)
    mine.run(300)
    virial, elapsed = plain.run(300)
    assert abs(mine.virial - virial) < 1e-9 * virial
    assert abs(mine.time - elapsed) < 1e-9 * elapsed


@pytest.mark.parametrize("eta", [0.3, 0.5])
def test_disk_pressure_near_kolafa_rottner(eta):
    disks = HardDisks.lattice(256, eta, seed=11)
    disks.run(10_000)  # melt the lattice
    z = np.array([disks.measure(6_000) for _ in range(8)])
    error = z.std(ddof=1) / math.sqrt(len(z))
    reference = equations.kolafa_rottner(eta)
    assert abs(z.mean() - reference) < 4.0 * error + 0.01 * reference


def test_lubachevsky_stillinger_compression_jams_a_bidisperse_mixture():
    n = 64
    diameters = np.where(np.arange(n) % 2 == 0, 1.0, 1.4)
    side = math.sqrt(np.sum(math.pi * diameters**2 / 4.0))
    disks = HardDisks.points(n, side, diameters, growth_rate=0.01, seed=2)
    history = disks.compress(reduced_pressure=1e4)
    assert history[-1, 2] > 1e4
    # the jamming density of the 1 : 1.4 mixture, about 0.84 (O'Hern et al. 2003); small systems scatter
    assert 0.80 < disks.packing_fraction() < 0.87
    assert np.all(np.diff(history[:, 1]) > 0.0)
    assert disks.overlaps() == 0


def test_slower_compressions_jam_denser():
    # the jamming density of the Lubachevsky-Stillinger compression depends on its rate (Schreck,
    # O'Hern and Silbert 2011; Chaudhuri, Berthier and Sastry 2010): slower compressions let the
    # mixture relax and jam denser; O'Hern et al.'s 0.84 lies between the rates 0.1 and 0.003
    # (N = 1024 in docs/simulation.md: 0.833-0.836 at 0.1, 0.847 at 0.003)
    n = 128
    diameters = np.where(np.arange(n) % 2 == 0, 1.0, 1.4)
    side = math.sqrt(np.sum(math.pi * diameters**2 / 4.0))
    jammed = {}
    for rate in (0.1, 0.003):
        for seed in (1, 2, 3):
            disks = HardDisks.points(n, side, diameters, growth_rate=rate, seed=seed)
            history = disks.compress(reduced_pressure=1e4)
            assert history[-1, 2] > 1e4 and disks.overlaps() == 0
            jammed[rate, seed] = disks.packing_fraction()
    for seed in (1, 2, 3):
        assert 0.82 < jammed[0.1, seed] < jammed[0.003, seed] < 0.86, jammed
    fast = np.mean([jammed[0.1, seed] for seed in (1, 2, 3)])
    slow = np.mean([jammed[0.003, seed] for seed in (1, 2, 3)])
    assert fast < 0.84 < slow and slow - fast > 0.004, jammed


def test_rescaling_the_velocities_keeps_the_positions():
    disks = HardDisks.lattice(64, 0.5, seed=4)
    disks.run(500)
    before, time = disks.positions(), disks.time
    disks.rescale_velocities(2.0)
    assert disks.time == time and abs(disks.kinetic_temperature() - 2.0) < 1e-12
    np.testing.assert_allclose(disks.positions(), before, rtol=0, atol=1e-12)
    disks.run(500)
    assert disks.overlaps() == 0


def test_fast_compression_keeps_disks_apart():
    n = 256
    diameters = np.where(np.arange(n) % 2 == 0, 1.0, 1.4)
    side = math.sqrt(np.sum(math.pi * diameters**2 / 4.0))
    disks = HardDisks.points(n, side, diameters, growth_rate=0.1, seed=1)
    disks.compress(reduced_pressure=1e3)
    assert disks.overlaps() == 0


def test_disks_refuse_bad_input():
    with pytest.raises(ValueError, match="overlap"):
        HardDisks([[1.0, 1.0], [1.5, 1.0]], np.zeros((2, 2)), 1.0, 10.0)
    with pytest.raises(ValueError, match="3 times"):
        HardDisks([[1.0, 1.0], [3.0, 1.0]], np.zeros((2, 2)), 1.0, 2.5)
    with pytest.raises(ValueError, match="shape"):
        HardDisks([[1.0, 1.0], [3.0, 1.0]], np.zeros((3, 2)), 1.0, 10.0)
    with pytest.raises(ValueError, match="growth_rate"):
        HardDisks([[1.0, 1.0], [3.0, 1.0]], np.zeros((2, 2)), 1.0, 10.0, growth_rate=-1.0)
    with pytest.raises(ValueError, match="finite"):
        HardDisks([[1.0, np.nan], [3.0, 1.0]], np.zeros((2, 2)), 1.0, 10.0)
    with pytest.raises(ValueError, match="collisions"):
        HardDisks.lattice(16, 0.3, seed=1).run(-1)


# -- ellipses ---------------------------------------------------------------------------------------


def shape_matrix(a, b, angle):
    c, s = math.cos(angle), math.sin(angle)
    rotation = np.array([[c, -s], [s, c]])
    return rotation @ np.diag([a * a, b * b]) @ rotation.T


def test_contact_function_and_gap_bound_against_the_library():
    rng = np.random.default_rng(5)
    for _ in range(200):
        ai, bi, aj, bj = 1.0, 0.5, rng.uniform(0.5, 1.5), 0.5
        ti, tj = rng.uniform(0, math.pi, 2)
        r = rng.normal(0.0, 1.5, 2)
        p, q = shape_matrix(ai, bi, ti), shape_matrix(aj, bj, tj)
        f, lam, sx, sy = ellipse_kernels.contact(r[0], r[1], p[0, 0], p[0, 1], p[1, 1], q[0, 0], q[0, 1], q[1, 1], 0.5, 60)
        # the maximum of F(l) = l (1 - l) r^T C^-1 r over a fine grid of l (brute force)
        grid = np.linspace(1e-6, 1 - 1e-6, 4001)[:, None, None]
        inverse = np.linalg.inv((1 - grid) * p + grid * q)
        values = grid[:, 0, 0] * (1 - grid[:, 0, 0]) * np.einsum("i,kij,j->k", r, inverse, r)
        assert f >= values.max() * (1 - 1e-12)
        assert f <= values.max() * (1 + 1e-5)
        ellipse_i = c2.Ellipse((0.0, 0.0), (ai, bi), angle=ti)
        ellipse_j = c2.Ellipse(tuple(r), (aj, bj), angle=tj)
        assert (f < 1.0) == c2.intersects(ellipse_i, ellipse_j)
        if f > 1.0:
            # the separating-axis bound of the search is below the distance, and near it
            n = np.array([sx, sy]) / math.hypot(sx, sy)
            bound = r @ n - math.sqrt(n @ p @ n) - math.sqrt(n @ q @ n)
            gap = c2.distance(ellipse_i, ellipse_j)
            assert bound <= gap + 1e-12
            assert bound >= 0.0
            assert gap - bound <= 0.05 * gap + 1e-9 or gap > 0.2


def contact_function_maximum(r, p, q):
    """``max F(l) = l (1 - l) r^T C(l)^-1 r`` over ``[0, 1]`` and its maximiser, in 40-digit
    arithmetic: the root of ``F'`` by bisection (``F`` is concave)."""
    with mpmath.workdps(40):
        r = [mpmath.mpf(float(x)) for x in r]
        p = [[mpmath.mpf(float(x)) for x in row] for row in p]
        q = [[mpmath.mpf(float(x)) for x in row] for row in q]

        def value(lam):
            c = [[(1 - lam) * p[k][m] + lam * q[k][m] for m in range(2)] for k in range(2)]
            det = c[0][0] * c[1][1] - c[0][1] * c[1][0]
            quadratic = (c[1][1] * r[0] ** 2 - 2 * c[0][1] * r[0] * r[1] + c[0][0] * r[1] ** 2) / det
            return lam * (1 - lam) * quadratic

        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        step = mpmath.mpf(10) ** -30
        for _ in range(110):
            middle = (lo + hi) / 2
            if value(middle + step) > value(middle - step):
                lo = middle
            else:
                hi = middle
        return float(value(lo)), float(lo)


def test_contact_function_converges_in_a_few_rounds_and_stays_at_its_maximum():
    # Newton's step from the maximiser rounds onto it, an end of the bracket: the kernel stops
    # there (it used to bisect away from it, 25 rounds on average for a touching pair, and a warm
    # start at the maximiser came back worse); the touching pairs of a run (F = 1) and random ones
    rng = np.random.default_rng(12)
    for case in range(24):
        ai, bi, aj, bj = 1.0, 0.5, rng.uniform(0.5, 1.5), rng.uniform(0.3, 0.5)
        ti, tj = rng.uniform(0, math.pi, 2)
        p, q = shape_matrix(ai, bi, ti), shape_matrix(aj, bj, tj)
        direction = rng.normal(size=2)
        r = direction * rng.uniform(0.5, 3.0) / np.linalg.norm(direction)
        if case % 2 == 0:  # scaled onto contact: F* = 1
            r = r / math.sqrt(contact_function_maximum(r, p, q)[0])
        best, where = contact_function_maximum(r, p, q)
        args = (r[0], r[1], p[0, 0], p[0, 1], p[1, 1], q[0, 0], q[0, 1], q[1, 1])
        f, lam, _, _ = ellipse_kernels.contact(*args, 0.5, 8)
        assert abs(f - best) <= 1e-14 * best and abs(lam - where) <= 1e-6, (case, f, best, lam, where)
        for rounds in (1, 2, 3):  # started at its maximiser, it stays there
            again, lam_again, _, _ = ellipse_kernels.contact(*args, lam, rounds)
            assert abs(again - best) <= 1e-14 * best and abs(lam_again - where) <= 1e-6, (case, rounds)


def impulse_reference(point, normal, centres, before, inertia):
    """The velocities after a frictionless elastic collision of two rigid bodies of mass 1, from the
    textbook impulse in three dimensions (Mirtich 1996, ch. 3; Baraff 1997): j = -(1 + e) u . n /
    (1/m_a + 1/m_b + n . ((r_a x n) x r_a / I_a + (r_b x n) x r_b / I_b)), e = 1."""
    point, normal = np.append(point, 0.0), np.append(normal, 0.0)
    (va, vb), (wa, wb) = before
    ra, rb = (point - np.append(c, 0.0) for c in centres)  # lever arms, 3D
    u = (np.append(vb, 0.0) + np.cross([0.0, 0.0, wb], rb)) - (np.append(va, 0.0) + np.cross([0.0, 0.0, wa], ra))
    denominator = 2.0 + normal @ (np.cross(np.cross(ra, normal), ra) / inertia[0]
                                  + np.cross(np.cross(rb, normal), rb) / inertia[1])
    j = -2.0 * (u @ normal) / denominator
    return (va - j * normal[:2], vb + j * normal[:2], wa - np.cross(ra, j * normal)[2] / inertia[0],
            wb + np.cross(rb, j * normal)[2] / inertia[1], j)


def test_ellipse_collisions_are_the_rigid_body_impulse_and_keep_ellipses_apart():
    sim = HardEllipses.lattice(32, 0.5, aspect=2.0, seed=7)
    energy, momentum = sim.kinetic_temperature(), sim.momentum().copy()
    # one collision at a time, with the state before and after each
    virial = 0.0
    for _ in range(150):
        log = sim.record(1)
        before = (sim.velocity.copy(), sim.omega.copy())
        assert sim.run(1) == 1
        i, j, t, px, py, nx, ny, impulse = log[-1]
        i, j = int(i), int(j)
        point, normal = np.array([px, py]), np.array([nx, ny])
        centres = sim.positions(t)[[i, j]]
        centres[1] += sim.side * np.round((centres[0] - centres[1]) / sim.side)  # the image in contact
        angles = sim.angles(t)[[i, j]]
        # the contact point on both boundaries (to the search's tolerance), the normal along the
        # outward gradient of i and against j's
        for centre, angle, semi, sign in ((centres[0], angles[0], sim.semi[i], 1.0),
                                          (centres[1], angles[1], sim.semi[j], -1.0)):
            c, s = math.cos(angle), math.sin(angle)
            local = np.array([[c, s], [-s, c]]) @ (point - centre)
            assert abs(np.sum((local / semi) ** 2) - 1.0) < 1e-6
            gradient = np.array([[c, -s], [s, c]]) @ (local / semi**2)
            assert np.abs(sign * gradient / np.linalg.norm(gradient) - normal).max() < 1e-5
        va, vb, wa, wb, j_ref = impulse_reference(point, normal, centres, ((before[0][i], before[0][j]),
                                                  (before[1][i], before[1][j])), sim.inertia[[i, j]])
        got = np.concatenate([sim.velocity[i] - va, sim.velocity[j] - vb, [sim.omega[i] - wa, sim.omega[j] - wb]])
        assert np.abs(got).max() < 1e-12 and abs(impulse - j_ref) < 1e-12
        virial += impulse * float(np.dot(centres[1] - centres[0], normal))
    assert abs(virial - sim.virial) < 1e-9 * abs(virial)
    assert sim.overlaps() == 0  # exact, by query_pairs
    assert abs(sim.kinetic_temperature() / energy - 1.0) < 1e-12
    assert np.abs(sim.momentum() - momentum).max() < 1e-12


def test_ellipses_stay_apart_in_a_longer_run_and_near_boublik():
    sim = HardEllipses.lattice(128, 0.3, aspect=2.0, seed=3)
    energy = sim.kinetic_temperature()
    sim.run(2_000)
    z = np.array([sim.measure(1_500) for _ in range(8)])
    assert sim.overlaps() == 0
    assert abs(sim.kinetic_temperature() / energy - 1.0) < 1e-12
    error = z.std(ddof=1) / math.sqrt(len(z))
    reference = equations.boublik_convex(0.3, equations.nonsphericity(1.0, 0.5))
    assert abs(z.mean() - reference) < 4.0 * error + 0.02 * reference


def test_ellipses_refuse_bad_input():
    with pytest.raises(ValueError, match="semi_axes"):
        HardEllipses([[1.0, 1.0], [5.0, 1.0]], np.zeros((2, 2)), 0.0, 0.0, (0.5, 1.0), 20.0)
    with pytest.raises(ValueError, match="overlap"):
        HardEllipses([[1.0, 1.0], [2.5, 1.0]], np.zeros((2, 2)), 0.0, 0.0, (1.0, 0.5), 20.0)
    with pytest.raises(ValueError, match="aspect"):
        HardEllipses.lattice(16, 0.3, aspect=0.5)


# -- equations of state -----------------------------------------------------------------------------


def test_kolafa_rottner_reproduces_the_hard_disk_virial_coefficients():
    # Z = sum C_k x^k with x = eta / (1 - eta) = eta + eta^2 + ...: the coefficient of eta^n is
    # sum_k C_k binom(n - 1, k - 1). References: B3 and B4 exact (Tonks 1936; Rowlinson 1964:
    # B3/B2^2 = 4/3 - sqrt(3)/pi, B4/B2^3 = 2 - 9 sqrt(3)/(2 pi) + 10/pi^2), B5/B2^4 = 0.33355604
    # (Clisby and McCoy, J. Stat. Phys. 122, 15, 2006); in powers of eta, B_n/B2^(n-1) times 2^(n-1).
    coefficient = [1.0] + [sum(c * math.comb(n - 1, k - 1) for k, c in equations.KOLAFA_ROTTNER.items() if 1 <= k <= n)
                           for n in range(1, 5)]
    reference = [1.0, 2.0, 4 * (4 / 3 - math.sqrt(3) / math.pi),
                 8 * (2 - 9 * math.sqrt(3) / (2 * math.pi) + 10 / math.pi**2), 16 * 0.33355604]
    for got, want in zip(coefficient, reference):
        assert abs(got - want) < 2e-8 * want
    assert abs(equations.kolafa_rottner(0.5) - equations.henderson(0.5)) < 0.005 * equations.henderson(0.5)


def test_ellipse_nonsphericity():
    assert abs(equations.nonsphericity(0.5, 0.5) - 1.0) < 1e-14  # a disk: the SPT form is 1 / (1 - eta)^2
    assert abs(equations.spt_convex(0.3, 1.0) - 1 / 0.7**2) < 1e-14
    # aspect 2: perimeter 4 a E(e^2) with E(3/4) = 1.2110560275684595 (complete elliptic integral)
    assert abs(equations.ellipse_perimeter(1.0, 0.5) - 4 * 1.2110560275684595) < 1e-13


def test_ellipse_impact_time_matches_the_library_time_of_impact():
    # the conservative advancement of the event loop against collide2d.time_of_impact (turning
    # ellipses: its own certified search), both orders of the pair
    rng = np.random.default_rng(8)
    hits = 0
    for _ in range(40):
        semi = np.array([[1.0, 0.5], [rng.uniform(0.5, 1.2), 0.5]])
        position = np.array([[0.0, 0.0], rng.uniform(2.6, 3.5) * np.array([1.0, 0.0]) + rng.normal(0.0, 0.6, 2)])
        velocity = np.array([[0.0, 0.0], [-1.0, 0.0]]) + rng.normal(0.0, 0.3, (2, 2))
        angle = rng.uniform(0.0, math.pi, 2)
        omega = rng.normal(0.0, 2.0, 2)
        shapes = [c2.Ellipse(tuple(position[k]), tuple(semi[k]), angle=angle[k]) for k in range(2)]
        if c2.intersects(*shapes):
            continue
        want = c2.time_of_impact(shapes[0], shapes[1], velocity[0], velocity[1], angular_velocity_a=omega[0],
                                 angular_velocity_b=omega[1], t_max=4.0).time
        for i, j in ((0, 1), (1, 0)):
            got = ellipse_kernels.impact_time(i, j, 0.0, 0.0, 0.0, 4.0, position, velocity, angle, omega, np.zeros(2),
                                              semi, 1e-11, np.zeros(8, dtype=np.int64))
            if math.isinf(want):
                assert math.isinf(got)
            else:
                assert abs(got - want) < 1e-7
                hits += 1
    assert hits > 20


def test_ellipses_follow_the_time_of_impact_engine():
    # the same start; the Python loop over collide2d.time_of_impact (its own search, its own
    # neighbour lists and heap): the same trajectory, so the same virial and elapsed time
    mine = HardEllipses.lattice(32, 0.5, aspect=2.0, seed=7)
    reference = baseline.EllipseSimulation(32, 0.5, 7, 2.0, 0.5)
    np.testing.assert_array_equal(mine.omega, reference.omega)
    mine.run(60)
    virial, elapsed = reference.run(60)
    assert abs(mine.virial - virial) < 1e-8 * virial
    assert abs(mine.time - elapsed) < 1e-8 * elapsed


@pytest.mark.parametrize("packing_fraction, aspect", [(0.5, 2.0), (0.65, 1.5)])
def test_ellipse_predictions_are_the_earliest_contact_over_all_pairs(packing_fraction, aspect):
    # the prediction of every ellipse (its searches run side by side, each stopped at the earliest
    # event found) against a brute-force search: impact_time from now against every other ellipse
    # (its nearest image), one after the other, over [now, the predicted event]
    ellipses = HardEllipses.lattice(48, packing_fraction, aspect=aspect, seed=4)
    ellipses.run(300)
    ellipses._regrid()  # every ellipse brought to now and predicted afresh
    now, side = ellipses.time, ellipses.side
    arrays = (ellipses.position, ellipses.velocity, ellipses.angle, ellipses.omega, ellipses.stamp, ellipses.semi)
    tolerance = ellipses.params[ellipse_kernels.TOLERANCE]
    counters = np.zeros(8, dtype=np.int64)
    contacts = 0
    for i in range(ellipses.n):
        predicted, partner = ellipses.event_time[i], ellipses.event_partner[i]
        earliest, first = math.inf, -1
        for j in range(ellipses.n):
            if j != i:
                shift = -side * np.round((ellipses.position[j] - ellipses.position[i]) / side)
                t = ellipse_kernels.impact_time(i, j, shift[0], shift[1], now, predicted + 1e-6, *arrays, tolerance,
                                                counters)
                if t < earliest:
                    earliest, first = t, j
        if partner >= 0:
            assert first == partner and abs(earliest - predicted) < 1e-8, (i, partner, first, predicted, earliest)
            contacts += 1
        else:  # leaving its cell first: no contact before
            assert earliest >= predicted - 1e-8, (i, first, predicted, earliest)
    assert contacts >= 10
