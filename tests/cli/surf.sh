#!/usr/bin/env bash
# kmol surf end to end: one atom's density (OpenDX, HDF5 in float and half, MRC), its isosurface
# as PLY and OBJ with the sphere's area and volume, the same surface from the written map
# (--map), slabs giving the same surface, an H5MD frame with a topology, and the slice plot.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
# One atom of radius 2: rho = exp(-r^2 / 8), so rho = 0.5 on the sphere r = 2 sqrt(2 ln 2) = 2.3548 A.
printf 'ATOM      1  C   ALA A   1       1.000   2.000   3.000  0.0000 2.0000\nEND\n' > "$dir/one.pqr"
"$kmol" surf "$dir/one.pqr" --spacing 0.1 --device cpu --out "$dir/one.dx" --mesh "$dir/one.ply" --plot "$dir/slice.png" \
  > "$dir/log" || fail "surf: $(cat "$dir/log")"
area() { sed -n 's/.*area \([0-9.e+]*\) A^2, volume \([0-9.e+]*\) A^3, closed.*/\1 \2/p' "$1"; }
read -r a v <<<"$(area "$dir/log")"
awk -v a="$a" -v v="$v" 'BEGIN { r = 2 * sqrt(2 * log(2)); pi = atan2(0, -1);
  exit !(a > 0.99 * 4 * pi * r * r && a < 1.01 * 4 * pi * r * r && v > 0.99 * 4 / 3 * pi * r^3 && v < 1.01 * 4 / 3 * pi * r^3) }' ||
  fail "sphere area/volume: $(cat "$dir/log")"
head -c 200 "$dir/one.ply" | grep -q 'format binary_little_endian 1.0' || fail "PLY header"
[[ $(head -c 8 "$dir/slice.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no PNG written"
# The written map triangulated again: the same surface.
"$kmol" surf --map "$dir/one.dx" --iso 0.5 --device cpu --mesh "$dir/again.obj" > "$dir/log2" || fail "surf --map: $(cat "$dir/log2")"
read -r a2 v2 <<<"$(area "$dir/log2")"
awk -v a="$a" -v b="$a2" 'BEGIN { exit !(b > 0.9999 * a && b < 1.0001 * a) }' || fail "--map area $a2 vs $a"
grep -q '^f [0-9]*//[0-9]* ' "$dir/again.obj" || fail "OBJ faces"
# Slabs (a tiny memory budget) give the same surface; MRC and half-precision HDF5 maps.
"$kmol" surf "$dir/one.pqr" --spacing 0.1 --device cpu --memory-budget 20000 --out "$dir/one.mrc" --mesh "$dir/slab.ply" \
  > "$dir/log3" || fail "slabs: $(cat "$dir/log3")"
grep -q 'slabs' "$dir/log3" || fail "no slabs: $(cat "$dir/log3")"
[[ "$(area "$dir/log3")" == "$a $v" ]] || fail "slab surface $(area "$dir/log3") vs $a $v"
cmp -s "$dir/one.ply" "$dir/slab.ply" || fail "slab mesh differs"
"$kmol" surf --map "$dir/one.mrc" --device cpu --mesh "$dir/mrc.ply" > "$dir/log4" || fail "surf --map mrc: $(cat "$dir/log4")"
cmp -s "$dir/one.ply" "$dir/mrc.ply" || fail "mesh from the MRC map differs"
"$kmol" surf "$dir/one.pqr" --spacing 0.5 --padding 5 --storage half --out "$dir/half.h5" --mesh '' > "$dir/log5" || fail "half: $(cat "$dir/log5")"
/usr/bin/python3 - "$dir/half.h5" <<'PY' || fail "half HDF5 map"
import sys, h5py, numpy as np
d = h5py.File(sys.argv[1])["density"]
assert d.dtype == np.float16, d.dtype
v = d[()].astype(np.float64)
assert abs(v.max() - 1) < 2e-3 and v.min() >= 0, (v.max(), v.min())
assert np.allclose(d.attrs["delta"], 0.5)
PY
# Radii by element from a PDB, and an H5MD frame with a PDB topology.
printf 'ATOM      1  O   HOH A   1       0.000   0.000   0.000  1.00  0.00           O\nATOM      2  H1  HOH A   1       0.957   0.000   0.000  1.00  0.00           H\nATOM      3  H2  HOH A   1      -0.240   0.927   0.000  1.00  0.00           H\nEND\n' > "$dir/water.pdb"
"$kmol" surf "$dir/water.pdb" --spacing 0.2 --device cpu --mesh "$dir/w.ply" > "$dir/log6" || fail "pdb: $(cat "$dir/log6")"
grep -q 'closed' "$dir/log6" || fail "water surface not closed: $(cat "$dir/log6")"
PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$dir/water.h5md" <<'PY' || fail "writing the H5MD input"
import sys
from h5md_file import write_unboxed
write_unboxed(sys.argv[1], [[[0, 0, 0], [0.957, 0, 0], [-0.240, 0.927, 0]]] * 2)
PY
"$kmol" surf "$dir/water.h5md" --top "$dir/water.pdb" --frame 1 --spacing 0.2 --device cpu --mesh "$dir/h.ply" > "$dir/log7" ||
  fail "h5md: $(cat "$dir/log7")"
[[ "$(area "$dir/log7")" == "$(area "$dir/log6")" ]] || fail "H5MD frame surface $(area "$dir/log7") vs PDB $(area "$dir/log6")"
[[ -z $(ls "$dir" | grep tmp) ]] || fail "temporary files left: $(ls "$dir")"
# Bad input names the field.
expect_refusal "either a structure or --map" "$kmol" surf "$dir/one.pqr" --map "$dir/one.dx"
expect_refusal "spacing" "$kmol" surf "$dir/one.pqr" --spacing 0
expect_refusal "threshold" "$kmol" surf "$dir/one.pqr" --threshold 2
expect_refusal "mesh" "$kmol" surf "$dir/one.pqr" --mesh "$dir/x.stl"
printf 'garbage\n' > "$dir/bad.mrc"
expect_refusal "bad.mrc.*header" "$kmol" surf --map "$dir/bad.mrc"
printf 'object 1 class gridpositions counts 2 2 2\norigin 0 0 0\ndelta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\nobject 3 class array type double rank 0 items 8 data follows\n1 2 3\n' > "$dir/short.dx"
expect_refusal "short.dx.*data" "$kmol" surf --map "$dir/short.dx"
echo "surf: area $a A^2, volume $v A^3"
