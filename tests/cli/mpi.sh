#!/usr/bin/env bash
# MPI end to end: `mpirun -np P kmol rdf | histograms | potential` with 1, 2 and 3 ranks write the
# same files byte for byte; killing one rank fails the job with a message, and the same command
# with --resume completes it with the uninterrupted run's files.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
cd "$dir"
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
mpi=(mpirun --oversubscribe --allow-run-as-root --bind-to none -x OMP_NUM_THREADS -x OMP_PROC_BIND)
"$kmol" example-trajectory --example gas --atoms 2000 --length 30 --frames 23 --out gas.h5 >/dev/null || fail "example"
awk 'BEGIN { srand(3); for (i = 1; i <= 300; ++i)
  printf "ATOM %d NA ION %d %.3f %.3f %.3f %.2f 1.5\n", i, i, 20 * rand(), 20 * rand(), 20 * rand(), (i % 2 ? 0.5 : -0.5) }' > ions.pqr

# Each rank count in its own directory with the same file names, so that the outputs, which
# record the whole command, must be identical byte for byte.
rdf=(../gas.h5 --rmax 10 --bins 100 --interval 4 --threads 1 --quiet)
for np in 1 2 3; do
  mkdir -p ranks$np && cd ranks$np || fail "ranks$np"
  "${mpi[@]}" -np $np "$kmol" rdf "${rdf[@]}" --out rdf.xvg --csv rdf.csv --h5 rdf.h5 2>log ||
    fail "rdf on $np ranks: $(cat log)"
  "${mpi[@]}" -np $np "$kmol" histograms ../gas.h5 --rmax 10 --bins 50 --interval 5 --threads 1 --quiet --out hist.h5 2>log ||
    fail "histograms on $np ranks: $(cat log)"
  "${mpi[@]}" -np $np "$kmol" potential ../ions.pqr --spacing 0.8 --padding 4 --threads 1 --out pot.dx >log 2>&1 ||
    fail "potential on $np ranks: $(cat log)"
  "${mpi[@]}" -np $np "$kmol" potential ../ions.pqr --method cutoff --cutoff 6 --spacing 0.8 --padding 4 --threads 1 \
    --out cut.dx >log 2>&1 || fail "cutoff potential on $np ranks: $(cat log)"
  ls ./*.kmol-partial* >/dev/null 2>&1 && fail "partial states left after $np ranks"
  cd ..
done
for np in 2 3; do
  for f in rdf.xvg rdf.csv rdf.h5 hist.h5 pot.dx cut.dx; do
    cmp -s ranks1/$f ranks$np/$f || fail "$f on $np ranks differs from 1 rank's"
  done
done
echo "1, 2 and 3 ranks: identical rdf (xvg, csv, h5), histograms (h5) and potential (dx) files"

# Kill rank 1 of 2 once it has saved part of its work.
"$kmol" example-trajectory --example gas --atoms 4000 --length 40 --frames 120 --out long.h5 >/dev/null || fail "example"
long=(long.h5 --rmax 12 --bins 120 --interval 16 --threads 1 --quiet)
"${mpi[@]}" -np 1 "$kmol" rdf "${long[@]}" --out whole.xvg --csv whole.csv || fail "uninterrupted run"
"${mpi[@]}" -np 2 "$kmol" rdf "${long[@]}" --out killed.xvg --csv killed.csv 2>killed.log &
job=$!
partial=killed.xvg.kmol-partial.rank1of2.h5
for _ in $(seq 1 600); do
  [[ -e $partial ]] && break
  kill -0 $job 2>/dev/null || break
  sleep 0.05
done
victim=""
for pid in $(pgrep -f "kmol rdf ${long[0]}"); do
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$pid
done
if [[ -e $partial && -n $victim ]]; then
  kill -9 "$victim"
  wait $job && fail "the job succeeded although rank 1 was killed"
  [[ ! -e killed.xvg ]] || fail "a failed job left its output"
  grep -qi "signal 9\|killed\|exited" killed.log || fail "no message about the killed rank: $(cat killed.log)"
  "${mpi[@]}" -np 2 "$kmol" rdf "${long[@]}" --out killed.xvg --csv killed.csv --resume 2>resume.log ||
    fail "--resume: $(cat resume.log)"
  echo "killed rank 1: the job failed ($(grep -ci kill killed.log) lines name it); --resume completed it"
else
  wait $job || fail "2 ranks: $(cat killed.log)"
  echo "note: the run finished before rank 1 could be killed"
fi
same_data() { cmp -s <(grep -v '^# command:' "$1") <(grep -v '^# command:' "$2"); }
same_data whole.xvg killed.xvg && same_data whole.csv killed.csv || fail "the resumed job's files differ from the uninterrupted run's"
