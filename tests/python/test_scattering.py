"""kmol.Scattering and kmol.scattering: the histogram route within its stated error of the direct
Debye sum, frames accumulated with a spread, structure factors of a periodic box, the C API's
intensities equal to the module's, and refusals naming the keyword."""
import ctypes
import os

import numpy as np
import pytest

import kmol

ELEMENTS = ["C"] * 200 + ["O"] * 60 + ["N"] * 40


def blob(seed=1):
    return np.random.default_rng(seed).uniform(-12, 12, (300, 3))


def test_histogram_route_is_within_its_error_of_the_direct_sum():
    x = blob()
    for probe in ("xray", "neutron"):
        h = kmol.scattering(x, elements=ELEMENTS, probe=probe, q_max=0.8, q_bins=41)
        d = kmol.scattering(x, elements=ELEMENTS, probe=probe, q_max=0.8, q_bins=41, impl="direct")
        assert h.types == ["C", "O", "N"] and h.pairs[1] == "C-O"
        assert np.all(np.abs(h.intensity - d.intensity) <= h.error + 1e-9 * d.intensity)
        assert np.allclose(h.partial.sum(axis=0), h.intensity)
        assert d.intensity[0] > 50 * d.intensity[-1]
        assert h.guinier["ok"] and 5 < h.guinier["rg"] < 15


def test_frames_accumulate_with_a_spread():
    rng = np.random.default_rng(2)
    s = kmol.Scattering(elements=ELEMENTS, probe="neutron", d2o=0.5, q_max=0.5, q_bins=26)
    x = blob()
    for _ in range(4):
        s.add_frame(x + rng.normal(0, 0.3, x.shape))
    assert s.frames == 4
    assert np.all(s.sigma[1:] > 0) and s.sigma[0] >= 0
    assert s.q[-1] == pytest.approx(0.5)


def test_ideal_gas_structure_factor_is_one():
    rng = np.random.default_rng(3)
    s = kmol.Scattering(elements=["Ar"] * 1500, q_min=0.6, q_max=3, q_bins=13)
    for _ in range(10):
        s.add_frame(rng.uniform(0, 35, (1500, 3)), box=[35, 35, 35])
    assert np.allclose(s.structure_factor, 1, atol=0.06)
    assert s.faber_ziman.shape == (1, 13)
    direct = kmol.Scattering(elements=["Ar"] * 1500, q_min=0.6, q_max=3, q_bins=13)
    direct.add_frame(rng.uniform(0, 35, (1500, 3)), box=[35, 35, 35])
    assert direct.intensity.shape == (13,)


def test_refusals_name_the_keyword():
    with pytest.raises(ValueError, match="elements .one symbol per atom"):
        kmol.scattering(blob()[:3], elements=["C", "Xx", "O"])
    with pytest.raises(ValueError, match="bin_width"):
        kmol.Scattering(elements=ELEMENTS, q_max=2, bin_width=1)
    with pytest.raises(ValueError, match="d2o"):
        kmol.Scattering(elements=ELEMENTS, d2o=2)


def test_c_api_gives_the_same_intensity():
    path = os.path.join(os.path.dirname(kmol.__file__), "..", "..", "drivers", "libkmol_c.so")
    if not os.path.exists(path):
        pytest.skip("no libkmol_c.so beside this build's module")
    c = ctypes.CDLL(path)
    c.kmol_scattering_create.restype = ctypes.c_void_p
    c.kmol_scattering_create.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64,
                                         ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                         ctypes.c_double, ctypes.c_int32]
    c.kmol_scattering_add_frame.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    c.kmol_scattering_result.argtypes = [ctypes.c_void_p] + [ctypes.c_void_p] * 4
    c.kmol_scattering_destroy.argtypes = [ctypes.c_void_p]
    assert c.kmol_initialize() == 0
    names = (ctypes.c_char_p * len(ELEMENTS))(*[e.encode() for e in ELEMENTS])
    job = c.kmol_scattering_create(names, len(ELEMENTS), 0, 0.0, 0.0, 0.5, 11)
    assert job
    x = np.ascontiguousarray(blob(), dtype=np.float64)
    assert c.kmol_scattering_add_frame(job, x.ctypes.data, None) == 0
    out = np.zeros(11)
    assert c.kmol_scattering_result(job, None, out.ctypes.data, None, None) == 0
    c.kmol_scattering_destroy(job)
    # The C library's own Kokkos stops here, as its header asks, not at the interpreter's exit.
    assert c.kmol_finalize() == 0
    mine = kmol.scattering(x, elements=ELEMENTS, q_max=0.5, q_bins=11).intensity
    assert np.allclose(out, mine, rtol=1e-12)


