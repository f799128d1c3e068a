#!/usr/bin/env bash
# Installs this build into a scratch prefix, then configures, builds and runs the consumer project,
# and compiles its source again with nothing but <prefix>/include and Kokkos' headers on the
# include path. The program must print nothing but its own line (no start-up advice).
set -euo pipefail
build=$1 source=$2 kokkos_dir=$3 cxx=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DKokkos_DIR="$kokkos_dir" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
env -u OMP_PROC_BIND -u OMP_PLACES -u OMP_NUM_THREADS "$work/build/consumer" >"$work/out" 2>&1
cat "$work/out"
# Kokkos' one line on an H100/H200 that the kernels use Ampere's instruction set (README, "The CUDA
# configuration") is the only line allowed beside the program's own.
grep -v '^Kokkos::Cuda::initialize WARNING: running kernels compiled for compute capability' \
  "$work/out" >"$work/own" || true
if [[ $(wc -l <"$work/own") -ne 1 ]]; then
  echo "consumer: expected one line of output, got the above" >&2
  exit 1
fi
if grep -rq '#include "kernels/' "$work/prefix/include"; then
  echo "consumer: installed headers still include a bare kernels/ path:" >&2
  grep -rl '#include "kernels/' "$work/prefix/include" >&2
  exit 1
fi
# A host compiler's syntax check: a CUDA build's headers need nvcc_wrapper's whole set of flags.
kokkos_include=$(cd "$kokkos_dir/../../../include" && pwd)
if ! grep -q '^#define KOKKOS_ENABLE_CUDA' "$kokkos_include/KokkosCore_config.h"; then
  "$cxx" -std=c++17 -fopenmp -fsyntax-only -I"$work/prefix/include" -isystem "$kokkos_include" \
         "$source/main.cpp"
fi
