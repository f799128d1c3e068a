"""The C API's RDF options (kmol.h: kmol_rdf_set_plane, kmol_rdf_set_blocks, kmol_rdf_std_error,
kmol_rdf_block_rdf, kmol_rdf_kirkwood_buff, kmol_rdf_set_centres, kmol_rdf_set_exclusions) on the
same frames as kmol.RDF,
or against brute force in double precision (every periodic image within r_max; centres from the
unwrapped molecules), and their refusals."""
import itertools
import os

import numpy as np
import pytest

import kmol
from kmol_c import CError, CRdf, close_library, open_library


@pytest.fixture(scope="module")
def lib():
    path = os.path.join(os.path.dirname(os.environ.get("KMOL_EXE", "")), "libkmol_c.so")
    if not os.path.exists(path):
        pytest.skip("no libkmol_c.so beside KMOL_EXE")
    c = open_library(path)
    yield c
    close_library(c)


def hard_spheres(rng, n, edges, diameter):
    """n points in the cell `edges` (rows), none within `diameter` of another (random sequential
    addition): a fluid with an excluded core and a first shell."""
    edges = np.asarray(edges, dtype=float)
    inverse = np.linalg.inv(edges)
    points = []
    while len(points) < n:
        p = rng.uniform(0, 1, 3) @ edges
        if points:
            f = (np.array(points) - p) @ inverse
            d = (f - np.round(f)) @ edges
            if (d * d).sum(axis=1).min() < diameter ** 2:
                continue
        points.append(p)
    return np.array(points)


def all_image_counts(a, b, lattice, r_max, bins, keep=None):
    """Pairs binned over [0, r_max) at every periodic image within reach: each unordered pair of
    a once (b None), or every (a, b); `keep` masks the pairs (in that order) that count.
    `lattice`: the periodic edges (rows) in the coordinates' space, 2-D or 3-D."""
    lattice = np.asarray(lattice, dtype=float)
    if b is None:
        i, j = np.triu_indices(len(a), 1)
        d0 = a[j] - a[i]
    else:
        d0 = (b[None, :, :] - a[:, None, :]).reshape(-1, a.shape[1])
    counts = np.zeros(bins, dtype=np.uint64)
    if keep is not None:
        d0 = d0[keep]
    for shift in itertools.product(range(-2, 3), repeat=len(lattice)):
        r = np.sqrt(((d0 + np.array(shift) @ lattice) ** 2).sum(axis=1))
        k = (r[r < r_max] * (bins / r_max)).astype(int)
        counts += np.bincount(k, minlength=bins)[:bins].astype(np.uint64)
    return counts


def fluid_frames(seed, n, edges, diameter, frames, growth=0.02):
    """Hard-sphere frames in boxes growing by `growth` a frame (1/V differs between frames)."""
    rng = np.random.default_rng(seed)
    edges = np.asarray(edges, dtype=float)
    out = []
    for k in range(frames):
        box = edges * (1 + growth * k)
        out.append((hard_spheres(rng, n, box, diameter), box))
    return out


TILTED = [[18.0, 0, 0], [4.0, 17.0, 0], [3.0, -2.0, 15.0]]


def test_a_plane_counts_every_image_in_it_and_divides_by_the_area(lib):
    frames = fluid_frames(3, 120, TILTED, 2.6, 3)
    c = CRdf(lib, 7.0, 35)
    c.set_plane("xy")
    p = kmol.RDF(r_max=7.0, bins=35, precision="double", plane="xy")
    for x, box in frames:
        c.add_frame(x, box=box)
        p.add_frame(x, box=box)
    want = sum(all_image_counts(x[:, :2], None, box[:2, :2], 7.0, 35) for x, box in frames)
    np.testing.assert_array_equal(c.counts(), want)
    np.testing.assert_array_equal(p.counts, want)
    assert want.sum() > 5000 and np.count_nonzero(want) == 35
    inverse_area = np.mean([1 / abs(np.linalg.det(box[:2, :2])) for _, box in frames])
    edges = np.linspace(0, 7.0, 36)
    annuli = np.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
    r, g, n = c.result()
    pairs = 120 * 119 / 2
    np.testing.assert_allclose(g, want / (3 * pairs * annuli * inverse_area), rtol=1e-12)
    np.testing.assert_allclose(n, 2 * np.cumsum(want) / (3 * 120), rtol=1e-12)
    np.testing.assert_allclose(g, p.rdf, rtol=1e-14)
    # The spheres' projections on a 15 A thick slab overlap freely: g is 1 within statistics,
    # which the volume's normalisation (or the 3-D shells) would miss by a factor of 10 or more.
    assert abs(g[10:].mean() - 1) < 0.05, g
    _, density, _ = c.result("density")
    np.testing.assert_allclose(density, 2 * want / (3 * 120 * annuli), rtol=1e-12)


