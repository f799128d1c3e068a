#include "kernels/pair_histogram/periodic_images.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Slack on each face's reach, in fractions of the cell: far above the rounding of single-precision
// coordinates, so an atom left out of a term is provably farther than r_max from its partners.
constexpr double reach_margin = 1e-5;

bool is_zero(const int* n) { return n[0] == 0 && n[1] == 0 && n[2] == 0; }

// One of each pair +-n: the first non-zero component positive.
bool leads_positive(const int* n) {
  for (int i = 0; i < 3; ++i)
    if (n[i] != 0) return n[i] > 0;
  return false;
}

template <class T>
std::vector<Vec3<double>> wrapped(const Vec3<T>* x, std::int64_t n, const Vec3<double>* edge,
                                  const Vec3<double>* reciprocal,
                                  std::vector<Vec3<double>>& fractions) {
  std::vector<Vec3<double>> out(static_cast<std::size_t>(n));
  fractions.resize(std::size_t(n));
  for (std::int64_t i = 0; i < n; ++i) {
    Vec3<double> p = x[i].template cast<double>();
    double f[3];
    for (int k = 0; k < 3; ++k) {
      const double s = dot(reciprocal[k], p);
      const double whole = std::floor(s);
      f[k] = s - whole;
      p = p - whole * edge[k];
    }
    out[std::size_t(i)] = p;
    fractions[std::size_t(i)] = {f[0], f[1], f[2]};
  }
  return out;
}

double component(const Vec3<double>& v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

}  // namespace

bool beyond_minimum_image(const BoxSpec& box, double r_max) {
  return box.kind != BoxKind::none && r_max > inscribed_radius(box);
}

template <class T>
PeriodicImages<T>::PeriodicImages(const PairHistogramJob<T>& whole) : whole_(whole) {
  const BoxSpec& box = whole.box;
  const double v = dot(box.edges[0], cross(box.edges[1], box.edges[2]));
  for (int k = 0; k < 3; ++k) {
    edge_[k] = box.edges[k];
    reciprocal_[k] = (1 / v) * cross(box.edges[(k + 1) % 3], box.edges[(k + 2) % 3]);
    reach_[k] = double(whole.range.r_max) / face_height(box, k) + reach_margin;
    most_[k] = int(std::ceil(reach_[k]));
  }
  wrapped_a_ = wrapped(whole.a, whole.n_a, edge_, reciprocal_, fraction_a_);
  if (!whole.one_set) wrapped_b_ = wrapped(whole.b, whole.n_b, edge_, reciprocal_, fraction_b_);
  for (int p = -most_[0]; p <= most_[0]; ++p)
    for (int q = -most_[1]; q <= most_[1]; ++q)
      for (int r = -most_[2]; r <= most_[2]; ++r) {
        const Translation t{{p, q, r}};
        if (!whole.one_set || is_zero(t.n) || leads_positive(t.n)) terms_.push_back(t);
      }
}

template <class T>
Vec3<double> PeriodicImages<T>::shift(const Translation& t) const {
  return double(t.n[0]) * edge_[0] + double(t.n[1]) * edge_[1] + double(t.n[2]) * edge_[2];
}

// The coordinates a term counts with, so that removing an excluded pair repeats them exactly.
template <class T>
Vec3<T> PeriodicImages<T>::image_of(const Vec3<double>& wrapped, const Translation& t) const {
  return (wrapped + shift(t)).template cast<T>();
}

// Whether atom i of A can lie within r_max of the cell shifted by n (B + n's atoms lie in it).
template <class T>
bool PeriodicImages<T>::a_reaches(std::int64_t i, const Translation& t) const {
  const Vec3<double>& f = fraction_a_[std::size_t(i)];
  for (int k = 0; k < 3; ++k) {
    const double x = component(f, k) - t.n[k];
    if (x < -reach_[k] || x > 1 + reach_[k]) return false;
  }
  return true;
}

// Whether atom j of B, shifted by n, can lie within r_max of the cell (where A's atoms lie).
template <class T>
bool PeriodicImages<T>::b_reaches(std::int64_t j, const Translation& t) const {
  const Vec3<double>& f = (whole_.one_set ? fraction_a_ : fraction_b_)[std::size_t(j)];
  for (int k = 0; k < 3; ++k) {
    const double x = component(f, k) + t.n[k];
    if (x < -reach_[k] || x > 1 + reach_[k]) return false;
  }
  return true;
}

