#!/usr/bin/env bash
# Damaged GROMACS files through the whole command: an SPC water box made here with Debian's gmx
# (solvate, grompp, trjconv: no mdrun) as XTC, TRR and TPR, each damaged where libgromacs once
# crashed, hung or ended kmol (an atom count made larger, a section or compressed size past the
# file, a TPR cut short or with flipped bytes). Every one is refused with exit 2 and kmol's
# message naming the file; no GROMACS banner and no C++ exception name reaches the terminal.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
"$kmol" info | grep -q "GROMACS XTC, TRR, TNG" || { echo "kmol built without libgromacs: skipped"; exit 77; }
fuzz=$(realpath "$(dirname "$0")/../fuzz")
cd "$dir" || exit 1

# TNG files the whole-command campaign damaged (tests/fuzz/corpus/tng/, each named for what
# libgromacs' TNG library did on it: a crash reading or closing it, or a loop). kmol decodes TNG
# only in a child process: each is read, or refused naming it (exit 2), within the child's limit.
seeds=$fuzz/seeds
mkdir temporaries
for tng in "$fuzz"/corpus/tng/*.tng; do
  name=$(basename "$tng")
  cp "$tng" "$name"
  for command in "rdf $name --top $seeds/tpr/water.tpr --bins 40 --out tng.xvg --quiet" \
                 "histograms $name --top $seeds/gro/water.gro --bins 40 --out tng.h5 --quiet" \
                 "potential $name --top $seeds/tpr/water.tpr --frame 1 --spacing 1.5 --out tng.dx" \
                 "cc $name --ref $seeds/dx/water-potential.dx --resolution 4 --timeline tng.csv" \
                 "md --restart $name --steps 2 --every 1 --out tng-md.h5 --log tng-md.csv --quiet"; do
    # A loop costs the child's whole time limit, and every command decodes the same way.
    [[ $name == hang-* && $command != rdf* ]] && continue
    read -ra args <<<"$command"
    start=$SECONDS
    message=$(TMPDIR=$dir/temporaries timeout 60 "$kmol" "${args[@]}" --device cpu --threads 1 2>&1)
    rc=$?
    # exit 1: a run the decoded frames make fail (md blowing up on overlapping atoms), named.
    [[ $rc == 0 || $rc == 2 || ($rc == 1 && $message == *"kmol: error: "*) ]] ||
      fail "kmol $command: exit $rc: $message"
    [[ $rc == 2 ]] && ! grep -q "$name" <<<"$message" && fail "kmol $command: $name not named: $message"
    (( SECONDS - start <= 25 )) || fail "kmol $command: $((SECONDS - start)) s"
    [[ -z $(ls -A temporaries) ]] || fail "kmol $command left $(ls temporaries)"
    rm -f tng.* tng-md.*
  done
  rm -f "$name"
done

command -v gmx >/dev/null || { echo "no gmx (Debian package gromacs): skipped"; exit 77; }
printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spc.itp"\n[ system ]\nwater\n[ molecules ]\n' > topol.top
printf 'integrator = md\nnsteps = 0\ncutoff-scheme = Verlet\nrcoulomb = 0.4\nrvdw = 0.4\n' > md.mdp
{
  gmx -quiet solvate -cs spc216.gro -box 1.2 -o conf.gro -p topol.top &&
    gmx -quiet grompp -f md.mdp -c conf.gro -p topol.top -o topol.tpr -maxwarn 5
} > gmx.log 2>&1 || { tail -20 gmx.log; fail "gmx could not make the water box"; }
# Three frames, each moved a little.
/usr/bin/python3 - <<'PY' || fail "could not write the frames"
lines = open("conf.gro").read().splitlines()
n = int(lines[1])
out = []
for f in range(3):
    out += [f"water t= {f}.0 step= {f}", lines[1]]
    out += [a[:20] + f"{float(a[20:28]) + 0.01 * f:8.3f}" + a[28:44] for a in lines[2:2 + n]]
    out.append(lines[2 + n])
open("frames.gro", "w").write("\n".join(out) + "\n")
PY
for ext in xtc trr; do
  echo 0 | gmx -quiet trjconv -f frames.gro -o md.$ext > trjconv.log 2>&1 || fail "gmx trjconv -o md.$ext"
done
natoms=$(sed -n 2p conf.gro | tr -d ' ')
"$kmol" rdf md.xtc --top topol.tpr --sel1 'name OW' --rmax 5 --bins 10 --out whole.xvg --quiet ||
  fail "the undamaged files were refused"

# put FILE OFFSET FORMAT VALUE...: writes big-endian values (struct format) at OFFSET.
put() {
  /usr/bin/python3 -c 'import struct, sys
f, at, fmt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
vals = [float(v) if "f" in fmt or "d" in fmt else int(v) for v in sys.argv[4:]]
d = bytearray(open(f, "rb").read()); b = struct.pack(">" + fmt, *vals)
d[at:at + len(b)] = b; open(f, "wb").write(d)' "$@"
}
# Where frame 1 starts: XTC frames here are all the same size, as are TRR frames.
xtc_frame=$(( $(stat -c %s md.xtc) / 3 ))
trr_frame=$(( $(stat -c %s md.trr) / 3 ))
(( $(stat -c %s md.xtc) % 3 == 0 )) || xtc_frame=$(/usr/bin/python3 -c 'import struct
d = open("md.xtc", "rb").read()
print(92 + (struct.unpack(">i", d[88:92])[0] + 3) // 4 * 4)')

# refused NAME PATTERN COMMAND...: exit 2, PATTERN in the message, no library banner or
# exception name, no output left.
refused() {
  local name=$1 pattern=$2 message rc; shift 2
  message=$("$@" 2>&1); rc=$?
  [[ $rc == 2 ]] || fail "$name: exit $rc, expected 2: $message"
  grep -q -- "$pattern" <<<"$message" || fail "$name: '$message', expected '$pattern'"
  grep -qiE "Fatal error|GROMACS reminds|std::|basic_string|bad_alloc|Program: +gmx" <<<"$message" &&
    fail "$name: a library's message reached the terminal: $message"
  [[ -e out.xvg ]] && fail "$name: left out.xvg"
  rm -f out.xvg.kmol-partial.h5
  return 0
}
rdf() { "$kmol" rdf "$@" --rmax 5 --bins 10 --out out.xvg --quiet; }

# XTC: frame 1's atom count, compressed size and bit width; the first frame's atom count.
cases=("4 i $((natoms + 1)) the header gives $((natoms + 1)) atoms, the first frame $natoms"
       "88 i 1000000 compressed size 1000000 bytes does not fit $natoms atoms"
       "88 i -8 compressed size -8 bytes"
       "84 i 100 bit width 100 is outside the format's table"
       "56 f 0 precision")
for c in "${cases[@]}"; do
  read -r at fmt value pattern <<<"$c"
  cp md.xtc bad.xtc && rm -f .bad.xtc.kmol-xtc-index
  put bad.xtc $((xtc_frame + at)) $fmt $value
  refused "xtc +$at=$value" "bad.xtc: frame: \[1\] damaged: $pattern.*--frames :1 reads them" rdf bad.xtc --top topol.tpr
done
cp md.xtc bad.xtc && rm -f .bad.xtc.kmol-xtc-index && put bad.xtc 4 i 1073741824
refused "xtc natoms 2^30" "bad.xtc: frame: \[0\] damaged: the header gives 1073741824 atoms" rdf bad.xtc
# Every command that reads trajectories refuses the damaged frame the same way.
cp md.xtc bad.xtc && rm -f .bad.xtc.kmol-xtc-index && put bad.xtc $((xtc_frame + 88)) i 1000000
refused "histograms" "bad.xtc: frame: \[1\] damaged" \
  "$kmol" histograms bad.xtc --rmax 5 --bins 10 --out out.h5 --quiet
rm -f out.h5*
refused "potential" "bad.xtc: frame: \[1\] damaged" \
  "$kmol" potential bad.xtc --top topol.tpr --frame 1 --spacing 2 --out out.dx
refused "surf" "bad.xtc: frame: \[1\] damaged" \
  "$kmol" surf bad.xtc --frame 1 --spacing 2 --out out.dx

# A truncated XTC: the suggested --frames :2 resumes the two frames saved by the failed run, and
# gives the g(r) of a fresh run over them.
head -c $((2 * xtc_frame + 100)) md.xtc > cut.xtc
message=$("$kmol" rdf cut.xtc --rmax 5 --bins 10 --out cut.xvg 2>&1) && fail "a truncated XTC was accepted"
grep -q "(--frames :2 reads them)" <<<"$message" || fail "truncated XTC: $message"
[[ -s cut.xvg.kmol-partial.h5 ]] || fail "the two whole frames were not saved: $message"
message=$("$kmol" rdf cut.xtc --rmax 5 --bins 10 --frames :2 --out cut.xvg 2>&1) || fail "--frames :2: $message"
grep -q "resuming from cut.xvg.kmol-partial.h5: 2 of 2 frames already done" <<<"$message" ||
  fail "--frames :2 did not resume the saved frames: $message"
[[ -e cut.xvg.kmol-partial.h5 ]] && fail "the resumed run left its partial state"
"$kmol" rdf cut.xtc --rmax 5 --bins 10 --frames :2 --out fresh.xvg --quiet || fail "fresh --frames :2"
cmp <(grep -v '^# \(command\|precision\)' cut.xvg) <(grep -v '^# \(command\|precision\)' fresh.xvg) ||
  fail "the resumed g(r) differs from a fresh run's"
awk '!/^[#@]/ && $2 > 0 { n++ } END { exit n < 3 }' cut.xvg || fail "the resumed g(r) is empty"

# TRR: frame 1's atom count, a section size past the file, an impossible precision, a cut frame.
cases=("64 i $((natoms + 5)) do not fit $((natoms + 5)) atoms"
       "52 i 2147483647 coordinates 2147483647"
       "32 i 40 box 40"
       "0 i 1994 no TRR frame header")
for c in "${cases[@]}"; do
  read -r at fmt value pattern <<<"$c"
  cp md.trr bad.trr
  put bad.trr $((trr_frame + at)) $fmt $value
  refused "trr +$at=$value" "bad.trr: frame: \[1\] damaged: .*$pattern" rdf bad.trr --top topol.tpr
done
head -c $((trr_frame + 200)) md.trr > bad.trr
refused "trr cut" "bad.trr: frame: \[1\] damaged: the file ends at byte" rdf bad.trr --top topol.tpr
cp md.trr bad.trr && put bad.trr 64 i 1073741824
refused "trr natoms 2^30" "bad.trr: frame: \[0\] damaged" rdf bad.trr --top topol.tpr

# TPR: cut short at several points in its topology, and bytes flipped: a refusal naming the
# file, never a crash (a cut in the coordinates after the topology leaves what kmol reads whole).
size=$(stat -c %s topol.tpr)
for cut in 40 200 1000 $((size / 3)) $((size / 2)); do
  head -c $cut topol.tpr > bad.tpr
  refused "tpr cut at $cut" "bad.tpr: " rdf md.xtc --top bad.tpr
done
for seed in 1 2 3 4 5 6; do
  /usr/bin/python3 -c 'import random, sys
random.seed(int(sys.argv[1])); d = bytearray(open("topol.tpr", "rb").read())
for _ in range(12):
    i = random.randrange(200, len(d)); d[i] ^= 1 << random.randrange(8)
open("bad.tpr", "wb").write(d)' $seed
  message=$("$kmol" rdf md.xtc --top bad.tpr --rmax 5 --bins 10 --out out.xvg --quiet 2>&1); rc=$?
  # A flip in a name or a charge can leave a readable topology: then the run succeeds.
  [[ $rc == 0 ]] && { rm -f out.xvg; continue; }
  [[ $rc == 2 ]] || fail "tpr flips $seed: exit $rc: $message"
  grep -q "bad.tpr: " <<<"$message" || fail "tpr flips $seed: the file is not named: $message"
  grep -qiE "Fatal error|std::|basic_string|bad_alloc" <<<"$message" && fail "tpr flips $seed: $message"
done
head -c 300 topol.tpr > bad.tpr
refused "potential --top" "bad.tpr: " "$kmol" potential md.xtc --top bad.tpr --frame 0 --spacing 2 --out out.dx
echo "gromacs_damaged: all checks passed"
