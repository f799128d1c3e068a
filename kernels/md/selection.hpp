#pragma once
// Which Lennard-Jones force implementation runs a system, and what each supports: the one place
// where they are registered and chosen (see docs/architecture.md and docs/md.md).
#include <string>
#include <vector>

#include "kernels/md/md.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

struct MdShape {
  std::int64_t atoms = 0;
  Vec3<double> box;
  double cutoff = 0, skin = 0;
};

// Empty when `impl` can run the system on the platform, else why not.
std::string md_force_refusal(MdForceImpl impl, const MdShape& shape, Platform platform);

// `requested` if it can run (UnsupportedError if not), else the fastest that can.
MdForceImpl choose_md_force_impl(const MdShape& shape, Platform platform, MdForceImpl requested);

// Every compiled force row by a name set_md_force takes, the neighbour row once per list kind
// (neighbour_half, neighbour_full): what the shared tests and benchmarks run.
std::vector<std::string> md_force_names();

AlgorithmSummary md_summary();

}  // namespace kmol