@pytest.mark.parametrize("plane, kept", [("xz", [0, 2]), ("yz", [1, 2])])
def test_the_other_planes_drop_their_normal(lib, plane, kept):
    frames = fluid_frames(4, 100, np.diag([16.0, 18.0, 20.0]), 2.6, 2)
    c = CRdf(lib, 6.0, 24)
    c.set_plane(plane)
    for x, box in frames:
        c.add_frame(x, box=box)
    want = sum(all_image_counts(x[:, kept], None, box[np.ix_(kept, kept)], 6.0, 24)
               for x, box in frames)
    np.testing.assert_array_equal(c.counts(), want)
    assert want.sum() > 1000


def test_std_error_and_block_rdf_equal_kmol_rdf_on_the_same_frames(lib):
    frames = fluid_frames(5, 150, np.diag([20.0, 20.0, 20.0]), 2.8, 8, growth=0.005)
    for c_blocks, py_blocks in ((3, 3), (0, "auto")):
        c = CRdf(lib, 8.0, 40)
        c.set_blocks(c_blocks)
        p = kmol.RDF(r_max=8.0, bins=40, precision="double", blocks=py_blocks)
        for x, box in frames:
            c.add_frame(x, box=box)
            p.add_frame(x, box=box)
        np.testing.assert_array_equal(c.counts(), p.counts)
        g_error, n_error = c.std_error()
        np.testing.assert_allclose(g_error, p.std_error, rtol=1e-12, atol=0)
        np.testing.assert_allclose(n_error, p.coordination_std_error, rtol=1e-12, atol=0)
        np.testing.assert_allclose(c.block_rdf(), p.block_rdf, rtol=1e-12, atol=0)
        assert c.error_block() == p.error_block
        # 3 blocks of 2 frames; 8 frames leave blocking 1 or 2 frames (at least 4 blocks).
        assert c.error_block() == (2, True) if c_blocks == 3 else c.error_block()[0] in (1, 2)
        counted = p.counts > 0
        assert counted.sum() > 25 and np.all(g_error[counted] > 0)
        assert np.all(g_error[counted] < 0.5) and np.all(n_error[1:][counted[1:]] > 0)
    # 3 blocks of 2 frames: the error of another normalisation is that of its blocks' mean.
    c = CRdf(lib, 8.0, 40)
    c.set_blocks(3)
    for x, box in frames:
        c.add_frame(x, box=box)
    blocks = c.block_rdf("density")
    assert blocks.shape == (3, 40)
    np.testing.assert_allclose(c.std_error("density")[0], blocks.std(axis=0, ddof=1) / np.sqrt(3),
                               rtol=1e-10, atol=1e-18)


def shell_integral(lo, hi, values, length, points=400):
    """int 4 pi r^2 v(r) w(r / length) dr over bins [lo, hi) where v is constant, by the midpoint
    rule on `points` points a bin; w(x) = 1 - 3x/2 + x^3/2."""
    total = 0.0
    for a, b, v in zip(lo, hi, values):
        r = a + (np.arange(points) + 0.5) * (b - a) / points
        x = r / length
        total += v * np.sum(4 * np.pi * r * r * (1 - 1.5 * x + 0.5 * x ** 3)) * (b - a) / points
    return total


