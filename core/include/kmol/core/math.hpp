#pragma once
// Math shared by every backend. Plain C math calls compile to the same correctly rounded
// instructions on the host and on CUDA devices; explicit fma keeps the rounding identical
// whatever each compiler would contract on its own.
#include <math.h>

#include "kmol/core/portability.hpp"

namespace kmol::math {

KMOL_INLINE float sqrt(float x) { return ::sqrtf(x); }
KMOL_INLINE double sqrt(double x) { return ::sqrt(x); }
KMOL_INLINE float floor(float x) { return ::floorf(x); }
KMOL_INLINE double floor(double x) { return ::floor(x); }
KMOL_INLINE float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
KMOL_INLINE double fma(double a, double b, double c) { return ::fma(a, b, c); }

template <class T>
KMOL_INLINE T min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
KMOL_INLINE T max(T a, T b) {
  return a < b ? b : a;
}

}  // namespace kmol::math
