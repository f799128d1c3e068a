// The scattering job (scattering_job.hpp).
#include "drivers/library/scattering_job.hpp"

#include "drivers/library/result_check.hpp"
#include "drivers/library/scattering_waves.hpp"

#include <fmt/core.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/pair_histogram/binning.hpp"
#include "kernels/scattering/debye.hpp"
#include "kernels/scattering/debye_terms.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// An upper bound of the largest pair distance: twice the largest distance from the centroid.
double extent(const std::vector<Vec3<double>>& xyz) {
  Vec3<double> centre{0, 0, 0};
  for (const auto& r : xyz) centre = centre + r;
  centre = (1.0 / double(xyz.size())) * centre;
  double largest = 0;
  for (const auto& r : xyz) largest = std::max(largest, norm2(r - centre));
  return 2 * std::sqrt(largest);
}

// The range: a solute's every pair (its extent, with room for frames that spread), or a periodic
// system's sphere inside the box, in bins of `width`.
DebyeRange range_of(const ScatteringSettings& s, const std::vector<Vec3<double>>& xyz,
                    const BoxSpec& box, double width, const std::string& file) {
  constexpr double bins_limit = std::numeric_limits<std::int32_t>::max();
  DebyeRange range;
  range.width = width;
  double r_max = 0;
  // What set the range, for refusals: the option, or the file's atoms or box.
  ErrorContext cause{"", s.names.r_max, -1};
  std::string what = s.names.r_max;
  if (box.kind == BoxKind::none) {
    r_max = s.r_max;
    if (s.r_max <= 0) {
      const double span = extent(xyz);
      cause = {file, "atoms", -1};
      what = fmt::format("the atoms' span of {:.6g} Angstrom (an atom far from the rest?)", span);
      r_max = 1.1 * span + 2.0;
    }
    range.bins = std::int32_t(std::min<double>(std::ceil(r_max / width), bins_limit));
  } else {
    const double limit = 0.999999 * inscribed_radius(box);
    if (s.r_max > limit)
      throw InputError({"", s.names.r_max, -1},
                       fmt::format("{} Angstrom exceeds the radius of the largest sphere inside "
                                   "the box ({:.6g} Angstrom), the limit of the minimum image",
                                   s.r_max, limit));
    if (s.r_max <= 0) {
      cause = {file, "box", -1};
      what = fmt::format("the box's inscribed radius of {:.6g} Angstrom", limit);
    }
    r_max = s.r_max > 0 ? s.r_max : limit;
    range.bins = std::int32_t(std::min<double>(std::floor(r_max / width), bins_limit));
  }
  if (double(range.bins) > HistogramRange<double>::max_bins)
    throw InputError(
        cause, fmt::format("{} Angstrom bins to {:.6g} Angstrom ({}) make {:.0f} "
                           "bins, beyond the {} a histogram holds: raise {} or {}",
                           width, r_max, what, std::ceil(r_max / width),
                           HistogramRange<double>::max_bins, s.names.bin_width, s.names.accuracy));
  if (range.bins < 2)
    throw InputError(cause, fmt::format("{} Angstrom ({}) holds fewer than 2 bins of {} Angstrom "
                                        "({})",
                                        r_max, what, width, s.names.bin_width));
  range.r_max = range.bins * width;
  return range;
}

// The integral of 4 pi r^2 sinc(q r) L(r) over [0, R]: the uniform density the periodic transform
// subtracts, by Simpson's rule on 4096 intervals (its error is far below the bins').
double uniform_integral(double q, double r_window) {
  constexpr int n = 4096;
  const double h = r_window / n;
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double r = i * h;
    const double f = 4 * M_PI * r * r * sinc(q * r) * lorch_window(r, r_window);
    sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  return sum * h / 3;
}

std::string pair_name(const ScatteringTypes& types, std::int32_t p) {
  for (std::int32_t a = 0, k = 0; a < types.size(); ++a)
    for (std::int32_t b = a; b < types.size(); ++b, ++k)
      if (k == p) return types.names[a] + "-" + types.names[b];
  return "";
}

// xyz in `order`'s order.
std::vector<Vec3<double>> reordered(const std::vector<Vec3<double>>& xyz, const TypeOrder& order) {
  std::vector<Vec3<double>> out(order.atoms.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = xyz[std::size_t(order.atoms[k])];
  return out;
}

}  // namespace

