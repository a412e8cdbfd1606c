"""Render docs/img/motion.png (docs/motion.md): a translating pair and the spinning needle, each at its time of impact.

Usage: MPLBACKEND=Agg .venv/bin/python tools/render_motion.py
"""
import math
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import collide2d as c2
from collide2d.plotting import _patch

fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
# left: an ellipse and a rotated box moving on straight lines
ax = axes[0]
a = c2.Ellipse((0, 0), (2.0, 0.6), 0.4)
b = c2.RotatedBox((7, 2.5), (0.8, 0.4), 0.9)
va, vb = (1.0, 0.3), (-4.0, -1.5)
hit = c2.time_of_impact(a, b, va, vb, t_max=2.0)
for s, v, color in ((a, va, "tab:blue"), (b, vb, "tab:orange")):
    for t in np.linspace(0, hit.time, 5)[:-1]:
        ax.add_patch(_patch(c2.translate(s, np.multiply(v, t)), facecolor="none", edgecolor=color, alpha=0.35, linewidth=1))
    ax.add_patch(_patch(c2.translate(s, np.multiply(v, hit.time)), facecolor=color, edgecolor=color, alpha=0.5))
    ref = c2.motion.reference_points(s)[0]
    ax.annotate("", xy=ref + np.multiply(v, hit.time), xytext=ref, arrowprops=dict(arrowstyle="->", color=color))
ax.plot(*hit.point, "k.", markersize=8)
ax.annotate("", xy=hit.point + 1.2 * hit.normal, xytext=hit.point, arrowprops=dict(arrowstyle="->", color="k"))
ax.set_title(f"translation: first contact at t = {hit.time:.12f}", fontsize=10)
ax.set_aspect("equal"); ax.set_xlim(-2.5, 8.5); ax.set_ylim(-2, 4)
# right: the needle spinning at 40 rad per unit time, a disc at distance 4
ax = axes[1]
needle, disc = c2.Ellipse((0, 0), (5, 0.01)), c2.Circle((0, 4), 0.05)
hit = c2.time_of_impact(needle, disc, angular_velocity_a=40.0)
for t in np.linspace(0, hit.time, 7)[:-1]:
    ax.add_patch(_patch(c2.rotate(needle, 40.0 * t), facecolor="none", edgecolor="tab:blue", alpha=0.35, linewidth=1))
ax.add_patch(_patch(c2.rotate(needle, 40.0 * hit.time), facecolor="tab:blue", edgecolor="tab:blue", alpha=0.6))
ax.add_patch(_patch(disc, facecolor="tab:orange", edgecolor="tab:orange"))
ax.plot(*hit.point, "k.", markersize=6)
ax.set_title(f"needle (5, 0.01) at 40 rad/t against a disc r = 0.05: t = {hit.time:.10f}", fontsize=10)
ax.set_aspect("equal"); ax.set_xlim(-5.5, 5.5); ax.set_ylim(-5.5, 5.5)
inset = ax.inset_axes([0.62, 0.04, 0.35, 0.35])
inset.add_patch(_patch(c2.rotate(needle, 40.0 * hit.time), facecolor="tab:blue", edgecolor="tab:blue", alpha=0.6))
inset.add_patch(_patch(disc, facecolor="tab:orange", edgecolor="tab:orange"))
inset.plot(*hit.point, "k.", markersize=6)
inset.set_xlim(hit.point[0] - 0.15, hit.point[0] + 0.15); inset.set_ylim(hit.point[1] - 0.15, hit.point[1] + 0.15)
inset.set_aspect("equal"); inset.set_xticks([]); inset.set_yticks([])
fig.tight_layout()
fig.savefig("docs/img/motion.png", dpi=110)
