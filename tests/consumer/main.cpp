// An outside program: the umbrella header from the install prefix, atoms as a flat array.
#include <kmol/kmol.hpp>

#include <cstdio>

int main() {
  kmol::Runtime runtime;
  const double xyz[9] = {0, 0, 0, 1, 0, 0, 0, 2, 0};  // x0,y0,z0,x1,...
  kmol::PairHistogramSettings s;
  s.r_max = 4;
  s.n_bins = 4;
  const auto h =
      kmol::pair_histogram(Kokkos::DefaultHostExecutionSpace(), kmol::one_set(xyz, 3), s);
  std::printf("kmol %s: counts %llu %llu %llu %llu\n", KMOL_VERSION, (unsigned long long)h.at(0, 0),
              (unsigned long long)h.at(0, 1), (unsigned long long)h.at(0, 2),
              (unsigned long long)h.at(0, 3));
  return h.at(0, 1) == 1 && h.at(0, 2) == 2 ? 0 : 1;  // r = 1; r = 2 and sqrt(5)
}
