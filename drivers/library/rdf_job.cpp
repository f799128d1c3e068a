#include "drivers/library/rdf_job.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "drivers/library/exclusion.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

void refuse_bad_range(const RdfSettings& s) {
  const RdfNames& n = s.names;
  if (s.bins <= 0)
    throw InputError({"", n.bins, -1}, "must be positive, not " + std::to_string(s.bins));
  if (s.bins > HistogramRange<double>::max_bins)
    throw InputError({"", n.bins, -1},
                     fmt::format("{} bins: the counts would need about {:.3g} GB, and one "
                                 "histogram holds at most {} bins",
                                 s.bins, 8e-9 * double(s.bins), HistogramRange<double>::max_bins));
  if (!(std::isfinite(s.r_min) && s.r_min >= 0))
    throw InputError({"", n.r_min, -1},
                     fmt::format("must be a finite length >= 0, not {}", s.r_min));
  if (!(std::isfinite(s.r_max) && s.r_max > s.r_min))
    throw InputError({"", n.r_max, -1}, fmt::format("a finite length above {} ({}), not {}",
                                                    n.r_min, s.r_min, s.r_max));
  if (s.gmx && s.r_min != 0) throw InputError({"", n.r_min, -1}, "--gmx bins start at r = 0");
  if (s.norm == RdfNormalization::rdf && !s.periodic)
    throw InputError({"", n.norm, -1}, "rdf normalisation needs the box volume; with " + n.no_pbc +
                                           " use " + n.norm + " density or none");
}

// What each normalisation's g means, for the outputs' headers.
constexpr Named<RdfNormalization> normalisation_meanings[] = {
    {RdfNormalization::rdf, "1 for an ideal gas, with the mean 1/V over frames"},
    {RdfNormalization::density, "number density of the second selection around the first"},
    {RdfNormalization::none, "pairs per frame"}};

std::string normalisation_text(const RdfSettings& s) {
  if (s.gmx) return "gmx rdf's: pairs from both atoms over N_A N_B, excluded pairs included";
  return name_of(normalisation_meanings, s.norm);
}

}  // namespace

RdfJob::RdfJob(RdfSettings settings) : settings_(std::move(settings)) {
  refuse_bad_range(settings_);
  plan_devices(settings_.device, settings_.device_option);
  if (settings_.gmx) {
    settings_.result.unit = "nm";
    settings_.result.unit_per_angstrom = 0.1;
  }
  const PairHistogramSettings counted = count_settings();
  summary_.counts.assign(std::size_t(counted.n_bins), 0);
  summary_.r_min = counted.r_min;
  summary_.r_max = counted.r_max;
  summary_.dimensions = settings_.plane == Plane::none ? 3 : 2;
}

KirkwoodBuff RdfJob::kirkwood_buff() const {
  return kmol::kirkwood_buff(summary_, settings_.names.kb);
}

PairHistogramSettings RdfJob::count_settings() const {
  PairHistogramSettings s;
  s.r_min = settings_.r_min;
  s.r_max = settings_.r_max;
  s.n_bins = settings_.bins;
  s.impl = settings_.impl;
  s.plane = settings_.plane;
  if (settings_.gmx) {
    // gmx's bins are centred on multiples of the width: count in half bins and add pairs of them
    // (the last half bin only reaches -cn's last radius, n w).
    s.n_bins = 2 * settings_.bins;
  }
  return s;
}

template <class T>
PairHistogramResult RdfJob::count(const RdfFrame<T>& frame) const {
  PairHistogramSettings s = count_settings();
  s.box = settings_.periodic ? frame.box : BoxSpec::none();
  return with_space(
      settings_.device, [&](const auto& space) { return pair_histogram(space, frame.input, s); },
      settings_.device_option);
}

template <class T>
RdfPairs RdfJob::check_frame(const RdfFrame<T>& frame) const {
  const RdfPairs pairs = pairs_of(frame.input, settings_.names);
  refuse_unlike(pairs, settings_.periodic && frame.box.kind != BoxKind::none);
  return pairs;
}

template <class T>
void RdfJob::add_counted(const RdfFrame<T>& frame, const RdfPairs& pairs,
                         const PairHistogramResult& counted) {
  const bool periodic = settings_.periodic && frame.box.kind != BoxKind::none;
  add_counts(pairs, periodic, counted.counts,
             periodic ? 1 / box_measure(frame.box, settings_.plane) : 0);
  impl_ = to_string(counted.impl_used);
}

template <class T>
void RdfJob::add_frame(const RdfFrame<T>& frame) {
  const RdfPairs pairs = check_frame(frame);
  add_counted(frame, pairs, count(frame));
}

