// Topology of a GROMACS run input file (.tpr) through libgromacs' read_tps_conf.
#include <exception>

#include "gromacs/fileio/confio.h"
#include "gromacs/pbcutil/pbc.h"
#include "gromacs/topology/atoms.h"
#include "gromacs/topology/block.h"
#include "gromacs/topology/topology.h"
#include "gromacs/utility/smalloc.h"
#include "gromacs_api.hpp"
#include "gromacs_readers.hpp"
#include "kmol/core/errors.hpp"

namespace kmol::io::gromacs {

Topology read_tpr(const std::string& path) {
  t_topology top;  // read_tps_conf assigns the whole of it, so init_top's allocations would leak
  PbcType pbc = PbcType::Unset;
  rvec* x = nullptr;
  matrix box;
  try {
    QuietStderr quiet;  // libgromacs announces the file's version on stderr
    read_tps_conf(path.c_str(), &top, &pbc, &x, nullptr, box, false);
  } catch (const std::exception& e) {
    throw InputError({path, "", -1},
                     std::string("libgromacs cannot read the run input: ") + e.what());
  }
  sfree(x);
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
  for (std::size_t i = 0; i < n; ++i)
    if (t.molecules[i] < 0)
      throw InputError({path, "molecules", long(i)}, "atom belongs to no molecule");
  return t;
}

}  // namespace kmol::io::gromacs
