"""kmol.open: the frames of every format kmol reads, against MDAnalysis' reading of the same files
and against the kmol command (an RDF over kmol.open's frames equals kmol rdf's)."""
import re
import warnings

import numpy as np
import pytest

import kmol

mda = pytest.importorskip("MDAnalysis")
warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=UserWarning, module="MDAnalysis")

CORPUS = __import__("pathlib").Path(__file__).parents[1] / "fuzz" / "corpus"
MOLECULES = 200


def water(path, frames=4, seed=7, dimensions=(24.0, 25.0, 26.0, 90, 90, 90)):
    """Random three-site waters written by MDAnalysis' writer for the file's suffix, with a GRO
    topology beside it; returns the GRO's path."""
    n = 3 * MOLECULES
    u = mda.Universe.empty(n, n_residues=MOLECULES,
                           atom_resindex=np.repeat(np.arange(MOLECULES), 3), trajectory=True)
    u.add_TopologyAttr("name", ["OW", "HW1", "HW2"] * MOLECULES)
    u.add_TopologyAttr("resname", ["SOL"] * MOLECULES)
    u.add_TopologyAttr("resid", np.arange(1, MOLECULES + 1))
    rng = np.random.default_rng(seed)
    with mda.Writer(str(path), n, multiframe=True) as w:
        for _ in range(frames):
            oxygens = rng.uniform(0, 1, (MOLECULES, 3)) * np.array(dimensions[:3])
            u.atoms.positions = np.repeat(oxygens, 3, axis=0) + rng.normal(0, 0.6, (n, 3))
            u.dimensions = np.array(dimensions)
            w.write(u.atoms)
    gro = path.with_suffix(".gro")
    u.atoms.write(str(gro))
    return gro


def box_of(dimensions):
    return mda.lib.mdamath.triclinic_vectors(dimensions)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("open")
    out = {}
    for suffix in ("xtc", "trr", "ncdf", "dcd"):
        gro = water(d / f"water.{suffix}")
        out[suffix] = (d / f"water.{suffix}", gro)
    return out


@pytest.mark.parametrize("suffix", ["xtc", "trr", "ncdf"])
def test_frames_equal_mdanalysis_reading(files, suffix):
    path, gro = files[suffix]
    u = mda.Universe(str(gro), str(path))
    t = kmol.open(str(path), top=str(gro))
    assert len(t) == t.n_frames == len(u.trajectory) == 4 and t.n_atoms == 3 * MOLECULES
    for frame, ts in zip(t, u.trajectory):
        assert frame.positions.dtype == np.float64 and frame.positions.shape == (3 * MOLECULES, 3)
        np.testing.assert_allclose(frame.positions, ts.positions, rtol=0, atol=2e-5)
        np.testing.assert_allclose(frame.box, box_of(ts.dimensions), rtol=1e-6, atol=1e-5)
        assert frame.time == pytest.approx(ts.time) and frame.index == ts.frame
    assert t.names[:3] == ["OW", "HW1", "HW2"] and t.elements[:3] == ["O", "H", "H"]
    np.testing.assert_array_equal(t.molecules, np.repeat(np.arange(MOLECULES), 3))
    np.testing.assert_array_equal(t.resids[:6], [1, 1, 1, 2, 2, 2])
    assert t.resnames[0] == "SOL" and t.charges is None
    np.testing.assert_allclose(t.masses[:3], [15.999, 1.008, 1.008], rtol=1e-6)
    assert t.masses_from.endswith(f"{gro.name}'s atom names")
    np.testing.assert_allclose(t[-1].positions, t[3].positions)
    assert [f.index for f in t[1::2]] == [1, 3] and len(t[::-1]) == 4


