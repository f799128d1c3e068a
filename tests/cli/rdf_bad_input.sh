#!/usr/bin/env bash
# kmol rdf on bad input: a clear message naming file, dataset, frame or atom, a nonzero exit, and
# no output (nor temporary) file left behind.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
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
PY
echo "plain text" > text.h5
expect_error "missing.h5: no such file" missing.h5
expect_error "text.h5: not a trajectory kmol reads (H5MD, GROMACS XTC, TRR or TNG, AMBER NetCDF): it is text starting with .plain text." text.h5
expect_error "noparticles.h5: particles: no 'particles' group" noparticles.h5
expect_error "badshape.h5: particles/all/position/value: shape is \[3\]\[10\]\[2\], expected \[frames\]\[atoms\]\[3\]" badshape.h5
expect_error "nobox.h5: box: the trajectory has no periodic box.*--no-pbc" nobox.h5 --rmax 3
expect_error "exceeds the radius of the largest sphere inside the box of this frame (10.000000 Angstrom)" gas.h5 --rmax 11
expect_error "nan.h5: particles/all/position/value: \[2\] atom 7 has a non-finite coordinate" nan.h5 --rmax 4
expect_error "--sel1: 'name CA' selects no atoms\|--sel1: the trajectory has no names" gas.h5 --rmax 4 --sel1 'name CA'
expect_error "--sel2: 'index 9000:9999' selects no atoms" gas.h5 --rmax 4 --sel2 'index 9000:9999'
expect_error "--sel1: expected ')'" gas.h5 --rmax 4 --sel1 'species 0 and (index 0:9'
expect_error "unknown keyword 'nmae'" gas.h5 --rmax 4 --sel1 'nmae CA'
expect_error "--bins: must be positive, not 0" gas.h5 --rmax 4 --bins 0
expect_error "--bins: 2000000000 bins: the counts would need about .* GB" gas.h5 --rmax 4 --bins 2000000000
expect_error "--rmax: unknown length unit 'parsec' in '3parsec'" gas.h5 --rmax 3parsec
expect_error "furlong.h5: particles/all/position/value: unknown length unit 'furlong'" furlong.h5 --rmax 3
expect_error "truncated.h5: particles/all/position/step: \[2\] has only 2 entries for 3 frames (truncated file?)" truncated.h5 --rmax 4 --quiet
[[ -e out.xvg.kmol-partial.h5 ]] || fail "the frames read before the truncation were not kept for resuming"
# Lengths with units are accepted and converted:
"$kmol" rdf gas.h5 --rmax 0.5nm --bins 10 --quiet --out nm.xvg || fail "--rmax 0.5nm refused"
grep -q "range: \[0, 5) Angstrom" nm.xvg || fail "0.5nm was not read as 5 Angstrom"
echo "bad input refused cleanly"
