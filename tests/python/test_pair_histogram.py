"""kmol.pair_histogram and kmol.RDF against the kmol command and a double-precision oracle."""
import numpy as np
import pytest

import kmol
from conftest import csv_counts, write_xyz

L = 24.0


def gas(n, seed=3, length=L):
    return np.random.default_rng(seed).uniform(0, length, (n, 3))


def oracle(a, b, box, r_max, bins, same=None):
    """Brute force in double precision: minimum image in an orthorhombic box."""
    d = b[None, :, :] - a[:, None, :]
    if box is not None:
        d -= np.round(d / box) * box
    r = np.sqrt((d ** 2).sum(-1))
    keep = np.ones(r.shape, bool) if same is None else same
    if b is a:
        keep &= np.triu(np.ones(r.shape, bool), 1)
    return np.histogram(r[keep], bins=bins, range=(0, r_max))[0].astype(np.uint64)


@pytest.mark.parametrize("precision", ["single", "double"])
@pytest.mark.parametrize("impl", ["host", "kokkos"])
def test_equals_the_command(cli, tmp_path, precision, impl):
    xyz = gas(3000)
    write_xyz(tmp_path / "gas.xyz", xyz)
    cli("histogram", "--xyz", tmp_path / "gas.xyz", "--box", L, L, L, "--rmax", 11, "--bins", 220,
        "--precision", precision, "--impl", impl, "--device", "cpu", "--out", tmp_path / "h.csv")
    h = kmol.pair_histogram(xyz, box=[L, L, L], r_max=11, bins=220, precision=precision,
                            impl=impl, device="cpu")
    assert h.impl == impl and h.counts.dtype == np.uint64
    np.testing.assert_array_equal(h.counts, csv_counts(tmp_path / "h.csv"))


def test_double_equals_oracle_one_and_two_sets():
    a, b = gas(700, 1), gas(500, 2)
    box = np.array([L, L, L])
    np.testing.assert_array_equal(kmol.pair_histogram(a, box=box, r_max=11, bins=97).counts,
                                  oracle(a, a, box, 11, 97))
    np.testing.assert_array_equal(kmol.pair_histogram(a, b, box=box, r_max=11, bins=97).counts,
                                  oracle(a, b, box, 11, 97))
    np.testing.assert_array_equal(kmol.pair_histogram(a, r_max=30, bins=50).counts,
                                  oracle(a, a, None, 30, 50))


def test_float32_in_place_and_other_layouts_converted():
    a = gas(900).astype(np.float32)
    reference = kmol.pair_histogram(a, box=[L, L, L], r_max=10, bins=40).counts
    fortran = np.asfortranarray(a)
    listed = a.tolist()
    for same in (fortran, listed):
        np.testing.assert_array_equal(
            kmol.pair_histogram(same, box=[L, L, L], r_max=10, bins=40, precision="single").counts,
            reference)


def test_species_partials_sum_to_the_total():
    xyz = gas(1200)
    species = (np.arange(1200) % 3).astype(np.int32)
    h = kmol.pair_histogram(xyz, box=[L, L, L], r_max=10, bins=50, species=species)
    assert h.counts.shape == (6, 50) and h.species_pairs[1] == (0, 1)
    total = kmol.pair_histogram(xyz, box=[L, L, L], r_max=10, bins=50).counts
    np.testing.assert_array_equal(h.counts.sum(0), total)
    s0 = xyz[species == 0]
    np.testing.assert_array_equal(h.counts[0], oracle(s0, s0, np.array([L] * 3), 10, 50))
    mask = np.zeros(6, np.uint8)
    mask[1] = 1
    only = kmol.pair_histogram(xyz, box=[L, L, L], r_max=10, bins=50, species=species,
                               species_pairs=mask)
    np.testing.assert_array_equal(only.counts[1], h.counts[1])
    assert only.counts[0].sum() == 0


