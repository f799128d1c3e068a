#pragma once
// Electrostatic potential maps: kmol::coulomb_potential (direct, cutoff, multiple Debye-Hueckel)
// over atoms in host memory or in Kokkos Views, and the physical constants behind its units.
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/units.hpp"
#include "kernels/coulomb/views.hpp"
#include "kmol/core/points.hpp"

namespace kmol {

// The input from contiguous ranges (std::vector, std::array, kmol::Span): coordinates as Vec3s or
// as 3n values x0,y0,z0,x1,..., and one charge (and, for mdh, one radius) per atom.
template <class Xyz, class Charges, class T = points_scalar_t<Xyz>>
CoulombInput<T> coulomb_input(const Xyz& positions, const Charges& charges) {
  const Points<T> p = points(positions, "positions");
  return {p.data, per_atom(charges, p.n, "charges"), nullptr, p.n};
}
template <class Xyz, class Charges, class Radii, class T = points_scalar_t<Xyz>>
CoulombInput<T> coulomb_input(const Xyz& positions, const Charges& charges, const Radii& radii) {
  CoulombInput<T> input = coulomb_input(positions, charges);
  input.radii = per_atom(radii, input.n, "radii");
  return input;
}

}  // namespace kmol
