"""Compare mass-spring methods on Grimm's (2005) Table 2.1 membrane: steps until it settles.

The 1403-node disc with its rim fixed is pulled 12.5 mm out of its plane at the centre; each method
runs until the largest per-step node motion falls below 1e-3 of the mesh size (2.66 mm), the thesis'
"strong slowdown". Every method gets the same springs (k = 200 N/m, c = 0.06 N·s/m, mass damping
1000 1/s, 178.7 kg/m², about 1 g per node, strings at most 1.2 × their rest length); the dynamic ones
substep at the body's default, 0.9 × the explicit stable step, inside 1 ms world steps. Prints a table
and plots the convergence histories (matplotlib when installed: Debian's python3-matplotlib).
Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/compare_membrane_methods.py
"""

import argparse
import pathlib

import numpy as np

import pliant

MESH_SIZE = 2.66e-3  # m, the thesis' mean edge length
METHODS = ["mass_spring", "lr_mass_spring", "length_correction_mass_spring", "dragnet_mass_spring", "provot",
           "dragnet"]


def membrane(method):
    return {
        "pliant": 1,
        "name": method,
        "time_step": 0.001,
        "bodies": [
            {
                "name": "membrane",
                "family": "springs",
                "mesh": {"shape": "disc", "radius": 0.05, "nodes": 1403, "boundary_nodes": 140},
                "fixed": ["nodes:1263-1402"],
                "springs": {"method": method, "stiffness": 200, "damping": 0.06,
                            "mass_damping": 1000, "mass_density": 178.7, "max_stretch": 1.2},
            }
        ],
    }


def settle(method, max_steps):
    world = pliant.scene_from_dict(membrane(method)).world
    hit = world.pick(origin=[0.0, 0.0, 0.1], direction=[0.0, 0.0, -1.0])
    body = world.body(0)
    grab = body.grab_patch(hit["point"], radius=0.0)
    body.move_grab(grab, hit["position"] + [0.0, 0.0, 0.0125])
    x = body.surface_positions  # a view: it follows the steps
    previous = x.copy()
    history = []
    for _ in range(max_steps):
        world.step()
        motion = np.linalg.norm(x - previous, axis=1).max() / MESH_SIZE
        history.append(motion)
        previous[:] = x
        if motion < 1e-3:
            break
    return np.array(history)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/compare_membrane_methods", help="output directory (default: %(default)s)")
    parser.add_argument("--max-steps", type=int, default=2000, help="give up after this many steps (default: %(default)s)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    results = {m: settle(m, args.max_steps) for m in METHODS}
    print(f"{'method':32} {'steps to 1e-3':>14}")
    for m, h in results.items():
        settled = h[-1] < 1e-3
        print(f"{m:32} {len(h) if settled else '> ' + str(len(h)):>14}")
    if not all(h[-1] < 1e-3 for h in results.values()):
        raise SystemExit("a method did not settle")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (apt-get install python3-matplotlib): no plot")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for m, h in results.items():
        ax.semilogy(np.arange(1, len(h) + 1), h, label=m)
    ax.axhline(1e-3, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_ylim(1e-5, None)
    ax.set_xlabel("world step (1 ms)")
    ax.set_ylabel("largest node motion per step / mesh size")
    ax.set_title("Grimm (2005) Table 2.1 membrane, centre pulled 12.5 mm")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "convergence.png", dpi=100)
    print(f"wrote {out / 'convergence.png'}")


if __name__ == "__main__":
    main()
