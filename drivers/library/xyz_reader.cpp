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

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// The frame whose count line is `line` (line number `line_no`); advances line_no past it.
XyzFrame read_frame(std::istream& in, const std::string& path, const std::string& count_line,
                    long& line_no) {
  long count = -1;
  if (!(std::istringstream(count_line) >> count) || count < 0)
    throw InputError({path, "atom count", line_no}, "line " + std::to_string(line_no) +
                                                        " must hold the number of atoms, not '" +
                                                        count_line + "'");
  XyzFrame frame;
  std::getline(in, frame.comment);
  ++line_no;
  std::string line;
  for (long i = 0; i < count; ++i) {
    ++line_no;
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

std::ifstream open_xyz(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the file");
  return in;
}

}  // namespace

XyzFrame read_xyz(const std::string& path) {
  std::ifstream in = open_xyz(path);
  std::string line;
  long line_no = 1;
  if (!std::getline(in, line))
    throw InputError({path, "atom count", 1}, "line 1 must hold the number of atoms");
  return read_frame(in, path, line, line_no);
}

std::vector<XyzFrame> read_xyz_frames(const std::string& path) {
  std::ifstream in = open_xyz(path);
  std::vector<XyzFrame> frames;
  std::string line;
  for (long line_no = 1; std::getline(in, line); ++line_no) {
    if (blank(line) && !frames.empty()) continue;  // trailing blank lines
    frames.push_back(read_frame(in, path, line, line_no));
  }
  if (frames.empty())
    throw InputError({path, "atom count", 1}, "line 1 must hold the number of atoms");
  return frames;
}

}  // namespace kmol
