#include "kernels/orbital/selection.hpp"

#include <unistd.h>

#include <cmath>

#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<OrbitalImpl> orbital_impl_names[] = {{OrbitalImpl::automatic, "auto"},
                                                     {OrbitalImpl::kokkos, "kokkos"},
                                                     {OrbitalImpl::host, "host"},
                                                     {OrbitalImpl::cuda, "cuda"}};

}  // namespace

std::string to_string(OrbitalImpl value) { return name_of(orbital_impl_names, value); }

OrbitalImpl orbital_impl_from_string(const std::string& name) {
  return value_named(orbital_impl_names, name, "--impl", "orbital implementation");
}

std::string orbital_refusal(OrbitalImpl impl, Platform platform) {
  switch (impl) {
    case OrbitalImpl::kokkos:
      return {};
    case OrbitalImpl::host:
      return platform == Platform::host ? "" : "host runs on CPU execution spaces only";
    case OrbitalImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      return platform == Platform::cuda ? "" : "cuda runs on the Cuda execution space only";
#else
      return "cuda is not compiled into this build (configure with KMOL_CONFIG=cuda)";
#endif
    case OrbitalImpl::automatic:
      break;
  }
  return "automatic is not an implementation";
}

OrbitalImpl choose_orbital_impl(Platform platform, OrbitalImpl requested) {
  if (requested != OrbitalImpl::automatic) {
    const std::string why = orbital_refusal(requested, platform);
    if (!why.empty()) throw UnsupportedError("orbital --impl " + to_string(requested) + ": " + why);
    return requested;
  }
  // The specialised kernel of each platform (docs/orbital.md has the measured rates).
  for (OrbitalImpl impl : {OrbitalImpl::cuda, OrbitalImpl::host})
    if (orbital_refusal(impl, platform).empty()) return impl;
  return OrbitalImpl::kokkos;
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
  AlgorithmSummary s{
      "orbital",
      "molecular orbitals of Molden files (contracted Gaussians, s to g, Cartesian or spherical) "
      "on lattices; many at once as basis values times coefficients (Kokkos Kernels gemm)",
      {}};
  s.implementations.push_back({"kokkos", "every backend; float, double; one point per thread",
                               "backends without a specialised kernel"});
  s.implementations.push_back(
      {"host", "CPU spaces; rows of points vectorised (polynomial exp2); float, double",
       "CPU spaces"});
#ifdef KMOL_HAVE_CUDA
  s.implementations.push_back(
      {"cuda",
       "Cuda space; basis and coefficients in __constant__ memory up to 4 KiB, "
       "else read through the L1 cache; float, double",
       "the Cuda space"});
#endif
  return s;
}

}  // namespace kmol
