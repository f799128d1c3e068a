#!/usr/bin/env bash
# cells_crossover.sh KMOL DEVICE ALL_PAIRS N...: times `kmol histogram` on a uniform gas at the
# density of water's oxygens x3 (0.1 / A^3) with the cell path and with an all-pairs
# implementation (host on cpu, cuda on gpu), for r_max from 5% to 33% of the box side, and prints
# a Markdown table of the times and of 27 r_max^3 / V, the measure the selector compares
# (kernels/pair_histogram/selection.cpp).
set -euo pipefail
kmol=$1 device=$2 all_pairs=$3
shift 3
seconds() { "$kmol" histogram "$@" --bins 240 --device "$device" --out /dev/null | sed -E 's/.* in ([0-9.e+-]+) s .*/\1/'; }
echo "| atoms | box side (A) | r_max (A) | 27 r_max^3 / V | cells (s) | $all_pairs (s) | faster |"
echo "|---|---|---|---|---|---|---|"
for n in "$@"; do
  length=$(awk -v n="$n" 'BEGIN { printf "%.2f", (n / 0.1) ^ (1 / 3) }')
  for fraction in 0.05 0.1 0.15 0.2 0.25 0.33; do
    r=$(awk -v l="$length" -v f="$fraction" 'BEGIN { printf "%.2f", l * f }')
    reach=$(awk -v f="$fraction" 'BEGIN { printf "%.3f", 27 * f ^ 3 }')
    common=(--example gas --atoms "$n" --length "$length" --rmax "$r")
    cells=$(seconds "${common[@]}" --impl cells)
    other=$(seconds "${common[@]}" --impl "$all_pairs")
    faster=$(awk -v a="$cells" -v b="$other" -v o="$all_pairs" 'BEGIN { print (a < b ? "cells" : o) }')
    echo "| $n | $length | $r | $reach | $cells | $other | $faster |"
  done
done
