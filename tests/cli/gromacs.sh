#!/usr/bin/env bash
# GROMACS files straight into kmol: an SPC water run made here with Debian's gmx, read as XTC and
# TRR with its TPR topology (names, molecules, charges); the potential of a TPR-backed frame
# equals the same frame written as PQR; bad input is refused clearly, with no output left.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
source "$(dirname "$0")/gromacs_water.sh"
cd "$dir"
make_water water 2.3 100 10
make_water other 2.1 20 10

# g(r) O-O without pairs in one molecule, from XTC and TRR, each with the TPR.
for traj in md.xtc md.trr; do
  "$kmol" rdf water/$traj --top water/topol.tpr --sel1 'name OW' --exclude-same molecule \
      --rmax 1.1nm --bins 110 --out ${traj%.*}-${traj#*.}.xvg --quiet || fail "rdf $traj"
  grep -q "^# command: kmol rdf water/$traj --top water/topol.tpr --sel1 'name OW' --exclude-same molecule" \
      ${traj%.*}-${traj#*.}.xvg || fail "the command line is not recorded whole: $(grep command: ${traj%.*}-${traj#*.}.xvg)"
done
grep -q "GROMACS XTC" md-xtc.xvg || fail "the xvg does not say it read XTC"
# Frame-parallel decoding: three XTC reader threads give the file one reader gives (bar the
# command line); TRR is read in order by one, and more are refused.
for readers in 1 3; do
  "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 1.1nm --bins 110 \
      --readers $readers --out readers-$readers.xvg > readers-$readers.log 2>&1 || fail "rdf --readers $readers"
done
grep -q "on 3 threads" readers-3.log || fail "--readers 3 did not run three readers: $(cat readers-3.log)"
cmp <(grep -v '^# command:' readers-1.xvg) <(grep -v '^# command:' readers-3.xvg) ||
  fail "three XTC readers give another g(r) than one"
expect_refusal "water/md.trr: --readers: several readers need GROMACS XTC or an H5MD file; this is GROMACS TRR, read in order by one" \
    "$kmol" rdf water/md.trr --top water/topol.tpr --readers 2 --out trr-readers.xvg
# The first water peak of SPC near 2.75 Angstrom in both.
for f in md-xtc.xvg md-trr.xvg; do
  awk '!/^[#@]/ && $2 > g { g = $2; r = $1 } END { if (r < 2.6 || r > 2.9 || g < 2) exit 1 }' $f ||
    fail "$f: no first O-O peak near 2.75 Angstrom"
done
# --gmx reproduces gmx rdf on the same files and bins (gmx prints three decimals; a pair within
# float rounding of a bin edge, nm against Angstrom, may sit in the next bin).
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 1.1nm --bins 110 --gmx \
    --out kmol-gmx.xvg --quiet || fail "rdf --gmx"
OMP_NUM_THREADS=1 gmx -quiet rdf -f water/md.xtc -s water/topol.tpr -ref 'name OW' -sel 'name OW' \
    -bin 0.01 -rmax 1.1 -o gmx.xvg > gmx-rdf.log 2>&1 || fail "gmx rdf: $(tail -5 gmx-rdf.log)"
grep -q 'xaxis  label "r (nm)"' kmol-gmx.xvg || fail "--gmx: the xvg is not in nm"
paste <(grep -v '^[#@]' kmol-gmx.xvg) <(grep -v '^[#@]' gmx.xvg) |
  awk '{ n++; if ($1 - $3 > 1e-4 || $3 - $1 > 1e-4) exit 1; d = $2 - $4; if (d < 0) d = -d; if (d > 0.01) exit 1 }
       END { if (n != 110) exit 1 }' || fail "kmol rdf --gmx differs from gmx rdf"
# --cn writes gmx rdf -cn's numbers within r = (k + 1) w (to its three decimals; XTC rounding
# moves a pair across a radius now and then: one pair from both ends is 2/1000 per reference).
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 1.1nm --bins 110 --gmx \
    --cn kmol-cn.xvg --out kmol-gmx-cn.xvg --quiet || fail "rdf --gmx --cn"
OMP_NUM_THREADS=1 gmx -quiet rdf -f water/md.xtc -s water/topol.tpr -ref 'name OW' -sel 'name OW' \
    -bin 0.01 -rmax 1.1 -o gmx-cn-rdf.xvg -cn gmx-cn.xvg > gmx-cn.log 2>&1 || fail "gmx rdf -cn: $(tail -5 gmx-cn.log)"
cmp <(grep -v '^[#@]' kmol-gmx.xvg) <(grep -v '^[#@]' kmol-gmx-cn.xvg) || fail "--cn changed the g(r) of --gmx"
paste <(grep -v '^[#@]' kmol-cn.xvg) <(grep -v '^[#@]' gmx-cn.xvg) |
  awk '{ n++; if ($1 - $3 > 1e-4 || $3 - $1 > 1e-4) exit 1; d = $2 - $4; if (d < 0) d = -d; if (d > 0.0025 + 1e-5 * $4) exit 1; if ($4 > 100) big++ }
       END { if (n != 110 || big < 5) exit 1 }' || fail "kmol rdf --gmx --cn differs from gmx rdf -cn"
grep -q '@    title "Cumulative Number RDF"' kmol-cn.xvg || fail "--cn: not gmx's title"

# Molecules come from the TPR: excluding them removes the 392 intramolecular H-H pairs (1.63 A).
for exclude in none molecule; do
  extra=(); [[ $exclude == molecule ]] && extra=(--exclude-same molecule)
  "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name HW1' --sel2 'name HW2' --norm none \
      --rmax 2 --bins 20 "${extra[@]}" --out hh-$exclude.xvg --quiet || fail "rdf HW1-HW2"
done
awk '!/^[#@]/ && $1 > 1.6 && $1 < 1.7 { print $2 }' hh-none.xvg hh-molecule.xvg | paste -sd' ' |
  awk '{ d = $1 - $2 - 392; if (d > 0.001 || d < -0.001) exit 1 }' || fail "--exclude-same molecule did not remove the 392 H-H pairs"

# The potential of frame 3 with TPR charges equals the same atoms as PQR (written from the decoded
# XTC frame by MDAnalysis when it is installed), on one lattice: an automatic one placed around
# the atoms may gain a plane from the PQR's rounding of the coordinates.
lattice=(--origin -5 -5 -5 --counts 34 34 34 --spacing 1)
"$kmol" potential water/md.xtc --top water/topol.tpr --frame 3 "${lattice[@]}" --precision double \
    --out tpr.dx >/dev/null || fail "potential from XTC + TPR"
if /usr/bin/python3 -c 'import MDAnalysis' 2>/dev/null; then
  /usr/bin/python3 -W ignore - <<'PY' || fail "MDAnalysis could not write the PQR"
import MDAnalysis as mda
u = mda.Universe("water/topol.tpr", "water/md.xtc")
u.trajectory[3]
u.atoms.write("frame3.pqr")
PY
  "$kmol" potential frame3.pqr "${lattice[@]}" --precision double --out pqr.dx >/dev/null || fail "potential from PQR"
  /usr/bin/python3 - <<'PY' || fail "TPR-backed and PQR potentials differ"
import numpy as np
def values(path):
    lines = open(path).read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("object 3")) + 1
    out = []
    for l in lines[start:]:
        if not l or l[0].isalpha(): break
        out += [float(v) for v in l.split()]
    return np.array(out)
a, b = values("tpr.dx"), values("pqr.dx")
assert a.size == b.size and a.size > 1000, (a.size, b.size)
err = np.max(np.abs(a - b)) / np.max(np.abs(b))
print("largest difference, relative to the largest value:", err)
assert err < 2e-5, err  # OpenDX keeps 6 significant digits
PY
fi

# Density maps and cross-correlation read XTC too: a map of frame 3 correlates best with frame 3.
"$kmol" surf water/md.xtc --frame 3 --spacing 1 --out frame3.dx --mesh frame3.ply >/dev/null || fail "surf from XTC"
"$kmol" cc water/md.xtc --ref frame3.dx --resolution 4 --timeline cc.csv >/dev/null || fail "cc timeline from XTC"
awk -F, 'NR > 2 && $3 > best { best = $3; frame = $1 } END { exit frame != 3 }' cc.csv ||
  fail "the cc timeline does not peak at frame 3: $(cat cc.csv)"

# tools/convert-to-h5md carries the TPR's charges and masses, and prints no warnings.
if /usr/bin/python3 -c 'import MDAnalysis, h5py' 2>/dev/null; then
  "$(dirname "$0")/../../tools/convert-to-h5md" water/topol.tpr water/md.xtc -o converted.h5 \
      > convert.out 2> convert.err || fail "convert-to-h5md: $(cat convert.err)"
  [[ -s convert.err ]] && fail "convert-to-h5md warned: $(cat convert.err)"
  grep -q "charges and masses from water/topol.tpr" convert.out || fail "convert-to-h5md: $(cat convert.out)"
  "$kmol" potential converted.h5 --frame 3 --spacing 1 --out converted.dx >/dev/null ||
    fail "potential from the converted charges"
fi

# cc --weight mass: Gaussians of the TPR's masses give the same cc as the same frame with its masses
# given another way: H5MD masses converted from the TPR (the same numbers), and the elements of the
# PQR's atom names (IUPAC's O 15.999 against the force field's 15.9994: within 1e-5).
cc_of() { "$kmol" cc "$@" --ref frame3.dx --resolution 4 | grep -oE 'cc -?[0-9.]+' | cut -d' ' -f2; }
tpr_cc=$(cc_of water/md.xtc --top water/topol.tpr --weight mass --frames 3) || fail "cc --weight mass from XTC + TPR"
unit_cc=$(cc_of water/md.xtc --frames 3) || fail "cc from XTC"
"$kmol" cc water/md.xtc --top water/topol.tpr --weight mass --ref frame3.dx --resolution 4 \
    --timeline cc-mass.csv >/dev/null || fail "cc timeline --weight mass"
grep -q "mass-weighted by water/topol.tpr's masses" cc-mass.csv || fail "the timeline does not say its weights: $(head -1 cc-mass.csv)"
awk -F, -v c="$tpr_cc" '$1 == 3 { d = $3 - c; exit !(d < 1e-6 && d > -1e-6) }' cc-mass.csv ||
  fail "the timeline's frame 3 is not the single frame's cc $tpr_cc"
awk -v a="$tpr_cc" -v b="$unit_cc" 'BEGIN { d = a - b; exit !(d > 1e-3 || d < -1e-3) }' ||
  fail "mass weighting did not change the cc ($tpr_cc against $unit_cc)"
if [[ -f converted.h5 ]]; then
  h5_cc=$(cc_of converted.h5 --weight mass --frames 3) || fail "cc --weight mass from H5MD masses"
  [[ $h5_cc == "$tpr_cc" ]] || fail "H5MD masses give cc $h5_cc, the TPR's $tpr_cc"
fi
if [[ -f frame3.pqr ]]; then
  pqr_cc=$(cc_of frame3.pqr --weight mass) || fail "cc --weight mass from PQR elements"
  awk -v a="$tpr_cc" -v b="$pqr_cc" 'BEGIN { d = a - b; exit !(d < 1e-5 && d > -1e-5) }' ||
    fail "PQR element masses give cc $pqr_cc, the TPR's $tpr_cc"
fi
echo "cc of frame 3: TPR masses $tpr_cc, H5MD masses ${h5_cc:-}, PQR elements ${pqr_cc:-}, unit heights $unit_cc"
expect_refusal "water/md.xtc: --weight: mass needs masses: this input has none" \
    "$kmol" cc water/md.xtc --weight mass --ref frame3.dx --resolution 4
expect_refusal "--top: applies only with --weight mass" \
    "$kmol" cc water/md.xtc --top water/topol.tpr --ref frame3.dx --resolution 4

# Bad input: each refused with what is wrong, nothing left behind.
expect_error() {  # pattern, then the kmol rdf arguments
  expect_refusal "$1" "$kmol" rdf "${@:2}" --out out.xvg --quiet
  ls out.* 2>/dev/null | grep -v kmol-partial | grep -q . && fail "'$*' left an output file: $(ls out.*)"
  return 0
}
expect_error "other/topol.tpr: has [0-9]* atoms, the trajectory water/md.xtc 1176" water/md.xtc --top other/topol.tpr
expect_error "water/conf.gro: not a trajectory kmol reads (H5MD, GROMACS XTC, TRR or TNG, AMBER NetCDF): it is text starting with 'Generated by gmx solvate'" water/conf.gro
expect_error "water/md.xtc: is a GROMACS XTC trajectory, not a topology" water/md.xtc --top water/md.xtc
size=$(stat -c %s water/md.xtc)
head -c $((size * 7 / 11 + 100)) water/md.xtc > cut.xtc  # inside frame 6 or 7 of 11
message=$("$kmol" rdf cut.xtc --top water/topol.tpr --out out.xvg --quiet 2>&1) && fail "a truncated XTC was accepted"
grep -q "cut.xtc: frame: \[[67]\] damaged: .*; frames 0 to [56] are whole (--frames :[67] reads them)" <<<"$message" ||
  fail "truncated XTC: '$message'"
[[ -e out.xvg ]] && fail "a truncated XTC left out.xvg"
[[ -f out.xvg.kmol-partial.h5 ]] || fail "the frames before the damaged one were not kept"
damaged=$(grep -o 'frame: \[[0-9]*\]' <<<"$message" | head -1 | tr -dc 0-9)
"$kmol" rdf cut.xtc --top water/topol.tpr --frames :$damaged --out whole.xvg --quiet || fail "frames before the damage"
# A frame without a box in a periodic run is refused naming the file and frame (an XTC written by
# MDAnalysis with dimensions None on frame 2 stores a zero box); frames before it were counted.
if /usr/bin/python3 -c 'import MDAnalysis' 2>/dev/null; then
  /usr/bin/python3 -W ignore - <<'PY' || fail "MDAnalysis could not write the boxless frame"
import MDAnalysis as mda
u = mda.Universe("water/topol.tpr", "water/md.xtc")
with mda.Writer("nobox.xtc", u.atoms.n_atoms) as w:
    for ts in u.trajectory[:4]:
        if ts.frame == 2:
            ts.dimensions = None
        w.write(u.atoms)
PY
  expect_error "nobox.xtc: frame: \[2\] has no periodic box, but the trajectory's first frame has one" \
      nobox.xtc --top water/topol.tpr --rmax 8
  "$kmol" rdf nobox.xtc --top water/topol.tpr --rmax 8 --no-pbc --norm none --out nobox.xvg --quiet ||
    fail "--no-pbc refused the frame without a box"
fi
# A PDB from gmx trjconv has no TER records between waters: molecules come from residues (a
# note says so), and excluding them removes what the TPR's molecules remove.
echo 0 | gmx -quiet trjconv -s water/topol.tpr -f water/md.xtc -dump 0 -o conf.pdb > trjconv.log 2>&1 ||
  fail "gmx trjconv: $(tail -5 trjconv.log)"
grep -c '^TER' conf.pdb | awk '$1 > 1 { exit 1 }' || fail "gmx trjconv wrote TER records between waters"
for top in conf.pdb water/topol.tpr; do
  "$kmol" rdf water/md.xtc --top $top --sel1 'name OW' --sel2 'name HW1 HW2' --exclude-same molecule \
      --rmax 4 --bins 40 --norm none --out oh-${top##*/}.xvg > oh-${top##*/}.log 2>&1 || fail "rdf O-H with $top: $(cat oh-${top##*/}.log)"
done
grep -q "note: conf.pdb has no TER records between its atoms: molecules are taken from its residues (392 molecules)" oh-conf.pdb.log ||
  fail "no note on the PDB's molecules: $(cat oh-conf.pdb.log)"
cmp <(grep -v '^#' oh-conf.pdb.xvg) <(grep -v '^#' oh-topol.tpr.xvg) || fail "the PDB's molecules exclude other pairs than the TPR's"
# Excluding removes exactly the 2 O-H bonds of each of the 392 waters (SPC: 1 A) below 1.2 A a
# frame; the run's own short contacts between molecules stay (MD makes some, near 1.1 A).
"$kmol" rdf water/md.xtc --top conf.pdb --sel1 'name OW' --sel2 'name HW1 HW2' --rmax 4 --bins 40 \
    --norm none --out oh-all.xvg --quiet || fail "rdf O-H without exclusions"
short_pairs() { awk '!/^[#@]/ && $1 < 1.2 { n += $2 } END { printf "%.3f", n }' "$1"; }
[[ $(awk -v a="$(short_pairs oh-all.xvg)" -v e="$(short_pairs oh-conf.pdb.xvg)" 'BEGIN { printf "%.3f", a - e }') == 784.000 ]] ||
  fail "the PDB's exclusions removed other than its 784 O-H bonds a frame below 1.2 A: $(short_pairs oh-all.xvg) against $(short_pairs oh-conf.pdb.xvg)"
printf 'ATOM      1  OW  SOL     1       1.000   2.000   3.000 -0.8200 1.5000\n' > one.pqr
expect_refusal "applies to trajectories" "$kmol" potential one.pqr --top water/topol.tpr --out x.dx
[[ -e x.dx ]] && fail "a refused potential left x.dx"
echo "gromacs: all checks passed"