void RdfJob::add_counts(const RdfPairs& pairs, bool periodic,
                        const std::vector<std::uint64_t>& counts, double inverse_volume) {
  refuse_unlike(pairs, periodic);
  if (counts.size() != summary_.counts.size())
    throw std::logic_error("RdfJob::add_counts: counts of another binning");
  for (std::size_t k = 0; k < counts.size(); ++k) summary_.counts[k] += counts[k];
  summary_.n_a = pairs.n_a;
  summary_.n_b = pairs.n_b;
  summary_.one_set = pairs.one_set;
  summary_.shared_atoms = pairs.shared_atoms;
  summary_.excluded_pairs = pairs.excluded_pairs;
  periodic_ = periodic;
  inverse_volume_sum_ += inverse_volume;
  if (blocks_ >= 0) kept_frames_.push_back({counts, 1, inverse_volume});
  ++summary_.frames;
  summary_.mean_inverse_volume = inverse_volume_sum_ / double(summary_.frames);
}

void RdfJob::set_totals(const RdfPairs& pairs, std::vector<std::uint64_t> counts,
                        std::int64_t frames, double mean_inverse_volume, std::string impl) {
  if (counts.size() != summary_.counts.size())
    throw std::logic_error("RdfJob::set_totals: counts of another binning");
  summary_.counts = std::move(counts);
  summary_.n_a = pairs.n_a;
  summary_.n_b = pairs.n_b;
  summary_.one_set = pairs.one_set;
  summary_.shared_atoms = pairs.shared_atoms;
  summary_.excluded_pairs = pairs.excluded_pairs;
  summary_.frames = frames;
  summary_.mean_inverse_volume = mean_inverse_volume;
  inverse_volume_sum_ = mean_inverse_volume * double(frames);
  periodic_ = settings_.periodic;
  impl_ = std::move(impl);
}

void RdfJob::refuse_unlike(const RdfPairs& pairs, bool periodic) const {
  if (summary_.frames == 0) return;
  const RdfNames& n = settings_.names;
  const std::string frame = "frame " + std::to_string(summary_.frames) + ": ";
  const std::string earlier =
      summary_.frames == 1 ? "frame 0" : "frames 0 to " + std::to_string(summary_.frames - 1);
  const auto refuse = [&](const std::string& field, const std::string& what) {
    throw InputError({"", field, -1}, frame + what);
  };
  if (periodic != periodic_)
    refuse(n.box,
           periodic
               ? "a periodic box, but " + earlier + " had none (" + n.box + "=" + n.none + ")"
               : n.none + ", but " + earlier + " had a periodic box: give every frame its box");
  if (pairs.one_set != summary_.one_set)
    refuse(n.b, pairs.one_set
                    ? n.none + " (one set), but " + earlier + " had two sets"
                    : "a second set, but " + earlier + " had one (" + n.b + "=" + n.none + ")");
  if (pairs.n_a != summary_.n_a || pairs.n_b != summary_.n_b)
    refuse(pairs.n_a != summary_.n_a ? n.a : n.b,
           fmt::format("{} and {} atoms, but {} had {} and {}", pairs.n_a, pairs.n_b, earlier,
                       summary_.n_a, summary_.n_b));
  if (pairs.excluded_pairs != summary_.excluded_pairs)
    refuse(n.molecules, fmt::format("they exclude {} pairs, but those of {} {}",
                                    pairs.excluded_pairs, earlier, summary_.excluded_pairs));
}

Rdf RdfJob::values(RdfNormalization norm) const { return values_of(summary_, norm); }

Rdf RdfJob::values_of(const RdfCountsSummary& counts, RdfNormalization norm) const {
  if (norm == RdfNormalization::rdf && summary_.frames > 0 && !periodic_) {
    const RdfNames& n = settings_.names;
    const std::string measure = settings_.plane == Plane::none
                                    ? "volume"
                                    : "area in the " + to_string(settings_.plane) + " plane";
    throw InputError({"", n.norm, -1},
                     fmt::format("rdf normalisation divides by the box's {}, and the frames have "
                                 "no box ({}={}): give every frame its box, or use {}",
                                 measure, n.box, n.none, n.boxless_norms));
  }
  return settings_.gmx ? gmx_rdf(counts, norm) : normalize_rdf(counts, norm);
}

RdfBlockErrors RdfJob::block_errors(const std::vector<RdfBlock>& base,
                                    std::int64_t requested) const {
  return block_errors(base, requested, settings_.norm);
}

RdfBlockErrors RdfJob::block_errors(const std::vector<RdfBlock>& base, std::int64_t requested,
                                    RdfNormalization norm) const {
  std::vector<RdfBlock> blocks;
  if (requested > 0) {
    blocks = merged_blocks(base, requested);
  } else {
    for (const RdfBlock& b : base)
      if (b.frames == base.front().frames) blocks.push_back(b);
  }
  return rdf_block_errors(
      summary_, blocks, [&](const RdfCountsSummary& s) { return values_of(s, norm); },
      requested > 0 ? 1 : 0);
}

void RdfJob::keep_blocks(std::int64_t requested) {
  const RdfNames& n = settings_.names;
  if (requested < 0 || requested == 1)
    throw InputError({"", n.blocks, -1},
                     fmt::format("{} is no number of blocks: give 2 or more (a standard error "
                                 "needs two), or {}",
                                 requested, n.auto_blocks));
  if (summary_.frames > 0)
    throw InputError({"", n.blocks, -1},
                     fmt::format("blocks are chosen before the first frame, and {} were added "
                                 "(their counts were not kept)",
                                 summary_.frames));
  blocks_ = requested;
}

