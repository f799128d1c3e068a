#include "drivers/library/structure_frames.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "drivers/library/elements.hpp"
#include "drivers/library/xyz_reader.hpp"
#include "kmol/core/cell.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/pqr.hpp"

namespace kmol {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// A number in columns [start, start + width) of `line`, or InputError naming the field and line.
double column_number(const std::string& line, std::size_t start, std::size_t width,
                     const ErrorContext& where) {
  const std::string field = line.substr(start, width);
  char* end = nullptr;
  const double value = std::strtod(field.c_str(), &end);
  if (end == field.c_str() || !std::isfinite(value))
    throw InputError(where, "expected a number in columns " + std::to_string(start + 1) + "-" +
                                std::to_string(start + width) + ", got '" + field + "'");
  return value;
}

// x, y, z in three columns of 8 from `start`, times `scale`; `where` gives the file and line.
Vec3<double> position_columns(const std::string& line, std::size_t start, double scale,
                              ErrorContext where) {
  const char* axes[3] = {"x", "y", "z"};
  double xyz[3];
  for (std::size_t a = 0; a < 3; ++a) {
    where.field = axes[a];
    xyz[a] = scale * column_number(line, start + 8 * a, 8, where);
  }
  return {xyz[0], xyz[1], xyz[2]};
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void add_element(StructureFrames& s, const std::string& element, double fallback_radius) {
  s.elements.push_back(element);
  s.masses.push_back(float(element_mass(element)));
  s.radii.push_back(float(element_radius(element, fallback_radius)));
}

// The atoms of one model; a frame ends at ENDMDL, the file's last at its end.
struct PdbReader {
  const std::string& path;
  double fallback_radius;
  StructureFrames s;
  std::vector<Vec3<double>> model;
  BoxSpec box;

  void atom(const std::string& line, long number) {
    if (line.size() < 54)
      throw InputError({path, "coordinates", number},
                       "ATOM record shorter than its x, y, z columns (31-54)");
    model.push_back(position_columns(line, 30, 1, {path, "", number}));
    if (!s.positions.empty()) return;  // names and elements from the first model
    std::string element = trimmed(line.size() >= 78 ? line.substr(76, 2) : "");
    if (element.empty()) element = element_of_name(line.substr(12, 4));
    s.names.push_back(trimmed(line.substr(12, 4)));
    add_element(s, element, fallback_radius);
  }

  void cryst1(const std::string& line, long number) {
    double cell[6];
    const std::size_t at[6] = {6, 15, 24, 33, 40, 47}, width[6] = {9, 9, 9, 7, 7, 7};
    for (int c = 0; c < 6; ++c)
      cell[c] = column_number(line, at[c], width[c], {path, "CRYST1", number});
    // A 1 A cube, or zero lengths, are what PDB writers put for structures without a cell.
    const bool placeholder = (cell[0] == 1 && cell[1] == 1 && cell[2] == 1) ||
                             (cell[0] == 0 && cell[1] == 0 && cell[2] == 0);
    if (placeholder) {
      box = BoxSpec::none();
      return;
    }
    try {
      box = box_from_cell(cell[0], cell[1], cell[2], cell[3], cell[4], cell[5]);
    } catch (const InputError&) {
      throw InputError({path, "CRYST1", number},
                       "the cell angles make no cell with volume: '" + line.substr(0, 54) + "'");
    }
  }

  void end_model(long number) {
    if (model.empty()) return;
    if (!s.positions.empty() && model.size() != s.names.size())
      throw InputError({path, "MODEL", number}, "model " + std::to_string(s.positions.size() + 1) +
                                                    " has " + std::to_string(model.size()) +
                                                    " atoms, the first " +
                                                    std::to_string(s.names.size()));
    s.positions.push_back(std::move(model));
    model.clear();
    s.boxes.push_back(box);
  }
};

StructureFrames read_pdb(const std::string& path, double fallback_radius) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the structure");
  PdbReader r{path, fallback_radius, {}, {}, BoxSpec::none()};
  long number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.rfind("ATOM", 0) == 0 || line.rfind("HETATM", 0) == 0)
      r.atom(line, number);
    else if (line.rfind("CRYST1", 0) == 0 && line.size() >= 54)
      r.cryst1(line, number);
    else if (line.rfind("ENDMDL", 0) == 0)
      r.end_model(number);
  }
  r.end_model(number);
  if (r.s.positions.empty()) throw InputError({path, "ATOM", -1}, "no ATOM or HETATM records");
  r.s.format = "PDB";
  r.s.masses_from = "the elements of " + path;
  return std::move(r.s);
}

// The number after `key` in a GRO title ("t= 10.000 step= 5000"), or `otherwise`.
double title_number(const std::string& title, const std::string& key, double otherwise) {
  const auto at = title.find(key);
  if (at == std::string::npos) return otherwise;
  char* end = nullptr;
  const double value = std::strtod(title.c_str() + at + key.size(), &end);
  return end == title.c_str() + at + key.size() ? otherwise : value;
}

// GRO's box line: v1(x) v2(y) v3(z), and for a triclinic box v1(y) v1(z) v2(x) v2(z) v3(x) v3(y),
// in nm; all zero: no box.
BoxSpec gro_box(const std::string& line, const std::string& path, long number) {
  std::vector<double> v;
  const char* text = line.c_str();
  for (char* end = nullptr;; text = end) {
    const double x = std::strtod(text, &end);
    if (end == text) break;
    v.push_back(10 * x);
  }
  if (trimmed(text).size() > 0 || (v.size() != 3 && v.size() != 9))
    throw InputError({path, "box", number},
                     "expected 3 or 9 box numbers (nm), got '" + trimmed(line) + "'");
  if (v[0] == 0 && v[1] == 0 && v[2] == 0) return BoxSpec::none();
  if (v.size() == 3 || (v[3] == 0 && v[4] == 0 && v[5] == 0 && v[6] == 0 && v[7] == 0 && v[8] == 0))
    return BoxSpec::orthorhombic(v[0], v[1], v[2]);
  return BoxSpec::triclinic({v[0], v[3], v[4]}, {v[5], v[1], v[6]}, {v[7], v[8], v[2]});
}

