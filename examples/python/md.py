#!/usr/bin/python3
"""Lennard-Jones MD stepped from Python: an analysis callback accumulates g(r) every 20 steps
while the engine runs (reduced units).

    PYTHONPATH=build/openmp/python /usr/bin/python3 examples/python/md.py [OUT_DIR]
writes OUT_DIR/md.png.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import kmol  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "."
md = kmol.MD(atoms=4000, temperature=1.44, thermostat="langevin")
rdf = kmol.RDF(r_max=4.0, bins=160)
energy = []


def analyse(m):
    rdf.add_frame(m.positions, box=m.box)
    energy.append((m.time, m.thermo["total"], m.thermo["temperature"]))


md.run(400, every=20, callback=analyse)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.plot(rdf.bins, rdf.rdf)
left.set(xlabel="r (sigma)", ylabel="g(r)", title=f"{rdf.frames} frames, {md.impl}")
t, e, temperature = zip(*energy)
right.plot(t, temperature, label="T")
right.plot(t, e, label="E/N")
right.set(xlabel="t (tau)", title="thermostatted at T = 1.44")
right.legend()
fig.tight_layout()
fig.savefig(f"{out}/md.png", dpi=100)
print(f"wrote {out}/md.png: {rdf.frames} frames analysed during {md.step} steps")
