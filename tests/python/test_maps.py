"""Potential, density, marching cubes and cross-correlation against the kmol command."""
import os
import re

import h5py
import numpy as np
import pytest

import kmol

PQR = """REMARK three atoms
ATOM      1  N   ALA A   1       1.000   2.000   3.000  0.5000 1.8000
ATOM      2  CA  ALA A   1       2.400   2.300   3.100 -0.2500 1.9000
ATOM      3  O   ALA A   1       3.100   1.100   2.500 -0.2500 1.6000
END
"""


@pytest.fixture()
def pqr(tmp_path):
    path = tmp_path / "three.pqr"
    path.write_text(PQR)
    return path


def hdf5_map(path, name):
    with h5py.File(path) as f:
        return f[name][()]  # stored [i, j, k], as kmol.Map is indexed


@pytest.mark.parametrize("method", ["direct", "cutoff", "mdh"])
@pytest.mark.parametrize("precision", ["single", "double"])
def test_potential_equals_the_command_to_the_bit(cli, tmp_path, pqr, method, precision):
    cli("potential", pqr, "--method", method, "--spacing", 0.4, "--padding", 4, "--precision",
        precision, "--device", "cpu", "--out", tmp_path / "p.h5")
    atoms = kmol.read_pqr(str(pqr))
    m = kmol.potential(atoms["positions"], atoms["charges"], atoms["radii"], method=method,
                       spacing=0.4, padding=4, precision=precision, device="cpu")
    expected = hdf5_map(tmp_path / "p.h5", "potential")
    assert m.values.shape == expected.shape and m.values.dtype == expected.dtype
    np.testing.assert_array_equal(m.values, expected)
    assert m.units == "kT/e" and m.spacing[0] == 0.4
    with h5py.File(tmp_path / "p.h5") as f:
        np.testing.assert_allclose(m.origin, f["potential"].attrs["origin"])


def test_potential_of_one_charge_is_coulomb():
    m = kmol.potential(np.zeros((1, 3)), [1.0], units="V", origin=[1, 0, 0], counts=[3, 1, 1],
                       spacing=1.0, precision="double")
    np.testing.assert_allclose(m.values[:, 0, 0], 14.399645 / np.array([1, 2, 3]), rtol=1e-6)
    np.testing.assert_allclose(m.axis(0), [1, 2, 3])


def test_density_and_surface_equal_the_command(cli, tmp_path, pqr):
    log = cli("surf", pqr, "--spacing", 0.25, "--device", "cpu", "--out", tmp_path / "d.h5",
              "--mesh", tmp_path / "s.obj")
    atoms = kmol.read_pqr(str(pqr))
    d = kmol.density(atoms["positions"], atoms["radii"], spacing=0.25, device="cpu")
    np.testing.assert_array_equal(d.values, hdf5_map(tmp_path / "d.h5", "density"))
    mesh = kmol.marching_cubes(d, 0.5, device="cpu")
    area, volume = map(float, re.search(r"area ([0-9.e+]+) A\^2, volume ([0-9.e+]+)", log).groups())
    assert mesh.area == pytest.approx(area, rel=1e-5) and mesh.volume == pytest.approx(volume,
                                                                                       rel=1e-5)
    obj = (tmp_path / "s.obj").read_text().splitlines()
    assert len(mesh.vertices) == sum(line.startswith("v ") for line in obj)
    assert len(mesh.faces) == sum(line.startswith("f ") for line in obj)
    assert mesh.open_edges == 0 and mesh.faces.dtype == np.int32
    half = kmol.density(atoms["positions"], atoms["radii"], spacing=0.25, storage="half")
    assert half.values.dtype == np.float16
    np.testing.assert_allclose(half.values, d.values, atol=1e-3)


def test_sphere_surface_from_an_array():
    # rho = exp(-r^2 / 8): the 0.5 surface is the sphere of radius 2 sqrt(2 ln 2).
    x = np.arange(-4, 4.01, 0.1)
    X, Y, Z = np.meshgrid(x, x, x, indexing="ij")
    rho = np.exp(-(X ** 2 + Y ** 2 + Z ** 2) / 8)
    mesh = kmol.marching_cubes(rho, 0.5, origin=[-4, -4, -4], spacing=0.1)
    r = 2 * np.sqrt(2 * np.log(2))
    assert mesh.area == pytest.approx(4 * np.pi * r * r, rel=1e-2)
    assert mesh.volume == pytest.approx(4 / 3 * np.pi * r ** 3, rel=1e-2)


