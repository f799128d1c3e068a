#!/usr/bin/python3
"""MDAnalysis' InterRDF_s against kmol.mdanalysis.InterRDF_s in one process: whole .run() wall
time on the same Universe and frames, and whether every per-pair count is identical.

    /usr/bin/python3 perf/interrdf_s_bench.py --gro water.gro --xtc md.xtc --out result.json

water.gro: a water box of 2,000+ molecules, e.g. `gmx solvate -cs spc216.gro -box 4.02 4.02 4.02
-o water.gro` (2,165 molecules: OW 2,165 x HW 4,330). Without --xtc the trajectory (written once
beside --out) moves every atom by a Gaussian of 0.2 A per frame from that structure. The two runs
follow each other and their count arrays are compared through a digest, so that only one holds
memory at a time (len(OW) x len(HW) x nbins doubles each). PYTHONPATH must reach the kmol package.
"""
import argparse
import hashlib
import json
import os
import platform
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import MDAnalysis as mda  # noqa: E402
from MDAnalysis.analysis import rdf  # noqa: E402

import kmol  # noqa: E402
from kmol.mdanalysis import InterRDF_s  # noqa: E402
from interrdf_bench import trajectory  # noqa: E402  (beside this script)


def summary(analysis):
    """Time-independent digest of every count, and their total."""
    digest = hashlib.sha256()
    total = 0.0
    for count in analysis.results.count:
        digest.update(np.ascontiguousarray(count, dtype=np.uint32).tobytes())
        total += float(count.sum())
    return digest.hexdigest(), total


def run(make, stop):
    start = time.perf_counter()
    analysis = make().run(stop=stop)
    seconds = time.perf_counter() - start
    digest, total = summary(analysis)
    return seconds, digest, total


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gro", required=True)
    p.add_argument("--xtc", help="trajectory (default: written beside --out)")
    p.add_argument("--frames", type=int, default=3)
    p.add_argument("--sel1", default="name OW")
    p.add_argument("--sel2", default="name HW1 HW2")
    p.add_argument("--nbins", type=int, default=25)
    p.add_argument("--rmax", type=float, default=15.0)
    p.add_argument("--device", default="auto")
    p.add_argument("--precision", default="double")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    u = trajectory(a.gro, a.frames, a.xtc or os.path.splitext(a.out)[0] + ".xtc")
    ags = [[u.select_atoms(a.sel1), u.select_atoms(a.sel2)]]
    settings = {"nbins": a.nbins, "range": (0.0, a.rmax)}
    ours = run(lambda: InterRDF_s(u, ags, device=a.device, precision=a.precision, **settings),
               a.frames)
    theirs = run(lambda: rdf.InterRDF_s(u, ags, **settings), a.frames)
    result = {
        "machine": platform.node(), "cores": os.cpu_count(), "kmol": kmol.__version__,
        "mdanalysis": mda.__version__, "atoms": u.atoms.n_atoms,
        "groups": [len(ags[0][0]), len(ags[0][1])], "frames": min(a.frames, u.trajectory.n_frames),
        "nbins": a.nbins, "rmax": a.rmax, "device": a.device, "precision": a.precision,
        "kmol_run_s": ours[0], "mdanalysis_run_s": theirs[0], "speedup": theirs[0] / ours[0],
        "counts_identical": ours[1] == theirs[1], "pairs_counted": theirs[2],
    }
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