template <class T>
const std::vector<PairHistogramJob<T>>& PeriodicImages<T>::jobs(
    std::int64_t k, std::uint64_t* counts, ImageTermStorage<T>& storage) const {
  const Translation& t = terms_[std::size_t(k)];
  const std::vector<Vec3<double>>& wrapped_b = whole_.one_set ? wrapped_a_ : wrapped_b_;
  storage.a.clear();
  storage.b.clear();
  storage.jobs.clear();
  PairHistogramJob<T> job = whole_;
  job.box = BoxSpec::none();
  job.resident = false;
  job.labels.molecule_a = job.labels.molecule_b = nullptr;
  job.counts = counts;
  if (whole_.one_set && is_zero(t.n)) {
    for (const auto& w : wrapped_a_) storage.a.push_back(w.template cast<T>());
    job.a = job.b = storage.a.data();
    storage.jobs.push_back(job);
    return storage.jobs;
  }
  std::vector<std::int64_t> in_a, in_b;
  for (std::int64_t i = 0; i < whole_.n_a; ++i)
    if (a_reaches(i, t)) in_a.push_back(i);
  for (std::int64_t j = 0; j < whole_.n_b; ++j)
    if (b_reaches(j, t)) in_b.push_back(j);
  if (in_a.empty() || in_b.empty()) return storage.jobs;
  const std::int32_t* species = whole_.labels.species;
  if (species != nullptr) {
    const auto by_species = [species](std::int64_t x, std::int64_t y) {
      return species[x] < species[y];
    };
    std::stable_sort(in_a.begin(), in_a.end(), by_species);
    std::stable_sort(in_b.begin(), in_b.end(), by_species);
  }
  for (auto i : in_a) storage.a.push_back(wrapped_a_[std::size_t(i)].template cast<T>());
  for (auto j : in_b) storage.b.push_back(image_of(wrapped_b[std::size_t(j)], t));
  job.one_set = false;
  if (species == nullptr) {
    job.a = storage.a.data();
    job.n_a = std::int64_t(in_a.size());
    job.b = storage.b.data();
    job.n_b = std::int64_t(in_b.size());
    storage.jobs.push_back(job);
    return storage.jobs;
  }
  // One job per ordered species pair (runs of equal species in both sorted sets), each counting
  // into its species pair's histogram.
  job.labels.species = nullptr;
  job.labels.enabled = nullptr;
  job.n_histograms = 1;
  const std::int32_t n_species = whole_.labels.n_species;
  for (std::size_t a0 = 0, a1 = 0; a0 < in_a.size(); a0 = a1) {
    const std::int32_t s = species[in_a[a0]];
    while (a1 < in_a.size() && species[in_a[a1]] == s) ++a1;
    for (std::size_t b0 = 0, b1 = 0; b0 < in_b.size(); b0 = b1) {
      const std::int32_t u = species[in_b[b0]];
      while (b1 < in_b.size() && species[in_b[b1]] == u) ++b1;
      const std::int32_t h = species_pair_index(s, u, n_species);
      if (whole_.labels.enabled != nullptr && !whole_.labels.enabled[h]) continue;
      job.a = storage.a.data() + a0;
      job.n_a = std::int64_t(a1 - a0);
      job.b = storage.b.data() + b0;
      job.n_b = std::int64_t(b1 - b0);
      job.counts = counts + std::size_t(h) * std::size_t(whole_.range.n_bins);
      storage.jobs.push_back(job);
    }
  }
  return storage.jobs;
}

template <class T>
typename PeriodicImages<T>::Translation PeriodicImages<T>::shortest(std::int64_t i,
                                                                    std::int64_t j) const {
  const std::vector<Vec3<double>>& wrapped_b = whole_.one_set ? wrapped_a_ : wrapped_b_;
  const Vec3<double> d = wrapped_b[std::size_t(j)] - wrapped_a_[std::size_t(i)];
  Translation best{{0, 0, 0}};
  double best_r2 = norm2(d);
  for (int p = -most_[0]; p <= most_[0]; ++p)
    for (int q = -most_[1]; q <= most_[1]; ++q)
      for (int r = -most_[2]; r <= most_[2]; ++r) {
        const Translation t{{p, q, r}};
        const double r2 = norm2(d + shift(t));
        if (r2 < best_r2) {
          best = t;
          best_r2 = r2;
        }
      }
  return best;
}

// Removes pair (i of A, j of B)'s shortest image if its term counted it.
template <class T>
void PeriodicImages<T>::remove_one(std::int64_t i, std::int64_t j, std::uint64_t* counts) const {
  Translation t = shortest(i, j);
  if (whole_.one_set && !is_zero(t.n) && !leads_positive(t.n)) {
    // Its term is -n's, which counts it as (j, i - n).
    std::swap(i, j);
    for (int& c : t.n) c = -c;
  }
  const bool one_set_pair = whole_.one_set && is_zero(t.n);
  if (!one_set_pair && !(a_reaches(i, t) && b_reaches(j, t))) return;
  const std::vector<Vec3<double>>& wrapped_b = whole_.one_set ? wrapped_a_ : wrapped_b_;
  const Vec3<T> a = wrapped_a_[std::size_t(i)].template cast<T>();
  const Vec3<T> b = image_of(wrapped_b[std::size_t(j)], t);
  const std::int32_t bin = whole_.range.bin_of(pair_distance(NoBox<T>{}, a, b));
  if (bin < 0) return;
  std::int32_t h = 0;
  if (whole_.labels.species != nullptr) {
    h = species_pair_index(whole_.labels.species[i], whole_.labels.species[j],
                           whole_.labels.n_species);
    if (whole_.labels.enabled != nullptr && !whole_.labels.enabled[h]) return;
  }
  std::uint64_t& count = counts[std::size_t(h) * std::size_t(whole_.range.n_bins) + bin];
  if (count == 0)
    throw RunFailure("pair histogram: an excluded pair's image was not counted by its term");
  --count;
}

template <class T>
void PeriodicImages<T>::remove_excluded(std::uint64_t* counts) const {
  const std::int32_t* mol_a = whole_.labels.molecule_a;
  const std::int32_t* mol_b = whole_.labels.molecule_b;
  if (mol_a == nullptr) return;
  std::unordered_map<std::int32_t, std::vector<std::int64_t>> members;
  for (std::int64_t i = 0; i < whole_.n_a; ++i) members[mol_a[i]].push_back(i);
  if (whole_.one_set) {
    for (const auto& [molecule, atoms] : members)
      for (std::size_t x = 0; x < atoms.size(); ++x)
        for (std::size_t y = x + 1; y < atoms.size(); ++y) remove_one(atoms[x], atoms[y], counts);
    return;
  }
  for (std::int64_t j = 0; j < whole_.n_b; ++j) {
    const auto found = members.find(mol_b[j]);
    if (found == members.end()) continue;
    for (auto i : found->second) remove_one(i, j, counts);
  }
}

template class PeriodicImages<float>;
template class PeriodicImages<double>;

}  // namespace kmol
