#!/usr/bin/python3
"""MDAnalysis' InterRDF, with kmol counting the pairs: O-O g(r) of a water box written as XTC.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/mdanalysis_rdf.py [OUT_DIR]
writes OUT_DIR/water.xtc (from GROMACS' spc216 box when gmx is installed, else random molecules)
and OUT_DIR/mdanalysis_rdf.png.
"""
import os
import shutil
import subprocess
import sys
import warnings

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
import MDAnalysis as mda  # noqa: E402

from kmol.mdanalysis import InterRDF  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
gro = f"{out}/water.gro"
spc216 = "/usr/share/gromacs/top/spc216.gro"
if shutil.which("gmx") and os.path.exists(spc216):
    subprocess.run(["gmx", "-quiet", "solvate", "-cs", "spc216.gro", "-box", "3.5", "3.5", "3.5",
                    "-o", gro], check=True, capture_output=True)
    u = mda.Universe(gro)
else:
    n = 1400
    u = mda.Universe.empty(3 * n, n_residues=n, atom_resindex=np.repeat(np.arange(n), 3),
                           trajectory=True)
    u.add_TopologyAttr("name", ["OW", "HW1", "HW2"] * n)
    u.atoms.positions = np.random.default_rng(1).uniform(0, 35, (3 * n, 3))
    u.dimensions = [35, 35, 35, 90, 90, 90]
    u.atoms.write(gro)
start = u.atoms.positions.copy()
rng = np.random.default_rng(2)
with mda.Writer(f"{out}/water.xtc", u.atoms.n_atoms) as w:
    for _ in range(20):
        u.atoms.positions = start + rng.normal(0, 0.1, start.shape).astype(np.float32)
        w.write(u.atoms)
u = mda.Universe(gro, f"{out}/water.xtc")
ow = u.select_atoms("name OW")
rdf = InterRDF(ow, ow, nbins=150, range=(0.0, 15.0), exclusion_block=(1, 1)).run()
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(rdf.results.bins, rdf.results.rdf)
ax.set(xlabel="r (Angstrom)", ylabel="g_OO(r)",
       title=f"{len(ow)} waters, {rdf.n_frames} frames (kmol {rdf.impl})")
fig.savefig(f"{out}/mdanalysis_rdf.png", dpi=100)
print(f"wrote {out}/mdanalysis_rdf.png; first peak at {rdf.results.bins[rdf.results.rdf.argmax()]} A")
