#!/usr/bin/env python3
"""Writes the bad-input corpus (tests/data/bad/) and its manifest expected.txt.

Each file is small and damaged in one way. expected.txt lists, per line, the file `pliant info`
is run on and a substring its one-line error must contain. Re-run after editing:
    python3 tests/data/bad/generate.py
The output is deterministic (no randomness beyond a fixed seed), so re-running changes nothing.
"""
import base64
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
entries = []


def put(name, data, expect):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    if expect is not None:
        entries.append((name, expect))


rng = random.Random(12345)
garbage = bytes(rng.randrange(256) for _ in range(600))

CUBE_NODES = "8\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n5 0 0 1\n6 1 0 1\n7 0 1 1\n8 1 1 1\n"
TETS = ["1 2 3 5", "2 4 3 8", "2 5 6 8", "3 5 8 7", "2 3 5 8"]


def msh22(nodes=CUBE_NODES, tets=TETS, extra="", count=None):
    n = len(tets) if count is None else count
    body = "".join(f"{i + 1} 4 2 1 1 {t}\n" for i, t in enumerate(tets))
    return ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" + nodes + "$EndNodes\n$Elements\n"
            + f"{n}\n" + body + extra + "$EndElements\n")


good = msh22()

# ---- empty, garbage, unknown ----
put("empty.msh", b"", "empty file")
put("empty.stl", b"", "empty file")
put("empty.vtu", b"", "empty file")
put("whitespace_only.vtk", "\n\n   \n", "not a VTK legacy file")
put("garbage.msh", garbage, "not a Gmsh file")
put("garbage.vtu", garbage, "not a VTK XML file")
put("garbage.vtk", garbage, "not a VTK legacy file")
put("garbage.stl", garbage, "binary STL declares")
put("unknown_format.xyz", "1 2 3\n", "unknown mesh format '.xyz'")

# ---- Gmsh ----
put("truncated_nodes.msh", good[: good.index("5 0 0 1")], "the file is truncated")
put("truncated_elements.msh", good[: good.index("$EndElements") - 6], "unexpected end of file")
put("huge_node_count.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2000000000\n1 0 0 0\n$EndNodes\n",
    ":5: declares 2000000000 nodes")
put("negative_count.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n-5\n$EndNodes\n", "count -5 is negative")
put("nan_coordinate.msh", msh22(nodes=CUBE_NODES.replace("6 1 0 1", "6 1 nan 1")), ":11: node coordinate is nan")
put("inf_coordinate.msh", msh22(nodes=CUBE_NODES.replace("3 0 1 0", "3 0 1 -inf")), "not a finite number")
put("node_out_of_range.msh", msh22(tets=TETS[:4] + ["2 3 5 42"]), "tetrahedron 5 references node 42, which is not defined")
put("duplicate_node.msh", msh22(nodes=CUBE_NODES.replace("8 1 1 1", "7 1 1 1")), "node 7 is defined twice")
put("repeated_node_in_tet.msh", msh22(tets=TETS[:4] + ["2 3 3 8"]), "uses node 3 twice")
put("unsupported_elements_only.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" + CUBE_NODES
    + "$EndNodes\n$Elements\n1\n1 93 2 0 1 1 2 4 3 5 6 8 7\n$EndElements\n",
    "no tetrahedra or triangles (found 1 element of type 93)")
put("hexahedron_out_of_range.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" + CUBE_NODES
    + "$EndNodes\n$Elements\n1\n1 5 2 0 1 1 2 4 3 5 6 8 42\n$EndElements\n",
    ":17: hexahedron 1 references node 42, which is not defined")
put("more_elements_than_declared.msh", msh22(count=4), "expected $EndElements")
put("version3.msh", "$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", "version 3.0 is not supported")
put("text_in_numbers.msh", msh22(nodes=CUBE_NODES.replace("4 1 1 0", "4 1 one 0")), "found 'one'")
put("inverted_tet.msh", msh22(tets=TETS[:2] + ["2 6 5 8"] + TETS[3:]), "inverted")
put("zero_volume_tet.msh", msh22(nodes=CUBE_NODES + "", tets=TETS + ["1 2 4 3"]).replace(f"$Elements\n5\n", "$Elements\n6\n"),
    "degenerate")