def solute_with_far_solvent(seed=4):
    """A 60-atom solute about the centre of a 40 A box, and 8 oxygens at the box's corners (the
    solvent: none of them within any observation volume used here)."""
    rng = np.random.default_rng(seed)
    solute = rng.normal(0, 3, (60, 3)) + 20
    corners = np.array([[x, y, z] for x in (0.5, 39.5) for y in (0.5, 39.5) for z in (0.5, 39.5)])
    elements = ["C"] * 40 + ["N"] * 10 + ["O"] * 10 + ["O"] * 8
    return solute, corners, elements


def outward(solute, distance):
    """A point `distance` beyond the solute's outermost atom, away from its centre."""
    r = solute - solute.mean(axis=0)
    i = np.argmax((r * r).sum(axis=1))
    return (solute[i] + distance * r[i] / np.linalg.norm(r[i]))[None, :]


def test_excess_over_an_empty_solvent_is_the_solute_in_vacuum():
    solute, corners, elements = solute_with_far_solvent()
    vacuum = kmol.scattering(solute, elements=elements[:60], q_max=0.8, q_bins=41).intensity
    assert vacuum[0] > 30 * vacuum[-1]
    for volume in ({"radius": 14.0}, {"shell": 5.0}):
        s = kmol.SolutionScattering(elements, list(range(60)), ["O"] * 8, q_max=0.8, q_bins=41,
                                    **volume)
        s.add_solution_frame(np.vstack([solute, corners]), box=[40, 40, 40])
        s.add_solvent_frame(corners, box=[40, 40, 40])
        assert s.frames == 1 and s.solvent_frames == 1
        assert np.allclose(s.intensity, vacuum, rtol=1e-9), volume
        assert s.guinier["ok"]


def test_a_shell_takes_the_solvent_within_its_thickness():
    solute, corners, elements = solute_with_far_solvent()
    # An oxygen 2 A out from the solute's outermost atom (so at least 2 A from every solute atom)
    # joins a 3 A shell, not a 1.5 A one.
    near = outward(solute, 2.0)
    xyz = np.vstack([solute, corners, near])
    els = elements + ["O"]
    intensity = {}
    for d in (1.5, 3.0):
        s = kmol.SolutionScattering(els, list(range(60)), ["O"] * 8, shell=d, q_max=0.5, q_bins=11)
        s.add_solution_frame(xyz, box=[40, 40, 40])
        s.add_solvent_frame(corners, box=[40, 40, 40])
        intensity[d] = s.intensity
    vacuum = kmol.scattering(solute, elements=elements[:60], q_max=0.5, q_bins=11).intensity
    with_near = kmol.scattering(np.vstack([solute, near]), elements=elements[:60] + ["O"],
                                q_max=0.5, q_bins=11).intensity
    assert np.allclose(intensity[1.5], vacuum, rtol=1e-9)
    assert np.allclose(intensity[3.0], with_near, rtol=1e-9)
    assert not np.allclose(vacuum, with_near, rtol=1e-3)


def test_a_sphere_takes_the_solvent_within_its_radius():
    solute, corners, elements = solute_with_far_solvent()
    # An oxygen 2 A out from the solute's outermost atom joins a sphere reaching past it; the
    # solvent has no atom in either sphere, so the excess is the intensity of what the sphere holds.
    near = outward(solute, 2.0)
    xyz = np.vstack([solute, corners, near])
    els = elements + ["O"]
    reach = np.linalg.norm(near[0] - solute.mean(axis=0))
    s = kmol.SolutionScattering(els, list(range(60)), ["O"] * 8, radius=reach + 1, q_max=0.5,
                                q_bins=11)
    s.add_solution_frame(xyz, box=[40, 40, 40])
    s.add_solvent_frame(corners, box=[40, 40, 40])
    with_near = kmol.scattering(np.vstack([solute, near]), elements=elements[:60] + ["O"],
                                q_max=0.5, q_bins=11).intensity
    assert np.allclose(s.intensity, with_near, rtol=1e-9)


