"""kmol rdf --gmx against gmx rdf on one trajectory, bin by bin, for cli.gromacs_mixture.

gromacs_mixture_compare.py NAME KIND SEL1 SEL2 TPR XTC: compares kmol-NAME.xvg and
kmol-NAME-cn.xvg (kmol rdf --gmx), and kmol-NAME-own.xvg (kmol's convention, 240 bins to 12 A),
with gmx-NAME.xvg and gmx-NAME-cn.xvg (bins of 0.01 nm to 1.2 nm). KIND is
`com` (centres of mass of each residue's atoms in SEL1, SEL2; a residue is a molecule here),
`atom` (3-D distances between atoms) or `xy` (distances in the xy plane, periodic along the box's
first two edges). SEL1, SEL2 are MDAnalysis selections of the same atoms the programs select.

Tolerance, bin by bin: gmx's printed rounding (0.0005) plus the weight of the pairs that either
program's rounding may place in the bin on the other side of an edge. Both read the same XTC
coordinates (a 0.001 nm grid); gmx takes distances in float nm, kmol in Angstrom, so a pair whose
distance is within float rounding of an edge between two bins may land in either. For atoms that
is 2e-6 nm (coordinates below 4 nm); a centre of mass sums a molecule's float products m x after
the float image shifts that make it whole, in both programs (kmol in single precision), which
moves each centre by less than 1e-6 nm, so a distance between two centres by less than 4e-6 nm
(the comparison holds with 1e-6). The script counts those pairs from the XTC itself (float64) and
allows each bin their weight. gmx
drops a pair at distance exactly 0 (its -cut is exclusive): in a plane that can be a real pair
stacked along z, so such pairs are counted and their exact share taken out of kmol's first bin.
"""
import sys

import MDAnalysis as mda
import numpy as np
from bin_edges import EdgePairs

name, kind, sel1, sel2, tpr, xtc = sys.argv[1:7]
width, bins = 0.01, 120
near = 4e-6 if kind == "com" else 2e-6


def reduce(d, vectors):
    """Each row of d moved by whole lattice vectors into the cell's brick around 0 (lower
    triangular box vectors, last first), then to the nearest of it and its neighbours'
    images: the minimum image for distances below the inscribed radius."""
    for k in reversed(range(len(vectors))):
        d = d - np.outer(np.round(d[:, k] / vectors[k][k]), vectors[k])
    shifts = np.array(np.meshgrid(*[[-1, 0, 1]] * len(vectors))).reshape(len(vectors), -1).T @ vectors
    candidates = d[:, None, :] + shifts[None, :, :]
    return np.sqrt((candidates**2).sum(-1).min(axis=1))


def sites(group, vectors):
    """The positions of `group` in nm: atoms, or each residue's centre of mass, the residue made
    whole around its first atom."""
    x = group.positions.astype(np.float64) / 10
    if kind != "com":
        return x
    _, first, residue = np.unique(group.resindices, return_index=True, return_inverse=True)
    offsets = x - x[first][residue]
    for k in reversed(range(3)):
        offsets -= np.outer(np.round(offsets[:, k] / vectors[k][k]), vectors[k])
    m = group.masses.astype(np.float64)
    moment = np.array([np.bincount(residue, m * offsets[:, k]) for k in range(3)]).T
    return x[first] + moment / np.bincount(residue, m)[:, None]


u = mda.Universe(tpr, xtc)
a, b = u.select_atoms(sel1), u.select_atoms(sel2)
one_set = sel1 == sel2
edge_pairs = EdgePairs(width, bins, near)
inverse_measure = 0.0  # the sum over frames of 1/V (1/area in a plane)
for ts in u.trajectory:
    box = ts.triclinic_dimensions.astype(np.float64) / 10
    vectors = box[:2, :2] if kind == "xy" else box
    inverse_measure += 1 / abs(np.linalg.det(vectors))
    x, y = sites(a, box), sites(b, box)
    if kind == "xy":
        x, y = x[:, :2], y[:, :2]
    d = (x[:, None, :] - y[None, :, :]).reshape(-1, x.shape[1])
    r = reduce(d, vectors).reshape(len(x), len(y))
    edge_pairs.add(r, one_set)
zero, ties, cn_ties = edge_pairs.zero, edge_pairs.ties, edge_pairs.cn_ties
frames = u.trajectory.n_frames
n_a, n_b = len(x), len(y)
outer = (np.arange(bins) + 0.5) * width
if kind == "xy":
    shell = np.pi * np.diff(np.concatenate(([0], outer**2)))
