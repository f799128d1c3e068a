"""Ctrl-C during a long kmol call: KeyboardInterrupt within a second, and the process computes
again afterwards (docs/python.md). Each case runs in a child interpreter that the test sends
SIGINT to, as a terminal would."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

PREAMBLE = """
import sys, time
import numpy as np
import kmol
def report(*words):
    print(*words, flush=True)
"""

# IMPL: 'auto' (the host tiles) or 'kokkos' (its teams, launched in pieces).
PAIR_HISTOGRAM = """
xyz = np.random.default_rng(1).uniform(0, 100, (400_000, 3))
report("ready")
try:
    kmol.pair_histogram(xyz, r_max=50, bins=100, impl=IMPL, device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = xyz[:200]
h = kmol.pair_histogram(small, r_max=50, bins=10, impl=IMPL, device="cpu")
d = np.sqrt(((small[:, None] - small[None]) ** 2).sum(-1))[np.triu_indices(200, 1)]
report("again", int(h.counts.sum()) == int((d < 50).sum()) > 0)
"""

RDF_CELLS = """
xyz = np.random.default_rng(2).uniform(0, 100, (1_000_000, 3))
rdf = kmol.RDF(r_max=20, bins=100, device="cpu")
report("ready")
try:
    rdf.add_frame(xyz, box=[100, 100, 100])
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
rdf.add_frame(xyz[:30_000], box=[100, 100, 100])
report("again", rdf.frames == 1 and rdf.impl == "cells" and bool(np.isfinite(rdf.rdf).all()))
"""

MD = """
md = kmol.MD(atoms=32_000, device="cpu", impl="cpu")
report("ready")
try:
    md.run(10 ** 9)
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
step = md.step
md.run(2)
report("again", 0 < step and md.step == step + 2 and bool(np.isfinite(md.positions).all()))
"""

# A map's implementation IMPL is interrupted, then checked against the OTHER on a small map: the
# host ones poll for the cancel between rows; the portable (Kokkos) ones launch their kernels in
# pieces of about 0.1 s and poll between them (impl="kokkos" runs them on the host, as on a GPU;
# the cutoff method's teams of regions go in pieces of regions).
POTENTIAL = """
rng = np.random.default_rng(3)
xyz, q = rng.uniform(0, 60, (40_000, 3)), rng.uniform(-1, 1, 40_000)
report("ready")
try:
    kmol.potential(xyz, q, method=METHOD, cutoff=14, spacing=0.3, padding=2, impl=IMPL,
                   device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = dict(method=METHOD, cutoff=14, spacing=1, padding=3, device="cpu")
a = kmol.potential(xyz[:50], q[:50], impl=IMPL, **small)
b = kmol.potential(xyz[:50], q[:50], impl=OTHER, **small)
report("again", bool(np.allclose(a.values, b.values, rtol=1e-9, atol=1e-9))
       and float(np.abs(a.values).max()) > 0)
"""

ORBITAL = """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "c60.molden")
kmol.write_example_molden(path, "c60")
report("ready")
try:
    kmol.orbital(path, "homo", spacing=0.05, padding=4, impl=IMPL, device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
a = kmol.orbital(path, "homo", spacing=0.5, padding=2, impl=IMPL, device="cpu")
b = kmol.orbital(path, "homo", spacing=0.5, padding=2, impl=OTHER, device="cpu")
report("again", bool(np.allclose(a.values, b.values, rtol=1e-6, atol=1e-9))
       and float(np.abs(a.values).max()) > 0)
"""


def with_impl(body, impl, other, method="direct"):
    return (body.replace("IMPL", repr(impl)).replace("OTHER", repr(other))
            .replace("METHOD", repr(method)))


# Density has no host implementation: impl="kokkos" is what device="cpu" runs.
DENSITY = """
xyz = np.random.default_rng(4).uniform(0, 100, (1_000_000, 3))
report("ready")
try:
    kmol.density(xyz, np.full(len(xyz), 1.5), spacing=0.3, impl="kokkos", device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
m = kmol.density(np.zeros((1, 3)), [1.5], spacing=0.5, origin=[0, 0, 0], counts=[4, 4, 4],
                 impl="kokkos", device="cpu")
step = np.exp(-0.5 ** 2 / (2 * 1.5 ** 2))  # the Gaussian one spacing from its atom
report("again", abs(float(m.values[0, 0, 0]) - 1) < 1e-5
       and abs(float(m.values[1, 0, 0]) - step) < 1e-5
       and abs(float(m.values[0, 1, 1]) - step ** 2) < 1e-5)
"""

# The histogram route counts pairs with the pair histogram's kernels; the direct route sums
# Debye's terms in pieces of (rows, q) threads.
SCATTERING = """
xyz = np.random.default_rng(6).uniform(0, 100, (400_000, 3))
report("ready")
try:
    kmol.scattering(xyz, elements=["O"] * len(xyz), device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = xyz[:400] / 4
a = kmol.scattering(small, elements=["O"] * 400, device="cpu")
b = kmol.scattering(small, elements=["O"] * 400, impl="direct", device="cpu")
close = np.allclose(a.intensity, b.intensity, rtol=1e-3, atol=1e-4 * b.intensity.max())
report("again", a.frames == 1 and bool(close) and float(a.intensity.min()) > 0)
"""

SCATTERING_DIRECT = """
xyz = np.random.default_rng(7).uniform(0, 60, (30_000, 3))
s = kmol.Scattering(elements=["O"] * len(xyz), impl="direct", device="cpu")
report("ready")
try:
    s.add_frame(xyz)
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = xyz[:400] / 4
a = kmol.Scattering(elements=["O"] * 400, impl="direct", device="cpu")
a.add_frame(small)
b = kmol.scattering(small, elements=["O"] * 400, device="cpu")
close = np.allclose(a.intensity, b.intensity, rtol=1e-3, atol=1e-4 * b.intensity.max())
report("again", s.frames == 0 and a.frames == 1 and bool(close) and float(a.intensity.min()) > 0)
"""

# Passes over a map, in pieces of tiles or points. One pass can end before the signal on a fast
# machine, and an interpreter that has exited dies of it, so the child repeats the pass until the
# interrupt comes; the signal comes early, as a pass takes well under a second.
CROSS_CORRELATION = """
n = 448
x = np.linspace(-1, 1, n, dtype=np.float32)
sim = np.asfortranarray(x[:, None, None] ** 2 + x[None, :, None] ** 2 + x[None, None, :] ** 2)
ref = np.asfortranarray(2 * sim + np.float32(1))
grid = dict(origin=[0, 0, 0], spacing=[0.5, 0.5, 0.5], device="cpu")
report("ready")
try:
    for _ in range(100):
        kmol.cross_correlation(sim, ref, **grid)
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = sim[::8, ::8, ::8].copy(order="F")
c = kmol.cross_correlation(small, -small, **grid)
report("again", abs(c.coefficient + 1) < 1e-9 and c.voxels == small.size)
"""

MARCHING_CUBES = """
n = 400
x = np.linspace(-1, 1, n, dtype=np.float32)
field = np.asfortranarray(x[:, None, None] ** 2 + x[None, :, None] ** 2 + x[None, None, :] ** 2)
grid = dict(origin=[0, 0, 0], spacing=[0.1, 0.1, 0.1], device="cpu")
report("ready")
try:
    for _ in range(100):
        kmol.marching_cubes(field, 0.5, **grid)
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
m = kmol.marching_cubes(field[::4, ::4, ::4].copy(order="F"), 0.5, **grid)
radius = np.sqrt(0.5) * (n - 1) / 8 * 0.1  # |x| = sqrt(0.5) where 8 / (n - 1) of x is 0.1 A
report("again", m.open_edges == 0 and abs(m.area / (4 * np.pi * radius ** 2) - 1) < 0.02)
"""


def interrupt(body, settle=1.5, limit=60):
    """Starts the child, sends SIGINT `settle` seconds after it is ready; its lines with the
    seconds from the signal to each."""
    env = {**os.environ, "OMP_PROC_BIND": "false", "PYTHONUNBUFFERED": "1"}
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(PREAMBLE + body)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(settle)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        lines = []
        for line in child.stdout:
            lines.append((line.split(), time.monotonic() - sent))
        child.wait(timeout=limit)
        return lines, child.returncode, child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


CASES = {"pair_histogram": with_impl(PAIR_HISTOGRAM, "auto", ""),
         "pair_histogram_kokkos": with_impl(PAIR_HISTOGRAM, "kokkos", ""),
         "rdf_cells": RDF_CELLS, "md": MD,
         "potential": with_impl(POTENTIAL, "host", "kokkos"),
         "orbital": with_impl(ORBITAL, "host", "kokkos"),
         "potential_kokkos": with_impl(POTENTIAL, "kokkos", "host"),
         "potential_cutoff_kokkos": with_impl(POTENTIAL, "kokkos", "host", "cutoff"),
         "orbital_kokkos": with_impl(ORBITAL, "kokkos", "host"), "density": DENSITY,
         "scattering": SCATTERING, "scattering_direct": SCATTERING_DIRECT,
         "cross_correlation": CROSS_CORRELATION, "marching_cubes": MARCHING_CUBES}


EARLY = {"cross_correlation", "marching_cubes"}  # signalled 0.3 s after they start


@pytest.mark.parametrize("name", CASES.keys())
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(name):
    lines, code, stderr = interrupt(CASES[name], settle=0.3 if name in EARLY else 1.5)
    assert code == 0, stderr
    words = [w for w, _ in lines]
    assert words[0] == ["interrupted"], (lines, stderr)
    assert lines[0][1] < 1.0, f"KeyboardInterrupt {lines[0][1]:.2f} s after SIGINT"
    assert words[1] == ["again", "True"], (lines, stderr)


class InterruptedWhileRead:
    """An argument whose conversion meets a Ctrl-C, as numpy's conversion of a large argument
    can: Python's handler raises KeyboardInterrupt inside it."""

    def __array__(self, dtype=None):
        raise KeyboardInterrupt


@pytest.mark.parametrize("call", [
    lambda kmol, a: kmol.pair_histogram(a, r_max=5, bins=5, device="cpu"),
    lambda kmol, a: kmol.potential(np.zeros((2, 3)), a, spacing=1, device="cpu"),
    lambda kmol, a: kmol.cross_correlation(a, np.ones((4, 4, 4), np.float32),
                                           origin=[0, 0, 0], spacing=1, device="cpu"),
    lambda kmol, a: kmol.density(np.zeros((1, 3)), [1.0], spacing=a, device="cpu"),
], ids=["positions", "charges", "map", "spacing"])
def test_ctrl_c_while_arguments_are_read_is_not_dropped(call):
    import kmol
    with pytest.raises(KeyboardInterrupt):
        call(kmol, InterruptedWhileRead())
