"""Overhead of driving Pliant from Python: a Python step loop against the same loop in C++.

For each scene, `world.run(n)` (the loop in C++) and `for _ in range(n): world.step()` (the loop in
Python) alternate, several rounds each, and the medians are compared; the grab test times a
`move_grab` + `reaction` pair per iteration, a loop of which in C++ costs well under 0.1 µs, so the
figure is the Python overhead. Scenes: the silicone pipe of `pliant demo` (Green's functions, 7872
nodes, a soft grab dragged) and Grimm's (2005) Table 2.1 membrane (1403 nodes, Dragnet mass-spring).
Writes JSON. Run: ./dev python bench/python/step_overhead.py [--quick] [--json FILE]
"""

import argparse
import json
import pathlib
import platform
import statistics
import time

import numpy as np

import pliant

ROOT = pathlib.Path(__file__).resolve().parents[2]

MEMBRANE = {
    "name": "membrane",
    "family": "springs",
    "mesh": {"shape": "disc", "radius": 0.05, "nodes": 1403, "boundary_nodes": 140},
    "fixed": ["nodes:1263-1402"],
    "springs": {"method": "dragnet_mass_spring", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                "mass_density": 180, "max_stretch": 1.3},
}


def pipe_world(quick):
    spec = {
        "name": "pipe",
        "family": "green",
        "mesh": {"shape": "tube", "segments_around": 16, "segments_along": 10, "segments_through": 1}
        if quick
        else {"shape": "tube"},
        "material": {"preset": "ecoflex_00_30"},
        "fixed": ["zmin"],
        "green": {"rotation_correction": True},
    }
    world = pliant.World(time_step=1 / 60)
    world.add_body(spec)
    return world


def membrane_world():
    world = pliant.World(time_step=0.01)
    world.add_body(MEMBRANE)
    return world


def grab_free_end(world, origin, direction):
    hit = world.pick(origin, direction)
    body = world.body(hit["body"])
    grab = body.grab_patch(hit["point"], radius=-1.0)
    return body, grab, hit["position"].copy()


def time_loops(world, body, grab, start, steps, rounds):
    """Median ms per step of the C++ loop and of the Python loop, the grab moving between rounds."""
    cpp, py = [], []
    for r in range(rounds):
        body.move_grab(grab, start + [0.002 * (r % 5), 0.0, 0.0])
        t = time.perf_counter()
        world.run(steps)
        cpp.append((time.perf_counter() - t) / steps * 1e3)
        body.move_grab(grab, start + [0.002 * ((r + 1) % 5), 0.0, 0.0])
        step = world.step
        t = time.perf_counter()
        for _ in range(steps):
            step()
        py.append((time.perf_counter() - t) / steps * 1e3)
    return statistics.median(cpp), statistics.median(py)


def time_grab_calls(body, grab, start, calls):
    target = start + [0.001, 0.0, 0.0]
    move, reaction = body.move_grab, body.reaction
    t = time.perf_counter()
    for _ in range(calls):
        move(grab, target)
        reaction(grab)
    return (time.perf_counter() - t) / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke run: small pipe, few steps")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    steps, rounds, calls = (5, 3, 2000) if args.quick else (100, 21, 200000)

    runs = []
    for name, make, ray in (
        ("green_pipe", lambda: pipe_world(args.quick), ([0.1, 0.0, 1.0], [0.0, 0.0, -1.0])),
        ("membrane_table_2_1", membrane_world, ([0.0, 0.0, 0.1], [0.0, 0.0, -1.0])),
    ):
        world = make()
        body, grab, start = grab_free_end(world, *ray)
        world.run(3)  # warm-up
        cpp_ms, py_ms = time_loops(world, body, grab, start, steps, rounds)
        grab_us = time_grab_calls(body, grab, start, calls)
        runs.append({"scene": name, "surface_nodes": int(len(body.surface_positions)), "cpp_loop_ms_per_step": cpp_ms,
                     "python_loop_ms_per_step": py_ms, "overhead_percent": 100.0 * (py_ms - cpp_ms) / cpp_ms,
                     "grab_move_and_reaction_us": grab_us})
    print(f"{'scene':22} {'nodes':>6} {'C++ loop ms':>12} {'Python loop ms':>15} {'overhead':>9} {'move+reaction':>14}")
    for r in runs:
        print(f"{r['scene']:22} {r['surface_nodes']:>6} {r['cpp_loop_ms_per_step']:>12.4f} "
              f"{r['python_loop_ms_per_step']:>15.4f} {r['overhead_percent']:>8.2f}% "
              f"{r['grab_move_and_reaction_us']:>11.3f} µs")
    if args.json:
        result = {"machine": {"cpu": platform.processor() or platform.machine(), "python": platform.python_version(),
                              "numpy": np.__version__},
                  "quick": args.quick, "runs": runs}
        pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
