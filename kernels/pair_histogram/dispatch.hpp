#pragma once
// pair_histogram(): validate, choose an implementation, run it. Instantiated per execution space
// in instances_<space>.cpp so that each backend compiles in its own unit.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <vector>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/runners.hpp"
#include "kernels/pair_histogram/validation.hpp"
#include "kernels/run_implementation.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/math.hpp"

namespace kmol {

template <class T>
KOKKOS_INLINE_FUNCTION bool finite_point(const Vec3<T>& p) {
  return p.x - p.x == T(0) && p.y - p.y == T(0) && p.z - p.z == T(0);
}

// Resident coordinates are checked where they live: the largest |coordinate|, or InputError
// naming the first atom with a non-finite coordinate (x - x is NaN exactly for infinities and
// NaN, which count as infinitely large).
template <class ExecSpace, class T>
double finite_extent_on(const ExecSpace& space, const Vec3<T>* xyz, std::int64_t n,
                        const char* set) {
  using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>
      points(xyz, n);
  double extent = 0;
  Kokkos::parallel_reduce(
      "kmol::pair_histogram::finite_extent", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i, double& largest) {
        const Vec3<T> p = points(i);
        largest = math::max(largest, finite_point(p) ? double(largest_magnitude(p)) : INFINITY);
      },
      Kokkos::Max<double>(extent));
  if (extent < double(INFINITY)) return extent;
  std::int64_t first = n;
  Kokkos::parallel_reduce(
      "kmol::pair_histogram::first_non_finite", Range(space, 0, n),
      KOKKOS_LAMBDA(std::int64_t i, std::int64_t & bad) {
        if (!finite_point(points(i)) && i < bad) bad = i;
      },
      Kokkos::Min<std::int64_t>(first));
  throw InputError({"", set, long(first)},
                   "atom " + std::to_string(first) + " has a non-finite coordinate");
}

// Resident coordinates copied to the host, for problems counted from host copies (every image,
// distances in a plane).
template <class ExecSpace, class T>
std::vector<Vec3<T>> host_copy_of(const ExecSpace& space, const Vec3<T>* xyz, std::int64_t n) {
  std::vector<Vec3<T>> out(static_cast<std::size_t>(n));
  const Kokkos::View<const Vec3<T>*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>
      from(xyz, n);
  const Kokkos::View<Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> to(out.data(), n);
  Kokkos::deep_copy(space, to, from);
  space.fence();
  return out;
}

template <class ExecSpace, class T>
PairHistogramResult pair_histogram(const ExecSpace& space, const PairHistogramInput<T>& given,
                                   const PairHistogramSettings& settings) {
  PairHistogramInput<T> input = given;
  std::vector<Vec3<T>> host_a, host_b;
  if (input.resident && !counts_resident_atoms(input.n_a, input.n_b, input.one_set(), settings,
                                               platform_of<ExecSpace>())) {
    host_a = host_copy_of(space, input.a, input.n_a);
    input.a = host_a.data();
    if (!input.one_set()) {
      host_b = host_copy_of(space, input.b, input.n_b);
      input.b = host_b.data();
    }
    input.resident = false;
  }
  double extent = input.extent;
  if (input.resident && extent < 0) {
    extent = finite_extent_on(space, input.a, input.n_a, "selection A");
    if (!input.one_set())
      extent = math::max(extent, finite_extent_on(space, input.b, input.n_b, "selection B"));
  }
  Kokkos::Profiling::pushRegion("kmol::pair_histogram");
  PreparedPairHistogram<T> prepared;
  prepare_pair_histogram(input, settings, prepared);
  prepared.job.extent = extent;
  const PairHistogramImpl impl =
      choose_pair_histogram_impl(prepared.shape, platform_of<ExecSpace>(), settings.impl);
  prepared.result.impl_used = impl;
  if (prepared.job.launch.any() &&
      !implementation_row(pair_histogram_implementations, impl).has(row_trait::takes_launch))
    throw UnsupportedError(
        "pair histogram: forced launch parameters are knobs of an implementation that takes "
        "them (cuda), not of " +
        to_string(impl));
  prepared.result.launch = run_prepared(prepared, [&](const PairHistogramJob<T>& job) {
    return run_implementation<PairHistogramRunner, pair_histogram_implementations>(
        "pair histogram", impl, space, job);
  });
  space.fence();
  Kokkos::Profiling::popRegion();
  throw_if_cancelled("the pair histogram");  // the counts of a cancelled run are partial
  return std::move(prepared.result);
}

}  // namespace kmol

#define KMOL_INSTANTIATE_PAIR_HISTOGRAM(Space)                                                   \
  template kmol::PairHistogramResult kmol::pair_histogram(                                       \
      const Space&, const kmol::PairHistogramInput<float>&, const kmol::PairHistogramSettings&); \
  template kmol::PairHistogramResult kmol::pair_histogram(                                       \
      const Space&, const kmol::PairHistogramInput<double>&, const kmol::PairHistogramSettings&);
