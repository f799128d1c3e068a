#include "kmol/core/io/topology.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <utility>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#ifdef KMOL_HAVE_GROMACS
#include "gromacs_readers.hpp"
#endif
#include "kmol/core/io/pqr.hpp"

namespace kmol::io {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

std::string column(const std::string& line, std::size_t start, std::size_t width) {
  return start < line.size() ? trimmed(line.substr(start, width)) : "";
}

std::int32_t integer(const std::string& text, const ErrorContext& where) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0')
    throw InputError(where, "expected an integer, found '" + text + "'");
  return std::int32_t(v);
}

// Residue indices from changes of (chain, resid, resname) between consecutive atoms.
void number_residues(Topology& t) {
  t.residues.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool same = i > 0 && t.chains[i] == t.chains[i - 1] && t.resids[i] == t.resids[i - 1] &&
                      t.resnames[i] == t.resnames[i - 1];
    t.residues[i] = i == 0 ? 0 : t.residues[i - 1] + (same ? 0 : 1);
  }
}

// Atoms joined into groups: a union-find over atom indices.
class Groups {
 public:
  explicit Groups(std::size_t n) : parent_(n) {
    for (std::size_t i = 0; i < n; ++i) parent_[i] = i;
  }
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t i, std::size_t j) { parent_[root(i)] = root(j); }
  // 0-based labels in order of first appearance.
  std::vector<std::int32_t> labels() {
    std::map<std::size_t, std::int32_t> label;
    std::vector<std::int32_t> out(parent_.size());
    for (std::size_t i = 0; i < parent_.size(); ++i)
      out[i] = label.emplace(root(i), std::int32_t(label.size())).first->second;
    return out;
  }

 private:
  std::vector<std::size_t> parent_;
};

// A PDB written without TER records between its molecules (gmx trjconv, many converters) says
// nothing of where one ends: molecules are then its residues, joined where CONECT records bond
// atoms of two residues, and the topology's note says so.
void molecules_from_residues(Topology& t, const std::string& path,
                             const std::vector<std::pair<long, long>>& bonds,
                             const std::map<long, std::size_t>& atom_of_serial) {
  Groups groups(t.size());
  for (std::size_t i = 1; i < t.size(); ++i)
    if (t.residues[i] == t.residues[i - 1]) groups.join(i, i - 1);
  std::size_t used = 0;
  for (const auto& [a, b] : bonds) {
    const auto i = atom_of_serial.find(a), j = atom_of_serial.find(b);
    if (i == atom_of_serial.end() || j == atom_of_serial.end()) continue;
    groups.join(i->second, j->second);
    ++used;
  }
  t.molecules = groups.labels();
  const std::int32_t n = *std::max_element(t.molecules.begin(), t.molecules.end()) + 1;
  t.note = path + " has no TER records between its atoms: molecules are taken from its residues" +
           (used > 0 ? " joined by its CONECT bonds" : "") + " (" + std::to_string(n) +
           (n == 1 ? " molecule)" : " molecules)");
}

Topology read_pdb(const std::string& path, std::ifstream& in) {
  Topology t;
  std::string line;
  long number = 0;
  std::int32_t molecule = 0;
  bool ended = false;        // a TER since the last atom
  bool ter_between = false;  // a TER with atoms after it
  bool models_done = false;  // past the first model: only CONECT records are read
  std::vector<std::pair<long, long>> bonds;
  std::map<long, std::size_t> atom_of_serial;
  std::vector<long> repeated;  // serial numbers used twice: their bonds are ambiguous
  while (std::getline(in, line)) {
    ++number;
    const std::string record = line.substr(0, 6);
    if (record.rfind("CONECT", 0) == 0) {
      const long from = std::strtol(column(line, 6, 5).c_str(), nullptr, 10);
      for (std::size_t c = 11; c <= 26 && c < line.size(); c += 5) {
        const std::string to = column(line, c, 5);
        if (!to.empty()) bonds.emplace_back(from, std::strtol(to.c_str(), nullptr, 10));
      }
      continue;
    }
    if (models_done) continue;
    if (record == "TER   " || record.rfind("TER", 0) == 0) {
      ended = true;
      continue;
    }
    if (record == "ENDMDL") {  // the first model only
      models_done = true;
      continue;
    }
    if (record != "ATOM  " && record != "HETATM") continue;
    if (line.size() < 26)
      throw InputError({path, "ATOM record", number},
                       "shorter than the 26 columns of a PDB atom record");
    const std::string chain = column(line, 21, 1);
    if (!t.size())
      molecule = 0;
    else if (ended || chain != t.chains.back())
      ++molecule;
    ter_between = ter_between || (ended && t.size() > 0);
    ended = false;
    const long serial = std::strtol(column(line, 6, 5).c_str(), nullptr, 10);
    if (!atom_of_serial.emplace(serial, t.size()).second) repeated.push_back(serial);
    t.names.push_back(column(line, 12, 4));
    t.resnames.push_back(column(line, 17, 4));
    t.chains.push_back(chain);
    t.resids.push_back(
        integer(column(line, 22, 4), {path, "residue number (columns 23-26)", number}));
    t.molecules.push_back(molecule);
    t.segids.push_back(column(line, 72, 4));
    t.elements.push_back(column(line, 76, 2));
  }
  for (long serial : repeated) atom_of_serial.erase(serial);
  if (!ter_between && !t.names.empty()) {
    number_residues(t);
    molecules_from_residues(t, path, bonds, atom_of_serial);
  }
  return t;
}