def test_kirkwood_buff_follows_its_definitions(lib):
    n, frames = 200, fluid_frames(6, 200, np.diag([22.0, 22.0, 22.0]), 3.0, 6, growth=0.004)
    c = CRdf(lib, 10.0, 50)
    p = kmol.RDF(r_max=10.0, bins=50, precision="double")
    for x, box in frames:
        c.add_frame(x, box=box)
        p.add_frame(x, box=box)
    kb = c.kirkwood_buff()
    for column in ("r", "running", "finite_volume", "closed"):
        np.testing.assert_allclose(kb[column], getattr(p.kb, column), rtol=1e-14)
    assert kb["infinite"] == pytest.approx(p.kb.infinite, rel=1e-14)
    counts = c.counts().astype(float)
    volume = 1 / np.mean([1 / np.linalg.det(box) for _, box in frames])
    edges = np.linspace(0, 10.0, 51)
    lo, hi, centre = edges[:-1], edges[1:], 0.5 * (edges[:-1] + edges[1:])
    shells = 4 / 3 * np.pi * (hi ** 3 - lo ** 3)
    m = n - 1  # partners of a reference atom in the box
    in_shell = 2 * counts / (len(frames) * n)
    g = in_shell * volume / (m * shells)
    within = np.cumsum(in_shell) - 0.5 * in_shell  # n(r) at each bin's centre
    g_gv = g * m * (1 - 4 / 3 * np.pi * centre ** 3 / volume) / (m - within)
    np.testing.assert_allclose(kb["r"], hi, rtol=1e-15)
    np.testing.assert_allclose(kb["running"], np.cumsum(shells * (g_gv - 1)), rtol=1e-10)
    g_box = in_shell * volume / (n * shells)
    for k in (9, 24, 49):
        want = shell_integral(lo[:k + 1], hi[:k + 1], g_gv[:k + 1] - 1, hi[k])
        assert kb["finite_volume"][k] == pytest.approx(want, rel=1e-5)
        want = shell_integral(lo[:k + 1], hi[:k + 1], g_box[:k + 1] - 1, hi[k])
        assert kb["closed"][k] == pytest.approx(want, rel=1e-5)
    late = hi >= 5.0
    slope = np.polyfit(hi[late], hi[late] * kb["finite_volume"][late], 1)[0]
    assert kb["infinite"] == pytest.approx(slope, rel=1e-9)
    # No two spheres closer than d = 3 A: G(R = d) is the core's -4/3 pi d^3 exactly.
    assert kb["running"][14] == pytest.approx(-4 / 3 * np.pi * 27, rel=1e-12)


def water_like(rng, molecules, length):
    """Triangles of an O and two H 1 A from it (random orientations), O at least 3 A apart; each
    atom then wrapped into the box alone, so that boundaries split molecules. Returns the wrapped
    atoms (O H H per molecule) and the unwrapped O, H, H."""
    o = hard_spheres(rng, molecules, np.diag([length] * 3), 3.0)
    directions = rng.normal(size=(2, molecules, 3))
    h = o + directions / np.linalg.norm(directions, axis=2, keepdims=True)
    atoms = np.stack([o, h[0], h[1]], axis=1).reshape(-1, 3)
    return atoms % length, (o, h[0], h[1])


def test_centres_of_groups_equal_those_of_the_unwrapped_molecules(lib):
    rng, length, molecules = np.random.default_rng(7), 15.0, 60
    frames = [water_like(rng, molecules, length) for _ in range(3)]
    box = np.diag([length] * 3)
    spans = [np.ptp(x.reshape(-1, 3, 3), axis=1).max() for x, _ in frames]
    assert min(spans) > length / 2  # molecules split by the boundaries
    groups = np.repeat(np.arange(molecules), 3)
    masses = np.tile([16.0, 1.0, 1.0], molecules)
    bonds = np.array([[3 * k, 3 * k + i] for k in range(molecules) for i in (1, 2)])
    com = [(16 * o + h1 + h2) / 18 for _, (o, h1, h2) in frames]
    cog = [(o + h1 + h2) / 3 for _, (o, h1, h2) in frames]
    cases = [("a", masses, bonds, com), ("a", masses, None, com), ("a", None, bonds, cog)]
    for which, weights, joins, centres in cases:
        c = CRdf(lib, 7.0, 28)
        c.set_centres(which, groups, weights, joins)
        for x, _ in frames:
            c.add_frame(x, box=box)
        want = sum(all_image_counts(s, None, box, 7.0, 28) for s in centres)
        np.testing.assert_array_equal(c.counts(), want)
        assert want.sum() > 500
    # Two sets: centres of set b against the atoms of set a, and the other way round.
    hydrogens = [x.reshape(-1, 3, 3)[:, 1:].reshape(-1, 3) for x, _ in frames]
    c = CRdf(lib, 7.0, 28)
    c.set_centres("b", groups, masses, bonds)
    for (x, _), h in zip(frames, hydrogens):
        c.add_frame(h, x, box=box)
    want = sum(all_image_counts(h, s, box, 7.0, 28) for h, s in zip(hydrogens, com))
    np.testing.assert_array_equal(c.counts(), want)
    assert want[:5].sum() >= 2 * 3 * molecules  # each centre's own hydrogens, within 1.25 A
    c = CRdf(lib, 7.0, 28, double=False)
    c.set_centres("a", groups, None, bonds)
    for (x, _), h in zip(frames, hydrogens):
        c.add_frame(x, h, box=box)
    single = sum(all_image_counts(s, h, box, 7.0, 28) for h, s in zip(hydrogens, cog))
    assert np.abs(c.counts().astype(int) - single.astype(int)).sum() <= 4  # float rounding


