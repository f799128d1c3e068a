#pragma once
// IEEE binary16 from float, rounded to nearest even, in plain integer arithmetic so that every
// backend stores the same bits (maps are finite and non-negative here, but any float works).
#include <cstdint>
#include <cstring>

#include "kmol/core/portability.hpp"

namespace kmol {

KMOL_INLINE std::uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

KMOL_INLINE std::uint16_t float_to_half(float f) {
  const std::uint32_t u = float_bits(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u, magnitude = u & 0x7fffffffu;
  if (magnitude >= 0x7f800000u)
    return std::uint16_t(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
  if (magnitude >= 0x477ff000u)
    return std::uint16_t(sign | 0x7c00u);  // rounds past 65504: infinity
  if (magnitude < 0x38800000u) {  // subnormal half (or zero): shift the implicit-one mantissa
    const int shift = 126 - int(magnitude >> 23);  // float mantissa units -> half subnormal units
    if (shift > 24) return std::uint16_t(sign);    // below half the smallest subnormal
    const std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t kept = mantissa >> shift, rest = mantissa & ((1u << shift) - 1u),
                        half_way = 1u << (shift - 1);
    return std::uint16_t(
        sign | (kept + ((rest > half_way || (rest == half_way && (kept & 1u))) ? 1u : 0u)));
  }
  const std::uint32_t rebased = magnitude - 0x38000000u;  // exponent bias 127 -> 15
  const std::uint32_t kept = rebased >> 13, rest = rebased & 0x1fffu;
  return std::uint16_t(sign |
                       (kept + ((rest > 0x1000u || (rest == 0x1000u && (kept & 1u))) ? 1u : 0u)));
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu,
                      mantissa = h & 0x3ffu;
  std::uint32_t u;
  if (exponent == 0x1f)
    u = sign | 0x7f800000u | (mantissa << 13);
  else if (exponent != 0)
    u = sign | ((exponent + 112) << 23) | (mantissa << 13);
  else if (mantissa == 0)
    u = sign;
  else {  // subnormal: normalise
    int e = -1;
    std::uint32_t m = mantissa;
    do {
      ++e;
      m <<= 1;
    } while (!(m & 0x400u));
    u = sign | (std::uint32_t(112 - e) << 23) | ((m & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace kmol
