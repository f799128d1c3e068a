#!/usr/bin/python3
"""MDAnalysis' InterRDF_s against kmol.mdanalysis.InterRDF_s in one process: whole .run() wall
time on the same Universe and frames, and whether every per-pair count is identical.

    /usr/bin/python3 perf/interrdf_s_bench.py --gro water.gro --xtc md.xtc --out result.json

water.gro: a water box of 2,000+ molecules, e.g. `gmx solvate -cs spc216.gro -box 4.02 4.02 4.02
-o water.gro` (2,165 molecules: OW 2,165 x HW 4,330). Without --xtc the trajectory (written once
beside --out) moves every atom by a Gaussian of 0.2 A per frame from that structure. The two runs
follow each other and their count arrays are compared through a digest, so that only one holds
memory at a time (len(OW) x len(HW) x nbins doubles each). --side kmol or --side mdanalysis runs
one of them alone, for timing each in processes of its own (perf/interrdf_s_processes.sh); the
JSON then holds that side's time and digest. PYTHONPATH must reach the kmol package.
"""
import hashlib
import json
import os
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
from MDAnalysis.analysis import rdf  # noqa: E402

from kmol.mdanalysis import InterRDF_s  # noqa: E402
from interrdf_bench import arguments, described, universe  # noqa: E402  (beside this script)


def summary(analysis, save=None):
    """Time-independent digest of every count, and their total; with `save`, the nonzero counts
    (flat index into each request's array, value) written there as .npz."""
    digest = hashlib.sha256()
    total = 0.0
    nonzero = {}
    for k, count in enumerate(analysis.results.count):
        digest.update(np.ascontiguousarray(count, dtype=np.uint32).tobytes())
        total += float(count.sum())
        if save:
            flat = np.flatnonzero(count)
            nonzero[f"index_{k}"], nonzero[f"count_{k}"] = flat, count.ravel()[flat]
    if save:
        np.savez_compressed(save, **nonzero)
    return digest.hexdigest(), total


def run(make, stop, save=None):
    """Wall and CPU seconds of .run() (the process's CPU, every thread), and the counts' digest."""
    start, cpu = time.perf_counter(), time.process_time()
    analysis = make().run(stop=stop)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    digest, total = summary(analysis, save)
    return seconds, cpu, digest, total


def main():
    p = arguments(__doc__, frames=3, nbins=25)
    p.add_argument("--sel1", default="name OW")
    p.add_argument("--sel2", default="name HW1 HW2")
    p.add_argument("--side", choices=("both", "kmol", "mdanalysis"), default="both")
    p.add_argument("--save-counts", metavar="PREFIX",
                   help="write each side's nonzero counts to PREFIX-SIDE.npz")
    a = p.parse_args()
    u = universe(a)
    ags = [[u.select_atoms(a.sel1), u.select_atoms(a.sel2)]]
    settings = {"nbins": a.nbins, "range": (0.0, a.rmax)}

    def saved(side):
        return f"{a.save_counts}-{side}.npz" if a.save_counts else None

    runs = {}
    if a.side in ("both", "kmol"):
        runs["kmol"] = run(lambda: InterRDF_s(u, ags, device=a.device, precision=a.precision,
                                              **settings), a.frames, saved("kmol"))
    if a.side in ("both", "mdanalysis"):
        runs["mdanalysis"] = run(lambda: rdf.InterRDF_s(u, ags, **settings), a.frames,
                                 saved("mdanalysis"))
    result = described(u, a)
    result.update({
        "groups": [len(ags[0][0]), len(ags[0][1])], "frames": min(a.frames, u.trajectory.n_frames),
        "side": a.side, "load_average_1min_at_end": os.getloadavg()[0],
    })
    for side, (seconds, cpu, digest, total) in runs.items():
        result.update({f"{side}_run_s": seconds, f"{side}_cpu_s": cpu, f"{side}_digest": digest,
                       "pairs_counted": total})
    if len(runs) == 2:
        result["speedup"] = runs["mdanalysis"][0] / runs["kmol"][0]
        result["counts_identical"] = runs["kmol"][2] == runs["mdanalysis"][2]
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