StructureFrames read_gro(const std::string& path, double fallback_radius) {
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the structure");
  StructureFrames s;
  long number = 0;
  for (std::string title; std::getline(in, title);) {
    ++number;
    if (trimmed(title).empty() && !s.positions.empty()) continue;  // trailing blank lines
    std::string line;
    ++number;
    if (!std::getline(in, line)) throw InputError({path, "atom count", number}, "missing");
    char* end = nullptr;
    const long n = std::strtol(line.c_str(), &end, 10);
    if (end == line.c_str() || n < 1 || !trimmed(end).empty())
      throw InputError({path, "atom count", number},
                       "expected the number of atoms, got '" + line + "'");
    if (!s.positions.empty() && std::size_t(n) != s.atoms())
      throw InputError({path, "atom count", number},
                       "frame " + std::to_string(s.positions.size()) + " has " + std::to_string(n) +
                           " atoms, the first " + std::to_string(s.atoms()));
    std::vector<Vec3<double>> frame;
    for (long i = 0; i < n; ++i) {
      ++number;
      if (!std::getline(in, line))
        throw InputError({path, "atoms", number}, "file ends after " + std::to_string(i) + " of " +
                                                      std::to_string(n) + " atoms");
      if (line.size() < 44)
        throw InputError({path, "atom line", number},
                         "shorter than the 44 columns of names and x, y, z");
      frame.push_back(position_columns(line, 20, 10, {path, "", number}));  // nm
      if (!s.positions.empty()) continue;
      const std::string name = trimmed(line.substr(10, 5));
      s.names.push_back(name);
      add_element(s, element_of_trimmed_name(name, trimmed(line.substr(5, 5))), fallback_radius);
    }
    ++number;
    if (!std::getline(in, line)) throw InputError({path, "box", number}, "missing after the atoms");
    s.boxes.push_back(gro_box(line, path, number));
    s.times.push_back(title_number(title, "t=", 0));
    s.steps.push_back(std::int64_t(title_number(title, "step=", double(s.positions.size()))));
    s.positions.push_back(std::move(frame));
  }
  if (s.positions.empty()) throw InputError({path, "", -1}, "no frame: the file is empty");
  s.format = "GRO";
  s.masses_from = "the elements of " + path + "'s atom names";
  return s;
}

StructureFrames read_pqr_frame(const std::string& path, double fallback_radius) {
  io::PqrAtoms atoms = io::read_pqr(path);
  StructureFrames s;
  for (std::size_t a = 0; a < atoms.size(); ++a) {
    add_element(s, element_of_trimmed_name(atoms.atom_names[a], atoms.residue_names[a]),
                fallback_radius);
    // Some PQR files give hydrogens radius 0: those keep their element's.
    if (atoms.radii[a] > 0) s.radii.back() = float(atoms.radii[a]);
  }
  s.names = std::move(atoms.atom_names);
  s.positions.push_back(std::move(atoms.positions));
  s.boxes.push_back(BoxSpec::none());
  s.format = "PQR";
  s.masses_from = "the elements of " + path + "'s atom names";
  return s;
}

StructureFrames read_xyz_file(const std::string& path, double fallback_radius) {
  std::vector<XyzFrame> frames = read_xyz_frames(path);
  StructureFrames s;
  s.names = frames.front().names;
  // XYZ names are element symbols ("C", "Cl"), or symbols with a number ("C1").
  for (const auto& name : s.names)
    add_element(s, std::isnan(element_mass(name)) ? element_of_trimmed_name(name, "") : upper(name),
                fallback_radius);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    if (frames[f].positions.size() != s.atoms())
      throw InputError({path, "atom count", -1}, "frame " + std::to_string(f) + " has " +
                                                     std::to_string(frames[f].positions.size()) +
                                                     " atoms, the first " +
                                                     std::to_string(s.atoms()));
    s.positions.push_back(std::move(frames[f].positions));
    s.boxes.push_back(BoxSpec::none());
  }
  s.format = "XYZ";
  s.masses_from = "the element symbols of " + path;
  return s;
}

}  // namespace

bool is_structure_file(const std::string& path) {
  for (const char* extension : {".pdb", ".ent", ".gro", ".pqr", ".xyz"})
    if (ends_with(path, extension)) return true;
  return false;
}

StructureFrames read_structure_frames(const std::string& path, double fallback_radius) {
  StructureFrames s;
  if (ends_with(path, ".pdb") || ends_with(path, ".ent"))
    s = read_pdb(path, fallback_radius);
  else if (ends_with(path, ".gro"))
    s = read_gro(path, fallback_radius);
  else if (ends_with(path, ".pqr"))
    s = read_pqr_frame(path, fallback_radius);
  else if (ends_with(path, ".xyz"))
    s = read_xyz_file(path, fallback_radius);
  else
    throw InputError({path, "", -1},
                     "expected a .pdb, .ent, .gro, .pqr or .xyz structure (by its extension)");
  // Files without times and steps number their frames.
  for (std::int64_t f = std::int64_t(s.times.size()); f < s.frames(); ++f) {
    s.times.push_back(0);
    s.steps.push_back(f);
  }
  return s;
}

}  // namespace kmol
