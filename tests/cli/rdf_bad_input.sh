#!/usr/bin/env bash
# kmol rdf on bad input: a clear message naming file, dataset, frame or atom, a nonzero exit, and
# no output (nor temporary) file left behind.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
cd "$dir"
expect_error() {  # pattern, then the kmol rdf arguments
  expect_refusal "$1" "$kmol" rdf "${@:2}" --out out.xvg --csv out.csv --h5 out.h5
  ls out.* 2>/dev/null | grep -v 'kmol-partial' | grep -q . && fail "'$*' left an output file: $(ls out.*)"
  return 0
}
"$kmol" example-trajectory --example gas --atoms 500 --length 20 --frames 4 --out gas.h5 >/dev/null || fail "example"
"$kmol" example-trajectory --example fcc --cells 3 --frames 2 --out fcc.h5 >/dev/null || fail "example"
/usr/bin/python3 - <<'PY' || fail "python3 could not write the damaged files"
import h5py, numpy as np
def h5md(path, shape=(3, 10, 3), box=True, unit="Angstrom"):
    with h5py.File(path, "w") as f:
        g = f.create_group("particles/all")
        v = g.create_dataset("position/value", data=np.random.default_rng(1).uniform(0, 10, shape).astype("f4"))
        if unit: v.attrs["unit"] = unit
        g.create_dataset("position/step", data=np.arange(shape[0]))
        if box:
            b = g.create_group("box"); b.attrs["dimension"] = 3; b.attrs["boundary"] = ["periodic"] * 3
            b.create_dataset("edges", data=np.array([10.0, 10.0, 10.0]))
h5md("badshape.h5", shape=(3, 10, 2))
h5md("nobox.h5", box=False)
h5md("furlong.h5", unit="furlong")
h5md("nan.h5")
with h5py.File("nan.h5", "r+") as f: f["particles/all/position/value"][2, 7, 1] = np.nan
h5md("truncated.h5")
with h5py.File("truncated.h5", "r+") as f:  # a writer stopped between datasets: steps for 2 frames only
    del f["particles/all/position/step"]; f["particles/all/position/step"] = np.arange(2)
with h5py.File("noparticles.h5", "w") as f: f.create_group("observables")
h5md("tinybox.h5")
with h5py.File("tinybox.h5", "r+") as f: f["particles/all/box/edges"][0] = 1e-320
PY
echo "plain text" > text.h5
expect_error "missing.h5: no such file" missing.h5
expect_error "text.h5: not a trajectory kmol reads (H5MD, GROMACS XTC, TRR or TNG, AMBER NetCDF): it is text starting with .plain text." text.h5
expect_error "noparticles.h5: particles: no 'particles' group" noparticles.h5
expect_error "badshape.h5: particles/all/position/value: shape is \[3\]\[10\]\[2\], expected \[frames\]\[atoms\]\[3\]" badshape.h5
expect_error "nobox.h5: box: the trajectory has no periodic box.*--no-pbc" nobox.h5 --rmax 3
expect_error "nan.h5: particles/all/position/value: \[2\] atom 7 has a non-finite coordinate" nan.h5 --rmax 4
expect_error "--sel1: the files give no names; give a topology with --top" gas.h5 --rmax 4 --sel1 'name CA'
expect_error "--sel2: 'index 9000:9999' selects no atoms" gas.h5 --rmax 4 --sel2 'index 9000:9999'
expect_error "--sel1: expected ')'" gas.h5 --rmax 4 --sel1 'species 0 and (index 0:9'
expect_error "unknown keyword 'nmae'" gas.h5 --rmax 4 --sel1 'nmae CA'
expect_error "--bins: must be positive, not 0" gas.h5 --rmax 4 --bins 0
expect_error "--bins: 2000000000 bins: the counts would need about .* GB" gas.h5 --rmax 4 --bins 2000000000
expect_error "--rmax: unknown length unit 'parsec' in '3parsec'" gas.h5 --rmax 3parsec
expect_error "furlong.h5: particles/all/position/value: unknown length unit 'furlong'" furlong.h5 --rmax 3
expect_error "truncated.h5: particles/all/position/step: \[2\] has only 2 entries for 3 frames (truncated file?)" truncated.h5 --rmax 4 --quiet
[[ -e out.xvg.kmol-partial.h5 ]] || fail "the frames read before the truncation were not kept for resuming"
# A result with no pair in range is refused before anything is written; --allow-empty keeps it
# with a warning. (fcc.h5: nearest neighbours 2.86 Angstrom apart.)
expect_error "\-\-rmax: no pair within --rmax 1.2 Angstrom was counted: every bin is 0 (.* distinct pairs, all outside it); check the unit and value of --rmax, or use --allow-empty" fcc.h5 --rmax 1.2 --bins 12
message=$("$kmol" rdf fcc.h5 --rmax 1.2 --bins 12 --allow-empty --out empty.xvg 2>&1) || fail "--allow-empty refused: $message"
grep -q "warning: no pair within --rmax 1.2 Angstrom was counted.*kept as asked (--allow-empty)" <<<"$message" || fail "--allow-empty did not warn: $message"
[[ -s empty.xvg ]] || fail "--allow-empty wrote nothing"
expect_refusal "\-\-rmax: no pair within" "$kmol" histograms fcc.h5 --rmax 1.2 --bins 12 --out empty-h.h5
[[ ! -e empty-h.h5 ]] || fail "histograms left an empty result"
"$kmol" histograms fcc.h5 --rmax 1.2 --bins 12 --allow-empty --out empty-h.h5 --quiet 2>/dev/null || fail "histograms --allow-empty"
expect_refusal "\-\-sel1: 'index 3' selects one atom and there is no --sel2: there is no pair" "$kmol" rdf gas.h5 --rmax 4 --sel1 'index 3' --out one.xvg
# With --gmx a bare length is in nm, the unit of its output, and the summary says so.
message=$("$kmol" rdf gas.h5 --gmx --rmax 0.8 --bins 8 --out gmx.xvg 2>&1) || fail "--gmx --rmax 0.8 refused: $message"
grep -q -- "--rmax 0.8 read as nm (the --gmx output unit)" <<<"$message" || fail "--gmx: the summary does not state the unit: $message"
grep -q -- "note: --rmax 0.8 read as nm" gmx.xvg || fail "--gmx: the xvg does not state the unit"
awk '!/^[#@]/ { r = $1; if ($2 > 0) g = 1 } END { if (r < 0.69 || r > 0.71 || !g) exit 1 }' gmx.xvg || fail "--gmx --rmax 0.8 is not 8 bins to 0.7 nm with pairs"
"$kmol" rdf gas.h5 --gmx --rmax 8A --bins 8 --out gmx-a.xvg --quiet || fail "--gmx --rmax 8A refused"
cmp <(grep -v '^# \(command\|note\)' gmx.xvg) <(grep -v '^# \(command\|note\)' gmx-a.xvg) || fail "--gmx: 0.8 (nm) and 8A differ"
# A PDB without TER records between molecules: molecules from residues, said in a note; a grouping
# that leaves no pair is refused naming the option. (gas.h5 has 500 atoms.)
for i in $(seq 1 500); do
  printf 'ATOM  %5d  AR  GAS A%4d       0.000   0.000   0.000  1.00  0.00          AR\n' $i $(( (i + 1) / 2 ))
