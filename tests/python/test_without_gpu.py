"""A machine without a GPU: the module of any build (the CUDA build's too) imports, says it has no
GPU, runs on the CPU, and refuses device='gpu' with an exception. The GPU is hidden from the CUDA
runtime (CUDA_VISIBLE_DEVICES=""), so this runs the same on machines with and without one."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import kmol

NO_GPU = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OMP_PROC_BIND": "false"}

# Runs in a process that sees no GPU; prints what the parent compares.
CHILD = r"""
import json, sys
import numpy as np
import kmol

xyz = np.random.default_rng(5).uniform(0, 20, (1500, 3))
out = {"gpus": kmol.info()["gpus"], "backends": kmol.info()["backends"]}
out["auto"] = kmol.pair_histogram(xyz, box=[20, 20, 20], r_max=9, bins=90).counts.tolist()
out["cpu"] = kmol.pair_histogram(xyz, box=[20, 20, 20], r_max=9, bins=90, device="cpu",
                                 precision="double").counts.tolist()
q = np.where(np.arange(len(xyz)) % 2 == 0, 0.5, -0.5)
out["potential"] = kmol.potential(xyz[:200], q[:200], spacing=2.0, padding=2.0,
                                  device="auto").values.ravel().tolist()
try:
    kmol.pair_histogram(xyz, r_max=9, bins=90, device="gpu")
    out["gpu_error"] = None
except kmol.UnsupportedError as e:
    out["gpu_error"] = str(e)
json.dump(out, sys.stdout)
"""


@pytest.fixture(scope="module")
def child():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          env=NO_GPU, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_imports_and_reports_no_gpu(child):
    assert child["gpus"] == []
    assert child["backends"] == kmol.info()["backends"]  # the build's backends, Cuda included


def test_runs_on_the_cpu_with_the_cpu_results(child):
    xyz = np.random.default_rng(5).uniform(0, 20, (1500, 3))
    here = kmol.pair_histogram(xyz, box=[20, 20, 20], r_max=9, bins=90, device="cpu",
                               precision="double").counts
    np.testing.assert_array_equal(np.array(child["cpu"], np.uint64), here)
    np.testing.assert_array_equal(np.array(child["auto"], np.uint64), here)
    q = np.where(np.arange(200) % 2 == 0, 0.5, -0.5)
    m = kmol.potential(xyz[:200], q, spacing=2.0, padding=2.0, device="cpu")
    np.testing.assert_array_equal(np.array(child["potential"]), m.values.ravel())


def test_gpu_asked_for_raises(child):
    assert child["gpu_error"] is not None and "GPU" in child["gpu_error"]


def command(*args):
    return subprocess.run([os.environ["KMOL_EXE"], *map(str, args)], capture_output=True,
                          text=True, env=NO_GPU)


def test_command_runs_on_the_cpu_and_refuses_the_gpu(cli, tmp_path):
    done = command("info")
    assert done.returncode == 0, done.stderr
    assert "GPUs: none" in done.stdout
    done = command("rand48", "--seed", 7, "--count", 5, "--out", tmp_path / "auto.txt")
    assert done.returncode == 0, done.stderr
    assert " on OpenMP" in done.stderr or " on Serial" in done.stderr, done.stderr
    cli("rand48", "--seed", 7, "--count", 5, "--device", "cpu", "--out", tmp_path / "cpu.txt")
    assert (tmp_path / "auto.txt").read_text() == (tmp_path / "cpu.txt").read_text()
    done = command("rand48", "--count", 5, "--device", "gpu")
    assert done.returncode != 0 and "--device gpu: no GPU" in done.stderr, done.stderr
