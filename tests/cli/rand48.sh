#!/usr/bin/env bash
# kmol rand48 against an independent implementation of glibc's generator (Python big integers).
set -euo pipefail
kmol=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for kind in lrand48 mrand48 drand48; do
  "$kmol" rand48 --seed 20261121 --count 100000 --kind "$kind" --out "$out/$kind.txt" 2>"$out/rate.txt"
  grep -q "G numbers/s" "$out/rate.txt"
done
"$kmol" rand48 --seed -3 --count 1000 --binary --out "$out/l.bin" 2>/dev/null
"$kmol" rand48 --seed 7 --count 5 --kind mrand48 2>/dev/null >"$out/stdout.txt"
/usr/bin/python3 - "$out" <<'PY'
import sys, struct
out = sys.argv[1]
def glibc(seed, n, kind):
    x = ((seed & 0xFFFFFFFF) << 16) | 0x330E
    for _ in range(n):
        x = (0x5DEECE66D * x + 0xB) & ((1 << 48) - 1)
        if kind == "lrand48": yield x >> 17
        elif kind == "mrand48": v = x >> 16; yield v - (1 << 32) if v >= (1 << 31) else v
        else: yield x / 2.0**48
for kind in ("lrand48", "mrand48", "drand48"):
    got = [float(l) for l in open(f"{out}/{kind}.txt")]
    want = list(glibc(20261121, 100000, kind))
    assert got == [float(w) for w in want], kind
assert list(struct.unpack("<1000i", open(f"{out}/l.bin", "rb").read())) == list(glibc(-3, 1000, "lrand48"))
assert [int(l) for l in open(f"{out}/stdout.txt")] == list(glibc(7, 5, "mrand48"))
PY
if "$kmol" rand48 --count 10 --binary 2>/dev/null; then exit 1; fi
