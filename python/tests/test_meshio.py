"""meshio interop: pliant meshes go to meshio and back unchanged, a file meshio writes reads in Pliant
with the same nodes and cells, and a mesh without tets or triangles is refused by name."""

import meshio
import numpy as np
import pytest

import pliant


def test_a_tet_mesh_round_trips_through_meshio():
    box = pliant.box(size=[0.1, 0.2, 0.3], cells=[2, 3, 4])
    m = pliant.to_meshio(box)
    assert m.cells[0].type == "tetra"
    back = pliant.from_meshio(m)
    assert isinstance(back, pliant.TetMesh)
    np.testing.assert_array_equal(back.points, box.points)
    np.testing.assert_array_equal(back.tets, box.tets)


def test_a_file_meshio_writes_reads_in_pliant_with_the_same_nodes_and_cells(tmp_path):
    ball = pliant.ball(radius=0.05, resolution=4)
    path = tmp_path / "ball.vtu"
    meshio.write(path, pliant.to_meshio(ball))
    read = pliant.read_tet_mesh(str(path))
    np.testing.assert_allclose(read.points, ball.points, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(read.tets, ball.tets)


def test_a_surface_round_trips_and_planar_points_get_z_zero():
    m = meshio.Mesh(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), [("triangle", np.array([[0, 1, 2]]))])
    tri = pliant.from_meshio(m)
    assert isinstance(tri, pliant.TriMesh)
    np.testing.assert_array_equal(tri.points, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_array_equal(pliant.to_meshio(tri).cells[0].data, [[0, 1, 2]])


def test_a_mesh_without_tets_or_triangles_is_refused_by_name():
    m = meshio.Mesh(np.zeros((2, 3)), [("line", np.array([[0, 1]]))])
    with pytest.raises(pliant.Error, match=r"no tetra or triangle cells \(cells: line\)"):
        pliant.from_meshio(m)
    with pytest.raises(TypeError):
        pliant.to_meshio("box.vtu")
