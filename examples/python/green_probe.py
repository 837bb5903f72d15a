"""Probe a Green's-function beam: force against displacement at its free end.

A Green body (Nikitina et al. 2003) is linear elastic: the reaction at a grab grows in proportion to
the grab's displacement, with the grab's compliance as the slope. This script pushes the free end down
in 1 mm steps, records the reaction, checks it against the compliance the body reports, and plots
force against displacement (matplotlib, when installed: Debian's python3-matplotlib).
Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/green_probe.py
"""

import argparse
import pathlib

import numpy as np

import pliant

BEAM = {
    "pliant": 1,
    "name": "probe",
    "time_step": 0.01,
    "bodies": [
        {
            "name": "beam",
            "family": "green",
            "mesh": {"shape": "box", "origin": [0, -0.02, -0.02], "size": [0.3, 0.04, 0.04], "cells": [15, 2, 2]},
            "material": {"preset": "rubber"},
            "fixed": ["xmin"],
        }
    ],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/green_probe", help="output directory (default: %(default)s)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    world = pliant.scene_from_dict(BEAM).world
    hit = world.pick(origin=[0.3, 0.0, 0.5], direction=[0.0, 0.0, -1.0])
    body = world.body(hit["body"])
    grab = body.grab_patch(hit["point"], radius=0.0)  # a single node: the compliance is exact there
    start = hit["position"].copy()
    depth = np.linspace(0.0, 0.01, 11)  # m
    force = []
    for d in depth:
        body.move_grab(grab, start - [0.0, 0.0, d])
        world.step()
        force.append(body.reaction(grab)[2])  # the beam pushes back up: the push the hand feels (N)
    force = np.array(force)
    slope = np.polyfit(depth, force, 1)[0]
    # The compliance's zz entry is displacement per force at the grab; its inverse is the stiffness only
    # for a 1-D pull. The grab holds all three components, so compare with the full 3x3 inverse.
    stiffness = np.linalg.inv(body.compliance(grab))[2, 2]
    print(f"stiffness from the probe {slope:.2f} N/m, from the compliance {stiffness:.2f} N/m")
    if not np.isclose(slope, stiffness, rtol=1e-3):
        raise SystemExit("the probe's slope disagrees with the compliance")
    np.savetxt(out / "force_displacement.csv", np.column_stack([depth, force]), delimiter=",",
               header="displacement_m,force_n", comments="")
    print(f"wrote {out / 'force_displacement.csv'}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (apt-get install python3-matplotlib): no plot")
        return
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(depth * 1e3, force, "o-", label="probe")
    ax.plot(depth * 1e3, stiffness * depth, "--", label="compliance⁻¹ · displacement")
    ax.set_xlabel("push depth (mm)")
    ax.set_ylabel("force (N)")
    ax.set_title("Green's-function beam (rubber), free end")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "force_displacement.png", dpi=100)
    print(f"wrote {out / 'force_displacement.png'}")


if __name__ == "__main__":
    main()
