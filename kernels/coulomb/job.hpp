#pragma once
// A validated potential-map problem as every implementation receives it: host arrays, atoms
// relative to the lattice origin (so single precision keeps its digits near the lattice), unit
// and mdh factors folded into the charges, and the lattice points to compute as index boxes.
#include <array>
#include <cstdint>
#include <vector>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/default_init_allocator.hpp"

namespace kmol {

// Grid points begin + [0, size) along each axis; rows run along `row_axis` (x for the whole
// lattice; a face normal to x runs its rows along y so that rows stay long).
struct LatticeBlock {
  std::array<std::int64_t, 3> begin{}, size{};
  int row_axis = 0;

  std::int64_t points() const { return size[0] * size[1] * size[2]; }
};

template <class T>
struct CoulombJob {
  CoulombMethod method = CoulombMethod::direct;
  // Written whole by prepare_coulomb (so not zeroed first).
  DefaultInitVector<T> coords[3];  // x, y, z of each atom minus the lattice origin (Angstrom)
  DefaultInitVector<T>
      charges;  // e times the unit factor (units.hpp); mdh: times exp(kappa a) / (1 + kappa a)
  std::int64_t n = 0;
  T spacing = 0;
  std::array<std::int64_t, 3> counts{};
  T cutoff = 0;  // cutoff method
  T kappa = 0;   // mdh, 1/Angstrom
  bool compensated = false;
  std::vector<LatticeBlock> blocks;  // disjoint; together the points to compute
  T* values = nullptr;  // host, whole lattice; implementations store their points. Zeroed,
                        // but for the CUDA cutoff path, which stores every point itself

  // A resident job leaves coords and charges empty: the kokkos implementation makes them in the
  // execution space's memory from the caller's arrays there, with the same arithmetic.
  bool resident = false;
  const Vec3<T>* positions = nullptr;
  const T* input_charges = nullptr;
  const T* radii = nullptr;
  double origin[3] = {0, 0, 0};
  double kappa_exact = 0;  // kappa before rounding to T, as the host folds mdh charges with it
  double scale = 1;        // the unit factor (units.hpp)

  std::int64_t index(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return (k * counts[1] + j) * counts[0] + i;
  }
  std::int64_t points() const {
    std::int64_t p = 0;
    for (const auto& b : blocks) p += b.points();
    return p;
  }
};

}  // namespace kmol
