#include <cmath>

#include "kernels/correlation/correlation.hpp"

namespace kmol {

double pearson(const double s[6]) {
  const double n = s[0];
  if (n < 2) return 0;
  const double cov = s[5] - s[1] * s[2] / n, var_a = s[3] - s[1] * s[1] / n,
               var_b = s[4] - s[2] * s[2] / n;
  if (!(var_a > 0) || !(var_b > 0)) return 0;
  return cov / std::sqrt(var_a * var_b);
}

}  // namespace kmol
