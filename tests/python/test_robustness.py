"""Every public function and class of kmol, over hostile input (hypothesis): shapes, dtypes,
NaN and inf, empty and huge values, absurd sizes, bad boxes, counts and spacings. The contract:
a ValueError, a TypeError (wrong types) or a kmol.UnsupportedError with a Python-worded message,
or a correct result; never a crash, a hang, a C++ exception leaking as RuntimeError, a refusal
that names a command-line option, or a silent NaN or empty result.

Deterministic (derandomize) and bounded (max_examples) so CI is stable. Absurd sizes are refused
before any allocation: the process runs under an address-space limit on builds without CUDA, so
an allocation attempted instead of refused fails the test rather than the machine.
"""
import re
import resource

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kmol

PROPERTY = settings(max_examples=60, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
ABSURD = 2 ** 40  # points or values: terabytes, refused up front on every machine


@pytest.fixture(scope="module", autouse=True)
def bounded_memory():
    if "Cuda" in kmol.info()["backends"]:
        yield  # CUDA reserves address space far beyond any limit worth setting
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, hard))
    yield
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ---------------------------------------------------------------------------------------------
# The contract


ALLOWED = (ValueError, TypeError, kmol.UnsupportedError)
CXX = re.compile(r"std::|bad_alloc|basic_string|vector::|_M_|Kokkos|pybind11|Unable to cast|"
                 r"terminate called|Traceback functionality")
CLI_OPTION = re.compile(r"(^|[\s(`'\"])--[a-z]")


def refused(error):
    """Asserts `error` is one of the contract's refusals, worded for Python."""
    text = str(error)
    assert isinstance(error, ALLOWED), f"{type(error).__name__}: {text}"
    assert not CXX.search(text), f"a C++ name in the message: {text}"
    assert not CLI_OPTION.search(text), f"a command-line option in the message: {text}"
    assert text.strip(), f"{type(error).__name__} without a message"


def outcome(call, *args, **kwargs):
    """The result of call(...), or None after checking that its exception is a refusal."""
    try:
        return call(*args, **kwargs)
    except (KeyboardInterrupt, SystemExit, AssertionError):
        raise
    except Exception as error:  # noqa: BLE001: every other type must be one of the contract's
        refused(error)
        return None


def must_refuse(call, *args, **kwargs):
    try:
        result = call(*args, **kwargs)
    except (KeyboardInterrupt, SystemExit, AssertionError):
        raise
    except Exception as error:  # noqa: BLE001
        refused(error)
        return
    pytest.fail(f"accepted, returned {result!r}")


def finite_map(m, counts=None):
    values = np.asarray(m.values, dtype=np.float64)
    assert values.ndim == 3 and values.size > 0
    assert tuple(values.shape) == tuple(m.counts)
    if counts is not None:
        assert tuple(m.counts) == tuple(counts)
    assert np.all(np.isfinite(m.origin)) and np.all(np.asarray(m.spacing) > 0)
    # Inputs that overflow (charges of 3.4e38, a dielectric of 1e-320, a lattice at 1e38 A) are
    # refused by the map finiteness checks, never returned.
    assert np.all(np.isfinite(values)), "non-finite map values returned"


# ---------------------------------------------------------------------------------------------
# Input strategies

REALS = st.one_of(
    st.floats(-50, 50, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-320, 1e-38, 1e30, -1e30, 3.4e38, 1e300, np.nan, np.inf,
                     -np.inf]))
GOOD_DTYPES = ["float64", "float32", "int64", "int32", "uint8"]
BAD_DTYPES = ["complex128", "bool", "object-str", "str", "datetime64[s]"]


def layout(array, how):
    """The same values as a Fortran-ordered, strided or list view."""
    if how == "fortran":
        return np.asfortranarray(array)
    if how == "strided":
        wide = np.zeros((array.shape[0] * 2,) + array.shape[1:], dtype=array.dtype)
        wide[::2] = array
        return wide[::2]
    if how == "list":
        return array.tolist()
    return array


