"""Scenes and bodies from Python: zero-copy views, grabs, events, equality with the CLI, errors, the GIL
and Ctrl-C, and no leaks over many create/destroy cycles."""

import json
import os
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import pliant

BEAM = {
    "pliant": 1,
    "name": "beam",
    "time_step": 0.02,
    "steps": 20,
    "bodies": [
        {
            "name": "beam",
            "family": "green",
            "mesh": {"shape": "box", "origin": [0, -0.02, -0.02], "size": [0.3, 0.04, 0.04], "cells": [6, 1, 1]},
            "material": {"preset": "rubber"},
            "fixed": ["xmin"],
        }
    ],
    "interactions": [
        {"type": "probe", "body": "beam", "near": [0.3, 0, 0.02], "force": [0, 0, -0.5], "ramp": 0.2}
    ],
}

MEMBRANE = {
    "pliant": 1,
    "name": "membrane",
    "time_step": 0.01,
    "steps": 30,
    "bodies": [
        {
            "name": "membrane",
            "family": "springs",
            "mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [8, 8]},
            "fixed": ["xmin", "xmax"],
        }
    ],
}


def beam_scene():
    return pliant.scene_from_dict(BEAM)


def test_surface_views_are_zero_copy_and_follow_the_steps():
    scene = beam_scene()
    body = scene.world.body("beam")
    x = body.surface_positions
    assert x.shape == (len(body.surface_rest_positions), 3) and x.dtype == np.float64
    assert not x.flags.writeable and not x.flags.owndata
    before = x.copy()
    scene.world.run(10)
    # The same array object now shows the new positions: the step wrote into the memory it views.
    assert np.abs(x - before).max() > 1e-5
    np.testing.assert_array_equal(x, body.surface_positions)
    tri = body.surface_triangles
    assert tri.dtype == np.int32 and tri.shape[1] == 3 and tri.max() < len(x)


def test_render_mesh_follows_the_body_as_a_zero_copy_view():
    scene_dict = {
        "pliant": 1, "name": "cage", "time_step": 0.01, "steps": 10,
        "bodies": [{
            "name": "block", "family": "fem",
            "mesh": {"shape": "box", "size": [0.1, 0.04, 0.04], "cells": [5, 2, 2]},
            "render_mesh": {"shape": "icosphere", "center": [0.05, 0.02, 0.02], "radius": 0.015, "subdivisions": 2},
            "fixed": ["xmin"], "material": {"preset": "liver"}, "fem": {"gravity": [0, 0, -9.81]},
        }],
    }
    world = pliant.scene_from_dict(scene_dict).world
    assert world.render_mesh("block")["embedding"] == "tets"
    render = world.render_mesh(0)
    x, x0 = render["positions"], render["rest_positions"]
    assert x.shape == x0.shape and render["triangles"].max() < len(x) and not x.flags.writeable
    world.run(10)
    # The zero-copy view shows the sagged sphere; every vertex went down with the block.
    assert (x[:, 2] - x0[:, 2]).max() < 0
    membrane = pliant.scene_from_dict(MEMBRANE).world
    assert membrane.render_mesh("membrane") is None


def test_probe_bends_the_beam_down_and_fields_fill_caller_buffers():
    scene = beam_scene()
    w = scene.world
    w.run(20)
    body = w.body(0)
    dz = body.surface_positions[:, 2] - body.surface_rest_positions[:, 2]
    assert dz.min() < -1e-4  # the probe pushes -z at the free end
    u = body.field("displacement")
    np.testing.assert_allclose(u, np.linalg.norm(body.surface_positions - body.surface_rest_positions, axis=1),
                               rtol=1e-12, atol=1e-15)
    out = np.empty(len(u))
    assert body.field("displacement", out=out) is not None
    np.testing.assert_array_equal(out, u)
    with pytest.raises(ValueError, match="out: expected a writeable contiguous float64 array"):
        body.field("displacement", out=np.empty(3))
    with pytest.raises(KeyError):
        body.field("no_such_field")
    assert set(w.profile) >= {"apply_interactions", "solve"}


