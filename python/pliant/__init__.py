"""Pliant: real-time deformable bodies.

Meshes (every format Pliant reads and writes, procedural shapes), materials, scenes and bodies of
every family as numpy arrays. Units are SI throughout. A failed operation raises pliant.Error (a
ValueError) with the same one-line message the CLI prints. See docs/python.md.
"""

import json as _json
import math as _math

from ._pliant import (  # noqa: F401
    Body,
    Error,
    Grab,
    GreenAsset,
    Material,
    ReactionSeries,
    Scene,
    SurfacePoint,
    TetMesh,
    TriMesh,
    World,
    ball,
    box,
    disc_membrane,
    families,
    family_settings,
    hex_disc,
    icosphere,
    load_scene,
    parse_scene,
    read_mesh,
    read_tet_mesh,
    read_tri_mesh,
    rect_membrane,
    tube,
    write_mesh,
)
from ._pliant import _validate_json

try:  # present when Pliant was built with gmsh
    from ._pliant import tetrahedralize  # noqa: F401
except ImportError:  # pragma: no cover
    pass

# Show the public names as pliant.X (not pliant._pliant.X) in reprs, tracebacks and help().
for _cls in (Body, Error, Grab, GreenAsset, Material, Scene, SurfacePoint, TetMesh, TriMesh, World):
    _cls.__module__ = __name__


def scene_from_dict(scene, file="scene.json"):
    """Builds a scene from a dict with the scene-file schema (docs/scene-format.md).

    Errors name the JSON path exactly as for a file, e.g. ``scene.json: /bodies/0/material/E: ...``;
    ``file`` names the scene in messages and anchors relative mesh paths (its directory).
    """
    if not isinstance(scene, dict):
        raise TypeError(f"scene: expected a dict, got {type(scene).__name__}")
    return parse_scene(_json.dumps(scene), str(file))


def _add_body(self, spec=None, *, file="body.json", **keys):
    """Adds a body of any family and returns it (a pliant.Body).

    ``spec`` and the keyword arguments are a body object of the scene-file schema
    (docs/scene-format.md): ``name``, ``family``, ``mesh``, ``fixed`` and the family's keys, e.g.
    ``world.add_body(name="beam", family="green", mesh=pliant.box(...), material={"preset": "rubber"},
    fixed=["xmin"])``. ``mesh`` may be a pliant.TetMesh or TriMesh, or the schema's mesh object (a file
    or a shape). Errors name ``file`` and the JSON path, e.g. ``body.json: /material/E: ...``. Heavy
    assets (a Green precomputation) are built here, without the GIL.
    """
    body = dict(spec or {})
    body.update(keys)
    # Names label output files and select bodies: unique within a world, as in scene files.
    if any(b.name == body.get("name") for b in self.bodies):
        raise Error(f'{file}: /name: duplicate body name "{body.get("name")}"')
    mesh = body.get("mesh")
    if isinstance(mesh, (TetMesh, TriMesh)):
        del body["mesh"]
    else:
        mesh = None
    return self._add_body(_json.dumps(body), mesh, str(file))


World.add_body = _add_body


def _check_finite(value, path, file):
    # JSON has no NaN or infinity: say which argument holds one instead of "invalid JSON".
    if isinstance(value, float) and not _math.isfinite(value):
        raise Error(f"{file}: {path}: expected a finite number, got {value}")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_finite(v, f"{path}/{k}", file)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_finite(v, f"{path}/{i}", file)
    elif hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        _check_finite(value.tolist(), path, file)


def _plain(value):
    # numpy arrays and scalars to lists and floats, for json.dumps.
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    return value


def _add_collider(self, spec=None, *, file="collider.json", **keys):
    """Adds a rigid collider and returns its index.

    ``spec`` and the keyword arguments are a collider object of the scene-file schema
    (docs/scene-format.md, "Contact"): ``name``, ``shape`` ("plane", "sphere", "capsule", "box", "mesh"),
    its sizes (``normal``, ``radius``, ``half_length``, ``size``, ``mesh``), ``position`` (m),
    ``rotation``, ``track``, ``friction`` and ``margin`` (m), e.g.
    ``world.add_collider(name="ball", shape="sphere", radius=0.02, position=[0, 0, 0.1])``. Errors name
    ``file`` and the key, e.g. ``collider.json: /radius: expected a number > 0, got -1``.
    """
    collider = _plain(dict(spec or {}))
    collider.update(_plain(keys))
    _check_finite(collider, "", file)
    return self._add_collider(_json.dumps(collider), str(file))


