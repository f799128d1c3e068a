#include "kernels/density/selection.hpp"

#include "kernels/density/implementations.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
std::string to_string(DensityImpl value) {
  return implementation_name(density_implementations, value);
}

DensityImpl density_impl_from_string(const std::string& name) {
  return implementation_named(density_implementations, name, "--impl", "density implementation");
}

std::string density_cuda_refusal(const DensityShape& shape, Platform) {
  return shape.resident ? "cuda reads host arrays, not Views already in the space's memory" : "";
}

std::string density_refusal(DensityImpl impl, Platform platform, bool resident) {
  return implementation_refusal(density_implementations, impl, DensityShape{resident}, platform);
}

DensityImpl choose_density_impl(Platform platform, DensityImpl requested, bool resident) {
  return choose_implementation(density_implementations, "density", requested,
                               DensityShape{resident}, platform);
}

AlgorithmSummary density_summary() {
  return implementation_summary(
      "density",
      "Gaussian density maps (QuickSurf): per-atom radii and scale, truncated Gaussians, cells "
      "built on the device, slabs beyond a memory budget, float or half output",
      density_implementations);
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
