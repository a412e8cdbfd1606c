"""The hard-disk example: no overlap, elastic collisions, the known pressure, and the time of impact
of collide2d against the root of the quadratic of two moving circles."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "hard_particles.py"


def run(*arguments):
    env = dict(os.environ, PYTHONPATH=str(EXAMPLE.parent.parent / "src"))
    out = subprocess.run([sys.executable, str(EXAMPLE), *arguments], capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_hard_disks_engines_agree_and_keep_disks_apart():
    common = ["--eta", "0.5", "--n", "64", "--collisions", "600", "--seed", "3"]
    mine = run(*common)
    plain = run(*common, "--engine", "numpy")
    for result in (mine, plain):
        assert result["overlaps"] == 0
        assert abs(result["kT_drift"]) < 1e-9  # elastic: the kinetic energy stays
        assert result["collisions"] == 600
    # the same trajectory: the collision times agree to rounding, so the virial does too
    assert abs(mine["Z"] - plain["Z"]) < 1e-6 * plain["Z"]


def test_hard_disks_pressure_near_henderson():
    result = run("--eta", "0.3", "--n", "128", "--collisions", "10000", "--seed", "5")
    assert result["overlaps"] == 0
    assert abs(result["Z"] - result["Z_henderson"]) < 4 * result["Z_err"] + 0.01 * result["Z_henderson"]


def load_example():
    """The example as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("hard_particles", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kolafa_rottner_reproduces_the_hard_disk_virial_coefficients():
    # Z = sum C_k x^k with x = eta / (1 - eta) = eta + eta^2 + ...: the coefficient of eta^n is
    # sum_k C_k binom(n - 1, k - 1). References: B3 and B4 exact (Tonks 1936; Rowlinson 1964:
    # B3/B2^2 = 4/3 - sqrt(3)/pi, B4/B2^3 = 2 - 9 sqrt(3)/(2 pi) + 10/pi^2), B5/B2^4 = 0.33355604
    # (Clisby and McCoy, J. Stat. Phys. 122, 15, 2006); in powers of eta, B_n/B2^(n-1) times 2^(n-1).
    hp = load_example()
    coefficient = [1.0] + [sum(c * math.comb(n - 1, k - 1) for k, c in hp.KOLAFA_ROTTNER.items() if 1 <= k <= n)
                           for n in range(1, 5)]
    reference = [1.0, 2.0, 4 * (4 / 3 - math.sqrt(3) / math.pi),
                 8 * (2 - 9 * math.sqrt(3) / (2 * math.pi) + 10 / math.pi**2), 16 * 0.33355604]
    for got, want in zip(coefficient, reference):
        assert abs(got - want) < 2e-8 * want
    assert abs(hp.kolafa_rottner(0.5) - hp.henderson(0.5)) < 0.005 * hp.henderson(0.5)  # the two agree to 0.5 %


def test_ellipse_nonsphericity():
    hp = load_example()
    assert abs(hp.nonsphericity(0.5, 0.5) - 1.0) < 1e-14  # a disk: the SPT form is 1 / (1 - eta)^2
    assert abs(hp.spt_convex(0.3, 1.0) - 1 / 0.7**2) < 1e-14
    # aspect 2: perimeter 4 a E(e^2) with E(3/4) = 1.2110560275684595 (complete elliptic integral)
    assert abs(hp.ellipse_perimeter(1.0, 0.5) - 4 * 1.2110560275684595) < 1e-13


def impulse_reference(record, inertia):
    """The velocities after a frictionless elastic collision of two rigid bodies of mass 1, from the
    textbook impulse in three dimensions (Mirtich 1996, ch. 3; Baraff 1997): j = -(1 + e) u . n /
    (1/m_a + 1/m_b + n . ((r_a x n) x r_a / I + (r_b x n) x r_b / I)), e = 1."""
    point, normal = np.append(record["point"], 0.0), np.append(record["normal"], 0.0)
    (va, vb), (wa, wb) = record["before"]
    ra, rb = (point - np.append(c, 0.0) for c in record["centres"])  # lever arms, 3D
    wa3, wb3 = np.array([0.0, 0.0, wa]), np.array([0.0, 0.0, wb])
    u = (np.append(vb, 0.0) + np.cross(wb3, rb)) - (np.append(va, 0.0) + np.cross(wa3, ra))
    denominator = 2.0 + normal @ (np.cross(np.cross(ra, normal), ra) / inertia + np.cross(np.cross(rb, normal), rb) / inertia)
    j = -2.0 * (u @ normal) / denominator
    return (va - j * normal[:2], vb + j * normal[:2], wa - np.cross(ra, j * normal)[2] / inertia,
            wb + np.cross(rb, j * normal)[2] / inertia, j)


def test_hard_ellipses_conserve_energy_and_momentum_and_stay_apart():
    hp = load_example()
    sim = hp.EllipseSimulation(32, 0.5, 7, 2.0, 0.5)
    sim.log = []
    energy, momentum = sim.kinetic_kt(), sim.vel.sum(axis=0).copy()
    sim.run(300)
    assert len(sim.log) == 300
    assert sim.overlaps() == 0
    assert abs(sim.kinetic_kt() / energy - 1.0) < 1e-12  # translational plus rotational
    assert np.abs(sim.vel.sum(axis=0) - momentum).max() < 1e-12
    radii = np.array(sim.radii)
    virial = 0.0
    for record in sim.log:
        # the contact: the point on both boundaries, the normal along the outward gradient of a, against b's
        for centre, angle, sign in ((record["centres"][0], record["angles"][0], 1.0),
                                    (record["centres"][1], record["angles"][1], -1.0)):
            c, s = math.cos(angle), math.sin(angle)
            q = np.array([[c, s], [-s, c]]) @ (record["point"] - centre)
            assert abs(np.sum((q / radii) ** 2) - 1.0) < 1e-6
            gradient = np.array([[c, -s], [s, c]]) @ (q / radii**2)
            assert np.abs(sign * gradient / np.linalg.norm(gradient) - record["normal"]).max() < 1e-5
        va, vb, wa, wb, j = impulse_reference(record, sim.inertia)
        (got_va, got_vb), (got_wa, got_wb) = record["after"]
        assert np.abs(np.concatenate([got_va - va, got_vb - vb, [got_wa - wa, got_wb - wb]])).max() < 1e-12
        # each body's angular momentum about the contact point is unchanged by an impulse through it
        for k in range(2):
            arm = record["centres"][k] - record["point"]
            before = sim.inertia * record["before"][1][k] + arm[0] * record["before"][0][k][1] - arm[1] * record["before"][0][k][0]
            after = sim.inertia * record["after"][1][k] + arm[0] * record["after"][0][k][1] - arm[1] * record["after"][0][k][0]
            assert abs(after - before) < 1e-12 * (1.0 + abs(before))
        virial += j * float(np.dot(record["centres"][1] - record["centres"][0], record["normal"]))
    assert abs(virial - sim.virial) < 1e-9 * abs(virial)


def test_hard_ellipses_command_line():
    result = run("--shape", "ellipse", "--eta", "0.3", "--n", "32", "--collisions", "100", "--seed", "2")
    assert result["overlaps"] == 0 and result["collisions"] == 100
    assert abs(result["kT_drift"]) < 1e-9 and result["momentum_drift"] < 1e-9
    assert result["Z_spt"] > 1.0 and result["Z_err"] > 0.0
