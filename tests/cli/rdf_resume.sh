#!/usr/bin/env bash
# A run killed (SIGKILL) once it has saved part of its work, then started again with the same
# command, ends with exactly the counts of an uninterrupted run. (`kmol histograms` saves and
# resumes through the same RunState.)
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
cd "$dir"
export OMP_NUM_THREADS=1
# Under AddressSanitizer (KMOL_TEST_SIZES=sanitizer) kmol counts pairs about 20 times slower: a
# quarter of the atoms (a sixteenth of the pairs) gives the run the plain build's seconds.
atoms=6000
[[ ${KMOL_TEST_SIZES:-full} == sanitizer ]] && atoms=1500
"$kmol" example-trajectory --example gas --atoms $atoms --length 40 --frames 500 --out gas.h5 >/dev/null || fail "example"

# Starts the command and kills it (SIGKILL) once its partial state for OUTPUT exists. A run saves
# at most once a second, so a fast machine could finish this one before its first save: the run
# is held stopped for 90% of the wall time (SIGSTOP/SIGCONT), which stretches it over seconds on
# any machine while a save still comes a second after its frames begin.
kill_when_saved() {  # output, then the command
  local partial=$1.kmol-partial.h5; shift
  "$@" & local pid=$!
  for _ in $(seq 1 600); do
    [[ -e $partial ]] && break
    kill -STOP $pid 2>/dev/null || break
    sleep 0.18
    kill -CONT $pid 2>/dev/null
    sleep 0.02
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  [[ -e $partial ]] || fail "the run finished or stalled without saving its partial state"
}

args=(gas.h5 --rmax 12 --bins 120 --threads 1 --interval 16)
"$kmol" rdf "${args[@]}" --quiet --out whole.xvg --csv whole.csv || fail "uninterrupted run"
kill_when_saved killed.xvg "$kmol" rdf "${args[@]}" --quiet --out killed.xvg --csv killed.csv
[[ ! -e killed.xvg ]] || fail "a killed run left its output"
"$kmol" rdf "${args[@]}" --out killed.xvg --csv killed.csv 2>resume.log >/dev/null || fail "resumed run: $(cat resume.log)"
cmp -s <(grep -v '^#' whole.csv) <(grep -v '^#' killed.csv) || fail "resumed counts differ from the uninterrupted run's"
[[ ! -e killed.xvg.kmol-partial.h5 ]] || fail "the partial state outlived the finished run"
"$kmol" rdf "${args[@]}" --quiet --out again.xvg --resume 2>/dev/null && fail "--resume without a saved run was accepted"

grep -q "resuming from killed.xvg.kmol-partial.h5" resume.log || fail "the second run did not resume: $(cat resume.log)"
echo "resume after kill: identical counts"
