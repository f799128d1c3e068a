#!/usr/bin/env bash
# gromacs_water_rdf.sh KMOL [--box NM] [--steps N] [--device cpu|gpu] [--readers R] [--repeat K]
#                         [--runs N] [--out DIR] [--keep DIR]
#
# kmol rdf against gmx rdf on the same GROMACS files: an SPC water box made here with Debian's gmx
# (default 5 nm: about 12,400 atoms; 1000 steps with coordinates every 10: 101 frames), O-O g(r)
# from md.xtc with topol.tpr, gmx rdf -bin 0.002 -rmax 1.2 and kmol rdf --gmx --rmax 1.2nm
# --bins 600 (the same bins), both decompressing the XTC themselves. Each command runs as a whole
# process, alternating, five times (--runs) after a warm-up; the medians and the median pairwise ratio go
# to gromacs-water-rdf.json in DIR (default perf/results), with kmol's frames/s and the
# share of its wall time spent reading (decompressing) frames. The two g(r) must agree.
# --readers R: kmol's reader threads; --repeat K: the XTC joined K times over (gmx trjcat -cat),
# for GPUs, on which 101 frames last less than a tenth of a second.
set -euo pipefail
kmol=$(realpath "$1"); shift
box=5 steps=1000 device=cpu runs=5 keep="" readers=() repeat=1
out=$(cd "$(dirname "$0")" && pwd)/results
here=$(cd "$(dirname "$0")" && pwd)
while [[ $# -gt 0 ]]; do
  case $1 in
    --box) box=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --readers) readers=(--readers "$2"); shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$(realpath "$2"); shift 2 ;;
    --keep) keep=$(realpath "$2"); shift 2 ;;
    *) echo "gromacs_water_rdf.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
fail() { echo "gromacs_water_rdf.sh: $*" >&2; exit 1; }
source "$here/../tests/cli/gromacs_water.sh"
work=${keep:-$(mktemp -d)}
[[ -n $keep ]] || trap 'rm -rf "$work"' EXIT
[[ -f $work/water/md.xtc ]] || make_water "$work/water" "$box" "$steps" 10
cd "$work/water"
xtc=md.xtc
if [[ $repeat -gt 1 ]]; then
  xtc=md-x$repeat.xtc
  [[ -f $xtc ]] || gmx -quiet trjcat -f $(printf 'md.xtc %.0s' $(seq "$repeat")) -cat -o "$xtc" \
      </dev/null >trjcat.log 2>&1 || fail "gmx trjcat: $(tail -3 trjcat.log)"
fi
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
atoms=$(sed -n 2p conf.gro | tr -d ' ')

kmol_cmd=("$kmol" rdf "$xtc" --top topol.tpr --sel1 'name OW' --rmax 1.2nm --bins 600 --gmx
          --device "$device" "${readers[@]}" --out kmol.xvg)
gmx_cmd=(gmx -quiet rdf -f "$xtc" -s topol.tpr -ref 'name OW' -sel 'name OW' -bin 0.002 -rmax 1.2
         -o gmx.xvg)
"${kmol_cmd[@]}" > kmol.log
"${gmx_cmd[@]}" > gmx.log 2>&1
cat kmol.log
frames=$(grep -oE '^[0-9]+ frames' kmol.log | grep -oE '[0-9]+')
kmol_fps=$(sed -nE 's/.*\(([0-9.]+) frames\/s\).*/\1/p' kmol.log)
read_share=$(sed -nE 's/.*reading [0-9.]+ s( on [0-9]+ threads)? \(([0-9]+)% of wall time\).*/\2/p' kmol.log)
# The curves: gmx prints three decimals; a pair within float rounding of a bin edge may move.
worst=$(paste <(grep -v '^[#@]' kmol.xvg) <(grep -v '^[#@]' gmx.xvg) |
        awk '{ if ($1 - $3 > 1e-4 || $3 - $1 > 1e-4) { print "r differs"; exit }
               d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.4f", m }')
awk -v w="$worst" 'BEGIN { exit !(w + 0 < 0.02) }' || fail "kmol and gmx g(r) differ by $worst"

# Whole processes, alternating, as a user runs them: medians of the runs after the warm-up above.
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
            awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
kmol_runs=() gmx_runs=() ratios=()
for _ in $(seq "$runs"); do
  k=$(seconds "${kmol_cmd[@]}"); g=$(seconds "${gmx_cmd[@]}")
  kmol_runs+=("$k"); gmx_runs+=("$g"); ratios+=("$(awk -v k="$k" -v g="$g" 'BEGIN { printf "%.2f", g / k }')")
done
kmol_s=$(printf '%s\n' "${kmol_runs[@]}" | median)
gmx_s=$(printf '%s\n' "${gmx_runs[@]}" | median)
speedup=$(printf '%s\n' "${ratios[@]}" | median)
echo "kmol ${kmol_runs[*]} s; gmx rdf ${gmx_runs[*]} s; gmx/kmol per pair ${ratios[*]}"
machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) || gpu=""
[[ -n $gpu ]] && machine+=", $gpu"
mkdir -p "$out"
cat > "$out/gromacs-water-rdf.json" <<JSON
{"machine": "$machine", "atoms": $atoms, "frames": $frames, "device": "$device",
 "kmol_wall_s": $kmol_s, "gmx_rdf_wall_s": $gmx_s, "gmx_over_kmol_median_of_pairs": $speedup,
 "kmol_frames_per_s_in_pipeline": $kmol_fps, "kmol_read_share_percent": $read_share,
 "largest_g_difference": $worst,
 "kmol": "$(printf '%s ' "${kmol_cmd[@]}" | sed "s|$kmol|kmol|")", "gmx": "$(printf '%s ' "${gmx_cmd[@]}")"}
JSON
cat "$out/gromacs-water-rdf.json"
