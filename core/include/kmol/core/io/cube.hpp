#pragma once
// Gaussian cube files (the volumetric format of Gaussian's cubegen, read by VMD, PyMOL, Jmol,
// Avogadro): lengths in bohr, values with z fastest, six to a line.
#include <string>
#include <vector>

#include "kmol/core/io/opendx.hpp"

namespace kmol::io {

struct CubeAtom {
  int atomic_number = 0;
  Vec3<double> position;  // Angstrom
};

// Writes to `path` through a temporary file renamed at the end; the grid in Angstrom (converted
// to bohr in the file), values in lattice order (x fastest). `title` is the first comment line.
// Throws InputError naming the path if it cannot write.
template <class T>
void write_cube(const std::string& path, const Grid& grid, const T* values,
                const std::vector<CubeAtom>& atoms, const std::string& title);

}  // namespace kmol::io