def test_a_grab_by_ray_holds_the_point_and_reports_a_restoring_reaction():
    scene = beam_scene()
    w = scene.world
    hit = w.pick([0.29, 0.0, 1.0], [0, 0, -1])
    assert hit is not None and hit["body"] == 0
    assert hit["position"][2] == pytest.approx(0.02)
    body = w.body(hit["body"])
    grab = body.grab(hit["point"])
    assert grab.valid
    target = hit["position"] + [0, 0, 0.005]
    body.move_grab(grab, target)
    w.step()
    reaction = body.reaction(grab)
    # Lifting the free end: the beam pulls the tool back down.
    assert reaction[2] < 0
    # Green bodies are linear: reaction = -K (x - x0) with K = compliance⁻¹ at the grab.
    c = body.compliance(grab)
    assert c.shape == (3, 3) and np.allclose(c, c.T, rtol=1e-6, atol=1e-12)
    body.release(grab)


def test_membrane_from_a_dict_steps_and_hashes_deterministically():
    a = pliant.scene_from_dict(MEMBRANE)
    b = pliant.scene_from_dict(MEMBRANE)
    a.world.run(15)
    for _ in range(15):
        b.world.step()
    assert a.world.state_hash == b.world.state_hash
    assert a.world.body(0).family == "springs"


def test_scene_run_writes_frames_and_returns_the_summary(tmp_path):
    scene = beam_scene()
    summary = scene.run(tmp_path, steps=10)
    assert summary["steps"] == 10
    assert (tmp_path / "summary.json").exists()
    assert json.loads((tmp_path / "summary.json").read_text())["state_hash"] == summary["state_hash"]
    assert (tmp_path / "beam.pvd").exists() and summary["vtu_files"] >= 2
    assert summary["state_hash"] == f"{scene.world.state_hash:016x}"


def test_python_and_the_cli_give_the_same_state(tmp_path, cli):
    if cli is None:
        pytest.skip("PLIANT_CLI not set (ctest sets it)")
    path = tmp_path / "beam.json"
    path.write_text(json.dumps(BEAM))
    subprocess.run([str(cli), "run", str(path), "-o", str(tmp_path / "cli"), "--steps", "12"], check=True,
                   capture_output=True)
    cli_hash = json.loads((tmp_path / "cli" / "summary.json").read_text())["state_hash"]
    scene = pliant.load_scene(path)
    scene.world.run(12)
    assert f"{scene.world.state_hash:016x}" == cli_hash


def test_scene_errors_name_the_json_path():
    bad = json.loads(json.dumps(BEAM))
    bad["bodies"][0]["material"] = {"E": "soft", "nu": 0.3}
    with pytest.raises(pliant.Error, match="beam.json: /bodies/0/material/E"):
        pliant.scene_from_dict(bad, file="beam.json")
    bad = json.loads(json.dumps(BEAM))
    bad["bodies"][0]["colour"] = 1
    with pytest.raises(pliant.Error, match="/bodies/0/colour"):
        pliant.scene_from_dict(bad)
    with pytest.raises(TypeError, match="scene: expected a dict"):
        pliant.scene_from_dict([1, 2])
    with pytest.raises(pliant.Error, match="no_such.json"):
        pliant.load_scene("no_such.json")
    with pytest.raises(ValueError, match="steps"):
        beam_scene().world.run(-1)


def test_bad_interaction_arguments_name_the_argument():
    scene = beam_scene()
    body = scene.world.body(0)
    with pytest.raises(ValueError, match="point: triangle"):
        body.apply_force(pliant.SurfacePoint(10**6), [0, 0, 1])
    with pytest.raises(ValueError, match="force: expected 3 numbers"):
        body.apply_force(pliant.SurfacePoint(0), [0, 1])
    with pytest.raises(ValueError, match="direction"):
        scene.world.pick([0, 0, 0], [0, 0, 0])
    with pytest.raises(KeyError):
        scene.world.body("nobody")
    with pytest.raises(IndexError):
        scene.world.body(5)


