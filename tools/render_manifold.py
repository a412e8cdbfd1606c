"""Render docs/img/manifold.png (docs/contact.md): contact manifolds of three flat pairs.

Usage: MPLBACKEND=Agg .venv/bin/python tools/render_manifold.py
"""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import collide2d as c2
from collide2d.plotting import _patch

cases = [
    ("box resting on a box: 2 points", c2.Box((-3, -1), (3, 0)), c2.Box((-0.5, -0.1), (1.5, 1.2))),
    ("tilted box: 1 penetrating + 1 speculative", c2.Box((-3, -1), (3, 0)), c2.RotatedBox((0.3, 0.62), (1.2, 0.6), 0.12)),
    ("long face clipped to the side planes", c2.Polygon([(-1.2, -1), (1.0, -1.1), (1.1, 0.05), (-1.1, 0.0)]),
     c2.RotatedBox((0.2, 0.3), (2.0, 0.4), -0.06)),
]
fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
for ax, (title, a, b) in zip(axes, cases):
    m = c2.contact_manifold(a, b)
    c = c2.contact(a, b)
    ax.add_patch(_patch(a, facecolor="tab:blue", edgecolor="tab:blue", alpha=0.35))
    ax.add_patch(_patch(b, facecolor="tab:orange", edgecolor="tab:orange", alpha=0.35))
    for k in range(m.count):
        pa, pb = m.points_a[k], m.points_b[k]
        ax.plot(*pa, "o", color="tab:blue", markersize=6)
        ax.plot(*pb, "o", color="tab:orange", markersize=6)
        ax.plot([pa[0], pb[0]], [pa[1], pb[1]], "k-", linewidth=1)
        ax.annotate(f"{m.separations[k]:+.3f}", pb, textcoords="offset points", xytext=(6, 6 if k else -14), fontsize=9)
        ax.annotate("", xy=pa + 0.6 * m.normal, xytext=pa, arrowprops=dict(arrowstyle="->", color="tab:green"))
    ax.plot(*c.point_a, "kx", markersize=9, label="contact: one point")
    ax.set_title(f"{title}\ncount {m.count}, normal ({m.normal[0]:.2f}, {m.normal[1]:.2f})", fontsize=10)
    if "clipped" in title:  # the reference face's side planes
        for x in (-1.1, 1.1):
            ax.axvline(x, color="gray", linestyle=":", linewidth=1)
    ax.set_aspect("equal"); ax.set_xlim(-2.6, 2.6); ax.set_ylim(-1.3, 1.9)
axes[0].legend(loc="upper left", fontsize=8)
fig.tight_layout()
fig.savefig("docs/img/manifold.png", dpi=100)
