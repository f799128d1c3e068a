#pragma once
// XorShift64Streams: uniform 32-bit numbers from Kokkos' XorShift64 generators, written into a
// View on any execution space the way rand48_fill writes glibc's sequence. Each stream's
// generator stays in registers while it writes all of its stream's elements: on CPU spaces a
// contiguous block per stream, on GPUs the elements s, s + S, s + 2S, ... so that neighbouring
// threads write neighbouring addresses. (Kokkos::fill_random takes a generator through the
// pool's locks for every 128 consecutive elements, so each store of a GPU warp touches 32 cache
// lines, and it bounds every number with a division.) The generators continue from one fill to
// the next.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>

#include <cstdint>
#include <type_traits>

#include "kmol/core/execution_space.hpp"

namespace kmol {

namespace xorshift_detail {

// One stream's numbers (a functor at namespace scope: CUDA launches no private nested type).
template <class Pool, class View, bool Blocked>
struct Fill {
  Pool pool;
  View out;
  std::int64_t n, streams, chunk;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    auto generator = pool.get_state(int(s));  // by index: each stream owns its state
    if constexpr (Blocked) {
      const std::int64_t last = (s + 1) * chunk < n ? (s + 1) * chunk : n;
      for (std::int64_t e = s * chunk; e < last; ++e) out(e) = generator.urand();
    } else {
      for (std::int64_t e = s; e < n; e += streams) out(e) = generator.urand();
    }
    pool.free_state(generator);
  }
};

}  // namespace xorshift_detail

template <class ExecSpace>
class XorShift64Streams {
 public:
  using Pool = Kokkos::Random_XorShift64_Pool<ExecSpace>;

  // One stream per thread the space runs at once (the pool's own default).
  XorShift64Streams(const ExecSpace& space, std::uint64_t seed)
      : space_(space), pool_(seed), streams_(std::int64_t(ExecSpace().concurrency())) {}

  std::int64_t streams() const { return streams_; }
  // Whether stream s writes a contiguous block (else every streams()-th element from s).
  static constexpr bool blocked = runs_on_host<ExecSpace>;

  // Writes the streams' next numbers into `out`, a rank-1 View of std::uint32_t in the space's
  // memory: element e is, when blocked, the (e mod B)-th number of stream e / B, B =
  // ceil(n / streams()); otherwise the (e / streams())-th number of stream e mod streams().
  template <class View>
  void fill(const View& out) const {
    static_assert(std::is_same_v<typename View::non_const_value_type, std::uint32_t>,
                  "XorShift64Streams::fill writes std::uint32_t");
    const std::int64_t n = std::int64_t(out.extent(0));
    const std::int64_t chunk = (n + streams_ - 1) / streams_;
    Kokkos::parallel_for(
        "kmol::xorshift64_fill",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space_, 0, streams_),
        xorshift_detail::Fill<Pool, View, blocked>{pool_, out, n, streams_, chunk});
  }

 private:
  ExecSpace space_;
  Pool pool_;
  std::int64_t streams_;
};

}  // namespace kmol
