#!/usr/bin/env bash
# rdf_throughput.sh KMOL [--device auto|cpu|gpu|all] [--readers N] [--frames F] [--runs R] [--out FILE]
#                   [--xtc100 FILE]
#
# Trajectory throughput of the whole `kmol rdf` command: 20,000-atom frames of an ideal gas at
# 0.05 atoms per cubic Angstrom (a periodic box of 73.7 Angstrom), r 1-6 Angstrom in 100 bins,
# F frames (default 5000) as H5MD (kmol example-trajectory, uncompressed) and as XTC (100 frames
# written by MDAnalysis, repeated to F: XTC frames stand alone, so copies of a file concatenate
# into one; --xtc100 takes 100 such frames from FILE, written where MDAnalysis is installed, on
# machines without it). The page cache is warmed with each file, then kmol rdf runs R times
# (default 3) on each. Prints, per file, frames/s of the whole process and of kmol's pipeline
# (min, median, max) and kmol's per-frame stages (read, convert, upload, count, reduce) of the
# median run: one line of text each, and the JSON (also written to FILE with --out).
set -euo pipefail
kmol=$(realpath "$1"); shift
device=auto readers="" frames=5000 runs=3 out="" xtc100=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --device) device=$2; shift 2 ;;
    --readers) readers=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$(realpath "$2"); shift 2 ;;
    --xtc100) xtc100=$(realpath "$2"); shift 2 ;;
    *) echo "rdf_throughput.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
source "$(dirname "$0")/machine.sh"

"$kmol" example-trajectory --example gas --atoms 20000 --length 73.68 --frames "$frames" \
  --compression 0 --out gas.h5 >/dev/null
files=(gas.h5)
xtc_note=""
if [[ -n $xtc100 ]] && cp "$xtc100" gas100.xtc || /usr/bin/python3 - <<'PY' 2>xtc.err; then
import warnings
warnings.filterwarnings("ignore")
import MDAnalysis as mda
u = mda.Universe.empty(20000, trajectory=False)
u.load_new("gas.h5", format="H5MD")
with mda.Writer("gas100.xtc", 20000) as w:
    for ts in u.trajectory[:100]:
        w.write(u.atoms)
PY
  copies=$(( (frames + 99) / 100 ))
  for _ in $(seq 1 "$copies"); do cat gas100.xtc; done > gas.xtc
  files+=(gas.xtc)
else
  xtc_note="no XTC: MDAnalysis could not write one ($(tail -1 xtc.err))"
  echo "rdf_throughput.sh: $xtc_note" >&2
fi

args=(--rmin 1 --rmax 6 --bins 100 --device "$device")
[[ -z $readers ]] || args+=(--readers "$readers")
results=()
for file in "${files[@]}"; do
  cat "$file" > /dev/null  # the page cache holds the file
  "$kmol" rdf "$file" "${args[@]}" --frames :100 --quiet --out "${file//./-}-warm.xvg"  # and the GPU is up
  rates=() pipeline=() logs=()
  for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    "$kmol" rdf "$file" "${args[@]}" --out "${file//./-}-run$run.xvg" > "${file//./-}-run$run.log"
    end=$(date +%s.%N)
    n=$(grep -oE '^[0-9]+ frames in' "${file//./-}-run$run.log" | grep -oE '^[0-9]+')
    rates+=("$(awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", n / (b - a)}')")
    pipeline+=("$(grep -oE '\(([0-9.]+) frames/s\)' "${file//./-}-run$run.log" | grep -oE '[0-9.]+')")
    logs+=("${file//./-}-run$run.log")
  done
  # The median run by whole-process rate gives the stage breakdown.
  median_run=$(for i in "${!rates[@]}"; do echo "${rates[$i]} $i"; done | sort -g | awk -v m=$((runs / 2)) 'NR == m + 1 {print $2}')
  stages=$(grep -m1 '^stages per frame:' "${logs[$median_run]}" || echo "stages per frame: not reported")
  summary=$(grep -m1 'frames/s' "${logs[$median_run]}")
  stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {printf "%s %s %s", v[1], v[int((NR + 1) / 2)], v[NR]}'; }
  read -r min med max <<<"$(stats "${rates[@]}")"
  read -r pmin pmed pmax <<<"$(stats "${pipeline[@]}")"
  format=$([[ $file == *.h5 ]] && echo H5MD || echo XTC)
  echo "$format: whole command $med frames/s (min $min, max $max); pipeline $pmed frames/s (min $pmin, max $pmax); $stages"
  stage_json=$(sed -E 's/^stages per frame: //' <<<"$stages" | /usr/bin/python3 -c '
import json, re, sys
text = sys.stdin.read().strip()
stages = {m.group(1): {"mean_us": float(m.group(2)), "note": m.group(3).strip()}
          for m in re.finditer(r"(read|convert|upload|count|reduce) ([0-9.]+) us ?(\([^)]*\))?", text)}
print(json.dumps(stages))')
  results+=("$(printf '{"format": "%s", "frames": %s, "runs": %s, "whole_command_frames_per_second": {"min": %s, "median": %s, "max": %s}, "pipeline_frames_per_second": {"min": %s, "median": %s, "max": %s}, "stages_per_frame": %s, "summary": "%s"}' \
    "$format" "$frames" "$runs" "$min" "$med" "$max" "$pmin" "$pmed" "$pmax" "$stage_json" "${summary//\"/\'}")")
done

json=$(printf '{"benchmark": "kmol rdf, 20,000-atom frames, 0.05 atoms/A^3 (box 73.7 A), r 1-6 A, 100 bins, page cache warm", "machine": "%s", "date": "%s", "device": "%s", "readers": "%s", "xtc_note": "%s", "files": [%s]}' \
  "$machine" "$(date -u +%Y-%m-%dT%H:%MZ)" "$device" "${readers:-default}" "$xtc_note" "$(IFS=,; echo "${results[*]}")" |
  /usr/bin/python3 -m json.tool)
echo "$json"
[[ -z $out ]] || echo "$json" > "$out"
