"""Meshes as numpy arrays: shapes, dtypes, round trips through every writer, bad input."""

import numpy as np
import pytest

import pliant


def test_box_arrays_have_documented_shapes_and_dtypes():
    m = pliant.box(size=[1.0, 0.2, 0.2], cells=[4, 1, 1])
    assert m.points.shape == (5 * 2 * 2, 3) and m.points.dtype == np.float64
    assert m.tets.shape == (4 * 5, 4) and m.tets.dtype == np.int32
    assert not m.points.flags.writeable
    # The box spans exactly [0, size].
    np.testing.assert_allclose(m.points.min(axis=0), [0, 0, 0])
    np.testing.assert_allclose(m.points.max(axis=0), [1.0, 0.2, 0.2])


def test_tet_volumes_sum_to_the_box_volume():
    m = pliant.box(size=[0.3, 0.2, 0.1], cells=[3, 2, 2])
    p = m.points[m.tets]
    vol = np.einsum("ij,ij->i", np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), p[:, 3] - p[:, 0]) / 6
    assert (vol > 0).all()
    assert vol.sum() == pytest.approx(0.3 * 0.2 * 0.1, rel=1e-12)


@pytest.mark.parametrize("ext", [".vtu", ".mesh"])
def test_volume_formats_round_trip_exactly(tmp_path, ext):
    m = pliant.ball(radius=0.05, resolution=4)
    path = tmp_path / f"ball{ext}"
    pliant.write_mesh(path, m)
    back = pliant.read_mesh(path)
    assert isinstance(back, pliant.TetMesh)
    np.testing.assert_array_equal(back.points, m.points)
    np.testing.assert_array_equal(back.tets, m.tets)


@pytest.mark.parametrize("ext", [".obj", ".off", ".ply", ".vtu", ".mesh"])
def test_surface_formats_round_trip_exactly(tmp_path, ext):
    s = pliant.icosphere(radius=0.1, subdivisions=2)
    path = tmp_path / f"sphere{ext}"
    pliant.write_mesh(path, s)
    back = pliant.read_tri_mesh(path)
    np.testing.assert_array_equal(back.points, s.points)
    np.testing.assert_array_equal(back.triangles, s.triangles)


def test_a_volume_written_as_a_surface_format_is_its_boundary(tmp_path):
    m = pliant.box(size=[1, 1, 1], cells=[2, 2, 2])
    pliant.write_mesh(tmp_path / "b.obj", m)
    back = pliant.read_mesh(tmp_path / "b.obj")
    assert isinstance(back, pliant.TriMesh)
    assert back.triangle_count == m.boundary().triangle_count == 6 * 2 * 2 * 2


def test_meshes_built_from_arrays_and_their_validation_findings():
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    good = pliant.TetMesh(pts, np.array([[0, 1, 2, 3]]))
    assert [f for f in good.validate() if f["severity"] == "error"] == []
    inverted = pliant.TetMesh(pts, np.array([[0, 2, 1, 3]]))
    codes = {f["code"] for f in inverted.validate()}
    assert "inverted" in codes


def test_bad_arrays_raise_errors_that_name_the_argument():
    pts = np.zeros((4, 3))
    with pytest.raises(ValueError, match="points: expected shape \\(n, 3\\)"):
        pliant.TetMesh(np.zeros((4, 2)), np.zeros((1, 4), dtype=int))
    with pytest.raises(TypeError, match="tets: expected an integer array"):
        pliant.TetMesh(pts, np.zeros((1, 4)))
    with pytest.raises(ValueError, match="tets: row 0 names node 4"):
        pliant.TetMesh(pts, np.array([[0, 1, 2, 4]]))
    with pytest.raises(TypeError, match="points: expected numbers"):
        pliant.TriMesh(np.array([["a", "b", "c"]]), np.zeros((0, 3), dtype=int))


def test_bad_files_raise_pliant_error_with_the_readers_message(tmp_path):
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nf 1 2 7\n")
    with pytest.raises(pliant.Error, match="bad.obj:3"):
        pliant.read_mesh(bad)
    with pytest.raises(pliant.Error, match="unsupported output format '.xyz'"):
        pliant.write_mesh(tmp_path / "a.xyz", pliant.icosphere())
    assert issubclass(pliant.Error, ValueError)


def test_impossible_shape_parameters_are_errors():
    with pytest.raises(pliant.Error):
        pliant.box(size=[-1, 1, 1])
    with pytest.raises(ValueError, match="size: expected 3 numbers"):
        pliant.box(size=[1, 1])
    with pytest.raises(ValueError, match="subdivisions"):
        pliant.icosphere(subdivisions=-1)


def test_materials_convert_between_parameterisations():
    m = pliant.Material(E=2e5, nu=0.25, density=900)
    lam, mu = m.lam, m.mu
    assert mu == pytest.approx(2e5 / (2 * 1.25))
    assert lam == pytest.approx(2e5 * 0.25 / (1.25 * 0.5))
    back = pliant.Material.from_lame(lam, mu, 900)
    assert back.E == pytest.approx(2e5) and back.nu == pytest.approx(0.25)
    assert "rubber" in pliant.Material.presets()
    with pytest.raises(pliant.Error, match="unknown"):
        pliant.Material.preset("unobtainium")


def test_every_public_name_has_a_type_stub_and_a_docstring():
    import ast
    import pathlib

    stub = pathlib.Path(pliant.__file__).with_suffix(".pyi")
    tree = ast.parse(stub.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    public = {n for n in dir(pliant) if not n.startswith("_") and callable(getattr(pliant, n))}
    assert public - stubbed == set(), "names without a stub"
    assert stubbed - public == set(), "stubs of names the module lacks"
    for name in public:
        assert getattr(pliant, name).__doc__, f"{name} has no docstring"
