#!/usr/bin/env bash
# A methanol-water mixture made here with Debian's gmx (OPLS-AA, 60 methanols in SPC water, NPT in
# a rhombic dodecahedron, molecules split by the boundaries): kmol rdf --gmx gives gmx rdf's
# centre-of-mass RDFs (-selrpos/-seltype mol_com), an atom RDF across species and its 2-D RDF
# (-xy) bin by bin, with -cn, up to what the two programs' rounding may place differently, which
# gromacs_mixture_compare.py counts from the XTC itself.
set -uo pipefail
kmol=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/scratch.sh"
source "$here/gromacs_water.sh"
source "$here/gromacs_mixture_run.sh"
/usr/bin/python3 -c "import MDAnalysis" 2>/dev/null || { echo "no MDAnalysis to read the XTC: skipped"; exit 77; }
cd "$dir"
steps=600 every=20
make_mixture mix 2.8 60 $steps $every
tpr=mix/topol.tpr

# Every atom wrapped into the box (gmx trjconv -pbc atom), so that the molecules the boundaries cut
# are split in the file and the programs must make them whole. The shifts by the dodecahedron's
# last edge are off the XTC grid, so wrapping moves atoms within XTC precision: both programs read
# the wrapped file.
echo 0 | gmx -quiet trjconv -f mix/md.xtc -s $tpr -pbc atom -o wrapped.xtc > trjconv.log 2>&1 ||
  fail "gmx trjconv -pbc atom: $(tail -3 trjconv.log)"

# The file is what the comparison needs: every frame of a rhombic dodecahedron (b = (0, d, 0),
# c = (d/2, d/2, d/sqrt 2) for a = (d, 0, 0)) whose size changes from each frame to the next, and
# molecules of both kinds split by its boundaries. The xy comparison needs the same frames in a
# box whose last edge is along z (flat.xtc), as gmx rdf -xy refuses any other.
/usr/bin/python3 -W ignore - $tpr wrapped.xtc flat.xtc $(( steps / every + 1 )) <<'PY' || fail "the trajectory is not the NPT dodecahedron the test needs"
import sys
import MDAnalysis as mda
import numpy as np
u = mda.Universe(sys.argv[1], sys.argv[2])
assert u.trajectory.n_frames == int(sys.argv[4]), u.trajectory.n_frames
edges, split = [], set()
starts = np.array([r.atoms.ix[0] for r in u.residues])  # a residue's atoms are consecutive
sizes = np.diff(np.append(starts, u.atoms.n_atoms))
with mda.Writer(sys.argv[3], u.atoms.n_atoms) as flat:
    for ts in u.trajectory:
        a, b, c = ts.triclinic_dimensions.astype(np.float64)
        d = a[0]
        dodecahedron = [d, 0, 0, 0, d, 0, d / 2, d / 2, d / 2**0.5]
        assert np.allclose([*a, *b, *c], dodecahedron, rtol=0, atol=2e-4 * d), (ts.frame, a, b, c)
        edges.append(d)
        x = u.atoms.positions
        span = np.maximum.reduceat(np.abs(x - np.repeat(x[starts], sizes, axis=0)).max(1), starts)
        split.update(u.residues.resnames[span > d / 4])
        ts.dimensions = [a[0], b[1], c[2], 90, 90, 90]
        flat.write(u.atoms)
steps = np.diff(edges)
print(f"box edge {min(edges) / 10:.4f}-{max(edges) / 10:.4f} nm, smallest change between frames "
      f"{np.abs(steps).min() / 10:.5f} nm; split molecules: {sorted(split)}")
assert np.all(steps != 0), "the box stays the same between two frames"
assert split == {"MET", "SOL"}, split
PY

compare() {  # compare NAME KIND SEL1 SEL2 [KMOL OPTIONS...] -- [GMX OPTIONS...]
  local name=$1 kind=$2 sel1=$3 sel2=$4 kmol_options=() gmx_options=()
  shift 4
  while [[ $# -gt 0 && $1 != -- ]]; do kmol_options+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  gmx_options=("$@")
  local gmx_file=wrapped.xtc
  [[ $kind == xy ]] && gmx_file=flat.xtc
  "$kmol" rdf wrapped.xtc --top $tpr --sel1 "$sel1" --sel2 "$sel2" --gmx --rmax 1.2 --bins 120 \
    --out "kmol-$name.xvg" --cn "kmol-$name-cn.xvg" --quiet "${kmol_options[@]}" || fail "kmol rdf --gmx ($name)"
  "$kmol" rdf wrapped.xtc --top $tpr --sel1 "$sel1" --sel2 "$sel2" --rmax 12 --bins 240 \
    --out "kmol-$name-own.xvg" --quiet "${kmol_options[@]}" || fail "kmol rdf ($name)"
  OMP_NUM_THREADS=1 gmx -quiet rdf -f $gmx_file -s $tpr -ref "$sel1" -sel "$sel2" -rmax 1.2 -bin 0.01 \
    -o "gmx-$name.xvg" -cn "gmx-$name-cn.xvg" "${gmx_options[@]}" > "gmx-$name.log" 2>&1 ||
    fail "gmx rdf ($name): $(tail -5 "gmx-$name.log")"
  /usr/bin/python3 -W ignore "$here/gromacs_mixture_compare.py" "$name" "$kind" "$sel1" "$sel2" $tpr wrapped.xtc ||
    fail "kmol rdf differs from gmx rdf ($name)"
}

centres=(--pos1 mol_com --pos2 mol_com -- -selrpos mol_com -seltype mol_com)
compare methanols com 'resname MET' 'resname MET' "${centres[@]}"
compare methanol-water com 'resname MET' 'resname SOL' "${centres[@]}"
compare oxygens atom 'resname MET and name OA' 'name OW'
# gmx rdf -xy refuses a box whose last edge leaves the z axis, so it reads flat.xtc; the plane's
# RDF takes only the box's first two edges, so kmol gives the same on either file (up to the last
# bit of the box lengths that MDAnalysis' Angstrom round trip may change).
compare oxygens-xy xy 'resname MET and name OA' 'name OW' --xy -- -xy
"$kmol" rdf flat.xtc --top $tpr --sel1 'resname MET and name OA' --sel2 'name OW' --gmx --xy --rmax 1.2 \
  --bins 120 --out kmol-flat.xvg --quiet || fail "kmol rdf --xy on flat.xtc"
paste <(grep -v '^[#@]' kmol-oxygens-xy.xvg) <(grep -v '^[#@]' kmol-flat.xvg) |
  awk '{ n++; d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-5 * $2 + 1e-6) exit 1 } END { if (n != 120) exit 1 }' ||
  fail "kmol rdf --xy depends on the box's last edge"
echo "kmol rdf, in its convention and with --gmx, equals gmx rdf on a methanol-water NPT run in a rhombic dodecahedron"
