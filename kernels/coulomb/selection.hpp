#pragma once
// Which potential-map implementation runs a problem, and what each supports: the one place where
// implementations are registered and chosen (see docs/architecture.md).
#include <cstdint>
#include <string>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

struct CoulombShape {
  CoulombMethod method = CoulombMethod::direct;
  std::int64_t atoms = 0, points = 0;
  bool faces_only = false;
  double spacing = 0, cutoff = 0;
  bool resident = false;  // the atoms are in the execution space's memory
};

std::string coulomb_refusal(CoulombImpl impl, const CoulombShape& shape, Platform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
CoulombImpl choose_coulomb_impl(const CoulombShape& shape, Platform platform,
                                CoulombImpl requested);

AlgorithmSummary coulomb_summary();

}  // namespace kmol
