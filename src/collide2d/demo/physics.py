"""The demo's physics mode: soft contact forces from :func:`collide2d.contact` (:class:`Physics`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from collide2d.demo.world import BOX


# -- physics --------------------------------------------------------------------------------------


def hertz(depth, radius, stiffness):
    """Hertz's normal force between elastic bodies: ``stiffness * sqrt(radius) * depth**1.5``.

    ``radius`` is the effective radius ``1 / (curvature_a + curvature_b)`` at the contact.
    """
    return stiffness * np.sqrt(radius) * depth**1.5


@dataclass
class Physics:
    """Soft contact between overlapping shapes, from :func:`collide2d.measurement.contact`.

    For each colliding pair the force on ``b`` is ``F n`` and on ``a`` ``-F n``, applied at the
    middle of the two witness points, with ``F = max(law(d, R) - damping * m_ab * v_n, 0)``:
    ``d`` the penetration depth (``-separation``, capped at ``max_depth`` times the smaller
    shape's size so that shapes dropped deep into each other part gently), ``n`` the normal, ``R`` the effective radius
    ``1 / (curvature_a + curvature_b)`` (clipped to ``[0.2, 2]`` times the smaller shape's size,
    so that corners (infinite curvature) and flat faces (zero) still push), ``m_ab`` the reduced
    mass and ``v_n`` the normal speed at which the pair closes. The dashpot keeps the energy
    bounded: collisions lose a little, never gain. As a last guard, speeds are capped at
    ``max_speed`` times the world's size scale per second.
    """

    stiffness: float = 0.0  # 0: chosen from the world's scale
    damping: float = 1.5  # 1/s
    max_speed: float = 40.0  # in world.scale per second
    max_depth: float = 0.25  # depths beyond this fraction of the smaller size push no harder
    law: object = hertz

    def forces(self, world, pairs, contacts, frozen=()):
        """Per-shape forces (n, 2), torques (n,) and the elastic energy stored in the contacts."""
        n = len(world)
        force, torque = np.zeros((n, 2)), np.zeros(n)
        if len(pairs) == 0:
            return force, torque, 0.0
        stiffness = self.stiffness or 4000.0 * world.scale
        m, inertia = world.mass_and_inertia()
        m = m.copy()
        m[list(frozen)] = np.inf
        i, j = pairs[:, 0], pairs[:, 1]
        depth = np.maximum(-contacts["separation"], 0.0)
        char = np.sqrt(np.maximum(world.size[:, 0] * np.maximum(world.size[:, 1], 0.25 * world.scale), 1e-12))
        small = np.minimum(char[i], char[j])
        with np.errstate(divide="ignore"):
            radius = 1.0 / (contacts["curvature_a"] + contacts["curvature_b"])
        radius = np.clip(np.nan_to_num(radius, nan=small, posinf=2 * small), 0.2 * small, 2 * small)
        full_depth = depth
        depth = np.minimum(depth, self.max_depth * small)  # a bounded push however deep the overlap
        normal = contacts["normal"]
        point = 0.5 * (contacts["point_a"] + contacts["point_b"])
        ra, rb = point - world.pos[i], point - world.pos[j]
        omega = np.where(world.kind == BOX, 0.0, world.omega)
        va = world.vel[i] + omega[i, None] * np.stack([-ra[:, 1], ra[:, 0]], axis=-1)
        vb = world.vel[j] + omega[j, None] * np.stack([-rb[:, 1], rb[:, 0]], axis=-1)
        closing = np.sum((vb - va) * normal, axis=1)  # negative when they approach
        with np.errstate(invalid="ignore"):
            reduced = np.where(np.isinf(m[i]), m[j], np.where(np.isinf(m[j]), m[i], m[i] * m[j] / (m[i] + m[j])))
        magnitude = np.maximum(self.law(depth, radius, stiffness) - self.damping * reduced * closing, 0.0)
        fb = magnitude[:, None] * normal
        np.add.at(force, j, fb)
        np.add.at(force, i, -fb)
        np.add.at(torque, j, rb[:, 0] * fb[:, 1] - rb[:, 1] * fb[:, 0])
        np.add.at(torque, i, -(ra[:, 0] * fb[:, 1] - ra[:, 1] * fb[:, 0]))
        # the work that pushing the pair out to no overlap gives back: Hertz's law integrated up
        # to the capped depth, then the capped force over the rest
        hertz_force = stiffness * np.sqrt(radius) * depth**1.5
        energy = float(np.sum(0.4 * hertz_force * depth + hertz_force * (full_depth - depth)))
        return force, torque, energy

    def cap(self, world):
        """Cap speeds at ``max_speed * world.scale`` (and spins at 20 rad/s)."""
        limit = self.max_speed * world.scale
        speed = np.linalg.norm(world.vel, axis=1)
        too_fast = speed > limit
        world.vel[too_fast] *= (limit / speed[too_fast])[:, None]
        np.clip(world.omega, -20.0, 20.0, out=world.omega)
