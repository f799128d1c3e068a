"""What the command does, Python does: kmol cc --weight mass, PQR zero radii, mesh writers,
threads, reprs and errors worded in Python's names."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import kmol

# A peptide fragment of five elements; the hydrogens have radius 0, as some PQR files give them.
PQR = """REMARK five elements, two hydrogens of radius 0
ATOM      1  N   CYS A   1       1.000   2.000   3.000 -0.3000 1.8240
ATOM      2  H   CYS A   1       0.100   2.400   3.300  0.3000 0.0000
ATOM      3  CA  CYS A   1       2.400   2.300   3.100  0.1000 1.9080
ATOM      4  HA  CYS A   1       2.600   3.300   2.700  0.1000 0.0000
ATOM      5  C   CYS A   1       3.100   1.100   2.500  0.5000 1.9080
ATOM      6  O   CYS A   1       2.600  -0.000   2.300 -0.5000 1.6612
ATOM      7  CB  CYS A   1       2.900   2.800   4.500 -0.1000 1.9080
ATOM      8  SG  CYS A   1       4.600   3.300   4.600 -0.2000 2.0000
END
"""


@pytest.fixture()
def pqr(tmp_path):
    (tmp_path / "cys.pqr").write_text(PQR)
    return tmp_path / "cys.pqr"


def mrc_values(path):
    return kmol.read_map(str(path)).values


def printed_cc(log):
    return float(re.search(r"cc (-?[0-9.]+) over", log).group(1))


@pytest.mark.parametrize("weight", ["unit", "mass"])
def test_cc_weights_reproduce_the_command(cli, tmp_path, pqr, weight):
    cli("surf", pqr, "--spacing", 0.6, "--device", "cpu", "--out", tmp_path / "ref.mrc",
        "--mesh", "")
    log = cli("cc", pqr, "--ref", tmp_path / "ref.mrc", "--resolution", 3, "--weight", weight,
              "--threshold", 0.05, "--device", "cpu", "--sim", tmp_path / "sim.mrc", "--local",
              tmp_path / "local.mrc")
    structure = kmol.open(str(pqr))
    ref = kmol.read_map(str(tmp_path / "ref.mrc"))
    sigma = 0.225 * 3  # kmol cc: sigma = 0.225 x resolution
    simulated = kmol.density(structure[0].positions, np.full(structure.n_atoms, sigma),
                             weights=structure.masses if weight == "mass" else None, scale=1.0,
                             threshold=0.01, origin=ref.origin, counts=ref.counts,
                             spacing=ref.spacing, device="cpu")
    np.testing.assert_array_equal(simulated.values, mrc_values(tmp_path / "sim.mrc"))
    c = kmol.cross_correlation(simulated, ref, threshold=0.05, device="cpu")
    assert c.coefficient == pytest.approx(printed_cc(log), abs=5e-7)
    np.testing.assert_array_equal(c.local.values, mrc_values(tmp_path / "local.mrc"))
    assert 0.3 < c.coefficient < 0.9999 and c.voxels > 100  # a fit, not a copy of the reference
    if weight == "mass":
        # CA of a cysteine is a carbon: two-letter elements only for single-atom residues.
        assert structure.elements == ["N", "H", "C", "H", "C", "O", "C", "S"]
        np.testing.assert_allclose(structure.masses,
                                   [14.007, 1.008, 12.011, 1.008, 12.011, 15.999, 12.011, 32.06],
                                   rtol=1e-6)
        unit = kmol.density(structure[0].positions, np.full(structure.n_atoms, sigma), scale=1.0,
                            origin=ref.origin, counts=ref.counts, spacing=ref.spacing)
        assert kmol.cross_correlation(unit, ref, threshold=0.05).coefficient != c.coefficient


def test_zero_pqr_radii_take_element_radii_as_the_command(cli, tmp_path, pqr):
    cli("surf", pqr, "--spacing", 0.3, "--device", "cpu", "--out", tmp_path / "d.mrc", "--mesh",
        "")
    atoms = kmol.read_pqr(str(pqr))
    assert np.count_nonzero(atoms["radii"] == 0) == 2
    d = kmol.density(atoms["positions"], atoms["radii"], elements=atoms["elements"], spacing=0.3,
                     device="cpu")
    np.testing.assert_array_equal(d.values, mrc_values(tmp_path / "d.mrc"))
    # The same map with the hydrogens given Bondi's 1.20 A by hand.
    by_hand = np.where(atoms["radii"] == 0, 1.2, atoms["radii"])
    np.testing.assert_array_equal(d.values, kmol.density(atoms["positions"], by_hand,
                                                         spacing=0.3).values)
    with pytest.raises(ValueError, match=r"radii: .*atom 1 has radius 0 \(give elements="):
        kmol.density(atoms["positions"], atoms["radii"], spacing=0.3)


def test_density_without_radii_takes_elements_and_the_fallback_radius():
    xyz = np.array([[0.0, 0, 0], [3.0, 0, 0], [0, 3.0, 0]])
    by_element = kmol.density(xyz, elements=["C", "O", "XX"], radius=2.5, spacing=0.5)
    np.testing.assert_array_equal(by_element.values,
                                  kmol.density(xyz, [1.7, 1.52, 2.5], spacing=0.5).values)
    np.testing.assert_array_equal(kmol.density(xyz, spacing=0.5).values,
                                  kmol.density(xyz, np.full(3, 1.5), spacing=0.5).values)
    for bad in (dict(elements=["C"]), dict(elements="CO"), dict(radius=0), dict(weights=[1, np.nan, 1]),
                dict(weights=[1, 2]), dict(spacing=[0.5, 0.5, 0.5])):
        with pytest.raises(ValueError, match=next(iter(bad))):
            kmol.density(xyz, **bad)


def test_weights_scale_each_gaussian():
    xyz = np.array([[0.0, 0, 0], [6.0, 0, 0]])
    one = kmol.density(xyz, [1.0, 1.0], spacing=0.5)
    weighted = kmol.density(xyz, [1.0, 1.0], weights=[2.0, 0.5], spacing=0.5)
    i = int(round((0 - one.origin[0]) / 0.5))
    j, k = (int(round(-o / 0.5)) for o in one.origin[1:])
    assert weighted.values[i, j, k] == pytest.approx(2 * one.values[i, j, k], rel=1e-6)


@pytest.mark.parametrize("suffix", ["ply", "obj"])
def test_mesh_writers_write_the_commands_bytes(cli, tmp_path, pqr, suffix):
    cli("surf", pqr, "--spacing", 0.25, "--device", "cpu", "--mesh", tmp_path / f"cli.{suffix}")
    atoms = kmol.read_pqr(str(pqr))
    mesh = kmol.marching_cubes(kmol.density(atoms["positions"], atoms["radii"],
                                            elements=atoms["elements"], spacing=0.25,
                                            device="cpu"), 0.5, device="cpu")
    path = tmp_path / f"py.{suffix}"
    getattr(mesh, f"write_{suffix}")(str(path))
    expected = (tmp_path / f"cli.{suffix}").read_bytes()
    assert len(mesh.faces) > 100 and path.read_bytes() == expected
    assert sorted(os.listdir(tmp_path)) == sorted(["cys.pqr", f"cli.{suffix}", f"py.{suffix}"])


def test_mesh_writers_are_atomic_and_name_the_path(tmp_path):
    mesh = kmol.marching_cubes(kmol.density(np.zeros((1, 3)), [1.5], spacing=0.5), 0.5)
    with pytest.raises(ValueError, match=r"/nonexistent/m.ply: cannot open the output file"):
        mesh.write_ply("/nonexistent/m.ply")
    old = tmp_path / "m.obj"
    old.write_text("old")
    mesh.faces[0, 0] = len(mesh.vertices)  # the arrays are the caller's to change
    with pytest.raises(ValueError, match="faces: expected vertex indices below"):
        mesh.write_obj(str(old))
    assert old.read_text() == "old" and os.listdir(tmp_path) == ["m.obj"]


def run_python(code):
    env = {**os.environ}
    env.pop("OMP_NUM_THREADS", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_set_threads_before_the_first_computation():
    done = run_python("import kmol; kmol.set_threads(1); kmol.set_threads(2); "
                      "print(kmol.info()['host_threads']); kmol.set_threads(2)\n"
                      "try:\n  kmol.set_threads(1)\nexcept kmol.UnsupportedError as e:\n"
                      "  print(e)")
    assert done.returncode == 0, done.stderr
    threads, refusal = done.stdout.splitlines()
    assert threads == "2"
    assert refusal.startswith("set_threads(1): kmol runs 2 host threads since its first computation")
    assert "--threads" not in done.stdout + done.stderr
    with pytest.raises(ValueError, match="threads: expected at least 1 host thread, not 0"):
        kmol.set_threads(0)
    with pytest.raises(TypeError):
        kmol.set_threads(1.5)


def test_reprs_say_what_each_result_holds(pqr):
    atoms = kmol.read_pqr(str(pqr))
    d = kmol.density(atoms["positions"], atoms["radii"], elements=atoms["elements"], spacing=0.5)
    assert re.fullmatch(r"<kmol\.Map \d+ x \d+ x \d+ float32 density, origin \(.*\) A, "
                        r"spacing 0\.5 A, impl \w+>", repr(d)), repr(d)
    mesh = kmol.marching_cubes(d, 0.5)
    assert re.fullmatch(rf"<kmol\.Mesh {len(mesh.vertices)} vertices, {len(mesh.faces)} faces, "
                        r"area [0-9.]+ A\^2, volume [0-9.]+ A\^3, closed>", repr(mesh)), repr(mesh)
    c = kmol.cross_correlation(d, d)
    assert re.fullmatch(rf"<kmol\.Correlation coefficient 1\.000000 over {c.voxels} voxels, "
                        r"local \d+ x \d+ x \d+ tiles>", repr(c)), repr(c)
    h = kmol.pair_histogram(atoms["positions"], r_max=5, bins=10)
    assert repr(h) == f"<kmol.PairHistogram 10 bins over [0, 5) A, {int(h.counts.sum())} pairs, " \
                      f"impl {h.impl}>"
    rdf = kmol.RDF(r_max=5, bins=10, norm="none")
    rdf.add_frame(atoms["positions"])
    assert repr(rdf) == "<kmol.RDF 10 bins over [0, 5) A, norm none, 1 frame>"


def test_errors_name_python_keywords_not_options():
    xyz = np.random.default_rng(3).uniform(0, 10, (50, 3))
    refusals = [
        lambda: kmol.pair_histogram(xyz, r_max=9, bins=0, box=[10, 10, 10]),
        lambda: kmol.RDF(r_max=5, bins=10, norm="cube"),
        lambda: kmol.potential(xyz, np.ones(50), method="mdh"),
        lambda: kmol.potential(xyz, np.ones(50), impl="nope"),
        lambda: kmol.density(xyz, np.ones(50), impl="nope"),
        lambda: kmol.MD(atoms=500, thermostat="none", impl="nope"),
        lambda: kmol.open("/nonexistent/x.xtc", top="/nonexistent/top.gro"),
    ]
    for refuse in refusals:
        with pytest.raises((ValueError, kmol.UnsupportedError)) as error:
            refuse()
        assert "--" not in str(error.value), str(error.value)
