"""Results that check themselves: frames that disagree, groupings that exclude every pair and
empty results are refused with ValueError naming what to change (allow_empty=True keeps an empty
one with a kmol.EmptyResultWarning); the C API refuses the same."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import kmol
from axial_molden import axial_copy

L = 20.0


def gas(n=400, seed=3):
    return np.random.default_rng(seed).uniform(0, L, (n, 3))


def lattice(a=4.0):
    """A simple cubic lattice filling the box: no two atoms closer than a."""
    k = np.arange(int(L / a)) * a
    return np.stack(np.meshgrid(k, k, k), axis=-1).reshape(-1, 3)


def test_a_frame_without_box_after_one_with_box_is_refused():
    rdf = kmol.RDF(r_max=8, bins=40)
    x = gas()
    rdf.add_frame(x, box=[L, L, L])
    with pytest.raises(ValueError, match=r"box: frame 1: None, but frame 0 had a periodic box"):
        rdf.add_frame(x, box=None)
    assert rdf.frames == 1  # nothing of the refused frame was counted
    g = rdf.rdf
    assert 0.8 < g[-10:].mean() < 1.2, g  # an ideal gas: 1 at large r (1.7 had the frame counted)


def test_frames_that_disagree_are_refused_naming_the_frame():
    rdf = kmol.RDF(r_max=8, bins=40)
    x = gas()
    rdf.add_frame(x)
    with pytest.raises(ValueError, match=r"box: frame 1: a periodic box, but frame 0 had none"):
        rdf.add_frame(x, box=[L, L, L])
    rdf.add_frame(x)
    with pytest.raises(ValueError, match=r"a: frame 2: 399 and 0 atoms, but frames 0 to 1 had 400"):
        rdf.add_frame(x[:-1])
    with pytest.raises(ValueError, match=r"b: frame 2: a second set, but frames 0 to 1 had one"):
        rdf.add_frame(x, x[:10])
    assert rdf.frames == 2


def test_molecules_that_exclude_every_pair_are_refused():
    rdf = kmol.RDF(r_max=8, bins=40)
    x = gas()
    with pytest.raises(ValueError, match=r"molecules: every one of the 79800 pairs .* one molecule"):
        rdf.add_frame(x, box=[L, L, L], molecules=np.zeros(len(x), np.int32))
    rdf.add_frame(x, box=[L, L, L], molecules=np.arange(len(x), dtype=np.int32) // 2)
    assert rdf.counts.sum() > 0


def test_an_empty_rdf_is_refused_or_kept_with_a_warning():
    rdf = kmol.RDF(r_max=1.2, bins=12)
    rdf.add_frame(lattice(), box=[L, L, L])
    assert rdf.counts.sum() == 0
    with pytest.raises(ValueError, match=r"r_max: no pair within r_max 1.2 Angstrom was counted.*"
                                         r"allow_empty=True"):
        rdf.rdf
    kept = kmol.RDF(r_max=1.2, bins=12, allow_empty=True)
    kept.add_frame(lattice(), box=[L, L, L])
    with pytest.warns(kmol.EmptyResultWarning, match="no pair within r_max 1.2"):
        g = kept.rdf
    assert not g.any()


def test_an_empty_pair_histogram_is_refused_or_kept_with_a_warning():
    with pytest.raises(ValueError, match=r"r_max: no pair within r_max 3 Angstrom"):
        kmol.pair_histogram(lattice(), box=[L, L, L], r_max=3, bins=10)
    with pytest.warns(kmol.EmptyResultWarning):
        h = kmol.pair_histogram(lattice(), box=[L, L, L], r_max=3, bins=10, allow_empty=True)
    assert not h.counts.any()
    full = kmol.pair_histogram(lattice(), box=[L, L, L], r_max=4.5, bins=10)
    assert full.counts.sum() == 3 * len(lattice())  # the six neighbours at 4 Angstrom, each pair once


def test_the_mdanalysis_drop_in_warns_once_about_an_empty_run():
    mda = pytest.importorskip("MDAnalysis")
    from kmol.mdanalysis import InterRDF
    u = mda.Universe.empty(len(lattice()), trajectory=True)
    u.atoms.positions = lattice()
    u.dimensions = [L, L, L, 90, 90, 90]
    with pytest.warns(kmol.EmptyResultWarning) as caught:
        r = InterRDF(u.atoms, u.atoms, nbins=10, range=(0.0, 1.0), exclusion_block=(1, 1)).run()
    empty = [w for w in caught if issubclass(w.category, kmol.EmptyResultWarning)]
    assert len(empty) == 1 and not r.results.count.any()


def c_library():
    exe = os.environ.get("KMOL_EXE", "")
    path = os.path.join(os.path.dirname(exe), "libkmol_c.so")
    if not os.path.exists(path):
        pytest.skip("no libkmol_c.so beside KMOL_EXE")
    return path


def test_the_c_api_refuses_unlike_frames_and_empty_results():
    # Its own process: the C library starts its own Kokkos.
    script = textwrap.dedent("""
        import ctypes, sys
        import numpy as np
        c = ctypes.CDLL(sys.argv[1])
        c.kmol_rdf_create.restype = ctypes.c_void_p
        c.kmol_rdf_create.argtypes = [ctypes.c_double, ctypes.c_double, ctypes.c_int32, ctypes.c_int]
        c.kmol_rdf_add_frame.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                         ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        c.kmol_rdf_result.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_void_p] * 3
        c.kmol_rdf_allow_empty.argtypes = [ctypes.c_void_p, ctypes.c_int]
        c.kmol_last_error.restype = ctypes.c_char_p
        p = lambda a: a.ctypes.data
        assert c.kmol_initialize() == 0
        L = 20.0
        k = np.arange(5) * 4.0
        x = np.ascontiguousarray(np.stack(np.meshgrid(k, k, k), -1).reshape(-1, 3))
        box = np.diag([L, L, L]).astype(np.float64).copy()
        rdf = c.kmol_rdf_create(0.0, 1.2, 12, 1)
        assert c.kmol_rdf_add_frame(rdf, p(x), len(x), None, 0, p(box)) == 0
        assert c.kmol_rdf_add_frame(rdf, p(x), len(x), None, 0, None) == 1
        print(c.kmol_last_error().decode())
        g = np.full(12, -1.0)
        assert c.kmol_rdf_result(rdf, 0, None, p(g), None) == 1
        print(c.kmol_last_error().decode())
        assert (g == -1).all()  # nothing written
        assert c.kmol_rdf_allow_empty(rdf, 1) == 0
        assert c.kmol_rdf_result(rdf, 0, None, p(g), None) == 0
        print(c.kmol_last_error().decode())
        assert (g == 0).all()
        c.kmol_rdf_destroy(rdf)
        c.kmol_finalize()
    """)
    done = subprocess.run([sys.executable, "-c", script, c_library()], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "box: frame 1: NULL, but frame 0 had a periodic box" in lines[0], lines
    assert "r_max: no pair within r_max 1.2 Angstrom was counted" in lines[1], lines
    assert "kmol_rdf_allow_empty" in lines[1], lines
    assert "kept as asked" in lines[2], lines


@pytest.fixture(scope="module")
def c60_files(tmp_path_factory):
    """C60 (6-31G*, Cartesian d) in kmol's convention and as an older psi4 writes it."""
    folder = tmp_path_factory.mktemp("molden")
    kmol.write_example_molden(str(folder / "c60.molden"), "c60")
    axial_copy(folder / "c60.molden", folder / "axial.molden")
    return str(folder / "c60.molden"), str(folder / "axial.molden")


