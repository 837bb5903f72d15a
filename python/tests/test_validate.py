"""pliant.validate(): the `pliant validate` catalogue as a list of dicts, the same schema as the CLI's JSON."""

import math

import pytest

import pliant

KEYS = {"name", "family", "method", "quantity", "measured", "reference", "reference_source", "error",
        "tolerance", "passed"}


def test_selected_problems_come_back_as_dicts_with_the_schema_keys():
    problems = pliant.validate(quick=True, only=["uniaxial_stretch_*", "cantilever_timoshenko"])
    assert [p["name"] for p in problems] == ["cantilever_timoshenko", "uniaxial_stretch_neo_hookean",
                                             "uniaxial_stretch_corotational"]
    for p in problems:
        assert set(p) - {"order"} == KEYS
        assert p["passed"] is True
        assert abs(p["error"]) <= p["tolerance"]
        assert math.isclose(p["error"], (p["measured"] - p["reference"]) / abs(p["reference"]), rel_tol=1e-12)
    # The refinement series has an observed order; the homogeneous problems have none.
    assert problems[0]["order"] > 1.0
    assert "order" not in problems[1]


def test_reported_comparison_has_no_tolerance():
    (p,) = pliant.validate(only="grimm_table21_dragnet")
    assert p["tolerance"] is None and p["passed"] is True and p["reference"] == 1


def test_unknown_problem_is_a_pliant_error():
    with pytest.raises(pliant.Error, match='no problem named "nope"'):
        pliant.validate(only=["nope"])
