#!/bin/bash
# kmol scattering end to end on a real protein (APBS' barnase example): the SAXS curve and its
# outputs, the histogram route against the direct Debye sum for neutrons in D2O, the same files
# against gmx sans (Debian's GROMACS), and S(q) of a Lennard-Jones liquid from kmol md by g(r)
# and by the box's wave vectors.
kmol=$1
support=$(realpath "$(dirname "$0")/../support")
. "$(dirname "$0")/scratch.sh"
cd "$dir" || exit 1
pqr=/usr/share/apbs/examples/pbsam-barn_bars/barnase.pqr
[[ -r $pqr ]] || { echo "no $pqr (Debian's apbs): skipped"; exit 77; }

# SAXS in vacuum: three columns with the q unit in the header, the Guinier fit, every output.
"$kmol" scattering "$pqr" --qmax 0.5 --out saxs.dat --xvg saxs.xvg --h5 saxs.h5 --plot saxs.png \
  --device cpu > saxs.log 2>&1 || fail "saxs: $(cat saxs.log)"
grep -q "^Guinier: I(0) = .*, Rg = 1[2-5]\.[0-9]* Angstrom" saxs.log || fail "no Guinier fit: $(cat saxs.log)"
grep -q "^# columns: q (1/Angstrom), I(q) (e^2)" saxs.dat || fail "saxs.dat header"
[[ $(grep -vc '^#' saxs.dat) == 101 && -s saxs.png ]] || fail "saxs.dat rows or plot"
/usr/bin/python3 - <<'PY' || fail "saxs outputs"
import h5py, numpy as np
d = np.loadtxt("saxs.dat")
assert d.shape == (101, 3), d.shape
g = h5py.File("saxs.h5")["scattering"]
assert np.allclose(g["partial_intensity"][:].sum(axis=0), g["intensity"][:], rtol=1e-12)
assert np.allclose(g["intensity"][:], d[:, 1], rtol=1e-8)
x = np.array([[float(v) for v in l.split()] for l in open("saxs.xvg") if l[0] not in "#@"])
assert np.allclose(x[:, 0], 10 * d[:, 0]) and np.allclose(x[:, 1], d[:, 1], rtol=1e-5)
assert d[0, 1] > 100 * d[-1, 1], "a flat curve"
PY

# SANS in 60% D2O: the histogram route within its stated error of the direct Debye sum.
for impl in histogram direct; do
  "$kmol" scattering "$pqr" --probe neutron --d2o 0.6 --qmax 1 --qbins 51 --impl $impl \
    --h5 sans-$impl.h5 --out sans-$impl.dat --device cpu --quiet || fail "sans --impl $impl"
done
/usr/bin/python3 - <<'PY' || fail "histogram route against the direct sum"
import h5py, numpy as np
h, d = (h5py.File(f"sans-{i}.h5")["scattering"] for i in ("histogram", "direct"))
diff = np.abs(h["intensity"][:] - d["intensity"][:])
bound = h["discretisation_error"][:] + 1e-9 * np.abs(d["intensity"][:])
assert (diff <= bound).all(), (diff / bound).max()
assert (h["discretisation_error"][:] < 0.02 * np.abs(h["intensity"][:])).all()
print("histogram vs direct: |diff| / stated error <= %.3f" % (diff / bound).max())
PY

# The same structure through GROMACS: gmx sans leaves the self term out and normalises by I(0).
if command -v gmx > /dev/null; then
  /usr/bin/python3 "$support/pqr_to_pdb.py" "$pqr" > barnase.pdb
  printf 'integrator = steep\nnsteps = 0\ncutoff-scheme = Verlet\n' > em.mdp
  gmx -quiet pdb2gmx -f barnase.pdb -ff amber99sb-ildn -water none -ignh -o conf.gro \
      -p topol.top > gmx.log 2>&1 &&
    gmx -quiet editconf -f conf.gro -o box.gro -box 12 -c >> gmx.log 2>&1 &&
    gmx -quiet grompp -f em.mdp -c box.gro -p topol.top -o topol.tpr -maxwarn 5 >> gmx.log 2>&1 &&
    echo 0 | gmx -quiet trjconv -f box.gro -s topol.tpr -o one.xtc >> gmx.log 2>&1 &&
    echo 0 | gmx -quiet sans -s topol.tpr -f one.xtc -sq gmx.xvg -startq 0 -endq 5 -qstep 0.05 \
      >> gmx.log 2>&1 || fail "gmx: $(tail gmx.log)"
  "$kmol" scattering one.xtc --top topol.tpr --no-pbc --probe neutron --qmax 5/nm --qbins 101 \
    --xvg kmol.xvg --h5 kmol.h5 --out kmol.dat --device cpu --quiet || fail "kmol on one.xtc"
  /usr/bin/python3 - <<'PY' || fail "against gmx sans"
import h5py, numpy as np
read = lambda f: np.array([[float(v) for v in l.split()] for l in open(f) if l[0] not in "#@"])
g, k = read("gmx.xvg"), read("kmol.xvg")
s = h5py.File("kmol.h5")["scattering"]
# The self term: the like pairs' partial curves at large q tend to it; take it from the types.
pairs = [p.decode() if isinstance(p, bytes) else p for p in s.attrs["pairs"]]
b = {"N": 9.36, "H": -3.739, "H(exch)": -3.739, "C": 6.646, "O": 5.803, "S": 2.847}
types = dict((t.split(" ")[1], int(t.split(" ")[0])) for t in s.attrs["types"].split(", "))
self = sum(n * b[t] ** 2 for t, n in types.items())
kn = np.interp(g[:, 0], k[:, 0], (k[:, 1] - self) / (k[0, 1] - self))
diff = np.abs(kn - g[:, 1]).max()
print("kmol vs gmx sans (0.2 nm bins), I(q)/I(0) without the self term: max |diff| = %.2e" % diff)
assert diff < 2e-3, diff
assert g[-1, 1] < 0.05
PY
fi