def msh41_binary(node_count_declared=8, cut=0):
    o = b"$MeshFormat\n4.1 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n$Nodes\n"
    o += struct.pack("<4Q", 1, node_count_declared, 1, 8)
    o += struct.pack("<iiiQ", 3, 1, 0, 8)
    o += struct.pack("<8Q", *range(1, 9))
    for line in CUBE_NODES.splitlines()[1:]:
        o += struct.pack("<3d", *map(float, line.split()[1:]))
    o += b"\n$EndNodes\n$Elements\n" + struct.pack("<4Q", 1, 5, 1, 5) + struct.pack("<iiiQ", 3, 1, 4, 5)
    for i, t in enumerate(TETS):
        o += struct.pack("<5Q", i + 1, *map(int, t.split()))
    o += b"\n$EndElements\n"
    return o[: len(o) - cut] if cut else o


put("binary41_truncated.msh", msh41_binary(cut=80), "truncated")
put("binary41_lying_count.msh", msh41_binary(node_count_declared=1 << 40), "exceeds the supported maximum")
put("binary41_bad_endianness.msh", msh41_binary().replace(struct.pack("<i", 1), struct.pack("<i", 7), 1),
    "bad endianness marker 7")

# ---- TetGen ----
NODE = "8 3 0 0\n" + "".join(f"{i} {l.split(' ', 1)[1]}\n" for i, l in enumerate(CUBE_NODES.splitlines()[1:]))
ELE0 = "5 4 0\n" + "".join(f"{i} " + " ".join(str(int(v) - 1) for v in t.split()) + "\n" for i, t in enumerate(TETS))
put("mismatch.node", NODE, None)
put("mismatch.ele", ELE0.replace("3 2 4 7 6", "3 2 4 7 8"), "references node 8, which is not defined")
put("lonely.node", NODE, "need both .node and .ele")
put("dimension2.node", "3 2 0 0\n0 0 0\n1 1 0\n2 0 1\n", "dimension 2 is not supported")
put("dimension2.ele", "0 4 0\n", None)
put("ele_count_lies.node", NODE, None)
put("ele_count_lies.ele", "900000 4 0\n0 0 1 2 4\n", "declares 900000 tetrahedra")

# ---- VTK legacy ----
VTK_HEAD = "# vtk DataFile Version 3.0\nbad\nASCII\nDATASET UNSTRUCTURED_GRID\n"
VTK_POINTS = "POINTS 4 float\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
put("vtk_wrong_cell_size.vtk", VTK_HEAD + VTK_POINTS + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n5\n",
    "has 4 points, expected 3")
put("vtk_huge_cells.vtk", VTK_HEAD + VTK_POINTS + "CELLS 1 900000000\n4 0 1 2 3\n", "declares 900000000 cell list entries")
put("vtk_structured.vtk", "# vtk DataFile Version 3.0\nbad\nASCII\nDATASET STRUCTURED_POINTS\n", "only UNSTRUCTURED_GRID")
put("vtk_index_out_of_range.vtk", VTK_HEAD + VTK_POINTS + "CELLS 1 5\n4 0 1 2 4\nCELL_TYPES 1\n10\n",
    "references node 4, which is not defined")
put("vtk_nan.vtk", VTK_HEAD + VTK_POINTS.replace("0 1 0\n", "0 NaN 0\n") + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n",
    "not a finite number")