TypeOrder type_order(const std::vector<std::int32_t>& labels) {
  TypeOrder order;
  order.atoms.resize(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) order.atoms[i] = std::int64_t(i);
  std::stable_sort(order.atoms.begin(), order.atoms.end(), [&](std::int64_t a, std::int64_t b) {
    return labels[std::size_t(a)] < labels[std::size_t(b)];
  });
  order.labels.reserve(labels.size());
  for (auto i : order.atoms) order.labels.push_back(labels[std::size_t(i)]);
  return order;
}

ScatteringJob::ScatteringJob(ScatteringSettings settings, const AtomIdentity& atoms,
                             const std::vector<std::string>& element_overrides,
                             const std::vector<Vec3<double>>& first_xyz, const BoxSpec& box,
                             ScatteringImpl impl)
    : settings_(std::move(settings)),
      system_(box.kind == BoxKind::none ? ScatteringSystem::vacuum : ScatteringSystem::periodic),
      impl_(impl) {
  check_settings(settings_);
  if (impl_ == ScatteringImpl::waves && system_ != ScatteringSystem::periodic)
    throw InputError({"", "--method", -1},
                     "direct sums over the box's wave vectors: it needs a periodic box (no "
                     "--no-pbc)");
  if (first_xyz.size() < 2)
    throw InputError({atoms.source, "atoms", -1}, "scattering needs at least 2 atoms");
  types_ = scattering_types(atoms, element_overrides, first_xyz, settings_);
  order_ = type_order(types_.of_atom);
  q_ = q_values(settings_);
  weights_ = type_weights(types_, settings_, q_);
  const std::string& file = atoms.coordinates.empty() ? atoms.source : atoms.coordinates;
  range_ =
      range_of(settings_, first_xyz, validated(box, file), histogram_bin_width(settings_), file);
  tables_ = std::make_shared<const DebyeTables>(debye_tables(q_, range_, system_));
  counts_.assign(std::size_t(types_.pairs()) * std::size_t(range_.bins), 0.0);
  atoms_sum_.assign(std::size_t(types_.size()), 0.0);
  direct_sum_.assign(q_.size(), 0.0);
}

ScatteringJob::ScatteringJob(ScatteringSettings settings, ScatteringTypes types, double r_max)
    : settings_(std::move(settings)),
      types_(std::move(types)),
      system_(ScatteringSystem::vacuum),
      impl_(ScatteringImpl::histogram) {
  check_settings(settings_);
  q_ = q_values(settings_);
  weights_ = type_weights(types_, settings_, q_);
  settings_.r_max = r_max;
  range_ = range_of(settings_, {}, BoxSpec::none(), histogram_bin_width(settings_), "");
  tables_ = std::make_shared<const DebyeTables>(debye_tables(q_, range_, system_));
  counts_.assign(std::size_t(types_.pairs()) * std::size_t(range_.bins), 0.0);
  atoms_sum_.assign(std::size_t(types_.size()), 0.0);
  direct_sum_.assign(q_.size(), 0.0);
}

template <class ExecSpace>
void ScatteringJob::add_subset(const ExecSpace& space, const std::vector<Vec3<double>>& xyz,
                               const std::vector<std::int32_t>& labels) {
  std::vector<double> atoms(std::size_t(types_.size()), 0.0);
  for (auto t : labels) atoms[std::size_t(t)] += 1;
  const std::uint64_t n = std::uint64_t(xyz.size());
  if (n < 2) {  // no pair: the self term alone
    add_block(std::vector<std::uint64_t>(counts_.size(), 0), 1, 0, atoms, 0);
    return;
  }
  const TypeOrder order = type_order(labels);
  const auto sorted = reordered(xyz, order);
  PairHistogramInput<double> input = one_set(sorted.data(), std::int64_t(sorted.size()));
  input.species = order.labels.data();
  const auto counted = pair_histogram(space, input, count_settings(BoxSpec::none()));
  add_block(counted.counts, 1, 0, atoms, n * (n - 1) / 2);
}

