#!/usr/bin/env bash
# same_run.sh OUT_DIR FILTER BENCH_A BENCH_B: two builds of kmol_bench (BENCH_A, the reference,
# and BENCH_B; each may be a command of several words) timed on the same machine in the same
# sitting, in alternating fresh processes (A, B, A, B, ...: ROUNDS of each, default 3), so that a
# drift of the machine (clocks, a neighbour's load) falls on both. Each process runs the
# benchmarks matching FILTER with REPS repetitions (default 3) of MIN_TIME seconds (default 0.05)
# into OUT_DIR/a-R.json and b-R.json; perf/same-run-report OUT_DIR then gives each benchmark's
# median and spread over the processes and the ratio B / A.
set -euo pipefail
out=$1 filter=$2 bench_a=$3 bench_b=$4
rounds=${ROUNDS:-3} reps=${REPS:-3} min_time=${MIN_TIME:-0.05}
mkdir -p "$out"
run() {  # run NAME BENCH
  $2 --benchmark_filter="$filter" --benchmark_min_time="$min_time" \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$1.json" --benchmark_out_format=json >"$out/$1.log" 2>&1 ||
    { echo "same_run.sh: $1 failed (see $out/$1.log)" >&2; exit 1; }
}
for round in $(seq 1 "$rounds"); do
  run "a-$round" "$bench_a"
  run "b-$round" "$bench_b"
done
"$(dirname "$0")/same-run-report" "$out"
