// PDB, GRO and PQR structures as one frame (structure_file.hpp).
#include "drivers/library/structure_file.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/leading_number.hpp"

namespace kmol {
namespace {

std::string extension(const std::string& path) {
  const auto dot = path.rfind('.');
  std::string e = dot == std::string::npos ? "" : path.substr(dot);
  std::transform(e.begin(), e.end(), e.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return e;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

std::string column(const std::string& line, std::size_t begin, std::size_t length) {
  return begin >= line.size() ? "" : trimmed(line.substr(begin, length));
}

double number(const std::string& text, const std::string& path, const std::string& field,
              long line) {
  const LeadingNumber<double> n = leading_number<double>(text);
  if (n.used > 0 && n.used == text.size() && std::isfinite(n.value)) return n.value;
  throw InputError({path, field, line}, fmt::format("expected a number, got '{}'", text));
}

// The cell of a/b/c (Angstrom) and alpha/beta/gamma (degrees), a along x, b in the xy plane.
BoxSpec cell_box(double a, double b, double c, double alpha, double beta, double gamma) {
  if (alpha == 90 && beta == 90 && gamma == 90) return BoxSpec::orthorhombic(a, b, c);
  const double rad = M_PI / 180, ca = std::cos(alpha * rad), cb = std::cos(beta * rad),
               cg = std::cos(gamma * rad), sg = std::sin(gamma * rad);
  const double cy = (ca - cb * cg) / sg;
  return BoxSpec::triclinic({a, 0, 0}, {b * cg, b * sg, 0},
                            {c * cb, c * cy, c * std::sqrt(1 - cb * cb - cy * cy)});
}

StructureFrame read_pdb(const std::string& path) {
  std::ifstream in(path);
  StructureFrame f;
  std::string line;
  long number_of_line = 0;
  // A cell of 1 Angstrom edges is the PDB's placeholder for "no cell" (NMR, models).
  while (std::getline(in, line)) {
    ++number_of_line;
    const std::string record = line.substr(0, 6);
    if (record == "CRYST1") {
      const double a = number(column(line, 6, 9), path, "CRYST1 a", number_of_line);
      const double b = number(column(line, 15, 9), path, "CRYST1 b", number_of_line);
      const double c = number(column(line, 24, 9), path, "CRYST1 c", number_of_line);
      if (a > 1.5 && b > 1.5 && c > 1.5)
        f.box = cell_box(a, b, c, number(column(line, 33, 7), path, "CRYST1 alpha", number_of_line),
                         number(column(line, 40, 7), path, "CRYST1 beta", number_of_line),
                         number(column(line, 47, 7), path, "CRYST1 gamma", number_of_line));
    }
    if (record == "ENDMDL") break;  // the first model only
    if (record != "ATOM  " && record != "HETATM") continue;
    f.xyz.push_back({number(column(line, 30, 8), path, "x", number_of_line),
                     number(column(line, 38, 8), path, "y", number_of_line),
                     number(column(line, 46, 8), path, "z", number_of_line)});
    f.atoms.names.push_back(column(line, 12, 4));
    f.atoms.resnames.push_back(column(line, 17, 4));
    f.atoms.elements.push_back(column(line, 76, 2));
  }
  return f;
}

StructureFrame read_gro(const std::string& path) {
  std::ifstream in(path);
  StructureFrame f;
  std::string title, count;
  std::getline(in, title);
  std::getline(in, count);
  const long n = long(number(trimmed(count), path, "atom count", 2));
  std::string line;
  for (long i = 0; i < n; ++i) {
    if (!std::getline(in, line))
      throw InputError({path, "atoms", 3 + i},
                       fmt::format("the file ends after {} of {} atoms", i, n));
    const long at = 3 + i;
    f.xyz.push_back({10 * number(column(line, 20, 8), path, "x", at),
                     10 * number(column(line, 28, 8), path, "y", at),
                     10 * number(column(line, 36, 8), path, "z", at)});
    f.atoms.resnames.push_back(column(line, 5, 5));
    f.atoms.names.push_back(column(line, 10, 5));
  }
  if (std::getline(in, line)) {
    std::vector<double> v;
    std::size_t pos = 0;
    while (pos < line.size()) {
      const auto b = line.find_first_not_of(' ', pos);
      if (b == std::string::npos) break;
      const auto e = line.find(' ', b);
      v.push_back(10 * number(line.substr(b, e - b), path, "box", 3 + n));
      pos = e == std::string::npos ? line.size() : e;
    }
    const bool zero = std::all_of(v.begin(), v.end(), [](double x) { return x == 0; });
    if (v.size() == 3 && !zero) f.box = BoxSpec::orthorhombic(v[0], v[1], v[2]);
    if (v.size() == 9 && !zero)
      f.box = BoxSpec::triclinic({v[0], v[3], v[4]}, {v[5], v[1], v[6]}, {v[7], v[8], v[2]});
  }
  return f;
}

StructureFrame read_pqr_frame(const std::string& path) {
  const io::PqrAtoms pqr = io::read_pqr(path);
  StructureFrame f;
  f.xyz = pqr.positions;
  f.atoms.names = pqr.atom_names;
  f.atoms.resnames = pqr.residue_names;
  return f;
}

}  // namespace

bool is_scattering_structure(const std::string& path) {
  const std::string e = extension(path);
  return e == ".pdb" || e == ".ent" || e == ".gro" || e == ".pqr";
}

StructureFrame read_structure_file(const std::string& path) {
  if (!std::ifstream(path)) throw InputError({path, "", -1}, "cannot open the file");
  const std::string e = extension(path);
  StructureFrame f = e == ".gro"   ? read_gro(path)
                     : e == ".pqr" ? read_pqr_frame(path)
                                   : read_pdb(path);
  if (f.xyz.empty()) throw InputError({path, "atoms", -1}, "no atom records");
  f.atoms.source = path;
  if (f.box.kind != BoxKind::none) f.box = validated(f.box, path);
  return f;
}

}  // namespace kmol