def test_solution_refusals_name_the_keyword():
    solute, corners, elements = solute_with_far_solvent()
    xyz = np.vstack([solute, corners])
    with pytest.raises(ValueError, match="shell.*positive"):
        kmol.SolutionScattering(elements, list(range(60)), ["O"] * 8, shell=-1)
    s = kmol.SolutionScattering(elements, list(range(60)), ["O"] * 8, shell=16)
    with pytest.raises(ValueError, match="shell: the solute with its shell of 16 Angstrom .* does "
                                         "not fit in the box"):
        s.add_solution_frame(xyz, box=[40, 40, 40])
    s = kmol.SolutionScattering(elements, list(range(60)), ["Na"] * 8, radius=14)
    s.add_solution_frame(xyz, box=[40, 40, 40])
    with pytest.raises(ValueError, match="solvent_elements: is not the solution's solvent: it has "
                                         "Na"):
        s.add_solvent_frame(corners, box=[40, 40, 40])
    s = kmol.SolutionScattering(elements, list(range(60)), ["O"] * 8, shell=3)
    with pytest.raises(ValueError, match="solution's first frame comes first"):
        s.add_solvent_frame(corners, box=[40, 40, 40])
    s.add_solution_frame(xyz, box=[40, 40, 40])
    s.add_solution_frame(xyz, box=[40, 40, 40])
    s.add_solvent_frame(corners, box=[40, 40, 40])
    with pytest.raises(ValueError, match="1 solvent frames cut by 2 solution frames' shapes"):
        s.intensity


def test_c_api_solution_gives_the_modules_excess():
    path = os.path.join(os.path.dirname(kmol.__file__), "..", "..", "drivers", "libkmol_c.so")
    if not os.path.exists(path):
        pytest.skip("no libkmol_c.so beside this build's module")
    c = ctypes.CDLL(path)
    p = ctypes.c_void_p
    c.kmol_solution_scattering_create.restype = p
    c.kmol_solution_scattering_create.argtypes = [
        ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64, p, ctypes.c_int64,
        ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64, ctypes.c_int, ctypes.c_double,
        ctypes.c_int, ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_int32]
    c.kmol_solution_scattering_add_solution_frame.argtypes = [p, p, p]
    c.kmol_solution_scattering_add_solvent_frame.argtypes = [p, p, p]
    c.kmol_solution_scattering_result.argtypes = [p] * 5
    c.kmol_solution_scattering_destroy.argtypes = [p]
    assert c.kmol_initialize() == 0
    solute, corners, elements = solute_with_far_solvent()
    near = outward(solute, 2.0)
    els = elements + ["O"]
    xyz = np.ascontiguousarray(np.vstack([solute, corners, near]))
    names = (ctypes.c_char_p * len(els))(*[e.encode() for e in els])
    water = (ctypes.c_char_p * 8)(*[b"O"] * 8)
    index = np.arange(60, dtype=np.int64)
    box = np.diag([40.0, 40.0, 40.0]).ravel()
    job = c.kmol_solution_scattering_create(names, len(els), index.ctypes.data, 60, water, 8, 1,
                                            3.0, 0, 0.0, 0.0, 0.5, 11)
    assert job
    assert c.kmol_solution_scattering_add_solution_frame(job, xyz.ctypes.data, box.ctypes.data) == 0
    far = np.ascontiguousarray(corners)
    assert c.kmol_solution_scattering_add_solvent_frame(job, far.ctypes.data, box.ctypes.data) == 0
    out = np.zeros(11)
    assert c.kmol_solution_scattering_result(job, None, out.ctypes.data, None, None) == 0
    c.kmol_solution_scattering_destroy(job)
    assert c.kmol_finalize() == 0
    s = kmol.SolutionScattering(els, list(range(60)), ["O"] * 8, shell=3.0, q_max=0.5, q_bins=11)
    s.add_solution_frame(xyz, box=[40, 40, 40])
    s.add_solvent_frame(corners, box=[40, 40, 40])
    assert np.allclose(out, s.intensity, rtol=1e-12) and out[0] > 5 * out[-1]
