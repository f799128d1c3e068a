# Sourced by the GROMACS CLI tests after scratch.sh: make_water DIR BOX_NM STEPS EVERY runs Debian's
# gmx (solvate, grompp, mdrun on one thread) to make an SPC water box in DIR: conf.gro,
# topol.tpr, md.xtc and md.trr (coordinates every EVERY steps). Exits 77 (skipped) without gmx.
# Debian's mdrun needs the rdtscp instruction: on a CPU without it the frames are the solvated
# box with seeded Gaussian displacements and velocities, written by gmx trjconv.
# Sourcing it skips the test (exit 77) when $kmol was built without libgromacs.
"$kmol" info | grep -q "GROMACS XTC, TRR, TNG" || { echo "kmol built without libgromacs: skipped"; exit 77; }

make_water() {
  local out=$1 box=$2 steps=$3 every=$4
  command -v gmx >/dev/null || { echo "no gmx (Debian package gromacs): skipped"; exit 77; }
  mkdir -p "$out"
  (
    cd "$out" || exit 1
    printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spc.itp"\n[ system ]\nwater\n[ molecules ]\n' > topol.top
    cat > md.mdp <<MDP
integrator = md
dt = 0.002
nsteps = $steps
nstxout = $every
nstxout-compressed = $every
cutoff-scheme = Verlet
coulombtype = reaction-field
rcoulomb = 0.9
rvdw = 0.9
constraints = h-bonds
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
gen-vel = yes
gen-temp = 300
gen-seed = 7
ld-seed = 7
MDP
    gmx -quiet solvate -cs spc216.gro -box "$box" "$box" "$box" -o conf.gro -p topol.top &&
      gmx -quiet grompp -f md.mdp -c conf.gro -p topol.top -o topol.tpr &&
      if grep -qw rdtscp /proc/cpuinfo; then
        OMP_NUM_THREADS=1 gmx -quiet mdrun -s topol.tpr -nt 1 -deffnm md
      else
        jittered_frames conf.gro $(( steps / every + 1 )) > frames.gro &&
          for e in xtc trr; do echo 0 | gmx -quiet trjconv -f frames.gro -s topol.tpr -o md.$e || exit 1; done
      fi
  ) > "$out/gmx.log" 2>&1 || { tail -20 "$out/gmx.log"; fail "gmx could not make the water box"; }
}

# jittered_frames GRO N: N frames of GRO whose molecules take a random walk of whole-molecule
# steps (0.003 nm Gaussian per frame: bond lengths stay) while the whole box drifts 0.03 nm a
# frame along x (so that each frame's density is nearest its own), with velocities, as GRO
# text on stdout.
jittered_frames() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import random, sys
random.seed(7)
lines = open(sys.argv[1]).read().splitlines()
atoms, box = lines[2:-1], lines[-1]
walk = {}
for f in range(int(sys.argv[2])):
    moved = set()
    print(f"water t= {f * 0.02:.5f} step= {f * 10}\n{len(atoms):5d}")
    for a in atoms:
        d = walk.setdefault(a[:5], [0.0, 0.0, 0.0])
        if a[:5] not in moved:
            moved.add(a[:5])
            d[:] = [c + random.gauss(0, 0.003) * (f > 0) for c in d]
        x = [float(a[20 + 8 * i:28 + 8 * i]) + d[i] + 0.03 * f * (i == 0) for i in range(3)]
        v = [random.gauss(0, 0.3) for _ in range(3)]
        print(a[:20] + "".join(f"{c:8.3f}" for c in x) + "".join(f"{c:8.4f}" for c in v))
    print(box)
PY
}
