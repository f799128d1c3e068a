"""Demands per item for results recorded before their suite exported `<resource>_per_item`
counters (docs/study.md derives them). A benchmark's own counters take precedence. Demands may name
a function (`rsqrt`, `exp`, `fp64_rsqrt`, `fp64_exp`), which each platform prices in its own
resources (machines.expansions). The geometry of each problem is that of its suite in
perf/bench_*.cpp; a size the derivation does not cover gets no demand."""
import functools
import math

import numpy as np

# pair_histogram, reference problems of perf/bench_pair_histogram.cpp (uniform points in a cube of
# side L): every pair counts without a box (r_max = sqrt(3) L); in a periodic box the pairs within
# r_max of the minimum image are the sphere's share of the cell, (4/3) pi r_max^3 / L^3. The
# instruction floors are those of the shared evaluator (docs/study.md).
_PAIR_HISTOGRAM = {
    "nobox": {"smem_atomics": 1.0, "instructions": 16.0},
    "ortho": {"smem_atomics": math.pi / 6, "instructions": 19.0},
    "triclinic": {"smem_atomics": 4.0 / 3.0 * math.pi * 0.45 ** 3, "instructions": 52.0},
}
ORTHO_INSTRUCTIONS = _PAIR_HISTOGRAM["ortho"]["instructions"]


def _cells_frame(n):
    """The cell-list frame: N atoms at 0.1 / A^3 in a periodic cube, r_max 12 A, rate counting all
    N (N - 1) / 2 pairs: only the share within r_max, (4/3) pi r_max^3 / V, must be counted, and
    each atom's 3 floats cross to the device once ((N - 1) / 2 pairs per atom)."""
    counted = 4.0 / 3.0 * math.pi * 12.0 ** 3 * 0.1 / n
    return {"smem_atomics": counted, "instructions": ORTHO_INSTRUCTIONS * counted,
            "host_to_device_bytes": 12.0 / (0.5 * (n - 1))}


# Coulomb: what one (point, atom) term needs beyond its reciprocal square root (and exponential),
# with a lattice row's dx^2 + dy^2 shared by its points: the z difference, r^2 by fma, the term
# into the sum by fma, the self-term's compare and select (direct); the cutoff's shift
# s = 1 - r^2/rc^2, s^2, q/r, the range's two compares, and and select; mdh's r = r^2 / r,
# exp(-kappa r) and the product. A compensated sum adds four additions a term (Kahan).
_COULOMB_SINGLE = {"direct": 5.0, "cutoff": 10.0, "mdh_faces": 8.0}
_COULOMB_DOUBLE = {"direct": 4.0, "cutoff": 8.0, "mdh_faces": 8.0}  # compares on the FP64 pipe
KAHAN_EXTRA = 4.0

# The cutoff suite's water box: 96,600 atoms uniform in a 100 A cube; cutoff 12 A; lattice points
# 0.5 A apart over the whole cube (201^3) or its 8 middle z planes (201x201x8).
_WATER = {"atoms": 96600, "length": 100.0, "cutoff": 12.0, "spacing": 0.5, "side": 201}


@functools.lru_cache(maxsize=None)
def atoms_within_cutoff(planes):
    """Mean number of atoms within the cutoff of a lattice point: density x the mean volume of the
    cutoff sphere inside the cube, over the lattice's points (midpoint quadrature over the sphere,
    the lattice's own coordinates on each axis)."""
    w = _WATER
    rc, length, h = w["cutoff"], w["length"], w["spacing"]
    full = np.arange(w["side"]) * h
    z = full if planes == w["side"] else 0.5 * h * (w["side"] - planes) + np.arange(planes) * h

    def inside(coords, t):  # share of the axis' coordinates c with 0 <= c + t <= L
        return (np.searchsorted(coords, length - t, side="right") -
                np.searchsorted(coords, -t, side="left")) / len(coords)

    step = 0.2
    g = np.arange(-rc + step / 2, rc, step)
    dx, dy, dz = np.meshgrid(g, g, g, indexing="ij")
    ball = dx ** 2 + dy ** 2 + dz ** 2 < rc * rc
    share = inside(full, dx[ball]) * inside(full, dy[ball]) * inside(z, dz[ball])
    return w["atoms"] / length ** 3 * share.sum() * step ** 3