def test_a_long_run_releases_the_gil():
    scene = pliant.scene_from_dict(MEMBRANE)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        start = time.monotonic()
        steps = 0
        while time.monotonic() - start < 0.3:
            scene.world.run(50)
            steps += 50
    finally:
        stop.set()
        t.join()
    # The counter thread ran while the main thread was inside run(): many ticks, not one per call.
    assert len(ticks) > steps / 50 + 10


def test_ctrl_c_stops_a_run():
    scene = pliant.scene_from_dict(MEMBRANE)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        scene.world.run(10**9)
    assert time.monotonic() - start < 5
    assert scene.world.step_count > 0


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_no_leak_over_a_thousand_create_destroy_cycles():
    small = json.loads(json.dumps(MEMBRANE))
    small["bodies"][0]["mesh"]["cells"] = [3, 3]

    def cycle():
        s = pliant.scene_from_dict(small)
        w = s.world
        b = w.body(0)
        x = b.surface_positions
        w.step()
        return float(x[0, 0])

    for _ in range(100):  # warm-up: allocator pools, caches
        cycle()
    before = rss_kib()
    for _ in range(1000):
        cycle()
    growth = rss_kib() - before
    # A leaked scene would cost tens of KiB each (tens of MiB in all).
    assert growth < 4096, f"RSS grew by {growth} KiB over 1000 cycles"


def test_views_keep_their_body_alive():
    x = beam_scene().world.body(0).surface_positions  # scene, world and body go out of scope here
    assert np.isfinite(x).all()  # the view's base holds them alive


def test_a_world_built_in_python_equals_the_same_scene_from_a_file():
    spec = dict(BEAM["bodies"][0])
    world = pliant.World(time_step=BEAM["time_step"])
    body = world.add_body(spec)
    assert body.family == "green" and world.body_count == 1
    # The same mesh as an object instead of the shape key gives the same body.
    mesh = pliant.box(size=[0.3, 0.04, 0.04], cells=[6, 1, 1], origin=[0, -0.02, -0.02])
    twin = pliant.World(time_step=BEAM["time_step"])
    other = twin.add_body(name="beam", family="green", mesh=mesh, material={"preset": "rubber"}, fixed=["xmin"])
    np.testing.assert_array_equal(body.surface_rest_positions, other.surface_rest_positions)
    for w, b in ((world, body), (twin, other)):
        hit = w.pick([0.29, 0.0, 1.0], [0, 0, -1])
        g = b.grab(hit["point"])
        b.move_grab(g, hit["position"] + [0, 0, 0.004])
        w.run(3)
    assert world.state_hash == twin.state_hash
    with pytest.raises(pliant.Error, match='body.json: /name: duplicate body name "beam"'):
        world.add_body(spec)


def test_add_body_errors_name_the_json_path_inside_the_body():
    world = pliant.World()
    with pytest.raises(pliant.Error, match="body.json: /material/E"):
        world.add_body(name="b", family="green", mesh=pliant.box(), material={"E": -1, "nu": 0.3}, fixed=["xmin"])
    with pytest.raises(pliant.Error, match="/family"):
        world.add_body(name="b", family="jelly", mesh=pliant.box())
    with pytest.raises(TypeError, match="mesh: expected"):
        world._add_body("{}", 5, "x.json")
    with pytest.raises(ValueError, match="time_step"):
        pliant.World(time_step=0)
    assert world.body_count == 0


