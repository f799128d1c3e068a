#include "drivers/library/xyz_reader.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0';
}

}  // namespace

XyzFrame read_xyz(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the file");
  std::string line;
  long count = -1;
  if (!std::getline(in, line) || !(std::istringstream(line) >> count) || count < 0)
    throw InputError({path, "atom count", 1}, "line 1 must hold the number of atoms");
  std::getline(in, line);  // comment
  XyzFrame frame;
  for (long i = 0; i < count; ++i) {
    const long line_no = i + 3;
    if (!std::getline(in, line))
      throw InputError({path, "atoms", line_no}, "file ends after " + std::to_string(i) + " of " +
                                                     std::to_string(count) + " atoms");
    std::istringstream fields(line);
    std::string name, x, y, z;
    Vec3<double> p;
    if (!(fields >> name >> x >> y >> z) || !parse_number(x, p.x) || !parse_number(y, p.y) ||
        !parse_number(z, p.z))
      throw InputError({path, "atom line", line_no}, "expected 'name x y z', got '" + line + "'");
    // strtod reads nan and inf: refused here, where the file and line are known.
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw InputError(
          {path, "atom line", line_no},
          "atom " + std::to_string(i) + " has a non-finite coordinate: '" + line + "'");
    frame.names.push_back(name);
    frame.positions.push_back(p);
  }
  return frame;
}

}  // namespace kmol