def _coulomb(method, precision, size):
    if method not in _COULOMB_SINGLE:
        return {}
    compensated = precision == "single_compensated"
    if precision == "double":
        term = {"fp64_rsqrt": 1.0, "fp64_instructions": _COULOMB_DOUBLE[method]}
        if method == "mdh_faces":
            term["fp64_exp"] = 1.0
    else:
        term = {"rsqrt": 1.0, "instructions": _COULOMB_SINGLE[method] + (KAHAN_EXTRA if compensated else 0)}
        if method == "mdh_faces":
            term["exp"] = 1.0
    if method != "cutoff":
        return term
    side = _WATER["side"]
    planes = side if size == f"{side}^3" else int(size.rsplit("x", 1)[1]) if size.startswith(f"{side}x{side}x") else 0
    if planes <= 0:
        return {}
    per_point = atoms_within_cutoff(planes)
    out = {r: v * per_point for r, v in term.items()}
    out["device_to_host_bytes"] = 8.0 if precision == "double" else 4.0  # the map comes back
    return out


SQRT_2_LN_100 = math.sqrt(2 * math.log(100))  # a Gaussian's cut radius over sigma at threshold 0.01


def _lattice_points_per_atom(n, spacing, padding):
    """bench_density.cpp's lattices: n atoms uniform at 0.1 / A^3 in a cube of side (n / 0.1)^(1/3),
    the grid around them grown by `padding` on each side."""
    side = (n / 0.1) ** (1 / 3)
    return (math.ceil((side + 2 * padding) / spacing - 1e-9) + 1) ** 3 / n


def _gaussians_per_atom(sigmas, spacing):
    """Lattice points within each Gaussian's cut radius (sigma x sqrt(2 ln 100)), averaged."""
    return sum(4 / 3 * math.pi * (SQRT_2_LN_100 * s / spacing) ** 3 for s in sigmas) / len(sigmas)


# Per (atom, lattice point) term of a Gaussian map: the x difference (a row shares dy^2 + dz^2),
# d^2 by fma, the exponent's product, the threshold's compare and select, the add into the point.
GAUSSIAN_TERM_INSTRUCTIONS = 6.0


def _density(storage, n):
    """Rate in atoms/s: each atom's Gaussian over the points within its cut radius (Bondi radii
    1.2, 1.7, 1.55, 1.52, 1.8 A in turn, scale 1, 1 A lattice), each map point written once and
    sent back, each atom's position and radius read and sent up."""
    ppa = _lattice_points_per_atom(n, 1.0, 5.0)
    g = _gaussians_per_atom([1.2, 1.7, 1.55, 1.52, 1.8], 1.0)
    value = 2.0 if storage == "half" else 4.0
    return {"exp": g, "instructions": GAUSSIAN_TERM_INSTRUCTIONS * g + (ppa if storage == "half" else 0),
            "dram_bytes": 16 + value * ppa, "host_to_device_bytes": 16.0, "device_to_host_bytes": value * ppa}


def _cc(n):
    """Rate in atoms/s: the simulated map (sigma 0.225 x 6.5 A on a 6.5/3 A lattice padded by 6.5 A)
    and its correlation with the reference: five sums a point, the reference read once and sent up
    with the atoms."""
    h = 6.5 / 3
    ppa = _lattice_points_per_atom(n, h, 6.5)
    g = _gaussians_per_atom([0.225 * 6.5], h)
    return {"exp": g, "instructions": GAUSSIAN_TERM_INSTRUCTIONS * g + 5 * ppa,
            "dram_bytes": 16 + 4 * ppa, "host_to_device_bytes": 16 + 4 * ppa}


