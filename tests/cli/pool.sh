#!/usr/bin/env bash
# The worker pool from the command line, on simulated GPUs (host workers standing in for devices)
# with a device that fails its first units: kmol histogram (tiles x regions), kmol rdf (frames)
# and kmol potential (slabs) give the single run's counts and maps.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
cd "$dir"
export OMP_NUM_THREADS=2 OMP_PROC_BIND=false
same_data() { cmp -s <(grep -v '^#' "$1") <(grep -v '^#' "$2"); }

"$kmol" histogram --example gas --atoms 3000 --length 25 --bins 333 --device cpu --out one.csv >/dev/null || fail "single run"
"$kmol" histogram --example gas --atoms 3000 --length 25 --bins 333 --simulated-gpus 3 --inject-failures 2 --regions 2 \
  --out pool.csv >log || fail "pool run: $(cat log)"
same_data one.csv pool.csv || fail "histogram: pool counts differ"
grep -q "tiles x 2 regions on 3 simulated GPUs" pool.csv || fail "histogram: the pool's launch is not recorded: $(grep '^#' pool.csv)"
"$kmol" histogram --example gas --atoms 3000 --length 25 --bins 333 --simulated-gpus 1 --device all --out all.csv >/dev/null ||
  fail "simulated GPU + CPU worker"
same_data one.csv all.csv || fail "histogram: simulated GPU + CPU worker counts differ"

"$kmol" example-trajectory --example gas --atoms 1500 --length 25 --frames 15 --out gas.h5 >/dev/null || fail "example"
"$kmol" rdf gas.h5 --rmax 10 --bins 80 --device cpu --quiet --out one.xvg --csv one_rdf.csv || fail "rdf single"
"$kmol" rdf gas.h5 --rmax 10 --bins 80 --simulated-gpus 1 --inject-failures 3 --out pool.xvg --csv pool_rdf.csv >log 2>&1 ||
  fail "rdf pool: $(cat log)"
same_data one_rdf.csv pool_rdf.csv || fail "rdf: pool counts differ"
grep -q "3 frames redone by another worker" log || fail "rdf: device failures not reported: $(cat log)"

printf 'ATOM 1 NA ION 1 0 0 0 1 1.5\nATOM 2 CL ION 2 3 1 0 -1 2\nATOM 3 NA ION 3 1 4 2 1 1.5\n' > ions.pqr
"$kmol" potential ions.pqr --spacing 0.5 --padding 3 --impl host --device cpu --out one.dx >/dev/null || fail "potential single"
"$kmol" potential ions.pqr --spacing 0.5 --padding 3 --simulated-gpus 2 --inject-failures 1 --slabs 5 --out pool.dx >log ||
  fail "potential pool: $(cat log)"
cmp -s one.dx pool.dx || fail "potential: the pool's map differs"
"$kmol" histogram --example gas --gpus 64 --out x.csv 2>log && fail "--gpus 64 accepted"
grep -q "GPU" log || fail "--gpus 64: $(cat log)"
echo "pool (simulated GPUs, injected failures): histogram, rdf and potential identical to single runs"
