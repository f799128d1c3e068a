#pragma once
// XYZ files: frames of an atom count line, a comment line, then "name x y z" lines (Angstrom).
#include <string>
#include <vector>

#include "kmol/core/vec3.hpp"

namespace kmol {

struct XyzFrame {
  std::vector<std::string> names;
  std::vector<Vec3<double>> positions;
  std::string comment;
};

// The first frame.
XyzFrame read_xyz(const std::string& path);

// Every frame; blank lines after the last are allowed. Throws InputError naming the file and
// line.
std::vector<XyzFrame> read_xyz_frames(const std::string& path);

}  // namespace kmol
