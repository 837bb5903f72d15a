#!/usr/bin/env python3
"""Writes the small good meshes of tests/data/meshes/ (re-run after editing; deterministic).

A 2 x 1 x 0.5 m box split into 5 tetrahedra (volume 1 m^3, surface area 7 m^2) in each volume
format, and its 12-triangle surface (closed, outward) in each surface format. tests/cli checks
`pliant info --json` on each against these numbers (good.txt).
"""
import base64
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
P = [(x * 2.0, y * 1.0, z * 0.5) for z in (0, 1) for y in (0, 1) for x in (0, 1)]  # node i: x=i&1, y=i>>1&1, z=i>>2
TETS = [(0, 1, 2, 4), (1, 3, 2, 7), (1, 4, 5, 7), (2, 4, 7, 6), (1, 2, 4, 7)]
# outward triangles of the box
TRIS = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4),
        (2, 6, 3), (3, 6, 7), (0, 4, 2), (2, 4, 6), (1, 3, 5), (3, 7, 5)]


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def g(v):
    return repr(float(v))


write("box.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n8\n"
      + "".join(f"{i + 1} {g(x)} {g(y)} {g(z)}\n" for i, (x, y, z) in enumerate(P)) + "$EndNodes\n$Elements\n"
      + f"{len(TETS)}\n" + "".join(f"{i + 1} 4 2 1 1 " + " ".join(str(v + 1) for v in t) + "\n" for i, t in enumerate(TETS))
      + "$EndElements\n")

o = b"$MeshFormat\n4.1 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n$Nodes\n" + struct.pack("<4Q", 1, 8, 1, 8)
o += struct.pack("<iiiQ", 3, 1, 0, 8) + struct.pack("<8Q", *range(1, 9))
for p in P:
    o += struct.pack("<3d", *p)
o += b"\n$EndNodes\n$Elements\n" + struct.pack("<4Q", 1, 5, 1, 5) + struct.pack("<iiiQ", 3, 1, 4, 5)
for i, t in enumerate(TETS):
    o += struct.pack("<5Q", i + 1, *(v + 1 for v in t))
write("box_binary41.msh", o + b"\n$EndElements\n")

write("box.node", "# box\n8 3 0 0\n" + "".join(f"{i} {g(x)} {g(y)} {g(z)}\n" for i, (x, y, z) in enumerate(P)))
write("box.ele", f"{len(TETS)} 4 0\n" + "".join(f"{i} " + " ".join(map(str, t)) + "\n" for i, t in enumerate(TETS)))

write("box.vtk", "# vtk DataFile Version 3.0\nbox\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 double\n"
      + "".join(f"{g(x)} {g(y)} {g(z)}\n" for x, y, z in P) + f"CELLS {len(TETS)} {5 * len(TETS)}\n"
      + "".join("4 " + " ".join(map(str, t)) + "\n" for t in TETS) + f"CELL_TYPES {len(TETS)}\n" + "10\n" * len(TETS))

conn = " ".join(str(v) for t in TETS for v in t)
offs = " ".join(str(4 * (i + 1)) for i in range(len(TETS)))
write("box.vtu", '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian">\n'
      f'<UnstructuredGrid>\n<Piece NumberOfPoints="8" NumberOfCells="{len(TETS)}">\n<Points>\n'
      '<DataArray type="Float64" NumberOfComponents="3" format="ascii">\n'
      + " ".join(f"{g(x)} {g(y)} {g(z)}" for x, y, z in P) + "\n</DataArray>\n</Points>\n<Cells>\n"
      f'<DataArray type="Int32" Name="connectivity" format="ascii">{conn}</DataArray>\n'
      f'<DataArray type="Int32" Name="offsets" format="ascii">{offs}</DataArray>\n'
      f'<DataArray type="UInt8" Name="types" format="ascii">{" ".join(["10"] * len(TETS))}</DataArray>\n'
      "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n")

