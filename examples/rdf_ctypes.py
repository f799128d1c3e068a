#!/usr/bin/python3
"""kmol's C API from Python's ctypes: g(r) of an ideal gas is 1 within statistics.
Usage: rdf_ctypes.py path/to/libkmol_c.so (ctest: examples.ctypes)."""
import ctypes
import random
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.kmol_rdf_create.restype = ctypes.c_void_p
lib.kmol_rdf_create.argtypes = [ctypes.c_double, ctypes.c_double, ctypes.c_int32, ctypes.c_int]
lib.kmol_rdf_add_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.c_int64,
                                   ctypes.POINTER(ctypes.c_double), ctypes.c_int64, ctypes.POINTER(ctypes.c_double)]
lib.kmol_rdf_result.argtypes = [ctypes.c_void_p, ctypes.c_int] + [ctypes.POINTER(ctypes.c_double)] * 3
lib.kmol_rdf_counts.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]
lib.kmol_rdf_destroy.argtypes = [ctypes.c_void_p]
lib.kmol_last_error.restype = ctypes.c_char_p

atoms, length, bins, frames = 2000, 30.0, 20, 5
assert lib.kmol_initialize() == 0
rdf = lib.kmol_rdf_create(0.0, 10.0, bins, 1)
box = (ctypes.c_double * 9)(length, 0, 0, 0, length, 0, 0, 0, length)
rng = random.Random(7)
for _ in range(frames):
    xyz = (ctypes.c_double * (3 * atoms))(*[rng.uniform(0, length) for _ in range(3 * atoms)])
    status = lib.kmol_rdf_add_frame(rdf, xyz, atoms, None, 0, box)
    assert status == 0, lib.kmol_last_error()
r, g, n = ((ctypes.c_double * bins)() for _ in range(3))
counts = (ctypes.c_uint64 * bins)()
assert lib.kmol_rdf_result(rdf, 0, r, g, n) == 0 and lib.kmol_rdf_counts(rdf, counts) == 0
bad = [(r[k], g[k]) for k in range(bins) if counts[k] > 1000 and abs(g[k] - 1) > 5 / counts[k] ** 0.5]
lib.kmol_rdf_destroy(rdf)
lib.kmol_finalize()
print("ctypes: g(r) of an ideal gas", "is 1 within statistics" if not bad else "is WRONG at {}".format(bad))
sys.exit(1 if bad else 0)
