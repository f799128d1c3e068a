#include "kernels/orbital/overlap.hpp"

#include <cmath>

#include "kernels/orbital/cartesian.hpp"
#include "kmol/core/cancel.hpp"

namespace kmol {
namespace {

double binomial(int n, int k) {
  double b = 1;
  for (int i = 1; i <= k; ++i) b = b * (n - k + i) / i;
  return b;
}

// Integral of t^n exp(-p t^2) over the real line.
double moment(int n, double p) {
  if (n % 2 == 1) return 0;
  double double_factorial = 1;
  for (int k = n - 1; k > 1; k -= 2) double_factorial *= k;
  return double_factorial / std::pow(2 * p, n / 2) * std::sqrt(M_PI / p);
}

// Integral of (x - a)^i (x - b)^j exp(-p (x - xp)^2): both factors expanded around xp.
double overlap_1d(int i, int j, double pa, double pb, double p) {
  double sum = 0;
  for (int u = 0; u <= i; ++u)
    for (int v = 0; v <= j; ++v)
      sum += binomial(i, u) * binomial(j, v) * std::pow(pa, i - u) * std::pow(pb, j - v) *
             moment(u + v, p);
  return sum;
}

}  // namespace

std::vector<double> overlap_matrix(const OrbitalBasis& basis) {
  const int n = basis.functions();
  std::vector<double> s(std::size_t(n) * std::size_t(n), 0.0);
  std::vector<Vec3<double>> centres;
  for (const auto& c : basis.centres()) centres.push_back((1.0 / bohr_in_angstrom) * c);
  for (const CartesianShell& a : basis.shells()) {
    // Thousands of functions take seconds: a cancel stops the matrix between rows of shells.
    if (cancel_requested()) throw_if_cancelled("the overlap matrix");
    for (const CartesianShell& b : basis.shells()) {
      const Vec3<double> A = centres[std::size_t(a.atom)], B = centres[std::size_t(b.atom)];
      const auto& pa_list = orbital::cartesian_powers(a.l);
      const auto& pb_list = orbital::cartesian_powers(b.l);
      // Overlaps of the shells' monomials (times their radial parts).
      std::vector<double> mono(pa_list.size() * pb_list.size(), 0.0);
      for (std::size_t k = 0; k < a.alpha.size(); ++k)
        for (std::size_t m = 0; m < b.alpha.size(); ++m) {
          const double p = a.alpha[k] + b.alpha[m], mu = a.alpha[k] * b.alpha[m] / p;
          const Vec3<double> P = (1.0 / p) * (a.alpha[k] * A + b.alpha[m] * B);
          const double pre = a.d[k] * b.d[m] * std::exp(-mu * norm2(A - B));
          const double pa[3] = {P.x - A.x, P.y - A.y, P.z - A.z},
                       pb[3] = {P.x - B.x, P.y - B.y, P.z - B.z};
          for (std::size_t u = 0; u < pa_list.size(); ++u)
            for (std::size_t v = 0; v < pb_list.size(); ++v) {
              double term = pre;
              for (int d = 0; d < 3; ++d)
                term *= overlap_1d(pa_list[u][d], pb_list[v][d], pa[d], pb[d], p);
              mono[u * pb_list.size() + v] += term;
            }
        }
      for (int f = 0; f < a.functions; ++f)
        for (int g = 0; g < b.functions; ++g) {
          double sum = 0;
          for (std::size_t u = 0; u < pa_list.size(); ++u)
            for (std::size_t v = 0; v < pb_list.size(); ++v)
              sum += a.expansion[std::size_t(f) * pa_list.size() + u] *
                     b.expansion[std::size_t(g) * pb_list.size() + v] *
                     mono[u * pb_list.size() + v];
          s[std::size_t(a.first_function + f) * std::size_t(n) +
            std::size_t(b.first_function + g)] = sum;
        }
    }
  }
  return s;
}

double overlap(const std::vector<double>& s, const std::vector<double>& c1,
               const std::vector<double>& c2) {
  const std::size_t n = c1.size();
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (c1[i] == 0) continue;
    double row = 0;
    for (std::size_t j = 0; j < n; ++j) row += s[i * n + j] * c2[j];
    sum += c1[i] * row;
  }
  return sum;
}

}  // namespace kmol
