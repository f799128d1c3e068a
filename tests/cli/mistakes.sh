#!/usr/bin/env bash
# Every row of docs/errors.md's table: a user's mistake, what kmol says, its exit code and what
# is left on disk. Rows are numbered as in the table.
set -uo pipefail
kmol=$(realpath "$1")
corpus=$(realpath "$(dirname "$0")/../fuzz/corpus")  # gmx-made GROMACS files
axial_molden=$(realpath "$(dirname "$0")/../python/axial_molden.py")
seeds=$(realpath "$(dirname "$0")/../fuzz/seeds")  # the campaign's seeds: 61 waters, 1.2 nm box
source "$(dirname "$0")/scratch.sh"
cd "$dir" || exit 1
export PATH="$(dirname "$kmol"):$PATH"  # the resume commands kmol prints name it `kmol`
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

# row N CODE PATTERN -- ARGS...: kmol ARGS exits with CODE and prints PATTERN.
row() {
  local n=$1 code=$2 pattern=$3; shift 4
  local message rc
  message=$("$kmol" "$@" 2>&1)
  rc=$?
  [[ $rc == "$code" ]] || fail "row $n: exit $rc, expected $code: kmol $*: $message"
  grep -q -- "$pattern" <<<"$message" || fail "row $n: 'kmol $*' said '$message', expected '$pattern'"
  last=$message
}
# none_left N PATH...: nothing of these outputs, nor a temporary of theirs, is on disk.
none_left() {
  local n=$1 p; shift
  for p in "$@"; do
    compgen -G "$p*" >/dev/null && fail "row $n left $(ls -d "$p"*)"
  done
  return 0
}
# stopped N SIGNAL SECONDS CODE -- ARGS...: kmol ARGS, sent SIGNAL after SECONDS, exits CODE.
# catching PID: waits until the process catches SIGINT (kmol's handlers are in place): on a busy
# machine loading the program alone can take longer than a test's delay.
catching() {
  local mask
  for _ in $(seq 1 600); do
    mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
    [[ -n $mask ]] && (( 0x$mask & 2 )) && return 0
    sleep 0.05
  done
  return 1
}
stopped() {
  local n=$1 signal=$2 after=$3 code=$4; shift 5
  "$kmol" "$@" > "stop$n.log" 2>&1 &
  local pid=$!
  catching $pid
  sleep "$after"
  kill -s "$signal" $pid 2>/dev/null || fail "row $n: the run ended before the signal: $(cat "stop$n.log")"
  wait $pid
  local rc=$?
  [[ $rc == "$code" ]] || fail "row $n: exit $rc after SIG$signal, expected $code: $(cat "stop$n.log")"
  last=$(cat "stop$n.log")
}

printf 'ATOM      1  C   ALA A   1       1.000   2.000   3.000  0.5000 2.0000\nATOM      2  O   ALA A   1       2.200   2.000   3.000 -0.5000 1.5000\nEND\n' > two.pqr
# A 60 A wide structure, as a protein is.
for i in $(seq 0 20); do
  printf 'ATOM  %5d  CA  ALA A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C\n' $((i + 1)) $((i + 1)) $((3 * i)) $((i % 5)) $((2 * (i % 3)))
done > wide.pdb
"$kmol" potential two.pqr --spacing 0.5 --padding 6 --out pot.dx --device cpu > /dev/null || fail "setup: potential map"
"$kmol" orbital --example water --write-molden water.molden --spacing 0.5 --out setup.cube > /dev/null || fail "setup: molden"

# potential
row 1 2 "out.dx: --out: directory '/nonexistent' does not exist" -- potential two.pqr --method mdh --spacing 0.4 --out /nonexistent/out.dx
row 2 2 "out.h5: --out: directory '/nonexistent' does not exist" -- potential two.pqr --method mdh --spacing 0.4 --out /nonexistent/out.h5
row 3 2 "map.txt: --out: unknown extension: expected .dx, .h5 or .hdf5" -- potential two.pqr --out map.txt
none_left 3 map.txt
row 4 2 "\-\-ionic-strength: applies only with --method mdh" -- potential two.pqr --method direct --ionic-strength 0.1
row 5 2 "\-\-cutoff: applies only with --method cutoff" -- potential two.pqr --method mdh --cutoff 10
echo old > potential.dx
row 6 0 "potential.dx (the default --out) existed; kept as #potential.dx.1#" -- potential two.pqr --spacing 0.5 --device cpu
[[ $(cat '#potential.dx.1#') == old && -s potential.dx ]] || fail "row 6: backup or new map missing"
row 7 2 "not enough .* for a lattice of [0-9]* x [0-9]* x [0-9]* points around the atoms of two.pqr .*--spacing 0.001, or add --force" -- potential two.pqr --spacing 0.001 --out big.dx
none_left 7 big.dx
stopped 8 TERM 1 143 -- potential two.pqr --spacing 0.03 --padding 12 --out slow.dx --device cpu
grep -q "stopped by SIGTERM; temporary files removed" <<<"$last" || fail "row 8: $last"
none_left 8 slow.dx

# orbital
row 9 2 "not enough .*--spacing 0.01, or add --force" -- orbital --example c60 --mo homo --spacing 0.01 --out out.cube
none_left 9 out.cube
stopped 10 TERM 1 143 -- orbital water.molden --mo homo --spacing 0.03 --padding 4 --out slow.cube --device cpu
none_left 10 slow.cube
row 11 0 "orbital 4 (Alpha" -- orbital water.molden --mo homo-1 --spacing 0.5 --out homo1.cube
row 12 0 "orbital 7 (Alpha" -- orbital water.molden --mo lumo+1 --spacing 0.5 --out lumo1.cube
row 13 2 "\-\-mo: orbital 2 is not in the file (it has 0 Beta orbitals)" -- orbital water.molden --mo 2 --spin Beta --out b.cube
row 14 2 "out.txt: --out: unknown extension: expected .cube, .cub or .dx" -- orbital water.molden --out out.txt
none_left 14 out.txt
# An older psi4's Molden file: Cartesian d functions normalised as x^2 (C60, 6-31G*).
"$kmol" orbital --example c60 --write-molden c60.molden --spacing 0.5 --out setup2.cube > /dev/null || fail "setup: c60"
/usr/bin/python3 "$axial_molden" c60.molden axial.molden || fail "setup: the axial Molden file"
row 33 0 "the file normalises its Cartesian d, f and g functions as x^l.*--cartesian-norm axial" -- orbital axial.molden --spacing 0.5 --out axial.cube
row 34 0 "norm (analytic) 1.0000" -- orbital axial.molden --cartesian-norm axial --spacing 0.5 --out converted.cube
grep -q "warning" <<<"$last" && fail "row 34: $last"

