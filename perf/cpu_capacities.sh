#!/usr/bin/env bash
# cpu_capacities.sh [ROUNDS]: the CPU capacities perf/study/machines.py takes from measurement, on
# this machine, each the median of ROUNDS (default 7) runs:
# - clock: a chain of dependent integer adds of a register (one a clock; Intel cores since Golden
#   Cove fold adds of an immediate in the renamer, several a clock) timed by the thread's CPU time,
#   so that other processes sharing the cores do not count;
# - ymm FMAs per clock (12 independent chains: the FMA pipes);
# - 1/sqrt to float accuracy: vrsqrtps and one Newton step on 8 lanes (5 instructions), inputs
#   independent of the results (throughput, not latency), lanes per second on one core;
# - memory: a copy of 512 MiB of doubles with 1 and with 2 OpenMP threads (16 bytes an element, as
#   STREAM counts), timed by the CPU time of the slowest thread.
# Build flags as kmol's (-O2 -march=x86-64-v3). Prints one line per quantity.
set -euo pipefail
rounds=${1:-7}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/capacities.cpp" <<'CPP'
#include <immintrin.h>
#include <omp.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
static double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
static double clock_hz() {
  const long n = 200000000;
  long x = 0, one = 1;
  const double t = cpu_now();
  for (long i = 0; i < n; i += 8)
    asm volatile("add %1, %0\n add %1, %0\n add %1, %0\n add %1, %0\n"
                 "add %1, %0\n add %1, %0\n add %1, %0\n add %1, %0\n" : "+r"(x) : "r"(one));
  return double(n) / (cpu_now() - t);
}
#define KEEP8(p) asm volatile("" : "+x"(p##0), "+x"(p##1), "+x"(p##2), "+x"(p##3), \
                              "+x"(p##4), "+x"(p##5), "+x"(p##6), "+x"(p##7))
static double fma_per_s() {
  const __m256 b = _mm256_set1_ps(0.999f), c = _mm256_set1_ps(1e-7f);
  __m256 v0 = b, v1 = b, v2 = b, v3 = b, v4 = b, v5 = b, v6 = b, v7 = b, w0 = c, w1 = c, w2 = c, w3 = c;
  const long n = 50000000;
  const double t = cpu_now();
  for (long i = 0; i < n; ++i) {
    v0 = _mm256_fmadd_ps(v0, b, c); v1 = _mm256_fmadd_ps(v1, b, c); v2 = _mm256_fmadd_ps(v2, b, c);
    v3 = _mm256_fmadd_ps(v3, b, c); v4 = _mm256_fmadd_ps(v4, b, c); v5 = _mm256_fmadd_ps(v5, b, c);
    v6 = _mm256_fmadd_ps(v6, b, c); v7 = _mm256_fmadd_ps(v7, b, c); w0 = _mm256_fmadd_ps(w0, b, c);
    w1 = _mm256_fmadd_ps(w1, b, c); w2 = _mm256_fmadd_ps(w2, b, c); w3 = _mm256_fmadd_ps(w3, b, c);
    KEEP8(v);
    asm volatile("" : "+x"(w0), "+x"(w1), "+x"(w2), "+x"(w3));
  }
  const double s = cpu_now() - t;
  float o[8];
  _mm256_storeu_ps(o, _mm256_add_ps(_mm256_add_ps(v0, w0), v7));
  if (o[0] == 1234.f) puts("");
  return 12.0 * double(n) / s;
}
static double rsqrt_lanes_per_s() {
  const __m256 h = _mm256_set1_ps(0.5f), th = _mm256_set1_ps(1.5f);
  __m256 x = _mm256_set1_ps(3.f), a0, a1, a2, a3, a4, a5, a6, a7;
  a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = _mm256_setzero_ps();
  const __m256 hx = _mm256_mul_ps(h, x);
  const long n = 25000000;
  const double t = cpu_now();
#define STEP(i)                                                                               \
  {                                                                                           \
    asm volatile("" : "+x"(x));                                                               \
    __m256 y = _mm256_rsqrt_ps(x);                                                            \
    y = _mm256_mul_ps(y, _mm256_fnmadd_ps(_mm256_mul_ps(hx, y), y, th));                      \
    a##i = _mm256_add_ps(a##i, y);                                                            \
  }
  for (long i = 0; i < n; ++i) {
    STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
    KEEP8(a);
  }
  const double s = cpu_now() - t;
  float o[8];
  _mm256_storeu_ps(o, a0);
  if (o[0] == 1234.f) puts("");
  return 64.0 * double(n) / s;
}
static double copy_bytes_per_s(int threads) {
  const long n = 64L << 20;
  double* a = static_cast<double*>(aligned_alloc(64, n * 8));
  double* c = static_cast<double*>(aligned_alloc(64, n * 8));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long i = 0; i < n; ++i) a[i] = 1, c[i] = 0;
  double best = 0;
  for (int r = 0; r < 3; ++r) {  // the best of three copies: the first may still fault pages
    double slowest = 0;  // the thread CPU time of the slowest thread's share
#pragma omp parallel num_threads(threads) reduction(max : slowest)
    {
      const double t0 = cpu_now();
#pragma omp for schedule(static) nowait
      for (long i = 0; i < n; ++i) c[i] = a[i];
      slowest = cpu_now() - t0;
    }
    if (16.0 * n / slowest > best) best = 16.0 * n / slowest;
  }
  if (c[n / 2] != 1) puts("");
  free(a);
  free(c);
  return best;
}
int main(int argc, char** argv) {
  if (!strcmp(argv[1], "clock")) printf("%.4g\n", clock_hz());
  if (!strcmp(argv[1], "fma")) printf("%.4g\n", fma_per_s());
  if (!strcmp(argv[1], "rsqrt")) printf("%.4g\n", rsqrt_lanes_per_s());
  if (!strcmp(argv[1], "copy")) printf("%.4g\n", copy_bytes_per_s(atoi(argv[2])));
}
CPP
g++ -O2 -march=x86-64-v3 -fopenmp -o "$dir/capacities" "$dir/capacities.cpp"
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
measure() {  # measure LABEL ARGS...: the median of ROUNDS runs, on one core unless copying
  local label=$1
  shift
  for _ in $(seq "$rounds"); do
    if [ "$1" = copy ]; then "$dir/capacities" "$@"; else taskset -c 0 "$dir/capacities" "$@"; fi
  done | median | sed "s/^/$label /"
}
echo "load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs"
measure "clock_hz" clock
measure "ymm_fma_per_s_one_core" fma
measure "rsqrt_newton_lanes_per_s_one_core" rsqrt
measure "copy_bytes_per_s_1_thread" copy 1
measure "copy_bytes_per_s_2_threads" copy 2
