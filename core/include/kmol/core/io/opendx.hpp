#pragma once
// OpenDX scalar maps in APBS' dialect (the header APBS writes, values as %12.6e three to a line,
// z fastest), which VMD, PyMOL, Chimera and GridDataFormats read.
#include <string>
#include <vector>

#include "kmol/core/grid.hpp"

namespace kmol::io {

// Writes to `path` through a temporary file renamed at the end. `title` goes in the comment
// header (APBS writes "POTENTIAL (kT/e)"). Throws InputError naming the path if it cannot write.
template <class T>
void write_opendx(const std::string& path, const Grid& grid, const T* values,
                  const std::string& title);

// A map read from a file: values i fastest, as kmol's lattices are.
struct ScalarMap {
  Grid grid;
  std::vector<float> values;
};

// Reads OpenDX scalar maps on orthogonal grids (APBS, VMD, GridDataFormats and kmol's own).
// Throws InputError naming the file, the field (counts, origin, delta, items, data) and the line.
ScalarMap read_opendx(const std::string& path);

}  // namespace kmol::io