def typed(values, dtype):
    if dtype == "object-str":
        return np.full(values.shape, "x", dtype=object)
    if dtype == "str":
        return values.astype(str)
    if dtype == "datetime64[s]":
        return np.zeros(values.shape, dtype="datetime64[s]")
    if dtype in ("int64", "int32", "uint8"):
        return np.nan_to_num(np.clip(values, -100, 100)).astype(dtype) if dtype != "uint8" \
            else np.nan_to_num(np.clip(values, 0, 100)).astype(dtype)
    return values.astype(dtype)


@st.composite
def point_sets(draw, max_atoms=24):
    """(array, valid, well_scaled): coordinate arrays of every shape, dtype, value and layout."""
    shape_kind = draw(st.sampled_from(["ok"] * 6 + ["empty", "ndim1", "ndim3", "axis2", "axis4",
                                                     "scalar"]))
    n = draw(st.integers(1, max_atoms))
    shapes = {"ok": (n, 3), "empty": (0, 3), "ndim1": (3 * n,), "ndim3": (n, 3, 1),
              "axis2": (n, 2), "axis4": (n, 4), "scalar": ()}
    shape = shapes[shape_kind]
    size = int(np.prod(shape))
    values_kind = draw(st.sampled_from(["plain"] * 5 + ["special"]))
    if values_kind == "plain":
        values = np.array(draw(st.lists(st.floats(0, 30, allow_nan=False), min_size=size,
                                        max_size=size)), dtype=np.float64).reshape(shape)
    else:
        values = np.array(draw(st.lists(REALS, min_size=size, max_size=size)),
                          dtype=np.float64).reshape(shape)
    dtype = draw(st.sampled_from(GOOD_DTYPES * 3 + BAD_DTYPES))
    array = typed(values, dtype)
    if shape_kind == "ok":
        array = layout(array, draw(st.sampled_from(["c", "c", "fortran", "strided", "list"])))
    finite = dtype not in ("float64", "float32") or bool(np.all(np.isfinite(array)))
    valid = shape_kind == "ok" and dtype in GOOD_DTYPES and finite
    scaled = valid and bool(np.all(np.abs(np.asarray(array, dtype=np.float64)) < 1e6))
    return array, valid, scaled


BOXES = st.one_of(
    st.none(),
    st.lists(REALS, min_size=3, max_size=3),
    st.lists(st.floats(20, 200), min_size=3, max_size=3),
    st.lists(REALS, min_size=0, max_size=10),
    st.lists(st.lists(REALS, min_size=3, max_size=3), min_size=3, max_size=3),
    st.sampled_from([[[40, 0, 0], [0, 40, 0], [0, 0, 40]], [[40, 0, 0], [40, 0, 0], [0, 0, 40]],
                     [[40, 0, 0], [10, 40, 0], [5, 5, 40]], [[0] * 3] * 3]),
    st.tuples(st.floats(20, 200), st.floats(20, 200), st.floats(20, 200),
              st.sampled_from([90.0, 60.0, 0.0, 180.0, 1e-9, np.nan, -90.0, 400.0]),
              st.sampled_from([90.0, 120.0, 0.0, 179.9999, np.nan]),
              st.sampled_from([90.0, 60.0, 0.0, 180.0, 1e30])).map(list),
    st.sampled_from(["40", {"a": 1}, [[40, 40, 40]], np.zeros((3, 2)),
                     np.array([40, 40, 40], dtype=complex), np.array([40, 40, 40], dtype=bool)]))

NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 5),
                    st.sampled_from([0, -1, 1e-320, 1e30, 3.4e38, 2 ** 31, 2 ** 63]))
COUNTS = st.one_of(st.integers(-3, 40), st.sampled_from([0, 2 ** 40, 2 ** 62, 2 ** 63 - 1]))


# ---------------------------------------------------------------------------------------------
# pair_histogram


