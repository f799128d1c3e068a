#!/usr/bin/env bash
# multi_gpu_scaling.sh KMOL KMOL_BENCH [--gpus "1 2 4"] [--run WRAPPER] [--out DIR]
#
# The scaling table of docs/multi_gpu.md, every row from the same run on one machine:
#  - the 1M x 1M pair histogram (two sets of 10^6 atoms in a 100 A cube, no box, 10,000 bins) as
#    (tile of A) units over 1, 2, 4 GPUs (kmol_bench pair_histogram_gpus), beside the plain
#    single-GPU call (pair_histogram/Cuda/cuda/nobox/bins:10000) and the pool's empty-unit latency;
#  - the 100-frame pipeline benchmark of perf/rdf_trajectory.sh (100,000 atoms, 100 A box,
#    r_max 15 A, 300 bins) with `kmol rdf --gpus G`, and with the Kokkos single-GPU path.
# Writes multi-gpu-scaling.json (Google Benchmark) and multi-gpu-scaling.md into DIR.
set -euo pipefail
kmol=$(realpath "$1") bench=$(realpath "$2"); shift 2
gpus="1 2 4" run=() out=$PWD
while [[ $# -gt 0 ]]; do
  case $1 in
    --gpus) gpus=$2; shift 2 ;;
    --run) run=("$(realpath "$2")"); shift 2 ;;
    --out) mkdir -p "$2"; out=$(realpath "$2"); shift 2 ;;
    *) echo "multi_gpu_scaling.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}

"${run[@]}" "$bench" --benchmark_filter='worker_pool_empty_unit|pair_histogram_gpus|^pair_histogram/Cuda/cuda/nobox/bins:10000/' \
  --benchmark_min_time=0.05 --benchmark_out="$out/multi-gpu-scaling.json" --benchmark_out_format=json | tee "$work/bench.txt"

cd "$work"
"${run[@]}" "$kmol" example-trajectory --example gas --atoms 100000 --length 100 --frames 100 --compression 0 --out gas.h5 >/dev/null
args=(gas.h5 --rmax 15 --bins 300)
fps() { sed -E 's/.*\(([0-9.]+) frames\/s\).*/\1/' <<<"$(head -1 "$1")"; }
"${run[@]}" "$kmol" rdf "${args[@]}" --quiet --device gpu --out warm.xvg --csv warm.csv
"${run[@]}" "$kmol" rdf "${args[@]}" --device gpu --out kokkos.xvg --csv kokkos.csv > kokkos.log
{
  echo "# Multi-GPU scaling ($(date -u +%F), $have x $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
  echo
  echo "## 1M x 1M pair histogram (kmol_bench; G pairs/s)"
  echo
  echo '```'
  grep -E 'pair_histogram|worker_pool' "$work/bench.txt"
  echo '```'
  echo
  echo "## 100-frame pipeline (100,000 atoms, r_max 15 A, 300 bins): kmol rdf"
  echo
  echo "| workers | frames/s | speed-up vs 1 GPU (raw CUDA) | summary |"
  echo "|---|---|---|---|"
  echo "| Kokkos, --device gpu | $(fps kokkos.log) | | $(head -1 kokkos.log) |"
} > "$out/multi-gpu-scaling.md"
base=""
for g in $gpus; do
  [[ $g -le $have ]] || continue
  "${run[@]}" "$kmol" rdf "${args[@]}" --gpus "$g" --out g$g.xvg --csv g$g.csv > g$g.log
  cmp -s <(grep -v '^#' warm.csv) <(grep -v '^#' g$g.csv) || { echo "FAIL: counts on $g GPUs differ" >&2; exit 1; }
  f=$(fps g$g.log)
  [[ -n $base ]] || base=$f
  echo "| $g GPU(s), --gpus $g | $f | $(awk -v a="$f" -v b="$base" 'BEGIN {printf "%.2f", a / b}') | $(head -1 g$g.log) |" >> "$out/multi-gpu-scaling.md"
done
cat "$out/multi-gpu-scaling.md"
