#include <Kokkos_Core.hpp>

#include <cstdio>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kmol/core/runtime.hpp"

int main() {
  kmol::Runtime runtime;
  const kmol::Vec3<double> xyz[3] = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}};
  kmol::PairHistogramSettings s;
  s.r_max = 4;
  s.n_bins = 4;
  const auto h =
      kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), kmol::one_set(xyz, 3), s);
  std::printf("counts %llu %llu %llu %llu\n", (unsigned long long)h.at(0, 0),
              (unsigned long long)h.at(0, 1), (unsigned long long)h.at(0, 2),
              (unsigned long long)h.at(0, 3));
  return h.at(0, 1) == 1 && h.at(0, 2) == 2 ? 0 : 1;  // r = 1; r = 2 and sqrt(5)
}
