"""A Molden file as older psi4 releases write it: Cartesian d functions normalised as x^2, so the
coefficients of xy, xz and yz are sqrt(3) times kmol's (each function normalised). Used by the
Python tests and, as `axial_molden.py SOURCE TARGET`, by tests/cli/mistakes.sh."""
import math
import sys


def axial_copy(source, target):
    ratio = {"xx": 1, "yy": 1, "zz": 1, "xy": 1 / 3, "xz": 1 / 3, "yz": 1 / 3}
    out, section, factors = [], "", []
    for line in open(source).read().splitlines():
        w = line.split()
        if line.startswith("["):
            section = line.split("]")[0].lower() + "]"
        elif section == "[gto]" and len(w) >= 2 and w[0].lower() in ("s", "p", "d", "sp"):
            kind = w[0].lower()
            factors += [1.0] * {"s": 1, "p": 3, "sp": 4}.get(kind, 0)
            if kind == "d":
                factors += [math.sqrt(r) for r in ratio.values()]
        elif section == "[mo]" and len(w) == 2 and w[0].isdigit():
            line = f" {w[0]} {float(w[1]) / factors[int(w[0]) - 1]:.15e}"
        out.append(line)
    assert "[5d" not in "\n".join(out).lower(), "spherical d functions: nothing to convert"
    assert any(f != 1 for f in factors), "no Cartesian d shell"
    open(target, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    axial_copy(sys.argv[1], sys.argv[2])