PairHistogramSettings ScatteringJob::count_settings(const BoxSpec& box) const {
  PairHistogramSettings s;
  s.box = box;
  s.r_min = 0;
  s.r_max = range_.r_max;
  s.n_bins = range_.bins;
  s.n_species = types_.size();
  return s;
}

void ScatteringJob::add_counts(const std::vector<std::uint64_t>& counts, std::int64_t frames,
                               double inverse_volume_sum) {
  if (frames <= 0) return;
  std::vector<double> atoms(types_.atoms.begin(), types_.atoms.end());
  for (auto& n : atoms) n *= double(frames);
  const std::uint64_t n = std::uint64_t(types_.of_atom.size());
  add_block(counts, frames, inverse_volume_sum, atoms, std::uint64_t(frames) * (n * (n - 1) / 2));
}

void ScatteringJob::add_block(const std::vector<std::uint64_t>& counts, std::int64_t frames,
                              double inverse_volume_sum, const std::vector<double>& atoms_sum,
                              std::uint64_t pairs) {
  if (counts.size() != counts_.size())
    throw InputError({"", "counts", -1},
                     fmt::format("expected {} type pairs x {} bins = {} counts, got {}",
                                 types_.pairs(), range_.bins, counts_.size(), counts.size()));
  std::vector<double> block(counts.size());
  std::uint64_t counted = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    block[i] = double(counts[i]);
    counts_[i] += block[i];
    counted += counts[i];
  }
  if (system_ == ScatteringSystem::vacuum && pairs > counted) pairs_outside_ += pairs - counted;
  std::vector<double> atoms_mean(atoms_sum.size());
  for (std::size_t t = 0; t < atoms_sum.size(); ++t) {
    atoms_sum_[t] += atoms_sum[t];
    atoms_mean[t] = atoms_sum[t] / double(frames);
  }
  frames_ += frames;
  inverse_volume_sum_ += inverse_volume_sum;
  block_intensity_.push_back(
      intensity_of(block, frames, inverse_volume_sum / double(frames), tables_->fine, atoms_mean));
  block_frames_.push_back(frames);
}

std::vector<double> ScatteringJob::intensity_of(const std::vector<double>& counts,
                                                std::int64_t frames, double mean_inverse_volume,
                                                const DebyeKernel& kernel,
                                                const std::vector<double>& atoms) const {
  const PartialCounts partial{counts, frames, mean_inverse_volume};
  const auto sums = pair_sums(types_, kernel, range_, partial, system_);
  return combine(types_, weights_, std::int32_t(q_.size()), sums, system_, atoms).total;
}

std::vector<double> ScatteringJob::direct_intensity(const std::vector<double>& pair_sum,
                                                    double inverse_volume) const {
  const std::size_t n_q = q_.size();
  double n_atoms = 0;
  for (auto n : types_.atoms) n_atoms += double(n);
  std::vector<double> out(n_q, 0.0);
  for (std::size_t k = 0; k < n_q; ++k) {
    double self = 0, uniform = 0;
    for (std::int32_t a = 0; a < types_.size(); ++a) {
      const double wa = weights_[std::size_t(a) * n_q + k];
      self += double(types_.atoms[a]) * wa * wa;
      if (system_ != ScatteringSystem::periodic) continue;
      for (std::int32_t b = a; b < types_.size(); ++b) {
        const double na = double(types_.atoms[a]), nb = double(types_.atoms[b]);
        const double pairs = a == b ? na * (na - 1) / 2 : na * nb;
        uniform += weights_[std::size_t(b) * n_q + k] * wa * pairs;
      }
    }
    const double subtract = system_ == ScatteringSystem::periodic
                                ? uniform * inverse_volume * uniform_integral(q_[k], range_.r_max)
                                : 0.0;
    const double total = self + 2 * (pair_sum[k] - subtract);
    out[k] = system_ == ScatteringSystem::periodic ? total / n_atoms : total;
  }
  return out;
}