RdfBlockErrors RdfJob::frame_block_errors(RdfNormalization norm) const {
  const RdfNames& n = settings_.names;
  if (blocks_ < 0)
    throw InputError({"", n.blocks, -1}, "standard errors need blocks of frames: " + n.ask_blocks);
  const auto frames = std::int64_t(kept_frames_.size());
  const std::int64_t least = std::max<std::int64_t>(blocks_, 2);
  if (frames < least)
    throw InputError(
        {"", n.blocks, -1},
        fmt::format("{} blocks need at least {} frames; {} were added",
                    blocks_ == 0 ? n.auto_blocks : std::to_string(blocks_), least, frames));
  return block_errors(kept_frames_, blocks_, norm);
}

void RdfJob::set_plane(Plane plane) {
  if (summary_.frames > 0)
    throw InputError({"", settings_.names.plane, -1},
                     fmt::format("distances in a plane are chosen before the first frame, and {} "
                                 "were counted in {}",
                                 summary_.frames,
                                 settings_.plane == Plane::none
                                     ? std::string("3-D")
                                     : "the " + to_string(settings_.plane) + " plane"));
  settings_.plane = plane;
  summary_.dimensions = plane == Plane::none ? 3 : 2;
}

RdfResult RdfJob::result(RdfNormalization norm) const {
  RdfResult r;
  r.rdf = values(norm);
  r.warning = check_rdf(summary_, r.rdf, settings_.result);
  r.counts = settings_.gmx ? gmx_bin_counts(summary_.counts) : summary_.counts;
  return r;
}

RdfReport RdfJob::report(const RdfResult& result) const {
  RdfReport report;
  report.rdf = result.rdf;
  report.counts = result.counts;
  report.gmx = settings_.gmx;
  if (settings_.gmx) report.cumulative = gmx_cumulative_number(summary_);
  return report;
}

std::vector<std::string> RdfJob::describe() const {
  const RdfSettings& s = settings_;
  return {
      s.gmx ? fmt::format("range: {} bins of {:.6g} nm centred on 0 to {:.6g} nm (gmx rdf's bins)",
                          s.bins, 0.1 * s.r_max / s.bins, 0.1 * s.r_max * (s.bins - 1) / s.bins)
            : fmt::format("range: [{}, {}) Angstrom in {} bins of {:.6g} Angstrom", s.r_min,
                          s.r_max, s.bins, (s.r_max - s.r_min) / s.bins),
      fmt::format("normalisation: {} ({})", to_string(s.norm), normalisation_text(s)),
      fmt::format("boundaries: {}",
                  s.periodic ? "periodic: the minimum image, and beyond the minimum-image radius "
                               "every image within r_max"
                             : "none (plain distances)"),
      fmt::format("distances: {}",
                  s.plane == Plane::none
                      ? "3-D"
                      : "in the " + to_string(s.plane) + " plane (2-D: annuli and the box's area)"),
      fmt::format("precision: {}; implementation {}", to_string(s.precision), impl_)};
}

template <class T>
RdfPairs pairs_of(const PairHistogramInput<T>& input, const RdfNames& names) {
  RdfPairs pairs;
  pairs.n_a = input.n_a;
  pairs.one_set = input.one_set();
  pairs.n_b = pairs.one_set ? 0 : input.n_b;
  if (!pairs.one_set && (input.molecule_a == nullptr) != (input.molecule_b == nullptr))
    throw InputError({"", names.molecules, -1}, "needs labels for both sets, or for neither");
  if (input.molecule_a == nullptr) return pairs;
  const std::vector<std::int32_t> a(input.molecule_a, input.molecule_a + input.n_a);
  std::vector<std::int32_t> b;
  if (!pairs.one_set) b.assign(input.molecule_b, input.molecule_b + input.n_b);
  pairs.excluded_pairs = excluded_pairs(a, b, pairs.one_set);
  refuse_excluding_every_pair(distinct_pairs(pairs.n_a, pairs.n_b, pairs.one_set, 0),
                              pairs.excluded_pairs, names.molecules, "molecule");
  return pairs;
}

template PairHistogramResult RdfJob::count(const RdfFrame<float>&) const;
template PairHistogramResult RdfJob::count(const RdfFrame<double>&) const;
template RdfPairs RdfJob::check_frame(const RdfFrame<float>&) const;
template RdfPairs RdfJob::check_frame(const RdfFrame<double>&) const;
template void RdfJob::add_counted(const RdfFrame<float>&, const RdfPairs&,
                                  const PairHistogramResult&);
template void RdfJob::add_counted(const RdfFrame<double>&, const RdfPairs&,
                                  const PairHistogramResult&);
template void RdfJob::add_frame(const RdfFrame<float>&);
template void RdfJob::add_frame(const RdfFrame<double>&);
template RdfPairs pairs_of(const PairHistogramInput<float>&, const RdfNames&);
template RdfPairs pairs_of(const PairHistogramInput<double>&, const RdfNames&);

}  // namespace kmol
