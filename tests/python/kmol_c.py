"""kmol.h's RDF functions through ctypes, for the tests of the C API (tests/python/test_c_rdf.py,
tests/cli/mistakes.sh). The C library runs its own Kokkos: open() calls kmol_initialize, close()
kmol_finalize."""
import ctypes

import numpy as np

P, I32, I64, D = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_double
SIGNATURES = {
    "kmol_initialize": (ctypes.c_int, []),
    "kmol_finalize": (ctypes.c_int, []),
    "kmol_last_error": (ctypes.c_char_p, []),
    "kmol_rdf_create": (P, [D, D, I32, ctypes.c_int]),
    "kmol_rdf_destroy": (None, [P]),
    "kmol_rdf_add_frame": (ctypes.c_int, [P, P, I64, P, I64, P]),
    "kmol_rdf_frames": (I64, [P]),
    "kmol_rdf_counts": (ctypes.c_int, [P, P]),
    "kmol_rdf_result": (ctypes.c_int, [P, ctypes.c_int, P, P, P]),
    "kmol_rdf_set_plane": (ctypes.c_int, [P, ctypes.c_int]),
    "kmol_rdf_set_blocks": (ctypes.c_int, [P, I64]),
    "kmol_rdf_std_error": (ctypes.c_int, [P, ctypes.c_int, P, P]),
    "kmol_rdf_block_rdf": (ctypes.c_int, [P, ctypes.c_int, P, P]),
    "kmol_rdf_error_block": (ctypes.c_int, [P, ctypes.c_int, P, P]),
    "kmol_rdf_kirkwood_buff": (ctypes.c_int, [P] * 6),
    "kmol_rdf_set_centres": (ctypes.c_int, [P, ctypes.c_int, P, P, I64, P, I64]),
    "kmol_rdf_set_exclusions": (ctypes.c_int, [P, P, I64, P, I64]),
}
NORMS = {"rdf": 0, "density": 1, "none": 2}
PLANES = {"none": 0, "xy": 1, "xz": 2, "yz": 3}


class CError(Exception):
    """A C call's status other than KMOL_OK, with kmol_last_error's message."""

    def __init__(self, status, message):
        super().__init__(f"status {status}: {message}")
        self.status, self.message = status, message


def open_library(path):
    lib = ctypes.CDLL(str(path))
    for name, (result, arguments) in SIGNATURES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    assert lib.kmol_initialize() == 0
    return lib


def close_library(lib):
    assert lib.kmol_finalize() == 0


def address(array):
    return None if array is None else array.ctypes.data


def doubles(values, columns=None):
    if values is None:
        return None
    a = np.ascontiguousarray(values, dtype=np.float64)
    return a.reshape(-1, columns) if columns else a.ravel()


class CRdf:
    """One kmol_rdf; a failing call raises CError."""

    def __init__(self, lib, r_max, bins, r_min=0.0, double=True):
        self.lib, self.bins = lib, bins
        self.handle = lib.kmol_rdf_create(r_min, r_max, bins, 1 if double else 0)
        if not self.handle:
            raise CError(-1, lib.kmol_last_error().decode())

    def __del__(self):
        if getattr(self, "handle", None):
            self.lib.kmol_rdf_destroy(self.handle)

    def call(self, name, *arguments):
        status = getattr(self.lib, name)(self.handle, *arguments)
        if status != 0:
            raise CError(status, self.lib.kmol_last_error().decode())
        return self.lib.kmol_last_error().decode()

    def add_frame(self, a, b=None, box=None):
        a, b = doubles(a, 3), doubles(b, 3)
        box = None if box is None else doubles(np.diag(box) if np.ndim(box) == 1 else box)
        self.call("kmol_rdf_add_frame", address(a), len(a), address(b),
                  0 if b is None else len(b), address(box))

    def set_plane(self, plane):
        self.call("kmol_rdf_set_plane", PLANES.get(plane, plane))

    def set_blocks(self, n):
        self.call("kmol_rdf_set_blocks", n)

    def set_centres(self, which, groups, masses=None, bonds=None):
        groups = np.ascontiguousarray(groups, dtype=np.int32)
        masses = doubles(masses)
        bonds = None if bonds is None else np.ascontiguousarray(bonds, dtype=np.int32).ravel()
        self.call("kmol_rdf_set_centres", {"a": 0, "b": 1}.get(which, which), address(groups),
                  address(masses), len(groups), address(bonds),
                  0 if bonds is None else len(bonds) // 2)

    def set_exclusions(self, labels_a, labels_b=None):
        a = np.ascontiguousarray(labels_a, dtype=np.int32)
        b = None if labels_b is None else np.ascontiguousarray(labels_b, dtype=np.int32)
        self.call("kmol_rdf_set_exclusions", address(a), len(a), address(b),
                  0 if b is None else len(b))

    def frames(self):
        return self.lib.kmol_rdf_frames(self.handle)

    def counts(self):
        out = np.zeros(self.bins, dtype=np.uint64)
        self.call("kmol_rdf_counts", address(out))
        return out

    def result(self, norm="rdf"):
        r, g, n = (np.zeros(self.bins) for _ in range(3))
        self.call("kmol_rdf_result", NORMS.get(norm, norm), address(r), address(g), address(n))
        return r, g, n

    def std_error(self, norm="rdf"):
        g, n = np.zeros(self.bins), np.zeros(self.bins)
        self.call("kmol_rdf_std_error", NORMS[norm], address(g), address(n))
        return g, n

    def block_rdf(self, norm="rdf"):
        count = ctypes.c_int64(-1)
        self.call("kmol_rdf_block_rdf", NORMS[norm], ctypes.addressof(count), None)
        g = np.zeros((count.value, self.bins))
        self.call("kmol_rdf_block_rdf", NORMS[norm], ctypes.addressof(count), address(g))
        return g

    def error_block(self, norm="rdf"):
        frames, converged = ctypes.c_int64(-1), ctypes.c_int(-1)
        self.call("kmol_rdf_error_block", NORMS[norm], ctypes.addressof(frames),
                  ctypes.addressof(converged))
        return frames.value, bool(converged.value)

    def kirkwood_buff(self):
        columns = {k: np.zeros(self.bins) for k in ("r", "running", "finite_volume", "closed")}
        infinite = ctypes.c_double(np.nan)
        self.call("kmol_rdf_kirkwood_buff", *(address(v) for v in columns.values()),
                  ctypes.addressof(infinite))
        return {**columns, "infinite": infinite.value}
