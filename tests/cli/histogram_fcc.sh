#!/usr/bin/env bash
# kmol histogram on the built-in fcc crystal: the first shell holds 12 neighbours at a/sqrt(2).
set -euo pipefail
kmol=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for precision in single double; do
  "$kmol" histogram --example fcc --cells 5 --rmax 8 --bins 160 --precision "$precision" --out "$out/fcc.csv"
  # n(r) just past the first shell (2.864 A) must be 12, and zero before it.
  awk -F, '!/^#/ && $1 != "r_low" {
      if ($2 <= 2.8 && $6 != 0) { print "neighbours before the first shell at r=" $2; bad = 1 }
      if ($1 >= 2.9 && $2 <= 4.0 && ($6 < 11.999 || $6 > 12.001)) { print "n(" $2 ")=" $6 ", expected 12"; bad = 1 }
    } END { exit bad }' "$out/fcc.csv"
done
[[ ! -e $out/fcc.csv.tmp ]]
# No neighbour within 1.2 A: the empty result is refused with nothing written, or kept with a
# warning under --allow-empty.
if message=$("$kmol" histogram --example fcc --rmax 1.2 --out "$out/empty.csv" 2>&1); then
  echo "an empty histogram was written: $message"; exit 1
fi
grep -q -- "--rmax: no pair within --rmax 1.2 Angstrom was counted.*--allow-empty" <<<"$message" ||
  { echo "unexpected refusal: $message"; exit 1; }
[[ ! -e $out/empty.csv ]]
message=$("$kmol" histogram --example fcc --rmax 1.2 --allow-empty --out "$out/empty.csv" 2>&1)
grep -q "warning: no pair within --rmax 1.2 Angstrom.*kept as asked (--allow-empty)" <<<"$message" ||
  { echo "--allow-empty did not warn: $message"; exit 1; }
[[ -s $out/empty.csv ]]
