#!/usr/bin/env bash
# scale_curve.sh KMOL KMOL_BENCH DEVICE OUT_DIR N...: the cost per atom of kmol's O(N) paths as the
# system grows (docs/study.md, "Scale curve"). For each size N and each path (cell-list g(r),
# cutoff potential, Gaussian density, neighbour-list MD; cutoff_potential_kokkos, the portable
# cutoff, runs when PATHS names it), on DEVICE (cpu or gpu):
# - steady state: kmol_bench --kmol_scale=N, the same call repeated from host arrays (median of
#   repetitions), seconds per atom (per atom-step for MD);
# - one shot: the `kmol` command a user runs, timed whole (process start to exit) and by its own
#   printed compute time (uploads, allocations and downloads included);
# - peak memory: the GPU's (nvidia-smi, sampled every 20 ms) or the process' resident set (cpu).
# Writes OUT_DIR/scale.json (one row per path and size), OUT_DIR/bench-N.json and OUT_DIR/logs/,
# and prints a Markdown table. Environment: REPS (3), MIN_TIME (0.3), MIN_WARMUP (0.01: one call
# before the timed ones), MD_STEPS (10), PATHS (a subset of the paths' names), ONESHOT (1; 0: the
# steady state alone, its peak the device memory in use after the benchmark), KMOL_COMMIT
# (recorded with the results).
set -euo pipefail
kmol=$1 bench=$2 device=$3 out=$4
shift 4
[[ $device == cpu || $device == gpu ]] || { echo "scale_curve.sh: DEVICE must be cpu or gpu" >&2; exit 2; }
paths=${PATHS:-cells_histogram cutoff_potential density md_neighbour}
reps=${REPS:-3} min_time=${MIN_TIME:-0.3} warmup=${MIN_WARMUP:-0.01} steps=${MD_STEPS:-10}
oneshot=${ONESHOT:-1}
space=$([[ $device == gpu ]] && echo Cuda || echo OpenMP)
mkdir -p "$out/logs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=$out/rows.jsonl
: >"$rows"

now() { date +%s.%N; }
# peak_of CMD...: runs CMD, prints "SECONDS PEAK_MIB" (GPU memory in use at its peak, or the
# process' largest resident set on cpu); CMD's output goes to $work/cmd.log.
peak_of() {
  local start end peak
  if [[ $device == gpu ]]; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 >"$work/mem.log" 2>/dev/null &
    local sampler=$!
    start=$(now)
    "$@" >"$work/cmd.log" 2>&1
    end=$(now)
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    peak=$(sort -n "$work/mem.log" | tail -1)
  else
    start=$(now)
    /usr/bin/time -f '%M' -o "$work/rss" "$@" >"$work/cmd.log" 2>&1
    end=$(now)
    peak=$(( $(cat "$work/rss") / 1024 ))
  fi
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }') ${peak:-0}"
}
# The compute time a command prints: "... in S s ..." (first match).
printed_seconds() { grep -oE ' in [0-9.]+ s' "$work/cmd.log" | head -1 | awk '{print $2}'; }

