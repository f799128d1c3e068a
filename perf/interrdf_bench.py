#!/usr/bin/python3
"""MDAnalysis' InterRDF against kmol.mdanalysis.InterRDF in one process: whole .run() wall time on
the same Universe, frame reading included, and how much of it is MDAnalysis reading frames.

    /usr/bin/python3 perf/interrdf_bench.py --gro water.gro --frames 100 --out result.json

water.gro: a real-size water box, e.g. `gmx solvate -cs spc216.gro -box 7 7 7 -o water.gro`
(11,225 molecules). The trajectory (XTC, written once beside --out) moves every atom by a
Gaussian of 0.2 A per frame from that structure. PYTHONPATH must reach the kmol package.
"""
import argparse
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
from kmol.mdanalysis import InterRDF  # noqa: E402


def trajectory(gro, frames, path):
    if not os.path.exists(path):
        u = mda.Universe(gro)
        start = u.atoms.positions.copy()
        rng = np.random.default_rng(7)
        with mda.Writer(path, u.atoms.n_atoms) as w:
            for _ in range(frames):
                u.atoms.positions = start + rng.normal(0, 0.2, start.shape).astype(np.float32)
                w.write(u.atoms)
    return mda.Universe(gro, path)


def arguments(doc, frames, nbins):
    """The options both InterRDF benchmarks take (each adds its selections and sides)."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--gro", required=True)
    p.add_argument("--xtc", help="trajectory (default: written beside --out)")
    p.add_argument("--frames", type=int, default=frames)
    p.add_argument("--nbins", type=int, default=nbins)
    p.add_argument("--rmax", type=float, default=15.0)
    p.add_argument("--device", default="auto")
    p.add_argument("--precision", default="double")
    p.add_argument("--out", required=True)
    return p


def universe(a):
    """The Universe of --gro and --xtc, the trajectory written beside --out without --xtc."""
    return trajectory(a.gro, a.frames, a.xtc or os.path.splitext(a.out)[0] + ".xtc")


def described(u, a):
    """The fields every result starts with: where it ran, the versions and the histogram."""
    return {"machine": platform.node(), "cores": os.cpu_count(), "kmol": kmol.__version__,
            "mdanalysis": mda.__version__, "atoms": u.atoms.n_atoms, "nbins": a.nbins,
            "rmax": a.rmax, "device": a.device, "precision": a.precision}


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main():
    p = arguments(__doc__, frames=100, nbins=75)
    p.add_argument("--selection", default="name OW")
    p.add_argument("--repeats", type=int, default=3, help="kmol runs (the median is reported)")
    p.add_argument("--skip-mdanalysis", action="store_true")
    a = p.parse_args()
    u = universe(a)
    oxygens = u.select_atoms(a.selection)
    settings = {"nbins": a.nbins, "range": (0.0, a.rmax)}

    def read_only():
        for _ in u.trajectory:
            oxygens.positions
    read, _ = timed(read_only)
    runs = []
    for _ in range(a.repeats):
        runs.append(timed(lambda: InterRDF(oxygens, oxygens, device=a.device,
                                           precision=a.precision, **settings).run()))
    ours_time = float(np.median([t for t, _ in runs]))
    ours = runs[0][1]
    result = described(u, a)
    result.update({
        "selected": len(oxygens), "frames": u.trajectory.n_frames, "kmol_impl": ours.impl,
        "gpus": [g["name"] for g in kmol.info()["gpus"]],
        "read_only_s": read, "kmol_run_s": ours_time, "kmol_runs_s": [t for t, _ in runs],
        "kmol_read_share": read / ours_time,
    })
    if not a.skip_mdanalysis:
        theirs_time, theirs = timed(lambda: rdf.InterRDF(oxygens, oxygens, **settings).run())
        differ = np.abs(ours.results.count - theirs.results.count)
        same = differ == 0
        result.update({
            "mdanalysis_run_s": theirs_time, "speedup": theirs_time / ours_time,
            "mdanalysis_read_share": read / theirs_time,
            "count_differences": int(differ.sum()), "pairs": float(theirs.results.count.sum()),
            "rdf_max_relative_difference_where_counts_agree": float(np.max(
                np.abs(ours.results.rdf[same] - theirs.results.rdf[same])
                / np.maximum(np.abs(theirs.results.rdf[same]), 1e-300))),
        })
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
