#!/usr/bin/python3
"""H5MD both ways with MDAnalysis (Debian's python3-mdanalysis): a file MDAnalysis writes is read
by kmol rdf, a file kmol writes loads in MDAnalysis, and on both kmol's counts match InterRDF's.
Also: tools/convert-to-h5md brings XTC + PDB in, and --top with --exclude-same residue matches
InterRDF's exclusion blocks. Usage: mdanalysis_interop.py KMOL CONVERT. Exits 77 without MDAnalysis."""
import os
import subprocess
import sys
import tempfile
import warnings

try:
    import MDAnalysis as mda
    from MDAnalysis.analysis.rdf import InterRDF
    import numpy as np
except ImportError:
    print("MDAnalysis is not installed: skipped")
    sys.exit(77)

warnings.filterwarnings("ignore")
kmol, convert = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp()
os.chdir(work)
env = dict(os.environ, OMP_PROC_BIND="false")


def kmol_counts(path, *args):
    subprocess.run([kmol, "rdf", path, "--quiet", "--precision", "double", "--csv", "k.csv", "--out", "k.xvg", *args],
                   check=True, env=env)
    rows = [line for line in open("k.csv") if not line.startswith("#")]
    return np.genfromtxt(rows, delimiter=",", names=True)


def compare(universe, path, rmax, bins, sel_a="all", sel_b=None):
    a = universe.select_atoms(sel_a)
    b = universe.select_atoms(sel_b or sel_a)
    rdf = InterRDF(a, b, nbins=bins, range=(0.0, rmax), exclusion_block=(1, 1) if sel_b is None else None)
    rdf.run()
    args = ["--rmax", str(rmax), "--bins", str(bins)]
    if sel_b is not None:
        args += ["--sel1", "index 0:{}".format(len(a) - 1), "--sel2", "index {}:{}".format(len(a), len(a) + len(b) - 1)]
    table = kmol_counts(path, *args)
    theirs = rdf.results.count if sel_b is not None else rdf.results.count / 2  # InterRDF counts i-j and j-i
    differ = np.abs(table["count"] - theirs).sum()
    total = theirs.sum()
    # Distances within rounding of a bin edge may fall either side (float32 coordinates).
    assert differ <= 1e-5 * total + 4, "counts differ by {} of {}".format(differ, total)
    # InterRDF divides by the mean volume, kmol by the mean inverse volume (exact under NPT).
    volumes = np.array([ts.volume for ts in universe.trajectory])
    g_theirs = rdf.results.rdf / (np.mean(volumes) * np.mean(1 / volumes))
    mask = theirs > 100
    assert np.allclose(table["g"][mask], g_theirs[mask], rtol=1e-3), "g(r) differs: {}".format(table["g"][mask] / g_theirs[mask])
    return total


# 1. MDAnalysis writes, kmol reads: a random system with a changing triclinic box, in nm.
rng = np.random.default_rng(3)
n, frames = 400, 5
u = mda.Universe.empty(n, trajectory=True)
coords, dims = [], []
for f in range(frames):
    dims.append([24.0 + f, 25.0, 26.0, 90.0, 80.0, 85.0])
    coords.append(rng.uniform(0, 24, size=(n, 3)).astype(np.float32))
from MDAnalysis.coordinates.memory import MemoryReader
u.load_new(np.array(coords), format=MemoryReader, dimensions=np.array(dims))
u.trajectory.units = {"time": "ps", "length": "Angstrom"}
with mda.Writer("from_mda.h5md", n_atoms=n, units={"time": "ps", "length": "nm"}) as w:
    for ts in u.trajectory:
        w.write(u)
w.h5md_file.close()  # MDAnalysis 2.4's H5MDWriter.close() leaves the HDF5 file open (and locked)
back = mda.Universe.empty(n, trajectory=False)
back.load_new("from_mda.h5md", format="H5MD")
pairs = compare(back, "from_mda.h5md", 9.0, 45)
print("MDAnalysis -> kmol: triclinic, nm, {} frames; counts agree ({} pairs)".format(frames, int(pairs)))

# 2. kmol writes, MDAnalysis reads: positions, boxes and counts of two selections agree.
subprocess.run([kmol, "example-trajectory", "--example", "fcc", "--cells", "5", "--frames", "4", "--out", "kmol.h5"],
               check=True, env=env, stdout=subprocess.DEVNULL)
mine = mda.Universe.empty(500, trajectory=False)
mine.load_new("kmol.h5", format="H5MD")
assert mine.trajectory.n_frames == 4 and np.allclose(mine.dimensions[:3], 20.25) and np.allclose(mine.dimensions[3:], 90)
import h5py
with h5py.File("kmol.h5") as f:
    mine.trajectory[2]
    assert np.array_equal(mine.atoms.positions, f["particles/all/position/value"][2])
pairs = compare(mine, "kmol.h5", 8.0, 80, "index 0:199", "index 200:499")
print("kmol -> MDAnalysis: positions and boxes identical; two-selection counts agree ({} pairs)".format(int(pairs)))

# 3. XTC + PDB through tools/convert-to-h5md; names from --top; pairs within a water excluded.
waters = 60
w = mda.Universe.empty(3 * waters, n_residues=waters, atom_resindex=np.repeat(np.arange(waters), 3), trajectory=True)
w.add_TopologyAttr("name", ["OW", "HW1", "HW2"] * waters)
w.add_TopologyAttr("type", ["O", "H", "H"] * waters)
w.add_TopologyAttr("resname", ["SOL"] * waters)
w.add_TopologyAttr("resid", np.arange(1, waters + 1))
w.load_new(rng.uniform(0, 18, (3, 3 * waters, 3)).astype(np.float32), format=MemoryReader,
           dimensions=np.array([[18.0, 18.0, 18.0, 90.0, 90.0, 90.0]] * 3))
w.trajectory.units = {"time": "ps", "length": "Angstrom"}
w.atoms.write("water.pdb")
with mda.Writer("water.xtc", 3 * waters) as out:
    for ts in w.trajectory:
        out.write(w.atoms)
subprocess.run([convert, "water.pdb", "water.xtc", "-o", "water.h5"], check=True, stdout=subprocess.DEVNULL)
water = mda.Universe("water.pdb", "water.xtc")
oxygen, hydrogen = water.select_atoms("name OW"), water.select_atoms("name HW*")
theirs = InterRDF(oxygen, hydrogen, nbins=40, range=(0.0, 8.0), exclusion_block=(1, 2)).run().results.count
table = kmol_counts("water.h5", "--top", "water.pdb", "--sel1", "name OW", "--sel2", "name HW*",
                    "--exclude-same", "residue", "--rmax", "8", "--bins", "40")
assert np.abs(table["count"] - theirs).sum() <= 4, "O-H counts with exclusions differ"
print("XTC -> convert-to-h5md -> kmol with --top and --exclude-same residue: counts agree with InterRDF")
