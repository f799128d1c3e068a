#!/usr/bin/env bash
# kmol orbital end to end: the water example written as a Molden file and read back, a Gaussian
# cube and an OpenDX map of the same orbital (values, header, atoms), the plane's heat map, and
# refusals of malformed Molden files naming the file, field and line.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
"$kmol" orbital --example water --write-molden "$dir/water.molden" --mo homo --spacing 0.25 --padding 3 \
  --out "$dir/example.cube" > "$dir/log" || fail "example run: $(cat "$dir/log")"
grep -q "norm (analytic) 1.000000" "$dir/log" || fail "the example's HOMO is not normalised: $(cat "$dir/log")"
"$kmol" orbital "$dir/water.molden" --mo 5 --spacing 0.25 --padding 3 --out "$dir/water.cube" \
  --plot "$dir/plane.png" --plot-axis x > "$dir/log" || fail "file run: $(cat "$dir/log")"
grep -q "G basis-function evaluations/s" "$dir/log" || fail "no rate: $(cat "$dir/log")"
# The values (after the 2 titles, the 4 lattice lines and the 3 atoms); the lattice comes from
# the atoms, which the Molden file keeps to 1e-6 A only.
cmp -s <(tail -n +10 "$dir/example.cube") <(tail -n +10 "$dir/water.cube") || fail "file and example cubes differ"
"$kmol" orbital "$dir/water.molden" --mo homo --spacing 0.25 --padding 3 --precision double --out "$dir/water.dx" \
  > "$dir/log" || fail "dx run: $(cat "$dir/log")"
[[ $(head -c 8 "$dir/plane.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no PNG written"
# The HOMO (O 2p_x) by marching cubes: two closed lobes of equal area, mirror images in x = 0.
"$kmol" orbital "$dir/water.molden" --mo homo --spacing 0.1 --padding 3 --out "$dir/homo.cube" --iso 0.05 \
  --mesh "$dir/homo.ply" > "$dir/log" || fail "mesh run: $(cat "$dir/log")"
grep -q "wrote $dir/homo.ply" "$dir/log" || fail "no mesh: $(cat "$dir/log")"
/usr/bin/python3 - "$(cat "$dir/log")" <<'PY' || fail "lobes: $(cat "$dir/log")"
import re, sys
lobes = re.findall(r"([+-]) lobe: (\d+) triangles, area ([0-9.e+-]+) A\^2, volume ([0-9.e+-]+) A\^3(.*?)(;|$)", sys.argv[1])
assert len(lobes) == 2, lobes
(_, t1, a1, v1, open1, _), (_, t2, a2, v2, open2, _) = lobes
assert int(t1) > 100 and not open1.strip() and not open2.strip(), lobes
assert abs(float(a1) - float(a2)) < 1e-3 * float(a1) and abs(float(v1) - float(v2)) < 1e-3 * float(v1), lobes
assert float(v1) > 0, lobes
PY
[[ $(head -c 3 "$dir/homo.ply") == ply ]] || fail "not a PLY file"
[[ ! -e $dir/water.cube.tmp && ! -e $dir/water.dx.tmp ]] || fail "temporary file left"
/usr/bin/python3 - "$dir/water.cube" "$dir/water.dx" <<'PY' || fail "cube and dx contents"
import sys, numpy as np
lines = open(sys.argv[1]).read().splitlines()
natoms, *origin = lines[2].split()
assert int(natoms) == 3, natoms
counts = [int(lines[i].split()[0]) for i in (3, 4, 5)]
h = float(lines[3].split()[1])  # bohr
assert abs(h - 0.25 / 0.529177210903) < 1e-5, h
assert lines[6].split()[0] == "8" and lines[7].split()[0] == "1", lines[6:9]
cube = np.array(" ".join(lines[9:]).split(), dtype=float).reshape(counts)  # x, y, z (z fastest)
# The norm on this coarse lattice is already near 1 (STO-3G's core needs finer ones for 1%).
assert 0.8 < (cube ** 2).sum() * h ** 3 < 1.2, (cube ** 2).sum() * h ** 3
dx = open(sys.argv[2]).read().split("data follows")[1].split("attribute")[0]
dx = np.array(dx.split(), dtype=float).reshape(counts)
assert np.allclose(cube, dx, rtol=1e-4, atol=1e-6 * abs(cube).max()), abs(cube - dx).max()
PY
out=$dir/out.cube
sed 's/^\[Atoms\] Angs/[Atoms] Furlongs/' "$dir/water.molden" > "$dir/units.molden"
expect_error "units.molden: \[Atoms\] units: \[4\] line 4: expected Angs or AU" orbital "$dir/units.molden"
sed '0,/^ s   3/s// h   3/' "$dir/water.molden" > "$dir/shell.molden"
expect_error "shell.molden: \[GTO\] shell type: \[10\] line 10: expected s, p, sp, d, f or g, found 'h'" orbital "$dir/shell.molden"
sed 's/^    7 /    9 /' "$dir/water.molden" > "$dir/index.molden"
expect_error "index.molden: \[MO\] index: \[[0-9]*\] line [0-9]*: basis function 9 out of range (the basis has 7)" orbital "$dir/index.molden"
sed '/^\[MO\]/,$d' "$dir/water.molden" > "$dir/nomo.molden"
expect_error "nomo.molden: \[MO\]: .* the file has no \[MO\] section" orbital "$dir/nomo.molden"
expect_error "\-\-mo: orbital 9 is not in the file (it has 7 orbitals)" orbital "$dir/water.molden" --mo 9
expect_error "\-\-spacing: must be positive" orbital "$dir/water.molden" --spacing 0
expect_error "give either a Molden file or --example" orbital
expect_error "\-\-iso and --mesh go together" orbital "$dir/water.molden" --iso 0.05
expect_error "\-\-iso: must be positive" orbital "$dir/water.molden" --iso -0.05 --mesh "$dir/m.ply"
expect_error "\-\-mesh: unknown extension: expected .ply or .obj" orbital "$dir/water.molden" --iso 0.05 --mesh "$dir/m.stl"
echo "orbital CLI: ok"