# md
row 15 1 "kmol md stopped: step [0-9]*: .*--dt 5" -- md --atoms 500 --dt 5 --steps 100 --out blown.h5 --log blown.csv --quiet
/usr/bin/python3 - <<'PY' || fail "row 15: the trajectory kept is not good"
import h5py, numpy as np
x = h5py.File("blown.h5")["particles/all/position/value"][()]
assert x.shape[0] >= 1 and np.isfinite(x).all(), x.shape
PY
[[ -s blown.csv ]] || fail "row 15: no log kept"
stopped 16 INT 2 130 -- md --atoms 4000 --steps 1000000 --every 50 --out run.h5 --log run.csv --quiet
grep -q "resume with: .*--restart run.h5 --steps [0-9]* --out run-from-[0-9]*.h5" <<<"$last" || fail "row 16: $last"
none_left 16 run.h5.tmp run.csv.tmp
resume=$(sed -n 's/.*resume with: //p' <<<"$last" | sed 's/--steps [0-9]*/--steps 50/')
(eval "$resume" > resume.log 2>&1) || fail "row 16: the resume command failed: $resume: $(cat resume.log)"
row 17 2 "\-\-coupling: applies only with --thermostat andersen or langevin" -- md --atoms 500 --steps 10 --coupling 2
echo old > md-thermo.csv
row 18 0 "kept as #md-thermo.csv.1#" -- md --atoms 500 --steps 10 --quiet
row 19 2 "run.h5: --out: is an input of this run" -- md --restart run.h5 --steps 10 --out run.h5
row 20 2 "\-\-atoms: applies only with an FCC start" -- md --restart run.h5 --atoms 500 --steps 10 --out more.h5

# surf
row 21 2 "wide.pdb: \-\-spacing: a lattice of [0-9]* x [0-9]* x [0-9]* points around the atoms is beyond the mesh's limit of 715 million points" -- surf wide.pdb --spacing 0.01 --force
none_left 21 surface.ply
row 22 0 "around the values below it): [1-9][0-9]* triangles, .*volume [0-9.]" -- surf --map pot.dx --iso -1 --mesh minus.ply --device cpu
row 23 2 "the isosurface 100000 of map pot.dx .* is empty: its values lie in" -- surf --map pot.dx --iso 100000 --mesh empty.ply
none_left 23 empty.ply
row 24 2 "\-\-spacing: applies only with a structure" -- surf --map pot.dx --spacing 0.5 --mesh s.ply

# cc
printf 'ATOM      1  C   ALA A   1     100.000 100.000 100.000  0.0000 2.0000\nEND\n' > far.pqr
row 25 2 "far.pqr: --ref: no atom lies inside the reference map pot.dx (the map spans" -- cc far.pqr --ref pot.dx --resolution 4
head -1 two.pqr > half.pqr && cat far.pqr >> half.pqr
row 26 0 "warning: only 50.0% of the atoms of half.pqr lie inside" -- cc half.pqr --ref pot.dx --resolution 4

# every command: the exit-code policy, CLI11's own errors included
row 27 2 "missing.pqr" -- potential missing.pqr
row 28 2 "\-\-spacing" -- potential two.pqr --spacing abc
row 29 2 "\-\-spacng" -- potential two.pqr --spacng 0.5
"$kmol" example-trajectory --atoms 5000 --example gas --frames 400 --out traj.h5 > /dev/null || fail "setup: trajectory"
row 30 2 "\-\-exclude-same" -- rdf traj.h5 --exclude-same chain
row 31 0 "\-\-spacing FLOAT=0.5 " -- potential --help
stopped 32 INT 1 130 -- rdf traj.h5 --rmax 10 --bins 100 --device cpu --workers 1 --threads 1 --out slow.xvg
grep -q "resume with: .*rdf traj.h5" <<<"$last" || fail "row 32: $last"
[[ -s slow.xvg.kmol-partial.h5 ]] || fail "row 32: no partial state kept"
# A second signal while md runs the steps to its next safe point: it exits at once. A large
# system makes those steps take seconds, so the second signal lands before the safe point.
"$kmol" md --atoms 108000 --steps 100000 --every 100000 --log-every 1000 --out twice.h5 \
  --log twice.csv --quiet > stop35.log 2>&1 &
pid=$!
# Its outputs' temporaries appear as the steps begin; a signal before that stops it at once.
for _ in $(seq 1 600); do compgen -G "twice.h5.tmp-*" >/dev/null && break; sleep 0.1; done
sleep 0.5
kill -s TERM $pid 2>/dev/null || fail "row 35: the run ended before the first signal: $(cat stop35.log)"
for _ in $(seq 1 100); do grep -q "stopping at the next safe point" stop35.log && break; sleep 0.05; done
grep -q "stopping at the next safe point" stop35.log || fail "row 35: no safe point announced: $(cat stop35.log)"
kill -s TERM $pid 2>/dev/null || fail "row 35: the run reached its safe point before the second signal"
second=$(date +%s%N)
wait $pid
rc=$?
waited_ms=$(( ($(date +%s%N) - second) / 1000000 ))
last=$(cat stop35.log)
[[ $rc == 143 ]] || fail "row 35: exit $rc after the second SIGTERM, expected 143: $last"
grep -q "stopped by SIGTERM; temporary files removed" <<<"$last" || fail "row 35: $last"
grep -q "kept up to step" <<<"$last" && fail "row 35: the run reached its safe point: $last"
(( waited_ms < 1000 )) || fail "row 35: the second signal took $waited_ms ms to end the run"
none_left 35 twice.h5 twice.csv

