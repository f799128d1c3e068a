#!/usr/bin/env bash
# rdf_trajectory.sh KMOL [--device cpu|gpu|all] [--gpus N] [--reference-frames F] [--kmol-only] [--out DIR]
#
# The whole-trajectory benchmark: a periodic box of 100,000 atoms (ideal gas, 0.1 atoms per
# cubic Angstrom, 100 x 100 x 100 Angstrom), 100 frames, r_max = 15 Angstrom, 300 bins.
# kmol rdf runs on all frames (twice: the second run finds the file in the page cache, and is
# the one reported); MDAnalysis' InterRDF and `gmx rdf` run in the same script on the first F
# frames (default 10) of the same trajectory, and all rates are frames per second. Writes
# rdf-trajectory.json and rdf-trajectory.md into DIR (default perf/results), and checks that the
# three programs' counts agree on the frames they share.
set -euo pipefail
kmol=$(realpath "$1"); shift
device=cpu gpus="" reference_frames=10 kmol_only=0
out=$(cd "$(dirname "$0")" && pwd)/results
while [[ $# -gt 0 ]]; do
  case $1 in
    --device) device=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;  # several GPUs: one worker each (docs/multi_gpu.md)
    --reference-frames) reference_frames=$2; shift 2 ;;
    --kmol-only) kmol_only=1; shift ;;
    --out) out=$(realpath "$2"); shift 2 ;;
    *) echo "rdf_trajectory.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
source "$(dirname "$0")/machine.sh"

"$kmol" example-trajectory --example gas --atoms 100000 --length 100 --frames 100 --compression 0 --out gas.h5 >/dev/null
args=(gas.h5 --rmax 15 --bins 300 --device "$device")
[[ -z $gpus ]] || args+=(--gpus "$gpus")
"$kmol" rdf "${args[@]}" --quiet --out warm.xvg   # warms the page cache and the GPU
start=$(date +%s.%N)
"$kmol" rdf "${args[@]}" --out kmol.xvg --csv kmol.csv > kmol.log
end=$(date +%s.%N)
cat kmol.log
summary=$(head -1 kmol.log)
kmol_fps=$(sed -E 's/.*\(([0-9.]+) frames\/s\).*/\1/' <<<"$summary")
read_share=$(sed -E 's/.*reading [0-9.]+ s \(([0-9]+)% of wall time\).*/\1/' <<<"$summary")
gpu_busy=$(grep -oE 'busy [0-9]+%' <<<"$summary" | grep -oE '[0-9]+' || echo null)
process_s=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')

mda_fps=null gmx_fps=null agree=null
if [[ $kmol_only -eq 0 ]]; then
  "$kmol" rdf gas.h5 --rmax 15 --bins 300 --frames ":$reference_frames" --quiet --out ref.xvg --csv ref.csv
  /usr/bin/python3 -W ignore - "$reference_frames" <<'PY' > mda.log 2>/dev/null
import sys, time, warnings
import numpy as np
import MDAnalysis as mda
from MDAnalysis.analysis.rdf import InterRDF
frames = int(sys.argv[1])
u = mda.Universe.empty(100000, trajectory=False)
u.load_new("gas.h5", format="H5MD")
# The same frames for gmx: a structure and an XTC (nm, 0.001 nm precision).
u.add_TopologyAttr("name", ["AR"] * 100000); u.add_TopologyAttr("resname", ["AR"])
u.add_TopologyAttr("resid", [1]); u.add_TopologyAttr("type", ["AR"] * 100000)
u.atoms.write("conf.gro")
with mda.Writer("gas.xtc", 100000) as w:
    for ts in u.trajectory[:frames]:
        w.write(u.atoms)
start = time.perf_counter()
rdf = InterRDF(u.atoms, u.atoms, nbins=300, range=(0.0, 15.0), exclusion_block=(1, 1)).run(stop=frames)
seconds = time.perf_counter() - start
np.savetxt("mda.txt", rdf.results.count / 2)
print(frames / seconds)
PY
  mda_fps=$(tail -1 mda.log)
  start=$(date +%s.%N)
  gmx -quiet rdf -f gas.xtc -s conf.gro -ref all -sel all -rmax 1.5 -bin 0.005 -o gmx.xvg -xvg none >gmx.log 2>&1 </dev/null
  end=$(date +%s.%N)
  gmx_fps=$(awk -v f="$reference_frames" -v a="$start" -v b="$end" 'BEGIN {printf "%.4f", f / (b - a)}')
  agree=$(/usr/bin/python3 - <<'PY'
import numpy as np
rows = [l for l in open("ref.csv") if not l.startswith("#")]
kmol = np.genfromtxt(rows, delimiter=",", names=True)["count"]
mda = np.loadtxt("mda.txt")
print(str(bool(np.abs(kmol - mda).sum() <= 1e-5 * kmol.sum())).lower())
PY
)
fi

mkdir -p "$out"
name=rdf-trajectory-$device
ratio() { [[ $2 == null ]] && echo null || awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}'; }
cat > "$out/$name.json" <<JSON
{
  "benchmark": "kmol rdf, 100,000-atom periodic box (100 A, ideal gas), 100 frames, r_max 15 A, 300 bins",
  "machine": "$machine",
  "date": "$(date -u +%Y-%m-%dT%H:%MZ)",
  "device": "$device",
  "kmol_frames_per_second": $kmol_fps,
  "kmol_reading_share_percent": $read_share,
  "kmol_gpu_busy_percent": $gpu_busy,
  "kmol_process_seconds": $process_s,
  "kmol_summary": "$summary",
  "reference_frames": $reference_frames,
  "mdanalysis_interrdf_frames_per_second": $mda_fps,
  "gmx_rdf_frames_per_second": $gmx_fps,
  "kmol_over_mdanalysis": $(ratio "$kmol_fps" "$mda_fps"),
  "kmol_over_gmx": $(ratio "$kmol_fps" "$gmx_fps"),
  "kmol_counts_equal_mdanalysis": $agree
}
JSON
cat > "$out/$name.md" <<MD
# kmol rdf on a 100,000-atom trajectory ($device)

Machine: $machine. Command: \`perf/rdf_trajectory.sh KMOL --device $device\` ($(date -u +%Y-%m-%d)).

| program | frames/s | kmol is faster by |
|---|---|---|
| kmol rdf (100 frames, data in the page cache) | $kmol_fps | |
| MDAnalysis 2.4 InterRDF (first $reference_frames frames) | $mda_fps | $(ratio "$kmol_fps" "$mda_fps") x |
| gmx rdf 2022 (first $reference_frames frames, XTC) | $gmx_fps | $(ratio "$kmol_fps" "$gmx_fps") x |

kmol's time reading frames: $read_share% of the wall time; GPU busy: $gpu_busy%.
kmol's counts equal InterRDF's on the shared frames: $agree.

kmol's summary: $summary
MD
cat "$out/$name.md"