Topology read_gro(const std::string& path, std::ifstream& in) {
  Topology t;
  std::string line;
  std::getline(in, line);  // title
  if (!std::getline(in, line)) throw InputError({path, "atom count", 2}, "missing");
  const std::int32_t n = integer(trimmed(line), {path, "atom count", 2});
  for (std::int32_t i = 0; i < n; ++i) {
    if (!std::getline(in, line))
      throw InputError({path, "atoms", long(i) + 3}, "file ends after " + std::to_string(i) +
                                                         " of " + std::to_string(n) + " atoms");
    if (line.size() < 20)
      throw InputError({path, "atom line", long(i) + 3},
                       "shorter than the 20 columns of residue and atom names");
    t.resids.push_back(
        integer(column(line, 0, 5), {path, "residue number (columns 1-5)", long(i) + 3}));
    t.resnames.push_back(column(line, 5, 5));
    t.names.push_back(column(line, 10, 5));
    t.chains.emplace_back();
  }
  return t;
}

// A column that is blank in every record (a PDB without elements or segment ids) gives nothing.
void clear_if_blank(std::vector<std::string>& column) {
  if (std::all_of(column.begin(), column.end(), [](const auto& e) { return e.empty(); }))
    column.clear();
}

Topology read_tpr_topology(const std::string& path) {
#ifdef KMOL_HAVE_GROMACS
  return gromacs::read_tpr(path);
#else
  throw UnsupportedError(path +
                         ": a GROMACS run input (TPR) needs libgromacs, which this build "
                         "lacks (install libgromacs-dev and rebuild; `kmol info` lists formats)");
#endif
}

}  // namespace

Topology read_topology(const std::string& path) {
  const FileKind kind = sniff_file(path);
  if (kind == FileKind::tpr) return read_tpr_topology(path);
  if (kind != FileKind::text)
    throw InputError({path, "", -1}, "is " + describe_file(path) +
                                         ", not a topology (expected TPR, PDB, GRO or PQR)");
  std::ifstream in(path);
  if (!in) throw InputError({path, "", -1}, "cannot open the topology file");
  const auto dot = path.rfind('.');
  const std::string extension = dot == std::string::npos ? "" : path.substr(dot + 1);
  Topology t;
  if (extension == "pdb" || extension == "ent") {
    t = read_pdb(path, in);
  } else if (extension == "gro") {
    t = read_gro(path, in);
  } else if (extension == "pqr") {
    const PqrAtoms pqr = read_pqr(path);
    t.names = pqr.atom_names;
    t.resnames = pqr.residue_names;
    t.resids = pqr.residue_ids;
    t.chains = pqr.chains;
    t.charges = pqr.charges;
  } else {
    throw InputError({path, "", -1}, "unknown topology format '." + extension + "': the file is " +
                                         describe_file(path) +
                                         " (expected .tpr, .pdb, .ent, .gro or .pqr)");
  }
  if (t.size() == 0) throw InputError({path, "", -1}, "no atoms found");
  number_residues(t);
  clear_if_blank(t.elements);
  clear_if_blank(t.segids);
  if (t.molecules.empty()) t.molecules = t.residues;
  return t;
}

}  // namespace kmol::io