# cc weights
"$kmol" example-trajectory --example gas --atoms 100 --length 12 --frames 2 --out gas.h5 > /dev/null || fail "setup: gas.h5"
row 36 2 "gas.h5: --weight: mass needs masses: this input has none (give --top topol.tpr" -- cc gas.h5 --weight mass --ref pot.dx --resolution 4
row 37 2 "\-\-top: applies only with --weight mass" -- cc gas.h5 --top two.pqr --ref pot.dx --resolution 4

# maps, lattices and inputs beyond their limits (tests/cli/map_limits.sh has every class)
dx() {
  printf 'object 1 class gridpositions counts %s\norigin %s\ndelta %s 0 0\ndelta 0 %s 0\ndelta 0 0 %s\nobject 2 class gridconnections counts %s\nobject 3 class array type double rank 0 items %s data follows\n%s\n' \
    "$2" "$3" "$4" "$4" "$4" "$2" "$5" "$6" > "$1"
}
peak='0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0'
dx damaged.dx '4294967296 4294967296 1' '0 0 0' 1 0 ''
row 38 2 "damaged.dx: counts: the grid's counts 4294967296 x 4294967296 x 1 must be positive and multiply to at most 2^36 points" -- surf --map damaged.dx
/usr/bin/python3 - <<'PY' || fail "setup: tiny.mrc"
import struct
h = bytearray(1024)
struct.pack_into("<3i i 3i 3i 3f 3f 3i", h, 0, 3, 3, 3, 2, 0, 0, 0, 3, 3, 3, 1e-38, 3.0, 3.0, 90.0, 90.0, 90.0, 1, 2, 3)
h[208:212] = b"MAP "
h[212:214] = b"\x44\x44"
open("tiny.mrc", "wb").write(bytes(h) + struct.pack("<27f", *([0.0] * 13 + [1.0] + [0.0] * 13)))
PY
row 39 2 "tiny.mrc: cella: the spacing along x is 3.333e-39 A: expected 1e-4 to 1e4 Angstrom (a damaged header?)" -- surf --map tiny.mrc
dx flat.dx '3 3 3' '1e7 1e7 1e7' 1e-4 27 "$peak"
row 40 1 "flat.ply: --iso: the isosurface 0.5 of map flat.dx (3 x 3 x 3) has 8 triangles of zero area: the map's origin (1e+07 A from zero) is too far for its spacing (0.0001 A) to keep vertices apart in single precision; no mesh written (--allow-empty writes it)" -- surf --map flat.dx --mesh flat.ply
none_left 40 flat.ply
row 41 0 "warning: the isosurface .* has 8 triangles of zero area: .*(written as asked by --allow-empty)" -- surf --map flat.dx --mesh flat.ply --allow-empty
[[ -s flat.ply ]] || fail "row 41: no mesh written"
for i in $(seq 1 20); do
  printf 'ATOM  %5d  CA  ALA A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C\n' "$i" "$i" $((i % 4)) $((i % 3)) $((i % 5))
done > base.pdb
sed '7s/^\(.\{38\}\).\{8\}/\142949672/' base.pdb > stretched.pdb
row 42 2 "atoms: \[7\] atom 7 (CA) at (3, 4.295e+07, 2) A lies far from the others and stretches the lattice to .* points (.* GB per single-precision map); the other atoms need .*: check its coordinates, or give a --spacing or --padding" -- surf stretched.pdb
none_left 42 surface.ply
awk '{ printf "ATOM %d CA ALA %d %s %s %s %s 1.5\n", NR, NR, $7, $8, $9, NR == 3 ? "3.4e38" : "0.1" }' base.pdb > charge.pqr
awk '{ printf "ATOM %d CA ALA %d %s %s %s 0.1 1.5\n", NR, NR, $7, NR == 7 ? 100000 : $8, $9 }' base.pdb > far.pqr
row 43 2 "atom 7 (CA) at (3, 1e+05, 2) A lies far from the others" -- potential far.pqr --out far.dx
none_left 43 far.dx
row 44 2 "charge.pqr: charge: \[3\] line 3: is 3.4e38: expected at most 1000 e in magnitude" -- potential charge.pqr --out charge.dx
none_left 44 charge.dx
awk '/^ *s +[0-9]+ / && !done { print; getline; $1 = "1.0e30"; done = 1 } { print }' water.molden > steep.molden
row 45 2 "steep.molden: \[GTO\] exponent: .*is 1.0e30 (times the scale factor squared): expected at most 1e12 bohr^-2" -- orbital steep.molden --out steep.cube
none_left 45 steep.cube
row 46 2 "far.cube: the orbital map is zero at all 125 points; nothing written: the lattice misses the orbital (check --origin and --counts)" -- orbital water.molden --origin 100 100 100 --counts 5 5 5 --out far.cube
none_left 46 far.cube
# results that check themselves
"$kmol" example-trajectory --example fcc --cells 3 --frames 2 --out fcc.h5 > /dev/null || fail "setup: fcc.h5"
row 47 2 "\-\-rmax: no pair within --rmax 1.2 Angstrom was counted: every bin is 0 (.* distinct pairs, all outside it); check the unit and value of --rmax, or use --allow-empty" -- rdf fcc.h5 --rmax 1.2 --bins 12 --out empty.xvg
none_left 47 empty.xvg
row 48 0 "warning: no pair within --rmax 1.2 Angstrom was counted: .*kept as asked (--allow-empty)" -- rdf fcc.h5 --rmax 1.2 --bins 12 --allow-empty --out empty.xvg
[[ -s empty.xvg ]] || fail "row 48: no result written"
row 49 0 "\-\-rmax 0.5 read as nm (the --gmx output unit)" -- rdf gas.h5 --gmx --rmax 0.5 --bins 5 --out gmx.xvg
grep -q "note: --rmax 0.5 read as nm" gmx.xvg || fail "row 49: the xvg does not say it"
for i in $(seq 1 100); do
  printf 'ATOM  %5d  OW  SOL A%4d       0.000   0.000   0.000  1.00  0.00           O\n' $i $(( (i + 1) / 2 ))
