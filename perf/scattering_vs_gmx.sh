#!/usr/bin/env bash
# scattering_vs_gmx.sh KMOL [ROUNDS]: kmol scattering against gmx sans (Debian's GROMACS) on the
# same files and q grid, in the same run: barnase (APBS' example) solvated in TIP3P water by gmx
# (pdb2gmx, editconf -d 1.0, solvate), 5 frames (the solvated structure with 0.01 nm Gaussian
# jitter: mdrun does not run on every CPU here), every pair without periodicity, neutrons, q from 0
# to 1/Angstrom in 201 points. ROUNDS (3) rounds, gmx sans and kmol in turn, each timed whole
# (CPU = user + sys, and wall) with the load average before it; gmx runs at -nice 0 (its tools
# renice themselves to 19 by default, which on a shared machine stretches only their wall time).
# Prints a table and the pair rate.
set -euo pipefail
kmol=$(realpath "$1")
support=$(realpath "$(dirname "$0")/../tests/support")
rounds=${2:-3}
pqr=/usr/share/apbs/examples/pbsam-barn_bars/barnase.pqr
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 "$support/pqr_to_pdb.py" "$pqr" > barnase.pdb
printf 'integrator = steep\nnsteps = 0\ncutoff-scheme = Verlet\n' > em.mdp
{
  gmx -quiet pdb2gmx -f barnase.pdb -ff amber99sb-ildn -water tip3p -ignh -o conf.gro -p topol.top
  gmx -quiet editconf -f conf.gro -o box.gro -d 1.0 -bt cubic -c
  gmx -quiet solvate -cp box.gro -cs spc216.gro -p topol.top -o sol.gro
  gmx -quiet grompp -f em.mdp -c sol.gro -p topol.top -o topol.tpr -maxwarn 5
} > gmx-setup.log 2>&1 || { tail gmx-setup.log; exit 1; }
/usr/bin/python3 - 2>/dev/null <<'PY'
import MDAnalysis as mda, numpy as np
u = mda.Universe("sol.gro")
rng = np.random.default_rng(1)
x0 = u.atoms.positions.copy()
with mda.Writer("traj.xtc", u.atoms.n_atoms) as w:
    for k in range(5):
        u.atoms.positions = x0 + rng.normal(0, 0.1, x0.shape)
        w.write(u.atoms)
PY
atoms=$(($(wc -l < sol.gro) - 3))
timed() {  # timed LABEL COMMAND...: one row "LABEL cpu wall load"
  local label=$1 load
  shift
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%U %S %e" -o t.txt "$@" > run.log 2>&1 || { tail run.log; exit 1; }
  read -r user sys wall < t.txt
  printf '%s %.2f %.2f %s\n' "$label" "$(echo "$user + $sys" | bc)" "$wall" "$load"
}
for ((r = 1; r <= rounds; r++)); do
  timed gmx_sans bash -c 'echo 0 | gmx -quiet sans -s topol.tpr -f traj.xtc -sq gmx.xvg \
    -startq 0 -endq 10 -qstep 0.05 -nopbc -nice 0'
  timed kmol "$kmol" scattering traj.xtc --top topol.tpr --no-pbc --probe neutron \
    --qmax 10/nm --qbins 201 --device cpu --out kmol.dat --quiet
done > rows.txt
echo "barnase in water: $atoms atoms, 5 frames, every pair ($(echo "5 * $atoms * ($atoms - 1) / 2" | bc) pairs), q to 1/Angstrom; $(nproc) cores; $(uname -n)"
echo "| round | gmx sans CPU s | gmx sans wall s | load | kmol CPU s | kmol wall s | load |"
echo "|---|---|---|---|---|---|---|"
paste -d' ' <(grep '^gmx_sans' rows.txt) <(grep '^kmol' rows.txt) |
  awk '{printf "| %d | %s | %s | %s | %s | %s | %s |\n", NR, $2, $3, $4, $6, $7, $8}'
/usr/bin/python3 - "$atoms" <<'PY'
import statistics, sys
rows = [l.split() for l in open("rows.txt")]
g = statistics.median(float(r[1]) for r in rows if r[0] == "gmx_sans")
k = statistics.median(float(r[1]) for r in rows if r[0] == "kmol")
n = int(sys.argv[1])
pairs = 5 * n * (n - 1) / 2
print("median CPU: gmx sans %.2f s, kmol %.2f s: %.1fx; kmol %.2f G pairs per CPU second "
      "(transform and reading included)" % (g, k, g / k, pairs / k / 1e9))
PY
