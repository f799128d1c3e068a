"""kmol.mdanalysis.InterRDF / InterRDF_s against MDAnalysis itself on the same Universe, for
trajectories written by MDAnalysis' own writers in every box type."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

mda = pytest.importorskip("MDAnalysis")
from MDAnalysis.analysis import rdf as reference  # noqa: E402
from MDAnalysis.lib.distances import distance_array  # noqa: E402

from kmol.mdanalysis import InterRDF, InterRDF_s  # noqa: E402
from conftest import unexpected_stderr  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)

BOXES = {
    "orthorhombic": (np.array([30.0, 31.0, 32.0, 90, 90, 90]), "xtc"),
    "triclinic": (np.array([30.0, 31.0, 32.0, 70, 80, 100]), "dcd"),
    "none": (None, "pdb"),
}


def water_universe(path, dimensions, frames=3, molecules=300, seed=5):
    """Random three-site molecules (OW HW1 HW2) written with MDAnalysis' writers and read back."""
    n = 3 * molecules
    u = mda.Universe.empty(n, n_residues=molecules, atom_resindex=np.repeat(np.arange(molecules), 3),
                           trajectory=True)
    u.add_TopologyAttr("name", ["OW", "HW1", "HW2"] * molecules)
    u.add_TopologyAttr("resname", ["SOL"] * molecules)
    u.add_TopologyAttr("resid", np.arange(1, molecules + 1))
    rng = np.random.default_rng(seed)
    lengths = dimensions[:3] if dimensions is not None else np.array([30.0, 30.0, 30.0])
    with mda.Writer(str(path), n, multiframe=True) as w:
        for _ in range(frames):
            oxygens = rng.uniform(0, 1, (molecules, 3)) * lengths
            u.atoms.positions = np.repeat(oxygens, 3, axis=0) + rng.normal(0, 0.6, (n, 3))
            u.dimensions = dimensions
            w.write(u.atoms)
    topology = path.with_suffix(".gro") if dimensions is not None else path
    if dimensions is not None:
        u.trajectory[0]
        u.atoms.write(str(topology))
    return mda.Universe(str(topology), str(path)) if dimensions is not None else mda.Universe(
        str(path))


@pytest.fixture(scope="module", params=list(BOXES))
def universe(request, tmp_path_factory):
    dimensions, suffix = BOXES[request.param]
    u = water_universe(tmp_path_factory.mktemp("mda") / f"water.{suffix}", dimensions)
    return request.param, u


def edge_ties(u, g1, g2, edges, tolerance):
    """Pairs (summed over frames) whose double-precision distance lies within `tolerance` of a
    bin edge: the only ones MDAnalysis and kmol may bin differently."""
    ties = 0
    for ts in u.trajectory:
        d = distance_array(g1.positions, g2.positions, box=ts.dimensions)
        ties += int((np.abs(d[..., None] - edges) < tolerance).sum())
    return ties


def tie_tolerance(u):
    """How far from a bin edge MDAnalysis' distance may put a pair on the other side: it wraps
    coordinates into the box and subtracts them in single precision (lib/nsgrid.pyx), three
    roundings of half a float32 ulp at the box's size per component."""
    sizes = [np.abs(u.trajectory[0].positions).max()]
    if u.dimensions is not None:
        sizes += list(u.dimensions[:3])
    size = max(sizes)
    return 3 * np.sqrt(3) * float(np.spacing(np.float32(size)))


def compare(kind, u, g1, g2, **options):
    ours = InterRDF(g1, g2, nbins=120, range=(0.0, 12.0), **options).run()
    theirs = reference.InterRDF(g1, g2, nbins=120, range=(0.0, 12.0), **options).run()
    np.testing.assert_array_equal(ours.results.edges, theirs.results.edges)
    np.testing.assert_array_equal(ours.results.bins, theirs.results.bins)
    differ = np.abs(ours.results.count - theirs.results.count).sum()
    if differ:
        assert differ <= 2 * edge_ties(u, g1, g2, theirs.results.edges, tie_tolerance(u))
    same = ours.results.count == theirs.results.count
    assert same.mean() > 0.95
    np.testing.assert_allclose(ours.results.rdf[same], theirs.results.rdf[same], rtol=1e-6,
                               atol=0)
    return ours, theirs


def waters(universe, norm):
    """The universe's box kind, itself, its oxygens and its hydrogens; g(r) needs a box (in
    MDAnalysis too)."""
    kind, u = universe
    if kind == "none" and norm == "rdf":
        pytest.skip("g(r) needs a box volume")
    return kind, u, u.select_atoms("name OW"), u.select_atoms("name HW1 HW2")


@pytest.mark.parametrize("norm", ["rdf", "density", "none"])
def test_interrdf_equals_mdanalysis(universe, norm):
    kind, u, ow, hw = waters(universe, norm)
    compare(kind, u, ow, ow, norm=norm)
    compare(kind, u, ow, hw, norm=norm)
    compare(kind, u, ow, u.atoms, norm=norm)