done > conf.pdb
row 50 0 "note: conf.pdb has no TER records between its atoms: molecules are taken from its residues (50 molecules)" -- rdf gas.h5 --top conf.pdb --exclude-same molecule --rmax 5 --out conf.xvg
sed 's/^\(.\{22\}\).\{4\}/\1   1/' conf.pdb > one.pdb
row 51 2 "\-\-exclude-same: every one of the 4950 pairs of the selections lies within one molecule, so none would be counted" -- rdf gas.h5 --top one.pdb --exclude-same molecule --rmax 5 --out one.xvg
none_left 51 one.xvg
row 52 2 "\-\-sel1: 'index 3' selects one atom and there is no --sel2: there is no pair" -- rdf gas.h5 --sel1 'index 3' --rmax 5 --out index3.xvg
none_left 52 index3.xvg
if "$kmol" info | grep -q "GROMACS XTC" && /usr/bin/python3 -c 'import MDAnalysis' 2>/dev/null; then
  /usr/bin/python3 -W ignore - <<'PY' || fail "setup: nobox.xtc"
import MDAnalysis as mda, numpy as np
u = mda.Universe.empty(100, trajectory=True)
with mda.Writer("nobox.xtc", 100) as w:
    for frame in range(4):
        u.atoms.positions = np.random.default_rng(frame).uniform(0, 12, (100, 3))
        u.dimensions = None if frame == 2 else [12, 12, 12, 90, 90, 90]
        w.write(u.atoms)
PY
  row 53 2 "nobox.xtc: frame: \[2\] has no periodic box, but the trajectory's first frame has one: every frame of a periodic run needs one (use --no-pbc" -- rdf nobox.xtc --rmax 5 --out nobox.xvg
  [[ ! -e nobox.xvg && -e nobox.xvg.kmol-partial.h5 ]] || fail "row 53: $(ls nobox.xvg*)"
fi
/usr/bin/python3 - <<'PY' || fail "setup: tiny.h5"
import h5py, numpy as np
with h5py.File("tiny.h5", "w") as f:
    g = f.create_group("particles/all")
    v = g.create_dataset("position/value", data=np.random.default_rng(1).uniform(0, 10, (3, 50, 3)))
    v.attrs["unit"] = "Angstrom"
    g.create_dataset("position/step", data=np.arange(3))
    b = g.create_group("box"); b.attrs["dimension"] = 3; b.attrs["boundary"] = ["periodic"] * 3
    b.create_dataset("edges", data=np.array([1e-320, 10.0, 10.0])).attrs["unit"] = "Angstrom"
PY
row 57 2 "tiny.h5: particles/all/box/edges: box: an edge of length 1e-320 Angstrom: expected between 0.001 and 1e+08" -- rdf tiny.h5 --out tiny.xvg
none_left 57 tiny.xvg
python_module=$(dirname "$kmol")/../python
if [[ -d $python_module/kmol ]]; then
  PYTHONPATH=$python_module /usr/bin/python3 - <<'PY' || fail "rows 54 to 56"
import re, warnings
import numpy as np
import kmol
x = np.random.default_rng(1).uniform(0, 20, (200, 3))
rdf = kmol.RDF(r_max=8, bins=40)
rdf.add_frame(x, box=[20, 20, 20])
try:
    rdf.add_frame(x, box=None)
    raise SystemExit("row 54: a frame without a box was accepted")
except ValueError as e:
    assert "box: frame 1: None, but frame 0 had a periodic box: give every frame its box" in str(e), e
k = np.arange(5) * 4.0
lattice = np.stack(np.meshgrid(k, k, k), -1).reshape(-1, 3)
empty = kmol.RDF(r_max=1.2, bins=12)
empty.add_frame(lattice, box=[20, 20, 20])
try:
    empty.rdf
    raise SystemExit("row 55: an empty g(r) was returned")
except ValueError as e:
    assert re.search(r"r_max: no pair within r_max 1.2 Angstrom was counted: .*check the unit and "
                     r"value of r_max, or use allow_empty=True", str(e)), e
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kmol.orbital("axial.molden", "homo", spacing=0.5, padding=2)
said = " ".join(str(w.message) for w in caught)
assert "the file normalises its Cartesian d, f and g functions as x^l" in said, said
assert "cartesian_norm='axial' converts them" in said and "--cartesian-norm" not in said, said
PY
fi
# damaged GROMACS files (the fuzz corpus's gmx-made water: 72 atoms, frames of 340 and 1848 bytes)
if "$kmol" info | grep -q "GROMACS XTC, TRR, TNG"; then
  put() {  # put FILE OFFSET VALUE: a big-endian 32-bit integer at OFFSET
    /usr/bin/python3 -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read()); d[int(sys.argv[2]):int(sys.argv[2]) + 4] = struct.pack(">i", int(sys.argv[3]))
open(sys.argv[1], "wb").write(d)' "$@"
  }
  cp "$corpus/xtc/water.xtc" md.xtc && put md.xtc $((340 + 88)) 1000000
  row 58 2 "md.xtc: frame: \[1\] damaged: compressed size 1000000 bytes does not fit 72 atoms at byte 340; frames 0 to 0 are whole (--frames :1 reads them)" -- rdf md.xtc --out xtc.xvg
  [[ -s xtc.xvg.kmol-partial.h5 && ! -e xtc.xvg ]] || fail "row 58: not the partial state alone"
  cp "$corpus/trr/water.trr" md.trr && put md.trr $((1848 + 64)) 100
  row 59 2 "md.trr: frame: \[1\] damaged: section sizes (box 36, coordinates 864, velocities 864, forces 0 bytes) do not fit 100 atoms" -- rdf md.trr --out trr.xvg
  cp "$corpus/xtc/water.xtc" water.xtc  # its frame index is written beside it
  head -c 100 "$corpus/tpr/water.tpr" > topol.tpr
  row 60 2 "topol.tpr: libgromacs cannot read the run input: " -- rdf water.xtc --top topol.tpr --out tpr.xvg
  none_left 60 tpr.xvg
  cp "$corpus/tpr/crash-read_tpx-segfaults-in-the-child" topol.tpr
  row 61 2 "topol.tpr: libgromacs cannot read the run input: .*the file is damaged" -- rdf water.xtc --top topol.tpr --out tpr.xvg
  cp "$corpus/tpr/gmx_fatal-symtab-handle-ends-the-child" topol.tpr
  row 62 2 "topol.tpr: libgromacs cannot read the run input: GROMACS: symtab get_symtab_handle 0 not found" -- rdf water.xtc --top topol.tpr --out tpr.xvg
  grep -q "Fatal error" <<<"$last" && fail "row 62: GROMACS' banner: $last"
  none_left 62 tpr.xvg