def _add_instrument(self, spec=None, *, file="instrument.json", **keys):
    """Adds an instrument and returns its index.

    ``spec`` and the keyword arguments are an instrument object of the scene-file schema
    (docs/scene-format.md, "Instruments"): ``name``, ``type`` ("probe", "grasper" or "scalpel"),
    ``position`` (its tip, m), ``rotation``, ``track``, ``device``, ``friction`` and ``margin`` (m); a
    probe's ``radius`` and ``length`` (m), a grasper's ``jaws`` (``length``, ``width``, ``thickness``,
    ``opening`` in m, ``grip`` in N, ``speed`` in m/s, ``track`` of ``{"t", "closed"}``), a scalpel's
    ``blade`` (``length``, ``height``, ``thickness`` in m), e.g.
    ``world.add_instrument(name="probe", type="probe", radius=0.004, position=[0, 0, 0.1])``. Read it
    back with ``world.instrument("probe")`` (pose and force; a grasper's gap and grip); close a grasper
    with ``world.close_jaws("grasper")``. Errors name ``file`` and the key.
    """
    instrument = _plain(dict(spec or {}))
    instrument.update(_plain(keys))
    _check_finite(instrument, "", file)
    return self._add_instrument(_json.dumps(instrument), str(file))


def _set_contact(self, body, spec=None, *, file="contact.json", **keys):
    """Sets a body's contact settings (by index or name): the scene file's "contact" object,
    ``enabled``, ``bodies``, ``friction`` (μ ≥ 0) and ``margin`` (m, > 0); keys left out take their
    defaults. Errors name ``file`` and the key, e.g. ``contact.json: /friction: ...``.
    """
    contact = _plain(dict(spec or {}))
    contact.update(_plain(keys))
    _check_finite(contact, "", file)
    self._set_contact(body, _json.dumps(contact), str(file))


World.add_collider = _add_collider
World.set_contact = _set_contact
World.add_instrument = _add_instrument

__version__ = "0.1.0"


def _meshio():
    try:
        import meshio
    except ImportError as e:
        raise ImportError("pliant: meshio is not installed (Debian: apt-get install python3-meshio; "
                          "pip install meshio)") from e
    return meshio


def to_meshio(mesh):
    """A meshio.Mesh holding a copy of `mesh`: a pliant.TetMesh as "tetra" cells, a pliant.TriMesh as
    "triangle" cells, points in m. Needs meshio."""
    import numpy as np

    meshio = _meshio()
    if isinstance(mesh, TetMesh):
        return meshio.Mesh(np.array(mesh.points), [("tetra", np.array(mesh.tets))])
    if isinstance(mesh, TriMesh):
        return meshio.Mesh(np.array(mesh.points), [("triangle", np.array(mesh.triangles))])
    raise TypeError(f"to_meshio: expected a pliant.TetMesh or TriMesh, got {type(mesh).__name__}")


def from_meshio(mesh):
    """A pliant mesh from a meshio.Mesh: its "tetra" cells as a TetMesh if it has any, else its
    "triangle" cells as a TriMesh (points in m; 2D points get z = 0). Other cells are left out; a mesh
    with neither raises pliant.Error naming the cell types it has. Needs meshio."""
    import numpy as np

    _meshio()
    blocks = {}
    for block in mesh.cells:
        blocks.setdefault(block.type, []).append(np.asarray(block.data))
    points = np.asarray(mesh.points, dtype=np.float64)
    if points.ndim == 2 and points.shape[1] == 2:
        points = np.hstack([points, np.zeros((len(points), 1))])
    if "tetra" in blocks:
        return TetMesh(points, np.concatenate(blocks["tetra"]))
    if "triangle" in blocks:
        return TriMesh(points, np.concatenate(blocks["triangle"]))
    found = ", ".join(sorted(blocks)) or "none"
    raise Error(f"from_meshio: the mesh has no tetra or triangle cells (cells: {found}); "
                "split other cells into tetrahedra or triangles first")


def validate(quick=False, only=None):
    """Runs the verification catalogue of `pliant validate` (docs/validation.md) and returns its problems
    as a list of dicts with the keys name, family, method, quantity, measured, reference,
    reference_source, error, tolerance (None: reported only), passed, and order where a refinement
    series applies. quick=True runs the CI subset; only is a list of names (a trailing * matches a
    prefix). An unknown name raises pliant.Error."""
    if isinstance(only, str):
        only = [only]
    return _json.loads(_validate_json(bool(quick), list(only or [])))["problems"]
