"""Pliant: real-time deformable bodies.

Meshes (every format Pliant reads and writes, procedural shapes), materials, scenes and bodies of
every family as numpy arrays. Units are SI throughout. A failed operation raises pliant.Error (a
ValueError) with the same one-line message the CLI prints. See docs/python.md.
"""

import json as _json

from ._pliant import (  # noqa: F401
    Body,
    Error,
    Grab,
    Material,
    Scene,
    SurfacePoint,
    TetMesh,
    TriMesh,
    World,
    ball,
    box,
    disc_membrane,
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

try:  # present when Pliant was built with gmsh
    from ._pliant import tetrahedralize  # noqa: F401
except ImportError:  # pragma: no cover
    pass

# Show the public names as pliant.X (not pliant._pliant.X) in reprs, tracebacks and help().
for _cls in (Body, Error, Grab, Material, Scene, SurfacePoint, TetMesh, TriMesh, World):
    _cls.__module__ = __name__


def scene_from_dict(scene, file="scene.json"):
    """Builds a scene from a dict with the scene-file schema (docs/scene-format.md).

    Errors name the JSON path exactly as for a file, e.g. ``scene.json: /bodies/0/material/E: ...``;
    ``file`` names the scene in messages and anchors relative mesh paths (its directory).
    """
    if not isinstance(scene, dict):
        raise TypeError(f"scene: expected a dict, got {type(scene).__name__}")
    return parse_scene(_json.dumps(scene), str(file))


__version__ = "0.1.0"