def test_exclusions_leave_out_the_pairs_of_one_label_as_kmol_rdf_does(lib):
    rng, length, molecules = np.random.default_rng(9), 15.0, 60
    frames = [water_like(rng, molecules, length) for _ in range(2)]
    box = np.diag([length] * 3)
    labels = np.repeat(np.arange(molecules), 3)
    c = CRdf(lib, 7.0, 28)
    c.set_exclusions(labels)
    p = kmol.RDF(r_max=7.0, bins=28, precision="double")
    for x, _ in frames:
        c.add_frame(x, box=box)
        p.add_frame(x, box=box, molecules=labels)
    i, j = np.triu_indices(3 * molecules, 1)
    want = sum(all_image_counts(x, None, box, 7.0, 28, keep=labels[i] != labels[j])
               for x, _ in frames)
    np.testing.assert_array_equal(c.counts(), want)
    assert want[:5].sum() == 0 and want.sum() > 5000  # no O-H bond of 1 A is left
    np.testing.assert_allclose(c.result()[1], p.rdf, rtol=1e-14)
    # Centres of molecules against hydrogens, each centre's own two left out.
    hydrogens = [x.reshape(-1, 3, 3)[:, 1:].reshape(-1, 3) for x, _ in frames]
    owner = np.repeat(np.arange(molecules), 2)
    masses = np.tile([16.0, 1.0, 1.0], molecules)
    c = CRdf(lib, 7.0, 28)
    c.set_centres("a", labels, masses)
    c.set_exclusions(labels, owner)
    for (x, _), h in zip(frames, hydrogens):
        c.add_frame(x, h, box=box)
    keep = (np.arange(molecules)[:, None] != owner[None, :]).ravel()
    com = [(16 * o + h1 + h2) / 18 for _, (o, h1, h2) in frames]
    want = sum(all_image_counts(s, h, box, 7.0, 28, keep=keep) for s, h in zip(com, hydrogens))
    np.testing.assert_array_equal(c.counts(), want)
    assert want[:5].sum() == 0 and want.sum() > 2000


def refusal(call):
    with pytest.raises(CError) as e:
        call()
    assert e.value.status == 1, e.value  # KMOL_ERROR_INPUT
    return e.value.message


