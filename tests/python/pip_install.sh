#!/bin/sh
# `pip install .` into a fresh venv that sees Debian's numpy (--system-site-packages), offline
# (--no-index): the in-tree backend packs the module of BUILD_DIR (already built by the suite) into a
# wheel; the installed module imports from the venv, outside the source tree, and `python -m pliant
# --version` names the version of pyproject.toml. Then the sdist holds the sources and its PKG-INFO.
# Usage: pip_install.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -eu
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
PLIANT_BUILD_DIR=$build "$work/venv/bin/python" -m pip install --no-index -q "$src"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$src/pyproject.toml")
cd "$work"
got=$("$work/venv/bin/python" -m pliant --version)
[ "$got" = "pliant $version" ] || { echo "python -m pliant --version printed '$got', expected 'pliant $version'"; exit 1; }
"$work/venv/bin/python" - "$work/venv" <<'PY'
import sys
import numpy as np
import pliant
assert pliant.__file__.startswith(sys.argv[1]), f"pliant imported from {pliant.__file__}, not the venv"
mesh = pliant.box(size=[0.1, 0.1, 0.1], cells=[1, 1, 1])
assert mesh.points.shape == (8, 3), mesh.points.shape
PY
"$work/venv/bin/python" - "$src" "$work" "$version" <<'PY'
import sys, tarfile
src, work, version = sys.argv[1:]
sys.path.insert(0, f"{src}/python/packaging")
import pliant_backend
name = pliant_backend.build_sdist(work)
with tarfile.open(f"{work}/{name}") as t:
    names = set(t.getnames())
top = f"pliant-{version}"
for need in ("pyproject.toml", "PKG-INFO", "CMakeLists.txt", "python/packaging/pliant_backend.py", "src/scene/world.cpp"):
    assert f"{top}/{need}" in names, f"{name} lacks {need}"
assert not any("/build/" in n for n in names), "the sdist holds build outputs"
PY
echo "pip install: pliant $version into $work/venv"
