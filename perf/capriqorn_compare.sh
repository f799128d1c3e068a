#!/usr/bin/env bash
# capriqorn_compare.sh KMOL VENV [WORK]: the excess X-ray and neutron intensity of barnase in water from
# `kmol scattering --solvent --radius` against CAPRIQORN's (github bio-phys/capriqorn, with its
# histogram engine CADISHI), the same method (Koefinger & Hummer, Phys. Rev. E 87, 052712 (2013))
# on the same frames, sphere, q grid and bin width. VENV is a Python environment where both peers
# are installed (its bin/capriq); WORK keeps the files (default: a temporary folder, removed).
# Exits 77 (skipped) without the peers or gmx.
#
# Inputs, made with Debian's gmx: barnase (APBS' barnase.pqr, amber99sb-ildn, hydrogens rebuilt)
# in a 7.0 nm cube of TIP3P water (gmx solvate), and a 7.0 nm cube of the same water alone, 4
# frames each (the solvated structures with 0.1 Angstrom Gaussian jitter: mdrun does not run on
# every CPU here). The solution's frames are centred on barnase's centroid (CAPRIQORN's sphere
# is about the origin); both tools read those files. Sphere R = 33 Angstrom (barnase reaches 24.9
# from its centre), q = 0 to 1/Angstrom in steps of 0.01, bins of 0.01 Angstrom; X-rays with IT92
# form factors (CAPRIQORN's table), neutrons with Sears' lengths (kmol's table, given to CAPRIQORN
# as form factors with no q dependence: its file's constant term, no Gaussians).
#
# CAPRIQORN: preprocessor (MDReader, Sphere with its 3 Angstrom matching shell), histograms
# (cadishi pydh, double precision), postprocessor (Average, Solvent with the pure water's partial
# g(r) from its own pipeline, DeltaH). Its DeltaH intensity holds the pair terms only; the script
# adds the self terms sum_t dN_t f_t(q)^2 from its dN. The same pipeline with the pure water as
# the "solution" is CAPRIQORN's blank: what its solvent model leaves where there is no solute.
# Prints, per probe, the table of docs/scattering.md ("Comparison with CAPRIQORN").
set -euo pipefail
kmol=$(realpath "$1")
venv=$(realpath "$2")
capriq=$venv/bin/capriq
atomsf=$venv/capriqorn/tests/data/atomsf.dat
support=$(realpath "$(dirname "$0")/../tests/support")
[[ -x $capriq && -f $atomsf ]] || { echo "no CAPRIQORN in $venv: skipped"; exit 77; }
command -v gmx > /dev/null || { echo "no gmx (Debian package gromacs): skipped"; exit 77; }
if [[ -n ${3:-} ]]; then
  mkdir -p "$3"
  work=$(realpath "$3")
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
radius=33
box=7.0

/usr/bin/python3 "$support/pqr_to_pdb.py" /usr/share/apbs/examples/pbsam-barn_bars/barnase.pqr \
  > barnase.pdb
printf 'integrator = steep\nnsteps = 0\ncutoff-scheme = Verlet\n' > em.mdp
printf '#include "amber99sb-ildn.ff/forcefield.itp"\n#include "amber99sb-ildn.ff/tip3p.itp"\n[ system ]\nwater\n[ molecules ]\n' \
  > water.top
{
  gmx -quiet pdb2gmx -f barnase.pdb -ff amber99sb-ildn -water tip3p -ignh -o conf.gro -p sol.top
  gmx -quiet editconf -f conf.gro -o box.gro -box $box $box $box -bt cubic -c
  gmx -quiet solvate -cp box.gro -cs spc216.gro -p sol.top -o sol.gro
  gmx -quiet grompp -f em.mdp -c sol.gro -p sol.top -o sol.tpr -maxwarn 5
  gmx -quiet solvate -cs spc216.gro -box $box $box $box -p water.top -o water.gro
  gmx -quiet grompp -f em.mdp -c water.gro -p water.top -o water.tpr -maxwarn 5
} > gmx-setup.log 2>&1 || { tail gmx-setup.log; exit 1; }

