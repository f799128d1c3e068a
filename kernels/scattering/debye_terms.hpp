#pragma once
// The terms every Debye sum shares, host and device alike (Kokkos-free): sin(x)/x and the Lorch
// window, so the histogram route and the direct sum weigh a pair at distance r identically.
#include <cmath>

#include "kmol/core/portability.hpp"

namespace kmol {

// sin(x)/x, with its series below |x| = 1e-4 where the quotient loses digits.
KMOL_INLINE double sinc(double x) {
  if (x < 1e-4 && x > -1e-4) return 1.0 - x * x / 6.0;
  return ::sin(x) / x;
}

// Lorch's window sin(pi r / R) / (pi r / R) for r < R (1 without a window: R <= 0). It damps the
// truncation ripples of a transform of g(r) cut at R (E. Lorch, J. Phys. C 2, 229 (1969)).
KMOL_INLINE double lorch_window(double r, double r_window) {
  if (r_window <= 0) return 1.0;
  return sinc(M_PI * r / r_window);
}

}  // namespace kmol
