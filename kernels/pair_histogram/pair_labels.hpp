#pragma once
// Which partial histogram a pair goes to, if any: species pairs (each can be switched off) and
// exclusions of pairs within one molecule. Raw pointers into the memory of whichever backend
// runs the kernel; Kokkos-free so raw CUDA shares it.
#include <cstdint>

#include "kmol/core/portability.hpp"

namespace kmol {

// Index of the unordered species pair (s, t) among the n(n+1)/2 pairs, s <= t taken in order.
KMOL_INLINE std::int32_t species_pair_index(std::int32_t s, std::int32_t t, std::int32_t n) {
  if (t < s) {
    const std::int32_t u = s;
    s = t;
    t = u;
  }
  return s * (2 * n - s - 1) / 2 + t;
}

struct PairLabels {
  const std::int32_t* species = nullptr;  // per atom of the one set; null: a single histogram
  std::int32_t n_species = 1;
  const std::uint8_t* enabled = nullptr;     // per species pair; null: every pair
  const std::int32_t* molecule_a = nullptr;  // null: no exclusions
  const std::int32_t* molecule_b = nullptr;

  KMOL_INLINE bool trivial() const { return species == nullptr && molecule_a == nullptr; }

  // Histogram of pair (i of A, j of B), or -1 when the pair is excluded or masked off.
  KMOL_INLINE std::int32_t histogram_of(std::int64_t i, std::int64_t j) const {
    if (molecule_a != nullptr && molecule_a[i] == molecule_b[j]) return -1;
    if (species == nullptr) return 0;
    const std::int32_t h = species_pair_index(species[i], species[j], n_species);
    return (enabled == nullptr || enabled[h]) ? h : -1;
  }
};

}  // namespace kmol