def oracle_counts(a, b, r_min, r_max, bins, box):
    """Pair counts by numpy, and how many pairs lie within rounding of a bin edge."""
    a = np.asarray(a, dtype=np.float64)
    if b is None:
        i, j = np.triu_indices(len(a), 1)
        d = a[i] - a[j]
    else:
        b = np.asarray(b, dtype=np.float64)
        d = (a[:, None, :] - b[None, :, :]).reshape(-1, 3)
    if box is not None:
        # Every image within r_max (the minimum image and those beyond it), and for one set each
        # atom with its own images, once per pair +-n.
        lengths = np.asarray(box, dtype=np.float64)
        d = d - lengths * np.round(d / lengths)
        reach = [int(np.ceil(r_max / length)) for length in lengths]
        n = np.stack(np.meshgrid(*[np.arange(-k, k + 1) for k in reach], indexing="ij"), -1)
        n = n.reshape(-1, 3)
        shifts = n * lengths
        d = (d[:, None, :] + shifts[None, :, :]).reshape(-1, 3)
        if b is None:
            first = np.where(n[:, 0] != 0, n[:, 0], np.where(n[:, 1] != 0, n[:, 1], n[:, 2]))
            own = shifts[first > 0]
            d = np.concatenate([d, np.repeat(own, len(a), axis=0)])
    r = np.sqrt((d * d).sum(axis=1))
    edges = np.linspace(r_min, r_max, bins + 1)
    counts = np.histogram(r[(r >= r_min) & (r < r_max)], bins=edges)[0]
    near = np.min(np.abs(r[:, None] - edges[None, :]), axis=1) < 1e-4 * max(1.0, r_max)
    return counts, int(near.sum())


def assert_counts_match(h, expected, ambiguous, bins):
    counts = np.asarray(h.counts)
    assert counts.dtype == np.uint64 and counts.shape == (bins,)
    assert len(h.edges) == bins + 1 and np.all(np.diff(h.edges) > 0)
    assert np.abs(counts.astype(np.int64) - expected).sum() <= 2 * ambiguous


@PROPERTY
@given(point_sets(), st.floats(0.5, 40), st.integers(1, 50), st.sampled_from(["auto", "single",
                                                                             "double"]))
def test_pair_histogram_coordinates(points, r_max, bins, precision):
    a, valid, scaled = points
    # allow_empty: one point, or none in range, is an empty result, not a coordinate refusal
    h = outcome(kmol.pair_histogram, a, r_max=r_max, bins=bins, precision=precision,
                allow_empty=True)
    if not valid:
        assert h is None, "invalid coordinates accepted"
        return
    if not scaled:
        return  # huge coordinates: counts by another rounding, refused or not
    assert h is not None, "valid coordinates refused"
    expected, ambiguous = oracle_counts(a, None, 0.0, r_max, bins, None)
    if precision == "single" or np.asarray(a).dtype == np.float32:
        ambiguous += 1  # float32 rounding moves pairs across an edge
    assert_counts_match(h, expected, ambiguous, bins)


@PROPERTY
@given(point_sets(), point_sets(), st.floats(0.5, 30), st.integers(1, 30))
def test_pair_histogram_two_sets(points_a, points_b, r_max, bins):
    (a, valid_a, scaled_a), (b, valid_b, scaled_b) = points_a, points_b
    h = outcome(kmol.pair_histogram, a, b, r_max=r_max, bins=bins, precision="double")
    if not (valid_a and valid_b):
        assert h is None, "invalid coordinates accepted"
        return
    if scaled_a and scaled_b:
        expected, ambiguous = oracle_counts(a, b, 0.0, r_max, bins, None)
        assert_counts_match(h, expected, ambiguous, bins)


@PROPERTY
@given(BOXES, st.floats(1, 15))
def test_pair_histogram_boxes(box, r_max):
    a = np.random.default_rng(3).uniform(0, 40, (30, 3))
    h = outcome(kmol.pair_histogram, a, r_max=r_max, bins=10, box=box, precision="double")
    if h is None:
        return
    counts = np.asarray(h.counts)
    lengths = None
    if box is not None and np.asarray(box).shape == (3,):
        lengths = np.asarray(box, dtype=np.float64)
        assert np.all(np.isfinite(lengths)) and np.all(lengths > 0), "a bad box accepted"
    elif box is not None and np.asarray(box).shape == (6,) and all(x == 90 for x in box[3:]):
        lengths = np.asarray(box[:3], dtype=np.float64)
    elif box is not None and np.asarray(box).shape == (3, 3):
        edges = np.asarray(box, dtype=np.float64)
        assert np.all(np.isfinite(edges)) and abs(np.linalg.det(edges)) > 0, \
            "a degenerate box accepted"
    if box is None or (lengths is not None and r_max <= 0.5 * lengths.min()):
        assert counts.sum() <= 30 * 29 // 2  # within the minimum image: each pair at most once
    # Beyond it every image counts; the oracle lists them where they are not too many.
    if lengths is not None and np.prod([2 * np.ceil(r_max / x) + 1 for x in lengths]) <= 2000:
        expected, ambiguous = oracle_counts(a, None, 0.0, r_max, 10, lengths)
        assert_counts_match(h, expected, ambiguous, 10)


