#!/usr/bin/env python3
"""Writes the bad-scene corpus (tests/data/bad_scenes/) and its manifest expected.txt.

Each scene is small and wrong in one way. expected.txt lists, per line, the file `pliant run` is
run on and a substring its one-line error must contain (tests/cli/check_bad_scene.cmake checks exit
status 2, exactly one stderr line "pliant: error: ...", and that no output file was written).
Re-run after editing:
    python3 tests/data/bad_scenes/generate.py
The output is deterministic, so re-running changes nothing.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
entries = []


def put(name, scene, expect):
    """Writes `scene` (a dict, dumped as JSON, or raw text) and records the expected substring."""
    text = scene if isinstance(scene, str) else json.dumps(scene, indent=1) + "\n"
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    entries.append((name, expect))


# A small Green block grabbed at a top corner, and a small clamped spring membrane: both valid, each
# bad file below changes one thing.
GREEN = {
    "pliant": 1,
    "name": "bad",
    "time_step": 0.01,
    "steps": 2,
    "bodies": [{
        "name": "block",
        "family": "green",
        "mesh": {"shape": "box", "size": [0.02, 0.02, 0.04], "cells": [1, 1, 2]},
        "material": {"preset": "rubber"},
        "fixed": ["zmin"],
    }],
    "interactions": [{
        "type": "grab", "body": "block", "near": [0.02, 0.02, 0.04],
        "track": [{"t": 0.0, "offset": [0, 0, 0]}, {"t": 1.0, "offset": [0.005, 0, 0]}],
    }],
    "output": {"every": 1},
}
SPRINGS = {
    "pliant": 1,
    "name": "bad",
    "time_step": 0.01,
    "steps": 2,
    "bodies": [{
        "name": "sheet",
        "family": "springs",
        "mesh": {"shape": "rect", "size": [0.04, 0.04], "cells": [4, 4]},
        "fixed": ["xmin"],
        "springs": {"method": "mass_spring", "dt": 0.001, "stiffness": 50,
                    "tearing": {"mode": "area_preserving"}},
    }],
    "interactions": [{
        "type": "grab", "body": "sheet", "near": [0.04, 0.02, 0],
        "track": [{"t": 0.0, "offset": [0, 0, 0]}, {"t": 1.0, "offset": [0.01, 0, 0]}],
    }],
    "output": {"every": 1},
}

FEM = {
    "pliant": 1,
    "name": "bad",
    "time_step": 0.01,
    "steps": 2,
    "bodies": [{
        "name": "beam",
        "family": "fem",
        "mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
        "fixed": ["xmin"],
        "material": {"E": 50000, "nu": 0.3, "density": 1000},
        "fem": {"integrator": "backward_euler", "solver": {"kind": "pcg"}},
    }],
    "output": {"every": 1},
}


def green(**changes):
    return with_changes(GREEN, changes)


def springs(**changes):
    return with_changes(SPRINGS, changes)


def fem(**changes):
    return with_changes(FEM, changes)


def with_changes(base, changes):
    """Copies `base`; each change maps a '/'-separated path (keys, or list indices) to a new value,
    or to DELETE to remove it."""
    s = copy.deepcopy(base)
    for path, value in changes.items():
        parts = path.split("__")
        node = s
        for p in parts[:-1]:
            node = node[int(p)] if isinstance(node, list) else node[p]
        last = int(parts[-1]) if isinstance(node, list) else parts[-1]
        if value is DELETE:
            del node[last]
        else:
            node[last] = value
    return s


DELETE = object()

# ---- the document itself ----
put("not_json.json", "pliant scene, version 1\n", "invalid JSON at line 1, column 1")
put("truncated.json", json.dumps(GREEN, indent=1)[:200], "invalid JSON at line")
put("empty.json", "", "invalid JSON at line 1, column 1")
put("top_level_array.json", "[" + json.dumps(GREEN) + "]\n", "/: expected an object, got an array of 1")
put("number_overflow.json", json.dumps(GREEN, indent=1).replace('"time_step": 0.01', '"time_step": 1e400'),
    "1e400")
put("control_char_key.json", json.dumps(with_changes(GREEN, {"out\nput": {}})),
    "/out\\nput: unknown key")

# ---- version ----
put("missing_version.json", green(pliant=DELETE), '/: missing required key "pliant"')
put("version_2.json", green(pliant=2), "/pliant: unsupported scene format version 2 (this pliant reads version 1)")
put("version_string.json", green(pliant="1"), '/pliant: expected an integer in [1, 1000000], got "1"')

# ---- top-level values ----
put("steps_negative.json", green(steps=-3), "/steps: expected an integer in [1, 100000000], got -3")
put("steps_fraction.json", green(steps=2.5), "/steps: expected an integer in [1, 100000000], got 2.5")
put("time_step_zero.json", green(time_step=0), "/time_step: expected a number > 0 and <= 10, got 0")
put("unknown_key_top.json", green(bodys=[]), "/bodys: unknown key (allowed here: pliant, name")
put("empty_bodies.json", green(bodies=[], interactions=[]), "/bodies: expected at least 1 element, got an array of 0")
put("bodies_object.json", green(bodies={"block": {}}), "/bodies: expected an array, got an object")

# ---- bodies ----
put("duplicate_body_name.json", green(bodies=GREEN["bodies"] * 2),
    '/bodies/1/name: duplicate body name "block" (also /bodies/0/name)')
put("empty_body_name.json", green(bodies__0__name=""), '/bodies/0/name: expected a non-empty name, got ""')
put("body_name_path.json", green(bodies__0__name="../block", interactions=[]),
    '/bodies/0/name: expected letters, digits')
put("scene_name_path.json", green(name="../../etc"),
    "/name: expected letters, digits, '_', '-' or '.' (the name names output files), got \"../../etc\"")
put("unknown_family.json", green(bodies__0__family="cloth"),
    '/bodies/0/family: expected one of "green", "springs"')  # more families may follow
put("unknown_key_body.json", green(bodies__0__colour="red"), "/bodies/0/colour: unknown key")
put("springs_key_on_green.json", green(bodies__0__springs={}),
    "/bodies/0/springs: unknown key (allowed here: name, family, mesh, fixed, contact, render_mesh, material, green)")

# ---- mesh ----
put("unknown_shape.json", green(bodies__0__mesh={"shape": "cylinder"}),
    '/bodies/0/mesh/shape: expected one of "box", "tube", "ball", "disc", "hexdisc", "rect", "icosphere", '
    'got "cylinder"')
put("unknown_key_mesh.json", green(bodies__0__mesh__radius=0.1), "/bodies/0/mesh/radius: unknown key")
put("mesh_file_and_shape.json", green(bodies__0__mesh={"file": "beam.msh", "shape": "box"}),
    "/bodies/0/mesh/shape: unknown key (allowed here: file, units, scale, rotate, translate)")
put("box_cells_arity.json", green(bodies__0__mesh__cells=[1, 2]),
    "/bodies/0/mesh/cells: expected an array of 3 integers, got an array of 2")
put("box_cells_zero.json", green(bodies__0__mesh__cells=[1, 0, 2]),
    "/bodies/0/mesh/cells/1: expected an integer in [1, 100000], got 0")
put("box_too_many_cells.json", green(bodies__0__mesh__cells=[2000, 2000, 2000]),
    "/bodies/0/mesh: box: the parameters ask for")
put("box_size_negative.json", green(bodies__0__mesh__size=[0.02, -0.02, 0.04]),
    "/bodies/0/mesh/size/1: expected a number > 0, got -0.02")
put("tube_radii_swapped.json",
    green(bodies__0__mesh={"shape": "tube", "inner_radius": 0.05, "outer_radius": 0.03}),
    "/bodies/0/mesh: tube:")
put("disc_too_few_nodes.json",
    springs(bodies__0__mesh={"shape": "disc", "radius": 0.05, "nodes": 3}),
    "/bodies/0/mesh/nodes: expected an integer in [7, 2147483647], got 3")
put("rect_size_string.json", springs(bodies__0__mesh__size=["4 cm", 0.04]),
    '/bodies/0/mesh/size/0: expected a number > 0, got "4 cm"')
put("mesh_file_missing.json", green(bodies__0__mesh={"file": "no_such_mesh.msh"}),
    "/bodies/0/mesh/file: ")
put("mesh_file_missing_relative.json", green(bodies__0__mesh={"file": "meshes/no_such_mesh.msh"}),
    '("meshes/no_such_mesh.msh" is relative to the scene file\'s folder /')
# JSON strings with control characters are echoed escaped, so the message stays one line.
put("string_with_newline.json", green(interactions__0__body="pi\npe\u0007"),
    '/interactions/0/body: no body named "pi\\npe\\x07"')
put("mesh_path_with_newline.json", green(bodies__0__mesh={"file": "no\nsuch\r.msh"}),
    "no\\nsuch\\r.msh: cannot open")
put("mesh_file_hostile_bytes.json", green(bodies__0__mesh={"file": "../bad/obj_control_bytes.obj"}),
    "found '\\x07\\x1B\\0\\xFF'")
put("mesh_file_bad.json", green(bodies__0__mesh={"file": "../bad/truncated_nodes.msh"}),
    "the file is truncated")
put("mesh_file_inverted.json", green(bodies__0__mesh={"file": "../bad/inverted_tet.msh"}, interactions=[]),
    "inverted")
put("green_on_membrane.json", green(bodies__0__mesh={"shape": "rect"}),
    "/bodies/0/mesh: the green family needs a volume (tetrahedral) mesh")

# ---- material (green) ----
put("material_E_string.json", green(bodies__0__material={"E": "soft", "nu": 0.45}),
    '/bodies/0/material/E: expected a number > 0, got "soft"')
put("material_E_zero.json", green(bodies__0__material={"E": 0, "nu": 0.45}),
    "/bodies/0/material/E: expected a number > 0, got 0")
put("material_nu_half.json", green(bodies__0__material={"E": 1e5, "nu": 0.5}),
    "/bodies/0/material/nu: expected a number > -1 and < 0.5, got 0.5")
put("material_nu_missing.json", green(bodies__0__material={"E": 1e5}),
    '/bodies/0/material: missing required key "nu"')
put("material_unknown_preset.json", green(bodies__0__material={"preset": "jelly"}),
    "/bodies/0/material/preset: material: unknown preset 'jelly' (known: ")
put("material_preset_and_E.json", green(bodies__0__material={"preset": "rubber", "E": 1e5}),
    '/bodies/0/material: give either "preset" or elastic constants, not both')
put("material_density_inf.json",
    json.dumps(green(bodies__0__material={"preset": "rubber", "density": 7}), indent=1)
    .replace('"density": 7', '"density": -1e999'), "-1e999")
put("green_unknown_key.json", green(bodies__0__green={"rotation": True}),
    "/bodies/0/green/rotation: unknown key (allowed here: rotation_correction, cache, threads, max_memory_gb, "
    "gravity, pressure)")
put("green_gravity_short.json", green(bodies__0__green={"gravity": [0, -9.81]}), "/bodies/0/green/gravity: ")
put("green_pressure_no_triangle.json",
    green(bodies__0__green={"pressure": [{"region": "sphere:5,5,5,0.001", "value": 100}]}),
    "/bodies/0/green/pressure/0/region: the region selects no surface triangle")
put("green_pressure_value_string.json",
    green(bodies__0__green={"pressure": [{"region": "xmax", "value": "high"}]}),
    "/bodies/0/green/pressure/0/value: ")
put("green_threads_string.json", green(bodies__0__green={"threads": "all"}),
    '/bodies/0/green/threads: expected an integer in [0, 1024], got "all"')
put("green_too_big.json",
    green(bodies__0__mesh={"shape": "box", "size": [0.1, 0.1, 0.1], "cells": [40, 40, 40]},
          bodies__0__green={"max_memory_gb": 0.05}),
    "/bodies/0: green: the precomputation needs about")

# ---- fixed regions ----
put("fixed_not_array.json", green(bodies__0__fixed="zmin"), '/bodies/0/fixed: expected an array, got "zmin"')
put("fixed_box_arity.json", green(bodies__0__fixed=["box:0,0,0"]),
    '/bodies/0/fixed/0: region "box:0,0,0": box needs 6 numbers')
put("fixed_unknown_region.json", green(bodies__0__fixed=["bottom"]), '/bodies/0/fixed/0: region "bottom"')
put("fixed_bad_number.json", green(bodies__0__fixed=["z<=zero"]), '/bodies/0/fixed/0: region "z<=zero"')
put("fixed_node_out_of_range.json", green(bodies__0__fixed=["nodes:0-99"]), "/bodies/0/fixed/0: ")
put("fixed_selects_nothing.json", green(bodies__0__fixed=["zmin", "z<-1"]),
    '/bodies/0/fixed/1: region "z<-1" selects no node')
put("fixed_selects_nothing_springs.json", springs(bodies__0__fixed=["sphere:1,1,1,0.01"]),
    '/bodies/0/fixed/0: region "sphere:1,1,1,0.01" selects no node')
put("green_not_fixed.json", green(bodies__0__fixed=DELETE),
    '/bodies/0: missing required key "fixed" (a Green body must be held somewhere)')
put("green_fixed_one_line.json", green(bodies__0__fixed=["nodes:0-1"]),
    "/bodies/0/fixed: the fixed regions select 2 nodes, all on one line: a Green body needs at least 3 fixed nodes")
put("green_fixed_one_node.json", green(bodies__0__fixed=["nodes:0"]),
    "/bodies/0/fixed: the fixed regions select 1 node: a Green body needs at least 3")

# ---- springs ----
put("springs_unknown_method.json", springs(bodies__0__springs__method="verlet"),
    '/bodies/0/springs/method: expected one of "mass_spring", ')
put("springs_unknown_tearing_mode.json", springs(bodies__0__springs__tearing__mode="rip"),
    '/bodies/0/springs/tearing/mode: expected one of "off", "area_preserving", "deletion", got "rip"')
put("springs_unknown_key_tearing.json", springs(bodies__0__springs__tearing__threshold=1.0),
    "/bodies/0/springs/tearing/threshold: unknown key")
put("springs_max_stretch_below_1.json", springs(bodies__0__springs__max_stretch=0.9),
    "/bodies/0/springs/max_stretch: expected a number >= 1, got 0.9")
put("springs_damping_negative.json", springs(bodies__0__springs__damping=-0.1),
    "/bodies/0/springs/damping: expected a number >= 0, got -0.1")
put("springs_gravity_arity.json", springs(bodies__0__springs__gravity=[0, -9.81]),
    "/bodies/0/springs/gravity: expected an array of 3 numbers, got an array of 2")
put("springs_too_many_substeps.json", springs(time_step=1.0, bodies__0__springs__dt=1e-9),
    "/bodies/0/springs: one world step of 1 s would take 1e+09 substeps")
put("springs_dt_unstable.json", springs(bodies__0__springs__stiffness=1e5),
    "/bodies/0/springs/dt: 0.001 s is above the explicit-Euler stability limit of this mesh")
put("springs_undamped.json", springs(bodies__0__springs__damping=0),
    "/bodies/0/springs: explicit Euler amplifies undamped motion")
put("springs_dt_above_time_step.json", springs(bodies__0__springs__dt=0.05),
    "/bodies/0/springs/dt: expected a number <= 0.01 (the scene's time_step), got 0.05")

# ---- fem ----
put("fem_unknown_mass.json", fem(bodies__0__fem__mass="diagonal"),
    '/bodies/0/fem/mass: expected one of "lumped", "consistent", got "diagonal"')
put("fem_consistent_mass_explicit.json",
    fem(bodies__0__fem__mass="consistent", bodies__0__fem__integrator="central_difference",
        bodies__0__fem__solver=DELETE),
    "/bodies/0/fem/mass: a consistent mass needs an implicit integrator (central_difference takes a diagonal")
put("fem_explicit_dt_unstable.json",
    fem(bodies__0__fem__integrator="symplectic_euler", bodies__0__fem__dt=0.01, bodies__0__fem__solver=DELETE),
    "/bodies/0/fem/dt: a substep of 0.01 s is above the stable step of symplectic_euler")

# ---- interactions ----
put("interactions_object.json", green(interactions={"type": "grab"}),
    "/interactions: expected an array, got an object")
put("interaction_unknown_type.json", green(interactions__0__type="poke"),
    '/interactions/0/type: expected one of "grab", "probe"')
put("interaction_unknown_body.json", green(interactions__0__body="pipe"),
    '/interactions/0/body: no body named "pipe" (bodies: "block")')
put("grab_near_arity.json", green(interactions__0__near=[0.02, 0.02]),
    "/interactions/0/near: expected an array of 3 numbers, got an array of 2")
put("grab_near_string.json", green(interactions__0__near=[0.02, "top", 0.04]),
    '/interactions/0/near/1: expected a number, got "top"')
put("grab_track_empty.json", green(interactions__0__track=[]),
    "/interactions/0/track: expected at least 1 element, got an array of 0")
put("grab_track_not_increasing.json",
    green(interactions__0__track=[{"t": 0.0, "offset": [0, 0, 0]}, {"t": 1.0, "offset": [0.01, 0, 0]},
                                  {"t": 0.5, "offset": [0, 0, 0]}]),
    "/interactions/0/track/2/t: expected a time > 1 (the previous keyframe's), got 0.5")
put("grab_track_unknown_key.json", green(interactions__0__track__1__offest=[0, 0, 0]),
    "/interactions/0/track/1/offest: unknown key (allowed here: t, offset)")
put("grab_release_before_start.json", green(interactions__0__start=1.0, interactions__0__release=0.5),
    "/interactions/0/release: expected a time > 1 (the grab's start), got 0.5")
put("grab_radius_negative.json", green(interactions__0__radius=-0.01),
    "/interactions/0/radius: expected a number >= 0, got -0.01")
put("grab_radius_string.json", green(interactions__0__radius="2 cm"),
    '/interactions/0/radius: expected a number >= 0, got "2 cm"')
put("grab_radius_on_springs.json", springs(interactions__0__radius=0.01, bodies__0__springs__dt=0.0002),
    '/interactions/0/radius: body "sheet" (family springs) holds single nodes only')
put("probe_missing_force.json",
    green(interactions=[{"type": "probe", "body": "block", "near": [0.02, 0.02, 0.04]}]),
    '/interactions/0: missing required key "force"')
put("probe_end_before_start.json",
    green(interactions=[{"type": "probe", "body": "block", "near": [0.02, 0.02, 0.04], "force": [1, 0, 0],
                         "start": 0.5, "end": 0.2}]),
    "/interactions/0/end: expected a time > 0.5 (the probe's start), got 0.2")
put("green_all_nodes_fixed.json", green(bodies__0__fixed=["x>=-1"]),
    "/bodies/0/fixed: the fixed regions hold all 12 nodes: nothing is left to deform")

TOOL = {"type": "tool", "shape": "cylinder", "start": [0.01, 0.01, 0.05], "radius": 0.004, "length": 0.03,
        "stiffness": 10, "track": [{"t": 0.0, "offset": [0, 0, 0]}, {"t": 1.0, "offset": [0, 0, -0.02]}]}
put("tool_unknown_shape.json", green(interactions=[dict(TOOL, shape="sphere")]),
    '/interactions/0/shape: expected one of "cylinder", got "sphere"')
put("tool_zero_axis.json", green(interactions=[dict(TOOL, axis=[0, 0, 0])]),
    "/interactions/0/axis: expected a non-zero direction, got an array of 3")
put("tool_missing_radius.json", green(interactions=[{k: v for k, v in TOOL.items() if k != "radius"}]),
    '/interactions/0: missing required key "radius"')

# ---- meshless ----
MESHLESS_BODY = {"name": "jelly", "family": "meshless",
                 "mesh": {"shape": "box", "size": [0.02, 0.02, 0.02], "cells": [1, 1, 1]},
                 "material": {"E": 20000, "nu": 0.3}, "meshless": {"spacing": 0.005}}


def meshless(**settings):
    return green(bodies=[dict(MESHLESS_BODY, meshless=dict(MESHLESS_BODY["meshless"], **settings))],
                 interactions=[])


put("meshless_sampling_unknown.json", meshless(sampling="poisson_disk"),
    '/bodies/0/meshless/sampling: expected one of "lattice", "poisson", got "poisson_disk"')
put("meshless_poisson_jitter.json", meshless(sampling="poisson", jitter=0.5),
    '/bodies/0/meshless/jitter: jitter applies to "sampling": "lattice" only')
put("meshless_region_open_surface.json",
    meshless(material_regions=[{"mesh": {"shape": "rect", "size": [0.01, 0.01], "cells": [2, 2]},
                                "material": {"E": 50000, "nu": 0.3}}]),
    "/bodies/0/meshless/material_regions/0/mesh: signed distance: ")
put("meshless_region_mesh_and_region.json",
    meshless(material_regions=[{"region": "x<0", "mesh": {"shape": "icosphere", "radius": 0.01},
                                "material": {"E": 50000, "nu": 0.3}}]),
    '/bodies/0/meshless/material_regions/0: give either "mesh" (a closed surface) or "region"')
put("meshless_region_selects_none.json",
    meshless(material_regions=[{"region": "x>5", "material": {"E": 50000, "nu": 0.3}}]),
    "/bodies/0/meshless/material_regions/0/region: the region holds no phyxel")

# Units and transforms of a mesh (any shape or file).
put("mesh_units_unknown.json", green(bodies__0__mesh__units="inch"),
    '/bodies/0/mesh/units: expected one of "m", "cm", "mm", got "inch"')
put("mesh_scale_zero.json", green(bodies__0__mesh__scale=0), "/bodies/0/mesh/scale: expected a number > 0, got 0")
put("mesh_scale_vector_zero.json", green(bodies__0__mesh__scale=[1, 0, 1]),
    "/bodies/0/mesh/scale/1: expected a number > 0, got 0")
put("mesh_scale_nan.json", green(bodies__0__mesh__scale="NaN"),
    '/bodies/0/mesh/scale: expected a number > 0, got "NaN"')
put("mesh_scale_arity.json", green(bodies__0__mesh__scale=[1, 2]),
    "/bodies/0/mesh/scale: expected a number > 0 or an array of 3 numbers > 0, got an array of 2")
put("mesh_rotate_zero_axis.json", green(bodies__0__mesh__rotate={"axis": [0, 0, 0], "degrees": 30}),
    "/bodies/0/mesh/rotate/axis: rotation axis is the zero vector")
put("mesh_rotate_no_degrees.json", green(bodies__0__mesh__rotate={"axis": [0, 0, 1]}),
    '/bodies/0/mesh/rotate: missing required key "degrees"')
put("mesh_rotate_quaternion_norm.json", green(bodies__0__mesh__rotate=[1, 0, 0, 0.5]),
    "/bodies/0/mesh/rotate: quaternion [w, x, y, z] has norm 1.11803399, expected 1")
put("mesh_translate_string.json", green(bodies__0__mesh__translate="up"),
    '/bodies/0/mesh/translate: expected an array of 3 numbers, got "up"')
put("fixed_relative_over.json", green(bodies__0__fixed=["xmin+120%"]),
    "between 0% and 100%")

# ---- contact: colliders, a body's "contact", "contact_solver" ----
FLOOR = {"name": "floor", "shape": "plane", "normal": [0, 0, 1], "position": [0, 0, -0.001]}


def collider(**changes):
    c = dict(FLOOR, **changes)
    return green(colliders=[{k: v for k, v in c.items() if v is not None}])


# An OBJ file holding no triangle, for the mesh collider below.
with open(os.path.join(HERE, "empty_mesh.obj"), "w", encoding="utf-8", newline="\n") as f:
    f.write("# no vertices, no faces\n")


put("collider_unknown_shape.json", collider(shape="cone"),
    '/colliders/0/shape: expected one of "plane", "sphere", "capsule", "box", "mesh", got "cone"')
put("collider_zero_normal.json", collider(normal=[0, 0, 0]), "/colliders/0/normal: expected a non-zero normal")
put("collider_sphere_radius_zero.json", collider(shape="sphere", normal=None, radius=0),
    "/colliders/0/radius: expected a number > 0, got 0")
put("collider_capsule_radius_negative.json",
    collider(shape="capsule", normal=None, radius=-0.01, half_length=0.02),
    "/colliders/0/radius: expected a number > 0, got -0.01")
put("collider_box_size_zero.json", collider(shape="box", normal=None, size=[0.1, 0, 0.1]),
    "/colliders/0/size: expected 3 numbers > 0")
put("collider_zero_quaternion.json", collider(rotation={"quaternion": [0, 0, 0, 0]}),
    "/colliders/0/rotation/quaternion: quaternion [w, x, y, z] has norm 0, expected 1")
put("collider_zero_axis.json", collider(rotation={"axis": [0, 0, 0], "degrees": 30}),
    "/colliders/0/rotation/axis: rotation axis is the zero vector")
put("collider_friction_negative.json", collider(friction=-0.1),
    "/colliders/0/friction: expected a number >= 0, got -0.1")
put("collider_margin_zero.json", collider(margin=0), "/colliders/0/margin: expected a number > 0, got 0")
put("collider_mesh_missing.json", collider(shape="mesh", normal=None, mesh={"file": "no_such_mesh.obj"}),
    "/colliders/0/mesh/file: ")
put("collider_mesh_empty.json", collider(shape="mesh", normal=None, mesh={"file": "empty_mesh.obj"}),
    "/colliders/0/mesh/file: ")
put("collider_track_time_order.json",
    collider(track=[{"t": 1.0, "position": [0, 0, 0]}, {"t": 0.5, "position": [0, 0, 0.01]}]),
    "/colliders/0/track/1/t: expected a time greater than the previous keyframe's")
put("collider_duplicate_name.json", green(colliders=[FLOOR, FLOOR]),
    '/colliders/1: duplicate collider name "floor"')
put("collider_unknown_key.json", collider(radius=0.1), "/colliders/0/radius: unknown key")
put("body_contact_friction_negative.json",
    green(bodies=[dict(GREEN["bodies"][0], contact={"friction": -1})]),
    "/bodies/0/contact/friction: expected a number >= 0, got -1")
put("body_contact_margin_zero.json", green(bodies=[dict(GREEN["bodies"][0], contact={"margin": 0})]),
    "/bodies/0/contact/margin: expected a number > 0, got 0")
put("body_contact_self_string.json", green(bodies=[dict(GREEN["bodies"][0], contact={"self": "yes"})]),
    '/bodies/0/contact/self: expected true or false, got "yes"')
put("contact_solver_tolerance_zero.json", green(contact_solver={"tolerance": 0}),
    "/contact_solver/tolerance: expected a number > 0 and <= 1, got 0")
put("contact_solver_relaxation_above_one.json", green(contact_solver={"relaxation": 1.5}),
    "/contact_solver/relaxation: expected a number > 0 and <= 1, got 1.5")

# ---- instruments ----
PROBE = {"name": "probe", "type": "probe", "radius": 0.004, "length": 0.05,
         "position": [0.01, 0.01, 0.05], "track": [{"t": 0, "position": [0.01, 0.01, 0.05]},
                                                  {"t": 1, "position": [0.01, 0.01, 0.04]}]}


def instrument(**changes):
    p = dict(PROBE, **changes)
    return green(instruments=[{k: v for k, v in p.items() if v is not None}])


put("instrument_unknown_type.json", instrument(type="forceps"),
    '/instruments/0/type: expected one of "probe", "grasper", "scalpel", got "forceps"')
put("instrument_radius_zero.json", instrument(radius=0), "/instruments/0/radius: expected a number > 0, got 0")
put("instrument_radius_negative.json", instrument(radius=-0.002),
    "/instruments/0/radius: expected a number > 0, got -0.002")
put("instrument_length_negative.json", instrument(length=-0.1),
    "/instruments/0/length: expected a number >= 0, got -0.1")
put("instrument_position_infinite.json",
    json.dumps(instrument(position=[0, 0, 1]), indent=1).replace('"position": [\n    0,\n    0,\n    1\n   ]',
                                                                  '"position": [0, 0, 1e999]') + "\n",
    "line 69, column 23: number 1e999 is out of the range of a double")
put("instrument_position_string.json", instrument(position="up"),
    '/instruments/0/position: expected an array of 3 numbers, got "up"')
put("instrument_track_time_order.json",
    instrument(track=[{"t": 1.0, "position": [0, 0, 0.05]}, {"t": 0.5, "position": [0, 0, 0.04]}]),
    "/instruments/0/track/1/t: expected a time greater than the previous keyframe's")
put("instrument_two_on_one_device.json",
    green(instruments=[dict(PROBE, device=True), dict(PROBE, name="probe2", device=True)]),
    '/instruments/1/device: instrument "probe2" and instrument "probe" are both driven by the device')
put("instrument_name_taken.json", green(colliders=[dict(FLOOR, name="probe")], instruments=[PROBE]),
    '/instruments/0: duplicate name "probe"')
put("instrument_unknown_key.json", instrument(half_length=0.02), "/instruments/0/half_length: unknown key")
put("instrument_missing_type.json", instrument(type=None), '/instruments/0: missing required key "type"')
GRASPER = {"name": "grasper", "type": "grasper", "position": [0.01, 0.01, 0.05],
           "jaws": {"grip": 1.0, "track": [{"t": 0.1, "closed": True}]}}
SCALPEL = {"name": "scalpel", "type": "scalpel", "position": [0.01, 0.01, 0.05], "blade": {"length": 0.02}}
put("grasper_grip_zero.json", green(instruments=[dict(GRASPER, jaws={"grip": 0})]),
    "/instruments/0/jaws/grip: expected a number > 0, got 0")
put("grasper_opening_negative.json", green(instruments=[dict(GRASPER, jaws={"opening": -0.01})]),
    "/instruments/0/jaws/opening: expected a number > 0, got -0.01")
put("grasper_jaw_track_order.json",
    green(instruments=[dict(GRASPER, jaws={"track": [{"t": 0.5, "closed": True}, {"t": 0.2, "closed": False}]})]),
    "/instruments/0/jaws/track/1/t: expected a time after the previous key's")
put("grasper_jaw_closed_number.json", green(instruments=[dict(GRASPER, jaws={"track": [{"t": 0.5, "closed": 1}]})]),
    "/instruments/0/jaws/track/0/closed: expected")
put("grasper_probe_key.json", green(instruments=[dict(GRASPER, radius=0.01)]), "/instruments/0/radius: unknown key")
put("grasper_jaws_unknown_key.json", green(instruments=[dict(GRASPER, jaws={"force": 1})]),
    "/instruments/0/jaws/force: unknown key")
put("scalpel_blade_thickness_zero.json", green(instruments=[dict(SCALPEL, blade={"thickness": 0})]),
    "/instruments/0/blade/thickness: expected a number > 0, got 0")
put("scalpel_jaws_key.json", green(instruments=[dict(SCALPEL, jaws={})]), "/instruments/0/jaws: unknown key")

# ---- a body's render mesh ----
def render_mesh(value):
    return green(bodies=[dict(GREEN["bodies"][0], render_mesh=value)])


put("render_mesh_far.json", render_mesh({"shape": "icosphere", "center": [2, 2, 2], "radius": 0.01}),
    '/bodies/0/render_mesh: render mesh node 0 lies 3.4')
put("render_mesh_missing.json", render_mesh({"file": "no_such_mesh.obj"}), "/bodies/0/render_mesh/file: ")
put("render_mesh_empty.json", render_mesh({"file": "empty_mesh.obj"}), "/bodies/0/render_mesh/file: ")
put("render_mesh_string.json", render_mesh("liver.obj"), "/bodies/0/render_mesh: expected an object")

# ---- output ----
put("output_width_zero.json", green(output={"png": False, "width": 0}),
    "/output/width: expected an integer in [16, 8192], got 0")
put("output_every_negative.json", green(output={"every": -1}),
    "/output/every: expected an integer in [0, 100000000], got -1")
put("output_vtu_string.json", green(output={"vtu": "yes"}), '/output/vtu: expected true or false, got "yes"')
put("output_unknown_color.json", green(output={"color": "temperature"}),
    '/output/color: expected a field of these bodies ("displacement"), got "temperature"')
put("output_unknown_key.json", green(output={"format": "vtu"}), "/output/format: unknown key")

# A modal body whose every node is fixed has nothing to vibrate: the cause, not "need 1 <= modes < 0".
put("fem_modal_all_fixed.json",
    fem(bodies__0__fixed=["box:-1,-1,-1,1,1,1"], bodies__0__fem={"modal": {"modes": 2}}),
    "/bodies/0/fem/modal: fem modal: modal analysis: no free nodes (every node is fixed)")

# ---- meshless limits ----
# A 4 cm meshless cube at a spacing of 0.1 mm: 64 M lattice nodes, refused from the estimate before any
# sampling (it took 25-60 s and 1.2 GB to be refused after sampling).
put("meshless_spacing_too_fine.json", {
    "pliant": 1, "name": "bad", "time_step": 0.01, "steps": 2,
    "bodies": [{"name": "cube", "family": "meshless",
                "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
                "fixed": ["zmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
                "meshless": {"spacing": 0.0001}}],
    "output": {"every": 1}},
    "/bodies/0/meshless/spacing: about 6")

with open(os.path.join(HERE, "expected.txt"), "w", encoding="utf-8", newline="\n") as f:
    f.write("# file<TAB>substring of the one-line error `pliant run FILE` must print (generated by generate.py)\n")
    for name, expect in entries:
        f.write(f"{name}\t{expect}\n")