else:
    shell = 4 / 3 * np.pi * np.diff(np.concatenate(([0], outer**3)))
# g of one ordered pair in each bin: gmx divides by N_A, the shell and N_B times the mean 1/V.
per_pair = 1 / (frames * n_a * n_b * (inverse_measure / frames) * shell)
pairs_per_ref = 1 / (frames * n_a)  # -cn of one ordered pair


def table(path):
    return np.loadtxt([line for line in open(path) if line[0] not in "#@"])


gmx, gcn = table(f"gmx-{name}.xvg"), table(f"gmx-{name}-cn.xvg")
assert gmx.shape == (bins, 2) and gcn.shape == (bins, 2), (gmx.shape, gcn.shape)
expected = gmx[:, 1].copy()
expected[0] += zero * per_pair[0]
allowed = 0.0005 + 1e-5 * expected + ties * per_pair
cn_expected = gcn[:, 1] + zero * pairs_per_ref
cn_allowed = 0.0005 + 1e-6 * cn_expected + cn_ties * pairs_per_ref


def check(label, g, cn):
    """g(r) and -cn in gmx's bins, from kmol, against gmx's within the allowance."""
    worst = np.argmax(np.abs(g - expected) - allowed)
    print(f"{name}: {label}: {frames} frames, {n_a} x {n_b} sites, {zero} ordered pairs at distance 0, "
          f"{int(ties.sum())} near bin edges; largest |kmol - gmx| {np.abs(g - expected).max():.4f}; bin {worst}: "
          f"kmol {g[worst]:.4f}, gmx {gmx[worst, 1]:.3f}, allowed {allowed[worst]:.4f}; "
          f"-cn: largest |kmol - gmx| {np.abs(cn - cn_expected).max():.4f}")
    assert np.all(np.abs(g - expected) <= allowed), f"{label}: g(r) differs beyond rounding"
    assert np.all(np.abs(cn - cn_expected) <= cn_allowed), f"{label}: -cn differs beyond rounding"


kmol, kcn = table(f"kmol-{name}.xvg"), table(f"kmol-{name}-cn.xvg")
assert kmol.shape == gmx.shape and kcn.shape == gcn.shape, (kmol.shape, kcn.shape)
assert np.allclose(kmol[:, 0], gmx[:, 0], atol=1e-4) and np.allclose(kcn[:, 0], gcn[:, 0], atol=1e-4)
check("kmol rdf --gmx", kmol[:, 1], kcn[:, 1])

# kmol's own convention (Angstrom, half-width bins from 0, distinct pairs, n(r) to each bin's
# upper edge): gmx bin k >= 1 holds kmol's half bins 2k - 1 and 2k, and its -cn radius is the
# upper edge of half bin 2k + 1. For one set kmol divides by N (N - 1) where gmx divides by N^2.
own = table(f"kmol-{name}-own.xvg")
assert own.shape == (2 * bins, 3) and np.allclose(own[:, 0], (np.arange(2 * bins) + 0.5) * width * 5)
half = np.arange(2 * bins + 1) * width / 2
half_shell = np.diff(np.pi * half**2 if kind == "xy" else 4 / 3 * np.pi * half**3)
content = own[:, 1] * half_shell * ((n_a - 1) / n_a if one_set else 1)
in_gmx_bins = np.concatenate(([content[0]], content[1:-1].reshape(-1, 2).sum(1)))
check("kmol rdf", in_gmx_bins / shell, own[1::2, 2])

# Not an empty comparison: half the bins or more hold pairs and the curve has structure (in 3-D,
# nothing closer than 0.1 nm, a first shell above 1.15 and g near 1 at 1 nm).
r, g = gmx[:, 0], gmx[:, 1]
print(f"{name}: gmx: {np.count_nonzero(g)} bins hold pairs, peak {g.max():.3f} at {r[np.argmax(g)]:.2f} nm, "
      f"n(1.2 nm) {gcn[-1, 1]:.3f}")
assert np.count_nonzero(g) >= bins // 2, np.count_nonzero(g)
if kind == "xy":
    assert np.ptp(g[r > 0.1]) > 0.25, g
else:
    assert not g[r < 0.1].any() and g.max() > 1.15 and abs(g[r > 1].mean() - 1) < 0.2, g
assert gcn[-1, 1] > 10, gcn[-1, 1]
