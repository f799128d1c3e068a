#!/usr/bin/env bash
# Selections, frames and molecular centres on an SPC water run made here with Debian's gmx: TPR
# atom types as species and selection keywords, frames chosen by time as gmx -b/-e/-dt chooses
# them, and centre-of-mass RDFs equal to gmx rdf -selrpos/-seltype mol_com on molecules the
# trajectory splits across the boundaries.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
source "$(dirname "$0")/gromacs_water.sh"
cd "$dir"
make_water water 2.3 200 10

# The TPR's atom types are the species of an XTC: kmol histograms gives their partials.
"$kmol" histograms water/md.xtc --top water/topol.tpr --rmax 8 --bins 80 --out types.h5 --quiet ||
  fail "histograms with TPR types"
/usr/bin/python3 - types.h5 <<'PY' || fail "histograms: the TPR's atom types are not the species"
import sys, h5py
g = h5py.File(sys.argv[1])["histograms"]
species = [s.decode() if isinstance(s, bytes) else s for s in g.attrs["species"]]
assert species == ["opls_116", "opls_117"], species
assert g["interval_000000"].shape == (3, 80), g["interval_000000"].shape
assert g["interval_000000"][:].sum(axis=1).min() > 0
PY

# Keywords of the topology: each picks the atoms another way picks.
count() { rm -f sel.xvg; "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 "$1" --rmax 5 --bins 5 --frames 0 \
            --out sel.xvg --quiet && grep -o '"[^"]*" ([0-9]* atoms)' sel.xvg | head -1 | grep -o '([0-9]*' | tr -d '('; }
oxygens=$(count 'name OW') || fail "name OW"
[[ $(count 'type opls_116') == "$oxygens" ]] || fail "type opls_116 is not the oxygens"
[[ $(count 'element O') == "$oxygens" ]] || fail "element O is not the oxygens"
[[ $(count 'name "OW"') == "$oxygens" ]] || fail "a quoted name selects another set"
[[ $(count 'water and not element H') == "$oxygens" ]] || fail "water and not element H"
[[ $(count 'resid 1-10') == 30 ]] || fail "resid 1-10 is not 30 atoms"
[[ $(count 'resid 1:5 or resnum 6 to 10') == 30 ]] || fail "resid 1:5 or resnum 6 to 10"
expect_refusal "--sel1: 'name OX' selects no atoms; the atoms are" \
  "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OX' --out none.xvg
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OX' --out none.xvg 2> none.err
grep -q 'atom names: HW1 ([0-9]*), HW2 ([0-9]*), OW ([0-9]*)' none.err || fail "no list of names: $(cat none.err)"
grep -q 'atom types: opls_117' none.err || fail "no list of types: $(cat none.err)"

# Frames by time as gmx chooses them (-b, -e, -dt): the same frames analysed.
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 1nm --bins 50 \
  --begin 0.05 --end 0.3 --dt 0.06 --out time.xvg --quiet || fail "rdf --begin --end --dt"
kmol_frames=$(grep -o '^# frames: .* (\([0-9]*\) frames)' time.xvg | grep -o '([0-9]*' | tr -d '(')
OMP_NUM_THREADS=1 gmx -quiet rdf -f water/md.xtc -s water/topol.tpr -ref 'name OW' -sel 'name OW' \
  -b 0.05 -e 0.3 -dt 0.06 -rmax 1 -o gmx-time.xvg > gmx-time.log 2>&1 || fail "gmx rdf -b -e -dt"
gmx_frames=$(grep -o 'Analyzed [0-9]* frames' gmx-time.log | grep -o '[0-9]*')
[[ -n $kmol_frames && $kmol_frames == "$gmx_frames" ]] ||
  fail "--begin 0.05 --end 0.3 --dt 0.06: kmol $kmol_frames frames, gmx $gmx_frames"
expect_refusal "--frames: frames are chosen by position (--frames) or by time" \
  "$kmol" rdf water/md.xtc --top water/topol.tpr --frames 2: --begin 1 --out both.xvg
"$kmol" potential water/md.xtc --top water/topol.tpr --frames -1 --spacing 2 --out last.dx > /dev/null ||
  fail "potential --frames -1"

# Centres of mass of molecules the trajectory splits across the boundaries (every atom wrapped
# into the box): kmol makes them whole from the TPR's bonds and SETTLEs, as gmx rdf does.
echo 0 | gmx -quiet trjconv -f water/md.xtc -s water/topol.tpr -pbc atom -o wrapped.xtc > trjconv.log 2>&1 ||
  fail "gmx trjconv -pbc atom: $(tail -3 trjconv.log)"
"$kmol" rdf wrapped.xtc --top water/topol.tpr --sel1 'resname SOL' --pos1 mol_com --gmx --rmax 1.0 \
  --bins 50 --out kmol-com.xvg --quiet || fail "rdf --pos1 mol_com"
OMP_NUM_THREADS=1 gmx -quiet rdf -f wrapped.xtc -s water/topol.tpr -ref 'resname SOL' -sel 'resname SOL' \
  -selrpos mol_com -seltype mol_com -rmax 1.0 -bin 0.02 -o gmx-com.xvg > gmx-com.log 2>&1 ||
  fail "gmx rdf mol_com: $(tail -5 gmx-com.log)"
# Within XTC precision: gmx prints three decimals and a centre within float rounding of a bin
# edge may sit in the next bin; the first peak near 0.28 nm shows the comparison is not empty.
paste <(grep -v '^[#@]' kmol-com.xvg) <(grep -v '^[#@]' gmx-com.xvg) |
  awk '{ n++; if ($1 - $3 > 1e-4 || $3 - $1 > 1e-4) exit 1; d = $2 - $4; if (d < 0) d = -d; if (d > 0.01) exit 1
         if ($4 > g) { g = $4; r = $3 } }
       END { if (n != 50 || g < 1.5 || r < 0.26 || r > 0.30) exit 1 }' ||
  fail "kmol rdf --pos1 mol_com differs from gmx rdf -selrpos mol_com -seltype mol_com"
# Whole molecules (the run's own frames) give the same centres as the split ones.
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'resname SOL' --pos1 mol_com --gmx --rmax 1.0 \
  --bins 50 --out whole-com.xvg --quiet || fail "rdf --pos1 mol_com on whole molecules"
paste <(grep -v '^[#@]' kmol-com.xvg) <(grep -v '^[#@]' whole-com.xvg) |
  awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > 0.01) exit 1 }' ||
  fail "mol_com of split molecules differs from that of whole ones"
# The centre of one atom is the atom: mol_cog of the oxygens counts what the oxygens count.
for pos in atom mol_cog; do
  "$kmol" rdf wrapped.xtc --top water/topol.tpr --sel1 'name OW' --pos1 $pos --rmax 8 --bins 40 \
    --out ow-$pos.xvg --quiet || fail "rdf --pos1 $pos"
done
cmp <(grep -v '^#' ow-atom.xvg) <(grep -v '^#' ow-mol_cog.xvg) || fail "mol_cog of single oxygens is not the oxygens"
# Exclusions apply to centres: two sets of centres of the same molecules pair none with itself.
"$kmol" rdf wrapped.xtc --top water/topol.tpr --sel1 'resname SOL' --sel2 'name OW' --pos1 mol_com \
  --pos2 mol_cog --exclude-same molecule --norm none --rmax 3 --bins 3 --out excl.xvg --quiet ||
  fail "rdf centres with --exclude-same molecule"
awk '!/^[#@]/ && $1 < 1 && $2 != 0 { exit 1 }' excl.xvg || fail "a molecule's centre was paired with its own oxygen"
echo "selections, frames and molecular centres as gmx chooses them"
