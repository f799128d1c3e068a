"""kmol: performance-portable molecular-modelling kernels on numpy arrays.

Lengths are in Angstrom (MD in reduced LJ units). Every function takes the options of the
``kmol`` command: ``impl``, ``device`` ('auto', 'cpu', 'gpu') and, where it applies, ``precision``;
``kmol.set_threads(n)`` before the first computation chooses the host threads (``--threads``).
``kmol.open(path, top=None)`` iterates the frames of any file kmol reads.

    import kmol, numpy as np
    xyz = np.random.default_rng(1).uniform(0, 40, (20000, 3))
    h = kmol.pair_histogram(xyz, r_max=15, bins=300, box=[40, 40, 40])

Bad input raises ValueError with kmol's message, and so does a result that would be empty or not
finite (no pair within r_max, say; allow_empty=True keeps an empty one with a
kmol.EmptyResultWarning); a request no implementation or device can run raises
kmol.UnsupportedError. ``kmol.mdanalysis`` holds drop-ins for MDAnalysis' InterRDF and
InterRDF_s.
"""
from ._kmol import (MD, RDF, Correlation, EmptyResultWarning, Frame, FrameIterator, Map, Mesh,
                    PairHistogram, Rand48, Trajectory, UnsupportedError, __version__,
                    cross_correlation, density, info, marching_cubes, molden_orbitals, open,
                    orbital, pair_histogram, potential, read_map, read_pqr, Scattering, scattering,
                    set_threads, SolutionScattering, write_example_molden, KirkwoodBuff)

# Not open: `from kmol import *` keeps the builtin.
__all__ = ["MD", "RDF", "Correlation", "EmptyResultWarning", "Frame", "FrameIterator", "Map",
           "Mesh", "PairHistogram", "Rand48", "Trajectory", "UnsupportedError", "__version__",
           "cross_correlation", "density", "info", "marching_cubes", "molden_orbitals", "orbital",
           "pair_histogram", "potential", "read_map", "read_pqr", "Scattering", "scattering", "set_threads",
           "SolutionScattering", "KirkwoodBuff",
           "write_example_molden"]