done > pairs.pdb
message=$("$kmol" rdf gas.h5 --top pairs.pdb --exclude-same molecule --rmax 4 --norm none --out pairs.xvg 2>&1) || fail "pairs.pdb refused: $message"
grep -q "note: pairs.pdb has no TER records between its atoms: molecules are taken from its residues (250 molecules)" <<<"$message" || fail "no note on the molecules: $message"
sed 's/^\(.\{22\}\).\{4\}/\1   1/' pairs.pdb > one.pdb
expect_error "\-\-exclude-same: every one of the 124750 pairs of the selections lies within one molecule" gas.h5 --top one.pdb --exclude-same molecule --rmax 4
# CONECT bonds join residues into one molecule.
{ cat pairs.pdb; printf 'CONECT    2    3\n'; } > bonded.pdb
message=$("$kmol" rdf gas.h5 --top bonded.pdb --exclude-same molecule --rmax 4 --norm none --out bonded.xvg 2>&1) || fail "bonded.pdb refused: $message"
grep -q "residues joined by its CONECT bonds (249 molecules)" <<<"$message" || fail "CONECT bonds not used: $message"
# A box of no volume makes every g(r) value NaN: refused, naming the cause, nothing written.
expect_error "tinybox.h5: particles/all/box/edges: box: an edge of length 1e-320 Angstrom: expected between 0.001 and 1e+08" tinybox.h5
# Frames that change the atom count (two XTC files of 100 and 90 atoms, concatenated): refused
# naming the file and frame, the frames before it kept.
if "$kmol" info | grep -q "GROMACS XTC" && /usr/bin/python3 -c 'import MDAnalysis' 2>/dev/null; then
  /usr/bin/python3 -W ignore - <<'PY' || fail "MDAnalysis could not write the XTC files"
import MDAnalysis as mda, numpy as np
for n, name in ((100, "a.xtc"), (90, "b.xtc")):
    u = mda.Universe.empty(n, trajectory=True)
    with mda.Writer(name, n) as w:
        for frame in range(3):
            u.atoms.positions = np.random.default_rng(frame).uniform(0, 12, (n, 3))
            u.dimensions = [12, 12, 12, 90, 90, 90]
            w.write(u.atoms)
PY
  cat a.xtc b.xtc > ab.xtc
  expect_error "ab.xtc: frame: \[3\] damaged: the header gives 90 atoms, the first frame 100 at byte [0-9]*; frames 0 to 2 are whole" ab.xtc --rmax 5
fi
# Lengths with units are accepted and converted:
"$kmol" rdf gas.h5 --rmax 0.5nm --bins 10 --quiet --out nm.xvg || fail "--rmax 0.5nm refused"
grep -q "range: \[0, 5) Angstrom" nm.xvg || fail "0.5nm was not read as 5 Angstrom"
echo "bad input refused cleanly"
