#!/usr/bin/env bash
# interrdf_s_processes.sh PYTHONPATH OUT.md: MDAnalysis' InterRDF_s against kmol's drop-in on OW x HW
# of an SPC water box made with Debian's gmx (gmx solvate, 4.02 nm: 2,185 x 4,370 atoms), each in
# RUNS processes of its own (default 3), alternating kmol and MDAnalysis, FRAMES frames each
# (default 1; the trajectory moves every atom by a Gaussian of 0.2 A per frame, perf/interrdf_bench.py).
# Writes OUT.md: each process's wall and CPU seconds of .run(), their minimum and median, the
# speed-ups, whether every process's counts are identical (digests), and where the first round's
# counts differ, each differing pair's distance and its nearest bin edge.
# PYTHONPATH: the build's python directory (build/openmp/python).
set -euo pipefail
pythonpath=$1 out=$2
runs=${RUNS:-3} frames=${FRAMES:-1}
here=$(cd "$(dirname "$0")" && pwd)
if [[ -n ${WORK:-} ]]; then work=$WORK; mkdir -p "$work"; else  # WORK=DIR keeps the files there
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
[[ -e $work/water.gro ]] || (cd "$work" && gmx -quiet solvate -cs spc216.gro -box 4.02 4.02 4.02 -o water.gro > solvate.log 2>&1)
export PYTHONPATH="$pythonpath:$here" OMP_PROC_BIND=false
bench() {  # bench SIDE ROUND
  local save=()
  [[ $2 == 1 ]] && save=(--save-counts "$work/counts")
  /usr/bin/python3 -W ignore "$here/interrdf_s_bench.py" --gro "$work/water.gro" \
    --xtc "$work/water.xtc" --frames "$frames" --side "$1" "${save[@]}" \
    --out "$work/$1-$2.json" > "$work/$1-$2.log" 2>&1 || { cat "$work/$1-$2.log"; exit 1; }
}
for round in $(seq "$runs"); do
  [[ ${SUMMARY_ONLY:-} ]] && break  # SUMMARY_ONLY=1 with WORK: summarise the runs kept there
  bench kmol "$round"
  bench mdanalysis "$round"
done
/usr/bin/python3 -W ignore - "$work" "$out" "$runs" "$frames" "$(git -C "$here" rev-parse --short HEAD)" <<'PY'
import json, os, statistics, sys, warnings
warnings.filterwarnings("ignore")
import numpy as np
import MDAnalysis as mda

work, out, runs, frames, commit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
results = {side: [json.load(open(f"{work}/{side}-{r}.json")) for r in range(1, runs + 1)
                  if os.path.exists(f"{work}/{side}-{r}.json")]  # SUMMARY_ONLY: those done
           for side in ("kmol", "mdanalysis")}
first = results["kmol"][0]
lines = [f"# InterRDF_s OW x HW: kmol's drop-in against MDAnalysis {first['mdanalysis']}, 2 cores",
         "",
         f"`RUNS={runs} FRAMES={frames} perf/interrdf_s_processes.sh build/openmp/python OUT.md` "
         f"(openmp build of {commit}, machine {first['machine']}, {first['cores']} cores, shared "
         "with other jobs: the 1-minute load average at each process's end is listed). "
         f"{first['groups'][0]:,} OW x {first['groups'][1]:,} HW of {first['atoms']:,} atoms, "
         f"{first['frames']} frame(s), range (0, {first['rmax']:g}) A in {first['nbins']} bins, "
         f"kmol device {first['device']}, precision {first['precision']}; times are .run() alone, "
         "each side in processes of its own, alternating.",
         "", "| side | process | wall s | CPU s | load at end |", "|---|---|---|---|---|"]
for side, rows in results.items():
    for r, row in enumerate(rows, 1):
        lines.append(f"| {side} | {r} | {row[side + '_run_s']:.2f} | {row[side + '_cpu_s']:.2f} | "
                     f"{row['load_average_1min_at_end']:.1f} |")
stats = {}
for side, rows in results.items():
    for kind in ("run", "cpu"):
        values = [row[f"{side}_{kind}_s"] for row in rows]
        stats[side, kind] = (min(values), statistics.median(values))
lines += ["", "| | kmol min / median | MDAnalysis min / median | speed-up of mins | of medians |",
          "|---|---|---|---|---|"]
for kind, name in (("run", "wall s"), ("cpu", "CPU s")):
    k, m = stats["kmol", kind], stats["mdanalysis", kind]
    lines.append(f"| {name} | {k[0]:.2f} / {k[1]:.2f} | {m[0]:.2f} / {m[1]:.2f} | "
                 f"{m[0] / k[0]:.1f}x | {m[1] / k[1]:.1f}x |")
digests = {side: {row[side + "_digest"] for row in rows} for side, rows in results.items()}
identical = len(digests["kmol"]) == 1 and digests["kmol"] == digests["mdanalysis"]
lines += ["", f"Counts identical in every process: {'yes' if identical else 'no'} "
          f"({first['pairs_counted']:,.0f} pair counts per process)."]
if not identical:
    k, m = np.load(f"{work}/counts-kmol.npz"), np.load(f"{work}/counts-mdanalysis.npz")
    n_a, n_b, bins, r_max = first["groups"][0], first["groups"][1], first["nbins"], first["rmax"]
    keys = np.union1d(k["index_0"], m["index_0"])
    ck = np.zeros(len(keys)); cm = np.zeros(len(keys))
    ck[np.searchsorted(keys, k["index_0"])] = k["count_0"]
    cm[np.searchsorted(keys, m["index_0"])] = m["count_0"]
    differ = keys[ck != cm]
    pairs = np.unique(differ // bins)
    u = mda.Universe(f"{work}/water.gro", f"{work}/water.xtc")
    a, b = u.select_atoms("name OW"), u.select_atoms("name HW1 HW2")
    edges = np.linspace(0, r_max, bins + 1)
    near = []
    for ts in u.trajectory[:first["frames"]]:
        box = ts.dimensions[:3].astype(np.float64)
        d = a.positions[pairs // n_b].astype(np.float64) - b.positions[pairs % n_b]
        d -= box * np.round(d / box)
        r = np.sqrt((d * d).sum(axis=1))
        near.append(np.abs(r[:, None] - edges[None, :]).min(axis=1))
    nearest = np.min(near, axis=0)
    lines.append(f"The first round's counts differ in {len(differ)} (pair, bin) entries of "
                 f"{len(pairs)} pairs, whose double-precision distances lie at most "
                 f"{nearest.max():.2g} A from a bin edge.")
    if nearest.max() < 1e-4:
        lines[-1] += (" MDAnalysis subtracts the coordinates in float32 (calc_distances.h) and "
                      "kmol in the working precision, so the two may place such a pair on "
                      "either side of the edge.")
    else:
        lines[-1] += " Some of them are not at an edge: a real difference."
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
