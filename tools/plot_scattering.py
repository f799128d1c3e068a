#!/usr/bin/python3
"""Plots a kmol scattering .dat: I(q) on log-log axes and the Kratky plot q^2 I(q).

usage: plot_scattering.py DATA.dat OUT.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    data, out = sys.argv[1], sys.argv[2]
    q, i, sigma = np.loadtxt(data, unpack=True, ndmin=2)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    positive = (q > 0) & (i > 0)
    left.errorbar(q[positive], i[positive], yerr=sigma[positive], fmt="-", lw=1)
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("q (1/Angstrom)")
    left.set_ylabel("I(q)")
    left.set_title("log-log")
    right.plot(q, q * q * i, "-", lw=1)
    right.set_xlabel("q (1/Angstrom)")
    right.set_ylabel("q^2 I(q)")
    right.set_title("Kratky")
    fig.tight_layout()
    fig.savefig(out, dpi=100, format="png")


if __name__ == "__main__":
    main()
