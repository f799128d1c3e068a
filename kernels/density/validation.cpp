#include "kernels/density/validation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/density/half.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/significant.hpp"

namespace kmol {

double density_cut_radius(double sigma, double threshold) {
  return sigma * std::sqrt(2.0 * std::log(1.0 / threshold));
}

Grid density_grid_around(const Vec3<float>* positions, std::int64_t n, double spacing,
                         double padding, const std::string* names) {
  std::vector<Vec3<double>> exact(std::size_t(std::max<std::int64_t>(n, 0)));
  for (std::int64_t a = 0; a < n; ++a) exact[std::size_t(a)] = positions[a].cast<double>();
  return grid_around(exact.data(), n, spacing, padding, names);
}

float DensityMap::at(std::int64_t p) const {
  return values.empty() ? half_to_float(half_values[std::size_t(p)]) : values[std::size_t(p)];
}

namespace density {
namespace {

// What is wrong with atom a (field, expectation), or a null field: its radius first, then its
// position, then its height. The one check of the preparation and of its error.
struct AtomFault {
  const char* field = nullptr;
  const char* expected = nullptr;
};

AtomFault fault_of(const DensityInput& input, std::int64_t a) {
  const double r = input.radii[a];
  if (!(r > 0) || !std::isfinite(r))
    return {"radius", "atom radii must be positive and finite (Angstrom)"};
  const Vec3<float> p = input.positions[a];
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
    return {"position", "atom coordinates must be finite"};
  if (input.heights != nullptr && !std::isfinite(input.heights[a]))
    return {"height", "Gaussian heights must be finite"};
  return {};
}

}  // namespace

DensityJob prepare_density(const DensityInput& input, const DensitySettings& s) {
  const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (!(s.grid.spacing[std::size_t(a)] > 0))
      throw InputError({"", std::string("spacing ") + axes[a], -1}, "must be positive (Angstrom)");
    if (s.grid.counts[std::size_t(a)] < 1)
      throw InputError({"", std::string("counts ") + axes[a], -1},
                       "the lattice needs at least one point per axis");
  }
  if (!(s.scale > 0)) throw InputError({"", "--scale", -1}, "the radius scale must be positive");
  if (!(s.threshold > 0 && s.threshold < 1))
    throw InputError({"", "--threshold", -1}, "must lie in (0, 1)");
  if (!(s.memory_budget >= 0) || !std::isfinite(s.memory_budget))
    throw InputError({"", "--memory-budget", -1}, "must be positive (bytes), or 0 for automatic");
  DensityJob job;
  job.n = input.n;
  if (input.resident) return job;  // the atoms are checked and prepared where they live
  const double origin[3] = {s.grid.origin.x, s.grid.origin.y, s.grid.origin.z};
  const std::size_t n = std::size_t(input.n);
  for (auto& c : job.coords) c.resize(n);
  job.factors.resize(n);
  if (input.heights != nullptr) job.heights.resize(n);
  // Atoms are checked and converted each on its own, so the host threads share them and the
  // page faults of the job's fresh arrays (one thread alone took them in turn: most of a GPU
  // call's host time); the atom reported is the first bad one, whichever thread met it.
  std::int64_t first_bad = input.n;
  double widest = 0;
#pragma omp parallel for schedule(static) reduction(min          \
                                                    : first_bad) \
    reduction(max                                                \
              : widest) if (input.n > 65536)
  for (std::int64_t a = 0; a < input.n; ++a) {
    if (fault_of(input, a).field != nullptr) {
      first_bad = std::min(first_bad, a);
      continue;
    }
    const double r = input.radii[a];
    const Vec3<float> p = input.positions[a];
    const std::size_t i = std::size_t(a);
    job.coords[0][i] = float(double(p.x) - origin[0]);
    job.coords[1][i] = float(double(p.y) - origin[1]);
    job.coords[2][i] = float(double(p.z) - origin[2]);
    const double sigma = s.scale * r;
    job.factors[i] = gaussian_factor(sigma);
    if (input.heights != nullptr) job.heights[i] = input.heights[a];
    widest = std::max(widest, sigma);
  }
  if (first_bad < input.n) {
    const AtomFault fault = fault_of(input, first_bad);
    throw InputError({"", fault.field, long(first_bad)}, fault.expected);
  }
  finish_density_job(job, s, widest);
  return job;
}

void finish_density_job(DensityJob& job, const DensitySettings& s, double widest) {
  job.limit = float(std::log2(1.0 / s.threshold));
  job.cut = float(density_cut_radius(std::max(widest, 1e-3), s.threshold));
  for (int a = 0; a < 3; ++a) {
    job.spacing[a] = float(s.grid.spacing[std::size_t(a)]);
    job.counts[a] = s.grid.counts[std::size_t(a)];
  }
  job.cells.size = job.cut;
  job.cells.inverse = 1.0f / job.cut;
  // Cells of the cut radius tile the lattice (8 bytes each): a spacing far beyond the Gaussians'
  // reach would ask for more cells than memory holds, or past the cell index range.
  double cells = 1;
  for (int a = 0; a < 3; ++a)
    cells *= (double(job.counts[a] - 1) * s.grid.spacing[std::size_t(a)] + 2.0 * job.cut) /
                 double(job.cut) +
             2;
  const double available = available_memory_bytes();
  if (!(cells * 8 <= (available > 0 ? available : 1e18)))
    throw ResourceError({"", "--spacing", -1},
                        "the lattice spans " + significant(cells) +
                            " cells of the Gaussians' cut radius (" + significant(job.cut) +
                            " Angstrom), more than memory holds: use a finer spacing or fewer "
                            "points");
  narrow_to_slab(job, 0, job.counts[2]);
}

void narrow_to_slab(DensityJob& job, std::int64_t k_begin, std::int64_t k_end) {
  job.k_begin = k_begin;
  job.k_end = k_end;
  CellGrid& c = job.cells;
  const float lo[3] = {0.0f, 0.0f, float(k_begin) * job.spacing[2]};
  const float hi[3] = {float(job.counts[0] - 1) * job.spacing[0],
                       float(job.counts[1] - 1) * job.spacing[1],
                       float(k_end - 1) * job.spacing[2]};
  for (int a = 0; a < 3; ++a) {  // every cell within the cut of a point of the slab
    c.lo[a] = c.global_cell(lo[a] - job.cut);
    c.dims[a] = c.global_cell(hi[a] + job.cut) - c.lo[a] + 1;
  }
}

std::int64_t planes_per_slab(const DensityJob& job, double budget, int bytes_per_value) {
  // Per plane: the map values, and the cells the plane adds (offsets, counts: 8 bytes each).
  const double plane = double(job.counts[0] * job.counts[1]) * (bytes_per_value + 4.0);
  // Coordinates, factors (and heights), cell ids, sorted copies.
  const double atoms = double(job.n) * (job.heights.empty() ? 28.0 : 36.0);
  const double room = budget - atoms;
  if (room < plane) return 1;
  return std::max<std::int64_t>(1,
                                std::min<std::int64_t>(job.counts[2], std::int64_t(room / plane)));
}

}  // namespace density
}  // namespace kmol
