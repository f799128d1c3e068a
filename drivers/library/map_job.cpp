#include "drivers/library/map_job.hpp"

#include <cmath>

#include "kmol/core/errors.hpp"

namespace kmol {

MapNames python_map_names() {
  MapNames names;
  names.spacing = "spacing";
  names.padding = "padding";
  names.origin = "origin";
  names.counts = "counts";
  names.more_range = "precision='double'";
  names.float_storage = "storage='float'";
  return names;
}

namespace {

Grid given_lattice(const LatticeRequest& request, const MapNames& names) {
  const auto& o = request.origin;
  const auto& n = request.counts;
  if (o.size() != 3) throw InputError({"", names.origin, -1}, "expected x y z (Angstrom)");
  if (n.size() != 3) throw InputError({"", names.counts, -1}, "expected nx ny nz");
  Grid lattice;
  lattice.origin = {o[0], o[1], o[2]};
  lattice.spacing = {request.spacing, request.spacing, request.spacing};
  lattice.counts = {n[0], n[1], n[2]};
  if (checked_points(lattice.counts, max_indexable_points) < 0)
    throw InputError({"", names.counts, -1}, "must be positive and multiply to below 2^62");
  return lattice;
}

// grid_around, its refusals of the atoms naming their file.
Grid lattice_around(const LatticeRequest& request, const LatticeAtoms& atoms) {
  try {
    return grid_around(atoms.positions, atoms.n, request.spacing, request.padding, atoms.names);
  } catch (const InputError& e) {
    if (!e.where().file.empty() || atoms.file.empty()) throw;
    throw InputError({atoms.file, "", -1}, e.what());
  }
}

}  // namespace

Grid map_lattice(const LatticeRequest& request, const LatticeAtoms& atoms, const MapNames& names) {
  if (request.origin.empty() != request.counts.empty())
    throw InputError({"", request.origin.empty() ? names.origin : names.counts, -1},
                     names.origin + " and " + names.counts + " go together");
  if (!(request.spacing > 0) || !std::isfinite(request.spacing))
    throw InputError({"", names.spacing, -1}, "must be positive (Angstrom)");
  if (!request.origin.empty()) return given_lattice(request, names);
  if (!(request.padding >= 0) || !std::isfinite(request.padding))
    throw InputError({"", names.padding, -1}, "must not be negative (Angstrom)");
  return lattice_around(request, atoms);
}

double potential_work(const CoulombSettings& settings, std::int64_t atoms) {
  if (settings.faces_only || settings.method == CoulombMethod::cutoff) return 0;
  return double(atoms) * double(settings.lattice.points());
}

MapExpectation potential_expectation(const std::string& file, const MapNames& names) {
  return {"potential map", file,
          "a charge or coordinate too large for the arithmetic (" + names.more_range +
              " keeps more range)",
          false, ""};
}

MapExpectation orbital_expectation(const std::string& file, const std::string& molden,
                                   const MapNames& names) {
  const std::string of = molden.empty() ? "" : " of " + molden;
  const std::string coefficients =
      molden.empty() ? "the file" : molden;  // where a coefficient that is not zero would be
  return {"orbital map", file,
          "a basis exponent or coefficient" + of + " too large for the arithmetic (" +
              names.more_range + " keeps more range)",
          true,
          "the lattice misses the orbital (check " + names.origin + " and " + names.counts +
              "), or " + coefficients + " gives it no coefficient that is not zero"};
}

MapExpectation density_expectation(const std::string& file, bool half, const MapNames& names) {
  return {"density map", file,
          half ? "values beyond half precision's 65504 (" + names.float_storage + ")"
               : "an atom radius or coordinate out of range",
          true,
          "no atom's Gaussian reaches the lattice" +
              (names.origin.empty() ? std::string()
                                    : " (check " + names.origin + " and " + names.counts + ")")};
}

}  // namespace kmol
