#!/usr/bin/env bash
# The README's C++ example exactly as printed: its CMake project and program (the first cmake and
# cpp blocks after "From C++"), built against this build installed into a scratch prefix, run
# with no OpenMP settings in the environment. It must print one line, nothing from Kokkos, and
# the ideal gas's pair count: N(N-1)/2 pairs times the fraction of the box within r_max.
set -euo pipefail
build=$1 readme=$2 kokkos_dir=$3 cxx=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
block() {  # the first fenced block of language $1 after the "From C++" paragraph
  awk -v lang="$1" '/^From C\+\+/ { seen = 1 } seen && $0 == "```" lang { inside = 1; next }
                    inside && $0 == "```" { exit } inside { print }' "$readme"
}
mkdir "$work/project"
block cmake >"$work/project/CMakeLists.txt"
block cpp >"$work/project/gas.cpp"
for f in CMakeLists.txt gas.cpp; do
  [[ -s $work/project/$f ]] || { echo "readme: no $f block after 'From C++' in $readme" >&2; exit 1; }
done
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$work/project" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DKokkos_DIR="$kokkos_dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
env -u OMP_PROC_BIND -u OMP_PLACES -u OMP_NUM_THREADS "$work/build/gas" >"$work/out" 2>&1
cat "$work/out"
# Kokkos' one line on an H100/H200 that the kernels use Ampere's instruction set (README, "The CUDA
# configuration") is the only line allowed beside the program's own.
grep -v '^Kokkos::Cuda::initialize WARNING: running kernels compiled for compute capability' \
  "$work/out" >"$work/own" || true
/usr/bin/python3 - "$work/own" <<'PY'
import math, re, sys
lines = open(sys.argv[1]).read().splitlines()
if len(lines) != 1 or not re.fullmatch(r"\d+ pairs within 15 A", lines[0]):
    sys.exit(f"readme: expected one line 'N pairs within 15 A', got {lines}")
n, r_max, length = 20000, 15.0, 40.0
want = n * (n - 1) / 2 * (4 / 3 * math.pi * r_max**3) / length**3
got = int(lines[0].split()[0])
if abs(got / want - 1) > 0.005:
    sys.exit(f"readme: {got} pairs, an ideal gas has {want:.0f} within 0.5%")
PY
