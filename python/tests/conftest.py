"""Shared fixtures of the pytest suite."""

import os
import pathlib

import pytest


@pytest.fixture
def cli():
    """The pliant CLI of the same build (PLIANT_CLI, set by ctest), or None."""
    path = os.environ.get("PLIANT_CLI")
    return pathlib.Path(path) if path else None
