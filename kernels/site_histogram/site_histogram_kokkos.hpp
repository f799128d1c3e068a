#pragma once
// One thread per requested atom pair: its distance, its bin, and one increment of its own count
// (no two threads share a count, so no atomics). Requests are found from the pair's flat index.
#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "kernels/empty_view.hpp"
#include "kernels/pair_histogram/binning.hpp"
#include "kernels/site_histogram/site_histogram.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {

template <class ExecSpace, class T>
struct SiteHistograms<ExecSpace, T>::State {
  using Memory = typename ExecSpace::memory_space;
  template <class V>
  using Array = Kokkos::View<V*, Memory>;
  ExecSpace space;
  HistogramRange<T> range;
  std::int64_t n_positions = 0, pairs = 0, size = 0;
  Array<Vec3<T>> positions = empty_view<Array<Vec3<T>>>();
  Array<std::int64_t> atoms = empty_view<Array<std::int64_t>>();  // each request's A, then B
  // Per request k: pair_start[k] (K + 1 entries), where its A and B indices start in `atoms`,
  // |B_k| and where its counts start.
  Array<std::int64_t> pair_start = empty_view<Array<std::int64_t>>(),
                      a_start = empty_view<Array<std::int64_t>>(),
                      b_start = empty_view<Array<std::int64_t>>(),
                      b_size = empty_view<Array<std::int64_t>>(),
                      count_start = empty_view<Array<std::int64_t>>();
  Array<double> counts = empty_view<Array<double>>();
  double* host_counts = nullptr;
  bool on_host = false;
};

namespace site_histogram_detail {

template <class V>
Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host_view(std::vector<V>& v) {
  return Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size());
}

template <class Memory, class V>
Kokkos::View<V*, Memory> to_space(std::vector<V> v, const char* label) {
  Kokkos::View<V*, Memory> out(std::string(label), v.size());
  Kokkos::deep_copy(out, host_view(v));
  return out;
}

// The pairs of every request, one call per pair.
template <class Memory, class T, class Box>
struct SitePairCounter {
  template <class V>
  using Array = Kokkos::View<V*, Memory>;
  Box box;
  HistogramRange<T> range;
  Array<Vec3<T>> xyz;
  Array<std::int64_t> atoms, pair_start, a_start, b_start, b_size, count_start;
  Array<double> counts;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t p) const {
    std::int64_t k = 0;
    while (k + 2 < std::int64_t(pair_start.extent(0)) && p >= pair_start(k + 1)) ++k;
    const std::int64_t local = p - pair_start(k), n_b = b_size(k);
    const std::int64_t i = local / n_b, j = local - i * n_b;
    const T r = pair_distance(box, xyz(atoms(a_start(k) + i)), xyz(atoms(b_start(k) + j)));
    const std::int32_t bin = range.bin_of(r);
    if (bin >= 0) counts(count_start(k) + local * range.n_bins + bin) += 1;
  }
};

}  // namespace site_histogram_detail

