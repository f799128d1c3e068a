#pragma once
// A solute in solution (J. Koefinger and G. Hummer, Phys. Rev. E 87, 052712 (2013)): the excess
// intensity of the solute over the solvent it displaces,
//   Delta I(q) = < I_A(q) > - < I_B(q) >,
// I_A the Debye intensity of every atom of the solution within an observation sphere of radius R
// centred on the solute, I_B that of a pure-solvent run's atoms within the same sphere (centred
// on its box). The sphere's edge cuts both alike, so its form factor cancels when the solvent at
// the sphere's surface is bulk in both runs (R at least the solute's extent plus a solvation
// shell) and both runs have the solvent's density and composition (docs/scattering.md).
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/scattering_job.hpp"
#include "kmol/core/box.hpp"

namespace kmol {

// The solute's centre: its atoms as minimum images of the first, averaged.
Vec3<double> solute_centre(const std::vector<Vec3<double>>& xyz,
                           const std::vector<std::int64_t>& solute, const BoxSpec& box);

// The atoms within `radius` of `centre` (minimum image), placed about the origin, with labels.
void atoms_in_sphere(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                     const BoxSpec& box, Vec3<double> centre, double radius,
                     std::vector<Vec3<double>>& inside, std::vector<std::int32_t>& inside_labels);

// Refuses an observation sphere that does not fit in `box` (InputError naming `option` and
// `file`).
void check_sphere_fits(double radius, const BoxSpec& box, const std::string& option,
                       const std::string& file);

// The solvent's atoms as labels of the solution's types; refuses a solvent of another
// composition: a type the solution's solvent (its atoms outside the solute) lacks, or lacks it.
std::vector<std::int32_t> solvent_labels(const ScatteringTypes& solution,
                                         const std::vector<char>& in_solute,
                                         const ScatteringTypes& solvent,
                                         const std::string& solvent_file);

// Delta I = A - B, sigma and the error's estimate added in quadrature and linearly; the Guinier
// fit of the difference.
ScatteringResult excess_intensity(const ScatteringResult& solution,
                                  const ScatteringResult& solvent);

}  // namespace kmol
