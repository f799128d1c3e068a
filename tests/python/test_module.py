"""The module itself: version, info, docstrings, one Kokkos for the process, clean exit."""
import subprocess
import sys

import kmol
from conftest import unexpected_stderr


def test_version_matches_the_command(cli):
    assert kmol.__version__ == cli("--version").strip()


def test_info_lists_backends_and_every_algorithm():
    info = kmol.info()
    assert "OpenMP" in info["backends"] or "Cuda" in info["backends"]
    assert set(info["algorithms"]) >= {"pair_histogram", "coulomb", "md", "density", "surface",
                                       "correlation", "orbital"}
    assert "host" in info["algorithms"]["pair_histogram"]["implementations"]
    assert isinstance(info["gpus"], list) and info["host_threads"] >= 1


def test_docstrings_state_units():
    for f in (kmol.pair_histogram, kmol.potential, kmol.density, kmol.orbital):
        assert "Angstrom" in f.__doc__, f.__name__
    assert "sigma" in kmol.MD.__doc__ and "bohr^-3/2" in kmol.orbital.__doc__


def test_import_twice_and_exit_cleanly():
    code = ("import kmol, importlib; importlib.reload(kmol); import numpy as np; "
            "kmol.pair_histogram(np.zeros((2, 3)), r_max=1, bins=2)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert unexpected_stderr(done.stderr) == [], done.stderr