@PROPERTY
@given(NUMBERS, NUMBERS, COUNTS)
def test_pair_histogram_ranges_and_bins(r_min, r_max, bins):
    a = np.random.default_rng(4).uniform(0, 10, (20, 3))
    h = outcome(kmol.pair_histogram, a, r_min=r_min, r_max=r_max, bins=bins)
    if h is None:
        return
    assert np.isfinite(r_min) and np.isfinite(r_max) and 0 <= r_min < r_max and bins >= 1
    expected, ambiguous = oracle_counts(a, None, r_min, r_max, bins, None)
    assert_counts_match(h, expected, ambiguous, bins)


LABELS = st.one_of(
    st.lists(st.integers(-2, 4), min_size=0, max_size=25).map(np.array),
    st.lists(st.integers(0, 3), min_size=20, max_size=20).map(np.array),
    st.lists(st.integers(0, 3), min_size=20, max_size=20).map(lambda v: np.array(v, np.float64)),
    st.sampled_from([np.full(20, 0.5), np.full(20, np.nan), np.full(20, 2 ** 40, np.int64),
                     np.zeros((20, 1), np.int32), np.zeros(20, complex), np.zeros(20, bool),
                     np.array(["a"] * 20), "0" * 20, None]))


@PROPERTY
@given(LABELS, st.one_of(st.none(), st.integers(-2, 6)), st.sampled_from([None, [1], [0, 1, 1],
                                                                         [1] * 10, [2] * 3]))
def test_pair_histogram_species(species, n_species, mask):
    a = np.random.default_rng(5).uniform(0, 10, (20, 3))
    kwargs = {} if n_species is None else {"n_species": n_species}
    h = outcome(kmol.pair_histogram, a, r_max=8, bins=8, species=species, species_pairs=mask,
                **kwargs)
    if h is None or species is None:
        return
    labels = np.asarray(species)
    assert labels.shape == (20,) and labels.dtype.kind in "iu", "non-integer species accepted"
    counts = np.asarray(h.counts)
    assert counts.shape == (len(h.species_pairs), 8)
    if mask is None:
        expected, ambiguous = oracle_counts(a, None, 0.0, 8.0, 8, None)
        assert np.abs(counts.sum(axis=0).astype(np.int64) - expected).sum() <= 2 * ambiguous


@PROPERTY
@given(LABELS, st.booleans())
def test_pair_histogram_molecules(molecules, two_sets):
    a = np.random.default_rng(6).uniform(0, 10, (20, 3))
    if two_sets:
        h = outcome(kmol.pair_histogram, a, a + 0.5, r_max=8, bins=8, molecules=molecules,
                    molecules_b=molecules)
    else:
        h = outcome(kmol.pair_histogram, a, r_max=8, bins=8, molecules=molecules)
    if h is None or molecules is None:
        return
    labels = np.asarray(molecules)
    assert labels.shape == (20,) and labels.dtype.kind in "iu", "non-integer molecules accepted"
    assert np.all(labels == labels.astype(np.int32)), "labels beyond int32 accepted"


@PROPERTY
@given(st.sampled_from(["impl", "device", "precision"]),
       st.one_of(st.text(max_size=8), st.integers(), st.none()))
def test_pair_histogram_names(option, value):
    a = np.random.default_rng(7).uniform(0, 10, (10, 3))
    assume(value not in ("auto", "host", "kokkos", "cells", "cuda", "cpu", "gpu", "single",
                         "double"))
    must_refuse(kmol.pair_histogram, a, r_max=4, bins=4, **{option: value})


# ---------------------------------------------------------------------------------------------
# RDF


@PROPERTY
@given(NUMBERS, COUNTS, NUMBERS, st.sampled_from(["rdf", "density", "none", "RDF", "", "x"]))
def test_rdf_construction(r_max, bins, r_min, norm):
    rdf = outcome(kmol.RDF, r_max, bins, r_min, norm)
    if rdf is None:
        return
    assert np.isfinite(r_min) and np.isfinite(r_max) and 0 <= r_min < r_max and 1 <= bins
    assert bins <= 2 ** 31, "absurd bins accepted"
    assert rdf.frames == 0 and len(rdf.counts) == bins


