"""The hard-disk example: no overlap, elastic collisions, the known pressure, and the time of impact
of collide2d against the root of the quadratic of two moving circles."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent / "examples" / "hard_particles.py"


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