bin_pts = struct.pack(">12f", 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
put("vtk_binary_truncated.vtk", b"# vtk DataFile Version 3.0\nbad\nBINARY\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 float\n"
    + bin_pts[:30], "declares 12 point coordinates")
put("vtk_types_mismatch.vtk", VTK_HEAD + VTK_POINTS + "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 2\n10 10\n",
    "CELL_TYPES has 2 entries for 1 cells")

# ---- VTU ----
def vtu(points_array, cells_arrays, piece='NumberOfPoints="4" NumberOfCells="1"', vtkfile_extra="", appended=b""):
    o = ('<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian" '
         f'header_type="UInt32"{vtkfile_extra}>\n<UnstructuredGrid>\n<Piece {piece}>\n<Points>\n{points_array}\n'
         f'</Points>\n<Cells>\n{cells_arrays}\n</Cells>\n</Piece>\n</UnstructuredGrid>\n').encode()
    if appended:
        o += b'<AppendedData encoding="raw">\n_' + appended + b"\n</AppendedData>\n"
    return o + b"</VTKFile>\n"


PTS = '<DataArray type="Float64" NumberOfComponents="3" format="ascii">0 0 0 1 0 0 0 1 0 0 0 1</DataArray>'
CELLS = ('<DataArray type="Int32" Name="connectivity" format="ascii">0 1 2 3</DataArray>\n'
         '<DataArray type="Int32" Name="offsets" format="ascii">4</DataArray>\n'
         '<DataArray type="UInt8" Name="types" format="ascii">10</DataArray>')
put("vtu_compressed.vtu", vtu(PTS, CELLS, vtkfile_extra=' compressor="vtkLZ4DataCompressor"'),
    "compressor vtkLZ4DataCompressor is not supported")
put("vtu_bad_base64.vtu", vtu('<DataArray type="Float64" NumberOfComponents="3" format="binary">YAAAAA==AAAA$$$$AAAA'
                              '</DataArray>', CELLS), "the base64 data holds at most 9")
put("vtu_base64_lying_header.vtu", vtu('<DataArray type="Float64" NumberOfComponents="3" format="binary">/////w==AAAA'
                                       '</DataArray>', CELLS), "header says 4294967295 bytes")
put("vtu_huge_points.vtu", vtu(PTS, CELLS, piece='NumberOfPoints="500000000" NumberOfCells="1"'), "needs 1500000000 numbers")
put("vtu_appended_truncated.vtu",
    vtu('<DataArray type="Float64" NumberOfComponents="3" format="appended" offset="0"/>', CELLS,
        appended=struct.pack("<I", 96) + b"\0" * 40), "bytes of points")
put("vtu_bad_offsets.vtu", vtu(PTS, CELLS.replace(">4<", ">9<")), "connectivity: needs 9 numbers")
put("vtu_image_data.vtu", b'<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0">\n</VTKFile>\n',
    "only UnstructuredGrid")
put("vtu_unclosed.vtu", vtu(PTS, CELLS)[:300], "<Cells> needs DataArrays")
put("vtu_inverted.vtu", vtu(PTS, CELLS.replace(">0 1 2 3<", ">1 0 2 3<")), "inverted")
# Found by fuzzing: an attribute value echoed in the message must not break it over two lines.
put("vtu_format_newline.vtu", vtu(PTS.replace('format="ascii"', 'format="asc\nii"'), CELLS),
    "points: unknown format 'asc?ii'")

# ---- VTK legacy POLYDATA, VTK XML PolyData, zlib-compressed arrays, cells that are split ----
POLY_HEAD = "# vtk DataFile Version 3.0\nbad\nASCII\nDATASET POLYDATA\n"
put("vtk_polydata_nan.vtk", POLY_HEAD + VTK_POINTS.replace("1 0 0\n", "1 0 nan\n") + "POLYGONS 1 5\n4 0 1 2 3\n",
    ":7: point coordinate is nan (not a finite number)")
put("vtk_polydata_negative_count.vtk", POLY_HEAD + VTK_POINTS + "POLYGONS -1 5\n4 0 1 2 3\n",
    "POLYGONS count -1 is negative")
put("vtk_polydata_huge.vtk", POLY_HEAD + VTK_POINTS + "POLYGONS 1 900000000\n4 0 1 2 3\n",
    "declares 900000000 cell list entries")
put("vtk_polydata_bad_polygon.vtk", POLY_HEAD + VTK_POINTS + "POLYGONS 1 5\n4 0 1 2 7\n",
    ":10: POLYGONS cell 0 (polygon) references node 7, which is not defined (4 nodes)")
put("vtk_polydata_short_strip.vtk", POLY_HEAD + VTK_POINTS + "TRIANGLE_STRIPS 1 3\n2 0 1\n",
    "has 2 points, a triangle strip needs at least 3")
put("vtk_polydata_binary_truncated.vtk",
    b"# vtk DataFile Version 3.0\nbad\nBINARY\nDATASET POLYDATA\nPOINTS 4 float\n" + bin_pts
    + b"\nPOLYGONS 1 5\n" + struct.pack(">3i", 4, 0, 1), "declares 5 cell list entries")
put("vtk_hexahedron_repeated_node.vtk", VTK_HEAD + "POINTS 8 float\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n"
    "0 1 1\nCELLS 1 9\n8 0 1 2 3 4 5 6 6\nCELL_TYPES 1\n12\n", "cell 0 (hexahedron) uses node 6 twice")
put("vtk_xml_image_data.vtk", b'<?xml version="1.0"?>\n<VTKFile type="ImageData" version="1.0">\n</VTKFile>\n',
    "only UnstructuredGrid and PolyData")


def vtp(polys_conn, polys_offs, points=None, n_points=4, extra=""):
    pts = points or '<DataArray type="Float64" NumberOfComponents="3" format="ascii">0 0 0 1 0 0 0 1 0 0 0 1</DataArray>'
    return ('<?xml version="1.0"?>\n<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" '
            f'header_type="UInt32"{extra}>\n<PolyData>\n<Piece NumberOfPoints="{n_points}" NumberOfPolys="1">\n'
            f'<Points>\n{pts}\n</Points>\n<Polys>\n'
            f'<DataArray type="Int32" Name="connectivity" format="ascii">{polys_conn}</DataArray>\n'
            f'<DataArray type="Int32" Name="offsets" format="ascii">{polys_offs}</DataArray>\n'
            '</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n')


put("vtp_polygon_out_of_range.vtp", vtp("0 1 2 7", "4"), "Polys cell 0 (polygon) references node 7")
put("vtp_offsets_too_long.vtp", vtp("0 1 2", "4"), "connectivity: needs 4 numbers")
put("vtp_image_data.vtp", b'<VTKFile type="ImageData"></VTKFile>', "only UnstructuredGrid and PolyData")
nan_pts = struct.pack("<12f", 0, 0, 0, 1, float("nan"), 0, 0, 1, 0, 0, 0, 1)
put("vtp_nan_points.vtp", vtp("0 1 2", "3", points='<DataArray type="Float32" NumberOfComponents="3" format="binary">'
    + base64.b64encode(struct.pack("<I", 48) + nan_pts).decode() + "</DataArray>"),
    "points: value 4 of the DataArray is NaN or infinite")

# zlib: the VTK layout is a header [blocks, block size, last block size, compressed sizes...] and the blocks.
pts = struct.pack("<12d", 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
blocks = [zlib.compress(pts[i:i + 64]) for i in range(0, len(pts), 64)]
zheader = struct.pack("<3I", len(blocks), 64, len(pts) % 64) + b"".join(struct.pack("<I", len(b)) for b in blocks)


def zlib_vtp(header, data, inline=True):
    extra = ' compressor="vtkZLibDataCompressor"'
    if inline:
        return vtp("0 1 2", "3", extra=extra, points='<DataArray type="Float64" NumberOfComponents="3" format="binary">'
                   + base64.b64encode(header).decode() + base64.b64encode(data).decode() + "</DataArray>")
    text = vtp("0 1 2", "3", extra=extra,
               points='<DataArray type="Float64" NumberOfComponents="3" format="appended" offset="0"/>')
    text = text.replace("</VTKFile>\n", "").encode()
    return text + b'<AppendedData encoding="raw">\n_' + header + data + b"\n</AppendedData>\n</VTKFile>\n"


put("vtp_zlib_truncated.vtp", zlib_vtp(zheader, b"".join(blocks)[:-60], inline=False),
    "runs past the end of the data (truncated)")
damaged = bytearray(b"".join(blocks))
for k in range(4, 12):
    damaged[k] ^= 0x5A
put("vtp_zlib_damaged.vtp", zlib_vtp(zheader, bytes(damaged)), "cannot be decompressed")
put("vtp_zlib_lying_size.vtp", zlib_vtp(struct.pack("<3I", 1, 64, 32) + zheader[12:16], blocks[0]),
    "zlib header says 32 bytes, expected 96")
put("vtp_zlib_bomb.vtp", zlib_vtp(struct.pack("<3I", 1, 0x40000000, 0) + zheader[12:], b"".join(blocks), inline=False),
    "more than zlib can expand")
put("vtp_zlib_many_blocks.vtp", zlib_vtp(struct.pack("<3I", 0xFFFFFFF, 64, 0), b"", inline=False),
    "compressed blocks of points")

# ---- STL ----
def stl_binary(n_declared, n_actual, nan=False):
    o = b"solid but binary".ljust(80, b" ") + struct.pack("<I", n_declared)
    for i in range(n_actual):
        v = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0]
        if nan and i == 1:
            v[4] = float("nan")
        o += struct.pack("<12f", *v) + b"\0\0"
    return o


put("stl_lying_count.stl", stl_binary(1000, 3), "binary STL declares 1000 triangles")
put("stl_huge_count.stl", stl_binary(0xFFFFFFFF, 2), "declares 4294967295 triangles")
put("stl_nan.stl", stl_binary(3, 3, nan=True), "NaN or infinite")
put("stl_short.stl", b"\x01\x02\x03garbage", "too short for a binary STL")
put("stl_ascii_truncated.stl", "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0",
    "unexpected end of file")
put("stl_ascii_garbage_after_endsolid.stl", "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
    "  vertex 0 1 0\n endloop\nendfacet\nendsolid t\nPK\x03\x04\n", ":10: expected 'solid', found 'pk")
put("stl_ascii_bad_normal.stl", "solid t\nfacet normal 0 0 up\n", ":2: normal component 'up' is not a number")
put("stl_ascii_two_vertices.stl", "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
    " endloop\nendfacet\nendsolid t\n", ":6: facet has 2 vertices, expected 3")
put("stl_ascii_bad_keyword.stl", "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
    "  vertx 0 1 0\n endloop\nendfacet\nendsolid\n", ":6: expected 'vertex', found 'vertx'")

# ---- OBJ ----
put("obj_bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 30\n", "obj_bad_index.obj:5: face 2 references vertex 30")
put("obj_no_faces.obj", "v 0 0 0\nv 1 0 0\n", "no tetrahedra or triangles")


def pushed_sphere_obj():
    """A closed, manifold, consistently oriented shell (an octahedron subdivided once, on the unit sphere)
    whose top node is pushed through the bottom: its fan of triangles crosses the triangles there."""
    p = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    tris = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
    mids = {}

    def mid(a, b):
        key = (min(a, b), max(a, b))
        if key not in mids:
            m = [(x + y) / 2 for x, y in zip(p[a], p[b])]
            n = sum(c * c for c in m) ** 0.5
            p.append(tuple(c / n for c in m))
            mids[key] = len(p) - 1
        return mids[key]

    fine = []
    for a, b, c in tris:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        fine += [(a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)]
    p[4] = (0.1, 0.05, -1.4)
    return ("# unit sphere with its top node pushed through the bottom (self-intersecting)\n"
            + "".join(f"v {x:.9g} {y:.9g} {z:.9g}\n" for x, y, z in p)
            + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in fine))