def test_orbital_warns_about_and_converts_axial_cartesian_functions(c60_files):
    each, axial = c60_files
    lattice = {"spacing": 0.4, "padding": 2.0, "precision": "double"}
    reference = kmol.orbital(each, "homo", **lattice).values
    with pytest.warns(UserWarning, match=r"cartesian_norm='axial' converts them") as caught:
        misread = kmol.orbital(axial, "homo", **lattice).values
    assert not any("--cartesian-norm" in str(w.message) for w in caught)
    assert np.abs(misread - reference).max() > 0.01 * np.abs(reference).max()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = kmol.orbital(axial, "homo", cartesian_norm="axial", **lattice).values
    assert np.abs(reference).max() > 0.01  # a real orbital, not an empty map
    np.testing.assert_allclose(converted, reference, rtol=0,
                               atol=1e-9 * np.abs(reference).max())


def test_orbital_errors_name_python_keywords(c60_files):
    each, _ = c60_files
    with pytest.raises(ValueError, match=r"mo: orbital 999 is not in the file") as error:
        kmol.orbital(each, 999)
    assert "--mo" not in str(error.value)
    with pytest.raises(ValueError, match=r"^cartesian_norm: expected each or axial"):
        kmol.orbital(each, "homo", cartesian_norm="sideways")
    with pytest.raises(ValueError, match=r"spacing"):
        kmol.orbital(each, "homo", spacing=-1)



def test_pair_histogram_refuses_molecules_that_exclude_every_pair():
    x = gas(50)
    with pytest.raises(ValueError, match=r"molecules: every one of the 1225 pairs"):
        kmol.pair_histogram(x, box=[L, L, L], r_max=8, bins=8, molecules=np.zeros(50, np.int32))
    with pytest.warns(kmol.EmptyResultWarning):
        h = kmol.pair_histogram(x, box=[L, L, L], r_max=8, bins=8,
                                molecules=np.zeros(50, np.int32), allow_empty=True)
    assert not h.counts.any()


def test_a_psi4_cartesian_molden_file_integrates_to_one_once_converted():
    path = os.path.join(os.path.dirname(__file__), "data", "water_6-31gs_psi4-1.3.2.molden")
    bohr = 0.529177210903
    lattice = {"spacing": 0.15, "padding": 5.0, "precision": "double"}
    with pytest.warns(UserWarning, match=r"orbital 18: norm 3.138.*|cartesian_norm='axial'"):
        misread = kmol.orbital(path, 18, **lattice)
    assert (misread.values ** 2).sum() * (0.15 / bohr) ** 3 == pytest.approx(3.14, abs=0.02)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = kmol.orbital(path, 18, cartesian_norm="axial", **lattice)
    assert (converted.values ** 2).sum() * (0.15 / bohr) ** 3 == pytest.approx(1.0, abs=0.01)
