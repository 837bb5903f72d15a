"""Reactions as data: World.reactions, ReactionSeries and forces.csv carry every scripted grab's and
collider's force; bad grabs raise ValueError naming the argument instead of reading zero force."""

import csv
import json
import math

import numpy as np
import pytest

import pliant

# A clamped Green beam: a scripted grab lifts its free end while a sphere on a track presses its top.
SCENE = {
    "pliant": 1,
    "name": "beam_forces",
    "time_step": 0.02,
    "steps": 12,
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
        {"type": "grab", "body": "beam", "near": [0.3, 0, 0.02], "radius": 0,
         "track": [{"t": 0.0, "offset": [0, 0, 0]}, {"t": 0.2, "offset": [0, 0, 0.004]}]}
    ],
    "colliders": [
        {"name": "ball", "shape": "sphere", "radius": 0.03,
         "track": [{"t": 0.0, "position": [0.15, 0, 0.055]}, {"t": 0.2, "position": [0.15, 0, 0.04]}]}
    ],
}


def beam():
    return pliant.scene_from_dict(SCENE)


def test_bad_grabs_raise_value_error_naming_the_argument():
    w = beam().world
    body = w.body("beam")
    with pytest.raises(ValueError, match=r"^point: triangle 99999 is not on body \"beam\""):
        body.grab(pliant.SurfacePoint(99999))
    with pytest.raises(ValueError, match="^point: barycentric"):
        body.grab(pliant.SurfacePoint(0, math.nan, 0.2))
    with pytest.raises(ValueError, match="^point: barycentric .* outside triangle 0"):
        body.grab_patch(pliant.SurfacePoint(0, 0.9, 0.9), 0.0)
    with pytest.raises(ValueError, match="^radius: NaN"):
        body.grab_patch(pliant.SurfacePoint(0), math.nan)
    hit = w.pick([0.29, 0.0, 1.0], [0, 0, -1])
    g = body.grab(hit["point"])
    assert body.holds(g)
    with pytest.raises(ValueError, match="^target: .* not finite"):
        body.move_grab(g, [math.nan, 0, 0])
    body.move_grab(g, hit["position"] + [0, 0, 0.002])
    w.step()
    assert body.reaction(g)[2] < 0
    body.release(g)
    assert not body.holds(g)
    # A released grab is refused everywhere, never read as a zero force.
    for call in (lambda: body.reaction(g), lambda: body.release(g), lambda: body.compliance(g),
                 lambda: body.move_grab(g, hit["position"])):
        with pytest.raises(ValueError, match=r"^grab: body \"beam\" does not hold grab"):
            call()


def test_reactions_are_the_grab_and_contact_forces_and_the_series_records_them():
    w = beam().world
    series = pliant.ReactionSeries(w)
    assert series.names == ["grab:0", "collider:ball"]
    for _ in range(12):
        w.step()
        series.record(w)
        now = w.reactions
        assert now["name"] == series.names
        # The ball takes minus the contact force it applies to the beam (Newton's third law per pair).
        c = w.contacts
        on_beam = c["force"][c["collider"] == 0].sum(axis=0)
        np.testing.assert_array_equal(now["force"][1], -on_beam)
    assert len(series) == 12
    f = series.force
    assert f.shape == (12, 2, 3)
    np.testing.assert_array_equal(f[-1], w.reactions["force"])
    np.testing.assert_array_equal(series.step, np.arange(1, 13))
    np.testing.assert_allclose(series.time, 0.02 * np.arange(1, 13), rtol=1e-12)
    # Lifted, the beam pulls the grab down; pressed from above, it pushes the ball up.
    assert f[-1, 0, 2] < 0 and f[-1, 1, 2] > 0
    # The statistics are those of the rows, computed here independently.
    for k, s in enumerate(series.stats()):
        norms = np.linalg.norm(f[:, k], axis=1)
        jumps = np.linalg.norm(np.diff(f[:, k], axis=0), axis=1)
        assert s["name"] == series.names[k]
        assert s["peak_n"] == pytest.approx(norms.max(), rel=1e-12)
        assert s["max_jump_n"] == pytest.approx(jumps.max(), rel=1e-12)
        assert s["max_jump_step"] == int(np.argmax(jumps)) + 2


def test_scene_run_writes_forces_csv_with_a_row_per_step_and_source(tmp_path):
    summary = beam().run(tmp_path, steps=10)
    with open(tmp_path / "forces.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0].keys()) == ["step", "time", "name", "fx", "fy", "fz"]
    assert len(rows) == 10 * 2 == summary["forces"]["rows"]
    assert [r["name"] for r in rows[:2]] == ["grab:0", "collider:ball"]
    assert json.loads((tmp_path / "summary.json").read_text())["forces"] == summary["forces"]
    # summary.json's peak per source is the largest |F| of its CSV rows.
    for s in summary["forces"]["series"]:
        mine = [r for r in rows if r["name"] == s["name"]]
        assert len(mine) == 10
        peak = max(math.hypot(float(r["fx"]), float(r["fy"]), float(r["fz"])) for r in mine)
        assert s["peak_n"] == pytest.approx(peak, rel=1e-12)
        assert s["peak_n"] > 0


def test_scene_run_with_render_plots_the_forces(tmp_path):
    try:
        summary = beam().run(tmp_path, steps=6, render=True)
    except pliant.Error as e:  # no EGL on this machine
        pytest.skip(str(e))
    assert summary["forces"]["plot"] == "forces.png"
    image = pytest.importorskip("matplotlib.image").imread(tmp_path / "forces.png")
    assert image.shape[:2] == (480, 800)
    rgb = image[..., :3]
    # Not blank: many pixels are neither white nor grey (the curves are coloured).
    coloured = (rgb.max(axis=2) - rgb.min(axis=2)) > 0.2
    assert coloured.sum() > 200
