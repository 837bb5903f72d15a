#!/usr/bin/python3
"""Plots `pliant bench impact --json FILE`: worst and mean frame time against target size, one line
per method and projectile (scale part, the smaller falloff radius for point projectiles).

Usage: /usr/bin/python3 bench/impact/plot_impact.py FILE.json docs/images/impact_frames.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    runs = json.load(open(src))["runs"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    series = {}
    for r in runs:
        if r["part"] != "scale":
            continue
        if r["projectile"] == "point" and r["falloff_radius_m"] > 0.05:
            continue
        label = r["method"] + (" point" if r["projectile"] == "point" else " mesh %d tri" % r["projectile_triangles"])
        series.setdefault(label, []).append(r)
    styles = {"brute_force": ":", "octree": "--", "bvh_grid": "-"}
    for label, rows in sorted(series.items()):
        rows.sort(key=lambda r: r["triangles"])
        x = [r["triangles"] for r in rows]
        for ax, key in zip(axes, ("worst_frame_ms", "mean_frame_ms")):
            ax.plot(x, [r[key] for r in rows], styles[rows[0]["method"]], marker="o", label=label)
    for ax, title in zip(axes, ("worst frame", "mean frame")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axhline(16.0, color="grey", linewidth=0.8)
        ax.set_xlabel("target triangles")
        ax.set_title(title + " (ms; grey: 16 ms)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ms")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