# C60 in 6-31G*: per atom 15 Cartesian functions from 11 distinct exponents (1s: 6; 2sp: 3, shared
# by 2s and 2p; 3sp: 1; d: 1). Per atom and point beyond the 11 exponentials: dx and r^2 (2), each
# primitive's exponent product and contraction fma (22), psi += c R for 3 s shells (3), two p
# shells' c . (x, y, z) and product (8), the d shell's 6 products, 6-term form and product (13).
ORBITAL_EXPS_PER_FUNCTION = 11 / 15
ORBITAL_OTHER_PER_FUNCTION = 48 / 15
C60_FUNCTIONS, C60_OCCUPIED = 900, 180


def _orbital(kernel, case):
    if kernel == "orbital/c60_631gs":
        double = case[:1] == ("double",)
        value = 8.0 if double else 4.0
        if double:
            need = {"fp64_exp": ORBITAL_EXPS_PER_FUNCTION, "fp64_instructions": ORBITAL_OTHER_PER_FUNCTION}
        else:
            need = {"exp": ORBITAL_EXPS_PER_FUNCTION, "instructions": ORBITAL_OTHER_PER_FUNCTION}
        need["device_to_host_bytes"] = value / C60_FUNCTIONS
        return need
    if kernel == "orbital/c60_631gs_all":  # items: point x function x orbital; one fma each
        return {"fp32_flops": 2.0, "exp": ORBITAL_EXPS_PER_FUNCTION / C60_OCCUPIED,
                "instructions": ORBITAL_OTHER_PER_FUNCTION / C60_OCCUPIED,
                "device_to_host_bytes": 4.0 / C60_FUNCTIONS}
    return {}


# Lennard-Jones, rate in atom-steps/s. All pairs: bench_md.cpp's 27 flops a pair (fp32 counter; the
# double case the same in FP64). Neighbour lists and cells: the pairs within r_c = 2.5 at
# rho = 0.8442, each once (Newton's third law): (2/3) pi 2.5^3 0.8442 = 27.6 a atom, 24 flops each
# (difference and r^2: 8, 1/r^2, r^-6, the force factor, its three components and the two atoms'
# updates); each atom's position and velocity read and written once a step.
MD_FLOPS_PER_PAIR_ALL = 27.0
MD_PAIRS_PER_ATOM = 2.0 / 3.0 * math.pi * 2.5 ** 3 * 0.8442
MD_FLOPS_PER_PAIR = 24.0


def _md(kernel, case, size):
    double = case[:1] == ("double",)
    flops = "fp64_flops" if double else "fp32_flops"
    if kernel == "md_all_pairs" and size.isdigit():
        return {flops: MD_FLOPS_PER_PAIR_ALL * float(size)}
    if kernel == "md_lj":
        return {flops: MD_FLOPS_PER_PAIR * MD_PAIRS_PER_ATOM, "dram_bytes": 4 * 3 * (8 if double else 4)}
    return {}


def defaults(kernel, case, size=""):
    if kernel == "pair_histogram":
        for segment in case:
            if segment in _PAIR_HISTOGRAM:
                return _PAIR_HISTOGRAM[segment]
    if kernel == "pair_histogram_cells_frame" and size.isdigit():
        return _cells_frame(int(size))
    if kernel.startswith("coulomb/") and case:
        return _coulomb(kernel.split("/")[1], case[0], size)
    if kernel == "density" and case and size.isdigit():
        return _density(case[0], int(size))
    if kernel == "cc" and size.isdigit():
        return _cc(int(size))
    if kernel == "marching_cubes":  # each map value read once; from host arrays it goes up first
        need = {"dram_bytes": 4.0}
        if "host_arrays" in case:
            need["host_to_device_bytes"] = 4.0
        return need
    if kernel.startswith("orbital/"):
        return _orbital(kernel, case)
    if kernel.startswith("md_"):
        return _md(kernel, case, size)
    return {}