def test_mistakes_are_refused_naming_the_c_arguments(lib):
    rng = np.random.default_rng(8)
    x, box = rng.uniform(0, 12, (80, 3)), np.diag([12.0, 12.0, 12.0])
    c = CRdf(lib, 5.0, 10)
    assert "n_blocks: standard errors need blocks of frames: call kmol_rdf_set_blocks" in \
        refusal(c.std_error)
    assert "n_blocks: 1 is no number of blocks: give 2 or more" in refusal(lambda: c.set_blocks(1))
    c.set_blocks(5)
    c.add_frame(x, box=box)
    c.add_frame(x, box=box)
    assert "n_blocks: 5 blocks need at least 5 frames; 2 were added" in refusal(c.std_error)
    assert "n_blocks: blocks are chosen before the first frame, and 2 were added" in \
        refusal(lambda: c.set_blocks(2))
    assert "plane: distances in a plane are chosen before the first frame, and 2 were counted " \
        "in 3-D" in refusal(lambda: c.set_plane("xy"))
    assert "groups: centres are chosen before the first frame" in \
        refusal(lambda: c.set_centres("a", np.zeros(80)))
    assert "plane: expected KMOL_PLANE_NONE" in refusal(lambda: CRdf(lib, 5.0, 10).set_plane(7))
    assert "norm: expected KMOL_NORM_RDF" in refusal(lambda: c.result(9))

    free = CRdf(lib, 5.0, 10)
    free.add_frame(x)
    assert "kmol_rdf_kirkwood_buff: Kirkwood-Buff integrals need a periodic box" in \
        refusal(free.kirkwood_buff)
    flat = CRdf(lib, 5.0, 10)
    flat.set_plane("xy")
    flat.add_frame(x)
    assert ("norm: rdf normalisation divides by the box's area in the xy plane, and the frames "
            "have no box (box=NULL): give every frame its box, or use KMOL_NORM_DENSITY or "
            "KMOL_NORM_NONE") in refusal(flat.result)
    assert flat.result("density")[1].max() > 0
    slanted = CRdf(lib, 5.0, 10)
    slanted.set_plane("xy")
    assert "plane: xy needs a box with two edges in the xy plane" in \
        refusal(lambda: slanted.add_frame(x, box=[[12, 0, 1], [0, 12, 1], [0, 0, 12]]))
    kb_plane = CRdf(lib, 5.0, 10)
    kb_plane.set_plane("xy")
    kb_plane.add_frame(x, box=box)
    assert "kmol_rdf_kirkwood_buff: Kirkwood-Buff integrals are integrals over 3-D distances" in \
        refusal(kb_plane.kirkwood_buff)
    shell = CRdf(lib, 5.0, 10, r_min=1.0)
    shell.add_frame(x, box=box)
    assert "kmol_rdf_kirkwood_buff: the integrals start at r = 0, and the range starts at 1 " \
        "Angstrom" in refusal(shell.kirkwood_buff)

    groups = np.repeat(np.arange(40), 2)
    centred = CRdf(lib, 5.0, 10)
    assert "masses: group 3 (atoms 6 to 7) weighs 0: a centre of mass needs a positive mass" in \
        refusal(lambda: centred.set_centres("a", groups, np.where(groups == 3, 0.0, 1.0)))
    assert "groups: atom 4 is in group 0, whose atoms came before atom 3 of group 1" in \
        refusal(lambda: centred.set_centres("a", [0, 0, 1, 1, 0]))
    assert "bonds: bond 1 names atom 80: expected atom indices 0 to 79" in \
        refusal(lambda: centred.set_centres("a", groups, None, [[0, 1], [2, 80]]))
    assert "groups: molecule 0 (atoms 0 to 1, xyz_a) cannot be made whole: the topology's bonds " \
        "do not join atom 1" in refusal(lambda: centred.set_centres("a", groups, None, [[2, 3]]))
    centred.set_centres("a", groups)
    assert "xyz_a: 79 atoms, but kmol_rdf_set_centres gave groups of 80" in \
        refusal(lambda: centred.add_frame(x[:79], box=box))
    apart = x.copy()
    apart[1] = apart[0] + [5.9, 5.9, 0]  # 8.3 A from atom 0 by any image: beyond 6 A
    assert "groups: molecule 0 cannot be made whole: without bonds in the topology its atoms " \
        "are joined in file order" in refusal(lambda: centred.add_frame(apart, box=box))
    assert "give the group's bonds to kmol_rdf_set_centres" in \
        refusal(lambda: centred.add_frame(apart, box=box))
    assert "xyz_b: NULL (one set), but kmol_rdf_set_centres gave groups of a second set" in \
        refusal(lambda: (centred.set_centres("b", groups), centred.add_frame(x, box=box)))

    excluding = CRdf(lib, 5.0, 10)
    labels = groups.astype(np.int32)
    assert "labels_b: n_b labels, one per atom of xyz_b, or NULL and 0 for one set; got NULL and " \
        "3" in refusal(lambda: excluding.call("kmol_rdf_set_exclusions", labels.ctypes.data, 80,
                                              None, 3))
    excluding.set_exclusions(np.zeros(80))
    assert "labels_a/labels_b: every one of the 3160 pairs" in \
        refusal(lambda: excluding.add_frame(x, box=box))
    excluding.set_exclusions(groups)
    assert "xyz_a: 79 atoms, but kmol_rdf_set_exclusions gave 80 labels" in \
        refusal(lambda: excluding.add_frame(x[:79], box=box))
    assert "labels_a/labels_b: needs labels for both sets, or for neither" in \
        refusal(lambda: excluding.add_frame(x, x[:5], box=box))
    excluding.add_frame(x, box=box)
    assert "labels_a: exclusions are chosen before the first frame, and 1 were added" in \
        refusal(lambda: excluding.set_exclusions(groups))
