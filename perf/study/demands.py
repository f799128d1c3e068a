"""Demands per item for results recorded before their suite exported `<resource>_per_item`
counters (docs/study.md derives them). A benchmark's own counters take precedence."""
import math

# pair_histogram, reference problems of perf/bench_pair_histogram.cpp (uniform points in a cube of
# side L): every pair counts without a box (r_max = sqrt(3) L); in a periodic box the pairs within
# r_max of the minimum image are the sphere's share of the cell, (4/3) pi r_max^3 / L^3. The
# instruction floors are those of the shared evaluator (docs/study.md).
_PAIR_HISTOGRAM = {
    "nobox": {"smem_atomics": 1.0, "instructions": 24.0},
    "ortho": {"smem_atomics": math.pi / 6, "instructions": 33.0},
    "triclinic": {"smem_atomics": 4.0 / 3.0 * math.pi * 0.45 ** 3, "instructions": 60.0},
}


# Potential maps in single precision: direct Coulomb needs one reciprocal square root per atom
# evaluation, multiple Debye-Hueckel an exponential as well (both special-function unit work).
_COULOMB_SINGLE = {"direct": {"special_functions": 1.0}, "mdh": {"special_functions": 2.0}}


def defaults(kernel, case):
    if kernel == "pair_histogram":
        for segment in case:
            if segment in _PAIR_HISTOGRAM:
                return _PAIR_HISTOGRAM[segment]
    if kernel.startswith("coulomb") and any(s.startswith("single") for s in case):
        for method, demand in _COULOMB_SINGLE.items():
            if method in kernel:
                return demand
    return {}