@PROPERTY
@given(st.lists(st.tuples(point_sets(max_atoms=12), BOXES), min_size=1, max_size=3))
def test_rdf_frames(frames):
    rdf = kmol.RDF(r_max=5, bins=10, precision="double")
    boxes = []
    for (a, valid, _), box in frames:
        before = rdf.frames
        outcome(rdf.add_frame, a, box=box)
        if not valid:
            assert rdf.frames == before, "an invalid frame was counted"
        if rdf.frames > before:
            boxes.append(box)
    if not boxes:
        return
    g = outcome(lambda: rdf.rdf)
    if g is None or np.all(np.isfinite(g)):
        return
    # A g(r) needs a volume and pairs: frames without a box or with one atom give none, and the
    # result checks refuse them.
    pytest.fail(f"a g(r) with NaN or inf: {g}")


def test_rdf_before_any_frame_is_refused_or_finite():
    rdf = kmol.RDF(r_max=5, bins=10)
    g = outcome(lambda: rdf.rdf)
    assert g is None or np.all(np.isfinite(g)), f"a g(r) of no frame: {g}"


# ---------------------------------------------------------------------------------------------
# potential, density, marching_cubes, cross_correlation


def values_like(n, kind):
    rng = np.random.default_rng(n)
    if kind == "ok":
        return rng.uniform(-1, 1, n)
    return {"short": np.ones(max(n - 1, 0)), "long": np.ones(n + 1), "2d": np.ones((n, 1)),
            "nan": np.full(n, np.nan), "inf": np.full(n, np.inf), "huge": np.full(n, 3.4e38),
            "zero": np.zeros(n), "negative": -np.ones(n), "complex": np.ones(n, complex),
            "bool": np.ones(n, bool), "str": np.array(["a"] * n), "none": None,
            "int": np.ones(n, np.int64)}[kind]


VALUE_KINDS = st.sampled_from(["ok"] * 6 + ["short", "long", "2d", "nan", "inf", "huge", "zero",
                                            "negative", "complex", "bool", "str", "none",
                                            "int"])


@PROPERTY
@given(point_sets(max_atoms=10), VALUE_KINDS, VALUE_KINDS, st.sampled_from(["direct", "cutoff",
                                                                            "mdh", "x"]))
def test_potential_inputs(points, charge_kind, radius_kind, method):
    positions, valid, scaled = points
    n = len(positions) if hasattr(positions, "__len__") and np.ndim(positions) >= 1 else 1
    charges = values_like(n, charge_kind)
    radii = values_like(n, radius_kind)
    if radius_kind == "ok":
        radii = np.abs(radii) + 1
    m = outcome(kmol.potential, positions, charges, radii, method=method, spacing=1.0,
                padding=3.0)
    if m is None:
        return
    assert valid, "invalid positions accepted"
    assert charge_kind in ("ok", "zero", "negative", "int", "huge"), \
        f"charges '{charge_kind}' accepted"
    finite_map(m)


@PROPERTY
@given(NUMBERS, NUMBERS, st.one_of(st.none(), st.lists(REALS, min_size=0, max_size=4)),
       st.one_of(st.none(), st.lists(COUNTS, min_size=0, max_size=4)))
def test_potential_lattice(spacing, padding, origin, counts):
    positions = np.random.default_rng(8).uniform(0, 5, (6, 3))
    charges = np.linspace(-1, 1, 6)
    m = outcome(kmol.potential, positions, charges, spacing=spacing, padding=padding,
                origin=origin, counts=counts)
    if m is None:
        return
    assert spacing > 0 and np.isfinite(spacing)
    if counts is not None:
        assert len(counts) == 3 and min(counts) >= 1 and np.prod(counts) <= 1e9
    finite_map(m, counts)