# Frames: NAME.xtc as jittered, NAME_c.xtc centred (solute centroid, or the box centre, at the
# origin; each atom its image nearest it), NAME_c.pdb its first frame; alias.dat maps atom names
# to elements by the topology's masses.
/usr/bin/python3 -W ignore - 4 0.1 2> >(grep -v xdrlib >&2) <<'PY'
import sys
import MDAnalysis as mda, numpy as np
n_frames, sigma = int(sys.argv[1]), float(sys.argv[2])
weights = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999, "S": 32.06}
alias = {}
for name, seed in (("sol", 1), ("water", 2)):
    u = mda.Universe(name + ".tpr", name + ".gro")
    for a in u.atoms:
        el = min(weights, key=lambda e: abs(weights[e] - a.mass))
        assert abs(weights[el] - a.mass) < 0.015, a
        assert alias.setdefault(a.name, el) == el, a
    solute = u.select_atoms("not resname SOL")
    rng = np.random.default_rng(seed)
    x0, L = u.atoms.positions.copy(), u.dimensions[:3].copy()
    with mda.Writer(name + ".xtc", u.atoms.n_atoms) as w, \
            mda.Writer(name + "_c.xtc", u.atoms.n_atoms) as wc:
        for k in range(n_frames):
            u.atoms.positions = x0 + rng.normal(0, sigma, x0.shape)
            w.write(u.atoms)
            c = solute.positions.mean(0) if len(solute) else L / 2
            x = u.atoms.positions - c
            u.atoms.positions = x - L * np.round(x / L)
            wc.write(u.atoms)
            if k == 0:
                u.atoms.write(name + "_c.pdb")
with open("alias.dat", "w") as f:
    for n, el in sorted(alias.items()):
        f.write(f"{n} {el}\n")
PY

for probe in xray neutron; do
  /usr/bin/time -f "%e %U %S" -o kmol_$probe.time "$kmol" scattering sol_c.xtc --top sol.tpr \
    --solute 'not resname SOL' --solvent water.xtc --solvent-top water.tpr --radius $radius \
    --probe $probe --qmin 0 --qmax 1 --qbins 101 --bin-width 0.01 --device cpu --threads 1 \
    --out kmol_$probe.dat > kmol_$probe.log 2>&1 || { tail kmol_$probe.log; exit 1; }
done
# The excess of a solute in infinite solvent does not depend on the volume that cuts it out.
"$kmol" scattering sol_c.xtc --top sol.tpr --solute 'not resname SOL' --solvent water.xtc \
  --solvent-top water.tpr --radius 30 --qmin 0 --qmax 1 --qbins 101 --bin-width 0.01 \
  --device cpu --threads 1 --out kmol_r30.dat > kmol_r30.log 2>&1 || { tail kmol_r30.log; exit 1; }
"$kmol" scattering sol_c.xtc --top sol.tpr --solute 'not resname SOL' --solvent water.xtc \
  --solvent-top water.tpr --shell 7 --qmin 0 --qmax 1 --qbins 101 --bin-width 0.01 \
  --device cpu --out kmol_shell.dat > kmol_shell.log 2>&1 || { tail kmol_shell.log; exit 1; }
# Sears' coherent lengths (fm) in CAPRIQORN's form-factor format: name; Z, Z, c; a1-a4; b1-b4; a
# line it does not read.
for element in "H 1 -3.739" "C 6 6.646" "N 7 9.36" "O 8 5.803"; do
  read -r name z b <<< "$element"
  printf '%s\n %s %s %s\n 0 0 0 0\n 0 0 0 0\n 0 0 0 0\n' "$name" "$z" "$z" "$b"
done > neutron.dat