def test_a_green_asset_built_in_python_is_shared_saved_and_equals_the_scene_body(tmp_path):
    mesh = pliant.box(size=[0.3, 0.04, 0.04], cells=[6, 1, 1], origin=[0, -0.02, -0.02])
    seen = []
    asset = pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["xmin"], progress=seen.append)
    assert seen and seen[-1] == 1.0 and all(a <= b for a, b in zip(seen, seen[1:]))
    asset.save(tmp_path / "beam.green")
    loaded = pliant.GreenAsset.load(tmp_path / "beam.green")
    worlds = []
    for a in (asset, loaded):
        w = pliant.World(time_step=BEAM["time_step"])
        w.add_green_body("beam", a)
        # A second body over the same asset, in a world of its own: in one world the two coincide, and
        # bodies touch each other (contact), which would push them apart.
        pliant.World(time_step=BEAM["time_step"]).add_green_body("twin", a)
        worlds.append(w)
    reference = pliant.World(time_step=BEAM["time_step"])
    reference.add_body(BEAM["bodies"][0])
    for w in worlds + [reference]:
        b = w.body(0)
        hit = w.pick([0.29, 0.0, 1.0], [0, 0, -1])
        g = b.grab(hit["point"])
        b.move_grab(g, hit["position"] + [0, 0, 0.004])
        w.step()
    x = [w.body(0).surface_positions for w in worlds + [reference]]
    np.testing.assert_array_equal(x[0], x[1])  # the file holds the same asset
    np.testing.assert_allclose(x[0], x[2], rtol=0, atol=1e-12)  # and the scene builds the same body
    with pytest.raises(pliant.Error, match="duplicate body name"):
        worlds[0].add_green_body("beam", asset)


def test_an_exception_in_the_progress_callback_cancels_the_precomputation():
    mesh = pliant.box(size=[0.3, 0.04, 0.04], cells=[12, 2, 2])
    calls = []

    def stop(fraction):
        calls.append(fraction)
        if fraction > 0:
            raise RuntimeError("stop here")

    # Progress comes from the first worker as its blocks finish, so where the build stops depends on
    # the schedule; the exception always reaches the caller, with no asset.
    with pytest.raises(RuntimeError, match="stop here"):
        pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["xmin"], progress=stop)
    assert calls and calls[0] == 0.0
    with pytest.raises(pliant.Error, match="selects no node"):
        pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["x<-5"])


@pytest.mark.parametrize("family", [f["name"] for f in pliant.families()])
def test_every_registered_family_builds_steps_and_grabs_from_python(family):
    info = next(f for f in pliant.families() if f["name"] == family)
    assert info["summary"] and isinstance(info["keys"], list)
    world = pliant.World(time_step=0.01)
    body = world.add_body(info["example_body"], name="b", family=family)
    assert body.family == family
    x = body.surface_positions
    tri = body.surface_triangles
    assert x.shape[1] == 3 and x.dtype == np.float64 and tri.dtype == np.int32 and len(tri) > 0
    # Grab the first triangle's centre and pull it along its normal: the body follows.
    a, b, c = x[tri[0]]
    centre = (a + b + c) / 3
    g = body.grab(pliant.SurfacePoint(0))
    assert g.valid
    normal = np.cross(b - a, c - a)
    normal /= np.linalg.norm(normal)
    extent = np.ptp(x, axis=0).max()
    body.move_grab(g, centre + 0.01 * extent * normal)
    world.run(5)
    assert np.isfinite(body.surface_positions).all()
    assert np.isfinite(body.reaction(g)).all()
    for name in body.fields:
        assert np.isfinite(body.field(name)).all()


def test_modal_fem_body_from_python_pulls_back_and_settles():
    # A modal body (fem family, "modal" key): a clamped beam grabbed at its tip and pulled up; the
    # reaction points back down, and after release the tip returns toward its gravity-free rest.
    world = pliant.World(time_step=0.01)
    body = world.add_body(name="beam", family="fem",
                          mesh={"shape": "box", "size": [0.2, 0.04, 0.04], "cells": [8, 2, 2]},
                          fixed=["xmin"], material={"E": 1e5, "nu": 0.3, "density": 100},
                          fem={"modal": {"modes": 12, "warping": True}, "damping": {"alpha": 5.0}})
    x0 = body.surface_rest_positions.copy()
    tip = int(np.argmax(x0[:, 0]))
    tri = next(i for i, t in enumerate(body.surface_triangles) if tip in t)
    corner = list(body.surface_triangles[tri]).index(tip)
    point = pliant.SurfacePoint(tri, 1.0 if corner == 1 else 0.0, 1.0 if corner == 2 else 0.0)
    g = body.grab(point)
    body.move_grab(g, x0[tip] + np.array([0.0, 0.01, 0.0]))
    world.run(20)
    assert body.surface_positions[tip, 1] - x0[tip, 1] > 0.005
    assert body.reaction(g)[1] < 0.0  # the beam pulls the tool back down
    body.release(g)
    world.run(200)
    assert abs(body.surface_positions[tip, 1] - x0[tip, 1]) < 0.001


