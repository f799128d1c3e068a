#pragma once
// rand48_fill(space, state, kind, out): writes the next out.extent(0) numbers of glibc's rand48
// sequence from `state` into a View, on any execution space, and returns the state after them
// (what glibc's own state would be after as many calls).
//
// The work is split into streams, each starting at its own place in the one sequence by a jump.
// CPU spaces give each stream a contiguous block and advance eight interleaved lanes inside it
// (independent multiplications keep the core busy instead of waiting on one chain); GPUs give
// stream s the elements s, s + S, s + 2S, ... so that neighbouring threads write neighbouring
// elements. Either way element e is glibc's (e+1)-th number after `state`.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/empty_view.hpp"
#include "kernels/rng/rand48.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {

enum class Rand48Layout { automatic, blocked, interleaved };

struct Rand48Plan {
  std::int64_t streams = 0;  // 0: chosen per backend
  Rand48Layout layout = Rand48Layout::automatic;
};

struct Rand48FillResult {
  std::uint64_t state_after = 0;
  std::int64_t streams = 0;
  Rand48Layout layout = Rand48Layout::automatic;
};

std::string to_string(Rand48Kind kind);
Rand48Kind rand48_kind_from_string(const std::string& name);
std::string to_string(Rand48Layout layout);

namespace rand48_detail {

template <class ExecSpace>
constexpr bool on_host = runs_on_host<ExecSpace>;

// Streams per backend: a few per host thread (load balance), enough GPU threads to fill the device.
template <class ExecSpace>
std::int64_t default_streams(const ExecSpace& space, std::int64_t n) {
  const std::int64_t want =
      on_host<ExecSpace> ? 4 * std::int64_t(space.concurrency()) : std::int64_t(1) << 18;
  const std::int64_t min_per_stream = on_host<ExecSpace> ? 4096 : 16;
  return std::max<std::int64_t>(1, std::min(want, n / min_per_stream));
}

template <Rand48Kind Kind>
KOKKOS_INLINE_FUNCTION auto output(std::uint64_t x) {
  if constexpr (Kind == Rand48Kind::lrand48)
    return rand48_lrand(x);
  else if constexpr (Kind == Rand48Kind::mrand48)
    return rand48_mrand(x);
  else
    return rand48_drand(x);
}

template <Rand48Kind Kind, class View>
struct BlockedFill {
  static constexpr int lanes = 8;
  View out = empty_view<View>();
  std::uint64_t start;
  Rand48Jump lane_jump;  // `lanes` single steps
  std::int64_t n, chunk;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    const std::int64_t first = s * chunk;
    const std::int64_t last = first + chunk < n ? first + chunk : n;
    std::uint64_t x[lanes];
    x[0] = Rand48Jump::steps(std::uint64_t(first) + 1).apply(start);
    for (int l = 1; l < lanes; ++l) x[l] = (rand48_a * x[l - 1] + rand48_c) & rand48_mask;
    std::int64_t e = first;
    for (; e + lanes <= last; e += lanes)
      for (int l = 0; l < lanes; ++l) {
        out(e + l) = output<Kind>(x[l]);
        x[l] = lane_jump.apply(x[l]);
      }
    for (int l = 0; e + l < last; ++l) out(e + l) = output<Kind>(x[l]);
  }
};

template <Rand48Kind Kind, class View>
struct InterleavedFill {
  View out = empty_view<View>();
  std::uint64_t start;
  Rand48Jump stream_jump;  // `streams` single steps
  std::int64_t n, streams;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s) const {
    std::uint64_t x = Rand48Jump::steps(std::uint64_t(s) + 1).apply(start);
    for (std::int64_t e = s; e < n; e += streams) {
      out(e) = output<Kind>(x);
      x = stream_jump.apply(x);
    }
  }
};

template <Rand48Kind Kind, class ExecSpace, class View>
void fill(const ExecSpace& space, std::uint64_t start, const View& out, std::int64_t streams,
          Rand48Layout layout) {
  const std::int64_t n = std::int64_t(out.extent(0));
  const auto policy =
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, streams);
  if (layout == Rand48Layout::blocked) {
    const std::int64_t chunk = (n + streams - 1) / streams;
    Kokkos::parallel_for(
        "kmol::rand48::blocked", policy,
        BlockedFill<Kind, View>{out, start, Rand48Jump::steps(BlockedFill<Kind, View>::lanes), n,
                                chunk});
  } else {
    Kokkos::parallel_for("kmol::rand48::interleaved", policy,
                         InterleavedFill<Kind, View>{
                             out, start, Rand48Jump::steps(std::uint64_t(streams)), n, streams});
  }
}

}  // namespace rand48_detail

// `out`: a rank-1 View of std::int32_t (lrand48, mrand48) or double (drand48) in ExecSpace's
// memory.
template <class ExecSpace, class View>
Rand48FillResult rand48_fill(const ExecSpace& space, std::uint64_t state, Rand48Kind kind,
                             const View& out, Rand48Plan plan = {}) {
  using value_type = typename View::non_const_value_type;
  static_assert(std::is_same_v<value_type, std::int32_t> || std::is_same_v<value_type, double>,
                "rand48_fill writes std::int32_t (lrand48, mrand48) or double (drand48)");
  const bool integer_kind = kind != Rand48Kind::drand48;
  if (integer_kind != std::is_same_v<value_type, std::int32_t>)
    throw InputError({"", "kind", -1}, to_string(kind) + " needs a View of " +
                                           (integer_kind ? "std::int32_t" : "double"));
  const std::int64_t n = std::int64_t(out.extent(0));
  if (plan.layout == Rand48Layout::automatic)
    plan.layout =
        rand48_detail::on_host<ExecSpace> ? Rand48Layout::blocked : Rand48Layout::interleaved;
  if (plan.streams <= 0) plan.streams = rand48_detail::default_streams(space, n);
  plan.streams = std::max<std::int64_t>(1, std::min(plan.streams, n));
  if (n > 0) {
    if constexpr (std::is_same_v<value_type, double>) {
      rand48_detail::fill<Rand48Kind::drand48>(space, state, out, plan.streams, plan.layout);
    } else if (kind == Rand48Kind::lrand48) {
      rand48_detail::fill<Rand48Kind::lrand48>(space, state, out, plan.streams, plan.layout);
    } else {
      rand48_detail::fill<Rand48Kind::mrand48>(space, state, out, plan.streams, plan.layout);
    }
  }
  return {Rand48Jump::steps(std::uint64_t(n)).apply(state), plan.streams, plan.layout};
}

}  // namespace kmol
