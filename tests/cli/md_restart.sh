#!/usr/bin/env bash
# kmol md end to end: an FCC start, an H5MD trajectory with a thermodynamic log, a restart that
# continues the same trajectory, --steps 0 --write-forces, and clear errors for bad input.
set -euo pipefail
kmol=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out"
"$kmol" md --atoms 500 --steps 40 --every 20 --log-every 10 --out straight.h5 --log straight.csv --quiet 2>rounding.txt
if grep -qF "rounded" rounding.txt; then echo "500 atoms is a full lattice"; exit 1; fi
"$kmol" md --atoms 500 --steps 20 --every 20 --out first.h5 --log first.csv --quiet
"$kmol" md --restart first.h5 --steps 20 --every 20 --out second.h5 --log second.csv --quiet
"$kmol" md --atoms 500 --steps 0 --write-forces --out zero.h5 --log zero.csv --quiet
"$kmol" md --atoms 490 --steps 0 --log rounded.csv --quiet 2>rounding.txt
grep -qF "rounded to a full FCC lattice of 5^3 cells: 500 atoms" rounding.txt
[[ $(grep -vc '^#' straight.csv) -eq 6 ]]  # header and steps 0, 10, 20, 30, 40
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
s = h5py.File("straight.h5", "r"); b = h5py.File("second.h5", "r"); z = h5py.File("zero.h5", "r")
pos = lambda f: f["particles/all/position/value"]
assert pos(s).shape == (3, 500, 3), pos(s).shape
assert list(b["particles/all/position/step"][:]) == [20, 40], b["particles/all/position/step"][:]
# The restart continues the trajectory: same atoms at step 40 as the uninterrupted run.
L = s["particles/all/box/edges/value"][-1].diagonal()
d = pos(b)[-1] - pos(s)[-1]; d -= L * np.round(d / L)
assert np.abs(d).max() < 1e-8, np.abs(d).max()
e = s["observables/total_energy/value"][:]
assert np.ptp(e) < 1e-3, e
assert "force" in z["particles/all"] and z["particles/all/force/value"].shape == (1, 500, 3)
assert abs(z["particles/all/force/value"][0]).max() < 1e-9  # a perfect crystal
PY
# Bad input: non-zero exit and a message naming the field.
if "$kmol" md --atoms 500 --density -1 --steps 1 --log bad.csv --quiet 2>err.txt; then exit 1; fi
grep -q "density" err.txt
if "$kmol" md --atoms 32 --steps 1 --log bad.csv --quiet 2>err.txt; then exit 1; fi
grep -q "box" err.txt
if "$kmol" md --atoms 500 --impl warp --steps 1 --log bad.csv --quiet 2>err.txt; then exit 1; fi
grep -q "impl" err.txt
[[ ! -e bad.csv && ! -e bad.csv.tmp ]]