def closed_and_oriented(tri):
    """Every directed edge once and its reverse once."""
    edges = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    keys = {tuple(e) for e in edges.tolist()}
    return len(keys) == len(edges) and all((b, a) in keys for a, b in keys)


def test_a_meshless_body_is_cut_from_python_slit_then_split():
    world = pliant.World(time_step=0.005)
    body = world.add_body(
        {
            "mesh": {"shape": "box", "size": [0.1, 0.03, 0.03], "cells": [10, 3, 3]},
            "material": {"E": 20000, "nu": 0.3, "density": 1000},
            "meshless": {"spacing": 0.01, "gravity": [0, 0, 0]},
        },
        name="bar",
        family="meshless",
    )
    n0, t0 = len(body.surface_positions), len(body.surface_triangles)
    assert body.surface_topology_version == 0
    c = 0.0537
    # Down to half the height: a slit, the surface still one closed piece of the bar's volume.
    assert body.cut([c, -1, 1], [c, 1, 1], [c, -1, 0.015], [c, 1, 0.015])
    world.step()
    assert body.surface_topology_version == 1
    tri = body.surface_triangles.copy()
    assert len(tri) > t0 and closed_and_oriented(tri)
    rest = body.surface_rest_positions
    volume = np.einsum("ij,ij->i", rest[tri[:, 0]], np.cross(rest[tri[:, 1]], rest[tri[:, 2]])).sum() / 6
    assert volume == pytest.approx(0.1 * 0.03 * 0.03, rel=1e-12)
    new = body.surface_rest_positions[n0:]
    assert np.allclose(new[:, 0], c, atol=1e-12) and new[:, 2].min() == pytest.approx(0.015, abs=1e-12)
    # On from there through the bottom: split in two closed pieces.
    assert body.cut([c, -1, 0.015], [c, 1, 0.015], [c, -1, -1], [c, 1, -1])
    world.step()
    assert body.surface_topology_version >= 2 and closed_and_oriented(body.surface_triangles)
    # A sweep of zero area cuts nothing; a family that cannot be cut says so.
    assert not body.cut([c, -1, 1], [c, 1, 1], [c, -1, 1], [c, 1, 1])
    beam = world.add_body(BEAM["bodies"][0], name="beam", family="green")
    with pytest.raises(TypeError, match="cannot be cut"):
        beam.cut([0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0])
    with pytest.raises((TypeError, ValueError), match="a0"):
        body.cut([0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0])


def test_plausibility_warnings_name_the_body_and_the_numbers(tmp_path):
    # A beam written in Pa where kPa was meant: warned at load, in the run's summary and by the World.
    soft = json.loads(json.dumps(BEAM))
    soft["bodies"][0]["material"] = {"E": 5, "nu": 0.3}
    scene = pliant.scene_from_dict(soft)
    assert [(w["body"], w["kind"]) for w in scene.warnings] == [("beam", "material")]
    assert "E = 5 Pa" in scene.warnings[0]["message"]
    assert scene.world.plausibility() == scene.warnings
    summary = scene.run(tmp_path, steps=2)
    assert summary["warnings"] == scene.warnings
    # The shipped beam (rubber) is plausible.
    assert pliant.scene_from_dict(BEAM).warnings == []