@PROPERTY
@given(NUMBERS, NUMBERS, NUMBERS, NUMBERS, st.sampled_from(["kT/e", "V", "kcal/mol/e", "eV"]))
def test_potential_settings(cutoff, ionic_strength, temperature, dielectric, units):
    positions = np.random.default_rng(9).uniform(0, 5, (6, 3))
    m = outcome(kmol.potential, positions, np.linspace(-1, 1, 6), np.ones(6), method="mdh",
                spacing=1.0, padding=2.0, cutoff=cutoff, ionic_strength=ionic_strength,
                temperature=temperature, dielectric=dielectric, units=units)
    if m is not None:
        finite_map(m)
    m = outcome(kmol.potential, positions, np.linspace(-1, 1, 6), method="cutoff", spacing=1.0,
                padding=2.0, cutoff=cutoff)
    if m is not None:
        assert cutoff > 0
        finite_map(m)


@PROPERTY
@given(point_sets(max_atoms=10), VALUE_KINDS, NUMBERS, NUMBERS,
       st.sampled_from(["float", "half", "double"]))
def test_density(points, radius_kind, scale, threshold, storage):
    positions, valid, scaled = points
    n = len(positions) if hasattr(positions, "__len__") and np.ndim(positions) >= 1 else 1
    radii = values_like(n, radius_kind)
    if radius_kind == "ok":
        radii = np.abs(radii) + 1
    m = outcome(kmol.density, positions, radii, spacing=1.0, scale=scale, threshold=threshold,
                storage=storage)
    if m is None:
        return
    assert valid, "invalid positions accepted"
    assert radius_kind in ("ok", "int"), f"radii '{radius_kind}' accepted"
    assert scale > 0 and 0 < threshold < 1
    finite_map(m)


@PROPERTY
@given(NUMBERS, NUMBERS, st.one_of(st.none(), st.lists(REALS, min_size=3, max_size=3)),
       st.one_of(st.none(), st.lists(COUNTS, min_size=3, max_size=3)), NUMBERS)
def test_density_lattice(spacing, padding, origin, counts, memory_budget):
    positions = np.random.default_rng(10).uniform(0, 5, (6, 3))
    m = outcome(kmol.density, positions, np.full(6, 1.5), spacing=spacing, padding=padding,
                origin=origin, counts=counts, memory_budget=memory_budget)
    if m is not None:
        finite_map(m, counts)


MAPS = st.one_of(
    st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9)).map(
        lambda s: np.random.default_rng(sum(s)).uniform(0, 1, s)),
    st.sampled_from([np.zeros((4, 4)), np.zeros((4, 4, 4, 1)), np.zeros((0, 4, 4)),
                     np.full((5, 5, 5), np.nan), np.full((5, 5, 5), np.inf),
                     np.full((5, 5, 5), 1e300), np.ones((5, 5, 5), complex),
                     np.ones((5, 5, 5), bool), np.asfortranarray(np.ones((5, 6, 7))),
                     np.ones((10, 6, 8))[::2], "map", None]))


@PROPERTY
@given(MAPS, NUMBERS, st.one_of(st.none(), st.lists(REALS, min_size=0, max_size=4)),
       st.one_of(st.none(), NUMBERS, st.lists(NUMBERS, min_size=3, max_size=3)))
def test_marching_cubes(values, iso, origin, spacing):
    mesh = outcome(kmol.marching_cubes, values, iso, origin=origin, spacing=spacing)
    if mesh is None:
        return
    v = np.asarray(values, dtype=np.float64)
    assert v.ndim == 3 and np.all(np.isfinite(v)), "a bad map accepted"
    assert np.isfinite(iso)
    assert np.all(np.isfinite(mesh.vertices)) and np.all(np.isfinite(mesh.normals))
    assert np.isfinite(mesh.area) and np.isfinite(mesh.volume)
    faces = np.asarray(mesh.faces)
    assert faces.size == 0 or (faces.min() >= 0 and faces.max() < len(mesh.vertices))
    assert len(faces) > 0, "an empty isosurface returned: the result checks refuse it"


@PROPERTY
@given(MAPS, MAPS, st.one_of(st.none(), NUMBERS))
def test_cross_correlation(simulated, reference, threshold):
    c = outcome(kmol.cross_correlation, simulated, reference, threshold=threshold,
                origin=[0, 0, 0], spacing=1.0)
    if c is None:
        return
    assert np.isfinite(c.coefficient) and np.all(np.isfinite(c.local.values)), "a NaN coefficient"
    assert c.voxels > 0


