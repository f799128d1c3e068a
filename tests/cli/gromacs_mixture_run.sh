# Sourced by the GROMACS CLI tests after scratch.sh: make_mixture DIR EDGE_NM METHANOLS STEPS EVERY
# runs Debian's gmx to make an OPLS-AA methanol-SPC water mixture in a rhombic dodecahedron of
# image distance EDGE_NM (editconf -bt dodecahedron, insert-molecules, solvate), minimises its
# energy and runs STEPS steps of NPT (C-rescale, isotropic, the box rescaled every 10 steps) on one
# thread, writing every EVERY steps: DIR/conf.gro, DIR/topol.tpr and DIR/md.xtc, molecules MET then
# SOL. Exits 77 (skipped) without gmx.
# Debian's mdrun needs the rdtscp instruction: on a CPU without it the frames are the solvated box
# whose molecules take a random walk while the box is rescaled about its origin every frame
# (npt_frames), written by gmx trjconv; the topology and TPR are the same.
make_mixture() {
  local out=$1 edge=$2 methanols=$3 steps=$4 every=$5
  command -v gmx >/dev/null || { echo "no gmx (Debian package gromacs): skipped"; exit 77; }
  mkdir -p "$out"
  (
    cd "$out" || exit 1
    write_methanol > methanol.gro
    mixture_mdp steep 200 0 > em.mdp
    mixture_mdp md "$steps" "$every" > md.mdp
    gmx -quiet editconf -f methanol.gro -bt dodecahedron -box "$edge" -o box.gro &&
      gmx -quiet insert-molecules -f box.gro -ci methanol.gro -nmol $(( methanols - 1 )) -seed 7 -o methanols.gro &&
      gmx -quiet solvate -cp methanols.gro -cs spc216.gro -o solvated.gro || exit 1
    local inserted=$(( $(grep -c '^ *[0-9]*MET ' solvated.gro) / 6 ))
    [[ $inserted == "$methanols" ]] || { echo "insert-molecules placed $inserted of $methanols methanols"; exit 1; }
    {
      printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/methanol.itp"\n#include "oplsaa.ff/spc.itp"\n'
      printf '[ system ]\nmethanol-water\n[ molecules ]\nMET %d\nSOL %d\n' "$methanols" \
        $(( $(grep -c '^ *[0-9]*SOL ' solvated.gro) / 3 ))
    } > topol.top
    if grep -qw rdtscp /proc/cpuinfo; then
      gmx -quiet grompp -f em.mdp -c solvated.gro -p topol.top -o em.tpr &&
        OMP_NUM_THREADS=1 gmx -quiet mdrun -s em.tpr -nt 1 -deffnm em &&
        gmx -quiet grompp -f md.mdp -c em.gro -p topol.top -o topol.tpr &&
        OMP_NUM_THREADS=1 gmx -quiet mdrun -s topol.tpr -nt 1 -deffnm md &&
        cp em.gro conf.gro
    else
      cp solvated.gro conf.gro &&
        gmx -quiet grompp -f md.mdp -c conf.gro -p topol.top -o topol.tpr &&
        npt_frames conf.gro $(( steps / every + 1 )) > frames.gro &&
        echo 0 | gmx -quiet trjconv -f frames.gro -s topol.tpr -o md.xtc
    fi
  ) > "$out/gmx.log" 2>&1 || { tail -20 "$out/gmx.log"; fail "gmx could not make the methanol-water mixture"; }
}

# One OPLS-AA methanol as oplsaa.ff/methanol.itp orders and names its atoms (C, 3 H, OA, HO):
# C-O 0.141 nm, C-H 0.109 nm, O-H 0.0945 nm, H-C-O 109.5 and C-O-H 108.5 degrees, staggered.
write_methanol() {
  cat <<'GRO'
methanol
    6
    1MET      C    1   0.000   0.000   0.000
    1MET      H    2  -0.036  -0.103   0.000
    1MET      H    3  -0.036   0.051   0.089
    1MET      H    4  -0.036   0.051  -0.089
    1MET     OA    5   0.141   0.000   0.000
    1MET     HO    6   0.171   0.090   0.000
   1.00000   1.00000   1.00000
GRO
}

# mixture_mdp INTEGRATOR STEPS EVERY: the run parameters; md couples temperature (v-rescale) and
# pressure (C-rescale, isotropic, every 10 steps so that each frame has its own box).
mixture_mdp() {
  printf 'integrator = %s\nnsteps = %s\ncutoff-scheme = Verlet\ncoulombtype = reaction-field\n' "$1" "$2"
  printf 'rcoulomb = 0.9\nrvdw = 0.9\n'
  [[ $1 == md ]] || return 0
  cat <<MDP
dt = 0.002
nstxout-compressed = $3
constraints = h-bonds
tcoupl = v-rescale
tc-grps = System
tau-t = 0.1
ref-t = 300
pcoupl = C-rescale
pcoupltype = isotropic
tau-p = 1.0
ref-p = 1.0
compressibility = 4.5e-5
nstpcouple = 10
nstcalcenergy = 10
gen-vel = yes
gen-temp = 300
gen-seed = 7
ld-seed = 7
MDP
}

# npt_frames GRO N: N frames of GRO, as GRO text on stdout, whose molecules (residues) take a
# random walk of whole-molecule steps (0.003 nm Gaussian per frame: bond lengths stay) while the
# box and the molecules' first atoms are scaled about the origin by a factor that changes every
# frame (within 1.5%), as an isotropic barostat scales them.
npt_frames() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import math, random, sys
random.seed(7)
lines = open(sys.argv[1]).read().splitlines()
atoms, box = lines[2:-1], [float(b) for b in lines[-1].split()]
walk, first = {}, {}
for a in atoms:
    first.setdefault(a[:5], [float(a[20 + 8 * i:28 + 8 * i]) for i in range(3)])
for f in range(int(sys.argv[2])):
    scale = 1 + 0.015 * math.sin(0.7 * f)
    for d in walk.values():
        d[:] = [c + random.gauss(0, 0.003) for c in d]
    print(f"methanol-water t= {f * 0.04:.5f} step= {f * 20}\n{len(atoms):5d}")
    for a in atoms:
        d, o = walk.setdefault(a[:5], [0.0, 0.0, 0.0]), first[a[:5]]
        x = [float(a[20 + 8 * i:28 + 8 * i]) + (scale - 1) * o[i] + d[i] for i in range(3)]
        print(a[:20] + "".join(f"{c:8.3f}" for c in x))
    print("".join(f"{scale * b:10.5f}" for b in box))
PY
}