def test_interior_state_reads_as_numpy_views():
    scene = pliant.scene_from_dict({
        "pliant": 1, "time_step": 0.01,
        "bodies": [
            {"name": "block", "family": "fem", "fixed": ["zmin"],
             "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
             "material": {"E": 2e4, "nu": 0.3}, "fem": {"gravity": [0, 0, -9.81]}},
            {"name": "jelly", "family": "meshless", "mesh": {"shape": "box", "origin": [1, 0, 0], "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
             "material": {"E": 2e4, "nu": 0.3}, "meshless": {"spacing": 0.01, "gravity": [0, 0, -9.81]}},
        ],
    })
    world = scene.world
    fem, jelly = world.body("block"), world.body("jelly")
    # The tets fill the box: their signed volumes over the nodes add up to 0.04³ m³.
    a, b, c, d = (fem.rest_nodes[fem.tets[:, k]] for k in range(4))
    volume = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a).sum() / 6.0
    assert fem.tets.shape[1] == 4 and fem.tets.max() == len(fem.nodes) - 1
    assert volume == pytest.approx(0.04**3, rel=1e-12)
    np.testing.assert_array_equal(fem.nodes, fem.rest_nodes)
    assert jelly.tets is None and jelly.nodes is None and jelly.interior_points.shape[1] == 3
    phyxel_z = jelly.interior_points[:, 2].mean()
    world.run(5)
    # Gravity moved the free nodes and the phyxels down; the rest state stayed; every surface node is a node.
    assert (fem.nodes[:, 2] <= fem.rest_nodes[:, 2] + 1e-12).all() and (fem.nodes != fem.rest_nodes).any()
    assert jelly.interior_points[:, 2].mean() < phyxel_z
    nodes = {tuple(p) for p in fem.nodes}
    assert all(tuple(p) in nodes for p in fem.surface_positions)


def test_a_compressed_green_asset_reports_its_tolerance_and_is_smaller():
    mesh = pliant.tube(0.07, 0.1, 1.0, 16, 15, 3)
    dense = pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["zmin"], threads=2)
    comp = pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["zmin"], threads=2, compress=1e-3)
    assert not dense.compressed and dense.compress_tolerance == 0.0
    assert comp.compressed and comp.compress_tolerance == 1e-3
    assert comp.block_bytes < dense.block_bytes / 2
    for bad in (-1.0, 1.5, float("nan")):
        with pytest.raises(ValueError, match="compress"):
            pliant.GreenAsset.build(mesh, pliant.Material.preset("rubber"), fixed=["zmin"], compress=bad)


@pytest.mark.parametrize("family", [f["name"] for f in pliant.families()])
def test_family_settings_are_the_keyword_arguments_the_reader_takes(family):
    settings = pliant.family_settings(family)
    info = next(f for f in pliant.families() if f["name"] == family)
    # The body keys families() lists are the table's top-level names.
    assert sorted(s["name"] for s in settings if "/" not in s["name"]) == sorted(info["keys"])
    for s in settings:
        assert s["help"] and s["type"] in ("number", "integer", "boolean", "choice", "string", "vec3", "object",
                                           "array")
        if s["type"] == "choice":
            assert s["choices"] and (s["default"] is None or s["default"] in s["choices"])
        if s["type"] in ("number", "integer") and s["default"] is not None:
            lo, hi = s["min"], s["max"]
            assert lo is None or (s["default"] > lo if s["min_open"] else s["default"] >= lo)
            assert hi is None or (s["default"] < hi if s["max_open"] else s["default"] <= hi)
    # A keyword argument of World.add_body that the table does not declare is refused, naming the
    # declared keys of that object.
    obj = next((s for s in settings if s["type"] == "object" and "/" not in s["name"]
                and any(o["name"].startswith(s["name"] + "/") for o in settings)))
    body = dict(info["example_body"])
    body[obj["name"]] = dict(body.get(obj["name"], {}), not_a_setting=1)
    world = pliant.World(time_step=0.01)
    with pytest.raises(pliant.Error, match=f"/{obj['name']}/not_a_setting: unknown key") as e:
        world.add_body(body, name="b", family=family)
    children = [o["key"] for o in settings if o["name"].rsplit("/", 1)[0] == obj["name"] and "/" in o["name"]]
    assert "allowed here: " + ", ".join(children) in str(e.value)


def test_fem_settings_offer_every_element_type():
    element = next(s for s in pliant.family_settings("fem") if s["name"] == "fem/element")
    assert element["choices"] == ["linear", "corotational", "stvk", "neo_hookean", "stable_neo_hookean"]
    assert element["default"] == "corotational" and element["unit"] == ""
    with pytest.raises(pliant.Error, match="unknown family"):
        pliant.family_settings("jelly")