fi
# damaged H5MD files: HDF5's internals, non-finite times, impossible boxes
# damage IN OUT SIGNATURE OFFSET BYTE: a copy of IN with one byte set, OFFSET bytes after the
# first SIGNATURE (an HDF5 structure's 4-byte signature).
damage() {
  /usr/bin/python3 - "$@" <<'PY'
import sys
src, dst, signature, offset, value = sys.argv[1:6]
b = bytearray(open(src, "rb").read())
at = b.find(signature.encode())
assert at >= 0, signature
b[at + int(offset)] = int(value, 0)
open(dst, "wb").write(b)
PY
}
# The first global-heap object's 8-byte size sits 24 bytes after "GCOL"; the file is one h5py
# wrote, as MDAnalysis does.
seed=$(dirname "$0")/../fuzz/corpus/h5md_file/h5py-orthorhombic-with-species.h5
damage "$seed" heap.h5 GCOL 25 0xff || fail "setup: heap.h5"
row 63 2 "heap.h5: reading its HDF5 structure in a separate process .*the file is damaged" -- rdf heap.h5 --rmax 4 --out heap.xvg
none_left 63 heap.xvg
damage "$seed" loop.h5 GCOL 24 0 || fail "setup: loop.h5"
row 64 2 "loop.h5: reading its HDF5 structure in a separate process ran past its time limit" -- md --restart loop.h5 --steps 10 --out loop-more.h5 --log loop.csv
none_left 64 loop-more.h5 loop.csv
cp run.h5 nan.h5
/usr/bin/python3 -c 'import h5py; h5py.File("nan.h5", "r+")["particles/all/position/time"][:] = float("nan")' || fail "setup: nan.h5"
row 65 2 "nan.h5: particles/all/position/time: \[[0-9]*\] is nan: expected a finite number" -- md --restart nan.h5 --steps 10 --out nan-more.h5 --log nan.csv
none_left 65 nan-more.h5 nan.csv
cp gas.h5 tiny.h5
/usr/bin/python3 -c 'import h5py; h5py.File("tiny.h5", "r+")["particles/all/box/edges/value"][:, 1, 1] = 1e-320' || fail "setup: tiny.h5"
row 66 2 "tiny.h5: particles/all/box/edges/value: \[0\] box: an edge of length 1e-320 Angstrom: expected between 0.001 and 1e+08" -- rdf tiny.h5 --rmax 5 --out tiny.xvg
none_left 66 tiny.xvg
echo old > map.dx
row 67 0 "map.dx (--out) existed; kept as #map.dx.1#" -- potential two.pqr --spacing 0.5 --out map.dx --device cpu
[[ $(cat '#map.dx.1#') == old && -s map.dx ]] || fail "row 67: backup or new map missing"
"$kmol" example-trajectory --example gas --atoms 2000 --frames 2 --compression 6 --out deflated.h5 > /dev/null || fail "setup: deflated.h5"
/usr/bin/python3 - <<'PY' || fail "setup: damaging deflated.h5"
b = bytearray(open("deflated.h5", "rb").read())
at = b.find(b"\x78\x9c")  # the zlib header of the first compressed chunk (level 6)
assert at > 0
b[at + 2:at + 258] = bytes(256)
open("deflated.h5", "wb").write(b)
PY
row 68 2 "deflated.h5: particles/all/position/value: \[[01]\] cannot read this frame" -- rdf deflated.h5 --out deflated.xvg
grep -q "HDF5-DIAG" <<<"$last" && fail "row 68: HDF5 printed its error stack: $last"
none_left 68 deflated.xvg
# cell grids bounded by memory
row 69 2 "\-\-spacing: the lattice spans .* cells of the Gaussians' cut radius" -- surf wide.pdb --spacing 1e9 --out huge.dx
none_left 69 huge.dx
row 70 2 "cutoff: cutoff + skin 1e-300 divides the box into" -- md --cells 3 3 3 --cutoff 1e-300 --skin 0 --steps 1 --out tiny.h5 --log tiny.csv --quiet
none_left 70 tiny.h5 tiny.csv
# A NetCDF header libnetcdf would trust: one dimension, a global attribute of type 77.
printf 'CDF\x01\0\0\0\0\0\0\0\x0a\0\0\0\x01\0\0\0\x04atom\0\0\0\x0a\0\0\0\x0c\0\0\0\x01\0\0\0\x0bConventions\0\0\0\0\x4d\0\0\0\x05AMBER\0\0\0\0\0\0\0\0\0\0\0' > damaged.nc
row 71 2 "damaged.nc: attribute type: damaged NetCDF header at byte 56: type 77 (expected 1 to 6)" -- rdf damaged.nc --rmax 5 --out damaged.xvg
none_left 71 damaged.xvg

row 72 2 "water.molden: --iso: the isosurfaces psi = +-100 of the orbital are empty: its values lie in \[-0.4.*no mesh written to orb.ply (lower --iso, or add --allow-empty)" -- orbital water.molden --spacing 0.5 --iso 100 --mesh orb.ply --out orb.cube
none_left 72 orb.ply orb.cube
row 72 0 "+ lobe: 0 triangles" -- orbital water.molden --spacing 0.5 --iso 100 --mesh orb.ply --out orb.cube --allow-empty
row 72 2 "\-\-allow-empty: applies only with --mesh" -- orbital water.molden --spacing 0.5 --out orb.cube --allow-empty
if "$kmol" info | grep -q "GROMACS XTC, TRR, TNG"; then
  cp "$corpus/tng/segv-closing-byterun-2184457623.tng" crash.tng
  row 73 2 "crash.tng: libgromacs cannot read the TNG trajectory: .*the file is damaged" -- rdf crash.tng --out crash.xvg
  none_left 73 crash.xvg
  # Frame 0's box edge x set to 0.0047 nm: the default --rmax follows it down to 0.023 Angstrom.
  /usr/bin/python3 -c 'import struct, sys
