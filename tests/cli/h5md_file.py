"""For the CLI tests' Python snippets: a minimal H5MD 1.1 file of frames without a box."""
import h5py
import numpy as np


def write_unboxed(path, frames, charges=None, dt=1.0):
    """frames: [frame][atom][x, y, z] in Angstrom, steps 0, 1, ... every dt ps; charges in e."""
    frames = np.asarray(frames, dtype=np.float32)
    with h5py.File(path, "w") as f:
        f.create_group("h5md").attrs["version"] = np.array([1, 1])
        p = f.create_group("particles/all")
        p.create_group("box").attrs["dimension"] = 3
        p["box"].attrs["boundary"] = np.array([b"none"] * 3)
        p.create_dataset("position/value", data=frames).attrs["unit"] = "Angstrom"
        p.create_dataset("position/step", data=np.arange(len(frames)))
        p.create_dataset("position/time", data=np.arange(len(frames)) * dt)
        if charges is not None:
            p.create_dataset("charge", data=np.asarray(charges, dtype=np.float64))
