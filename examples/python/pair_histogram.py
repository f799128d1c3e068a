#!/usr/bin/python3
"""g(r) of a Lennard-Jones liquid, its species partials, and an exclusion, from numpy arrays.

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/pair_histogram.py [OUT_DIR]
writes OUT_DIR/pair_histogram.png.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
# A liquid to look at: kmol's own LJ engine melts an FCC crystal (reduced units, sigma = 1).
md = kmol.MD(atoms=4000, temperature=1.5)
md.run(500)
xyz, box = md.positions, md.box

rdf = kmol.RDF(r_max=4.5, bins=180)
rdf.add_frame(xyz, box=box)

# Two species at random, and the partial histograms of the three species pairs.
species = np.random.default_rng(3).integers(0, 2, len(xyz)).astype(np.int32)
partial = kmol.pair_histogram(xyz, box=box, r_max=4.5, bins=180, species=species)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.plot(rdf.bins, rdf.rdf)
left.set(xlabel="r (sigma)", ylabel="g(r)", title=f"LJ liquid, {len(xyz)} atoms ({rdf.impl})")
for pair, counts in zip(partial.species_pairs, partial.counts):
    right.plot(rdf.bins, counts, label=f"species {pair[0]}-{pair[1]}")
right.set(xlabel="r (sigma)", ylabel="pairs per bin", title="species partials")
right.legend()
fig.tight_layout()
fig.savefig(f"{out}/pair_histogram.png", dpi=100)
print(f"wrote {out}/pair_histogram.png; first peak g = {rdf.rdf.max():.3f}")
