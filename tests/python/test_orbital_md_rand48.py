"""Orbitals, LJ MD stepped from Python, and rand48 streams against the kmol command and glibc."""
import ctypes

import h5py
import numpy as np
import pytest

import kmol


@pytest.fixture(scope="module")
def water(tmp_path_factory, cli):
    path = tmp_path_factory.mktemp("orbital") / "water.molden"
    cli("orbital", "--example", "water", "--write-molden", path, "--spacing", 0.5, "--out",
        path.with_suffix(".cube"))
    return path


def dx_values(path):
    lines = open(path).read().split("data follows")[1].split("attribute")[0].split()
    return np.array(lines, dtype=np.float64)


@pytest.mark.parametrize("precision", ["single", "double"])
def test_orbital_equals_the_command(cli, tmp_path, water, precision):
    cli("orbital", water, "--mo", "homo", "--spacing", 0.2, "--padding", 3, "--precision",
        precision, "--device", "cpu", "--out", tmp_path / "homo.dx")
    m = kmol.orbital(str(water), "homo", spacing=0.2, padding=3, precision=precision,
                     device="cpu")
    assert m.units == "bohr^-3/2"
    # OpenDX stores z fastest and 7 significant digits.
    expected = dx_values(tmp_path / "homo.dx").reshape(m.values.shape)
    np.testing.assert_allclose(m.values, expected, rtol=1e-6, atol=1e-12)
    # Orthonormal test orbitals: the lattice sum approaches 1 (bohr^-3 times bohr^3).
    volume = (0.2 / 0.529177210903) ** 3
    assert float((m.values.astype(np.float64) ** 2).sum() * volume) == pytest.approx(1, abs=0.05)


def test_orbital_choice_and_errors(water):
    listed = kmol.molden_orbitals(str(water))
    assert len(listed) == 7 and listed[0]["occupation"] == 2
    by_number = kmol.orbital(str(water), 5, spacing=0.3)
    np.testing.assert_array_equal(by_number.values, kmol.orbital(str(water), "homo",
                                                                 spacing=0.3).values)
    with pytest.raises(ValueError):
        kmol.orbital(str(water), 99)
    with pytest.raises(ValueError, match="missing.molden"):
        kmol.orbital("missing.molden")
    with pytest.raises(ValueError):
        kmol.orbital(str(water), precision="quad")


@pytest.mark.parametrize("precision", ["single", "double"])
def test_md_steps_like_the_command(cli, tmp_path, precision):
    cli("md", "--cells", 6, 6, 6, "--temperature", 1.2, "--steps", 40, "--every", 10,
        "--precision", precision, "--device", "cpu", "--impl", "cpu", "--out", tmp_path / "t.h5",
        "--log", tmp_path / "log.csv", "--quiet")
    md = kmol.MD(cells=(6, 6, 6), temperature=1.2, precision=precision, device="cpu", impl="cpu")
    seen = []
    md.run(40, every=10, callback=lambda m: seen.append((m.step, m.positions, m.thermo)))
    assert [s for s, _, _ in seen] == [10, 20, 30, 40]
    with h5py.File(tmp_path / "t.h5") as f:
        frames = f["particles/all/position/value"][()]
    for (_, positions, _), frame in zip(seen, frames[1:]):
        np.testing.assert_array_equal(positions.astype(frame.dtype), frame)
    rows = [line.split(",") for line in open(tmp_path / "log.csv") if line[0].isdigit()]
    assert float(rows[-1][5]) == pytest.approx(seen[-1][2]["total"], rel=1e-9)
    assert md.impl == "host" and md.positions.shape == (864, 3)


def test_md_from_positions_and_errors():
    md = kmol.MD(cells=(3, 3, 3), temperature=1.0)
    again = kmol.MD(md.positions, md.box, md.velocities, temperature=1.0)
    md.run(5)
    again.run(5)
    np.testing.assert_allclose(again.positions, md.positions, atol=1e-5)
    with pytest.raises(ValueError):
        kmol.MD(np.zeros((4, 3)), box=None)
    with pytest.raises(ValueError):
        kmol.MD(thermostat="nose")
    with pytest.raises(ValueError):
        md.run(10, every=0, callback=print)


@pytest.mark.parametrize("kind", ["lrand48", "mrand48", "drand48"])
def test_rand48_equals_glibc_and_the_command(cli, tmp_path, kind):
    libc = ctypes.CDLL("libc.so.6")
    libc.drand48.restype = ctypes.c_double
    libc.srand48(7)
    glibc = [getattr(libc, kind)() for _ in range(5000)]
    stream = kmol.Rand48(7)
    ours = np.concatenate([getattr(stream, kind)(1234), getattr(stream, kind)(3766)])
    np.testing.assert_array_equal(ours, np.array(glibc, dtype=ours.dtype))
    cli("rand48", "--seed", 7, "--count", 5000, "--kind", kind, "--out", tmp_path / "r.txt")
    np.testing.assert_array_equal(ours, np.loadtxt(tmp_path / "r.txt", dtype=ours.dtype))
    with pytest.raises(ValueError):
        stream.lrand48(-1)
