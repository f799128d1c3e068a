# Sourced by the GROMACS CLI tests after scratch.sh: make_water DIR BOX_NM STEPS EVERY runs Debian's
# gmx (solvate, grompp, mdrun on one thread) to make an SPC water box in DIR: conf.gro,
# topol.tpr, md.xtc and md.trr (coordinates every EVERY steps). Exits 77 (skipped) without gmx.
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
      OMP_NUM_THREADS=1 gmx -quiet mdrun -s topol.tpr -nt 1 -deffnm md
  ) > "$out/gmx.log" 2>&1 || { tail -20 "$out/gmx.log"; fail "gmx could not make the water box"; }
}
