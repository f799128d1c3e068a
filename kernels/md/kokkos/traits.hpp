#pragma once
// Views and launch shapes of the MD engine per backend, in one place.
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/md/lennard_jones.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol::md {

template <class ExecSpace, class T>
struct Types {
  using memory_space = typename ExecSpace::memory_space;
  // The space's own layout: atom-major rows on CPUs, one array per component on GPUs (coalesced).
  using Vectors = Kokkos::View<T* [3], memory_space>;
  using Scalars = Kokkos::View<T*, memory_space>;
  using Ints = Kokkos::View<int*, memory_space>;
  using Table =
      Kokkos::View<int**, memory_space>;  // neighbours: [atom][k] on CPUs, [k] coalesced on GPUs
};

template <class ExecSpace>
struct Traits {
  static constexpr bool on_host = runs_on_host<ExecSpace>;
  // All-pairs tiles: a CPU thread sweeps a block of 64 atoms over a long tile; a GPU thread owns
  // one atom of a 128-atom block and the team shares each 128-atom tile.
  static constexpr int team_size = on_host ? 1 : 128;
  static constexpr int block = on_host ? 64 : 128;
  static constexpr int tile = on_host ? 512 : 128;
  static constexpr int scratch_level = on_host ? 1 : 0;  // host level 1 is plain memory, as fast
  // Neighbour-list builds: half-reach cells on CPUs (fewer candidates to test), whole-reach cells
  // on GPUs (fewer, fuller cells per thread).
  static constexpr int list_cell_span = on_host ? 2 : 1;
};

template <class T, class V>
KOKKOS_INLINE_FUNCTION Vec3<T> load(const V& x, int i) {
  return {x(i, 0), x(i, 1), x(i, 2)};
}

}  // namespace kmol::md
