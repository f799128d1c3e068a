#include "kernels/orbital/selection.hpp"

#include <unistd.h>

#include <cmath>

#include "kernels/orbital/implementations.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

std::string to_string(OrbitalImpl value) {
  return implementation_name(orbital_implementations, value);
}

OrbitalImpl orbital_impl_from_string(const std::string& name) {
  return implementation_named(orbital_implementations, name, "--impl", "orbital implementation");
}

std::string orbital_refusal(OrbitalImpl impl, Platform platform) {
  return implementation_refusal(orbital_implementations, impl, AnyShape{}, platform);
}

OrbitalImpl choose_orbital_impl(Platform platform, OrbitalImpl requested) {
  return choose_implementation(orbital_implementations, "orbital", requested, AnyShape{}, platform);
}

void validate_orbital_lattice(const Grid& lattice, std::int64_t maps, int value_bytes) {
  if (!(lattice.spacing[0] > 0) || !std::isfinite(lattice.spacing[0]))
    throw InputError({"", "--spacing", -1}, "must be positive (Angstrom)");
  if (!lattice.cubic())
    throw InputError({"", "--spacing", -1},
                     "orbital maps take one spacing on every axis (the kernels step by it)");
  for (int d = 0; d < 3; ++d)
    if (lattice.counts[d] < 1)
      throw InputError({"", "--counts", -1}, "every lattice dimension needs at least one point");
  const double bytes = double(lattice.counts[0]) * double(lattice.counts[1]) *
                       double(lattice.counts[2]) * double(maps) * value_bytes;
  const double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (bytes > 0.8 * memory)
    throw InputError(
        {"", "--spacing", -1},
        "the maps would need " + std::to_string(std::llround(bytes / 1e9)) +
            " GB, more than this machine's memory: use a coarser spacing or less padding");
}

AlgorithmSummary orbital_summary() {
  return implementation_summary(
      "orbital",
      "molecular orbitals of Molden files (contracted Gaussians, s to g, Cartesian or spherical) "
      "on lattices; many at once as basis values times coefficients (Kokkos Kernels gemm)",
      orbital_implementations);
}

}  // namespace kmol
