"""Instruments: a probe pressing a Green block is read back through World.instrument(name) (pose and
force, Newton's third law of its contacts), its rows in World.reactions are 'instrument:NAME', and bad
instruments raise naming the key."""

import json
import math
import os

import numpy as np
import pytest

import pliant

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE_FILE = os.path.join(HERE, "..", "..", "tests", "data", "scenes", "probe_green.json")


def probe_scene():
    with open(SCENE_FILE, encoding="utf-8") as f:
        return pliant.scene_from_dict(json.load(f))


def test_probe_pose_and_force_follow_its_track_and_contacts():
    w = probe_scene().world
    assert w.instruments == ["probe"]
    p = w.instrument("probe")
    assert p["type"] == "probe" and p["device"] is True
    assert np.allclose(p["position"], [0.02, 0.02, 0.0495])
    assert np.allclose(p["force"], 0.0)
    for _ in range(30):
        w.step()
    p = w.instrument("probe")
    # At t = 0.3 s its track has pressed the tip to z = 0.046.
    assert p["position"][2] == pytest.approx(0.046, abs=1e-12)
    assert p["contacts"] > 0
    assert p["force"][2] > 0.0  # the block pushes it back up
    # Newton's third law: minus the sum of the contact forces it applies.
    contacts = w.contacts
    mine = [i for i, c in enumerate(contacts["collider"]) if w.colliders[c]["name"] == "probe"]
    applied = np.sum(np.asarray(contacts["force"])[mine], axis=0)
    assert np.allclose(p["force"], -applied, rtol=1e-12, atol=1e-15)
    r = w.reactions
    assert r["name"] == ["instrument:probe"]
    assert np.array_equal(np.asarray(r["force"])[0], p["force"])


def test_move_instrument_replaces_its_track():
    w = probe_scene().world
    w.move_instrument("probe", [0.02, 0.02, 0.045])
    w.step()
    assert w.instrument("probe")["position"][2] == pytest.approx(0.045, abs=1e-15)
    with pytest.raises(ValueError, match="finite"):
        w.move_instrument("probe", [0.0, math.nan, 0.0])
    with pytest.raises(KeyError):
        w.instrument("scalpel")


def test_add_instrument_in_code_and_bad_ones_raise():
    w = probe_scene().world
    w.add_instrument(name="second", type="probe", radius=0.002, length=0.01, position=[0.0, 0.0, 0.2])
    assert w.instruments == ["probe", "second"]
    with pytest.raises(pliant.Error, match="/radius: expected a number > 0"):
        w.add_instrument(name="bad", type="probe", radius=0.0)
    with pytest.raises(pliant.Error, match='/type: expected one of "probe", "grasper", "scalpel"'):
        w.add_instrument(name="bad", type="forceps")
    with pytest.raises(pliant.Error, match="/jaws/grip: expected a number > 0"):
        w.add_instrument(name="bad", type="grasper", jaws={"grip": -1.0})
    with pytest.raises(pliant.Error, match="one device drives one instrument"):
        w.add_instrument(name="third", type="probe", device=True)
    with pytest.raises((ValueError, pliant.Error)):
        w.add_instrument(name="nan", type="probe", position=[0.0, math.nan, 0.0])


def test_grasper_jaws_close_on_command_and_meet_on_nothing():
    w = probe_scene().world
    w.add_instrument(name="jaws", type="grasper", position=[0.0, 0.0, 0.3],
                     jaws={"opening": 0.02, "speed": 0.1})
    g = w.instrument("jaws")
    assert g["type"] == "grasper" and g["closed"] is False and g["gap"] == pytest.approx(0.02)
    w.close_jaws("jaws")
    for _ in range(30):  # 0.3 s at 0.1 m/s: the 2 cm gap shut after 0.2 s
        w.step()
    g = w.instrument("jaws")
    assert g["closed"] is True and g["gap"] == 0.0 and g["grip"] == 0.0
    assert "instrument:jaws" in w.reactions["name"]
    with pytest.raises(ValueError, match="not a grasper"):
        w.close_jaws("probe")
    with pytest.raises(KeyError):
        w.close_jaws("nothing")
