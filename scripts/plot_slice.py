#!/usr/bin/python3
"""Heat map of one plane of a kmol map (called by `kmol potential --plot`, `kmol orbital --plot`).

plot_slice.py VALUES.txt OUT.png --title T --xlabel X --ylabel Y --units U [--quantity Q] --extent x0 x1 y0 y1
VALUES.txt holds one row of the plane per line (first line: the lowest y).
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("values")
    p.add_argument("out")
    p.add_argument("--title", default="")
    p.add_argument("--xlabel", default="x (Å)")
    p.add_argument("--ylabel", default="y (Å)")
    p.add_argument("--units", default="kT/e")
    p.add_argument("--quantity", default="potential", help="what the map holds (colour bar label)")
    p.add_argument("--extent", type=float, nargs=4, required=True)
    a = p.parse_args()
    v = np.atleast_2d(np.loadtxt(a.values, ndmin=2))
    # Potentials diverge at atoms: a symmetric scale at the 99th percentile keeps the map readable.
    finite = np.abs(v[np.isfinite(v)])
    limit = float(np.percentile(finite, 99)) if finite.size else 1.0
    limit = limit if limit > 0 else 1.0
    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=120)
    image = ax.imshow(v, origin="lower", extent=a.extent, cmap="RdBu_r", vmin=-limit, vmax=limit,
                      interpolation="nearest", aspect="equal")
    ax.set_title(a.title)
    ax.set_xlabel(a.xlabel)
    ax.set_ylabel(a.ylabel)
    fig.colorbar(image, ax=ax, label=f"{a.quantity} ({a.units}), clipped at the 99th percentile of its magnitude")
    fig.tight_layout()
    fig.savefig(a.out)


if __name__ == "__main__":
    main()