def test_dcd_is_refused_naming_the_file(files):
    path, _ = files["dcd"]
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}: .*not a trajectory kmol reads"):
        kmol.open(str(path))


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize("suffix", ["xtc", "h5"])
def test_rdf_over_open_frames_equals_kmol_rdf(cli, files, tmp_path, suffix, precision):
    if suffix == "h5":
        path = tmp_path / "gas.h5"
        cli("example-trajectory", "--example", "gas", "--atoms", 800, "--frames", 3, "--out", path)
    else:
        path = files["xtc"][0]
    cli("rdf", path, "--rmax", 9, "--bins", 60, "--precision", precision, "--device", "cpu",
        "--out", tmp_path / "g.xvg", "--csv", tmp_path / "g.csv")
    rdf = kmol.RDF(r_max=9, bins=60, device="cpu")
    with kmol.open(str(path), dtype="float32" if precision == "single" else "float64") as t:
        for frame in t:
            rdf.add_frame(frame.positions, box=frame.box)
    rows = [line for line in open(tmp_path / "g.csv") if line[0].isdigit()]
    table = np.loadtxt(rows, delimiter=",")
    np.testing.assert_array_equal(rdf.counts, table[:, 3].astype(np.uint64))
    np.testing.assert_allclose(rdf.rdf, table[:, 4], rtol=1e-6, atol=1e-9)
    assert rdf.frames == (3 if suffix == "h5" else 4) and rdf.counts.sum() > 10000 and 0.8 < rdf.rdf[-10:].mean() < 1.2


def test_tpr_topology_gives_charges_masses_molecules(tmp_path):
    # Copies: MDAnalysis caches offsets beside a trajectory.
    trr, tpr = tmp_path / "water.trr", tmp_path / "water.tpr"
    trr.write_bytes((CORPUS / "trr" / "water.trr").read_bytes())
    tpr.write_bytes((CORPUS / "tpr" / "water.tpr").read_bytes())
    try:
        t = kmol.open(str(trr), top=str(tpr))
    except kmol.UnsupportedError:
        pytest.skip("built without libgromacs")
    u = mda.Universe(str(tpr), str(trr))
    assert t.names == list(u.atoms.names) and t.resnames == list(u.atoms.resnames)
    np.testing.assert_allclose(t.charges, u.atoms.charges, rtol=1e-6)
    np.testing.assert_allclose(t.masses, u.atoms.masses, rtol=1e-6)
    np.testing.assert_array_equal(t.molecules, u.atoms.molnums)
    assert t.masses_from.endswith("water.tpr's masses")
    for frame, ts in zip(t, u.trajectory):
        np.testing.assert_allclose(frame.positions, ts.positions, rtol=1e-6, atol=1e-5)
        assert frame.step == ts.data["step"]


PDB = """CRYST1   20.000   21.000   22.000  90.00  90.00  90.00 P 1           1
MODEL        1
ATOM      1  OW  SOL A   1       1.000   2.000   3.000  1.00  0.00           O
ATOM      2 CL    CL B   2       4.000   5.000   6.000  1.00  0.00          CL
ENDMDL
MODEL        2
ATOM      1  OW  SOL A   1       1.500   2.500   3.500  1.00  0.00           O
ATOM      2 CL    CL B   2       4.500   5.500   6.500  1.00  0.00          CL
ENDMDL
END
"""

GRO = """two frames t=   1.00000 step= 500
    2
    1SOL     OW    1   0.100   0.200   0.300
    2NA      NA    2   0.400   0.500   0.600
   2.00000   2.10000   2.20000
two frames t=   2.00000 step= 1000
    2
    1SOL     OW    1   0.150   0.250   0.350
    2NA      NA    2   0.450   0.550   0.650
   2.00000   2.10000   2.20000   0.00000   0.00000   0.50000   0.00000   0.50000   0.50000
"""

XYZ = "2\nfirst\nO 1 2 3\nCl 4 5 6\n2\nsecond\nO 1.5 2.5 3.5\nCl 4.5 5.5 6.5\n\n"


@pytest.mark.parametrize("name, text", [("models.pdb", PDB), ("frames.gro", GRO),
                                        ("frames.xyz", XYZ)])
