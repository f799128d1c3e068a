#pragma once
// Direct sums over atoms, the oracle of the histogram route and the direct structure factor:
//
//   debye_pair_sum:  P(q_k) = sum_{i<j, r_ij < r_cut} w_ti(q_k) w_tj(q_k) sinc(q_k r_ij) L(r_ij),
//                    r_ij the minimum-image distance in `box` (plain distances without one),
//                    L the Lorch window of width r_window (none: r_window <= 0); O(N^2 Q).
//   wave_sum:        |A(k)|^2 = |sum_j w_tj(bin of k) exp(i k . r_j)|^2 for each wave vector k;
//                    O(N K).
// Weights are [type][q] (row-major, q fastest); every sum is in double and added on the host in a
// fixed order, so results do not depend on the backend's threads.
#include <cstdint>
#include <vector>

#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

struct DebyeAtoms {
  const Vec3<double>* xyz = nullptr;  // host memory
  const std::int32_t* type = nullptr;
  std::int64_t n = 0;
  const double* weights = nullptr;  // [type][q]
  std::int32_t n_types = 0;
};

template <class ExecSpace>
std::vector<double> debye_pair_sum(const ExecSpace& space, const DebyeAtoms& atoms,
                                   const std::vector<double>& q, const BoxSpec& box, double r_cut,
                                   double r_window);

// waves: k vectors (Angstrom^-1); bin_of_wave: the q index whose weights each k takes.
template <class ExecSpace>
std::vector<double> wave_sum(const ExecSpace& space, const DebyeAtoms& atoms,
                             const std::vector<Vec3<double>>& waves,
                             const std::vector<std::int32_t>& bin_of_wave, std::int32_t n_q);

}  // namespace kmol
