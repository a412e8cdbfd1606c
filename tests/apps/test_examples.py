"""The hard-particle example, a command line over collide2d.events: no overlap, elastic collisions,
the known pressure, the compiled engine against the plain NumPy one, and jamming."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

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


def test_hard_ellipses_command_line():
    result = run("--shape", "ellipse", "--eta", "0.3", "--n", "32", "--collisions", "100", "--seed", "2")
    assert result["overlaps"] == 0 and result["collisions"] == 100
    assert abs(result["kT_drift"]) < 1e-9 and result["momentum_drift"] < 1e-9
    assert result["Z_spt"] > 1.0 and result["Z_err"] > 0.0


def test_hard_particles_time_of_impact_engines():
    # the Python loops over collide2d.time_of_impact, kept as references (disks and turning ellipses)
    for shape in ("disk", "ellipse"):
        result = run("--shape", shape, "--eta", "0.3", "--n", "16", "--collisions", "50", "--seed", "2",
                     "--engine", "time_of_impact")
        assert result["overlaps"] == 0 and result["collisions"] == 50
        assert abs(result["kT_drift"]) < 1e-9


def test_hard_disks_jam_command_line():
    result = run("--jam", "--n", "64", "--growth-rate", "0.01", "--pressure", "1e3", "--seed", "4")
    assert result["overlaps"] == 0 and result["Z"] > 1e3
    assert 0.78 < result["phi"] < 0.87