put("obj_self_intersecting.obj", pushed_sphere_obj(), "surface intersects itself in")

# ---- counts in binary Gmsh 2.2 (checked on their text line before anything is allocated) ----
BIN22 = b"$MeshFormat\n2.2 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n"
put("binary22_negative_nodes.msh", BIN22 + b"$Nodes\n-5\n" + b"\0" * 64 + b"\n$EndNodes\n",
    "binary22_negative_nodes.msh:6: nodes count -5 is negative")
put("binary22_huge_nodes.msh", BIN22 + b"$Nodes\n300000000\n" + struct.pack("<i3d", 1, 0, 0, 0) + b"\n$EndNodes\n",
    "binary22_huge_nodes.msh:6: declares 300000000 nodes")
put("binary22_negative_elements.msh", BIN22 + b"$Nodes\n1\n" + struct.pack("<i3d", 1, 0, 0, 0)
    + b"\n$EndNodes\n$Elements\n-2\n" + b"\0" * 40 + b"\n$EndElements\n", "binary22_negative_elements.msh:10: elements count -2")
put("binary22_huge_elements.msh", BIN22 + b"$Nodes\n1\n" + struct.pack("<i3d", 1, 0, 0, 0)
    + b"\n$EndNodes\n$Elements\n2147483647\n" + b"\0" * 40 + b"\n$EndElements\n", "declares 2147483647 elements")