write("box_surface.obj", "# box surface, one quad per face\n" + "".join(f"v {g(x)} {g(y)} {g(z)}\n" for x, y, z in P)
      + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n")


def normal(t):
    a, b, c = (P[i] for i in t)
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = sum(x * x for x in n) ** 0.5
    return [x / length for x in n]


s = "solid box\n"
for t in TRIS:
    s += "facet normal " + " ".join(map(g, normal(t))) + "\n outer loop\n"
    s += "".join("  vertex " + " ".join(map(g, P[i])) + "\n" for i in t) + " endloop\nendfacet\n"
write("box_surface_ascii.stl", s + "endsolid box\n")
b = b"binary box".ljust(80, b"\0") + struct.pack("<I", len(TRIS))
for t in TRIS:
    b += struct.pack("<3f", *normal(t)) + b"".join(struct.pack("<3f", *P[i]) for i in t) + b"\0\0"
write("box_surface_binary.stl", b)

# Gmsh format 1 ($NOD/$ELM), as in many of SOFA's meshes; a point element that is ignored.
write("box_format1.msh", "$NOD\n8\n" + "".join(f"{i + 1} {g(x)} {g(y)} {g(z)}\n" for i, (x, y, z) in enumerate(P))
      + f"$ENDNOD\n$ELM\n{len(TETS) + 1}\n1 15 0 1 1 1\n"
      + "".join(f"{i + 2} 4 1 1 4 " + " ".join(str(v + 1) for v in t) + "\n" for i, t in enumerate(TETS)) + "$ENDELM\n")

# MEDIT .mesh: the tets (with references), and the surface as quadrilaterals.
QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
MEDIT_HEAD = "MeshVersionFormatted 2\n# box\nDimension 3\nVertices\n8\n" + "".join(
    f"{g(x)} {g(y)} {g(z)} 0\n" for x, y, z in P)
write("box.mesh", MEDIT_HEAD + f"Tetrahedra\n{len(TETS)}\n" + "".join(" ".join(str(v + 1) for v in t) + " 1\n" for t in TETS)
      + "End\n")
write("box_surface_quads.mesh", MEDIT_HEAD + "Quadrilaterals\n6\n" + "".join(" ".join(str(v + 1) for v in q) + " 3\n" for q in QUADS)
      + "Corners\n1\n1\nEnd\n")

# OFF with vertex and face colours and quads; PLY ASCII with an extra vertex property; PLY binary big
# endian with float coordinates and uint indices.
write("box_surface.off", "COFF\n# box\n8 6 12\n" + "".join(f"{g(x)} {g(y)} {g(z)} 1 0 0 1\n" for x, y, z in P)
      + "".join("4 " + " ".join(map(str, q)) + " 0 0 255\n" for q in QUADS))
write("box_surface_ascii.ply", "ply\nformat ascii 1.0\ncomment box\nelement vertex 8\nproperty double x\n"
      "property double y\nproperty double z\nproperty uchar red\nelement face 6\n"
      "property list uchar int vertex_indices\nend_header\n" + "".join(f"{g(x)} {g(y)} {g(z)} 9\n" for x, y, z in P)
      + "".join("4 " + " ".join(map(str, q)) + "\n" for q in QUADS))
b = (b"ply\nformat binary_big_endian 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
     b"element face 12\nproperty list uchar uint vertex_indices\nend_header\n")
for p in P:
    b += struct.pack(">3f", *p)
for t in TRIS:
    b += struct.pack(">B3I", 3, *t)
write("box_surface_binary_be.ply", b)

# Old Mac line endings (lone CR).
write("box_surface_cr.obj", ("# box surface, CR line ends\n" + "".join(f"v {g(x)} {g(y)} {g(z)}\n" for x, y, z in P)
      + "".join("f " + " ".join(str(v + 1) for v in t) + "\n" for t in TRIS)).replace("\n", "\r"))

# Inside out: every triangle wound inward (pliant info warns; checked by tests/cli).
write("box_surface_inward.obj", "".join(f"v {g(x)} {g(y)} {g(z)}\n" for x, y, z in P)
      + "".join(f"f {t[0] + 1} {t[2] + 1} {t[1] + 1}\n" for t in TRIS))

# The box as one hexahedron (legacy VTK, split into 6 tetrahedra on reading), as zlib-compressed VTU
# (VTK's default writer setting) and its surface as 6 quads in zlib-compressed VTP.
write("box_hexahedron.vtk", "# vtk DataFile Version 3.0\nbox\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 double\n"
      + "".join(f"{g(x)} {g(y)} {g(z)}\n" for x, y, z in P) + "CELLS 1 9\n8 0 1 3 2 4 5 7 6\nCELL_TYPES 1\n12\n")


def zlib_array(raw, block=64):
    """VTK's compressed layout: [blocks, block size, last block size, compressed sizes] + blocks."""
    blocks = [zlib.compress(raw[i:i + block]) for i in range(0, len(raw), block)]
    header = struct.pack("<3I", len(blocks), block, len(raw) % block) + b"".join(struct.pack("<I", len(b)) for b in blocks)
    return header, b"".join(blocks)


def zlib_inline(type_, name, raw, components=1):
    header, data = zlib_array(raw)
    return (f'<DataArray type="{type_}" Name="{name}" NumberOfComponents="{components}" format="binary">'
            + base64.b64encode(header).decode() + base64.b64encode(data).decode() + "</DataArray>\n")


pts = b"".join(struct.pack("<3d", *p) for p in P)
write("box_zlib.vtu", '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" '
      'header_type="UInt32" compressor="vtkZLibDataCompressor">\n<UnstructuredGrid>\n'
      f'<Piece NumberOfPoints="8" NumberOfCells="{len(TETS)}">\n<Points>\n' + zlib_inline("Float64", "Points", pts, 3)
      + "</Points>\n<Cells>\n"
      + zlib_inline("Int64", "connectivity", struct.pack(f"<{4 * len(TETS)}q", *(v for t in TETS for v in t)))
      + zlib_inline("Int64", "offsets", struct.pack(f"<{len(TETS)}q", *(4 * (i + 1) for i in range(len(TETS)))))
      + zlib_inline("UInt8", "types", bytes([10] * len(TETS))) + "</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n")

QUADS = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
arrays = [("Points", "Float64", pts, 3), ("connectivity", "Int32", struct.pack("<24i", *(v for q in QUADS for v in q)), 1),
          ("offsets", "Int32", struct.pack("<6i", *(4 * (i + 1) for i in range(6))), 1)]
appended, tags = b"", []
for name, type_, raw, components in arrays:
    header, data = zlib_array(raw)
    tags.append(f'<DataArray type="{type_}" Name="{name}" NumberOfComponents="{components}" format="appended" '
                f'offset="{len(appended)}"/>\n')
    appended += header + data
write("box_surface_zlib.vtp", ('<?xml version="1.0"?>\n<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" '
      'header_type="UInt32" compressor="vtkZLibDataCompressor">\n<PolyData>\n'
      '<Piece NumberOfPoints="8" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="6">\n'
      "<Points>\n" + tags[0] + "</Points>\n<Polys>\n" + tags[1] + tags[2] + "</Polys>\n</Piece>\n</PolyData>\n"
      '<AppendedData encoding="raw">\n_').encode() + appended + b"\n</AppendedData>\n</VTKFile>\n")

# A comb of 100 teeth (width 1, height 5, on a spine of height 1) extruded to height 1: its top and
# bottom are one 400-corner polygon each, the shape on which plain ear clipping was cubic.
def comb(teeth):
    w = 2 * teeth - 1
    pts = [(0, 0), (w, 0)]
    for t in range(teeth - 1, -1, -1):
        x = 2 * t
        pts += [(x + 1, 6), (x, 6)]
        if t > 0:
            pts += [(x, 1), (x - 1, 1)]
    return pts


COMB = comb(100)
n = len(COMB)
comb_faces = [[n - 1 - i for i in range(n)], [n + i for i in range(n)]]  # bottom (clockwise), top
comb_faces += [[i, (i + 1) % n, n + (i + 1) % n, n + i] for i in range(n)]
write("comb_prism.off", f"OFF\n# a 100-tooth comb extruded to height 1\n{2 * n} {len(comb_faces)} 0\n"
      + "".join(f"{x} {y} {z}\n" for z in (0, 1) for x, y in COMB)
      + "".join(f"{len(f)} " + " ".join(map(str, f)) + "\n" for f in comb_faces))
COMB_AREA = sum(COMB[i][0] * COMB[(i + 1) % n][1] - COMB[(i + 1) % n][0] * COMB[i][1] for i in range(n)) / 2
COMB_PERIMETER = sum(abs(COMB[(i + 1) % n][0] - COMB[i][0]) + abs(COMB[(i + 1) % n][1] - COMB[i][1])
                     for i in range(n))

# The surface as triangle strips (PLY "tristrips", as the Stanford and common-3D scans write it): one
# strip per quad (a, b, c, d) -> b c a d gives (b, c, a) and, wound the other way, (a, c, d); a turn
# (a repeated vertex, no triangle) inside the first strip and -1 between strips.
strips = []
for i, (a, b, c, d) in enumerate(QUADS):
    strips += [b, c, a, d] + ([d] if i == 0 else []) + [-1]
strips.pop()
write("box_surface_tristrips.ply", "ply\nformat ascii 1.0\ncomment box as triangle strips\nelement vertex 8\n"
      "property float x\nproperty float y\nproperty float z\nelement tristrips 1\n"
      "property list int int vertex_indices\nend_header\n" + "".join(f"{g(x)} {g(y)} {g(z)}\n" for x, y, z in P)
      + f"{len(strips)} " + " ".join(map(str, strips)) + "\n")

# Padded with NUL bytes after the last statement, as SOFA's raptor.obj ends (read with a notice).
write("box_surface_nul.obj", ("".join(f"v {g(x)} {g(y)} {g(z)}\n" for x, y, z in P)
      + "".join("f " + " ".join(str(v + 1) for v in t) + "\n" for t in TRIS)).encode() + b"\0")

# Three nodes in no tetrahedron (before, among and after the box's), as SOFA's raptorTetra_8418.vtu has:
# `pliant info` warns, `precompute` and `run` drop them with a notice.
STRAY = [(9.0, 9.0, 9.0)] + P[:4] + [(8.0, 8.0, 8.0)] + P[4:] + [(7.0, 7.0, 7.0)]
stray_index = [1, 2, 3, 4, 6, 7, 8, 9]  # box node i is STRAY[stray_index[i]]
write("box_stray_nodes.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n11\n"
      + "".join(f"{i + 1} {g(x)} {g(y)} {g(z)}\n" for i, (x, y, z) in enumerate(STRAY)) + "$EndNodes\n$Elements\n"
      + f"{len(TETS)}\n" + "".join(f"{i + 1} 4 2 1 1 " + " ".join(str(stray_index[v] + 1) for v in t) + "\n"
                                  for i, t in enumerate(TETS))
      + "$EndElements\n")

with open(os.path.join(HERE, "good.txt"), "w") as f:
    f.write("# file<TAB>nodes<TAB>tets<TAB>triangles<TAB>volume<TAB>surface_area  (checked by tests/cli)\n")
    for name in ("box.msh", "box_binary41.msh", "box_format1.msh", "box.ele", "box.vtk", "box.vtu", "box.mesh"):
        f.write(f"{name}\t8\t5\t0\t1\t7\n")
    f.write("box_hexahedron.vtk\t8\t6\t0\t1\t7\n")
    f.write("box_zlib.vtu\t8\t5\t0\t1\t7\n")
    f.write("box_surface_zlib.vtp\t8\t0\t12\t1\t7\n")
    for name in ("box_surface.obj", "box_surface_ascii.stl", "box_surface_binary.stl", "box_surface_quads.mesh",
                 "box_surface.off", "box_surface_ascii.ply", "box_surface_binary_be.ply", "box_surface_cr.obj",
                 "box_surface_tristrips.ply", "box_surface_nul.obj"):
        f.write(f"{name}\t8\t0\t12\t1\t7\n")
    f.write(f"comb_prism.off\t{2 * n}\t0\t{2 * (n - 2) + 2 * n}\t{COMB_AREA:g}\t{2 * COMB_AREA + COMB_PERIMETER:g}\n")

    f.write("box_stray_nodes.msh\t11\t5\t0\t1\t7\n")