# CAPRIQORN's parameter files (its templates, `capriq example`, trimmed to the filters used).
preprocessor() {  # preprocessor NAME PDB XTC SPHERE(0|1)
  cat << EOF
- MDReader:
    active: true
    alias_file: ./alias.dat
    pdb_file: ./$2
    trajectory_file: ./$3
    first: null
    last: null
    selection: all
    verbose: false
EOF
  [[ $4 == 1 ]] && cat << EOF
- Sphere:
    active: true
    radius: $radius.0
    shell_width: 3.0
    do_len_histo: true
    len_histo_dr: 0.01
    verbose: false
EOF
  cat << EOF
- H5Writer:
    active: true
    file: ./$1_pre/trajectory.h5
    compression: null
    verbose: false
EOF
}
histograms() {  # histograms NAME R_MAX PERIODIC_BOX
  cat << EOF
general: {redirect_output: false, verbose: false, queue_maxsize: 256, queue_timeout: 3600, numa_aware: false}
histogram: {r_max: $2, dr: 0.01, sum: 4}
cpu: {module: pydh, precision: double, workers: 1, threads: 1, check_input: true}
gpu: {module: cudh, precision: single, workers: 0, check_input: true}
input: {file: ./$1_pre/trajectory.h5, first: null, last: null, step: 1, periodic_box: $3}
output: {directory: ./$1_histo/, file: histograms.h5, compression: null, write_h5: true,
         write_npx: false, write_npy: false, write_xyz: false, flush_interval: 100}
EOF
}
postprocessor() {  # postprocessor NAME SOLVENT(0|1) [HISTOGRAMS FORM_FACTORS]
  cat << EOF
- H5Reader: {active: true, file: ./${3:-$1}_histo/histograms.h5, first: null, last: null, step: 1,
             shuffle: false, shuffle_reproducible: false, verbose: false}
- Average: {active: true, factor: 1.0, n_avg: all, verbose: false}
EOF
  if [[ $2 == 0 ]]; then
    echo "- RDF: {active: true, verbose: false}"
  else
    cat << EOF
- Solvent: {active: true, debug: false, g_ascii_file: ./gr_unpack/1/rdf.dat, g_plateau_fraction: 0.3,
            g_noise_fraction: 0.01, g_match: 'O,O', g_scaled_file: null, verbose: false}
- DeltaH: {active: true, debug: false, form_factor_file: ${4:-$atomsf}, dq: 0.01, nq: 101, verbose: false}
EOF
  fi
  echo "- H5Writer: {active: true, compression: null, file: ./$1_post/postprocessor.h5, verbose: false}"
}
capriqorn() {  # capriqorn NAME [STAGES]: the stages and the unpacked output in NAME_unpack
  local stage
  for stage in ${2:-pre histo post}; do
    local command=$stage
    [[ $stage == pre ]] && command=preproc
    [[ $stage == post ]] && command=postproc
    "$capriq" $command "$1_$stage.yaml" > "$1_$stage.log" 2>&1 || { tail "$1_$stage.log"; exit 1; }
  done
  rm -rf "$1_unpack"
  "$capriq" unpack -o "$1_unpack" "$1_post/postprocessor.h5" > "$1_unpack.log" 2>&1
}
# The pure water's partial g(r) (periodic, to just below half the box), then the solution and
# the blank (the pure water cut by the same sphere).
preprocessor gr water_c.pdb water_c.xtc 0 > gr_pre.yaml
histograms gr 34.9 null > gr_histo.yaml
postprocessor gr 0 > gr_post.yaml
preprocessor sol sol_c.pdb sol_c.xtc 1 > sol_pre.yaml
histograms sol 66.5 "[]" > sol_histo.yaml
postprocessor sol 1 > sol_post.yaml
preprocessor blank water_c.pdb water_c.xtc 1 > blank_pre.yaml
histograms blank 66.5 "[]" > blank_histo.yaml
postprocessor blank 1 > blank_post.yaml
postprocessor sol_n 1 sol neutron.dat > sol_n_post.yaml
postprocessor blank_n 1 blank neutron.dat > blank_n_post.yaml
for name in gr sol blank sol_n blank_n; do
  stages="pre histo post"
  [[ $name == *_n ]] && stages=post
  /usr/bin/time -f "%e %U %S" -o "$name.time" \
    bash -c "$(declare -f capriqorn); capriq=$capriq; capriqorn $name '$stages'"
done

