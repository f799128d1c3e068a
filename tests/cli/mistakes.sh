#!/usr/bin/env bash
# Every row of docs/errors.md's table: a user's mistake, what kmol says, its exit code and what
# is left on disk. Rows are numbered as in the table.
set -uo pipefail
kmol=$(realpath "$1")
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
stopped() {
  local n=$1 signal=$2 after=$3 code=$4; shift 5
  "$kmol" "$@" > "stop$n.log" 2>&1 &
  local pid=$!
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
row 7 2 "not enough .*--spacing 0.001, or add --force" -- potential two.pqr --spacing 0.001 --out big.dx
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
/usr/bin/python3 - <<'PY' || fail "setup: the axial Molden file"
import math
lines, out, section, factors = open("c60.molden").read().splitlines(), [], "", []
ratio = {"xx": 1, "yy": 1, "zz": 1, "xy": 1 / 3, "xz": 1 / 3, "yz": 1 / 3}
for line in lines:
    w = line.split()
    if line.startswith("["):
        section = line.split("]")[0].lower() + "]"
    elif section == "[gto]" and len(w) >= 2 and w[0].lower() in ("s", "p", "d", "sp"):
        kind = w[0].lower()
        factors += [1.0] * {"s": 1, "p": 3, "sp": 4}.get(kind, 0)
        if kind == "d":
            factors += [math.sqrt(r) for r in ratio.values()]
    elif section == "[mo]" and len(w) == 2 and w[0].isdigit():
        line = f" {w[0]} {float(w[1]) / factors[int(w[0]) - 1]:.15e}"
    out.append(line)
assert "[5d" not in "\n".join(lines).lower() and any(f != 1 for f in factors)
open("axial.molden", "w").write("\n".join(out) + "\n")
PY
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
row 21 2 "not enough memory: .*--spacing 0.01, or add --force" -- surf wide.pdb --spacing 0.01
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
sleep 2
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

# A NetCDF header libnetcdf would trust: one dimension, a global attribute of type 77.
printf 'CDF\x01\0\0\0\0\0\0\0\x0a\0\0\0\x01\0\0\0\x04atom\0\0\0\x0a\0\0\0\x0c\0\0\0\x01\0\0\0\x0bConventions\0\0\0\0\x4d\0\0\0\x05AMBER\0\0\0\0\0\0\0\0\0\0\0' > damaged.nc
row 38 2 "damaged.nc: attribute type: damaged NetCDF header at byte 56: type 77 (expected 1 to 6)" -- rdf damaged.nc --rmax 5 --out damaged.xvg
none_left 38 damaged.xvg

row 39 2 "water.molden: --iso: the isosurfaces psi = +-100 of the orbital are empty: its values lie in \[-0.4.*no mesh written to orb.ply (lower --iso, or add --allow-empty)" -- orbital water.molden --spacing 0.5 --iso 100 --mesh orb.ply --out orb.cube
none_left 39 orb.ply orb.cube
row 39 0 "+ lobe: 0 triangles" -- orbital water.molden --spacing 0.5 --iso 100 --mesh orb.ply --out orb.cube --allow-empty
row 39 2 "\-\-allow-empty: applies only with --mesh" -- orbital water.molden --spacing 0.5 --out orb.cube --allow-empty
echo "every mistake in docs/errors.md: ok"
