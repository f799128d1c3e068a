#pragma once
// Launch shape of the portable engine per backend, in one place. CPU spaces run one thread per
// team with a long A tile and stage B and the bins in buffers so the distance loop vectorises;
// GPU threads hold a few atoms of A in registers, read B straight from device memory (every
// thread of a team the same atom: one broadcast load, no scratch tile, no barriers) and count
// straight into the team's shared histogram.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

#include "kmol/core/box.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

template <class ExecSpace>
struct PairHistogramKokkosTraits {
  static constexpr bool on_host = runs_on_host<ExecSpace>;
  static constexpr int team_size = on_host ? 1 : 256;
  // GPUs: teams of 256 take at most this much shared memory, so that four share an SM (four
  // 10,000-bin histograms); histograms wider than that run one team of 1024 threads an SM with
  // the device's whole opt-in shared memory, where the backend offers more: each window sweeps
  // every pair again, so fewer, wider windows pay.
  static constexpr std::size_t team_shared_bytes = 40960;
  static constexpr int wide_team_size = on_host ? 1 : 1024;
  // GPUs: at most 64 registers a thread (65,536 an SM over 1024 threads, or four teams of 256);
  // without the bound the generic paths took over 100.
  using LaunchBounds = Kokkos::LaunchBounds<on_host ? 0 : wide_team_size, on_host ? 0 : 1>;
  // Atoms of A per thread: a CPU thread sweeps 256 in turn (each team clears and flushes its
  // window once, which long tiles amortise over more pairs); a GPU thread holds them in registers
  // (eight doubles made the kernel fail to load on Hopper, so four; four for the register-hungry
  // triclinic images too, as in the raw CUDA kernel).
  template <class T, class Box>
  static constexpr int a_per_thread =
      on_host ? 256 : (sizeof(T) == 4 && !std::is_same_v<Box, TriclinicBox<T>> ? 8 : 4);
  // CPU threads take teams as they finish: one set's teams hold fewer pairs as A advances.
  using Schedule = Kokkos::Schedule<std::conditional_t<on_host, Kokkos::Dynamic, Kokkos::Static>>;
  static constexpr bool stage_b = on_host;
  static constexpr int b_tile = on_host ? 1024 : 1 << 14;  // GPUs: B atoms between flush checks
  // B atoms a team pairs with its A tile (0: all). GPUs split B so that a large problem makes
  // many teams: tens of waves on the SMs, a short tail.
  static constexpr int b_chunk = on_host ? 0 : 1 << 14;
  static constexpr bool stage_bins = on_host;
  // Host scratch level 1 is ordinary memory as fast as level 0 and big enough for any histogram;
  // on GPUs level 0 is shared memory.
  static constexpr int histogram_level = on_host ? 1 : 0;
};

}  // namespace kmol
