#!/usr/bin/env bash
# 2-D RDFs against gmx rdf -xy on an SPC water run made here with Debian's gmx: kmol rdf --gmx --xy
# gives gmx's g(r) and -cn bin by bin, one set (OW x OW) and two (OW x HW1), up to what the two
# programs' rounding may place differently, which the check counts itself from the XTC.
set -uo pipefail
kmol=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/scratch.sh"
source "$(dirname "$0")/gromacs_water.sh"
/usr/bin/python3 -c "import MDAnalysis" 2>/dev/null || { echo "no MDAnalysis to read the XTC: skipped"; exit 77; }
cd "$dir"
make_water water 2.3 200 10

compare() {  # compare NAME SEL2: kmol and gmx on 'name OW' x SEL2, 100 bins of 0.01 nm
  local name=$1 sel2=$2
  "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --sel2 "$sel2" --xy --gmx \
    --rmax 1.0 --bins 100 --out "kmol-$name.xvg" --cn "kmol-$name-cn.xvg" --quiet ||
    fail "kmol rdf --xy ($name)"
  OMP_NUM_THREADS=1 gmx -quiet rdf -f water/md.xtc -s water/topol.tpr -ref 'name OW' -sel "$sel2" \
    -xy -rmax 1.0 -bin 0.01 -o "gmx-$name.xvg" -cn "gmx-$name-cn.xvg" > "gmx-$name.log" 2>&1 ||
    fail "gmx rdf -xy ($name): $(tail -5 "gmx-$name.log")"
  /usr/bin/python3 -W ignore - "$name" "$sel2" "$here" <<'PY' || fail "kmol rdf --gmx --xy differs from gmx rdf -xy ($name)"
# Tolerance, bin by bin. Both programs read the same XTC coordinates (0.001 nm grid), but gmx
# takes distances in float nm and kmol in Angstrom, so a pair whose in-plane distance is within
# float rounding (2e-6 nm for coordinates below 3 nm) of an edge between two bins may land in
# either: on the XTC grid that is no rare accident in a plane (|d|^2 = 25 k^2 grid units puts
# about 0.5% of pairs exactly on a half-bin edge). This script counts those pairs from the XTC
# (MDAnalysis' reader) and allows each bin to differ by their weight, plus gmx's printed
# rounding (0.0005). gmx also drops a pair at distance exactly 0 (its -cut is exclusive, which is
# how it leaves out an atom paired with itself): in a plane, atoms stacked along z (solvate's
# tiled boxes put copies of a molecule exactly above each other) are missing from its first bin
# and its -cn, and kmol counts them; the script counts them and takes their exact share out.
import sys
import numpy as np
import MDAnalysis as mda

sys.path.insert(0, sys.argv[3])
from bin_edges import EdgePairs

name, sel2 = sys.argv[1], sys.argv[2]
w, bins, near = 0.01, 100, 2e-6
u = mda.Universe("water/topol.tpr", "water/md.xtc")
a, b = u.select_atoms("name OW"), u.select_atoms(sel2)
one_set = sel2 == "name OW"
edge_pairs = EdgePairs(w, bins, near)
inverse_area = 0.0
for ts in u.trajectory:
    x, y = a.positions[:, :2] / 10.0, b.positions[:, :2] / 10.0
    edges = ts.dimensions[:2] / 10.0
    inverse_area += 1 / (edges[0] * edges[1])
    d = x[:, None, :].astype(np.float64) - y[None, :, :]
    d -= edges * np.round(d / edges)
    r = np.sqrt((d * d).sum(-1))
    edge_pairs.add(r, one_set)
zero, ties, cn_ties = edge_pairs.zero, edge_pairs.ties, edge_pairs.cn_ties
frames = u.trajectory.n_frames
n_a, n_b = len(a), len(b)
density = n_b * inverse_area / frames  # gmx's mean N_B / area, per nm^2
annulus = np.pi * np.diff(np.concatenate(([0], ((np.arange(bins) + 0.5) * w) ** 2)))
per_pair = 1 / (frames * n_a * density * annulus)  # g of one ordered pair in each bin
pairs_per_ref = 1 / (frames * n_a)                # -cn of one ordered pair


def table(path):
    return np.loadtxt([l for l in open(path) if l[0] not in "#@"])


kmol, gmx = table(f"kmol-{name}.xvg"), table(f"gmx-{name}.xvg")
assert kmol.shape == gmx.shape == (bins, 2), (kmol.shape, gmx.shape)
assert np.allclose(kmol[:, 0], gmx[:, 0], atol=1e-4), "the r columns differ"
expected = gmx[:, 1].copy()
expected[0] += zero * per_pair[0]
allowed = 0.0005 + 1e-5 * expected + ties * per_pair
worst = np.argmax(np.abs(kmol[:, 1] - expected) - allowed)
print(f"{name}: g: {frames} frames, {zero} ordered pairs at distance 0, {int(ties.sum())} at bin "
      f"edges; largest |kmol - gmx| beyond bin 0: {np.abs(kmol[1:, 1] - gmx[1:, 1]).max():.4f}; "
      f"bin {worst}: kmol {kmol[worst, 1]:.4f}, gmx {gmx[worst, 1]:.3f} + zeros, "
      f"allowed {allowed[worst]:.4f}")
assert np.all(np.abs(kmol[:, 1] - expected) <= allowed), "g(r) differs beyond rounding"
# Not an empty comparison: most bins hold pairs and the curve has structure.
assert np.count_nonzero(gmx[:, 1]) >= 95, np.count_nonzero(gmx[:, 1])
assert gmx[1:, 1].max() > 1.5 if not one_set else np.ptp(gmx[5:, 1]) > 0.25, gmx[:, 1]

kcn, gcn = table(f"kmol-{name}-cn.xvg"), table(f"gmx-{name}-cn.xvg")
assert kcn.shape == gcn.shape, (kcn.shape, gcn.shape)
cn_expected = gcn[:, 1] + zero * pairs_per_ref
cn_allowed = 0.0005 + 1e-6 * cn_expected + cn_ties[: len(gcn)] * pairs_per_ref
print(f"{name}: -cn: largest |kmol - (gmx + zeros)| {np.abs(kcn[:, 1] - cn_expected).max():.4f}, "
      f"n(1 nm) {gcn[-1, 1]:.3f}")
assert np.all(np.abs(kcn[:, 1] - cn_expected) <= cn_allowed), "-cn differs beyond rounding"
assert gcn[-1, 1] > 10, gcn[-1, 1]
PY
}
compare oxygens 'name OW'
compare hydrogens 'name HW1'
echo "kmol rdf --gmx --xy equals gmx rdf -xy"
