// Topology of a GROMACS run input file (.tpr) through libgromacs' read_tps_conf, in a child
// process: libgromacs' deserializer trusts the file's sizes and crashes, allocates without bound
// or ends the process on a damaged file. The child sends the topology back through a pipe.
#include <cstring>
#include <stdexcept>

#include "gromacs/fileio/confio.h"
#include "gromacs/pbcutil/pbc.h"
#include "gromacs/topology/atoms.h"
#include "gromacs/topology/block.h"
#include "gromacs/topology/topology.h"
#include "gromacs/utility/smalloc.h"
#include "gromacs_api.hpp"
#include "gromacs_readers.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/contained_call.hpp"

namespace kmol::io::gromacs {
namespace {

// The topology as bytes, for the pipe: each list as its length and then its elements.
class Packer {
 public:
  template <class T>
  void add(const std::vector<T>& values) {
    put(std::uint64_t(values.size()));
    bytes_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  void add(const std::vector<std::string>& values) {
    put(std::uint64_t(values.size()));
    for (const auto& v : values) {
      put(std::uint64_t(v.size()));
      bytes_ += v;
    }
  }
  std::string bytes() && { return std::move(bytes_); }

 private:
  void put(std::uint64_t n) { bytes_.append(reinterpret_cast<const char*>(&n), sizeof n); }
  std::string bytes_;
};

class Unpacker {
 public:
  explicit Unpacker(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  void take(std::vector<T>& values) {
    values.resize(count(sizeof(T)));
    copy(values.data(), values.size() * sizeof(T));
  }
  void take(std::vector<std::string>& values) {
    values.resize(count(sizeof(std::uint64_t)));
    for (auto& v : values) {
      v.resize(count(1));
      copy(v.data(), v.size());
    }
  }

 private:
  std::size_t count(std::size_t element) {
    std::uint64_t n = 0;
    copy(&n, sizeof n);
    if (n > (bytes_.size() - at_) / element) throw std::length_error("topology reply");
    return std::size_t(n);
  }
  void copy(void* to, std::size_t size) {
    if (size > bytes_.size() - at_) throw std::length_error("topology reply");
    if (size > 0) std::memcpy(to, bytes_.data() + at_, size);
    at_ += size;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

// The topology's fields in one order, so that packing and unpacking cannot disagree.
template <class Fields, class F>
void for_each_field(Fields& t, F&& f) {
  f(t.names);
  f(t.resnames);
  f(t.chains);
  f(t.resids);
  f(t.residues);
  f(t.molecules);
  f(t.charges);
  f(t.masses);
}

std::string packed(const Topology& t) {
  Packer p;
  for_each_field(t, [&](const auto& field) { p.add(field); });
  return std::move(p).bytes();
}

Topology unpacked(const std::string& bytes) {
  Unpacker u(bytes);
  Topology t;
  for_each_field(t, [&](auto& field) { u.take(field); });
  return t;
}

// Checks what the conversion below indexes: libgromacs does not check a damaged file's indices.
void check_indices(const t_topology& top) {
  const t_atoms& atoms = top.atoms;
  for (int i = 0; i < atoms.nr; ++i)
    if (atoms.atom[i].resind < 0 || atoms.atom[i].resind >= atoms.nres ||
        atoms.atomname[i] == nullptr || *atoms.atomname[i] == nullptr ||
        atoms.resinfo[atoms.atom[i].resind].name == nullptr ||
        *atoms.resinfo[atoms.atom[i].resind].name == nullptr)
      throw std::runtime_error("atom " + std::to_string(i) + ": its name or residue is damaged");
  for (int m = 0; m < top.mols.nr; ++m)
    if (top.mols.index[m] < 0 || top.mols.index[m] > top.mols.index[m + 1] ||
        top.mols.index[m + 1] > atoms.nr)
      throw std::runtime_error("molecule " + std::to_string(m) + ": its atom range is damaged");
}

Topology read_here(const std::string& path) {
  t_topology top;  // read_tps_conf assigns the whole of it, so init_top's allocations would leak
  PbcType pbc = PbcType::Unset;
  rvec* x = nullptr;
  matrix box;
  read_tps_conf(path.c_str(), &top, &pbc, &x, nullptr, box, false);
  sfree(x);
  check_indices(top);
  const t_atoms& atoms = top.atoms;
  Topology t;
  const auto n = std::size_t(atoms.nr);
  t.names.resize(n);
  t.resnames.resize(n);
  t.chains.resize(n);
  t.resids.resize(n);
  t.residues.resize(n);
  t.molecules.assign(n, -1);
  t.charges.resize(n);
  t.masses.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const t_atom& a = atoms.atom[i];
    const t_resinfo& residue = atoms.resinfo[a.resind];
    t.names[i] = *atoms.atomname[i];
    t.resnames[i] = *residue.name;
    t.chains[i] =
        residue.chainid == '\0' || residue.chainid == ' ' ? "" : std::string(1, residue.chainid);
    t.resids[i] = residue.nr;
    t.residues[i] = a.resind;
    t.charges[i] = a.q;
    t.masses[i] = a.m;
  }
  for (int m = 0; m < top.mols.nr; ++m)
    for (int i = top.mols.index[m]; i < top.mols.index[m + 1]; ++i) t.molecules[std::size_t(i)] = m;
  done_top(&top);
  return t;
}

void on_fatal_error(const char*, const std::string& message, const char*, int) {
  fail_contained_call("GROMACS: " + message);
  throw std::runtime_error(message);
}

}  // namespace

void install_error_handler() {
  static const bool installed = [] {
    gmx_set_error_handler(on_fatal_error);
    return true;
  }();
  (void)installed;
}

Topology read_tpr(const std::string& path) {
  install_error_handler();
  Topology t =
      unpacked(contained_call(path, "the run input", [&] { return packed(read_here(path)); }));
  // libgromacs reads a run input cut short as one without atoms.
  if (t.size() == 0)
    throw InputError({path, "", -1}, "the run input holds no atoms (it is cut short or damaged)");
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t.molecules[i] < 0)
      throw InputError({path, "molecules", long(i)}, "atom belongs to no molecule");
  return t;
}

}  // namespace kmol::io::gromacs