d = bytearray(open(sys.argv[1], "rb").read()); d[16:20] = struct.pack(">f", 0.0046875)
open("thin.xtc", "wb").write(d)' "$seeds/xtc/water.xtc" || fail "setup: thin.xtc"
  row 74 2 "thin.xtc: --rmax: no pair within --rmax 0.0234375 Angstrom was counted: .*; the default is the minimum-image radius of the box of frame 0 (0.046875 x 12 x 12 Angstrom); check that box, or give --rmax" -- histograms thin.xtc --top "$seeds/gro/water.gro" --bins 10 --out thin.h5
  none_left 74 thin.h5
fi
printf '1\nalone\nO 0 0 0\n' > one.xyz
row 75 2 "one.xyz: no pair to count: the selections hold no two distinct atoms" -- histogram --xyz one.xyz --box 12 12 12 --out one.csv
none_left 75 one.csv
printf 'MODEL        1\nATOM      1  C   ALA A   1       1.000   2.000   3.000  1.00  0.00           C\nATOM      2  O   ALA A   1       2.200   2.000   3.000  1.00  0.00           O\nENDMDL\nMODEL        2\nATOM      1  C   ALA A   1       1.000   2.000   3.000  1.00  0.00           C\nENDMDL\n' > models.pdb
row 76 2 "models.pdb: MODEL: \[7\] model 2 has 1 atoms, the first 2" -- surf models.pdb --spacing 0.5 --mesh m73.ply
none_left 76 m73.ply
printf 'CRYST1   20.000   20.000   20.000  10.00  10.00 150.00 P 1           1\nATOM      1  C   ALA A   1       1.000   2.000   3.000  1.00  0.00           C\n' > cell.pdb
row 77 2 "cell.pdb: CRYST1: \[1\] the cell angles make no cell with volume" -- surf cell.pdb --spacing 0.5 --mesh m74.ply
none_left 77 m74.ply
# scattering: elements, the q the bins resolve, the solvent's composition, the observation sphere
printf 'ATOM      1  C   ALA A   1       0.000   0.000   0.000  1.00  0.00           C\nATOM      2  O   ALA A   1       1.200   0.000   0.000  1.00  0.00           O\nATOM      3  Q1  XYZ A   2       3.000   0.000   0.000  1.00  0.00\nEND\n' > odd.pdb
row 78 2 "odd.pdb: element: cannot tell the element of 1 atom(s): atom 3 'Q1' in XYZ; set it with --element NAME=ELEMENT" -- scattering odd.pdb --out odd.dat
none_left 78 odd.dat
row 78 0 "Guinier" -- scattering odd.pdb --element Q1=S --out odd.dat
row 79 2 "\-\-bin-width: 1 Angstrom supports q up to 1 1/Angstrom (q w <= 1), but --qmax is 2 1/Angstrom" -- scattering two.pqr --qmax 2 --bin-width 1 --out bins.dat
none_left 79 bins.dat
"$kmol" example-trajectory --example gas --atoms 300 --length 30 --frames 2 --out sol.h5 > /dev/null || fail "setup: sol.h5"
"$kmol" example-trajectory --example gas --atoms 200 --length 30 --frames 2 --seed 7 --out solvent.h5 > /dev/null || fail "setup: solvent.h5"
pdb_of() {  # pdb_of N ELEMENT: N atoms of ELEMENT at the origin (a topology of names)
  for ((i = 1; i <= $1; i++)); do printf 'ATOM  %5d  %-3s SOL A%4d       0.000   0.000   0.000  1.00  0.00          %2s\n' "$i" "$2" "$i" "$2"; done
}
pdb_of 300 O > sol.pdb
pdb_of 200 NA > solvent-na.pdb
pdb_of 200 O > solvent.pdb
row 80 2 "solvent.h5: --solvent: is not the solution's solvent: it has Na; the solution's atoms outside --solute have O, which it lacks" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent-na.pdb --radius 12 --out excess.dat
none_left 80 excess.dat
row 81 2 "sol.h5: --radius: the observation sphere of radius 20 Angstrom does not fit in the box (the largest sphere inside has radius 15 Angstrom)" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --radius 20 --out excess.dat
none_left 81 excess.dat
row 81 0 "wrote excess.dat" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --radius 12 --out excess.dat
row 93 2 "sol.h5: --shell: the solute with its shell of 16 Angstrom (reaching 16 Angstrom from the solute's centre in frame 0) does not fit in the box (the largest sphere inside has radius 15 Angstrom)" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --shell 16 --out excess.dat
none_left 93 excess.dat
row 94 2 "\-\-shell: the shell's thickness must be a positive length in Angstrom, got 0" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --shell 0 --out excess.dat
row 94 2 "\-\-radius: the sphere's radius must be positive, got -1" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --radius=-1 --out excess.dat
none_left 94 excess.dat
row 94 0 "wrote excess.dat" -- scattering sol.h5 --top sol.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top solvent.pdb --shell 3 --out excess.dat
row 95 2 "sol.h5: --radius: the observation sphere of radius 5 Angstrom does not hold the solute: its atoms reach .* Angstrom from its centre in frame 0" -- scattering sol.h5 --top sol.pdb --solute 'index 0:9' --solvent solvent.h5 --solvent-top solvent.pdb --radius 5 --out excess.dat
none_left 95 excess.dat
pdb_mix() {  # pdb_mix N EL...: N atoms at the origin, their elements the list's in turn
  local n=$1 i; shift
  local els=("$@")
  for ((i = 0; i < n; i++)); do printf 'ATOM  %5d  %-3s SOL A%4d       0.000   0.000   0.000  1.00  0.00          %2s\n' $((i + 1)) "${els[i % ${#els[@]}]}" $((i + 1)) "${els[i % ${#els[@]}]}"; done
}
pdb_mix 300 O H H > water.pdb
pdb_mix 200 O H > oh.pdb
row 96 2 "solvent.h5: --solvent: is not the solution's solvent: its atoms are 50.0% O, 50.0% H; the solution's atoms outside --solute are 33.1% O, 66.9% H" -- scattering sol.h5 --top water.pdb --solute 'index 0' --solvent solvent.h5 --solvent-top oh.pdb --radius 12 --out excess.dat
none_left 96 excess.dat

