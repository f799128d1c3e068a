#!/usr/bin/env bash
# Installs this build into a scratch prefix, then configures, builds and runs the consumer project.
set -euo pipefail
build=$1 source=$2 kokkos_dir=$3 cxx=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DKokkos_DIR="$kokkos_dir" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer"