# ---- Gmsh format 1 ----
MSH1_NODES = "$NOD\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$ENDNOD\n"
put("format1_negative_count.msh", "$NOD\n-4\n$ENDNOD\n", "format1_negative_count.msh:2: nodes count -4 is negative")
put("format1_huge_elements.msh", MSH1_NODES + "$ELM\n50000000\n1 4 1 1 4 1 2 3 4\n$ENDELM\n", ":9: declares 50000000 elements")
put("format1_wrong_node_count.msh", MSH1_NODES + "$ELM\n1\n1 4 1 1 3 1 2 3\n$ENDELM\n",
    ":10: element 1 of type 4 (tetrahedron) has 3 nodes, expected 4")
put("format1_nan.msh", MSH1_NODES.replace("3 0 1 0", "3 0 nan 0") + "$ELM\n0\n$ENDELM\n", ":5: node coordinate is nan")
put("format1_truncated.msh", MSH1_NODES + "$ELM\n1\n1 4 1 1 4 1 2", "unexpected end of file")
put("format1_out_of_range.msh", MSH1_NODES + "$ELM\n1\n7 4 1 1 4 1 2 3 9\n$ENDELM\n",
    "tetrahedron 7 references node 9, which is not defined")

# ---- OBJ (Pliant's tokenizer) ----
put("obj_nan.obj", "v 0 0 0\nv nan 5 5\nv 0 1 0\nf 1 2 3\n", "obj_nan.obj:2: vertex coordinate 'nan' is not a finite number")
put("obj_inf.obj", "v 0 0 0\nv 1 inf 5\nv 0 1 0\nf 1 2 3\n", "obj_inf.obj:2: vertex coordinate 'inf' is not a finite number")
put("obj_text_coordinate.obj", "v 0 0 0\nv abc 0 0\n", "obj_text_coordinate.obj:2: expected a vertex coordinate (a number), found 'abc'")
put("obj_trailing_garbage.obj", "v 1x 0 0\n", "obj_trailing_garbage.obj:1: expected a vertex coordinate (a number), found '1x'")
put("obj_two_coordinates.obj", "v 0 0 0\nv 1 5\n", "obj_two_coordinates.obj:2: vertex has 2 values")
put("obj_fractional_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3.7\n",
    "obj_fractional_index.obj:4: face entry '3.7': vertex index '3.7' is not an integer")