"$kmol" example-trajectory --example gas --atoms 300 --length 20 --frames 2 --out kbgas.h5 > /dev/null || fail "setup: kbgas.h5"
row 82 2 "\-\-kb: Kirkwood-Buff integrals need a periodic box" -- rdf kbgas.h5 --no-pbc --norm none --rmax 5 --kb kb.csv --out kb.xvg
none_left 82 kb.csv kb.xvg
row 83 0 "wrote" -- rdf kbgas.h5 --rmax 25 --bins 50 --out far.xvg
grep -q "every image within r_max" far.xvg || fail "row 83: the xvg does not say every image counts"
# frames, selections and molecular centres
row 84 2 "\-\-frames: frames are chosen by position (--frames) or by time (--begin, --end, --dt), not both" -- rdf gas.h5 --frames 1: --begin 0.5 --rmax 5 --out both.xvg
none_left 84 both.xvg
row 85 2 "gas.h5: \-\-begin: \-\-begin 1000 picks none of the 2 frames, whose times run from 0 to" -- rdf gas.h5 --begin 1000 --rmax 5 --out late.xvg
none_left 85 late.xvg
row 86 2 "\-\-frames: '0:2' picks 2 frames; surf maps one: give one frame N (-1: the last)" -- surf gas.h5 --frames 0:2 --out two.dx
none_left 86 two.dx
row 87 2 "\-\-first: frames are chosen with --frames, as in every kmol command" -- cc gas.h5 --ref pot.dx --resolution 4 --timeline first.csv --first 1
none_left 87 first.csv
row 88 2 "\-\-sel1: 'name OX' selects no atoms; the atoms are" -- rdf gas.h5 --top conf.pdb --sel1 'name OX' --rmax 5 --out ox.xvg
grep -q "atom names: OW (100)" <<<"$last" && grep -q "residue names: SOL (100)" <<<"$last" || fail "row 88: no names listed: $last"
none_left 88 ox.xvg
row 89 2 "\-\-sel1: 'around' selects by position, frame by frame" -- rdf gas.h5 --top conf.pdb --sel1 'around 3 resname SOL' --rmax 5 --out around.xvg
none_left 89 around.xvg
row 90 2 "\-\-pos1: res_com: centres of mass need masses, which neither the topology nor the trajectory gives" -- rdf gas.h5 --top conf.pdb --pos1 res_com --rmax 5 --out com.xvg
none_left 90 com.xvg
for i in $(seq 1 100); do
  printf 'ATOM  %5d  AR  GAS A%4d       0.000   0.000   0.000  1.00  0.00          AR\n' $i $(( i <= 50 ? 1 : 2 ))
done > halves.pdb
row 91 2 "gas.h5: frame: \[0\] \-\-pos1: molecule 0 cannot be made whole: without bonds in the topology" -- rdf gas.h5 --top halves.pdb --pos1 mol_cog --rmax 5 --out whole.xvg
none_left 91 whole.xvg
if "$kmol" info | grep -q "GROMACS XTC, TRR, TNG"; then
  cp "$corpus/tng/piled-md-restart-byterun-1810690043.tng" piled.tng
  row 92 2 "piled.tng: positions: \[4\] atoms 183 and 184 of this frame sit at the same point" -- md --restart piled.tng --steps 2 --out piled.h5 --log piled.csv
  none_left 92 piled.h5 piled.csv
fi
row 97 2 "\-\-blocks: '0' is no number of blocks: give 2 or more" -- rdf gas.h5 --rmax 5 --blocks 0 --out blocks.xvg
none_left 97 blocks.xvg
row 97 2 "\-\-interval: cannot be combined with --blocks" -- rdf gas.h5 --rmax 5 --blocks 2 --interval 1 --out blocks.xvg
none_left 97 blocks.xvg
row 98 2 "gas.h5: \-\-blocks: 5 blocks of frames need at least 5 frames, and the run reads 2" -- rdf gas.h5 --rmax 5 --blocks 5 --out blocks.xvg
none_left 98 blocks.xvg
row 99 2 "\-\-cn: applies only with --gmx" -- rdf gas.h5 --rmax 5 --cn cn.xvg --out cn-rdf.xvg
none_left 99 cn.xvg cn-rdf.xvg
awk '{ printf "ATOM %d CA ALA %d %s %s %s 0.1 1.5\n", NR, NR, $7, NR == 7 ? 922337 : NR == 12 ? -21474 : $8, $9 }' base.pdb > far2.pqr
row 108 2 "atom 7 (CA) at (3, 9.223e+05, 2) A and 1 other atom lie far from the rest and stretch the lattice" -- potential far2.pqr --spacing 1.5 --out far2.dx
none_left 108 far2.dx
row 109 2 "far2.pqr: atoms: .* Angstrom bins to .* Angstrom (the atoms' span of .* Angstrom (an atom far from the rest?)) make .* bins, beyond the 1048576 a histogram holds" -- scattering far2.pqr --element '*=C' --out far2.dat
none_left 109 far2.dat
printf 'box\n 1\n    1SOL     OW    1   0.100   0.100   0.100\n   1e30   1.20000   1.20000\n' > wide.gro
row 110 2 "wide.gro: box: an edge of length 1e+31 Angstrom: expected between 0.001 and 1e+08" -- scattering wide.gro --element '*=O' --out wide.dat
none_left 110 wide.dat
"$kmol" example-trajectory --example gas --atoms 2000 --frames 4 --compression 0 --out far.h5 > /dev/null || fail "setup: far.h5"
/usr/bin/python3 - <<'PY' || fail "setup: moving far.h5's last chunk"
import struct, h5py
with h5py.File("far.h5") as f:
    d = f["particles/all/position/value"]
    assert d.chunks[0] == 2, d.chunks
    last = d.id.get_chunk_info(d.id.get_num_chunks() - 1).byte_offset
