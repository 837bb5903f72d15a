"""Contact from Python: colliders built with the scene keys, contacts and contact points as numpy arrays
checked against the weight they carry, the contact pressure integrated back to the normal force, and
bad collider arguments named in one error line, and summary.json's peak pressure equal to the
world's."""

import math

import numpy as np
import pytest

import pliant

G = 9.81


def block_on_floor(friction=0.5):
    """A 1 kg FEM block (0.1 m, density 1000) under gravity on a z = 0 plane."""
    world = pliant.World(1.0 / 60.0)
    world.add_body(
        name="block",
        family="fem",
        mesh={"shape": "box", "origin": [0, 0, 0], "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]},
        material={"E": 2e5, "nu": 0.3, "density": 1000},
        fem={
            "element": "corotational",
            "damping": {"alpha": 8.0, "beta": 0.01},
            "gravity": [0, 0, -G],
            "integrator": "backward_euler",
            "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12},
        },
    )
    index = world.add_collider(name="floor", shape="plane", normal=[0, 0, 1], position=np.zeros(3), friction=friction)
    assert index == 0
    return world


def area_shares(body):
    x = np.asarray(body.surface_positions)
    t = np.asarray(body.surface_triangles)
    area = 0.5 * np.linalg.norm(np.cross(x[t[:, 1]] - x[t[:, 0]], x[t[:, 2]] - x[t[:, 0]]), axis=1)
    share = np.zeros(len(x))
    for k in range(3):
        np.add.at(share, t[:, k], area / 3.0)
    return share


def test_a_block_resting_on_a_collider_reports_its_weight_as_arrays():
    world = block_on_floor()
    assert world.colliders[0]["name"] == "floor" and world.colliders[0]["shape"] == "plane"
    empty = world.contacts
    assert empty["body"].shape == (0,) and empty["force"].shape == (0, 3)
    world.run(600)
    c = world.contacts
    assert c["body"].tolist() == [0] and c["collider"].tolist() == [0] and c["other_body"].tolist() == [-1]
    assert c["contacts"][0] == 9  # the bottom face's 3 × 3 nodes
    assert c["sticking"][0] + c["slipping"][0] == 9
    assert c["normal_force"][0] == pytest.approx(G, rel=1e-6)
    assert c["tangential_force"][0] < 1e-6 * G
    assert np.allclose(c["force"][0], [0, 0, G], atol=1e-6 * G)
    assert c["max_penetration"][0] >= 0.0
    # Per node: the same force, split over the 9 held nodes, each on the plane's normal.
    p = world.contact_points
    assert sorted(p["node"].tolist()) == sorted(set(p["node"].tolist())) and len(p["node"]) == 9
    assert np.allclose(p["normal"], [0, 0, 1])
    assert p["normal_force"].sum() == pytest.approx(c["normal_force"][0], rel=1e-12)
    assert np.allclose(p["force"].sum(axis=0), c["force"][0], atol=1e-12)
    # Held at the two margins (0.5 mm each) above the plane.
    assert np.allclose(p["position"][:, 2], 1e-3, atol=1e-6)


def test_contact_pressure_integrates_to_the_normal_force():
    world = block_on_floor()
    world.run(300)
    body = world.body("block")
    pressure = world.contact_pressure("block")
    assert pressure.shape == (len(body.surface_positions),)
    assert np.all(pressure >= 0.0)
    assert np.count_nonzero(pressure) == 9
    total = float(np.dot(pressure, area_shares(body)))
    assert total == pytest.approx(world.contacts["normal_force"][0], rel=1e-12)
    # The same by index, and only on the bottom face.
    assert np.array_equal(world.contact_pressure(0), pressure)
    assert np.all(np.asarray(body.surface_positions)[pressure > 0, 2] < 0.01)


def test_a_sphere_collider_from_python_matches_the_scene_key_and_set_contact_switches_contact_off():
    world = block_on_floor()
    world.add_collider({"name": "ball", "shape": "sphere", "radius": 0.02, "position": [0.05, 0.05, 0.5]})
    assert [c["shape"] for c in world.colliders] == ["plane", "sphere"]
    world.set_contact("block", enabled=False)
    world.run(30)
    assert len(world.contacts["body"]) == 0  # off: it falls through the floor
    assert np.asarray(world.body(0).surface_positions)[:, 2].min() < 0.0
    assert np.all(world.contact_pressure(0) == 0.0)


@pytest.mark.parametrize(
    "keys, message",
    [
        ({"shape": "sphere", "radius": -1.0}, "/radius"),
        ({"shape": "sphere", "radius": 0.0}, "/radius"),
        ({"shape": "cone"}, "/shape"),
        ({"shape": "plane", "friction": -0.1}, "/friction"),
        ({"shape": "plane", "margin": 0.0}, "/margin"),
        ({"shape": "sphere", "radius": 0.1, "position": [0.0, math.nan, 0.0]}, "/position/1"),
        ({"shape": "sphere", "radius": 0.1, "position": [0.0, math.inf, 0.0]}, "/position/1"),
        ({"shape": "capsule", "radius": 0.1, "half_length": -1.0}, "/half_length"),
        ({"shape": "box", "size": [0.1, 0.0, 0.1]}, "/size"),
        ({"shape": "plane", "normal": [0, 0, 0]}, "/normal"),
        ({"shape": "sphere", "radius": 0.1, "rotation": {"quaternion": [2, 0, 0, 0]}}, "/rotation"),
        ({"shape": "mesh"}, "\"mesh\""),
        ({"shape": "plane", "colour": "red"}, "colour"),
    ],
)
def test_bad_collider_arguments_name_the_argument(keys, message):
    world = pliant.World()
    with pytest.raises(pliant.Error) as e:
        world.add_collider(name="c", **keys)
    text = str(e.value)
    assert text.startswith("collider.json: ") and message in text, text
    assert "\n" not in text
    assert world.colliders == []


def test_duplicate_collider_names_and_bad_contact_settings_are_refused():
    world = block_on_floor()
    with pytest.raises(pliant.Error, match=r"collider.json: /name: duplicate collider name"):
        world.add_collider(name="floor", shape="plane")
    with pytest.raises(pliant.Error, match=r"contact.json: /friction"):
        world.set_contact(0, friction=-1.0)
    with pytest.raises(pliant.Error, match=r"contact.json: /margin"):
        world.set_contact("block", margin=0.0)
    with pytest.raises(KeyError):
        world.set_contact("nobody", friction=0.1)
    with pytest.raises(KeyError):
        world.contact_pressure("nobody")


def test_the_runs_summary_reports_the_peak_pressure_the_world_gave(tmp_path):
    block = {
        "name": "block",
        "family": "fem",
        "mesh": {"shape": "box", "origin": [0, 0, 0], "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]},
        "material": {"E": 2e5, "nu": 0.3, "density": 1000},
        "fem": {"gravity": [0, 0, -G], "damping": {"alpha": 8.0, "beta": 0.01}, "integrator": "backward_euler",
                "solver": {"kind": "cholmod"}},
    }
    scene = {"pliant": 1, "name": "press", "time_step": 1.0 / 60.0, "steps": 60, "bodies": [block],
             "colliders": [{"name": "floor", "shape": "plane"}], "output": {"every": 0}}
    # The same scene stepped here: the largest pressure any step gave, and the VTU point field.
    world = pliant.scene_from_dict(scene).world
    peak = 0.0
    for _ in range(60):
        world.step()
        peak = max(peak, float(world.contact_pressure(0).max()))
    summary = pliant.scene_from_dict(scene).run(tmp_path, steps=60)
    pair = summary["contacts"][0]
    assert pair["collider"] == "floor" and pair["body"] == "block"
    assert peak > 0.0
    assert pair["max_pressure_pa"] == pytest.approx(peak, rel=1e-12)
    vtu = (tmp_path / "block_00001.vtu").read_text()
    assert 'Name="contact_pressure"' in vtu


def test_energy_of_a_block_falling_onto_a_floor_never_grows():
    """world.energy: a rigid drop's gravity term is -m g z, and contact with the floor takes energy, never
    gives it (backward Euler and the block's damping dissipate; the floor does no work)."""
    world = pliant.World(1.0 / 120.0)
    world.add_body(
        name="block",
        family="fem",
        mesh={"shape": "box", "origin": [0, 0, 0.02], "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]},
        material={"E": 2e5, "nu": 0.3, "density": 1000},
        fem={"element": "corotational", "gravity": [0, 0, -G], "integrator": "backward_euler"},
    )
    world.add_collider(name="floor", shape="plane", normal=[0, 0, 1], position=np.zeros(3))
    e0 = world.energy("block")
    assert set(e0) == {"kinetic", "elastic", "gravity", "total"}
    assert e0["kinetic"] == 0.0 and e0["gravity"] == pytest.approx(-1.0 * -G * 0.07, rel=1e-12)  # centre 7 cm up
    totals = []
    for _ in range(120):
        world.step()
        totals.append(world.energy(0)["total"])
    assert max(totals) <= e0["total"] + 1e-9
    assert len(world.contacts["body"]) == 1  # it landed
    with pytest.raises(Exception):
        world.energy("nobody")
