#pragma once
// glibc's 48-bit linear congruential generator (lrand48, mrand48, drand48 with srand48/seed48
// seeding) as a value type usable on the host and inside device kernels.
//
// x_(n+1) = (a x_n + c) mod 2^48 with a = 0x5DEECE66D, c = 0xB. Composing the step m times gives
// another affine map x_(n+m) = A_m x_n + C_m mod 2^48 (Rand48Jump), found by repeated squaring in
// at most 48 compositions. That lets any thread start anywhere in the one glibc sequence, so
// parallel streams produce exactly glibc's numbers whatever the thread count or backend.
//
// glibc advances the state first and derives the output from the new state:
//   lrand48 = x >> 17 (31 bits, non-negative), mrand48 = (int32)(x >> 16), drand48 = x / 2^48.
#include <cstdint>

#include "kmol/core/portability.hpp"

namespace kmol {

inline constexpr std::uint64_t rand48_mask = (std::uint64_t(1) << 48) - 1;
inline constexpr std::uint64_t rand48_a = 0x5DEECE66DULL;
inline constexpr std::uint64_t rand48_c = 0xBULL;

enum class Rand48Kind { lrand48, mrand48, drand48 };

// The affine map x -> (a x + c) mod 2^48. Products wrap mod 2^64, which the mask reduces exactly.
struct Rand48Jump {
  std::uint64_t a = 1, c = 0;  // identity

  KMOL_INLINE std::uint64_t apply(std::uint64_t x) const { return (a * x + c) & rand48_mask; }
  // this after first: x -> a (a1 x + c1) + c
  KMOL_INLINE Rand48Jump after(Rand48Jump first) const {
    return {(a * first.a) & rand48_mask, (a * first.c + c) & rand48_mask};
  }
  // The map of m single steps.
  KMOL_INLINE static Rand48Jump steps(std::uint64_t m) {
    Rand48Jump result, power{rand48_a, rand48_c};
    for (; m != 0; m >>= 1) {
      if (m & 1) result = power.after(result);
      power = power.after(power);
    }
    return result;
  }
};

// srand48(seed): the low 32 bits of seed above 0x330E.
KMOL_INLINE std::uint64_t rand48_seed_state(std::int64_t seed) {
  return ((std::uint64_t(seed) & 0xFFFFFFFFULL) << 16) | 0x330EULL;
}

// seed48(xsubi): xsubi[0] is the least significant 16 bits.
KMOL_INLINE std::uint64_t rand48_seed48_state(const unsigned short xsubi[3]) {
  return std::uint64_t(xsubi[0]) | (std::uint64_t(xsubi[1]) << 16) |
         (std::uint64_t(xsubi[2]) << 32);
}

KMOL_INLINE std::int32_t rand48_lrand(std::uint64_t x) { return std::int32_t(x >> 17); }
KMOL_INLINE std::int32_t rand48_mrand(std::uint64_t x) {
  return std::int32_t(std::uint32_t(x >> 16));
}
KMOL_INLINE double rand48_drand(std::uint64_t x) { return double(x) * 0x1p-48; }

// A generator a kernel thread owns: Rand48{state}.advanced(k) starts k numbers further on.
struct Rand48 {
  std::uint64_t state = rand48_seed_state(0);

  KMOL_INLINE Rand48 advanced(std::uint64_t m) const { return {Rand48Jump::steps(m).apply(state)}; }
  KMOL_INLINE std::uint64_t next_state() {
    return state = (rand48_a * state + rand48_c) & rand48_mask;
  }
  KMOL_INLINE std::int32_t lrand48() { return rand48_lrand(next_state()); }
  KMOL_INLINE std::int32_t mrand48() { return rand48_mrand(next_state()); }
  KMOL_INLINE double drand48() { return rand48_drand(next_state()); }
};

}  // namespace kmol
