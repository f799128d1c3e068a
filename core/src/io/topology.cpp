#include "kmol/core/io/topology.hpp"

#include <cstdlib>
#include <fstream>

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

Topology read_pdb(const std::string& path, std::ifstream& in) {
  Topology t;
  std::string line;
  long number = 0;
  std::int32_t molecule = 0;
  bool ended = false;  // a TER since the last atom
  while (std::getline(in, line)) {
    ++number;
    const std::string record = line.substr(0, 6);
    if (record == "TER   " || record.rfind("TER", 0) == 0) {
      ended = true;
      continue;
    }
    if (record == "ENDMDL") break;  // the first model only
    if (record != "ATOM  " && record != "HETATM") continue;
    if (line.size() < 26)
      throw InputError({path, "ATOM record", number},
                       "shorter than the 26 columns of a PDB atom record");
    const std::string chain = column(line, 21, 1);
    if (!t.size())
      molecule = 0;
    else if (ended || chain != t.chains.back())
      ++molecule;
    ended = false;
    t.names.push_back(column(line, 12, 4));
    t.resnames.push_back(column(line, 17, 4));
    t.chains.push_back(chain);
    t.resids.push_back(
        integer(column(line, 22, 4), {path, "residue number (columns 23-26)", number}));
    t.molecules.push_back(molecule);
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
  if (t.molecules.empty()) t.molecules = t.residues;
  return t;
}

}  // namespace kmol::io