template <class ExecSpace, class T>
SiteHistograms<ExecSpace, T>::SiteHistograms(const ExecSpace& space,
                                             const std::vector<SiteGroups>& requests,
                                             std::int64_t n_positions,
                                             const SiteHistogramSettings& settings, double* counts)
    : state_(std::make_unique<State>()) {
  using namespace site_histogram_detail;
  using Memory = typename State::Memory;
  if (!(settings.r_min >= 0) || !(settings.r_max > settings.r_min))
    throw InputError({"", "range", -1}, "expected 0 <= r_min < r_max");
  if (settings.n_bins <= 0 || settings.n_bins > HistogramRange<double>::max_bins)
    throw InputError({"", "nbins", -1}, "must be between 1 and 2^20");
  State& s = *state_;
  s.space = space;
  s.range = HistogramRange<T>(settings.r_min, settings.r_max, settings.n_bins);
  s.n_positions = n_positions;
  std::vector<std::int64_t> atoms, pair_start{0}, a_start, b_start, b_size, count_start;
  for (const SiteGroups& g : requests) {
    for (const auto* group : {&g.a, &g.b})
      for (const std::int64_t i : *group)
        if (i < 0 || i >= n_positions)
          throw InputError({"", "ags", -1}, "atom index " + std::to_string(i) + " of " +
                                                std::to_string(n_positions) + " positions");
    a_start.push_back(std::int64_t(atoms.size()));
    atoms.insert(atoms.end(), g.a.begin(), g.a.end());
    b_start.push_back(std::int64_t(atoms.size()));
    atoms.insert(atoms.end(), g.b.begin(), g.b.end());
    b_size.push_back(std::int64_t(g.b.size()));
    count_start.push_back(s.size);
    pair_start.push_back(pair_start.back() + std::int64_t(g.a.size() * g.b.size()));
    s.size += std::int64_t(g.a.size() * g.b.size()) * settings.n_bins;
  }
  s.pairs = pair_start.back();
  s.atoms = to_space<Memory>(atoms, "kmol::site_histogram::atoms");
  s.pair_start = to_space<Memory>(pair_start, "kmol::site_histogram::pair_start");
  s.a_start = to_space<Memory>(a_start, "kmol::site_histogram::a_start");
  s.b_start = to_space<Memory>(b_start, "kmol::site_histogram::b_start");
  s.b_size = to_space<Memory>(b_size, "kmol::site_histogram::b_size");
  s.count_start = to_space<Memory>(count_start, "kmol::site_histogram::count_start");
  s.positions = typename State::template Array<Vec3<T>>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("kmol::site_histogram::xyz")),
      std::size_t(n_positions));
  s.host_counts = counts;
  s.on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible;
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(counts,
                                                                               std::size_t(s.size));
  if (s.on_host) {
    s.counts = Kokkos::View<double*, Memory>(host.data(), host.extent(0));
  } else {  // counts start from the host's, so that copying them back adds
    s.counts = Kokkos::View<double*, Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing,
                           std::string("kmol::site_histogram::counts")),
        std::size_t(s.size));
    Kokkos::deep_copy(s.counts, host);
  }
}

template <class ExecSpace, class T>
SiteHistograms<ExecSpace, T>::~SiteHistograms() = default;

template <class ExecSpace, class T>
void SiteHistograms<ExecSpace, T>::add_frame(const Vec3<T>* positions, const BoxSpec& box) {
  State& s = *state_;
  const BoxSpec checked = validated(box);
  // Each pair counts once, at its minimum image: exact only within the inscribed radius.
  if (checked.kind != BoxKind::none && double(s.range.r_max) > inscribed_radius(checked))
    throw UnsupportedError(
        "site histograms: range[1] (r_max) = " + std::to_string(double(s.range.r_max)) +
        " exceeds the box's inscribed radius (" + std::to_string(inscribed_radius(checked)) +
        "), beyond which a pair may have several images in range: count such "
        "frames with kmol.pair_histogram, which sums every image");
  Kokkos::deep_copy(s.space, s.positions,
                    Kokkos::View<const Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        positions, std::size_t(s.n_positions)));
  visit_box<T>(checked, [&](const auto& cell) {
    using Counter = site_histogram_detail::SitePairCounter<typename State::Memory, T,
                                                           std::decay_t<decltype(cell)>>;
    Kokkos::parallel_for("kmol::site_histogram::pairs",
                         Kokkos::RangePolicy<ExecSpace>(s.space, 0, s.pairs),
                         Counter{cell, s.range, s.positions, s.atoms, s.pair_start, s.a_start,
                                 s.b_start, s.b_size, s.count_start, s.counts});
  });
  s.space.fence();
}

template <class ExecSpace, class T>
void SiteHistograms<ExecSpace, T>::finish() {
  State& s = *state_;
  if (s.on_host) return;
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        s.host_counts, std::size_t(s.size)),
                    s.counts);
}

}  // namespace kmol

#define KMOL_INSTANTIATE_SITE_HISTOGRAM(Space)       \
  template class kmol::SiteHistograms<Space, float>; \
  template class kmol::SiteHistograms<Space, double>;
