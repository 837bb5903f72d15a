"""Drag a clamped beam with the virtual ray and read the reaction a haptic device would render.

The README's scene-layer example in Python: load a scene, pick the beam's surface with a ray from
above, grab that point, move it 1 cm up, step, and read the force on the hand. The deformed surface is
written as OBJ. Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/drag_beam.py
"""

import argparse
import pathlib

import numpy as np

import pliant

HERE = pathlib.Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/drag_beam", help="output directory (default: %(default)s)")
    args = parser.parse_args()

    scene = pliant.load_scene(HERE.parent / "scenes" / "beam_probe.json")  # errors name the JSON path
    world = scene.world
    hit = world.pick(origin=[0.25, 0.0, 0.5], direction=[0.0, 0.0, -1.0])  # from above, looking down
    if hit is None:
        raise SystemExit("the ray missed the beam")
    body = world.body(hit["body"])
    grab = body.grab(hit["point"])  # hold that surface point (a soft patch)...
    body.move_grab(grab, hit["position"] + [0.0, 0.0, 0.01])  # ...and move it 1 cm up (m)
    world.step()
    felt = body.reaction(grab)  # force on the hand (N)
    print(f"reaction {np.linalg.norm(felt):.3f} N  (x {felt[0]:+.4f}, y {felt[1]:+.4f}, z {felt[2]:+.4f})")

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    surface = pliant.TriMesh(body.surface_positions, body.surface_triangles)  # copies the views
    pliant.write_mesh(out / "beam_dragged.obj", surface)
    print(f"wrote {out / 'beam_dragged.obj'}")


if __name__ == "__main__":
    main()