def test_exclusions_skip_pairs_within_a_molecule():
    a, b = gas(600, 4), gas(300, 5)
    ma, mb = (np.arange(600) // 3).astype(np.int32), (np.arange(300) // 3).astype(np.int32)
    box = np.array([L] * 3)
    h = kmol.pair_histogram(a, b, box=box, r_max=11, bins=60, molecules=ma, molecules_b=mb)
    np.testing.assert_array_equal(h.counts, oracle(a, b, box, 11, 60, ma[:, None] != mb[None, :]))
    one = kmol.pair_histogram(a, box=box, r_max=11, bins=60, molecules=ma)
    np.testing.assert_array_equal(one.counts, oracle(a, a, box, 11, 60, ma[:, None] != ma[None, :]))


def test_triclinic_and_dimensions_agree():
    xyz = gas(800)
    dims = [L, L + 1, L + 2, 70, 80, 100]
    by_dims = kmol.pair_histogram(xyz, box=dims, r_max=9, bins=45, precision="double")
    a = np.radians(dims[3:])
    cx = dims[2] * np.cos(a[1])
    cy = dims[2] * (np.cos(a[0]) - np.cos(a[1]) * np.cos(a[2])) / np.sin(a[2])
    vectors = [[dims[0], 0, 0], [dims[1] * np.cos(a[2]), dims[1] * np.sin(a[2]), 0],
               [cx, cy, np.sqrt(dims[2] ** 2 - cx ** 2 - cy ** 2)]]
    by_vectors = kmol.pair_histogram(xyz, box=vectors, r_max=9, bins=45, precision="double")
    np.testing.assert_array_equal(by_dims.counts, by_vectors.counts)
    assert by_dims.counts.sum() > 0


def test_rdf_accumulates_like_the_command(cli, tmp_path):
    import h5py
    cli("example-trajectory", "--example", "gas", "--atoms", 2000, "--length", 30, "--frames", 4,
        "--out", tmp_path / "t.h5")
    cli("rdf", tmp_path / "t.h5", "--rmax", 12, "--bins", 120, "--precision", "double",
        "--csv", tmp_path / "rdf.csv", "--out", tmp_path / "rdf.xvg", "--quiet")
    rdf = kmol.RDF(r_max=12, bins=120, precision="double")
    with h5py.File(tmp_path / "t.h5") as f:
        group = f["particles"][list(f["particles"])[0]]
        positions, box = group["position/value"][()], group["box/edges/value"][()]
        for frame, edges in zip(positions, box):
            rdf.add_frame(frame, box=edges if edges.ndim == 2 else edges)
    assert rdf.frames == 4
    np.testing.assert_array_equal(rdf.counts, csv_counts(tmp_path / "rdf.csv"))
    g = np.array([float(r.split(",")[4]) for r in open(tmp_path / "rdf.csv") if r[0].isdigit()])
    np.testing.assert_allclose(rdf.rdf, g, rtol=1e-7)
    assert len(rdf.edges) == 121 and rdf.bins[0] == pytest.approx(0.05)


def test_rdf_plane_and_kb_are_the_command_s(cli, tmp_path):
    """RDF(plane='xy') counts as `kmol rdf --plane xy`, RDF.kb equals `kmol rdf --kb` to its
    printed digits, on the same frames."""
    import h5py
    cli("example-trajectory", "--example", "gas", "--atoms", 800, "--length", 24, "--frames", 3,
        "--out", tmp_path / "t.h5")
    common = ("rdf", tmp_path / "t.h5", "--rmax", 9, "--bins", 45, "--precision", "double",
              "--quiet")
    cli(*common, "--plane", "xy", "--csv", tmp_path / "xy.csv", "--out", tmp_path / "xy.xvg")
    cli(*common, "--kb", tmp_path / "kb.csv", "--out", tmp_path / "rdf.xvg")
    with h5py.File(tmp_path / "t.h5") as f:
        group = f["particles"][list(f["particles"])[0]]
        positions, box = group["position/value"][()], group["box/edges/value"][()]
    flat = kmol.RDF(r_max=9, bins=45, precision="double", plane="xy")
    solid = kmol.RDF(r_max=9, bins=45, precision="double")
    for frame, edges in zip(positions, box):
        flat.add_frame(frame, box=edges)
        solid.add_frame(frame, box=edges)
    np.testing.assert_array_equal(flat.counts, csv_counts(tmp_path / "xy.csv"))
    assert flat.counts.sum() > 0 and not np.array_equal(flat.counts, solid.counts)
    rows = np.array([[float(v) for v in r.split(",")] for r in open(tmp_path / "kb.csv")
                     if r[0].isdigit()])
    kb = solid.kb
    np.testing.assert_allclose(kb.r, rows[:, 0], rtol=1e-6)
    for column, name in enumerate(("running", "finite_volume", "closed"), start=1):
        np.testing.assert_allclose(getattr(kb, name), rows[:, column], rtol=1e-7, atol=1e-6)
    assert kb.running[-1] != 0 and kb.fit_to == pytest.approx(9)
    with pytest.raises(ValueError, match="kb: Kirkwood-Buff integrals are integrals over 3-D"):
        flat.kb
    with pytest.raises(ValueError, match="plane"):
        kmol.RDF(r_max=9, bins=45, plane="xw")


def test_rdf_std_error_is_that_of_the_blocks_and_the_command_s(cli, tmp_path):
    """RDF(blocks=4).std_error: the standard error of the mean of 4 blocks' g(r), computed here
    from each block's frames with RDFs of their own, and the command's --blocks 4 column."""
    import h5py
    cli("example-trajectory", "--example", "gas", "--atoms", 600, "--length", 20, "--frames", 9,
        "--out", tmp_path / "t.h5")
    cli("rdf", tmp_path / "t.h5", "--rmax", 9, "--bins", 45, "--precision", "double",
        "--blocks", 4, "--csv", tmp_path / "rdf.csv", "--out", tmp_path / "rdf.xvg", "--quiet")
    with h5py.File(tmp_path / "t.h5") as f:
        group = f["particles"][list(f["particles"])[0]]
        positions, box = group["position/value"][()], group["box/edges/value"][()]
    rdf = kmol.RDF(r_max=9, bins=45, precision="double", blocks=4)
    blocks = [kmol.RDF(r_max=9, bins=45, precision="double") for _ in range(4)]
    for k, (frame, edges) in enumerate(zip(positions, box)):
        rdf.add_frame(frame, box=edges)
        if k < 8:  # 4 blocks of 2 frames; the ninth frame joins none
            blocks[k // 2].add_frame(frame, box=edges)
    block_g = np.array([b.rdf for b in blocks])
    np.testing.assert_allclose(rdf.block_rdf, block_g, rtol=1e-12)
    want = block_g.std(axis=0, ddof=1) / 2
    np.testing.assert_allclose(rdf.std_error, want, rtol=1e-10, atol=1e-15)
    counted = rdf.counts > 0
    assert counted.sum() > 30 and np.all(rdf.std_error[counted] > 0)
    want_n = np.array([b.coordination for b in blocks]).std(axis=0, ddof=1) / 2
    np.testing.assert_allclose(rdf.coordination_std_error, want_n, rtol=1e-10, atol=1e-15)
    rows = [r.split(",") for r in open(tmp_path / "rdf.csv") if r[0].isdigit()]
    np.testing.assert_allclose([float(r[6]) for r in rows], rdf.std_error, rtol=1e-9)
    automatic = kmol.RDF(r_max=9, bins=45, precision="double", blocks="auto")
    for frame, edges in zip(positions, box):
        automatic.add_frame(frame, box=edges)
    assert automatic.block_rdf.shape == (9, 45) and np.all(automatic.std_error[counted] > 0)
    with pytest.raises(ValueError, match="need blocks of frames"):
        kmol.RDF(r_max=9, bins=45).std_error
    with pytest.raises(ValueError, match="2 or more"):
        kmol.RDF(r_max=9, bins=45, blocks=0)
    few = kmol.RDF(r_max=9, bins=45, blocks=20)
    few.add_frame(positions[0], box=box[0])
    with pytest.raises(ValueError, match="20 blocks need at least 20 frames; 1 were added"):
        few.std_error


@pytest.mark.parametrize("call, error", [
    (lambda: kmol.pair_histogram(np.zeros((5, 2)), r_max=1, bins=2), ValueError),
    (lambda: kmol.pair_histogram([["a", "b", "c"]], r_max=1, bins=2), ValueError),
    (lambda: kmol.pair_histogram(np.array([[0, 0, np.nan], [1, 1, 1]]), r_max=1, bins=2),
     ValueError),
    (lambda: kmol.pair_histogram(np.zeros((0, 3)), r_max=1, bins=2), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), box=[10, 0, 10], r_max=1, bins=2), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), box=[10, 10], r_max=1, bins=2), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=0), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=2, impl="magic"), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=2, precision="half"), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=2, device="tpu"), ValueError),
    (lambda: kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=2, species=[0, 1]), ValueError),
    (lambda: kmol.RDF(r_max=1, bins=2, norm="weird"), ValueError),
])
def test_bad_input_raises(call, error):
    with pytest.raises(error):
        call()