# S(q) of a Lennard-Jones liquid: by g(r) (Lorch window) and over the box's wave vectors.
"$kmol" md --atoms 864 --steps 1500 --every 100 --temperature 1.0 --thermostat langevin \
  --out lj.h5 --log lj.csv --quiet > /dev/null || fail "kmol md"
for method in debye direct; do
  "$kmol" scattering lj.h5 --frames 5: --element '*=Ar' --qmin 1 --qmax 12 --qbins 45 \
    --method $method --h5 sq-$method.h5 --out sq-$method.dat --device cpu --quiet ||
    fail "S(q) --method $method"
done
/usr/bin/python3 - <<'PY' || fail "S(q) routes"
import h5py, numpy as np
a, b = (h5py.File(f"sq-{m}.h5")["scattering"] for m in ("debye", "direct"))
q, sa, sb = a["q"][:], a["structure_factor"][:], b["structure_factor"][:]
peak = (q > 5.5) & (q < 7.8)
assert abs(q[sa.argmax()] - q[sb.argmax()]) <= 0.5, (q[sa.argmax()], q[sb.argmax()])
assert sb.max() > 1.8, "no liquid peak"
assert np.abs(sa - sb)[~peak].max() < 0.12, np.abs(sa - sb)[~peak].max()
assert abs(sa.max() / sb.max() - 1) < 0.2, (sa.max(), sb.max())
print("S(q) by g(r) and by wave vectors: max |diff| off the peak %.3f, peaks %.2f and %.2f"
      % (np.abs(sa - sb)[~peak].max(), sa.max(), sb.max()))
PY
# A solute in solution whose answer is known: the "solute" is one atom of a Lennard-Jones liquid
# (kmol md, equilibrated, then a production run), the solvent a run of another seed. Its excess
# vanishes within noise above 2 pi / R (frames a time unit apart, so sigma from their spread is
# not too small), where 4 sigma is below 15% of the volume's own N_V b^2; a solvent 10% less
# dense fails the same test; a shell about the one atom is the sphere of that radius, its
# uniform solvent integrated on a grid (within 5% of N_V b^2 of the sphere's closed form, to
# q = 2). Neutrons: Ar's coherent length 1.909 fm at every q.
lj_run() {  # lj_run NAME SEED DENSITY: 40 frames a time unit apart, after 600 steps from FCC
  "$kmol" md --atoms 864 --density "$3" --steps 600 --every 600 --temperature 1.0 \
    --thermostat langevin --seed "$2" --out "$1-eq.h5" --log "$1-eq.csv" --quiet > /dev/null &&
    "$kmol" md --restart "$1-eq.h5" --steps 8000 --every 200 --temperature 1.0 \
      --thermostat langevin --seed "$2" --out "$1.h5" --log "$1.csv" --quiet > /dev/null
}
lj_run solution 11 0.8442 && lj_run solvent 12 0.8442 && lj_run thin 13 0.76 || fail "kmol md"
excess() {  # excess SOLVENT OUT QMAX QBINS VOLUME...
  local solvent=$1 out=$2 qmax=$3 qbins=$4; shift 4
  "$kmol" scattering solution.h5 --element '*=Ar' --probe neutron --solute 'index 0' \
    --solvent "$solvent" --qmin 0.5 --qmax "$qmax" --qbins "$qbins" --out "$out" --device cpu \
    --quiet "$@" || fail "excess $out: $*"
}
excess solvent.h5 sphere.dat 8 76 --radius 4.5
# The shell's uniform solvent is integrated on a grid of spacing 1/q_max: to q = 2 here.
excess solvent.h5 shell.dat 2 16 --shell 4.5
excess solvent.h5 sphere2.dat 2 16 --radius 4.5
excess thin.h5 thin.dat 8 76 --radius 4.5
grep -q "^# observation volume: the solute and every atom within 4.5 Angstrom" shell.dat ||
  fail "shell.dat header: $(grep '^#' shell.dat)"
/usr/bin/python3 - <<'PY' || fail "the excess of a piece of the solvent"
import numpy as np
sphere, shell, thin, sphere2 = (np.loadtxt(f) for f in ("sphere.dat", "shell.dat", "thin.dat",
                                                        "sphere2.dat"))
q, di, sigma = sphere.T
high = q > 2 * np.pi / 4.5
volume = 0.8442 * 4 / 3 * np.pi * 4.5 ** 3 * 1.909 ** 2  # N_V b^2: the sphere's own scattering
z = np.abs(di[high]) / sigma[high]
assert z.max() < 5, z.max()
assert (4 * sigma[high] < 0.15 * volume).all(), (sigma[high].max(), volume)
high2 = shell[:, 0] > 2 * np.pi / 4.5
zs = np.abs(shell[high2, 1]) / shell[high2, 2]
assert zs.max() < 5, zs.max()
gap = np.abs(shell[:, 1] - sphere2[:, 1]).max() / volume
assert gap < 0.05, gap
zt = np.abs(thin[high, 1]) / thin[high, 2]
assert zt.max() > 10, zt.max()
print("excess of one LJ atom above 2 pi/R: max |dI|/sigma %.2f (4 sigma <= %.3f of N_V b^2); "
      "a 10%% thinner solvent: %.1f; the shell about it: %.2f sigma, %.4f of N_V b^2 from the "
      "sphere" % (z.max(), 4 * sigma[high].max() / volume, zt.max(), zs.max(), gap))
PY
echo "scattering: ok"
