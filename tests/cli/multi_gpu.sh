#!/usr/bin/env bash
# Several GPUs end to end (skipped, exit 77, with fewer than 2): kmol histogram, rdf and potential
# with --gpus on every GPU, the first failing its first unit, equal the single-device runs.
set -uo pipefail
kmol=$1
# GPUs this build can use ("GPUs: none" without CUDA or without a driver).
gpus=$("$kmol" info | grep -c '^GPU [0-9]' || true)
if [[ $gpus -lt 2 ]]; then echo "fewer than 2 GPUs usable by this build: skipped"; exit 77; fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*"; exit 1; }
same_data() { cmp -s <(grep -v '^#' "$1") <(grep -v '^#' "$2"); }
export OMP_PROC_BIND=false

hist=(--example gas --atoms 300000 --length 150 --rmax 70 --bins 70000)
"$kmol" histogram "${hist[@]}" --device gpu --impl cuda --out one.csv >/dev/null || fail "single GPU"
"$kmol" histogram "${hist[@]}" --gpus 0 --inject-failures 1 --regions 2 --out all.csv >log || fail "all GPUs: $(cat log)"
same_data one.csv all.csv || fail "histogram: $gpus GPUs differ from one"
"$kmol" histogram "${hist[@]}" --gpus 0 --device all --out mixed.csv >/dev/null || fail "GPUs + CPU worker"
same_data one.csv mixed.csv || fail "histogram: GPUs + CPU worker differ"

"$kmol" example-trajectory --example gas --atoms 20000 --length 60 --frames 24 --out gas.h5 >/dev/null || fail "example"
"$kmol" rdf gas.h5 --rmax 20 --bins 200 --device gpu --quiet --out one.xvg --csv one_rdf.csv || fail "rdf one GPU"
"$kmol" rdf gas.h5 --rmax 20 --bins 200 --gpus 0 --inject-failures 2 --out all.xvg --csv all_rdf.csv >log 2>&1 ||
  fail "rdf all GPUs: $(cat log)"
same_data one_rdf.csv all_rdf.csv || fail "rdf: $gpus GPUs differ from one"
grep -qE "[12] frames redone by another worker" log || fail "rdf: failures not reported: $(cat log)"

awk 'BEGIN { srand(5); for (i = 1; i <= 20000; ++i)
  printf "ATOM %d NA ION %d %.3f %.3f %.3f %.2f 1.5\n", i, i, 60 * rand(), 60 * rand(), 60 * rand(), (i % 2 ? 0.5 : -0.5) }' > ions.pqr
for method in direct cutoff; do
  "$kmol" potential ions.pqr --method $method --spacing 0.5 --padding 2 --gpus 1 --out one_$method.dx >/dev/null ||
    fail "$method on one GPU"
  "$kmol" potential ions.pqr --method $method --spacing 0.5 --padding 2 --gpus 0 --inject-failures 1 --out all_$method.dx \
    >log || fail "$method on all GPUs: $(cat log)"
  cmp -s one_$method.dx all_$method.dx || fail "potential $method: $gpus GPUs differ from one"
done
echo "$gpus GPUs: histogram, rdf and potential (direct, cutoff) identical to single-GPU runs, with a failing GPU"
