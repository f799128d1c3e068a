#pragma once
// The atoms of a resident density input (in the execution space's memory) checked and prepared
// where they live: the same checks, errors and per-atom arrays (heights too) as prepare_density on
// the host, so the kokkos engine sums the same bits from either.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "kernels/density/density.hpp"
#include "kernels/density/job.hpp"
#include "kernels/density/kokkos/density_kokkos.hpp"
#include "kernels/density/validation.hpp"
#include "kmol/core/errors.hpp"

namespace kmol::density {

template <class ExecSpace>
DeviceAtoms<typename ExecSpace::memory_space> resident_atoms(const ExecSpace& space,
                                                             const DensityInput& input,
                                                             const DensitySettings& s,
                                                             DensityJob& job) {
  using Memory = typename ExecSpace::memory_space;
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t n = input.n;
  const Kokkos::View<const Vec3<float>*, Memory, Kokkos::MemoryUnmanaged> positions(input.positions,
                                                                                    n);
  const Kokkos::View<const float*, Memory, Kokkos::MemoryUnmanaged> radii(input.radii, n);
  const double scale = s.scale;

  // The first atom with a bad radius or coordinate (the one the host's loop would stop at).
  std::int64_t first_bad = n;
  Kokkos::parallel_reduce(
      "kmol::density::resident_check", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t a, std::int64_t & bad) {
        const double r = radii(a);
        const Vec3<float> p = positions(a);
        const bool finite = p.x - p.x == 0.0f && p.y - p.y == 0.0f && p.z - p.z == 0.0f;
        if ((!(r > 0 && r - r == 0.0) || !finite) && a < bad) bad = a;
      },
      Kokkos::Min<std::int64_t>(first_bad));
  if (first_bad < n) {
    float r = 0;
    Kokkos::deep_copy(Kokkos::View<float, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&r),
                      Kokkos::subview(radii, first_bad));
    if (!(r > 0) || !std::isfinite(r))
      throw InputError({"", "radius", long(first_bad)},
                       "atom radii must be positive and finite (Angstrom)");
    throw InputError({"", "position", long(first_bad)}, "atom coordinates must be finite");
  }
  double widest = 0;
  Kokkos::parallel_reduce(
      "kmol::density::resident_widest", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t a, double& wide) {
        const double sigma = scale * double(radii(a));
        if (sigma > wide) wide = sigma;
      },
      Kokkos::Max<double>(widest));
  finish_density_job(job, s, widest);

  // Heights, when given: the first non-finite one after every other check, as on the host.
  const bool weighted = input.heights != nullptr;
  const Kokkos::View<const float*, Memory, Kokkos::MemoryUnmanaged> heights(input.heights,
                                                                            weighted ? n : 0);
  std::int64_t first_bad_height = n;
  Kokkos::parallel_reduce(
      "kmol::density::resident_heights", Range(space, 0, weighted ? n : 0),
      KOKKOS_LAMBDA(std::int64_t a, std::int64_t & bad) {
        if (!(heights(a) - heights(a) == 0.0f) && a < bad) bad = a;
      },
      Kokkos::Min<std::int64_t>(first_bad_height));
  if (weighted && first_bad_height < n)
    throw InputError({"", "height", long(first_bad_height)}, "Gaussian heights must be finite");

  auto alloc = [](const char* label, std::int64_t size) {
    return Kokkos::View<float*, Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), size);
  };
  const DeviceAtoms<Memory> atoms{alloc("kmol::density::x", n), alloc("kmol::density::y", n),
                                  alloc("kmol::density::z", n), alloc("kmol::density::factor", n),
                                  alloc("kmol::density::height", weighted ? n : 0)};
  if (weighted) Kokkos::deep_copy(space, atoms.height, heights);
  const auto x = atoms.x, y = atoms.y, z = atoms.z, factor = atoms.factor;
  const double o0 = s.grid.origin.x, o1 = s.grid.origin.y, o2 = s.grid.origin.z;
  Kokkos::parallel_for(
      "kmol::density::resident_atoms", Range(space, 0, n), KOKKOS_LAMBDA(std::int64_t a) {
        const Vec3<float> p = positions(a);
        x(a) = float(double(p.x) - o0);
        y(a) = float(double(p.y) - o1);
        z(a) = float(double(p.z) - o2);
        factor(a) = gaussian_factor(scale * double(radii(a)));
      });
  return atoms;
}

}  // namespace kmol::density