def test_structure_files_iterate_their_frames(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    t = kmol.open(str(path))
    assert len(t) == 2 and t.n_atoms == 2
    first, second = t
    np.testing.assert_allclose(first.positions, [[1, 2, 3], [4, 5, 6]], atol=1e-12)
    np.testing.assert_allclose(second.positions, [[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]], atol=1e-12)
    if name.endswith(".pdb"):
        np.testing.assert_allclose(first.box, np.diag([20.0, 21.0, 22.0]))
        assert t.elements == ["O", "CL"] and t.chains == ["A", "B"]
    elif name.endswith(".gro"):
        np.testing.assert_allclose(first.box, np.diag([20.0, 21.0, 22.0]))
        np.testing.assert_allclose(second.box, [[20, 0, 0], [5, 21, 0], [5, 5, 22]])
        assert (first.time, first.step, second.time, second.step) == (1.0, 500, 2.0, 1000)
        assert t.elements == ["O", "NA"]  # NA in residue NA: sodium
    else:
        assert first.box is None and t.elements == ["O", "CL"] and t.molecules is None
    np.testing.assert_allclose(t.masses, [15.999, 35.45 if "NA" not in t.elements else 22.990],
                               rtol=1e-6)


def test_pqr_opens_with_charges_radii_and_elements(tmp_path):
    path = tmp_path / "one.pqr"
    path.write_text("ATOM      1  N   ALA A   1       1.000   2.000   3.000 -0.3000 1.8240\n"
                    "ATOM      2  H   ALA A   1       0.100   2.400   3.300  0.3000 0.0000\n")
    t = kmol.open(str(path))
    assert len(t) == 1 and t[0].box is None and t.elements == ["N", "H"]
    np.testing.assert_allclose(t.charges, [-0.3, 0.3])
    np.testing.assert_allclose(t.radii, [1.824, 0.0], rtol=1e-6)


def test_h5md_species_and_reprs(cli, tmp_path):
    path = tmp_path / "gas.h5"
    cli("example-trajectory", "--example", "gas", "--atoms", 100, "--frames", 2, "--out", path)
    t = kmol.open(str(path), dtype="float32")
    assert t.names is None and t.molecules is None and t.format.startswith("H5MD")
    frame = t[1]
    assert frame.positions.dtype == np.float32
    assert re.fullmatch(rf"<kmol\.Trajectory {re.escape(str(path))} \(H5MD.*\): 2 frames of 100 "
                        r"atoms, no topology>", repr(t)), repr(t)
    assert re.fullmatch(rf"<kmol\.Frame 1 of {re.escape(str(path))}: 100 atoms, time [0-9.e+-]+, "
                        r"step \d+, box \(.*\) A>", repr(frame)), repr(frame)
    t.close()
    assert repr(t).endswith("(closed)>")
    with pytest.raises(ValueError, match="the file is closed"):
        t[0]


def test_errors_name_the_file(tmp_path, files):
    xtc, gro = files["xtc"]
    t = kmol.open(str(xtc), top=str(gro))
    with pytest.raises(IndexError, match=rf"{re.escape(str(xtc))}: frame 4 is out of range: "
                                         "the file has 4 frames"):
        t[4]
    with pytest.raises(IndexError, match="frame -5 is out of range"):
        t[-5]
    short = tmp_path / "short.gro"
    short.write_text("x\n    1\n    1SOL     OW    1   0.100   0.200   0.300\n   1 1 1\n")
    with pytest.raises(ValueError, match=rf"{re.escape(str(short))}: has 1 atoms, the file "):
        kmol.open(str(xtc), top=str(short))
    with pytest.raises(ValueError, match=r"nothing\.xtc"):
        kmol.open(str(tmp_path / "nothing.xtc"))
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(ValueError, match=r"notes\.txt: expected a trajectory .* the file is text"):
        kmol.open(str(text))
    with pytest.raises(ValueError, match=r"water\.tpr: is a GROMACS run input \(TPR\)"):
        kmol.open(str(CORPUS / "tpr" / "water.tpr"))
    with pytest.raises(ValueError, match=r"group: applies to H5MD files only"):
        kmol.open(str(xtc), group="all")
    bad = tmp_path / "bad.gro"
    bad.write_text("x\n    1\n    1SOL     OW    1   0.100   zzzzz   0.300\n   1 1 1\n")
    with pytest.raises(ValueError, match=r"bad\.gro: y: \[3\] expected a number in columns 29-36"):
        kmol.open(str(bad))
    with pytest.raises(ValueError, match="dtype: expected 'float64' or 'float32'"):
        kmol.open(str(xtc), dtype="int")
