// Kokkos Views in the execution space's memory (device memory on GPUs) as input of the potential,
// density, marching-cubes and cross-correlation entry points: the same result, bit for bit, as the
// host-array entry point with the same implementation; bad atoms refused naming the atom; the
// implementations that read only host arrays refused on GPUs. (Pair histograms:
// test_pair_histogram.cpp.)
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/correlation/views.hpp"
#include "kernels/coulomb/selection.hpp"
#include "kernels/coulomb/views.hpp"
#include "kernels/density/selection.hpp"
#include "kernels/density/views.hpp"
#include "kernels/surface/views.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "support/backend_test.hpp"
#include "support/coulomb_oracle.hpp"
#include "support/refusal.hpp"

namespace {

using namespace kmol;

// A copy of a host array in the space's memory.
template <class ExecSpace, class V, class Allocator>
Kokkos::View<V*, typename ExecSpace::memory_space> in_space(const std::vector<V, Allocator>& host) {
  Kokkos::View<V*, typename ExecSpace::memory_space> out("kmol::test::in_space", host.size());
  Kokkos::deep_copy(out, Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                             host.data(), host.size()));
  return out;
}

template <class A, class B>
void expect_same_bits(const A& got, const B& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::size_t differ = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(got[i])) != 0 && differ++ == 0) first = i;
  EXPECT_EQ(differ, 0u) << what << ": the first differs at " << first;
}

template <class T>
struct HostAtoms {
  std::vector<Vec3<T>> xyz;
  std::vector<T> q, r;
};

template <class T>
HostAtoms<T> host_atoms(const test::ChargedAtoms& atoms) {
  HostAtoms<T> h;
  for (std::size_t a = 0; a < atoms.positions.size(); ++a) {
    h.xyz.push_back(atoms.positions[a].template cast<T>());
    h.q.push_back(T(atoms.charges[a]));
    h.r.push_back(T(atoms.radii[a]));
  }
  return h;
}

// The View entry point against the host-array one with the implementation the View call used
// (and, with `impl` forced, that one), for every method, faces and compensation.
template <class ExecSpace, class T>
void expect_potential_views_equal_arrays(const test::ChargedAtoms& atoms, CoulombImpl impl) {
  const HostAtoms<T> h = host_atoms<T>(atoms);
  const auto xyz = in_space<ExecSpace>(h.xyz);
  const auto q = in_space<ExecSpace>(h.q);
  const auto r = in_space<ExecSpace>(h.r);
  const CoulombInput<T> arrays{h.xyz.data(), h.q.data(), h.r.data(), std::int64_t(h.xyz.size())};
  for (CoulombMethod method : {CoulombMethod::direct, CoulombMethod::cutoff, CoulombMethod::mdh})
    for (bool faces : {false, true})
      for (bool compensated : {false, true}) {
        if (faces && method != CoulombMethod::mdh) continue;
        CoulombSettings s = test::small_problem(method);
        s.faces_only = faces;
        s.compensated = compensated;
        s.units = compensated ? PotentialUnits::volt : PotentialUnits::kT_per_e;
        s.impl = impl;
        const std::string what = to_string(method) + (faces ? "/faces" : "") +
                                 (compensated ? "/compensated" : "") + "/" + to_string(impl) +
                                 (sizeof(T) == 4 ? "/float" : "/double");
        const PotentialMap<T> viewed = method == CoulombMethod::mdh
                                           ? coulomb_potential(ExecSpace(), xyz, q, r, s)
                                           : coulomb_potential(ExecSpace(), xyz, q, s);
        if (impl != CoulombImpl::automatic) {
          EXPECT_EQ(viewed.impl_used, impl) << what;
        }
        s.impl = viewed.impl_used;
        const PotentialMap<T> from_arrays = coulomb_potential(ExecSpace(), arrays, s);
        expect_same_bits(viewed.values, from_arrays.values, what);
      }
}

}  // namespace

