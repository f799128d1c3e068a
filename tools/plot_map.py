#!/usr/bin/python3
"""Plots for kmol surf and kmol cc (run by their --plot options).

plot_map.py slice VALUES.txt --out OUT.png [--title T --xlabel X --ylabel Y --units U --iso V] --extent x0 x1 y0 y1
    VALUES.txt: one row of the plane per line, the lowest y first; the iso value is drawn as a contour.
plot_map.py timeline DATA.csv --out OUT.png [--title T]
    DATA.csv: columns frame,time,cc (lines starting with # are comments).
"""
import argparse

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np


def slice_plot(a):
    v = np.atleast_2d(np.loadtxt(a.data, ndmin=2))
    fig, ax = plt.subplots(figsize=(6.4, 5.2), dpi=120)
    image = ax.imshow(v, origin="lower", extent=a.extent, cmap="viridis", interpolation="nearest", aspect="equal")
    if a.iso is not None and v.min() < a.iso < v.max():
        x0, x1, y0, y1 = a.extent
        xs = np.linspace(x0, x1, v.shape[1] + 1)
        ys = np.linspace(y0, y1, v.shape[0] + 1)
        ax.contour(0.5 * (xs[1:] + xs[:-1]), 0.5 * (ys[1:] + ys[:-1]), v, levels=[a.iso], colors="white", linewidths=1.0)
    ax.set_title(a.title)
    ax.set_xlabel(a.xlabel)
    ax.set_ylabel(a.ylabel)
    fig.colorbar(image, ax=ax, label=a.units)
    fig.tight_layout()
    fig.savefig(a.out)


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
    fig.savefig(a.out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["slice", "timeline"])
    p.add_argument("data")
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="")
    p.add_argument("--xlabel", default="x (Å)")
    p.add_argument("--ylabel", default="y (Å)")
    p.add_argument("--units", default="")
    p.add_argument("--iso", type=float)
    p.add_argument("--extent", type=float, nargs=4)
    a = p.parse_args()
    slice_plot(a) if a.mode == "slice" else timeline_plot(a)


if __name__ == "__main__":
    main()
