#!/usr/bin/env bash
# Simulate, then analyse, in one tool: kmol md of a 4,000-atom LJ liquid (rho 0.8442, melted at
# T = 1.0 with a Langevin thermostat), then kmol rdf on its H5MD output. The liquid's g(r) has its
# first peak near r = 1.1 sigma and tends to 1 at long range.
set -euo pipefail
kmol=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out"
"$kmol" md --atoms 4000 --temperature 1.0 --thermostat langevin --coupling 5 --steps 1000 --every 100 \
  --no-velocities --out liquid.h5 --log thermo.csv --quiet >/dev/null
"$kmol" rdf liquid.h5 --frames 4: --rmax 6 --bins 120 --out liquid.xvg --csv liquid.csv --quiet
awk -F, '!/^#/ && $1 != "r_low" {
    if ($5 > best) { best = $5; peak = $3 }
    if ($3 > 5 && $3 < 6) { sum += $5; n++ }
  } END {
    tail = sum / n
    printf "first peak g = %.3f at r = %.3f; mean g over 5-6 sigma = %.4f\n", best, peak, tail
    if (peak < 1.0 || peak > 1.2 || best < 2 || tail < 0.95 || tail > 1.05) exit 1
  }' liquid.csv
