#!/usr/bin/env python3
"""Run `pliant mesh` on every surface in a folder and tabulate what became of each.

Usage: bench/python/mesh_corpus.py [--pliant PATH] [--timeout S] [--json OUT] [--] FOLDER [EXTRA MESH ARGS...]

For each .obj/.stl/.ply/.off file: filled or refused (with pliant's reason), the smallest dihedral
angle of the tets (degrees), the number of tets whose smallest dihedral angle is under 10 degrees (read
back from the written VTU with meshio, independently of pliant's own quality line) and the wall time in
seconds; in the JSON rows also how far sliding surface nodes moved the boundary from the input (m, and
its bound) and the volume change (percent), from pliant's own slide line. The meshes themselves are not part of the repository: gather them as docs/meshing.md says.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np


def dihedral_min_deg(points, tets):
    """Smallest dihedral angle of each tet (degrees), from the face normals."""
    p = points[tets]  # (n, 4, 3)
    faces = [(1, 2, 3), (0, 3, 2), (0, 1, 3), (0, 2, 1)]
    normals = []
    for a, b, c in faces:
        n = np.cross(p[:, b] - p[:, a], p[:, c] - p[:, a])
        normals.append(n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300))
    worst = np.full(len(tets), 180.0)
    for i in range(4):
        for j in range(i + 1, 4):
            # Interior dihedral angle between faces i and j is pi minus the angle of their normals
            # when both normals point the same way (both outward or both inward).
            cos = np.clip(np.einsum("ij,ij->i", normals[i], normals[j]), -1.0, 1.0)
            angle = 180.0 - np.degrees(np.arccos(cos))
            worst = np.minimum(worst, angle)
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pliant", default=os.path.join(os.path.dirname(__file__), "..", "..", "pliant"))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per surface")
    parser.add_argument("--json", help="also write the rows as JSON here")
    parser.add_argument("folder")
    parser.add_argument("extra", nargs=argparse.REMAINDER, help="more `pliant mesh` arguments")
    args = parser.parse_args()
    try:
        import meshio
    except ImportError:
        sys.exit("mesh_corpus.py: needs meshio (Debian: python3-meshio)")

    files = sorted(f for f in os.listdir(args.folder) if f.lower().endswith((".obj", ".stl", ".ply", ".off")))
    if not files:
        sys.exit(f"mesh_corpus.py: no .obj/.stl/.ply/.off file in {args.folder}")
    rows = []
    print(f"{'surface':34} {'result':10} {'min dih°':>9} {'<10°':>6} {'tets':>8} {'s':>7}  note")
    with tempfile.TemporaryDirectory() as tmp:
        for name in files:
            out = os.path.join(tmp, "out.vtu")
            if os.path.exists(out):
                os.remove(out)
            cmd = [args.pliant, "mesh", os.path.join(args.folder, name), "-o", out] + args.extra
            start = time.monotonic()
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                code, text = run.returncode, run.stdout + run.stderr
            except subprocess.TimeoutExpired:
                code, text = None, f"timed out after {args.timeout:g} s"
            seconds = time.monotonic() - start
            row = {"surface": name, "seconds": round(seconds, 2)}
            if code == 0 and os.path.exists(out):
                mesh = meshio.read(out)
                tets = mesh.cells_dict["tetra"]
                angles = dihedral_min_deg(mesh.points, tets)
                row.update(result="filled", min_dihedral_deg=float(angles.min()),
                           under_10=int((angles < 10.0).sum()), tets=int(len(tets)))
                notes = [l for l in text.splitlines() if l.startswith(("notice", "warning", "repair"))]
                row["note"] = "; ".join(notes)
                # The sliver pass's slide line: how far the boundary moved from the input, and the volume.
                slid = re.search(r"within ([-0-9.e+]+) m of the input \(each slide bounded by ([-0-9.e+]+) m.*"
                                 r"volume ([-+0-9.e]+)%", text)
                if slid:
                    row.update(slide_distance_m=float(slid.group(1)), slide_bound_m=float(slid.group(2)),
                               slide_volume_percent=float(slid.group(3)))
            else:
                lines = [l for l in text.splitlines() if l.strip()]
                row.update(result="refused", note=lines[-1] if lines else f"exit {code}")
            rows.append(row)
            dih = f"{row['min_dihedral_deg']:9.2f}" if "min_dihedral_deg" in row else f"{'-':>9}"
            under = f"{row['under_10']:6d}" if "under_10" in row else f"{'-':>6}"
            tets = f"{row['tets']:8d}" if "tets" in row else f"{'-':>8}"
            print(f"{name:34} {row['result']:10} {dih} {under} {tets} {seconds:7.2f}  {row['note'][:160]}",
                  flush=True)
    filled = [r for r in rows if r["result"] == "filled"]
    good = [r for r in filled if r["min_dihedral_deg"] >= 10.0]
    print(f"filled {len(filled)} of {len(rows)}; {len(good)} with a minimum dihedral angle ≥ 10°")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