template <class ExecSpace>
void ScatteringJob::add_frame(const ExecSpace& space, const std::vector<Vec3<double>>& xyz,
                              const BoxSpec& box) {
  if (xyz.size() != types_.of_atom.size())
    throw InputError({"", "atoms", -1}, fmt::format("a frame of {} atoms; the job has {}",
                                                    xyz.size(), types_.of_atom.size()));
  const bool periodic = system_ == ScatteringSystem::periodic;
  if (periodic && box.kind == BoxKind::none)
    throw InputError({"", "box", -1}, "a frame without a box in a periodic job");
  const BoxSpec frame_box = periodic ? validated(box) : BoxSpec::none();
  const double inverse_volume = periodic ? 1.0 / volume(frame_box) : 0.0;
  if (impl_ == ScatteringImpl::histogram) {
    const auto sorted = reordered(xyz, order_);
    PairHistogramInput<double> input = one_set(sorted.data(), std::int64_t(sorted.size()));
    input.species = order_.labels.data();
    const auto counted = pair_histogram(space, input, count_settings(frame_box));
    add_counts(counted.counts, 1, inverse_volume);
    return;
  }
  const DebyeAtoms atoms{xyz.data(), types_.of_atom.data(), std::int64_t(xyz.size()),
                         weights_.data(), types_.size()};
  if (impl_ == ScatteringImpl::waves) {
    const double step = q_.size() > 1 ? q_[1] - q_[0] : 1.0;
    const BoxWaves waves = box_waves(frame_box, q_, 0.5 * step, settings_.names.q_min);
    const auto power = wave_sum(space, atoms, waves.k, waves.bin, std::int32_t(q_.size()));
    std::vector<double> intensity(q_.size(), 0.0);
    for (std::size_t i = 0; i < power.size(); ++i) intensity[std::size_t(waves.bin[i])] += power[i];
    for (std::size_t k = 0; k < q_.size(); ++k)
      intensity[k] /= double(waves.count[k]) * double(xyz.size());
    add_direct_block(intensity, inverse_volume);
    return;
  }
  const double cut = periodic ? range_.r_max : std::numeric_limits<double>::infinity();
  const auto pair_sum = debye_pair_sum(space, atoms, q_, frame_box, cut, periodic ? cut : 0.0);
  add_direct_block(direct_intensity(pair_sum, inverse_volume), inverse_volume);
}

void ScatteringJob::add_direct_block(const std::vector<double>& intensity, double inverse_volume) {
  for (std::size_t k = 0; k < q_.size(); ++k) direct_sum_[k] += intensity[k];
  frames_ += 1;
  inverse_volume_sum_ += inverse_volume;
  block_intensity_.push_back(intensity);
  block_frames_.push_back(1);
}

ScatteringResult ScatteringJob::result() const {
  if (frames_ == 0) throw InputError({"", "frames", -1}, "no frame was added");
  if (pairs_outside_ > 0)
    throw InputError(
        {"", settings_.names.r_max, -1},
        fmt::format("{} pairs lay beyond {:.6g} Angstrom (a frame wider than the first): set {} "
                    "to the solute's largest extent",
                    pairs_outside_, range_.r_max, settings_.names.r_max));
  ScatteringResult out;
  out.q = q_;
  out.frames = frames_;
  out.blocks = std::int64_t(block_intensity_.size());
  const std::int32_t n_q = std::int32_t(q_.size());
  const double mean_inverse_volume = inverse_volume_sum_ / double(frames_);
  if (impl_ == ScatteringImpl::histogram) {
    const PartialCounts partial{counts_, frames_, mean_inverse_volume};
    const auto sums = pair_sums(types_, tables_->fine, range_, partial, system_);
    std::vector<double> atoms_mean(atoms_sum_.size());
    for (std::size_t t = 0; t < atoms_mean.size(); ++t)
      atoms_mean[t] = atoms_sum_[t] / double(frames_);
    Intensity intensity = combine(types_, weights_, n_q, sums, system_, atoms_mean);
    out.intensity = intensity.total;
    out.partial = std::move(intensity.partial);
    for (std::int32_t p = 0; p < types_.pairs(); ++p)
      out.pair_names.push_back(pair_name(types_, p));
    if (system_ == ScatteringSystem::periodic)
      out.structure = structure_factors(types_, weights_, n_q, sums, out.intensity);
    // The error's estimate: the change from doubling the bins' width (three times the
    // systematic error of a second-order rule) plus three standard deviations of the random part.
    const auto coarse =
        intensity_of(counts_, frames_, mean_inverse_volume, tables_->coarse, atoms_mean);
    const auto variance =
        binning_variance(types_, weights_, q_, range_, *tables_, partial, system_);
    out.error.resize(q_.size());
    double envelope = 0;
    for (std::size_t k = 0; k < q_.size(); ++k) {
      out.error[k] = std::abs(coarse[k] - out.intensity[k]) + 3 * std::sqrt(variance[k]);
      envelope = std::max(envelope, out.error[k] / std::max(std::abs(out.intensity[k]), 1e-300));
    }
    out.max_relative_error = envelope;
  } else {
    out.intensity.resize(q_.size());
    for (std::size_t k = 0; k < q_.size(); ++k) out.intensity[k] = direct_sum_[k] / double(frames_);
    out.error.assign(q_.size(), 0.0);
    if (system_ == ScatteringSystem::periodic)
      out.structure.total =
          structure_factors(types_, weights_, n_q,
                            std::vector<double>(types_.pairs() * q_.size(), 0.0), out.intensity)
              .total;
  }
  out.sigma = block_mean(block_intensity_, q_.size()).sigma;
  if (system_ == ScatteringSystem::vacuum) out.guinier = guinier_fit(out.q, out.intensity);
  check_finite(out.intensity, "I(q)");
  check_finite(out.sigma, "sigma");
  check_finite(out.partial, "partial I(q)");
  return out;
}