KMOL_BACKEND_TEST(Views, PotentialMapsEqualTheHostArraysPath) {
  // Atoms around and beyond the lattice, several per cutoff cell.
  const auto atoms = test::random_atoms(700, {-6, -3, -5}, 20, 7);
  for (CoulombImpl impl : {CoulombImpl::kokkos, CoulombImpl::automatic}) {
    expect_potential_views_equal_arrays<ExecSpace, float>(atoms, impl);
    expect_potential_views_equal_arrays<ExecSpace, double>(atoms, impl);
  }
  if (platform_of<ExecSpace>() == Platform::cuda) {
    const HostAtoms<float> h = host_atoms<float>(atoms);
    CoulombSettings s = test::small_problem(CoulombMethod::direct);
    s.impl = CoulombImpl::cuda;
    EXPECT_THROW(
        coulomb_potential(ExecSpace(), in_space<ExecSpace>(h.xyz), in_space<ExecSpace>(h.q), s),
        UnsupportedError);
  }
}

KMOL_BACKEND_TEST(Views, PotentialRefusesNonFiniteAtomsAndWrongLengths) {
  const auto atoms = test::random_atoms(300, {0, 0, 0}, 12, 3);
  HostAtoms<float> h = host_atoms<float>(atoms);
  h.q[211] = std::nanf("");
  h.xyz[250].z = INFINITY;
  CoulombSettings s = test::small_problem(CoulombMethod::cutoff);
  s.impl = CoulombImpl::kokkos;
  try {
    coulomb_potential(ExecSpace(), in_space<ExecSpace>(h.xyz), in_space<ExecSpace>(h.q), s);
    FAIL() << "a NaN charge was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 211 has a non-finite"), std::string::npos)
        << e.what();
  }
  h.q.pop_back();
  EXPECT_TRUE(test::refused_with(
      [&] {
        coulomb_potential(ExecSpace(), in_space<ExecSpace>(h.xyz), in_space<ExecSpace>(h.q), s);
      },
      "charges: expected 300 charges (one per atom), not 299"));
}

namespace {

struct DensityAtoms {
  std::vector<Vec3<float>> xyz;
  std::vector<float> radii;
};

DensityAtoms density_atoms(int n, float length, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> where(0, length), radius(1.0f, 2.0f);
  DensityAtoms a;
  for (int i = 0; i < n; ++i) {
    a.xyz.push_back({where(gen) + 3.0f, where(gen) - 2.0f, where(gen) + 1.0f});
    a.radii.push_back(radius(gen));
  }
  return a;
}

}  // namespace

KMOL_BACKEND_TEST(Views, DensityMapsEqualTheHostArraysPath) {
  const DensityAtoms atoms = density_atoms(600, 16, 11);
  const auto xyz = in_space<ExecSpace>(atoms.xyz);
  const auto radii = in_space<ExecSpace>(atoms.radii);
  // The same atoms as rows of three floats.
  const Kokkos::View<const float* [3], Kokkos::LayoutRight, typename ExecSpace::memory_space> rows(
      reinterpret_cast<const float*>(xyz.data()), xyz.extent(0));
  const DensityInput arrays{atoms.xyz.data(), atoms.radii.data(), std::int64_t(atoms.xyz.size())};
  DensitySettings s;
  s.grid = density_grid_around(atoms.xyz.data(), std::int64_t(atoms.xyz.size()), 0.6, 4);
  s.scale = 0.8;
  for (DensityStorage storage : {DensityStorage::single, DensityStorage::half})
    for (double budget :
         {4e9, 28.0 * 600 + 3.5 * double(s.grid.counts[0] * s.grid.counts[1]) * 8}) {
      s.storage = storage;
      s.memory_budget = budget;
      s.impl = DensityImpl::automatic;
      const DensityMap viewed = gaussian_density(ExecSpace(), xyz, radii, s);
      EXPECT_EQ(viewed.impl_used, DensityImpl::kokkos);
      s.impl = DensityImpl::kokkos;
      const DensityMap from_arrays = gaussian_density(ExecSpace(), arrays, s);
      EXPECT_EQ(viewed.slabs, from_arrays.slabs);
      const std::string what = std::string(storage == DensityStorage::half ? "half" : "single") +
                               ", " + std::to_string(from_arrays.slabs) + " slabs";
      expect_same_bits(viewed.values, from_arrays.values, what);
      expect_same_bits(viewed.half_values, from_arrays.half_values, what);
      expect_same_bits(gaussian_density(ExecSpace(), rows, radii, s).values, from_arrays.values,
                       what + ", rows");
    }
  // Gaussians as high as given (mass-weighted maps).
  std::vector<float> heights(atoms.xyz.size());
  for (std::size_t a = 0; a < heights.size(); ++a) heights[a] = 1.0f + float(a % 16);
  DensityInput weighted = arrays;
  weighted.heights = heights.data();
  s.storage = DensityStorage::single;
  s.memory_budget = 4e9;
  expect_same_bits(
      gaussian_density(ExecSpace(), xyz, radii, in_space<ExecSpace>(heights), s).values,
      gaussian_density(ExecSpace(), weighted, s).values, "weighted");
  heights[77] = std::nanf("");
  try {
    gaussian_density(ExecSpace(), xyz, radii, in_space<ExecSpace>(heights), s);
    FAIL() << "a NaN height was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("77"), std::string::npos) << e.what();
  }
  if (platform_of<ExecSpace>() == Platform::cuda) {
    s.impl = DensityImpl::cuda;
    EXPECT_THROW(gaussian_density(ExecSpace(), xyz, radii, s), UnsupportedError);
  }
}

