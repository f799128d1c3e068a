#include "kernels/density/selection.hpp"

#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<DensityImpl> density_impl_names[] = {
    {DensityImpl::automatic, "auto"}, {DensityImpl::kokkos, "kokkos"}, {DensityImpl::cuda, "cuda"}};

}  // namespace

std::string to_string(DensityImpl value) { return name_of(density_impl_names, value); }

DensityImpl density_impl_from_string(const std::string& name) {
  return value_named(density_impl_names, name, "--impl", "density implementation");
}

std::string density_refusal(DensityImpl impl, Platform platform, bool resident) {
  switch (impl) {
    case DensityImpl::kokkos:
      return {};
    case DensityImpl::cuda:
#ifdef KMOL_HAVE_CUDA
      if (platform != Platform::cuda) return "cuda runs on the Cuda execution space only";
      return resident ? "cuda reads host arrays, not Views already in the space's memory" : "";
#else
      (void)platform;
      (void)resident;
      return "cuda is not compiled into this build (configure with KMOL_CONFIG=cuda)";
#endif
    case DensityImpl::automatic:
      break;
  }
  return "automatic is not an implementation";
}

DensityImpl choose_density_impl(Platform platform, DensityImpl requested, bool resident) {
  if (requested != DensityImpl::automatic) {
    const std::string why = density_refusal(requested, platform, resident);
    if (!why.empty()) throw UnsupportedError("density --impl " + to_string(requested) + ": " + why);
    return requested;
  }
  // The raw kernel keeps the atoms as float4 records and reads them through the read-only cache;
  // it is the default on the Cuda space, the portable one elsewhere.
  return density_refusal(DensityImpl::cuda, platform, resident).empty() ? DensityImpl::cuda
                                                                        : DensityImpl::kokkos;
}

AlgorithmSummary density_summary() {
  AlgorithmSummary s{
      "density",
      "Gaussian density maps (QuickSurf): per-atom radii and scale, truncated Gaussians, cells "
      "built on the device, slabs beyond a memory budget, float or half output",
      {}};
  s.implementations.push_back(
      {"kokkos", "every backend; a run of 4 points along x per thread", "CPU spaces"});
#ifdef KMOL_HAVE_CUDA
  s.implementations.push_back(
      {"cuda", "Cuda space; atoms as float4 records in cell order, 2-D blocks of x runs",
       "the Cuda space"});
#endif
  return s;
}

AlgorithmSummary surface_summary() {
  AlgorithmSummary s{
      "surface",
      "marching cubes on any scalar map: shared-vertex watertight mesh, gradient normals, "
      "count/scan/emit passes; area, volume, PLY and OBJ",
      {}};
  s.implementations.push_back({"kokkos", "every backend", "every map"});
  return s;
}

AlgorithmSummary correlation_summary() {
  AlgorithmSummary s{
      "correlation",
      "map-to-map Pearson cross-correlation (MDFF quality of fit): global and local on 8^3 tiles "
      "in one pass, optional reference threshold",
      {}};
  s.implementations.push_back(
      {"kokkos", "every backend; a thread per tile, sums in double", "every pair of maps"});
  return s;
}

}  // namespace kmol
