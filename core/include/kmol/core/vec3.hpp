#pragma once
#include "kmol/core/math.hpp"

namespace kmol {

// A point or displacement in 3-D; T is float or double.
template <class T>
struct Vec3 {
  T x{}, y{}, z{};

  KMOL_INLINE friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  KMOL_INLINE friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  KMOL_INLINE friend Vec3 operator*(T s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }

  template <class U>
  KMOL_INLINE Vec3<U> cast() const {
    return {U(x), U(y), U(z)};
  }
};

// Squared length with explicit fused multiply-adds, so every backend rounds identically.
template <class T>
KMOL_INLINE T norm2(Vec3<T> v) {
  return math::fma(v.x, v.x, math::fma(v.y, v.y, v.z * v.z));
}

template <class T>
KMOL_INLINE T dot(Vec3<T> a, Vec3<T> b) {
  return math::fma(a.x, b.x, math::fma(a.y, b.y, a.z * b.z));
}

// The largest |component| (exact: no rounding).
template <class T>
KMOL_INLINE T largest_magnitude(Vec3<T> v) {
  return math::max(math::max(math::max(v.x, -v.x), math::max(v.y, -v.y)), math::max(v.z, -v.z));
}

template <class T>
KMOL_INLINE Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

}  // namespace kmol
