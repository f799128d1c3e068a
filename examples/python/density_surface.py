#!/usr/bin/python3
"""A Gaussian density map of a small cluster, its isosurface (area, volume) and the correlation
of the map with a noisy copy of itself.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/density_surface.py [OUT_DIR]
writes OUT_DIR/density_surface.png.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(4)
positions = rng.normal(0, 4, (60, 3))  # Angstrom
radii = np.full(60, 1.7)
d = kmol.density(positions, radii, spacing=0.5)
mesh = kmol.marching_cubes(d, 0.5)
noisy = d.values + rng.normal(0, 0.1, d.values.shape).astype(np.float32)
cc = kmol.cross_correlation(d, noisy, origin=d.origin, spacing=d.spacing)

fig = plt.figure(figsize=(10, 4.5))
ax = fig.add_subplot(1, 2, 1, projection="3d")
ax.plot_trisurf(*mesh.vertices.T, triangles=mesh.faces, color="tab:orange", linewidth=0)
ax.set(title=f"iso 0.5: {mesh.area:.0f} A^2, {mesh.volume:.0f} A^3")
right = fig.add_subplot(1, 2, 2)
k = d.values.shape[2] // 2
right.imshow(d.values[:, :, k].T, origin="lower", cmap="viridis")
right.contour(d.values[:, :, k].T, levels=[0.5], colors="w")
right.set(title=f"density, middle plane; cc with noise {cc.coefficient:.3f}")
fig.tight_layout()
fig.savefig(f"{out}/density_surface.png", dpi=100)
print(f"wrote {out}/density_surface.png: {len(mesh.faces)} triangles, closed: "
      f"{mesh.open_edges == 0}, cc {cc.coefficient:.4f}")
