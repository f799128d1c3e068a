#!/usr/bin/python3
"""glibc's drand48 sequence from kmol's parallel generator: the same numbers as the C library,
their histogram plotted.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/rand48.py [OUT_DIR]
writes OUT_DIR/rand48.png.
"""
import ctypes
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
stream = kmol.Rand48(seed=2024)
numbers = stream.drand48(10_000_000)
libc = ctypes.CDLL("libc.so.6")
libc.drand48.restype = ctypes.c_double
libc.srand48(2024)
assert all(libc.drand48() == x for x in numbers[:1000]), "differs from glibc"
fig, ax = plt.subplots(figsize=(6, 4))
ax.hist(numbers, bins=100, histtype="step")
ax.set(xlabel="drand48()", ylabel="count", title=f"{len(numbers):,} numbers, seed 2024")
fig.savefig(f"{out}/rand48.png", dpi=100)
print(f"wrote {out}/rand48.png; mean {numbers.mean():.6f}, the first 1000 equal glibc's")
