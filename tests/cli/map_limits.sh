#!/usr/bin/env bash
# Maps, coordinates and basis sets beyond what a map can hold, through the whole command: damaged
# OpenDX and MRC headers (counts past 2^36, spacings, origins and values out of range), an atom
# that stretches the lattice, charges and exponents that overflow, are refused up front naming
# the file and field (exit 2); a degenerate mesh is an error naming the cause and --iso (exit 1)
# unless --allow-empty writes it with a warning.
set -uo pipefail
kmol=$(realpath "$1")
source "$(dirname "$0")/scratch.sh"
cd "$dir" || exit 1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

# expect CODE PATTERN ARGS...: kmol ARGS (within 60 s) exits CODE and prints PATTERN.
expect() {
  local code=$1 pattern=$2 message rc; shift 2
  message=$(timeout 60 "$kmol" "$@" 2>&1)
  rc=$?
  [[ $rc == "$code" ]] || fail "exit $rc, expected $code: kmol $*: $message"
  grep -q -- "$pattern" <<<"$message" || fail "'kmol $*' said '$message', expected '$pattern'"
}
# dx NAME COUNTS ORIGIN DELTA ITEMS VALUES: an OpenDX map.
dx() {
  printf 'object 1 class gridpositions counts %s\norigin %s\ndelta %s 0 0\ndelta 0 %s 0\ndelta 0 0 %s\nobject 2 class gridconnections counts %s\nobject 3 class array type double rank 0 items %s data follows\n%s\n' \
    "$2" "$3" "$4" "$4" "$4" "$2" "$5" "$6" > "$1"
}
cube='0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0'  # 3 x 3 x 3, one peak in the middle

# Damaged OpenDX headers and values (SIGSEGV, or area/volume 0 or -nan with exit 0, before).
dx wrap.dx '4294967296 4294967296 1' '0 0 0' 1 0 ''
expect 2 "wrap.dx: counts: .*2^36" surf --map wrap.dx
dx claims.dx '1000 1000 100' '0 0 0' 1 100000000 "$cube"
expect 2 "claims.dx: data: .*the file ends before its 100000000 values" surf --map claims.dx
dx tiny.dx '3 3 3' '0 0 0' 1e-38 27 "$cube"
expect 2 "tiny.dx: delta: .*expected 1e-4 to 1e4 Angstrom" surf --map tiny.dx
dx huge.dx '3 3 3' '0 0 0' 1e30 27 "$cube"
expect 2 "huge.dx: delta:" surf --map huge.dx
dx far.dx '3 3 3' '0 -1e30 0' 1 27 "$cube"
expect 2 "far.dx: origin:" surf --map far.dx
dx big.dx '3 3 3' '0 0 0' 1 27 "${cube/1/3.4e38}"
expect 2 "big.dx: data: .*within 1e30" surf --map big.dx
dx good.dx '3 3 3' '0 0 0' 1 27 "$cube"
expect 0 "closed" surf --map good.dx --mesh good.ply

# Damaged MRC headers: the cell and the counts.
"$kmol" surf --map good.dx --mesh '' > /dev/null 2>&1
/usr/bin/python3 - <<'PY' || fail "setup: MRC maps"
import struct
h = bytearray(1024)
struct.pack_into("<3i i 3i 3i 3f 3f 3i", h, 0, 3, 3, 3, 2, 0, 0, 0, 3, 3, 3, 3.0, 3.0, 3.0, 90.0, 90.0, 90.0, 1, 2, 3)
h[208:212] = b"MAP "
h[212:214] = b"\x44\x44"
data = struct.pack("<27f", *([0.0] * 13 + [1.0] + [0.0] * 13))
open("good.mrc", "wb").write(bytes(h) + data)
tiny = bytearray(h); struct.pack_into("<f", tiny, 40, 1e-38)
open("tiny-cell.mrc", "wb").write(bytes(tiny) + data)
counts = bytearray(h); struct.pack_into("<3i", counts, 0, 1 << 30, 1 << 30, 1 << 30)
open("counts.mrc", "wb").write(bytes(counts) + data)
PY
expect 0 "closed" surf --map good.mrc --mesh good-mrc.ply
expect 2 "tiny-cell.mrc: cella: the spacing along x is 3.333e-39" surf --map tiny-cell.mrc
expect 2 "counts.mrc: data: the file ends before its" surf --map counts.mrc

# A mesh whose vertices single precision cannot tell apart (origin 1e7 A, spacing 1e-4 A).
dx flat.dx '3 3 3' '1e7 1e7 1e7' 1e-4 27 "$cube"
expect 1 "flat.ply: --iso: .*zero area: the map's origin .*too far for its spacing.*--allow-empty" \
  surf --map flat.dx --mesh flat.ply
[[ ! -e flat.ply ]] || fail "a degenerate mesh was written"
expect 0 "warning: .*zero area.*--allow-empty" surf --map flat.dx --mesh flat.ply --allow-empty
[[ -s flat.ply ]] || fail "--allow-empty wrote no mesh"

# One atom far from the others: refused at once with the lattice's size, not computed for
# minutes (or a 2.9 GB allocation failed).
for i in $(seq 1 20); do
  printf 'ATOM  %5d  CA  ALA A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C\n' "$i" "$i" $((i % 4)) $((i % 3)) $((i % 5))
done > base.pdb
sed '7s/^\(.\{38\}\).\{8\}/\142949672/' base.pdb > stretched.pdb
expect 2 "atom 7 (CA) at (3, 4.295e+07, 2) A lies far from the others .*--spacing" surf stretched.pdb
sed '7s/^\(.\{38\}\).\{8\}/\1  3.4e38/' base.pdb > overflow.pdb
expect 2 "atom 7 (CA) at (3, 3.4e+38, 2) A" surf overflow.pdb
pqr() { awk -v y7="${1:-}" '{ printf "ATOM %d CA ALA %d %s %s %s 0.1 1.5\n", NR, NR, $7, NR == 7 && y7 != "" ? y7 : $8, $9 }' base.pdb; }
pqr > base.pqr
pqr 100000 > far.pqr
expect 2 "atom 7 (CA) at (3, 1e+05, 2) A lies far from the others" potential far.pqr --device cpu --out far-pot.dx
[[ ! -e far-pot.dx ]] || fail "a map of the stretched lattice was written"
expect 0 "lattice" potential base.pqr --device cpu --out base-pot.dx

# Values that overflow the map: a charge of 3.4e38 (inf in the map before), an exponent of 1e30
# (a cube of NaN with "norm (analytic) 1.000000" before).
sed '3s/ 0.1 1.5$/ 3.4e38 1.5/' base.pqr > charge.pqr
expect 2 "charge.pqr: charge: .*expected at most 1000 e" potential charge.pqr --device cpu --out charge.dx
"$kmol" orbital --example water --write-molden water.molden --spacing 0.5 --out setup.cube > /dev/null ||
  fail "setup: molden"
awk 'BEGIN { done = 0 } /^ *[sp] +[0-9]+ / && !done { print; getline; $1 = "1.0e30"; print; done = 1; next } { print }' \
  water.molden > steep.molden
expect 2 "steep.molden: \[GTO\] exponent: .*at most 1e12" orbital steep.molden --spacing 0.5 --out steep.cube
[[ ! -e steep.cube ]] || fail "a cube was written from a 1e30 exponent"
echo "maps, lattices and inputs beyond their limits refused: ok"
