#pragma once
// A kernel's check for a cancel (kmol/core/cancel.hpp). Host iterations read the flag itself.
// Device code cannot, so a launch that must stop early on a GPU takes cancel_word<ExecSpace>(): a
// word of page-locked host memory, mapped into every device's address space, that request_cancel
// keeps equal to the flag. Its launches can then run whole: teams that start after a cancel skip
// their work, and the caller throws once the launch ends.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kmol/core/cancel.hpp"

namespace kmol {

// The word launches on ExecSpace read (null on host spaces, whose threads read the flag). Allocated
// once and never freed, since a signal may write it at any moment. With unified addressing (every
// 64-bit CUDA platform) page-locked host memory has the same address on the host and every device.
template <class ExecSpace>
const volatile int* cancel_word() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    static volatile int* const word = [] {
      auto* w = static_cast<volatile int*>(Kokkos::CudaHostPinnedSpace().allocate(sizeof(int)));
      mirror_cancel_into(w);
      return w;
    }();
    return word;
  }
#endif
  return nullptr;
}

// Whether a cancel was requested: host code reads the flag, device code `word` (from
// cancel_word(); with none, device code sees no cancel and runs its launch to the end).
KOKKOS_INLINE_FUNCTION bool cancel_seen(const volatile int* word = nullptr) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return word != nullptr && *word != 0;
#else
  (void)word;
  return cancel_requested();
#endif
}

// Whether the team should skip its work: one read for the whole team (its threads must agree, as
// they meet at barriers).
template <class Member>
KOKKOS_INLINE_FUNCTION bool team_cancelled(const Member& team, const volatile int* word) {
  int seen = 0;
  Kokkos::single(
      Kokkos::PerTeam(team), [&](int& s) { s = cancel_seen(word) ? 1 : 0; }, seen);
  return seen != 0;
}

}  // namespace kmol
