#!/usr/bin/env bash
# Maps other programs trust: kmol's MRC maps pass mrcfile's validator and read in gemmi with the
# header's statistics matching the data and nstart placing the map as the origin does; OpenDX
# and cube files carry the lattice to the last bit (against the HDF5 map's float64 attributes).
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
/usr/bin/python3 -c 'import mrcfile, gemmi' 2>/dev/null || { echo "needs python3-mrcfile and python3-gemmi"; exit 77; }
printf 'ATOM      1  C   ALA A   1       1.013   2.207   3.301  0.5000 2.0000\nATOM      2  C   ALA A   1       2.113   3.009   1.771 -0.2500 1.7000\nEND\n' > "$dir/two.pqr"
"$kmol" surf "$dir/two.pqr" --spacing 0.37 --device cpu --out "$dir/density.mrc" --mesh '' > "$dir/log" ||
  fail "surf: $(cat "$dir/log")"
"$kmol" potential "$dir/two.pqr" --spacing 0.37 --padding 3.3 --device cpu --out "$dir/p.dx" > "$dir/log" ||
  fail "potential dx: $(cat "$dir/log")"
"$kmol" potential "$dir/two.pqr" --spacing 0.37 --padding 3.3 --device cpu --out "$dir/p.h5" > "$dir/log" ||
  fail "potential h5: $(cat "$dir/log")"
"$kmol" orbital --example water --spacing 0.37 --padding 3.3 --device cpu --out "$dir/o.cube" > "$dir/log" ||
  fail "orbital cube: $(cat "$dir/log")"
"$kmol" orbital --example water --spacing 0.37 --padding 3.3 --device cpu --out "$dir/o.dx" > "$dir/log" ||
  fail "orbital dx: $(cat "$dir/log")"
/usr/bin/python3 - "$dir" <<'PY' || fail "map readers"
import sys, io, contextlib, mrcfile, gemmi, h5py, numpy as np
d = sys.argv[1]
log = io.StringIO()
with contextlib.redirect_stdout(log):
    valid = mrcfile.validate(d + "/density.mrc")
assert valid, log.getvalue()
with mrcfile.open(d + "/density.mrc") as m:
    data = m.data.astype(np.float64)
    h = m.header
    assert np.isclose(h.rms, data.std(), rtol=1e-5), (h.rms, data.std())
    assert np.isclose(h.dmean, data.mean(), rtol=1e-5) and h.dmin == data.min() and h.dmax == data.max()
    voxel = np.array([m.voxel_size.x, m.voxel_size.y, m.voxel_size.z], dtype=float)
    origin = np.array([h.origin.x, h.origin.y, h.origin.z], dtype=float)
    nstart = np.array([h.nxstart, h.nystart, h.nzstart], dtype=float)
    assert np.all(np.abs(nstart * voxel - origin) <= 0.5 * voxel + 1e-6), (nstart, voxel, origin)
g = gemmi.read_ccp4_map(d + "/density.mrc")
assert [g.header_i32(i) for i in (5, 6, 7)] == [int(x) for x in nstart]
assert np.isclose(g.header_float(55), data.std(), rtol=1e-5)
# gemmi places the map in its unit cell by nstart: value (i, j, k) at grid point nstart + (i, j, k).
g.setup(float("nan"))
shift = tuple(int(x) for x in nstart)
assert np.allclose(np.array(g.grid, copy=False), np.roll(data.transpose(2, 1, 0), shift, axis=(0, 1, 2)))
# OpenDX and cube: the lattice exactly as the HDF5 map's float64 attributes give it.
p = h5py.File(d + "/p.h5")["potential"]
origin, delta = p.attrs["origin"], p.attrs["delta"]
lines = open(d + "/p.dx").read().splitlines()
dx_origin = [float(x) for x in next(l for l in lines if l.startswith("origin")).split()[1:]]
dx_delta = [float(l.split()[1 + i]) for i, l in enumerate(l for l in lines if l.startswith("delta"))]
assert dx_origin == list(origin) and dx_delta == list(delta), (dx_origin, origin, dx_delta, delta)
bohr = 0.529177210903
cube = open(d + "/o.cube").read().splitlines()
odx = open(d + "/o.dx").read().splitlines()
o_origin = [float(x) for x in next(l for l in odx if l.startswith("origin")).split()[1:]]
c_origin = [float(x) * bohr for x in cube[2].split()[1:4]]
c_delta = float(cube[3].split()[1]) * bohr
assert np.allclose(c_origin, o_origin, rtol=1e-15, atol=1e-14) and abs(c_delta - 0.37) < 1e-15, (c_origin, o_origin, c_delta)
PY
echo "maps read by mrcfile, gemmi and at full precision: ok"
