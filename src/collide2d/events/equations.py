"""Equations of state of hard disks and hard ellipses, the references of :mod:`collide2d.events`' pressures.

- Disks: Henderson's ``(1 + eta^2 / 8) / (1 - eta)^2`` (Henderson, *Mol. Phys.* 30, 971, 1975) and
  the fit of Kolafa and Rottner to molecular dynamics and the virial coefficients (*Mol. Phys.* 104,
  3435, 2006; arXiv:cond-mat/0608356), which Henderson's exceeds by 0.45 % at ``eta = 0.5`` and
  1.2 % at 0.6.
- Ellipses (hard convex bodies): the scaled-particle theory ``1 / (1 - eta) + gamma eta / (1 -
  eta)^2`` with the nonsphericity ``gamma = L^2 / (4 pi A)`` (perimeter ``L``, area ``A``: 1 for a
  disk; Boublik, *Mol. Phys.* 29, 421, 1975), and Boublik's refinement ``1 / (1 - eta) + gamma eta
  (1 + gamma (eta / 7 - eta^2 / 14)) / (1 - eta)^2`` (as given by SklogWiki, "Boublik 2D hard convex
  body equation of state", Eq. 11).

Examples
--------
>>> from collide2d.events import equations
>>> round(equations.kolafa_rottner(0.5), 4)
4.1064
>>> round(equations.nonsphericity(1.0, 0.5), 6)
1.188827
"""

from __future__ import annotations

import math

import numpy as np


def henderson(eta):
    """Henderson's equation of state of hard disks, ``(1 + eta^2 / 8) / (1 - eta)^2``."""
    return (1.0 + eta * eta / 8.0) / (1.0 - eta) ** 2


# Kolafa and Rottner's fit for the hard-disk fluid (Mol. Phys. 104, 3435, 2006; arXiv:cond-mat/0608356),
# to densities rho sigma^2 <= 0.90: Z = sum C_k x^k with x = eta / (1 - eta). Its expansion in eta
# gives back the virial coefficients of hard disks (tests/apps/test_events.py checks B2 to B5).
KOLAFA_ROTTNER = {0: 1.0, 1: 2.0, 2: 1.12801775, 3: 0.00181895291, 4: -0.0526134737, 5: 0.0504960168,
                  6: -0.0325537792, 7: 0.0134578632, 8: 0.00140888182, 9: -0.00834273601, 10: 0.00694127367,
                  11: -0.00262254723, 12: 0.000355746352, 22: -5.24672938e-9, 57: 5.88054639e-23}


def kolafa_rottner(eta):
    """Kolafa and Rottner's equation of state of hard disks, ``sum C_k x^k``, ``x = eta / (1 - eta)``."""
    x = eta / (1.0 - eta)
    return sum(c * x**k for k, c in KOLAFA_ROTTNER.items())


def nonsphericity(major, minor):
    """``gamma = L^2 / (4 pi A)`` of an ellipse (perimeter ``L``, area ``A``): 1 for a disk."""
    return ellipse_perimeter(major, minor) ** 2 / (4.0 * math.pi * math.pi * major * minor)


def spt_convex(eta, gamma):
    """Scaled-particle theory of 2D hard convex bodies: ``1 / (1 - eta) + gamma eta / (1 - eta)^2``."""
    return 1.0 / (1.0 - eta) + gamma * eta / (1.0 - eta) ** 2


def boublik_convex(eta, gamma):
    """Boublik's equation of state of 2D hard convex bodies,
    ``1 / (1 - eta) + gamma eta (1 + gamma (eta / 7 - eta^2 / 14)) / (1 - eta)^2``."""
    return 1.0 / (1.0 - eta) + gamma * eta * (1.0 + gamma * (eta / 7.0 - eta * eta / 14.0)) / (1.0 - eta) ** 2


def ellipse_perimeter(major, minor):
    """Perimeter of an ellipse with semi-axes ``major`` and ``minor``: the trapezoidal rule on the
    periodic integrand ``sqrt(major^2 sin^2 t + minor^2 cos^2 t)`` (exact to rounding at 512 nodes)."""
    t = np.linspace(0.0, 2.0 * math.pi, 512, endpoint=False)
    return float(np.mean(np.sqrt((major * np.sin(t)) ** 2 + (minor * np.cos(t)) ** 2)) * 2.0 * math.pi)
