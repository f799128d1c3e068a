#pragma once
// Kirkwood-Buff integrals from a g(r), with the finite-size corrections of
//   Ganguly and van der Vegt, J. Chem. Theory Comput. 9, 1347 (2013) (GV): the g(r) of a closed
//     box of volume V corrected for the partners a reference's surroundings lack,
//       g_GV(r) = g(r) m (1 - V_r / V) / (m - n(r)),
//     with m the partners of a reference atom in the box, n(r) those within r, V_r = 4/3 pi r^3;
//   Krueger, Schnell et al., J. Phys. Chem. Lett. 4, 235 (2013) (KS): the integral over a sphere
//     of diameter L, G_V(L) = int_0^L 4 pi r^2 (g(r) - 1) w(r / L) dr, w(x) = 1 - 3x/2 + x^3/2,
//     which is what particle-number fluctuations in such spheres measure, and which tends to G
//     as G_V(L) = G + F / L, so that L G_V(L) is linear in L.
// g is taken constant within a bin; the weight is integrated exactly over each shell.
#include <vector>

#include "kernels/pair_histogram/gr.hpp"

namespace kmol {

struct KirkwoodBuff {
  std::vector<double> r;              // upper bin edges R (the sphere diameter L for G_V), A
  std::vector<double> running;        // G(R) = int_0^R 4 pi r^2 (g_GV - 1) dr, A^3
  std::vector<double> finite_volume;  // G_V(L) of g_GV (KS and GV), A^3
  std::vector<double> closed;         // G_V(L) of the closed box's g: sub-volume fluctuations, A^3
  double infinite = 0;                // G from the fit L G_V(L) = G L + F
  double fit_from = 0, fit_to = 0;    // the L range of that fit (the last half of the range)
};

// From one histogram summed over frames (r_min 0, a box, 3-D distances); `option` names what
// asked for it in refusals (InputError).
KirkwoodBuff kirkwood_buff(const RdfCountsSummary& summary, const std::string& option);

// Avogadro's number times 1 A^3 in cm^3: G in cm^3/mol, as KB integrals are usually quoted.
constexpr double cm3_per_mol_per_a3 = 0.6022140857;

}  // namespace kmol