/usr/bin/python3 -W ignore - $radius "$atomsf" 2> >(grep -v xdrlib >&2) <<'PY'
import json, os, sys
import MDAnalysis as mda, numpy as np
R = float(sys.argv[1])
V = 4 / 3 * np.pi * R ** 3

def table(path):
    """A CAPRIQORN form-factor file: f(s) = sum a exp(-b s^2) + c, s = q / (4 pi)."""
    out, lines = {}, open(path).read().split("\n")
    for i in range(0, len(lines) - 4, 5):
        if lines[i].strip():
            out[lines[i].strip()] = ([float(v) for v in lines[i + 2].split()],
                                     [float(v) for v in lines[i + 3].split()],
                                     float(lines[i + 1].split()[2]))
    return out

alias = dict(l.split() for l in open("alias.dat"))
def inside(top, traj, solute):
    """Per frame, the elements and centre distances of the atoms within R, as kmol takes them."""
    u = mda.Universe(top, traj)
    els = np.array([alias[n] for n in u.atoms.names])
    sel = u.select_atoms(solute) if solute else None
    frames = []
    for ts in u.trajectory:
        L = ts.dimensions[:3]
        d = u.atoms.positions - (sel.positions.mean(0) if sel else L / 2)
        d = np.linalg.norm(d - L * np.round(d / L), axis=1)
        frames.append((els[d < R], d[d < R]))
    return frames, u
solution, _ = inside("sol.tpr", "sol_c.xtc", "not resname SOL")
water, uw = inside("water.tpr", "water.xtc", None)
names = np.array([alias[n] for n in uw.atoms.names])
rho = {e: (names == e).sum() / uw.dimensions[:3].prod() for e in "HO"}

def guinier(q, I):
    """I(0), Rg and the last q of ln I = ln I(0) - q^2 Rg^2 / 3 over q Rg <= 1.3 (nan without
    three positive points)."""
    rg = 15.0
    for _ in range(50):
        m = (q * rg <= 1.3) & (I > 0)
        if m[:3].sum() < 3:
            return np.nan, np.nan, np.nan
        p = np.polyfit(q[m] ** 2, np.log(I[m]), 1)
        rg, old = np.sqrt(max(-3 * p[0], 0)), rg
        if abs(rg - old) < 1e-9:
            break
    return np.exp(p[1]), rg, q[m].max()

