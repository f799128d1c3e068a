#!/usr/bin/env bash
# kmol potential end to end: a PQR in both forms, OpenDX in APBS' dialect with the right values,
# an HDF5 map, and the heat map of a plane.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
# Two charges 3 A apart: one in pdb2pqr's columns, one in APBS' whitespace form.
printf 'REMARK two ions\nATOM      1  NA  ION A   1       0.000   0.000   0.000  1.0000 1.8000\nATOM 2 CL ION 2 3 0 0 -1 2.0\nEND\n' > "$dir/ions.pqr"
"$kmol" potential "$dir/ions.pqr" --spacing 1 --origin -1 0 0 --counts 6 1 1 --units V --precision double \
  --out "$dir/ions.dx" > "$dir/log" || fail "direct run: $(cat "$dir/log")"
grep -q '^object 1 class gridpositions counts 6 1 1$' "$dir/ions.dx" || fail "DX header"
grep -q '^origin -1 0 0$' "$dir/ions.dx" || fail "DX origin"
grep -q '^object 3 class array type double rank 0 items 6 data follows$' "$dir/ions.dx" || fail "DX items"
grep -q '^component "data" value 3$' "$dir/ions.dx" || fail "DX trailer"
# At x = 1: 14.3996 (1/1 - 1/2) = 7.1998 V; at x = 2: 14.3996 (1/2 - 1) = -7.1998 V.
values=$(sed -n '/data follows/,/^attribute/p' "$dir/ions.dx" | sed '1d;$d' | tr -s ' \n' ' ')
read -r -a v <<<"$values"
[[ ${#v[@]} -eq 6 ]] || fail "expected 6 values, got '$values'"
awk -v a="${v[2]}" -v b="${v[3]}" 'BEGIN { exit !(a > 7.1997 && a < 7.1999 && b < -7.1997 && b > -7.1999) }' ||
  fail "values at x = 1, 2: ${v[2]} ${v[3]}"
[[ ! -e $dir/ions.dx.tmp ]] || fail "temporary file left"
"$kmol" potential "$dir/ions.pqr" --method mdh --faces-only --spacing 1 --padding 3 --out "$dir/ions.h5" \
  --plot "$dir/plane.png" > "$dir/log" || fail "mdh run: $(cat "$dir/log")"
/usr/bin/python3 - "$dir/ions.h5" <<'PY' || fail "HDF5 map"
import sys, h5py, numpy as np
d = h5py.File(sys.argv[1])["potential"]
assert d.shape == (10, 7, 7), d.shape
units = d.attrs["units"]
assert (units.decode() if isinstance(units, bytes) else units) == "kT/e", units
assert np.allclose(d.attrs["delta"], 1)
v = d[()]
assert np.all(v[1:-1, 1:-1, 1:-1] == 0) and np.all(v[0] != 0)  # faces only
PY
[[ $(head -c 8 "$dir/plane.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no PNG written"
# The same two ions as frame 1 of an H5MD file with a charge dataset.
PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$dir/ions.h5md" <<'PY' || fail "writing the H5MD input"
import sys
from h5md_file import write_unboxed
write_unboxed(sys.argv[1], [[[9, 9, 9], [9, 9, 9]], [[0, 0, 0], [3, 0, 0]]], charges=[1.0, -1.0])
PY
"$kmol" potential "$dir/ions.h5md" --frame 1 --spacing 1 --origin -1 0 0 --counts 6 1 1 --units V --precision double \
  --out "$dir/h5md.dx" > "$dir/log" || fail "H5MD run: $(cat "$dir/log")"
cmp <(sed -n '/data follows/,$p' "$dir/ions.dx") <(sed -n '/data follows/,$p' "$dir/h5md.dx") || fail "H5MD map differs from PQR map"
# The built-in waters: neutral, 0.1 atoms / A^3, a finite map without an input file.
"$kmol" potential --example water --atoms 3000 --method cutoff --cutoff 8 --spacing 2 \
  --out "$dir/water.h5" > "$dir/log" || fail "example run: $(cat "$dir/log")"
grep -q '^3000 atoms (total charge +0.0000 e), lattice 2[0-9] x 2[0-9] x 2[0-9] at 2 A' "$dir/log" ||
  fail "example water: $(cat "$dir/log")"
/usr/bin/python3 - "$dir/water.h5" <<'PY' || fail "example water map"
import sys, h5py, numpy as np
v = h5py.File(sys.argv[1])["potential"][()]
assert np.all(np.isfinite(v)) and np.count_nonzero(v) > 0.3 * v.size and v.min() < 0 < v.max()
PY
echo "potential maps written"