def test_exclusion_blocks_equal_mdanalysis(universe):
    kind, u = universe
    norm = "density" if kind == "none" else "rdf"
    ow, hw = u.select_atoms("name OW"), u.select_atoms("name HW1 HW2")
    compare(kind, u, ow, ow, exclusion_block=(1, 1), norm=norm)
    compare(kind, u, ow, hw, exclusion_block=(1, 2), norm=norm)
    compare(kind, u, u.atoms, u.atoms, exclusion_block=(3, 3), norm=norm)


def test_exclude_same_residue_is_the_block_of_a_molecule(universe):
    kind, u = universe
    everything = u.atoms
    by_block = InterRDF(everything, everything, nbins=60, range=(0, 12), norm="none",
                        exclusion_block=(3, 3)).run()
    by_residue = InterRDF(everything, everything, nbins=60, range=(0, 12), norm="none",
                          exclude_same="residue").run()
    np.testing.assert_array_equal(by_block.results.count, by_residue.results.count)
    with pytest.raises(ValueError):
        InterRDF(everything, everything, exclude_same="molecule")
    with pytest.raises(ValueError):
        InterRDF(everything, everything, exclude_same="residue", exclusion_block=(3, 3))


def test_run_slices_like_mdanalysis(universe):
    kind, u = universe
    ow = u.select_atoms("name OW")
    norm = "density" if kind == "none" else "rdf"
    for run in ({"start": 1}, {"stop": 2}, {"step": 2}, {"frames": [0, 2]}):
        ours = InterRDF(ow, ow, nbins=50, range=(0, 10), norm=norm).run(**run)
        theirs = reference.InterRDF(ow, ow, nbins=50, range=(0, 10), norm=norm).run(**run)
        assert ours.n_frames == theirs.n_frames
        np.testing.assert_array_equal(ours.results.count, theirs.results.count)


@pytest.mark.parametrize("norm", ["rdf", "density", "none"])
def test_interrdf_s_equals_mdanalysis(universe, norm):
    kind, u, ow, hw = waters(universe, norm)
    ags = [[ow[:7], hw[:200]], [ow[:150], ow[100:300]]]
    ours = InterRDF_s(u, ags, nbins=40, range=(0.0, 10.0), norm=norm).run()
    theirs = reference.InterRDF_s(u, ags, nbins=40, range=(0.0, 10.0), norm=norm).run()
    tolerance = tie_tolerance(u)
    for k, (a, b) in enumerate(ags):
        assert ours.results.count[k].shape == (len(a), len(b), 40)
        differ = np.abs(ours.results.count[k] - theirs.results.count[k]).sum()
        if differ:
            assert differ <= 2 * edge_ties(u, a, b, theirs.results.edges, tolerance)
        same = ours.results.count[k] == theirs.results.count[k]
        np.testing.assert_allclose(ours.results.rdf[k][same], theirs.results.rdf[k][same],
                                   rtol=1e-6)
        np.testing.assert_array_equal(ours.results.indices[k][1], theirs.results.indices[k][1])
    for mine, other in zip(ours.get_cdf(), theirs.get_cdf()):
        np.testing.assert_allclose(mine, other, atol=2 / u.trajectory.n_frames)
    assert ours.results.cdf is not None


