#!/usr/bin/env python3
"""Writes the bad-input corpus (tests/data/bad/) and its manifest expected.txt.

Each file is small and damaged in one way. expected.txt lists, per line, the file `pliant info`
is run on and a substring its one-line error must contain. Re-run after editing:
    python3 tests/data/bad/generate.py
The output is deterministic (no randomness beyond a fixed seed), so re-running changes nothing.
"""
import os
import random
import struct

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
put("unknown_format.ply", "ply\nformat ascii 1.0\n", "unknown mesh format '.ply'")

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
put("hexahedra_only.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" + CUBE_NODES
    + "$EndNodes\n$Elements\n1\n1 5 2 0 1 1 2 4 3 5 6 8 7\n$EndElements\n", "no tetrahedra")
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
put("vtu_compressed.vtu", vtu(PTS, CELLS, vtkfile_extra=' compressor="vtkZLibDataCompressor"'), "compressed VTU")
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
put("stl_ascii_bad_keyword.stl", "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n"
    "  vertx 0 1 0\n endloop\nendfacet\nendsolid\n", ":6: expected 'vertex', found 'vertx'")

# ---- OBJ ----
put("obj_bad_index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 30\n", "obj_bad_index.obj:5: face 2 references vertex 30")
put("obj_no_faces.obj", "v 0 0 0\nv 1 0 0\n", "no tetrahedra or triangles")

with open(os.path.join(HERE, "expected.txt"), "w") as f:
    f.write("# file<TAB>substring of the one-line error `pliant info FILE` must print (generated by generate.py)\n")
    for name, expect in entries:
        f.write(f"{name}\t{expect}\n")
print(f"{len(entries)} bad inputs")
