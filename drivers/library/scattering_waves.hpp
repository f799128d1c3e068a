#pragma once
// The wave vectors a periodic box allows, k = n1 b1 + n2 b2 + n3 b3 (b_i its reciprocal vectors,
// 2 pi times the inverse cell), grouped by the q grid point they fall on: the direct route to the
// structure factor, S(q) = <|sum_j w_j exp(i k.r_j)|^2> / (N <w>^2) over the k of each q.
#include <cstdint>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol {

struct BoxWaves {
  std::vector<Vec3<double>> k;      // one of each pair +-k (both give the same |A(k)|^2)
  std::vector<std::int32_t> bin;    // the q index of each k
  std::vector<std::int64_t> count;  // k per q index
};

// The k with | |k| - q_j | < half_width for each grid point q_j. Refuses (InputError naming
// `option`) a grid point no wave vector reaches, and more than 5e7 vectors.
BoxWaves box_waves(const BoxSpec& box, const std::vector<double>& q, double half_width,
                   const std::string& option);

}  // namespace kmol
