// kmol.orbital: a molecular orbital of a Molden file on a lattice.
#include <pybind11/stl.h>

#include <fstream>

#include "drivers/python/common.hpp"
#include "kernels/orbital/conventions.hpp"
#include "kernels/orbital/examples.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kmol/core/map_check.hpp"

namespace kmol::python {
namespace {

template <class T>
MapOut orbital_as(const OrbitalBasis& basis, const MolecularOrbital& mo, const OrbitalSettings& s,
                  const std::string& device, const std::string& path) {
  require_memory(double(s.lattice.points()), 2.0 * sizeof(T), "spacing");
  OrbitalMap<T> map = without_gil([&] { return orbital_map<T>(basis, mo, s, map_run(device)); });
  check_map(map.lattice, map.values.data(), orbital_expectation("", path, python_map_names()));
  return map_of(adopt_map(std::move(map.values), map.lattice.counts), map.lattice,
                to_string(map.impl_used), map.launch, "bohr^-3/2");
}

// The Molden file as `kmol orbital` loads it: converted from the axial convention when asked,
// and its orbitals' norms checked, each problem a UserWarning naming the Python keyword.
MoldenData load_molden(const std::string& path, const std::string& cartesian_norm) {
  MoldenData molden = read_molden(path);
  if (cartesian_normalisation_from_string(cartesian_norm) == CartesianNormalisation::axial)
    convert_axial_cartesian(molden);
  const OrbitalNorms norms = without_gil([&] { return check_orbital_norms(molden); });
  for (const auto& warning : norm_warnings(norms, false, "cartesian_norm='axial'"))
    if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) < 0) throw py::error_already_set();
  return molden;
}

MapOut orbital(const std::string& path, py::object mo, const std::string& spin, double spacing,
               double padding, py::object origin, py::object counts, const std::string& impl,
               const std::string& device, const std::string& precision,
               const std::string& cartesian_norm) {
  const MoldenData molden = load_molden(path_arg(path, "molden"), cartesian_norm);
  if (py::isinstance<py::bool_>(mo) ||
      !(py::isinstance<py::int_>(mo) || py::isinstance<py::str>(mo)))
    throw py::type_error("mo: expected 'homo', 'lumo' or the orbital's number (from 1), not " +
                         std::string(py::str(py::type::of(mo).attr("__name__"))));
  const std::string which = std::string(py::str(mo));
  const MolecularOrbital& chosen =
      molden.orbitals[std::size_t(select_orbital(molden, which, spin))];
  OrbitalSettings s;
  s.impl = orbital_impl_from_string(impl);
  s.lattice =
      map_lattice(lattice_request(spacing, padding, origin, counts),
                  {molden.positions.data(), molden.atoms(), nullptr, path}, python_map_names());
  const OrbitalBasis basis(molden);
  if (precision != "single" && precision != "double")
    bad_input("precision", "'single' or 'double', not '" + precision + "'");
  return precision == "double" ? orbital_as<double>(basis, chosen, s, device, path)
                               : orbital_as<float>(basis, chosen, s, device, path);
}

py::list orbitals_of(const std::string& path) {
  const MoldenData molden = read_molden(path_arg(path, "molden"));
  py::list out;
  for (const auto& mo : molden.orbitals) {
    py::dict d;
    d["symmetry"] = mo.symmetry;
    d["spin"] = mo.spin;
    d["energy"] = mo.energy;
    d["occupation"] = mo.occupation;
    out.append(d);
  }
  return out;
}

void write_example(const std::string& path, const std::string& molecule) {
  if (molecule != "water" && molecule != "c60") bad_input("molecule", "'water' or 'c60'");
  // The orbitals `kmol orbital --example` lists.
  ExampleOptions options;
  options.valence = molecule == "c60";
  options.orbitals = options.valence ? 184 : 7;
  options.occupied = options.valence ? 180 : 5;
  const MoldenData molden = example_molecule(
      molecule == "water" ? ExampleMolecule::water_sto3g : ExampleMolecule::c60_631gs, options);
  std::ofstream out(path_arg(path, "path"));
  write_molden(out, molden);
  if (!out) throw InputError({path, "", -1}, "cannot write the Molden file");
}

}  // namespace

void bind_orbital(py::module_& m) {
  m.def(
      "orbital",
      [](const std::string& path, py::object mo, const std::string& spin, double spacing,
         double padding, py::object origin, py::object counts, const std::string& impl,
         const std::string& device, const std::string& precision,
         const std::string& cartesian_norm) {
        return orbital(path, mo, spin, spacing, padding, origin, counts, impl, device, precision,
                       cartesian_norm);
      },
      py::arg("molden"), py::arg("mo") = "homo", py::kw_only(), py::arg("spin") = "Alpha",
      py::arg("spacing") = 0.1, py::arg("padding") = 5.0, py::arg("origin") = py::none(),
      py::arg("counts") = py::none(), py::arg("impl") = "auto", py::arg("device") = "auto",
      py::arg("precision") = "single", py::arg("cartesian_norm") = "each",
      R"(A molecular orbital of a Molden file on a lattice (as `kmol orbital`).

molden: path of the file (GTO basis, Cartesian or spherical, up to g). mo: 'homo', 'lumo' (of spin
'Alpha' or 'Beta') or the orbital's number in the file (from 1). The lattice: spacing (Angstrom)
around the atoms with padding (Angstrom), or origin (3,) and counts (3,). impl: 'auto', 'kokkos',
'host' or 'cuda'; precision: 'single' or 'double'. cartesian_norm: 'each' (every Cartesian d, f
and g function normalised on its own, kmol's convention) or 'axial' (all as x^l, as older psi4
releases and Molden itself write them: converted to each on load), as `kmol orbital
--cartesian-norm`. Orbitals that are not normalised give a UserWarning (and, where the axial
convention explains them, one that names cartesian_norm='axial'). Returns a kmol.Map of psi in
bohr^-3/2.)");
  m.def("molden_orbitals", &orbitals_of, py::arg("molden"),
        "The orbitals a Molden file lists, in order: symmetry, spin, energy (hartree), "
        "occupation.");
  m.def("write_example_molden", &write_example, py::arg("path"), py::arg("molecule") = "water",
        "Writes kmol's test molecule ('water', STO-3G, or 'c60', 6-31G* valence) with orthonormal "
        "orbitals as a Molden file (as `kmol orbital --example ... --write-molden`).");
}

}  // namespace kmol::python
