#!/usr/bin/env bash
# kmol rdf and kmol histograms end to end on trajectories kmol writes itself:
#  - an fcc crystal without vibration: every shell's count is exact (N z / 2 pairs per frame);
#  - an ideal gas: g(r) is 1 within statistics;
#  - 1, 2 and 3 workers, both precisions and 1 or 3 H5MD readers give identical counts; partial
#    histograms add up.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
cd "$dir"
count_in() {  # csv, r: the count of the bin holding r
  awk -F, -v r="$2" '!/^#/ && NR > 1 && $1 <= r && r < $2 {print $4}' "$1"
}
n_at() { awk -F, -v r="$2" '!/^#/ && NR > 1 && $1 <= r && r < $2 {print $6}' "$1"; }

"$kmol" example-trajectory --example fcc --cells 4 --jitter 0 --frames 3 --out fcc.h5 >/dev/null || fail "example fcc"
for w in 1 2 3; do
  "$kmol" rdf fcc.h5 --rmax 6 --bins 60 --workers $w --quiet --out fcc$w.xvg --csv fcc$w.csv --h5 fcc$w.h5 || fail "rdf fcc, $w workers"
done
"$kmol" rdf fcc.h5 --rmax 6 --bins 60 --precision double --quiet --out fccd.xvg --csv fccd.csv || fail "rdf double"
# 256 atoms; shells of a = 4.05: 12 at a/sqrt2, 6 at a, 24 at a sqrt(3/2), 12 at a sqrt2; 3 frames.
for shell in "2.8638 1536 12" "4.05 768 18" "4.9602 3072 42" "5.7276 1536 54"; do
  read -r r pairs n <<<"$shell"
  [[ $(count_in fcc1.csv "$r") == $((3 * pairs)) ]] || fail "fcc shell at $r: count $(count_in fcc1.csv "$r"), expected $((3 * pairs))"
  [[ $(n_at fcc1.csv "$r") == "$n" ]] || fail "fcc shell at $r: n(r) $(n_at fcc1.csv "$r"), expected $n"
done
total=$(awk -F, '!/^#/ && NR > 1 {s += $4} END {print s}' fcc1.csv)
[[ $total == $((3 * (1536 + 768 + 3072 + 1536))) ]] || fail "fcc: $total pairs counted off the shells' total"
for f in fcc2.csv fcc3.csv fccd.csv; do
  cmp -s <(grep -v '^#' fcc1.csv | cut -d, -f4) <(grep -v '^#' $f | cut -d, -f4) || fail "$f counts differ from 1 worker's"
done
grep -q "^# range: \[0, 6) Angstrom" fcc1.xvg || fail "xvg header lacks the range and unit"
grep -q '^@    xaxis  label "r' fcc1.xvg || fail "xvg lacks Grace axis labels"

# Partial histograms: A-A + A-B + B-B add up to the total, interval by interval.
"$kmol" histograms fcc.h5 --rmax 6 --bins 60 --interval 2 --quiet --out parts.h5 || fail "histograms"
/usr/bin/python3 - <<'PY' || fail "histograms output"
import h5py, numpy as np
with h5py.File("parts.h5") as f, h5py.File("fcc1.h5") as r:
    g = f["histograms"]
    assert list(g.attrs["species"]) in (["A", "B"], [b"A", b"B"]), g.attrs["species"]
    parts = [g["interval_000000"][...], g["interval_000001"][...]]
    assert parts[0].shape == (3, 60) and g["interval_000001"].attrs["frames"] == 1
    assert (sum(parts).sum(axis=0) == r["rdf/counts"][...]).all()
    assert (r["rdf/interval_counts"][...].sum(axis=0) == r["rdf/counts"][...]).all()
    assert r["rdf/edges"].attrs["unit"] in ("Angstrom", b"Angstrom")
PY

# Ideal gas: g(r) = 1 within 5 standard deviations in every bin with enough pairs.
"$kmol" example-trajectory --example gas --atoms 3000 --length 30 --frames 8 --out gas.h5 >/dev/null || fail "example gas"
"$kmol" rdf gas.h5 --rmax 12 --bins 24 --frames 1::1 --quiet --out gas.xvg --csv gas.csv || fail "rdf gas"
grep -q "frames: 1::1 (7 frames)" gas.xvg || fail "frames slice not recorded"
awk -F, '!/^#/ && NR > 1 && $4 > 1000 {
  sigma = 1 / sqrt($4); if ($5 < 1 - 5 * sigma || $5 > 1 + 5 * sigma) { print "bin", $3, "g", $5; bad = 1 } }
  END { exit bad }' gas.csv || fail "ideal gas g(r) is not 1"
# Several H5MD readers (frames read directly, outside HDF5's lock) count what one does, compressed
# or not, and the summary gives each stage of a frame.
for level in 0 6; do
  "$kmol" example-trajectory --example gas --atoms 3000 --length 30 --frames 12 --compression $level \
    --out gas$level.h5 >/dev/null || fail "example gas, compression $level"
  for readers in 1 3; do
    "$kmol" rdf gas$level.h5 --rmax 12 --bins 24 --readers $readers --device cpu \
      --out readers$readers.xvg --csv readers$readers.csv > readers$readers.log || fail "rdf --readers $readers"
  done
  grep -q "on 3 threads" readers3.log || fail "--readers 3 did not run three H5MD readers: $(cat readers3.log)"
  grep -qE "^stages per frame: read [0-9.]+ us \(3 readers, busy [0-9]+%\), convert [0-9.]+ us .*, count [0-9.]+ us .*, reduce [0-9.]+ us" readers3.log ||
    fail "no stage breakdown: $(cat readers3.log)"
  cmp -s <(grep -v '^#' readers1.csv) <(grep -v '^#' readers3.csv) || fail "three H5MD readers (compression $level) count otherwise than one"
done
echo "rdf end to end: fcc shells exact, ideal gas flat, workers, precisions and readers agree"