for n in "$@"; do
  length=$(awk -v n="$n" 'BEGIN { printf "%.4f", (n / 0.1) ^ (1 / 3) }')
  # Steady state: one process per size (memory freed between sizes).
  "$bench" --kmol_scale="$n" --benchmark_filter="scale/(${paths// /|})/$space/" --benchmark_min_time="$min_time" \
    --benchmark_min_warmup_time="$warmup" \
    --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench-$n.json" --benchmark_out_format=json >"$out/logs/bench-$n.log" 2>&1
  # The density input: kmol's own gas frame, written before the timed command.
  [[ $oneshot == 1 && " $paths " == *" density "* ]] && "$kmol" example-trajectory --example gas --atoms "$n" --length "$length" --frames 1 \
    --out "$work/gas.h5" --force >/dev/null
  declare -A command=(
    [cells_histogram]="$kmol histogram --example gas --atoms $n --length $length --rmax 12 --bins 240 --impl cells --device $device --out $work/g.csv --force"
    [cutoff_potential]="$kmol potential --example water --atoms $n --method cutoff --cutoff 12 --spacing 1 --device $device --out $work/p.h5 --force"
    [cutoff_potential_kokkos]="$kmol potential --example water --atoms $n --method cutoff --cutoff 12 --spacing 1 --impl kokkos --device $device --out $work/p.h5 --force"
    [density]="$kmol surf $work/gas.h5 --radius 1.5 --spacing 1 --mesh '' --device $device --force"
    [md_neighbour]="$kmol md --atoms $n --steps $steps --precision single --device $device --log $work/md.csv --quiet --force"
  )
  for path in $paths; do
    whole=nan peak=-1 printed=nan
    if [[ $oneshot == 1 ]]; then
      read -r whole peak < <(eval peak_of ${command[$path]})
      cp "$work/cmd.log" "$out/logs/$path-$n.log"
      printed=$(printed_seconds)
    fi
    python3 - "$out/bench-$n.json" "$path" "$n" "$whole" "${printed:-nan}" "$peak" "$device" \
      "${command[$path]}" "$steps" >>"$rows" <<'PY'
import json, sys
bench, path, n, whole, printed, peak, device, command, steps = sys.argv[1:]
runs = [b for b in json.load(open(bench))["benchmarks"] if b["name"].startswith(f"scale/{path}/")]
steady = next((b for b in runs if b.get("aggregate_name") == "median"), runs[0] if runs else None)
per = float(steps) if path == "md_neighbour" else 1.0  # MD: per atom-step
atoms = steady["atoms"] / per if steady else float(n)
work = atoms * per
ran = printed != "nan"  # the one-shot command's printed time
if int(peak) < 0:  # no command: the memory the benchmark's call left in use
    peak = steady.get("device_bytes_in_use", 0) / 2**20 if steady else 0
print(json.dumps({
    "path": path, "n": int(n), "atoms": atoms, "device": device,
    "steady_seconds": steady["real_time"] / 1e3 if steady else None,
    "steady_ns_per_item": steady["seconds_per_atom"] * 1e9 if steady else None,
    "oneshot_seconds": float(printed) if ran else None,
    "oneshot_ns_per_item": float(printed) / work * 1e9 if ran else None,
    "command_seconds": float(whole) if whole != "nan" else None,
    "command_ns_per_item": float(whole) / work * 1e9 if whole != "nan" else None,
    "peak_memory_mib": int(peak), "steady_label": steady.get("label", "") if steady else "",
    "command": command.replace(bench.rsplit("/", 1)[0], "OUT"),
}))
PY
  done
  unset command
done
python3 - "$rows" "$out/scale.json" "$kmol" "$device" <<'PY'
import json, os, platform, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
gpu = ""
if sys.argv[4] == "gpu":
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "")
json.dump({"device": sys.argv[4], "commit": os.environ.get("KMOL_COMMIT", ""), "gpu": gpu, "cpu": cpu, "host": platform.node(),
           "kmol": subprocess.run([sys.argv[3], "--version"], capture_output=True, text=True).stdout.strip(),
           "rows": rows}, open(sys.argv[2], "w"), indent=1)
print("| path | atoms | steady (ns/item) | one shot (ns/item) | one shot / steady | whole command (s) | peak memory (MiB) |")
print("|---|---|---|---|---|---|---|")
nan = float("nan")
for r in rows:
    once, whole = r["oneshot_ns_per_item"] or nan, r["command_seconds"] or nan
    ratio = once / r["steady_ns_per_item"] if r["steady_ns_per_item"] else nan
    print(f"| {r['path']} | {r['n']:,} | {r['steady_ns_per_item'] or nan:.2f} | "
          f"{once:.2f} | {ratio:.2f} | {whole:.2f} | {r['peak_memory_mib']:,} |")
PY
