#pragma once
// Pair histograms of coordinates a Kokkos application already holds in Views, in any memory space
// the execution space reads (device memory on GPUs): the kernels read them where they are, with
// no copy through the host, and count exactly what the host-pointer entry point counts.
//
//   Kokkos::View<kmol::Vec3<float>*, Kokkos::CudaSpace> xyz = ...;   // or View<float*[3]>
//   kmol::PairHistogramResult h = kmol::pair_histogram(Kokkos::Cuda(), xyz, settings);
//
// A View holds Vec3<T> (rank 1) or rows of three T (rank 2, LayoutRight, extent 3). Species and
// exclusion labels stay host arrays, given in `labels` (PairHistogramInput's label fields).
#include <Kokkos_Core.hpp>

#include <type_traits>

#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/views.hpp"

namespace kmol {

// One set: each unordered pair of `a` once.
template <class ExecSpace, class A, std::enable_if_t<Kokkos::is_view<A>::value, int> = 0>
PairHistogramResult pair_histogram(const ExecSpace& space, const A& a,
                                   const PairHistogramSettings& settings,
                                   PairHistogramInput<views_detail::scalar_t<A>> labels = {}) {
  labels.a = views_detail::points<ExecSpace>(a, "selection A");
  labels.n_a = std::int64_t(a.extent(0));
  labels.b = nullptr;
  labels.n_b = 0;
  labels.resident = true;
  return pair_histogram(space, labels, settings);
}

// Two sets: every (i of a, j of b).
template <class ExecSpace, class A, class B,
          std::enable_if_t<Kokkos::is_view<A>::value && Kokkos::is_view<B>::value, int> = 0>
PairHistogramResult pair_histogram(const ExecSpace& space, const A& a, const B& b,
                                   const PairHistogramSettings& settings,
                                   PairHistogramInput<views_detail::scalar_t<A>> labels = {}) {
  static_assert(std::is_same_v<views_detail::scalar_t<A>, views_detail::scalar_t<B>>,
                "both sets in one precision");
  labels.a = views_detail::points<ExecSpace>(a, "selection A");
  labels.n_a = std::int64_t(a.extent(0));
  labels.b = views_detail::points<ExecSpace>(b, "selection B");
  labels.n_b = std::int64_t(b.extent(0));
  labels.resident = true;
  return pair_histogram(space, labels, settings);
}

}  // namespace kmol