put("obj_zero_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "obj_zero_index.obj:4: face entry '0': vertex index 0")
put("obj_relative_too_far.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\n", "relative vertex index -3 reaches before the first vertex")
put("obj_unknown_statement.obj", "v 0 0 0\nvertex 1 0 0\n", "obj_unknown_statement.obj:2: unknown OBJ statement 'vertex'")
put("obj_control_bytes.obj", b"v 0 0 0\nv 1 \x07\x1b\x00\xff 0\n", "found '\\x07\\x1B\\0\\xFF'")
put("obj_cr_only.obj", "v 0 0 0\rv 1 0 0\r\rv 0 1 zz\r", "obj_cr_only.obj:4: expected a vertex coordinate")
put("obj_crlf.obj", "v 0 0 0\r\nv 1 0 0\r\n\r\nv 0 1 zz\r\n", "obj_crlf.obj:4: expected a vertex coordinate")

# ---- MEDIT .mesh ----
MEDIT = "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
put("medit_garbage.mesh", garbage, "not a MEDIT mesh")
put("medit_dimension2.mesh", "MeshVersionFormatted 2\nDimension 2\n", "medit_dimension2.mesh:2: dimension 2 is not supported")
put("medit_nan.mesh", MEDIT.replace("0 1 0 0", "0 NaN 0 0") + "End\n", "medit_nan.mesh:7: vertex coordinate is NaN")
put("medit_negative_count.mesh", MEDIT + "Tetrahedra\n-1\nEnd\n", "medit_negative_count.mesh:10: tetrahedra count -1 is negative")
put("medit_huge_count.mesh", MEDIT + "Triangles\n1000000000\n1 2 3 0\nEnd\n", ":10: declares 1000000000 triangles")
put("medit_bad_index.mesh", MEDIT + "Tetrahedra\n1\n1 2 3 5 0\nEnd\n", ":11: tetrahedron 1 references node 5, which is not defined")
put("medit_missing_end.mesh", MEDIT + "Tetrahedra\n1\n1 2 3 4 0\n", "missing End")
put("medit_unknown_keyword.mesh", MEDIT + "Polyhedra\n1\nEnd\n", ":9: unknown MEDIT keyword 'Polyhedra'")
put("medit_cr_only.mesh", (MEDIT.replace("0 0 1 0", "0 0 one 0") + "End\n").replace("\n", "\r"), "medit_cr_only.mesh:8:")

# ---- OFF ----
OFF = "OFF\n4 2 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
put("off_garbage.off", garbage, "not an OFF file")
put("off_nan.off", OFF.replace("0 1 0", "0 1 nan") + "3 0 1 2\n3 0 1 3\n", "off_nan.off:5: vertex coordinate is nan")
put("off_bad_index.off", OFF + "3 0 1 2\n3 0 1 4\n", "off_bad_index.off:8: face 1 references vertex 4, but there are 4 vertices")
put("off_negative_count.off", "OFF\n-4 2 0\n", "off_negative_count.off:2: vertices count -4 is negative")
put("off_huge_count.off", OFF.replace("4 2 0", "4 900000000 0") + "3 0 1 2\n", "off_huge_count.off:2: declares 900000000 faces")
put("off_huge_polygon.off", OFF + "2000000000 0 1 2\n", "declares 2000000000 face vertices")
put("off_two_vertex_face.off", OFF + "2 0 1\n3 0 1 2\n", "off_two_vertex_face.off:7: face 0 has 2 vertices")
put("off_binary.off", "OFF BINARY\n", "binary OFF is not supported")
put("off_truncated.off", OFF + "3 0 1 2\n3 0 1", "off_truncated.off:8: declares 3 face vertices, but only 4 bytes follow")

# ---- PLY ----
def ply_header(fmt, nv=4, nf=1, index_type="int"):
    return ("ply\nformat " + fmt + " 1.0\nelement vertex " + str(nv) + "\nproperty float x\nproperty float y\n"
            "property float z\nelement face " + str(nf) + "\nproperty list uchar " + index_type
            + " vertex_indices\nend_header\n")


PLY_PTS = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
put("ply_garbage.ply", garbage, "not a PLY file")
put("ply_nan.ply", ply_header("ascii") + "0 0 0\n1 0 0\n0 nan 0\n0 0 1\n3 0 1 2\n", "ply_nan.ply:12: vertex 2 coordinate y is not a finite number")
put("ply_bad_index.ply", ply_header("ascii") + "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 4\n",
    "ply_bad_index.ply:14: face 0 references vertex 4, but there are 4 vertices")
put("ply_negative_count.ply", ply_header("ascii", nv=-4), "ply_negative_count.ply:3: element vertex count -4 is negative")
put("ply_huge_count.ply", ply_header("binary_little_endian", nv=400000000) + "\0" * 12, "declares 400000000 vertex elements")
put("ply_binary_truncated.ply", ply_header("binary_big_endian").encode()
    + b"".join(struct.pack(">3f", *p) for p in PLY_PTS) + struct.pack(">Bii", 3, 0, 1), "declares 3 list entries (12 bytes), but only 8 bytes follow")
put("ply_binary_inf.ply", ply_header("binary_little_endian").encode()
    + b"".join(struct.pack("<3f", *p) for p in PLY_PTS[:3]) + struct.pack("<3f", 0, float("inf"), 1)
    + struct.pack("<B3i", 3, 0, 1, 2), "vertex 3 coordinate y is not a finite number")
put("ply_huge_list.ply", ply_header("binary_little_endian", index_type="int").replace("uchar", "uint").encode()
    + b"".join(struct.pack("<3f", *p) for p in PLY_PTS) + struct.pack("<I", 0xFFFFFFFF), "list entries count 4294967295 exceeds the supported maximum")
put("ply_no_z.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n",
    "ply_no_z.ply:3: the vertex element has no property z")
put("ply_float_list_count.ply", ply_header("ascii").replace("list uchar", "list float"), "list count type 'float' is not an integer type")
put("ply_no_end_header.ply", "ply\nformat ascii 1.0\nelement vertex 0\n", "no end_header")
put("ply_extra_data.ply", ply_header("ascii") + "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n7\n", "more data than the header declares")
put("ply_control_bytes.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty flo\x07at x\n",
    "ply_control_bytes.ply:4: unknown property type 'flo\\x07at'")

with open(os.path.join(HERE, "expected.txt"), "w") as f:
    f.write("# file<TAB>substring of the one-line error `pliant info FILE` must print (generated by generate.py)\n")
    for name, expect in entries:
        f.write(f"{name}\t{expect}\n")
print(f"{len(entries)} bad inputs")
