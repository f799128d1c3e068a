#!/usr/bin/python3
"""Plots g(r) and n(r) from kmol's CSV: plot_rdf.py DATA.csv OUT.png YLABEL TITLE (run by `kmol rdf --plot`)."""
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import numpy as np


def main():
    data, out, ylabel, title = sys.argv[1:5]
    with open(data) as f:
        lines = f.readlines()
    rows = [line for line in lines if not line.startswith("#")]
    unit = "nm" if lines and "r in nm" in lines[0] else "Å"  # kmol rdf --gmx writes nm
    table = np.genfromtxt(rows, delimiter=",", names=True)
    fig, left = plt.subplots(figsize=(7, 4.5), dpi=120)
    r = table["r_centre"]
    left.plot(r, table["g"], color="tab:blue", lw=1.4)
    errors = "g_std_error" in table.dtype.names  # kmol rdf --blocks: a band of one standard error
    if errors:
        left.fill_between(r, table["g"] - table["g_std_error"], table["g"] + table["g_std_error"],
                          color="tab:blue", alpha=0.3, lw=0, label="± standard error")
        left.legend(loc="lower right", fontsize=8)
    left.axhline(1.0, color="grey", lw=0.6, ls=":")
    left.set_xlabel(f"r ({unit})")
    left.set_ylabel(ylabel, color="tab:blue")
    right = left.twinx()
    right.plot(r, table["n"], color="tab:orange", lw=1.0, ls="--")
    if errors:
        right.fill_between(r, table["n"] - table["n_std_error"], table["n"] + table["n_std_error"],
                           color="tab:orange", alpha=0.25, lw=0)
    right.set_ylabel("n(r), cumulative coordination", color="tab:orange")
    left.set_title(title or "Radial distribution function", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, format="png")


if __name__ == "__main__":
    main()
