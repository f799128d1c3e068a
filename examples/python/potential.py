#!/usr/bin/python3
"""The electrostatic potential of a few ions (multiple Debye-Hueckel), a slice plotted.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/potential.py [OUT_DIR]
writes OUT_DIR/potential.png and OUT_DIR/potential.dx.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
positions = np.array([[0.0, 0.0, 0.0], [6.0, 0.0, 0.0], [3.0, 5.0, 0.0], [3.0, 1.7, 4.0]])
charges = np.array([1.0, -1.0, 1.0, -1.0])  # e
radii = np.array([1.8, 2.0, 1.8, 2.0])  # Angstrom
m = kmol.potential(positions, charges, radii, method="mdh", ionic_strength=0.15, spacing=0.25,
                   padding=8)
m.write_dx(f"{out}/potential.dx", "POTENTIAL (kT/e)")
k = int(np.argmin(np.abs(m.axis(2))))  # the plane z = 0
x, y = m.axis(0), m.axis(1)
fig, ax = plt.subplots(figsize=(6, 5))
image = ax.pcolormesh(x, y, m.values[:, :, k].T, cmap="RdBu_r", vmin=-5, vmax=5, shading="auto")
fig.colorbar(image, label=f"potential ({m.units})")
ax.set(xlabel="x (Angstrom)", ylabel="y (Angstrom)", aspect="equal",
       title=f"mdh, I = 0.15 M, z = {m.axis(2)[k]:.2f} A ({m.impl})")
fig.savefig(f"{out}/potential.png", dpi=100)
print(f"wrote {out}/potential.png and potential.dx ({m.values.shape} points)")
