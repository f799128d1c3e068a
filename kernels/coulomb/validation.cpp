#include "kernels/coulomb/validation.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "kernels/coulomb/units.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

constexpr double water_dielectric = 78.54;  // APBS' default solvent

double physical_memory_bytes() {
  return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
}

std::string describe_too_large(const Grid& l, double points, double bytes, double memory) {
  char text[256];
  std::snprintf(text, sizeof text,
                "lattice %lld x %lld x %lld (%.3g points) needs about %.3g GiB for the map, more "
                "than half of "
                "this machine's %.3g GiB; use a coarser spacing or less padding",
                (long long)l.counts[0], (long long)l.counts[1], (long long)l.counts[2], points,
                bytes / double(1 << 30), memory / double(1 << 30));
  return text;
}

}  // namespace

std::int64_t potential_map_bytes(const Grid& lattice, int value_bytes) {
  return lattice.points() * value_bytes;
}

double effective_dielectric(const CoulombSettings& s) {
  if (s.dielectric > 0) return s.dielectric;
  return s.method == CoulombMethod::mdh ? water_dielectric : 1.0;
}

void validate_coulomb(std::int64_t n_atoms, const CoulombSettings& s, int value_bytes) {
  if (n_atoms <= 0)
    throw InputError({"", "atoms", -1}, "no atoms: the potential needs at least one charge");
  if (!(s.lattice.spacing[0] > 0))
    throw InputError({"", "--spacing", -1}, "must be positive (Angstrom)");
  if (!s.lattice.cubic())
    throw InputError({"", "--spacing", -1},
                     "potential maps take one spacing on every axis (the kernels step by it)");
  double points = 1;
  for (int d = 0; d < 3; ++d) {
    if (s.lattice.counts[d] < 1)
      throw InputError({"", "lattice counts", -1},
                       "every lattice dimension needs at least one point");
    points *= double(s.lattice.counts[d]);
  }
  const double bytes = points * value_bytes, memory = physical_memory_bytes();
  if (bytes > 0.5 * memory)
    throw InputError({"", "--spacing", -1}, describe_too_large(s.lattice, points, bytes, memory));
  if (s.method == CoulombMethod::cutoff && !(s.cutoff > 0))
    throw InputError({"", "--cutoff", -1}, "must be positive (Angstrom) for the cutoff method");
  if (!(s.ionic_strength >= 0))
    throw InputError({"", "--ionic-strength", -1}, "must not be negative (mol/L)");
  if (!(s.temperature > 0)) throw InputError({"", "--temperature", -1}, "must be positive (K)");
  if (!(s.dielectric >= 0)) throw InputError({"", "--dielectric", -1}, "must be positive");
  if (s.faces_only && s.method != CoulombMethod::mdh)
    throw InputError({"", "--faces-only", -1}, "applies to the mdh method only");
}

std::vector<LatticeBlock> lattice_blocks(const Grid& lattice, bool faces_only) {
  const auto [nx, ny, nz] = lattice.counts;
  if (!faces_only) return {{{0, 0, 0}, {nx, ny, nz}, 0}};
  std::vector<LatticeBlock> blocks;
  auto add = [&](LatticeBlock b) {
    if (b.points() > 0) blocks.push_back(b);
  };
  for (std::int64_t k : {std::int64_t(0), nz - 1}) {
    add({{0, 0, k}, {nx, ny, 1}, 0});
    if (nz == 1) break;
  }
  for (std::int64_t j : {std::int64_t(0), ny - 1}) {
    add({{0, j, 1}, {nx, 1, nz - 2}, 0});
    if (ny == 1) break;
  }
  for (std::int64_t i : {std::int64_t(0), nx - 1}) {
    add({{i, 1, 1}, {1, ny - 2, nz - 2}, 1});
    if (nx == 1) break;
  }
  return blocks;
}

template <class T>
CoulombJob<T> prepare_coulomb(const CoulombInput<T>& input, const CoulombSettings& s,
                              bool on_device) {
  validate_coulomb(input.n, s, int(sizeof(T)));
  if (s.method == CoulombMethod::mdh && input.radii == nullptr)
    throw InputError({"", "radii", -1}, "the mdh method needs atomic radii");
  CoulombJob<T> job;
  job.method = s.method;
  job.n = input.n;
  job.spacing = T(s.lattice.spacing[0]);
  job.counts = s.lattice.counts;
  job.cutoff = T(s.cutoff);
  job.compensated = s.compensated;
  const double eps_r = effective_dielectric(s);
  const double kappa = coulomb::debye_kappa(s.ionic_strength, s.temperature, eps_r);
  job.kappa = T(kappa);
  // The unit factor goes into the charges, so the sums come out in the requested units.
  const double scale = coulomb::potential_scale(s.units, s.temperature, eps_r);
  job.blocks = lattice_blocks(s.lattice, s.faces_only);
  if (on_device) {
    job.resident = true;
    job.positions = input.positions;
    job.input_charges = input.charges;
    job.radii = input.radii;
    job.origin[0] = s.lattice.origin.x;
    job.origin[1] = s.lattice.origin.y;
    job.origin[2] = s.lattice.origin.z;
    job.kappa_exact = kappa;
    job.scale = scale;
    return job;
  }
  for (auto& c : job.coords) c.resize(input.n);
  job.charges.resize(input.n);
  const double origin[3] = {s.lattice.origin.x, s.lattice.origin.y, s.lattice.origin.z};
  // Atoms are checked and converted each on its own, so the host threads share them and the page
  // faults of the job's fresh arrays (one thread alone takes longer than a GPU's whole cutoff map
  // of them); the atom reported is the first bad one, whichever thread met it.
  std::int64_t first_bad = input.n;
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (input.n > 65536)
  for (std::int64_t a = 0; a < input.n; ++a) {
    const Vec3<T> p = input.positions[a];
    const double xyz[3] = {double(p.x), double(p.y), double(p.z)};
    const double q = double(input.charges[a]);
    if (!std::isfinite(xyz[0]) || !std::isfinite(xyz[1]) || !std::isfinite(xyz[2]) ||
        !std::isfinite(q)) {
      first_bad = std::min(first_bad, a);
      continue;
    }
    for (int d = 0; d < 3; ++d) job.coords[d][a] = T(xyz[d] - origin[d]);
    const double folded =
        s.method == CoulombMethod::mdh ? coulomb::mdh_charge(q, double(input.radii[a]), kappa) : q;
    job.charges[a] = T(folded * scale);
  }
  if (first_bad < input.n)
    throw InputError({"", "atoms", long(first_bad)},
                     "atom " + std::to_string(first_bad) + " has a non-finite position or charge");
  return job;
}

template CoulombJob<float> prepare_coulomb(const CoulombInput<float>&, const CoulombSettings&,
                                           bool);
template CoulombJob<double> prepare_coulomb(const CoulombInput<double>&, const CoulombSettings&,
                                            bool);

}  // namespace kmol