def test_r_max_beyond_half_the_box_counts_every_image():
    """Beyond the minimum image every periodic image within r_max counts, and an atom's own
    images too, once per pair +-n: against numpy over every translation, in double precision.
    r_max 12.4 keeps the own images (at exactly one edge, 10 A) off a bin edge, where the
    rounding of (x + 10) - x decides the bin."""
    a = np.random.default_rng(4).uniform(0, 10, (40, 3))
    h = kmol.pair_histogram(a, box=[10, 10, 10], r_max=12.4, bins=25, precision="double")
    n = np.stack(np.meshgrid(*[np.arange(-3, 4)] * 3, indexing="ij"), -1).reshape(-1, 3) * 10.0
    i, j = np.triu_indices(40, 1)
    pairs = np.linalg.norm((a[j] - a[i])[:, None, :] + n[None, :, :], axis=2).ravel()
    own = np.linalg.norm(n, axis=1)
    own = np.repeat(own[own > 0], 40)
    want = np.histogram(pairs, bins=25, range=(0, 12.4))[0]
    want += np.histogram(own, bins=25, range=(0, 12.4))[0] // 2  # n and -n: one pair
    assert want[20:].sum() > 0 and np.histogram(own, bins=25, range=(0, 12.4))[0].sum() > 0
    np.testing.assert_array_equal(h.counts, want)


def test_gpu_without_one_is_refused():
    if kmol.info()["gpus"]:
        pytest.skip("this machine has a GPU")
    with pytest.raises(kmol.UnsupportedError, match="gpu"):
        kmol.pair_histogram(np.ones((4, 3)), r_max=1, bins=2, device="gpu")
