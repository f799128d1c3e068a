"""Ctrl-C during a long kmol call: KeyboardInterrupt within a second, and the process computes
again afterwards (docs/python.md). Each case runs in a child interpreter that the test sends
SIGINT to, as a terminal would."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

PREAMBLE = """
import sys, time
import numpy as np
import kmol
def report(*words):
    print(*words, flush=True)
"""

PAIR_HISTOGRAM = """
xyz = np.random.default_rng(1).uniform(0, 100, (400_000, 3))
report("ready")
try:
    kmol.pair_histogram(xyz, r_max=50, bins=100)
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
small = xyz[:200]
h = kmol.pair_histogram(small, r_max=50, bins=10)
d = np.sqrt(((small[:, None] - small[None]) ** 2).sum(-1))[np.triu_indices(200, 1)]
report("again", int(h.counts.sum()) == int((d < 50).sum()) > 0)
"""

RDF_CELLS = """
xyz = np.random.default_rng(2).uniform(0, 100, (1_000_000, 3))
rdf = kmol.RDF(r_max=20, bins=100)
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

# The map kernels' CPU implementations (impl="host") poll for the cancel between rows.
POTENTIAL = """
rng = np.random.default_rng(3)
xyz, q = rng.uniform(0, 60, (40_000, 3)), rng.uniform(-1, 1, 40_000)
report("ready")
try:
    kmol.potential(xyz, q, spacing=0.3, padding=2, impl="host", device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
m = kmol.potential(xyz[:2], np.array([1.0, -1.0]), spacing=1, padding=3, impl="host", device="cpu")
report("again", bool(np.isfinite(m.values).all()) and float(np.abs(m.values).max()) > 0)
"""

ORBITAL = """
import os, tempfile
path = os.path.join(tempfile.mkdtemp(), "c60.molden")
kmol.write_example_molden(path, "c60")
report("ready")
try:
    kmol.orbital(path, "homo", spacing=0.05, padding=4, impl="host", device="cpu")
    report("finished")
except KeyboardInterrupt:
    report("interrupted")
m = kmol.orbital(path, "homo", spacing=0.5, padding=2, impl="host", device="cpu")
report("again", bool(np.isfinite(m.values).all()) and float(np.abs(m.values).max()) > 0)
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


@pytest.mark.parametrize("body", [PAIR_HISTOGRAM, RDF_CELLS, MD, POTENTIAL, ORBITAL],
                         ids=["pair_histogram", "rdf_cells", "md", "potential", "orbital"])
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(body):
    lines, code, stderr = interrupt(body)
    assert code == 0, stderr
    words = [w for w, _ in lines]
    assert words[0] == ["interrupted"], (lines, stderr)
    assert lines[0][1] < 1.0, f"KeyboardInterrupt {lines[0][1]:.2f} s after SIGINT"
    assert words[1] == ["again", "True"], (lines, stderr)