b = bytearray(open("far.h5", "rb").read())
tree = b.find(b"TREE\x01")  # the B-tree node of the chunks: the address follows each key
at = b.find(struct.pack("<Q", last), tree)
assert tree > 0 and at > tree
b[at:at + 8] = struct.pack("<Q", len(b) + 1000000)
open("far.h5", "wb").write(b)
PY
row 111 2 "far.h5: particles/all/position/value: \[2\] cannot read this frame (the chunk at \[2, 0, 0\]: 48000 bytes at byte [0-9]* end past the end of the file, [0-9]* bytes; truncated or damaged file?)" -- rdf far.h5 --rmax 5 --out far.xvg
grep -q "HDF5-DIAG" <<<"$last" && fail "row 111: HDF5 printed its error stack: $last"
none_left 111 far.xvg.tmp far.xvg.kmol-partial.h5.tmp
[[ -f far.xvg ]] && fail "row 111: wrote far.xvg"
[[ -s far.xvg.kmol-partial.h5 ]] || fail "row 111: the frames before the damaged one were not kept"
# The C API's RDF settings and results (kmol.h), through ctypes (tests/python/kmol_c.py).
c_library=$(dirname "$kmol")/libkmol_c.so
if [[ -f $c_library ]]; then
  PYTHONPATH=$(realpath "$(dirname "$0")/../python") /usr/bin/python3 - "$c_library" <<'PY' || fail "rows 100 to 107"
import sys
import numpy as np
from kmol_c import CError, CRdf, close_library, open_library
lib = open_library(sys.argv[1])
x, box = np.random.default_rng(8).uniform(0, 12, (80, 3)), np.diag([12.0] * 3)
def says(row, expected, call):
    try:
        call()
    except CError as e:
        assert e.status == 1 and expected in e.message, f"row {row}: {e}"
        return
    raise SystemExit(f"row {row}: accepted")
rdf = CRdf(lib, 5.0, 10)
says(100, "n_blocks: standard errors need blocks of frames: call kmol_rdf_set_blocks(rdf, n_blocks) before the first frame", rdf.std_error)
says(100, "n_blocks: 1 is no number of blocks: give 2 or more (a standard error needs two), or 0 (automatic)", lambda: rdf.set_blocks(1))
rdf.set_blocks(5)
rdf.add_frame(x, box=box)
rdf.add_frame(x, box=box)
says(101, "n_blocks: 5 blocks need at least 5 frames; 2 were added", rdf.std_error)
says(102, "n_blocks: blocks are chosen before the first frame, and 2 were added", lambda: rdf.set_blocks(2))
says(102, "plane: distances in a plane are chosen before the first frame, and 2 were counted in 3-D", lambda: rdf.set_plane("xy"))
says(102, "groups: centres are chosen before the first frame, and 2 were added", lambda: rdf.set_centres("a", np.zeros(80)))
free = CRdf(lib, 5.0, 10)
free.add_frame(x)
says(103, "kmol_rdf_kirkwood_buff: Kirkwood-Buff integrals need a periodic box: the box's volume sets the densities", free.kirkwood_buff)
says(104, "norm: rdf normalisation divides by the box's volume, and the frames have no box (box=NULL)", free.result)
flat = CRdf(lib, 5.0, 10)
flat.set_plane("xy")
flat.add_frame(x)
says(104, "norm: rdf normalisation divides by the box's area in the xy plane, and the frames have no box (box=NULL): give every frame its box, or use KMOL_NORM_DENSITY or KMOL_NORM_NONE", flat.result)
groups = np.repeat(np.arange(40), 2)
centred = CRdf(lib, 5.0, 10)
says(105, "masses: group 3 (atoms 6 to 7) weighs 0: a centre of mass needs a positive mass (masses NULL: centres of geometry)", lambda: centred.set_centres("a", groups, np.where(groups == 3, 0.0, 1.0)))
says(105, "groups: atom 4 is in group 0, whose atoms came before atom 3 of group 1: each group's atoms must be consecutive", lambda: centred.set_centres("a", [0, 0, 1, 1, 0]))
says(105, "bonds: bond 1 names atom 80: expected atom indices 0 to 79", lambda: centred.set_centres("a", groups, None, [[0, 1], [2, 80]]))
centred.set_centres("a", groups)
apart = x.copy()
apart[1] = apart[0] + [5.9, 5.9, 0]
says(106, "groups: molecule 0 cannot be made whole: without bonds in the topology its atoms are joined in file order, and atom 1 then lies 8.344 Angstrom from atom 0, beyond the largest sphere inside the box (6); give the group's bonds to kmol_rdf_set_centres", lambda: centred.add_frame(apart, box=box))
says(106, "xyz_a: 79 atoms, but kmol_rdf_set_centres gave groups of 80", lambda: centred.add_frame(x[:79], box=box))
assert centred.frames() == 0, "row 106: a refused frame was added"
excluding = CRdf(lib, 5.0, 10)
excluding.set_exclusions(np.zeros(80))
says(107, "labels_a/labels_b: every one of the 3160 pairs of the selections lies within one molecule, so none would be counted", lambda: excluding.add_frame(x, box=box))
excluding = CRdf(lib, 5.0, 10)
excluding.set_exclusions(groups)
says(107, "xyz_a: 79 atoms, but kmol_rdf_set_exclusions gave 80 labels", lambda: excluding.add_frame(x[:79], box=box))
says(107, "labels_a/labels_b: needs labels for both sets, or for neither", lambda: excluding.add_frame(x, x[:5], box=box))
assert excluding.frames() == 0, "row 107: a refused frame was added"
del rdf, free, flat, centred, excluding
close_library(lib)
PY
fi
echo "every mistake in docs/errors.md: ok"