def test_maps_from_kmol_map_objects():
    positions = np.random.default_rng(11).uniform(0, 5, (6, 3))
    d = kmol.density(positions, np.full(6, 1.5), spacing=0.5)
    mesh = kmol.marching_cubes(d, 0.5)
    assert len(mesh.faces) > 0 and mesh.open_edges == 0 and mesh.volume > 0
    assert kmol.cross_correlation(d, d).coefficient == pytest.approx(1)
    for bad in (-1, 3, 2 ** 40):
        must_refuse(d.axis, bad)
    must_refuse(d.axis, "x")


@PROPERTY
@given(st.sampled_from(["", "/", "/nonexistent/dir/m.dx", "/proc/self/mem", "\0", "x" * 5000]))
def test_map_write_dx_bad_paths(path):
    d = kmol.density(np.zeros((1, 3)), np.ones(1), spacing=1.0)
    must_refuse(d.write_dx, path)


# ---------------------------------------------------------------------------------------------
# Files: read_pqr, read_map, orbital, molden_orbitals, write_example_molden


@PROPERTY
@given(st.binary(max_size=300), st.sampled_from([".pqr", ".dx", ".mrc", ".molden"]))
def test_readers_on_garbage(tmp_path_factory, content, suffix):
    path = tmp_path_factory.mktemp("garbage") / ("f" + suffix)
    path.write_bytes(content)
    reader = {".pqr": kmol.read_pqr, ".dx": kmol.read_map, ".mrc": kmol.read_map,
              ".molden": kmol.molden_orbitals}[suffix]
    result = outcome(reader, str(path))
    if result is not None and suffix == ".pqr":
        assert len(result["positions"]) > 0, "an empty PQR accepted"
    if result is not None and suffix in (".dx", ".mrc"):
        finite_map(result)


@pytest.mark.parametrize("call", [kmol.read_pqr, kmol.read_map, kmol.molden_orbitals,
                                  kmol.orbital])
@pytest.mark.parametrize("path", ["", "/", "/nonexistent.pqr", "/dev/null", 42, None])
def test_readers_on_bad_paths(call, path):
    must_refuse(call, path)


@pytest.fixture(scope="module")
def water(tmp_path_factory):
    path = tmp_path_factory.mktemp("orbital") / "water.molden"
    kmol.write_example_molden(str(path), "water")
    return str(path)


@PROPERTY
@given(st.one_of(st.integers(-3, 10), st.sampled_from([2 ** 31, 2 ** 63, -2 ** 63, 2 ** 70]),
                 st.sampled_from(["homo", "lumo", "HOMO", "homo-1", "", "5", "x", None, 1.5,
                                  [1]])),
       st.sampled_from(["Alpha", "Beta", "alpha", "x", ""]))
def test_orbital_choice(water, mo, spin):
    m = outcome(kmol.orbital, water, mo, spin=spin, spacing=0.5, padding=2.0)
    if m is not None:
        finite_map(m)


@PROPERTY
@given(NUMBERS, NUMBERS, st.one_of(st.none(), st.lists(REALS, min_size=3, max_size=3)),
       st.one_of(st.none(), st.lists(COUNTS, min_size=3, max_size=3)),
       st.sampled_from(["single", "double", "auto", "half"]))
def test_orbital_lattice(water, spacing, padding, origin, counts, precision):
    m = outcome(kmol.orbital, water, "homo", spacing=spacing, padding=padding, origin=origin,
                counts=counts, precision=precision)
    if m is not None:
        assert spacing > 0 and padding >= 0
        finite_map(m, counts)


@pytest.mark.parametrize("path, molecule", [("/nonexistent/dir/w.molden", "water"),
                                            ("/", "water"), ("", "water"),
                                            ("w.molden", "benzene"), ("w.molden", None)])
def test_write_example_molden_refusals(tmp_path, monkeypatch, path, molecule):
    monkeypatch.chdir(tmp_path)
    must_refuse(kmol.write_example_molden, path, molecule)


# ---------------------------------------------------------------------------------------------
# MD


