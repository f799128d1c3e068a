#pragma once
// OpenDX scalar maps in APBS' dialect (the header APBS writes, values as %12.6e three to a line,
// z fastest), which VMD, PyMOL, Chimera and GridDataFormats read.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol::io {

// A regular orthogonal grid: point (i, j, k) at origin + (i dx, j dy, k dz); values are stored
// with i fastest (index (k * ny + j) * nx + i), as kmol's lattices are.
struct RegularGrid {
  Vec3<double> origin;
  std::array<double, 3> spacing{};
  std::array<std::int64_t, 3> counts{};
};

// Writes to `path` through a temporary file renamed at the end. `title` goes in the comment
// header (APBS writes "POTENTIAL (kT/e)"). Throws InputError naming the path if it cannot write.
template <class T>
void write_opendx(const std::string& path, const RegularGrid& grid, const T* values,
                  const std::string& title);

// A map read from a file: values i fastest, as kmol's lattices are.
struct ScalarMap {
  RegularGrid grid;
  std::vector<float> values;
};

// Reads OpenDX scalar maps on orthogonal grids (APBS, VMD, GridDataFormats and kmol's own).
// Throws InputError naming the file, the field (counts, origin, delta, items, data) and the line.
ScalarMap read_opendx(const std::string& path);

}  // namespace kmol::io