def test_interrdf_s_held_until_exit_leaves_cleanly(tmp_path):
    """A script's InterRDF_s, still held when the interpreter exits, releases its counts before
    Kokkos stops: the process ends with status 0 and no Kokkos complaint."""
    script = tmp_path / "held.py"
    script.write_text(
        "import warnings\n"
        "warnings.simplefilter('ignore')\n"
        "import numpy as np, MDAnalysis as mda\n"
        "from kmol.mdanalysis import InterRDF_s\n"
        "u = mda.Universe.empty(3, trajectory=True)\n"
        "u.atoms.positions = np.array([[1.0, 1, 1], [2.5, 1, 1], [1, 4, 1]])\n"
        "u.dimensions = [20, 20, 20, 90, 90, 90]\n"
        "held = InterRDF_s(u, [[u.atoms[:1], u.atoms[1:]]], nbins=4, range=(0.0, 4.0)).run()\n"
        "print(held.results.count[0].sum())\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "2.0", done.stderr
    assert not any("Kokkos" in line for line in unexpected_stderr(done.stderr)), done.stderr


def test_bad_arguments_raise_value_error(universe):
    _, u = universe
    ow = u.select_atoms("name OW")
    with pytest.raises(ValueError, match="invalid norm"):
        InterRDF(ow, ow, norm="wrong")
    with pytest.raises(ValueError):
        InterRDF(ow, ow, range=(5.0, 1.0))
    with pytest.raises(ValueError):
        InterRDF(ow, ow, device="tpu")
    with pytest.raises(ValueError, match="invalid norm"):
        InterRDF_s(u, [[ow, ow]], norm="wrong")


@pytest.mark.parametrize("impl", ["kokkos", "host"])
def test_every_implementation_counts_the_same(universe, impl):
    kind, u = universe
    ow = u.select_atoms("name OW")
    norm = "density" if kind == "none" else "rdf"
    device = "cpu" if impl == "host" else "auto"  # host: the CPU kernels, on a GPU machine too
    ours = InterRDF(ow, ow, nbins=50, range=(0, 9.5), norm=norm, impl=impl, device=device).run()
    theirs = InterRDF(ow, ow, nbins=50, range=(0, 9.5), norm=norm, impl="auto").run()
    assert ours.impl == impl
    np.testing.assert_array_equal(ours.results.count, theirs.results.count)


def test_a_failing_frame_reader_raises(universe, monkeypatch):
    _, u = universe
    ow = u.select_atoms("name OW")
    analysis = InterRDF(ow, ow, nbins=10, range=(0, 5), norm="none")

    def broken(ts):
        raise OSError("frame unreadable")
    monkeypatch.setattr(analysis, "_snapshot", broken)
    with pytest.raises(OSError, match="unreadable"):
        analysis.run()


@pytest.mark.parametrize("angles", [[90, 90, 90], [70, 80, 100]])
def test_default_range_in_a_small_box_equals_mdanalysis_up_to_half_the_box(tmp_path, angles):
    """MDAnalysis' default range=(0, 15) in a 25 A box: equal counts up to half the box (the
    minimum-image radius); beyond it kmol counts every image and MDAnalysis each pair once."""
    dimensions = np.array([25.0, 25.0, 25.0] + angles)
    u = water_universe(tmp_path / "small.dcd", dimensions, frames=2, molecules=150, seed=8)
    oxygens = u.select_atoms("name OW")
    ours = InterRDF(oxygens, oxygens, nbins=60).run()
    theirs = reference.InterRDF(oxygens, oxygens, nbins=60).run()
    np.testing.assert_array_equal(ours.results.edges, theirs.results.edges)
    limit = min_image_radius(u.dimensions)
    within = ours.results.edges[1:] <= limit
    assert within.sum() >= 20
    differ = np.abs(ours.results.count - theirs.results.count)[within].sum()
    assert differ <= 2 * edge_ties(u, oxygens, oxygens, theirs.results.edges, tie_tolerance(u))
    beyond = ours.results.edges[:-1] >= limit
    assert np.all(ours.results.count[beyond] >= theirs.results.count[beyond])
    assert ours.results.count[beyond].sum() > 1.2 * theirs.results.count[beyond].sum()
    # Every image: g stays near 1 out to 15 A where MDAnalysis' falls.
    assert abs(ours.results.rdf[-5:].mean() - 1) < 0.15


def min_image_radius(dimensions):
    """Half the shortest lattice vector of MDAnalysis' dimensions, by brute force."""
    from MDAnalysis.lib.mdamath import triclinic_vectors
    edges = triclinic_vectors(dimensions).astype(np.float64)
    n = np.stack(np.meshgrid(*[np.arange(-3, 4)] * 3, indexing="ij"), -1).reshape(-1, 3)
    lengths = np.linalg.norm(n[np.any(n != 0, axis=1)] @ edges, axis=1)
    return 0.5 * lengths.min()


@pytest.mark.parametrize("angles", [[90, 90, 90], [70, 80, 100]])
def test_interrdf_s_beyond_half_the_box_counts_every_image(tmp_path, angles):
    """InterRDF_s with range=(0, 15) in a 25 A box: its frames go to kmol.pair_histogram, so the
    pair histograms summed over the pairs are InterRDF's (every image), and equal MDAnalysis'
    up to the minimum-image radius."""
    dimensions = np.array([25.0, 25.0, 25.0] + angles)
    u = water_universe(tmp_path / "small.dcd", dimensions, frames=2, molecules=150, seed=9)
    ow, hw = u.select_atoms("name OW")[:20], u.select_atoms("name HW1 HW2")[:40]
    ours = InterRDF_s(u, [[ow, hw]], nbins=60).run()
    theirs = reference.InterRDF_s(u, [[ow, hw]], nbins=60).run()
    whole = InterRDF(ow, hw, nbins=60).run()
    np.testing.assert_array_equal(ours.results.count[0].sum(axis=(0, 1)), whole.results.count)
    within = ours.results.edges[1:] <= min_image_radius(u.dimensions)
    assert within.sum() >= 20 and ours.results.count[0][..., within].sum() > 100
    differ = np.abs(ours.results.count[0] - theirs.results.count[0])[..., within].sum()
    assert differ <= 2 * edge_ties(u, ow, hw, theirs.results.edges, tie_tolerance(u))
    beyond = ~within
    assert ours.results.count[0][..., beyond].sum() > theirs.results.count[0][..., beyond].sum()
