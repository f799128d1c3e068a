#pragma once
// Built-in example systems, so every command can run without input files.
#include <cstdint>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol {

struct ExampleSystem {
  std::vector<Vec3<double>> positions;
  BoxSpec box;
};

// Face-centred cubic crystal of cells^3 unit cells (4 atoms each) filling its periodic box.
ExampleSystem fcc_crystal(int cells, double lattice_constant);

// Uniformly random points (an ideal gas) in a periodic cube of side `length`.
ExampleSystem ideal_gas(std::int64_t atoms, double length, std::uint64_t seed);

}  // namespace kmol
