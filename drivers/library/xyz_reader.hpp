#pragma once
// Reads the first frame of an XYZ file: atom count, comment line, then "name x y z" lines (Å).
#include <string>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol {

struct XyzFrame {
  std::vector<std::string> names;
  std::vector<Vec3<double>> positions;
};

XyzFrame read_xyz(const std::string& path);

}  // namespace kmol
