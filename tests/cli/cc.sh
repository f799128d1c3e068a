#!/usr/bin/env bash
# kmol cc end to end: a model against a map made from it (high), against its own simulated map
# (exactly 1), with a threshold, the local map and the plot; a per-frame timeline over an H5MD
# trajectory (CSV + PNG); bad input named.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
# A 40-atom helix-like chain.
PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$dir" <<'PY' || fail "writing the model"
import sys, math, numpy as np
from h5md_file import write_unboxed
d = sys.argv[1]
xyz = np.round(np.array([[2.3 * math.cos(1.745 * i), 2.3 * math.sin(1.745 * i), 1.5 * i] for i in range(40)]), 3)
with open(f"{d}/model.pdb", "w") as f:
    for i, (x, y, z) in enumerate(xyz):
        f.write(f"ATOM  {i + 1:5d}  CA  ALA A{i + 1:4d}    {x:8.3f}{y:8.3f}{z:8.3f}  1.00  0.00           C\n")
rng = np.random.default_rng(1)
frames = np.array([xyz + 0.4 * k * rng.standard_normal(xyz.shape) for k in range(5)], dtype=np.float32)
write_unboxed(f"{d}/traj.h5md", frames, dt=2.0)
PY
"$kmol" surf "$dir/model.pdb" --spacing 1.5 --padding 8 --device cpu --out "$dir/ref.mrc" --mesh '' > "$dir/log" ||
  fail "reference map: $(cat "$dir/log")"
"$kmol" cc "$dir/model.pdb" --ref "$dir/ref.mrc" --resolution 5 --device cpu --sim "$dir/sim.mrc" --local "$dir/local.dx" \
  --plot "$dir/local.png" > "$dir/log" || fail "cc: $(cat "$dir/log")"
cc=$(sed -n 's/.*: cc \([-0-9.]*\) over.*/\1/p' "$dir/log")
awk -v c="$cc" 'BEGIN { exit !(c > 0.8 && c < 1) }' || fail "model vs its element-radius map: cc $cc"
grep -q 'object 1 class gridpositions' "$dir/local.dx" || fail "local map"
[[ $(head -c 8 "$dir/local.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no local PNG"
"$kmol" cc "$dir/model.pdb" --ref "$dir/sim.mrc" --resolution 5 --device cpu > "$dir/log" || fail "cc self: $(cat "$dir/log")"
grep -q ': cc 1.000000 over' "$dir/log" || fail "model vs its own simulated map: $(cat "$dir/log")"
"$kmol" cc "$dir/model.pdb" --ref "$dir/ref.mrc" --resolution 5 --threshold 0.2 --device cpu > "$dir/log" ||
  fail "cc threshold: $(cat "$dir/log")"
grep -q 'voxels above 0.2' "$dir/log" || fail "threshold not reported: $(cat "$dir/log")"
# Frame k is the model displaced by 0.4 k A per coordinate: the cc falls frame by frame.
"$kmol" cc "$dir/traj.h5md" --ref "$dir/sim.mrc" --resolution 5 --device cpu --timeline "$dir/cc.csv" --plot "$dir/cc.png" \
  > "$dir/log" || fail "timeline: $(cat "$dir/log")"
/usr/bin/python3 - "$dir/cc.csv" <<'PY' || fail "timeline CSV: $(cat "$dir/cc.csv")"
import sys, numpy as np
rows = [l for l in open(sys.argv[1]) if not l.startswith("#")]
t = np.genfromtxt(rows, delimiter=",", names=True)
assert list(t["frame"]) == [0, 1, 2, 3, 4] and list(t["time"]) == [0, 2, 4, 6, 8], t
assert abs(t["cc"][0] - 1) < 1e-6 and all(np.diff(t["cc"]) < 0), t["cc"]
PY
[[ $(head -c 8 "$dir/cc.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no timeline PNG"
# Frames as every trajectory command chooses them: a slice with negative indices, or gmx's times.
frames_of() {
  "$kmol" cc "$dir/traj.h5md" --ref "$dir/sim.mrc" --resolution 5 --device cpu --timeline "$dir/pick.csv" "$@" \
    > "$dir/log" || fail "timeline $*: $(cat "$dir/log")"
  grep -v '^#' "$dir/pick.csv" | tail -n +2 | cut -d, -f1 | tr '\n' ' '
}
[[ $(frames_of --frames -3:) == "2 3 4 " ]] || fail "--frames -3: picked $(frames_of --frames -3:)"
[[ $(frames_of --begin 2 --end 8 --dt 4) == "2 4 " ]] || fail "--begin 2 --end 8 --dt 4 picked $(frames_of --begin 2 --end 8 --dt 4)"
"$kmol" cc "$dir/traj.h5md" --ref "$dir/sim.mrc" --resolution 5 --device cpu --frames -1 > "$dir/log" ||
  fail "cc --frames -1: $(cat "$dir/log")"
if "$kmol" cc "$dir/traj.h5md" --ref "$dir/sim.mrc" --resolution 5 --timeline "$dir/x.csv" --first 1 2> "$dir/err"; then
  fail "--first accepted"
fi
grep -q -- '--first: frames are chosen with --frames' "$dir/err" || fail "--first: $(cat "$dir/err")"
expect_refusal "resolution" "$kmol" cc "$dir/model.pdb" --ref "$dir/ref.mrc" --resolution 0
printf 'not a map' > "$dir/bad.map"
expect_refusal "bad.map" "$kmol" cc "$dir/model.pdb" --ref "$dir/bad.map" --resolution 5
# An AMBER NetCDF trajectory in nanometres whose frame 1 holds a coordinate that is finite as
# stored but not once scaled to Angstrom in single precision: refused naming the file and frame,
# no timeline written.
/usr/bin/python3 - "$dir" <<'PY' || fail "writing the NetCDF trajectory"
import sys, numpy as np
from scipy.io import netcdf_file
d = sys.argv[1]
xyz = np.array([[float(v) for v in (l[30:38], l[38:46], l[46:54])] for l in open(f"{d}/model.pdb")], dtype=np.float32) / 10
with netcdf_file(f"{d}/far.nc", "w", version=1) as f:
    f.Conventions = "AMBER"
    f.createDimension("frame", None)
    f.createDimension("atom", len(xyz))
    f.createDimension("spatial", 3)
    c = f.createVariable("coordinates", "f", ("frame", "atom", "spatial"))
    c.units = "nanometer"
    c[0] = xyz
    c[1] = xyz
    c[1, 0, 0] = 3e38
PY
expect_refusal "far.nc: frame: \[1\] atom 0 has a non-finite coordinate" \
  "$kmol" cc "$dir/far.nc" --ref "$dir/sim.mrc" --resolution 5 --device cpu --timeline "$dir/far.csv"
[[ ! -e $dir/far.csv ]] || fail "a refused timeline was written: $(cat "$dir/far.csv")"
echo "cc: model vs element-radius map $cc"
