#!/usr/bin/env bash
# kmol md continues from GROMACS files: a frame of kmol's own run, turned into a TRR by Debian's
# gmx (positions and velocities at the g96 format's 1e-9 nm, then TRR floats), continues the
# uninterrupted run, as does the frame written as AMBER NetCDF by MDAnalysis (when installed); the
# last frame with velocities is chosen, as gmx grompp -t does; an XTC, which stores no velocities,
# starts from fresh ones at --temperature and says so.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
"$kmol" info | grep -q "GROMACS XTC, TRR, TNG" || { echo "kmol built without libgromacs: skipped"; exit 77; }
command -v gmx >/dev/null || { echo "no gmx (Debian package gromacs): skipped"; exit 77; }
cd "$dir"
run() { "$kmol" md --every 20 --quiet "$@" 2>>stderr.txt || fail "kmol md $*: $(tail -3 stderr.txt)"; }
run --atoms 500 --steps 40 --out straight.h5 --log straight.csv
run --atoms 500 --steps 20 --out first.h5 --log first.csv
# The last frame of first.h5 in nm and nm/ps, through gmx trjconv into TRR (and XTC).
/usr/bin/python3 - <<'PY' || fail "could not write the g96 frame"
import h5py
g = h5py.File("first.h5", "r")["particles/all"]
x, v = g["position/value"][-1] / 10, g["velocity/value"][-1] / 10
box = g["box/edges/value"][-1].diagonal() / 10
with open("last.g96", "w") as out:
    out.write("TITLE\nkmol md\nEND\nTIMESTEP\n%15d%15.6f\nEND\n" % (g["position/step"][-1], g["position/time"][-1]))
    out.write("POSITIONRED\n" + "".join("%15.9f%15.9f%15.9f\n" % tuple(p) for p in x) + "END\n")
    out.write("VELOCITYRED\n" + "".join("%15.9f%15.9f%15.9f\n" % tuple(p) for p in v) + "END\n")
    out.write("BOX\n%15.9f%15.9f%15.9f\nEND\n" % tuple(box))
PY
gmx_quiet() { gmx -quiet "$@" </dev/null >>gmx.log 2>&1 || fail "gmx $*: $(tail -5 gmx.log)"; }
gmx_quiet trjconv -f last.g96 -o last.trr
gmx_quiet trjconv -f last.g96 -o last.xtc
# A TRR whose last frame has positions only (GROMACS writes x and v at their own intervals).
gmx_quiet trjconv -f last.xtc -o positions.trr -t0 0.2
gmx_quiet trjcat -f last.trr positions.trr -o mixed.trr -cat

run --restart last.trr --steps 20 --out from-trr.h5 --log from-trr.csv
grep -q "restarting from last.trr (GROMACS TRR) frame 0 (step 20, 500 atoms), with its velocities$" stderr.txt ||
  fail "the TRR restart does not say what it read: $(cat stderr.txt)"
run --restart mixed.trr --steps 20 --out from-mixed.h5 --log from-mixed.csv
grep -q "restarting from mixed.trr (GROMACS TRR) frame 0 .*, with its velocities (the last frame that has them; frame 1 has positions only)" stderr.txt ||
  fail "the mixed TRR restart did not take the last frame with velocities: $(cat stderr.txt)"
run --restart last.xtc --steps 20 --out from-xtc.h5 --log from-xtc.csv
grep -q "restarting from last.xtc (GROMACS XTC) frame 0 .*; the file stores no velocities: fresh Maxwell-Boltzmann velocities at --temperature 0.72" stderr.txt ||
  fail "the XTC restart does not say its velocities are fresh: $(cat stderr.txt)"
# The same frame as AMBER NetCDF with velocities, written by MDAnalysis' own writer.
names=(from-trr.h5 from-mixed.h5)
if /usr/bin/python3 -c 'import MDAnalysis' 2>/dev/null; then
  /usr/bin/python3 -W ignore - <<'PY' || fail "MDAnalysis could not write the NetCDF frame"
import MDAnalysis as mda
u = mda.Universe.empty(500, trajectory=True)
u.load_new("last.trr")
with mda.Writer("last.nc", n_atoms=500, velocities=True) as w:
    w.write(u.atoms)
PY
  run --restart last.nc --steps 20 --out from-nc.h5 --log from-nc.csv
  grep -q "restarting from last.nc (AMBER NetCDF) frame 0 .*, with its velocities$" stderr.txt ||
    fail "the NetCDF restart does not say it read velocities: $(cat stderr.txt)"
  names+=(from-nc.h5)
fi
export CONTINUED="${names[*]}"

/usr/bin/python3 - <<'PY' || fail "the restarts do not continue as they should"
import h5py, numpy as np, os
s = h5py.File("straight.h5", "r")
pos = lambda f: f["particles/all/position/value"]
L = s["particles/all/box/edges/value"][-1].diagonal()
def gap(name):
    f = h5py.File(name, "r")
    steps = list(f["particles/all/position/step"][:])  # AMBER NetCDF stores no step: from 0
    assert steps in ([20, 40], [0, 20]), (name, steps)
    d = pos(f)[-1] - pos(s)[-1]; d -= L * np.round(d / L)
    return np.abs(d).max()
# TRR and NetCDF store floats: the continuation follows the uninterrupted run to float rounding,
# grown over 20 steps; fresh velocities move atoms about 0.1 sigma away in the same time.
for name in os.environ["CONTINUED"].split():
    assert gap(name) < 1e-5, (name, gap(name))
assert gap("from-xtc.h5") > 1e-2, gap("from-xtc.h5")
print("TRR continuation within", gap("from-trr.h5"), "of the uninterrupted run; XTC", gap("from-xtc.h5"))
PY
echo "md_restart_gromacs: all checks passed"
