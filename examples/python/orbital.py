#!/usr/bin/python3
"""Water's HOMO (kmol's STO-3G test molecule) on a lattice, a plane plotted.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/orbital.py [OUT_DIR]
writes OUT_DIR/water.molden and OUT_DIR/orbital.png.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
kmol.write_example_molden(f"{out}/water.molden", "water")
homo = kmol.orbital(f"{out}/water.molden", "homo", spacing=0.05, padding=3)
k = int(np.argmax(np.abs(homo.values).max(axis=(0, 1))))
limit = np.abs(homo.values).max()
fig, ax = plt.subplots(figsize=(6, 5))
image = ax.pcolormesh(homo.axis(0), homo.axis(1), homo.values[:, :, k].T, cmap="RdBu_r",
                      vmin=-limit, vmax=limit, shading="auto")
fig.colorbar(image, label=f"psi ({homo.units})")
ax.set(xlabel="x (Angstrom)", ylabel="y (Angstrom)", aspect="equal",
       title=f"water HOMO, z = {homo.axis(2)[k]:.2f} A ({homo.impl})")
fig.savefig(f"{out}/orbital.png", dpi=100)
print(f"wrote {out}/orbital.png ({homo.values.size} points)")
