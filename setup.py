"""Builds kmol with CMake for pip install . (pyproject.toml).

The wheel holds the Python module (kmol, with its compiled _kmol), the kmol command (bin/kmol)
and the C library (lib/libkmol_c.so, include/kmol.h). The version is the CMake project's, read
from CMakeLists.txt, so kmol.__version__, kmol --version and kmol_version() agree with it.

KMOL_BUILD_DIR=<dir> takes them from an existing CMake build tree (scripts/build's build/openmp,
say), building only what is out of date there; without it build/pip is configured (no tests, no
benchmarks) and built, and kept for the next install.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
TARGETS = ["kmol", "kmol_c", "kmol_python"]


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(kmol VERSION ([0-9][0-9.]*)", text)
    if not found:
        raise SystemExit("setup.py: no 'project(kmol VERSION x.y.z' in CMakeLists.txt")
    return found.group(1)


def build_tree():
    given = os.environ.get("KMOL_BUILD_DIR")
    if given:
        build = Path(given).resolve()
        if not (build / "CMakeCache.txt").is_file():
            raise SystemExit(f"KMOL_BUILD_DIR={given}: not a CMake build tree (no CMakeCache.txt)")
        return build
    build = ROOT / "build" / "pip"
    if not (build / "CMakeCache.txt").is_file():
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DKMOL_BUILD_TESTS=OFF", "-DKMOL_BUILD_PERF=OFF",
                     f"-DPython3_EXECUTABLE={os.path.realpath(sys.executable)}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        subprocess.run(configure, check=True)
    return build


class BinaryDistribution(Distribution):
    """A compiled module inside: a wheel for this platform and interpreter, not a pure one."""

    def has_ext_modules(self):
        return True


class CMakeBuild(build_py):
    """Builds the CMake targets, then adds what they made to the wheel."""

    def run(self):
        build = build_tree()
        subprocess.run(["cmake", "--build", str(build), "--target", *TARGETS,
                        "-j", str(os.cpu_count() or 1)], check=True)
        super().run()
        package = Path(self.build_lib) / "kmol"
        modules = list((build / "python" / "kmol").glob("_kmol*.so"))
        if len(modules) != 1:
            raise SystemExit(f"setup.py: expected one _kmol module in {build}/python/kmol, "
                             f"found {[m.name for m in modules]}")
        shutil.copy2(modules[0], package / modules[0].name)
        self.distribution.data_files = [
            ("bin", [str(build / "drivers" / "kmol")]),
            ("lib", [str(build / "drivers" / "libkmol_c.so")]),
            ("include", [str(ROOT / "drivers" / "c_api" / "kmol.h")]),
        ]


setup(
    version=cmake_version(),
    packages=["kmol"],
    package_dir={"kmol": "drivers/python/kmol"},
    distclass=BinaryDistribution,
    cmdclass={"build_py": CMakeBuild},
    zip_safe=False,
)