def compare(probe, unit, form_factors, kmol_file, capriqorn_run, blank_run):
    ff = table(form_factors)
    f = lambda el, q: sum(a * np.exp(-b * (q / (4 * np.pi)) ** 2)
                          for a, b in zip(*ff[el][:2])) + ff[el][2]
    def capriqorn(name):  # Delta I with the self terms sum_t dN_t f_t^2; matching densities
        dI = np.loadtxt(f"{name}_unpack/1/intensity/dI.dat")
        where = f"{name}_unpack/1/intensity/dN"
        dN = {n[:-5]: json.load(open(f"{where}/{n}")) for n in os.listdir(where)}
        shell = {e: json.load(open(f"{name}_unpack/1/solvent_matching/rho/{e}.json"))
                 for e in "HO"}
        return dI[:, 0], dI[:, 1] + sum(n * f(e, dI[:, 0]) ** 2 for e, n in dN.items()), shell
    k = np.loadtxt(kmol_file)
    q, kmol = k[:, 0], k[:, 1]
    qc, capri, rho_shell = capriqorn(capriqorn_run)
    blank = capriqorn(blank_run)[1]
    assert np.allclose(q, qc)
    def amplitude(frames):
        """<sum_j f_j(q) sinc(q d_j)> over the atoms in V, and its value at q = 0."""
        total, zero = np.zeros_like(q), 0.0
        for els, d in frames:
            for e in set(els):
                total += f(e, q) * np.sinc(np.outer(q, d[els == e]) / np.pi).sum(1)
                zero += f(e, 0.0) * (els == e).sum()
        return total / len(frames), zero / len(frames)
    S_sol, zero_sol = amplitude(solution)
    S_wat, zero_wat = amplitude(water)
    x = np.maximum(q * R, 1e-12)
    form = np.where(q > 0, 3 * (np.sin(x) - x * np.cos(x)) / x ** 3, 1.0)
    uniform = V * form * sum(rho[e] * f(e, q) for e in rho)
    # What kmol's Delta I would be without A_U: <|A_sol|^2> - <|A_wat|^2>.
    cut = kmol + 2 * uniform * (S_sol - S_wat)
    bulk = lambda r: sum(r[e] * f(e, 0.0) for e in "HO") * V
    pure, shell = zero_sol - bulk(rho), zero_sol - bulk(rho_shell)
    print(f"## {probe}, sphere R = {R:g} A ({unit})")
    print(f"Scattering at q = 0 in the solution's sphere {zero_sol:.0f}, in the water's "
          f"{zero_wat:.0f}, uniform water {bulk(rho):.0f}; water density (O per A^3): pure "
          f"{rho['O']:.6f}, CAPRIQORN's matching shell {rho_shell['O']:.6f}; barnase's excess "
          f"{pure:.0f} against the pure water, {shell:.0f} against the shell: I(0) ratio "
          f"{pure ** 2 / shell ** 2:.3f} from the density alone")
    print()
    print("| curve | I(0) | Rg A | Guinier q up to |")
    print("|---|---|---|---|")
    for label, I in (("CAPRIQORN", capri), ("kmol --solvent", kmol),
                     ("kmol's runs without A_U", cut),
                     ("CAPRIQORN minus its blank", capri - blank)):
        i0, rg, qmax = guinier(q, I)
        print(f"| {label} | {i0:.4g} | {rg:.2f} | {qmax:.2f} |")
    print()
    print("| q 1/A | CAPRIQORN | kmol --solvent | ratio to CAPRIQORN | CAPRIQORN's blank | "
          "ratio to CAPRIQORN minus blank | kmol's runs without A_U |")
    print("|---|---|---|---|---|---|---|")
    for i in [0, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100]:
        print(f"| {q[i]:.2f} | {capri[i]:.4g} | {kmol[i]:.4g} | {kmol[i] / capri[i]:.3f} | "
              f"{blank[i]:.3g} | {kmol[i] / (capri[i] - blank[i]):.3f} | {cut[i]:.3g} |")
    high = q >= 0.3
    rel = np.abs(kmol - (capri - blank))[high] / np.abs(capri - blank)[high]
    print()
    print(f"q >= 0.3: |kmol - (CAPRIQORN - blank)| / |CAPRIQORN - blank|: "
          f"median {np.median(rel):.3f}, max {rel.max():.3f}; |kmol - CAPRIQORN| / CAPRIQORN: "
          f"median {np.median(np.abs(kmol - capri)[high] / capri[high]):.3f}")
    print()
    np.savetxt(f"compare_{probe}.dat", np.c_[q, capri, kmol, cut, blank],
               header=f"q capriqorn kmol kmol_without_uniform capriqorn_blank ({unit})")

compare("xray", "e^2", sys.argv[2], "kmol_xray.dat", "sol", "blank")
compare("neutron", "fm^2", "neutron.dat", "kmol_neutron.dat", "sol_n", "blank_n")
r30, sphere, shell = (np.loadtxt(f"kmol_{n}.dat") for n in ("r30", "xray", "shell"))
print("X-ray, kmol --solvent with three volumes (e^2):")
print()
print("| q 1/A | " + " | ".join(f"{v:.2f}" for v in r30[::10, 0]) + " |")
print("|---" * (len(r30[::10]) + 1) + "|")
print("| --radius 33 | " + " | ".join(f"{v:.3g}" for v in sphere[::10, 1]) + " |")
print("| --radius 30 | " + " | ".join(f"{v:.3g}" for v in r30[::10, 1]) + " |")
print("| --shell 7 | " + " | ".join(f"{v:.3g}" for v in shell[::10, 1]) + " |")
print()
PY
for name in kmol_xray kmol_neutron gr sol blank sol_n blank_n; do
  read -r wall user sys < "$name.time"
  echo "$name: ${wall} s wall, $(echo "$user + $sys" | bc) s CPU"
done