@PROPERTY
@given(st.one_of(st.integers(-5, 300), st.sampled_from([2 ** 40, 2 ** 62])),
       st.one_of(st.none(), st.lists(st.integers(-2, 4), min_size=0, max_size=4),
                 st.sampled_from([[2 ** 20] * 3, [2 ** 31] * 3, [1.5, 2, 2], "abc"])),
       NUMBERS, NUMBERS)
def test_md_lattice(atoms, cells, density, temperature):
    md = outcome(kmol.MD, atoms=atoms, cells=cells, density=density, temperature=temperature,
                 device="cpu")
    if md is None:
        return
    assert density > 0 and np.isfinite(density) and temperature >= 0
    assert len(md.positions) > 0 and np.all(np.isfinite(md.positions))
    assert np.all(np.isfinite(md.velocities)) and np.isfinite(md.thermo["total"])


@PROPERTY
@given(NUMBERS, NUMBERS, NUMBERS, NUMBERS, st.sampled_from(["none", "andersen", "langevin", "x"]))
def test_md_settings(dt, cutoff, skin, coupling, thermostat):
    md = outcome(kmol.MD, cells=(3, 3, 3), dt=dt, cutoff=cutoff, skin=skin, coupling=coupling,
                 thermostat=thermostat, device="cpu")
    if md is None:
        return
    assert dt > 0 and np.isfinite(dt) and cutoff > 0 and skin >= 0
    if outcome(md.run, 3) is None and md.step == 0:
        return
    assert np.all(np.isfinite(md.positions)) and np.isfinite(md.thermo["total"])


@PROPERTY
@given(point_sets(max_atoms=40), BOXES, st.one_of(st.none(), point_sets(max_atoms=40)))
def test_md_configuration(points, box, velocities):
    positions, valid, _ = points
    v = None if velocities is None else velocities[0]
    md = outcome(kmol.MD, positions, box, v, device="cpu")
    if md is None:
        return
    assert valid, "invalid positions accepted"
    assert np.all(np.isfinite(md.positions)) and np.isfinite(md.thermo["total"])


@PROPERTY
@given(st.one_of(st.integers(-3, 20), st.sampled_from([2 ** 63 - 1, -2 ** 63])),
       st.integers(-2, 5), st.sampled_from([None, "print", "raise", 42]))
def test_md_run(steps, every, callback):
    md = kmol.MD(cells=(3, 3, 3), device="cpu")
    calls = []

    def raising(m):
        raise ZeroDivisionError("from the callback")

    chosen = {None: None, "print": calls.append, "raise": raising, "42": 42}.get(str(callback),
                                                                                 callback)
    if steps > 10 ** 6 and (chosen is None or every >= 1):
        return  # a long run is valid; test_interrupt.py covers stopping it
    try:
        md.run(steps, every, chosen)
    except ZeroDivisionError:
        assert callback == "raise"  # the callback's own error reaches the caller
    except (KeyboardInterrupt, SystemExit, AssertionError):
        raise
    except Exception as error:  # noqa: BLE001
        refused(error)
    assert md.step <= max(steps, 0)


# ---------------------------------------------------------------------------------------------
# Rand48, info, result classes


@PROPERTY
@given(st.one_of(st.integers(-2 ** 63, 2 ** 63 - 1), st.sampled_from([2 ** 64, 1.5, "1", None])),
       st.one_of(st.integers(-5, 1000), st.sampled_from([2 ** 40, 2 ** 62, 2 ** 63 - 1, 2 ** 64,
                                                         -2 ** 63, 1.0, None])),
       st.sampled_from(["lrand48", "mrand48", "drand48"]))
def test_rand48(seed, n, kind):
    stream = outcome(kmol.Rand48, seed)
    if stream is None:
        return
    values = outcome(getattr(stream, kind), n)
    if values is None:
        return
    assert isinstance(n, int) and 0 <= n < ABSURD
    assert len(values) == n and values.dtype == (np.float64 if kind == "drand48" else np.int32)
    if kind == "drand48":
        assert np.all((values >= 0) & (values < 1))


def test_info_and_result_classes_cannot_be_made_from_python():
    assert isinstance(kmol.info(), dict)
    for cls in (kmol.PairHistogram, kmol.Map, kmol.Mesh, kmol.Correlation):
        must_refuse(cls)
    must_refuse(kmol.Rand48, 0, device="tpu")
    must_refuse(kmol.RDF, 5, 10, device="tpu")