std::vector<std::string> ScatteringJob::describe(const ScatteringResult& r) const {
  std::vector<std::string> lines;
  const bool xray = settings_.probe == Probe::xray;
  lines.push_back(fmt::format(
      "probe: {} ({}){}", to_string(settings_.probe),
      xray ? "IT92 form factors, electrons" : "Sears 1992 coherent lengths, fm",
      xray ? "" : fmt::format(", D2O fraction {} for exchangeable hydrogens", settings_.d2o)));
  std::string types;
  for (std::int32_t t = 0; t < types_.size(); ++t)
    types += fmt::format("{}{} {}", t ? ", " : "", types_.atoms[t], types_.names[t]);
  lines.push_back("types: " + types);
  lines.push_back(fmt::format("system: {}", system_ == ScatteringSystem::vacuum
                                                ? "solute in vacuum (every pair)"
                                                : "periodic (Lorch window over the sphere in the "
                                                  "box; I(q) per atom)"));
  lines.push_back(fmt::format("q: {} points from {} to {} 1/Angstrom (q = 4 pi sin(theta)/lambda)",
                              q_.size(), settings_.q_min, settings_.q_max));
  lines.push_back(fmt::format("histogram: {} bins of {:.6g} Angstrom to {:.6g} Angstrom",
                              range_.bins, range_.width, range_.r_max));
  lines.push_back(impl_ == ScatteringImpl::histogram
                      ? fmt::format("discretisation error: at most {:.3g} of I(q) (estimate)",
                                    r.max_relative_error)
                  : impl_ == ScatteringImpl::direct
                      ? "discretisation error: none (direct Debye sum)"
                      : "method: direct, |A(k)|^2 over the box's wave vectors within half a q "
                        "step of each q");
  lines.push_back(
      fmt::format("frames: {} in {} blocks (sigma from their spread)", r.frames, r.blocks));
  lines.push_back(fmt::format("implementation: {}", impl_ == ScatteringImpl::histogram ? "histogram"
                                                    : impl_ == ScatteringImpl::direct  ? "direct"
                                                                                       : "waves"));
  return lines;
}

template void ScatteringJob::add_frame(const Kokkos::DefaultHostExecutionSpace&,
                                       const std::vector<Vec3<double>>&, const BoxSpec&);
template void ScatteringJob::add_subset(const Kokkos::DefaultHostExecutionSpace&,
                                        const std::vector<Vec3<double>>&,
                                        const std::vector<std::int32_t>&);
#ifdef KOKKOS_ENABLE_CUDA
template void ScatteringJob::add_frame(const Kokkos::Cuda&, const std::vector<Vec3<double>>&,
                                       const BoxSpec&);
template void ScatteringJob::add_subset(const Kokkos::Cuda&, const std::vector<Vec3<double>>&,
                                        const std::vector<std::int32_t>&);
#endif

}  // namespace kmol
