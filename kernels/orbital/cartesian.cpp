#include "kernels/orbital/cartesian.hpp"

#include <cmath>
#include <stdexcept>

namespace kmol::orbital {
namespace {

// Integral of t^n exp(-beta t^2) over the real line.
double moment(int n, double beta) {
  if (n % 2 == 1) return 0;
  double double_factorial = 1;
  for (int k = n - 1; k > 1; k -= 2) double_factorial *= k;
  return double_factorial / std::pow(2 * beta, n / 2) * std::sqrt(M_PI / beta);
}

}  // namespace

const std::vector<Powers>& cartesian_powers(int l) {
  static const std::vector<Powers> orders[5] = {
      {{0, 0, 0}},
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
      {{2, 0, 0}, {0, 2, 0}, {0, 0, 2}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}},
      {{3, 0, 0},
       {0, 3, 0},
       {0, 0, 3},
       {1, 2, 0},
       {2, 1, 0},
       {2, 0, 1},
       {1, 0, 2},
       {0, 1, 2},
       {0, 2, 1},
       {1, 1, 1}},
      {{4, 0, 0},
       {0, 4, 0},
       {0, 0, 4},
       {3, 1, 0},
       {3, 0, 1},
       {1, 3, 0},
       {0, 3, 1},
       {1, 0, 3},
       {0, 1, 3},
       {2, 2, 0},
       {2, 0, 2},
       {0, 2, 2},
       {2, 1, 1},
       {1, 2, 1},
       {1, 1, 2}}};
  if (l < 0 || l > 4) throw std::out_of_range("Cartesian shells go up to g (l = 4)");
  return orders[l];
}

Polynomial cartesian_function(int l, int index) {
  return {{1.0, cartesian_powers(l).at(std::size_t(index))}};
}

Polynomial spherical_function(int l, int index) {
  // Real solid harmonics without the Condon-Shortley phase, as quantum chemistry programs use them.
  static const std::vector<Polynomial> d = {
      {{2, {0, 0, 2}}, {-1, {2, 0, 0}}, {-1, {0, 2, 0}}},  // d0  = 2z^2 - x^2 - y^2
      {{1, {1, 0, 1}}},                                    // d+1 = xz
      {{1, {0, 1, 1}}},                                    // d-1 = yz
      {{1, {2, 0, 0}}, {-1, {0, 2, 0}}},                   // d+2 = x^2 - y^2
      {{1, {1, 1, 0}}}};                                   // d-2 = xy
  static const std::vector<Polynomial> f = {
      {{2, {0, 0, 3}}, {-3, {2, 0, 1}}, {-3, {0, 2, 1}}},  // f0  = z (2z^2 - 3x^2 - 3y^2)
      {{4, {1, 0, 2}}, {-1, {3, 0, 0}}, {-1, {1, 2, 0}}},  // f+1 = x (4z^2 - x^2 - y^2)
      {{4, {0, 1, 2}}, {-1, {2, 1, 0}}, {-1, {0, 3, 0}}},  // f-1 = y (4z^2 - x^2 - y^2)
      {{1, {2, 0, 1}}, {-1, {0, 2, 1}}},                   // f+2 = z (x^2 - y^2)
      {{1, {1, 1, 1}}},                                    // f-2 = xyz
      {{1, {3, 0, 0}}, {-3, {1, 2, 0}}},                   // f+3 = x (x^2 - 3y^2)
      {{3, {2, 1, 0}}, {-1, {0, 3, 0}}}};                  // f-3 = y (3x^2 - y^2)
  static const std::vector<Polynomial> g = {
      {{8, {0, 0, 4}},
       {3, {4, 0, 0}},
       {3, {0, 4, 0}},
       {6, {2, 2, 0}},
       {-24, {2, 0, 2}},
       {-24, {0, 2, 2}}},                                  // 35z^4 - 30z^2r^2 + 3r^4
      {{4, {1, 0, 3}}, {-3, {3, 0, 1}}, {-3, {1, 2, 1}}},  // g+1 = xz (7z^2 - 3r^2)
      {{4, {0, 1, 3}}, {-3, {2, 1, 1}}, {-3, {0, 3, 1}}},  // g-1 = yz (7z^2 - 3r^2)
      {{6, {2, 0, 2}},
       {-1, {4, 0, 0}},
       {-6, {0, 2, 2}},
       {1, {0, 4, 0}}},                                    // g+2 = (x^2 - y^2)(7z^2 - r^2)
      {{6, {1, 1, 2}}, {-1, {3, 1, 0}}, {-1, {1, 3, 0}}},  // g-2 = xy (7z^2 - r^2)
      {{1, {3, 0, 1}}, {-3, {1, 2, 1}}},                   // g+3 = xz (x^2 - 3y^2)
      {{3, {2, 1, 1}}, {-1, {0, 3, 1}}},                   // g-3 = yz (3x^2 - y^2)
      {{1, {4, 0, 0}}, {-6, {2, 2, 0}}, {1, {0, 4, 0}}},   // g+4 = x^4 - 6x^2y^2 + y^4
      {{1, {3, 1, 0}}, {-1, {1, 3, 0}}}};                  // g-4 = xy (x^2 - y^2)
  switch (l) {
    case 0:
      return {{1, {0, 0, 0}}};
    case 1:
      return cartesian_function(1, index);  // p+1, p-1, p0 are x, y, z: Molden lists p as x, y, z
    case 2:
      return d.at(std::size_t(index));
    case 3:
      return f.at(std::size_t(index));
    case 4:
      return g.at(std::size_t(index));
    default:
      throw std::out_of_range("spherical shells go up to g (l = 4)");
  }
}

double squared_integral(const Polynomial& p, double beta) {
  double sum = 0;
  for (const Term& a : p)
    for (const Term& b : p)
      sum += a.coefficient * b.coefficient * moment(a.powers[0] + b.powers[0], beta) *
             moment(a.powers[1] + b.powers[1], beta) * moment(a.powers[2] + b.powers[2], beta);
  return sum;
}

}  // namespace kmol::orbital
