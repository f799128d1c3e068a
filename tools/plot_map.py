#!/usr/bin/python3
"""Plots of kmol's maps (run by the --plot options of kmol potential, orbital, surf and cc).

plot_map.py VALUES.txt OUT.png --extent x0 x1 y0 y1 [--title T --xlabel X --ylabel Y --units U --quantity Q --iso V --diverging]
    VALUES.txt: one row of a map's plane per line, the lowest y first; the iso value is drawn as a contour.
    --diverging: a red-blue scale symmetric about 0, clipped at the 99th percentile of the magnitude
    (potentials and orbitals, which diverge at atoms or change sign); otherwise viridis over the values.
plot_map.py DATA.csv OUT.png --timeline [--title T]
    DATA.csv: columns frame,time,cc (lines starting with # are comments).
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np


def colour_label(a, clipped):
    label = f"{a.quantity} ({a.units})" if a.quantity else a.units
    return label + (", clipped at the 99th percentile of its magnitude" if clipped else "")


def slice_plot(a):
    v = np.atleast_2d(np.loadtxt(a.data, ndmin=2))
    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=120)
    scale = dict(cmap="viridis")
    if a.diverging:
        finite = np.abs(v[np.isfinite(v)])
        limit = float(np.percentile(finite, 99)) if finite.size else 1.0
        limit = limit if limit > 0 else 1.0
        scale = dict(cmap="RdBu_r", vmin=-limit, vmax=limit)
    image = ax.imshow(v, origin="lower", extent=a.extent, interpolation="nearest", aspect="equal", **scale)
    if a.iso is not None and v.min() < a.iso < v.max():
        x0, x1, y0, y1 = a.extent
        xs = np.linspace(x0, x1, v.shape[1] + 1)
        ys = np.linspace(y0, y1, v.shape[0] + 1)
        ax.contour(0.5 * (xs[1:] + xs[:-1]), 0.5 * (ys[1:] + ys[:-1]), v, levels=[a.iso], colors="white", linewidths=1.0)
    ax.set_title(a.title)
    ax.set_xlabel(a.xlabel)
    ax.set_ylabel(a.ylabel)
    fig.colorbar(image, ax=ax, label=colour_label(a, a.diverging))
    fig.tight_layout()
    fig.savefig(a.out, format="png")  # the output is a temporary name, renamed by kmol


def timeline_plot(a):
    with open(a.data) as f:
        rows = [line for line in f if not line.startswith("#")]
    t = np.genfromtxt(rows, delimiter=",", names=True, ndmin=1)
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.plot(t["frame"], t["cc"], marker="o" if t.size < 50 else None, lw=1.2)
    ax.set_xlabel("frame")
    ax.set_ylabel("cross-correlation")
    ax.set_title(a.title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(a.out, format="png")  # the output is a temporary name, renamed by kmol


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("data")
    p.add_argument("out")
    p.add_argument("--timeline", action="store_true")
    p.add_argument("--title", default="")
    p.add_argument("--xlabel", default="x (Å)")
    p.add_argument("--ylabel", default="y (Å)")
    p.add_argument("--units", default="")
    p.add_argument("--quantity", default="")
    p.add_argument("--iso", type=float)
    p.add_argument("--diverging", action="store_true")
    p.add_argument("--extent", type=float, nargs=4)
    a = p.parse_args()
    timeline_plot(a) if a.timeline else slice_plot(a)


if __name__ == "__main__":
    main()