KMOL_BACKEND_TEST(Views, DensityRefusesBadRadiiAndCoordinatesNamingTheAtom) {
  DensityAtoms atoms = density_atoms(200, 10, 2);
  DensitySettings s;
  s.grid = density_grid_around(atoms.xyz.data(), 200, 0.8, 3);
  atoms.xyz[120].y = std::nanf("");
  atoms.radii[150] = -1;
  for (const char* field : {"position", "radius"}) {
    try {
      gaussian_density(ExecSpace(), in_space<ExecSpace>(atoms.xyz),
                       in_space<ExecSpace>(atoms.radii), s);
      FAIL() << "a bad " << field << " was accepted";
    } catch (const InputError& e) {
      const std::string text = e.what();
      EXPECT_NE(text.find(field), std::string::npos) << text;
      EXPECT_NE(text.find(std::string(field) == "position" ? "120" : "150"), std::string::npos)
          << text;
    }
    atoms.xyz[120].y = 1;  // next: the radius
  }
}

KMOL_BACKEND_TEST(Views, SurfaceAndCrossCorrelationEqualTheHostArraysPath) {
  const DensityAtoms atoms = density_atoms(150, 10, 4);
  DensitySettings s;
  s.grid = density_grid_around(atoms.xyz.data(), 150, 0.5, 3);
  const DensityMap simulated =
      gaussian_density(ExecSpace(), DensityInput{atoms.xyz.data(), atoms.radii.data(), 150}, s);
  DensityAtoms moved = atoms;
  for (auto& p : moved.xyz) p.x += 0.4f;
  const DensityMap reference =
      gaussian_density(ExecSpace(), DensityInput{moved.xyz.data(), moved.radii.data(), 150}, s);
  const auto sim = in_space<ExecSpace>(simulated.values);
  const auto ref = in_space<ExecSpace>(reference.values);

  const SurfaceMesh viewed = marching_cubes(ExecSpace(), s.grid, sim, 0.5f);
  const SurfaceMesh from_arrays =
      marching_cubes(ExecSpace(), s.grid, simulated.values.data(), 0.5f);
  EXPECT_GT(viewed.triangles.size(), 100u);
  expect_same_bits(viewed.positions, from_arrays.positions, "vertices");
  expect_same_bits(viewed.normals, from_arrays.normals, "normals");
  EXPECT_EQ(viewed.triangles, from_arrays.triangles);

  for (const std::optional<double> threshold : {std::optional<double>(), std::optional(0.2)}) {
    const Correlation c = cross_correlation(ExecSpace(), s.grid, sim, ref, {threshold});
    const Correlation want = cross_correlation(ExecSpace(), s.grid, simulated.values.data(),
                                               reference.values.data(), {threshold});
    EXPECT_GT(c.global, 0.3);
    EXPECT_EQ(std::memcmp(&c.global, &want.global, sizeof c.global), 0);
    EXPECT_EQ(c.voxels, want.voxels);
    expect_same_bits(c.local, want.local, "local coefficients");
  }
  Kokkos::View<float*, typename ExecSpace::memory_space> short_map("short", 10);
  const std::string points = std::to_string(s.grid.points());
  EXPECT_TRUE(test::refused_with([&] { marching_cubes(ExecSpace(), s.grid, short_map, 0.5f); },
                                 "map: expected " + points + " values (the grid's), not 10"));
  EXPECT_TRUE(
      test::refused_with([&] { cross_correlation(ExecSpace(), s.grid, sim, short_map, {}); },
                         "reference map: expected " + points + " values (the grid's), not 10"));
}
