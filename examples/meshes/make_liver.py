#!/usr/bin/env python3
"""Writes liver.obj: a closed, liver-like surface for the example scenes (units: m).

Not a scan: a smooth, star-shaped body built from an icosphere, so it is closed, outward-facing and
free of self-intersections by construction. Each unit direction d is moved to r(d) * d with r from a
wedge-shaped ellipsoid: a thick right lobe (x > 0, about 6 cm) tapering to a thin left lobe
(about 3 cm), a flatter underside, and a shallow notch in the front edge. About 17 x 12 x 6.5 cm,
roughly an adult liver at two thirds scale. Run it with any Python 3 (no packages needed):
    python3 make_liver.py [SUBDIVISIONS]   (default 4: 2,562 vertices, 5,120 triangles)
"""
import math
import os
import sys


def icosphere(subdivisions):
    t = (1.0 + math.sqrt(5.0)) / 2.0
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
             (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    verts = [normalise(v) for v in verts]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
             (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        midpoint = {}

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoint:
                va, vb = verts[a], verts[b]
                verts.append(normalise(((va[0] + vb[0]) / 2, (va[1] + vb[1]) / 2, (va[2] + vb[2]) / 2)))
                midpoint[key] = len(verts) - 1
            return midpoint[key]

        refined = []
        for a, b, c in faces:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            refined += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = refined
    return verts, faces


def normalise(v):
    n = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    return (v[0] / n, v[1] / n, v[2] / n)


def radius(d):
    """Distance (m) from the centre to the surface along unit direction d = (x, y, z); z is up."""
    x, y, z = d
    # Half-thickness in z tapers from the right lobe (x = +1) to the left (x = -1); the underside is flatter.
    half_z = 0.045 * (0.35 + 0.65 * (0.5 + 0.5 * x) ** 0.8)
    if z < 0.0:
        half_z *= 0.7
    a, b = 0.085, 0.06  # half-length (x) and half-depth (y)
    r = 1.0 / math.sqrt((x / a) ** 2 + (y / b) ** 2 + (z / half_z) ** 2)
    # A shallow notch in the front edge (y < 0) a little left of the middle.
    notch = math.exp(-(((x + 0.15) / 0.12) ** 2) - ((y + 1.0) / 0.35) ** 2)
    return r * (1.0 - 0.18 * notch)


def main():
    subdivisions = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    verts, faces = icosphere(subdivisions)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "liver.obj")
    with open(path, "w") as out:
        out.write("# liver-like closed surface for Pliant's examples (made by make_liver.py; units: m)\n")
        for v in verts:
            r = radius(v)
            out.write("v {:.6f} {:.6f} {:.6f}\n".format(r * v[0], r * v[1], r * v[2]))
        for a, b, c in faces:
            out.write("f {} {} {}\n".format(a + 1, b + 1, c + 1))
    print("wrote {}: {} vertices, {} triangles".format(path, len(verts), len(faces)))


if __name__ == "__main__":
    main()
