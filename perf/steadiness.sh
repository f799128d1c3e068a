#!/usr/bin/env bash
# steadiness.sh KMOL_BENCH SPACE OUT_DIR [SUITE...]: does a kernel's speed depend on what ran before
# it in the same process? KMOL_BENCH may be a command of several words. The targets (TARGETS, a benchmark filter; default the portable and raw
# density, cc and direct Coulomb rows) run
# - alone, in ROUNDS (3) separate processes: OUT_DIR/alone-R.json;
# - after each SUITE (a benchmark-name prefix such as pair_histogram or md_lj) in one process:
#   OUT_DIR/after-SUITE.json (SUITE's slashes become dashes);
# - with every suite of SPACE in one process when ALL=1: OUT_DIR/all.json.
# perf/steadiness-report OUT_DIR compares each target's median with its alone median.
# Environment: MIN_TIME (0.05), REPS (3), TARGETS.
set -euo pipefail
bench=$1 space=$2 out=$3
shift 3
targets=${TARGETS:-(coulomb/direct|density|cc)/$space/}
min_time=${MIN_TIME:-0.05} reps=${REPS:-3} rounds=${ROUNDS:-3}
mkdir -p "$out"
run() {  # run NAME FILTER
  $bench --benchmark_filter="$2" --benchmark_min_time="$min_time" \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$1.json" --benchmark_out_format=json >"$out/$1.log" 2>&1 ||
    echo "steadiness.sh: $1 failed (see $out/$1.log)" >&2
}
for round in $(seq 1 "$rounds"); do run "alone-$round" "^$targets"; done
for suite in "$@"; do run "after-${suite//\//-}" "^($suite/$space/|$targets)"; done
[[ ${ALL:-0} == 1 ]] && run all "/$space/"
exit 0