def test_cross_correlation_is_pearson(tmp_path, pqr):
    atoms = kmol.read_pqr(str(pqr))
    d = kmol.density(atoms["positions"], atoms["radii"], spacing=0.3)
    noise = np.random.default_rng(2).normal(0, 0.05, d.values.shape).astype(np.float32)
    reference = d.values + noise
    c = kmol.cross_correlation(d, reference, origin=d.origin, spacing=d.spacing)
    expected = np.corrcoef(d.values.ravel().astype(np.float64),
                           reference.ravel().astype(np.float64))[0, 1]
    assert c.coefficient == pytest.approx(expected, abs=1e-6)
    assert c.voxels == d.values.size and c.local.values.shape == tuple(
        -(-np.array(d.values.shape) // 8))
    above = kmol.cross_correlation(d, reference, origin=d.origin, spacing=d.spacing,
                                   threshold=0.1)
    keep = reference.ravel() > 0.1
    assert above.voxels == keep.sum()
    d.write_dx(str(tmp_path / "d.dx"))
    again = kmol.read_map(str(tmp_path / "d.dx"))
    np.testing.assert_allclose(again.values, d.values, rtol=1e-6, atol=1e-12)


def test_map_write_chooses_the_format_by_extension(tmp_path):
    xyz = np.array([[0.0, 0, 0], [2.0, 1, 0]])
    d = kmol.density(xyz, [1.5, 1.2], spacing=0.4)
    assert d.values.max() > 0.5
    for suffix in ("dx", "mrc"):
        d.write(str(tmp_path / f"d.{suffix}"))
        again = kmol.read_map(str(tmp_path / f"d.{suffix}"))
        np.testing.assert_allclose(again.values, d.values, rtol=1e-6, atol=1e-12)
        np.testing.assert_allclose(again.origin, d.origin, atol=1e-4)
    p = kmol.potential(xyz, [0.5, -0.5], spacing=0.5, padding=3, precision="double")
    p.write(str(tmp_path / "p.h5"), name="potential")
    with h5py.File(tmp_path / "p.h5") as f:
        stored = f["potential"]
        assert stored.dtype == np.float64 and stored.attrs["units"] == "kT/e"
        np.testing.assert_array_equal(stored[...], p.values)
        np.testing.assert_array_equal(stored.attrs["origin"], p.origin)
    with pytest.raises(ValueError, match=r"path: expected a map file ending in .dx"):
        d.write(str(tmp_path / "d.txt"))
    assert sorted(os.listdir(tmp_path)) == ["d.dx", "d.mrc", "p.h5"]


@pytest.mark.parametrize("call", [
    lambda a: kmol.potential(a["positions"], a["charges"][:2]),
    lambda a: kmol.potential(a["positions"], a["charges"], method="mdh", radii=None),
    lambda a: kmol.potential(a["positions"], a["charges"], method="magic"),
    lambda a: kmol.potential(a["positions"], a["charges"], spacing=-1),
    lambda a: kmol.potential(a["positions"], a["charges"], origin=[0, 0, 0]),
    lambda a: kmol.density(a["positions"], a["radii"], threshold=2),
    lambda a: kmol.density(a["positions"], -a["radii"]),
    lambda a: kmol.marching_cubes(np.zeros((4, 4)), 0.5, origin=[0, 0, 0], spacing=1),
    lambda a: kmol.marching_cubes(np.zeros((4, 4, 4)), 0.5),
    lambda a: kmol.cross_correlation(np.zeros((4, 4, 4)), np.zeros((5, 4, 4)), origin=[0, 0, 0],
                                     spacing=1),
])
def test_bad_map_input_raises_value_error(pqr, call):
    with pytest.raises(ValueError):
        call(kmol.read_pqr(str(pqr)))


def test_missing_pqr_names_the_file(tmp_path):
    with pytest.raises(ValueError, match="nothere.pqr"):
        kmol.read_pqr(str(tmp_path / "nothere.pqr"))


def test_maps_that_say_nothing_or_overflow_raise_value_error():
    xyz = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    # A density lattice far from the atoms is zero everywhere: refused, not returned.
    with pytest.raises(ValueError, match="zero at all 27 points"):
        kmol.density(xyz, np.array([1.5, 1.5]), origin=[100, 100, 100], counts=[3, 3, 3])
    # Charges past float32's range make the single-precision potential infinite.
    with pytest.raises(ValueError, match="non-finite values"):
        kmol.potential(xyz.astype(np.float32), np.array([3e38, 3e38], dtype=np.float32),
                       spacing=0.5, padding=2)
    # The same in double precision is finite, and a map of zero charges is zero: an answer.
    assert np.isfinite(kmol.potential(xyz, np.array([3e38, 3e38]), spacing=0.5, padding=2,
                                      precision="double").values).all()
    assert not kmol.potential(xyz, np.zeros(2), spacing=0.5, padding=2).values.any()


def test_an_atom_stretching_the_lattice_is_refused_at_once():
    xyz = np.array([[i % 3, i // 3 % 3, i // 9] for i in range(27)], dtype=float)
    xyz[20] = [1, 1e5, 1]
    with pytest.raises(ValueError, match=r"atom 21 at \(1, 1e\+05, 1\) A lies far from the others"):
        kmol.potential(xyz, np.ones(27))


def test_an_empty_mesh_raises_unless_allowed():
    values = np.zeros((4, 4, 4), dtype=np.float32)
    values[1:3, 1:3, 1:3] = 1
    with pytest.raises(ValueError, match="has no triangles"):
        kmol.marching_cubes(values, 2.0, origin=[0, 0, 0], spacing=1)
    empty = kmol.marching_cubes(values, 2.0, origin=[0, 0, 0], spacing=1, allow_empty=True)
    assert len(empty.faces) == 0
    assert kmol.marching_cubes(values, 0.5, origin=[0, 0, 0], spacing=1).volume > 0
