"""Shared fixtures: the kmol command of the same build (KMOL_EXE), run as a user would."""
import os
import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="session")
def cli():
    exe = os.environ.get("KMOL_EXE")
    if not exe:
        pytest.fail("KMOL_EXE must name the kmol command of this build (ctest sets it)")

    def run(*args):
        done = subprocess.run([exe, *map(str, args)], capture_output=True, text=True,
                              env={**os.environ, "OMP_PROC_BIND": "false"})
        assert done.returncode == 0, f"kmol {' '.join(map(str, args))}: {done.stderr}"
        return done.stdout + done.stderr

    return run


def csv_counts(path):
    """The count column of a kmol histogram CSV."""
    rows = [line for line in open(path) if line[0].isdigit()]
    return np.array([int(r.split(",")[3]) for r in rows], dtype=np.uint64)


def unexpected_stderr(stderr):
    """The lines of a child's stderr beyond what a healthy start may print: Kokkos' note when its
    library's code is older than the GPU's architecture, and kmol's note on cores busy with
    other work (the machine's state, not the program's)."""
    return [line for line in stderr.splitlines()
            if line and not line.startswith("Kokkos::Cuda::initialize WARNING")
            and not (line.startswith("kmol: note:") and "cores busy with other work" in line)]


def write_xyz(path, xyz):
    with open(path, "w") as f:
        f.write(f"{len(xyz)}\nframe\n")
        for x, y, z in xyz:
            f.write(f"C {x!r} {y!r} {z!r}\n")
