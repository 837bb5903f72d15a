"""An in-tree PEP 517 build backend for Pliant's Python module.

`pip install .` calls build_wheel: CMake configures a tree for the interpreter running pip (its
numpy, its headers), builds the `pliant_python` target and packs the package folder that target
fills (the extension, __init__.py, the type stubs) into a wheel. No build requirement is declared
and nothing is downloaded. Settings, from the environment:

  PLIANT_BUILD_DIR   the CMake tree to use (default: build/pip-cpXY in the source tree). A tree that
                     is already configured is built as it is, after checking that it was configured
                     for this interpreter; `./dev build`'s build/release is one.
  PLIANT_CMAKE_ARGS  extra arguments for the first configuration (split on spaces).
  JOBS               parallel compile jobs (default: the CPU count).

build_sdist packs the files git tracks (every file but build outputs when there is no git) under
pliant-VERSION/ with a PKG-INFO, so that `pip install pliant-VERSION.tar.gz` builds the same way.
"""

import base64
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAME = "pliant"


def _version():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    if not m:
        raise RuntimeError("pyproject.toml: no version")
    return m.group(1)


def _metadata():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {_version()}\n"
        "Summary: Real-time deformable bodies: Green's functions, FEM, mass-spring, meshless MLS, impact dents\n"
        "License: MIT\n"
        "Requires-Python: >=3.9\n"
        "Requires-Dist: numpy\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def _tag():
    v = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{v}-{v}-{platform}"


def _fail(message):
    # pip shows the backend's exception; one line that says what to do.
    raise RuntimeError(f"pliant: {message}")


def _same_interpreter(configured):
    base = getattr(sys, "_base_executable", sys.executable)
    mine = {os.path.realpath(sys.executable), os.path.realpath(base)}
    return os.path.realpath(configured) in mine


def _environment():
    # pip runs a backend in an isolated environment that hides the target's site-packages (PYTHONPATH
    # and a sitecustomize); CMake must see the interpreter as it will run the module, numpy included.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME")}
    env.setdefault("CCACHE_BASEDIR", ROOT)
    return env


def _build_module():
    env = _environment()
    build = os.environ.get("PLIANT_BUILD_DIR") or os.path.join(ROOT, "build", f"pip-{_tag().split('-')[0]}")
    build = os.path.abspath(build)
    cache = os.path.join(build, "CMakeCache.txt")
    module_target = os.path.join(build, "python", "CMakeFiles", "pliant_python.dir")
    if os.path.exists(cache):
        with open(cache, encoding="utf-8", errors="replace") as f:
            m = re.search(r"^Python_EXECUTABLE:[A-Z]+=(.*)$", f.read(), re.M)
        if m and not _same_interpreter(m.group(1).strip()):
            _fail(f"{build} was configured for {m.group(1).strip()}, not for {sys.executable}: "
                  "set PLIANT_BUILD_DIR to another folder")
    if not os.path.exists(cache) or not os.path.isdir(module_target):
        # A first configuration, or a tree that found no module last time (NOTFOUND results are retried).
        if shutil.which("cmake") is None:
            _fail("cmake is not on PATH (Debian: apt-get install cmake; see README's packages)")
        args = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython_EXECUTABLE={sys.executable}", "-DPLIANT_BUILD_TESTS=OFF",
                "-DPLIANT_BUILD_BENCH=OFF", "-DPLIANT_WITH_VIEWER=OFF"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if shutil.which("ccache"):
            args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        args += shlex.split(os.environ.get("PLIANT_CMAKE_ARGS", ""))
        subprocess.run(args, check=True, stdout=sys.stderr, env=env)
    if not os.path.isdir(module_target):
        _fail(f"CMake configured {build} without the Python module: {sys.executable} needs numpy importable "
              "(a venv: --system-site-packages), and the system python3-dev and pybind11-dev")
    jobs = os.environ.get("JOBS") or str(os.cpu_count() or 1)
    subprocess.run(["cmake", "--build", build, "--target", "pliant_python", "-j", jobs], check=True,
                   stdout=sys.stderr, env=env)
    package = os.path.join(build, "python", NAME)
    if not any(f.startswith("_pliant") for f in os.listdir(package) if os.path.isfile(os.path.join(package, f))):
        _fail(f"{build} built no extension module (CMake said why: python3-dev, python3-numpy, pybind11-dev)")
    return package


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    with open(os.path.join(metadata_directory, info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(_metadata())
    return info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _build_module()
    version = _version()
    tag = _tag()
    info = f"{NAME}-{version}.dist-info"
    name = f"{NAME}-{version}-{tag}.whl"
    files = []
    for entry in sorted(os.listdir(package)):
        path = os.path.join(package, entry)
        if os.path.isfile(path) and not entry.endswith((".pyc",)):
            with open(path, "rb") as f:
                files.append((f"{NAME}/{entry}", f.read()))
    files.append((f"{NAME}/py.typed", b""))
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: pliant_backend\nRoot-Is-Purelib: false\n"
                                    f"Tag: {tag}\n").encode()))
    files.append((f"{info}/top_level.txt", f"{NAME}\n".encode()))
    record = [_record_line(a, d) for a, d in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data in files:
            z.writestr(arcname, data)
    return name


def _source_files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True, capture_output=True).stdout
        return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(ROOT, p)))
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", "build", "out", "__pycache__"}
        found = []
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = sorted(x for x in dirs if x not in skip)
            found += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
        return sorted(found)


def build_sdist(sdist_directory, config_settings=None):
    top = f"{NAME}-{_version()}"
    name = f"{top}.tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for rel in _source_files():
            t.add(os.path.join(ROOT, rel), arcname=f"{top}/{rel}", recursive=False)
        info = _metadata().encode()
        ti = tarfile.TarInfo(f"{top}/PKG-INFO")
        ti.size = len(info)
        ti.mode = 0o644
        t.addfile(ti, io.BytesIO(info))
    return name
