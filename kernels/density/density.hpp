#pragma once
// Gaussian density maps (QuickSurf's model): rho(r) = sum_i h_i exp(-|r - r_i|^2 / (2 (s a_i)^2))
// with a radius a_i per atom and a scale s, each Gaussian cut where it falls below a threshold of
// its peak; heights h_i are 1 unless given (masses, for mass-weighted maps).
//
//   kmol::DensitySettings s;  s.grid = kmol::density_grid_around(xyz, n, 1.0, s.scale * max_radius
//   * 4); kmol::DensityMap map = kmol::gaussian_density(Kokkos::DefaultExecutionSpace(), {xyz,
//   radii, n}, s);
//
// Atoms are hashed into cells on the device (count, exclusive scan, fill), each thread sums a run
// of lattice points along x from the atoms of the cells around it; lattices larger than the memory
// budget are computed in slabs of z planes, with the same result to the bit.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/default_init_allocator.hpp"
#include "kernels/density/impl.hpp"  // generated from implementations.hpp
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

// What the map is stored as: the sums run in float either way; half is IEEE binary16, rounded to
// nearest even (finite maps of values below 65504).
enum class DensityStorage { single, half };

std::string to_string(DensityImpl impl);
DensityImpl density_impl_from_string(const std::string& name);

// Host arrays kept by the caller. resident: positions and radii live in the memory of the
// execution space that runs the call instead (a Kokkos application's Views: views.hpp); they are
// checked and prepared there, and only the kokkos implementation reads them.
struct DensityInput {
  const Vec3<float>* positions = nullptr;  // Angstrom
  const float* radii = nullptr;            // Angstrom, positive
  std::int64_t n = 0;
  const float* heights = nullptr;  // peak of each Gaussian, finite; null: all 1
  bool resident = false;
};

struct DensitySettings {
  Grid grid;                // values i fastest
  double scale = 1.0;       // s: sigma_i = s * a_i
  double threshold = 0.01;  // a Gaussian is dropped where below this (exp(-4.6): 3.03 sigma)
  // Bytes of device memory for the map and its work arrays; beyond: slabs. 0: automatic (on GPUs
  // three quarters of the memory free when the call starts, since every slab uploads and sorts
  // all atoms again; 4 GB of host memory on CPUs).
  double memory_budget = 0;
  DensityStorage storage = DensityStorage::single;
  DensityImpl impl = DensityImpl::automatic;
};

struct DensityMap {
  Grid grid;
  MapValues<float> values;               // storage single
  MapValues<std::uint16_t> half_values;  // storage half: binary16 bits
  DensityImpl impl_used = DensityImpl::automatic;
  std::int64_t slabs = 1;
  std::string launch;

  float at(std::int64_t p) const;  // either storage, as float
};

// The smallest lattice of spacing h covering the atoms' bounding box grown by `padding`
// (grid_around: one atom stretching it is refused, named by `names[a]` where given).
Grid density_grid_around(const Vec3<float>* positions, std::int64_t n, double spacing,
                         double padding, const std::string* names = nullptr);

// The cut radius of a Gaussian of standard deviation sigma at `threshold`.
double density_cut_radius(double sigma, double threshold);

// ExecSpace: Kokkos::Serial, Kokkos::OpenMP or Kokkos::Cuda. Throws InputError for bad settings
// (non-positive spacing, scale or radius, a threshold outside (0, 1)) naming the field, and
// UnsupportedError when the forced impl cannot run on the space.
template <class ExecSpace>
DensityMap gaussian_density(const ExecSpace& space, const DensityInput& input,
                            const DensitySettings& settings);

}  // namespace kmol
