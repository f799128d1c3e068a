// A solute in solution: its observation volumes and excess intensity (scattering_solution.hpp).
#include "drivers/library/scattering_solution.hpp"

#include "drivers/library/result_check.hpp"

#include <fmt/core.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <set>

#include "kernels/scattering/debye_terms.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

// Room the default sphere leaves about the solute: the solvation shell and a layer of bulk.
constexpr double default_sphere_margin = 10.0;

// The grid on which a shell's uniform solvent is integrated: each point stands for its cube of
// V. Its spacing h keeps q h <= 1 up to q_max (1 Angstrom at most), where a midpoint rule errs
// by about (q h)^2 / 24 of the cross terms, and at most half the thickness, so that every atom's
// ball holds points; both runs cut by one shape share its points, so the grid's error in the
// shape's own term cancels.
double shell_point_spacing(double q_max, double thickness) {
  return std::min({1.0, 1.0 / q_max, 0.5 * thickness});
}

std::vector<Vec3<double>> shape_offsets(const std::vector<Vec3<float>>& shape) {
  std::vector<Vec3<double>> offsets;
  offsets.reserve(shape.size());
  for (const auto& p : shape) offsets.push_back({p.x, p.y, p.z});
  return offsets;
}

// sum_k h[k] sinc(q r_k) per q of the pairs `input` holds, counted in the job's bins on `space`.
template <class ExecSpace>
std::vector<double> debye_sums(const ExecSpace& space, const PairHistogramInput<double>& input,
                               const ScatteringJob& job) {
  PairHistogramSettings s;
  s.r_min = 0;
  s.r_max = job.range().r_max;
  s.n_bins = job.range().bins;
  const auto counts = pair_histogram(space, input, s).counts;
  const DebyeKernel& kernel = job.tables().fine;
  const std::size_t bins = std::size_t(kernel.bins), n_q = job.q().size();
  std::vector<double> out(n_q, 0.0);
  for (std::size_t k = 0; k < n_q; ++k)
    for (std::size_t m = 0; m < bins; ++m)
      out[k] += double(counts[m]) * kernel.values[k * bins + m];
  return out;
}

double largest_norm(const std::vector<Vec3<double>>& points) {
  double largest = 0;
  for (const auto& p : points) largest = std::max(largest, norm2(p));
  return std::sqrt(largest);
}

// Refuses a frame of another size than its run's first.
void check_atoms(std::size_t atoms, std::size_t first, const std::string& file, const char* run) {
  if (atoms != first)
    throw InputError({file, "atoms", -1},
                     fmt::format("a {} frame of {} atoms; the first had {}", run, atoms, first));
}

Vec3<double> box_centre(const BoxSpec& box) {
  return 0.5 * (box.edges[0] + box.edges[1] + box.edges[2]);
}

// The share of each type among the solution's atoms outside the solute, and among the solvent's.
std::string shares(const ScatteringTypes& types, const std::vector<double>& count) {
  double total = 0;
  for (auto n : count) total += n;
  std::string out;
  for (std::size_t t = 0; t < count.size(); ++t)
    if (count[t] > 0)
      out += fmt::format("{}{:.1f}% {}", out.empty() ? "" : ", ", 100 * count[t] / total,
                         types.names[t]);
  return out;
}

// Refuses a solvent of the same elements in other proportions (another mixture, a topology that
// drops atoms): a type's share of the atoms may differ by 2 percentage points at most, far more
// than the counter-ions that neutralise a solute shift it.
constexpr double share_tolerance = 0.02;

void check_proportions(const ScatteringTypes& solution, const std::vector<char>& in_solute,
                       const std::vector<std::int32_t>& solvent_labels, const std::string& file,
                       const SolutionNames& names) {
  std::vector<double> outside(std::size_t(solution.size()), 0.0), pure = outside;
  double n_outside = 0;
  for (std::size_t i = 0; i < solution.of_atom.size(); ++i)
    if (!in_solute[i]) outside[std::size_t(solution.of_atom[i])] += 1, n_outside += 1;
  for (auto t : solvent_labels) pure[std::size_t(t)] += 1;
  const double n_pure = double(solvent_labels.size());
  for (std::size_t t = 0; t < pure.size(); ++t)
    if (std::abs(outside[t] / n_outside - pure[t] / n_pure) > share_tolerance)
      throw InputError(
          {file, names.solvent, -1},
          fmt::format("is not the solution's solvent: its atoms are {}; the "
                      "solution's atoms outside {} are {}",
                      shares(solution, pure), names.solute, shares(solution, outside)));
}

}  // namespace

void check_volume_fits(double reach, const BoxSpec& box, const std::string& option,
                       const std::string& file, const std::string& what) {
  const double limit = inscribed_radius(box);
  if (reach > limit)
    throw InputError({file, option, -1},
                     fmt::format("{} does not fit in the box (the largest sphere inside has radius "
                                 "{:.6g} Angstrom)",
                                 what, limit));
}

std::vector<std::int32_t> solvent_labels(const ScatteringTypes& solution,
                                         const std::vector<char>& in_solute,
                                         const ScatteringTypes& solvent,
                                         const std::string& solvent_file,
                                         const SolutionNames& names) {
  std::set<std::string> of_solution, of_solvent(solvent.names.begin(), solvent.names.end());
  for (std::size_t i = 0; i < solution.of_atom.size(); ++i)
    if (!in_solute[i]) of_solution.insert(solution.names[std::size_t(solution.of_atom[i])]);
  std::string missing, extra;
  for (const auto& t : of_solvent)
    if (!of_solution.count(t)) extra += (extra.empty() ? "" : ", ") + t;
  for (const auto& t : of_solution)
    if (!of_solvent.count(t)) missing += (missing.empty() ? "" : ", ") + t;
  if (!extra.empty() || !missing.empty())
    throw InputError(
        {solvent_file, names.solvent, -1},
        fmt::format("is not the solution's solvent: {}{}{}", extra.empty() ? "" : "it has " + extra,
                    !extra.empty() && !missing.empty() ? "; " : "",
                    missing.empty() ? ""
                                    : "the solution's atoms outside " + names.solute + " have " +
                                          missing + ", which it lacks"));
  std::vector<std::int32_t> labels;
  labels.reserve(solvent.of_atom.size());
  for (auto t : solvent.of_atom) {
    const std::string& name = solvent.names[std::size_t(t)];
    std::int32_t index = 0;
    while (solution.names[std::size_t(index)] != name) ++index;
    labels.push_back(index);
  }
  check_proportions(solution, in_solute, labels, solvent_file, names);
  return labels;
}

double ball_amplitude(double x) {
  if (std::abs(x) < 1e-3) return 1 - x * x / 10;
  return 3 * (std::sin(x) - x * std::cos(x)) / (x * x * x);
}

std::vector<double> mean_amplitude(const VolumeAtoms& atoms, const std::vector<double>& weights,
                                   const std::vector<double>& q) {
  const std::size_t n_q = q.size();
  std::vector<double> out(n_q, 0.0);
  for (std::size_t j = 0; j < atoms.xyz.size(); ++j) {
    const double r = std::sqrt(norm2(atoms.xyz[j]));
    const double* w = &weights[std::size_t(atoms.labels[j]) * n_q];
    for (std::size_t k = 0; k < n_q; ++k) out[k] += w[k] * sinc(q[k] * r);
  }
  return out;
}

BlockMean relative_to_uniform(const std::vector<std::vector<double>>& intensities,
                              const std::vector<UniformTerms>& uniform,
                              const std::vector<double>& density) {
  std::vector<std::vector<double>> frames(intensities.size());
  for (std::size_t f = 0; f < frames.size(); ++f)
    for (std::size_t k = 0; k < density.size(); ++k)
      frames[f].push_back(intensities[f][k] - 2 * density[k] * uniform[f].cross[k] +
                          density[k] * density[k] * uniform[f].self[k]);
  return block_mean(frames, density.size());
}

UniformTerms sphere_terms(const VolumeAtoms& atoms, double radius,
                          const std::vector<double>& weights, const std::vector<double>& q) {
  UniformTerms out;
  out.volume = 4.0 / 3.0 * M_PI * radius * radius * radius;
  out.cross = mean_amplitude(atoms, weights, q);
  out.self.resize(q.size());
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double ball = out.volume * ball_amplitude(q[k] * radius);
    out.cross[k] *= ball;
    out.self[k] = ball * ball;
  }
  return out;
}

std::vector<Vec3<double>> shell_points(const ShellVolume& shell, double spacing) {
  const auto n = std::int32_t(std::ceil(shell.reach() / spacing));
  std::vector<Vec3<double>> points;
  for (std::int32_t k = -n; k <= n; ++k)
    for (std::int32_t j = -n; j <= n; ++j)
      for (std::int32_t i = -n; i <= n; ++i) {
        const Vec3<double> p{i * spacing, j * spacing, k * spacing};
        if (shell.contains(p)) points.push_back(p);
      }
  return points;
}

ScatteringResult excess_intensity(const ScatteringResult& solution, const ScatteringResult& solvent,
                                  const BlockMean& a, const BlockMean& b) {
  ScatteringResult out = solution;
  out.partial.clear();
  out.pair_names.clear();
  for (std::size_t k = 0; k < out.q.size(); ++k) {
    out.intensity[k] = a.mean[k] - b.mean[k];
    out.sigma[k] = std::sqrt(a.sigma[k] * a.sigma[k] + b.sigma[k] * b.sigma[k]);
    out.error[k] = solution.error[k] + solvent.error[k];
  }
  // Relative to the excess at the lowest q: Delta I crosses zero, a pointwise ratio would not
  // say how good the curve is.
  const double scale = std::max(std::abs(out.intensity[0]), 1e-300);
  out.max_relative_error = 0;
  for (double e : out.error) out.max_relative_error = std::max(out.max_relative_error, e / scale);
  check_finite(out.intensity, "excess I(q)");
  out.guinier = guinier_fit(out.q, out.intensity);
  return out;
}

SolutionScattering::SolutionScattering(ScatteringSettings settings, ObservationVolume volume,
                                       SolutionNames names)
    : settings_(std::move(settings)), volume_(volume), names_(std::move(names)) {
  check_settings(settings_);
  const bool shell = volume_.shape == VolumeShape::shell;
  if (!std::isfinite(volume_.size) || volume_.size < 0 || (shell && volume_.size == 0))
    throw InputError({"", shell ? names_.shell : names_.radius, -1},
                     fmt::format("the {} must be a positive length in Angstrom, got {}",
                                 shell ? "shell's thickness" : "sphere's radius", volume_.size));
}

BoxSpec SolutionScattering::checked_box(const BoxSpec& box, const std::string& file) const {
  if (box.kind == BoxKind::none)
    throw InputError({file, "box", -1}, "a solution and its solvent need periodic boxes");
  return validated(box);
}

void SolutionScattering::start_solution(const AtomIdentity& atoms,
                                        const std::vector<std::string>& overrides,
                                        const std::vector<std::int64_t>& solute,
                                        const std::vector<Vec3<double>>& first_xyz,
                                        const BoxSpec& box_in) {
  const BoxSpec box = checked_box(box_in, names_.solution_file);
  if (solute.empty()) throw InputError({"", names_.solute, -1}, "selects no atom");
  for (auto i : solute)
    if (i < 0 || i >= std::int64_t(first_xyz.size()))
      throw InputError(
          {"", names_.solute, -1},
          fmt::format("atom {} is not among the solution's {} atoms", i, first_xyz.size()));
  solute_ = solute;
  const ScatteringTypes types = scattering_types(atoms, overrides, first_xyz, settings_);
  solution_labels_ = types.of_atom;
  in_solute_.assign(first_xyz.size(), 0);
  for (auto i : solute_) in_solute_[std::size_t(i)] = 1;
  Vec3<double> centre;
  const double extent = largest_norm(solute_offsets(first_xyz, solute_, box, centre));
  const std::string file = names_.solution_file;
  if (volume_.shape == VolumeShape::sphere) {
    if (volume_.size == 0) volume_.size = extent + default_sphere_margin;
    check_sphere_holds_solute(extent, 0);
    first_reach_ = half_range_ = volume_.size;
    check_volume_fits(
        volume_.size, box, names_.radius, file,
        fmt::format("the observation sphere of radius {:.6g} Angstrom", volume_.size));
  } else {
    first_reach_ = extent + volume_.size;
    check_volume_fits(first_reach_, box, names_.shell, file,
                      fmt::format("the solute with its shell of {:.6g} Angstrom (reaching {:.6g} "
                                  "Angstrom from the solute's centre in frame 0)",
                                  volume_.size, first_reach_));
    // Frames may spread the solute; each is checked against its box and this reach.
    half_range_ = 1.05 * inscribed_radius(box);
  }
  const double reach = 2 * half_range_ + 1;
  solution_ = std::make_unique<ScatteringJob>(settings_, types, reach);
  solvent_ = std::make_unique<ScatteringJob>(settings_, types, reach);
}

void SolutionScattering::start_solvent(const AtomIdentity& atoms,
                                       const std::vector<std::string>& overrides,
                                       const std::vector<Vec3<double>>& first_xyz,
                                       const BoxSpec& box_in) {
  if (!solution_)
    throw InputError({names_.solvent_file, names_.solvent, -1},
                     "the solution's first frame comes first: it sets the scattering types");
  const BoxSpec box = checked_box(box_in, names_.solvent_file);
  const ScatteringTypes types = scattering_types(atoms, overrides, first_xyz, settings_);
  solvent_labels_ =
      solvent_labels(solution_->types(), in_solute_, types, names_.solvent_file, names_);
  const bool sphere = volume_.shape == VolumeShape::sphere;
  check_volume_fits(
      first_reach_, box, sphere ? names_.radius : names_.shell, names_.solvent_file,
      sphere ? fmt::format("the observation sphere of radius {:.6g} Angstrom", volume_.size)
             : fmt::format("the solute's shape with its shell of {:.6g} Angstrom "
                           "(reaching {:.6g} Angstrom from its centre)",
                           volume_.size, first_reach_));
  solvent_started_ = true;
}

const ScatteringJob& SolutionScattering::solution_job() const {
  if (!solution_) throw InputError({"", "frames", -1}, "no solution frame was added");
  return *solution_;
}

const VolumeAtoms& SolutionScattering::solution_volume(const std::vector<Vec3<double>>& xyz,
                                                       const BoxSpec& box) {
  Vec3<double> centre;
  const auto offsets = solute_offsets(xyz, solute_, box, centre);
  if (volume_.shape == VolumeShape::sphere) {
    check_sphere_holds_solute(largest_norm(offsets), solution_frames_);
    check_volume_fits(volume_.size, box, names_.radius, names_.solution_file,
                      fmt::format("the observation sphere of radius {:.6g} Angstrom (frame {})",
                                  volume_.size, solution_frames_));
    atoms_in_sphere(xyz, solution_labels_, box, centre, volume_.size, inside_);
    return inside_;
  }
  std::vector<Vec3<float>> shape;
  shape.reserve(offsets.size());
  for (const auto& p : offsets) shape.push_back({float(p.x), float(p.y), float(p.z)});
  shapes_.push_back(std::move(shape));
  frame_shell_ = std::make_unique<ShellVolume>(shape_offsets(shapes_.back()), volume_.size);
  const ShellVolume& shell = *frame_shell_;
  check_volume_fits(
      shell.reach(), box, names_.shell, names_.solution_file,
      fmt::format("the solute with its shell of {:.6g} Angstrom (reaching {:.6g} Angstrom from "
                  "the solute's centre in frame {})",
                  volume_.size, shell.reach(), solution_frames_));
  if (shell.reach() > half_range_)
    throw InputError(
        {names_.solution_file, names_.shell, -1},
        fmt::format("the solute with its shell reaches {:.6g} Angstrom from its centre in frame "
                    "{}, beyond the {:.6g} Angstrom the first frame's box allowed for",
                    shell.reach(), solution_frames_, half_range_));
  atoms_in_shell(xyz, solution_labels_, box, centre, shell, inside_);
  return inside_;
}

const VolumeAtoms& SolutionScattering::solvent_volume(const std::vector<Vec3<double>>& xyz,
                                                      const BoxSpec& box) {
  if (volume_.shape == VolumeShape::sphere) {
    check_volume_fits(volume_.size, box, names_.radius, names_.solvent_file,
                      fmt::format("the observation sphere of radius {:.6g} Angstrom (solvent "
                                  "frame {})",
                                  volume_.size, solvent_frames_));
    atoms_in_sphere(xyz, solvent_labels_, box, box_centre(box), volume_.size, inside_);
    return inside_;
  }
  frame_shell_ = std::make_unique<ShellVolume>(
      shape_offsets(shapes_[std::size_t(solvent_frames_) % shapes_.size()]), volume_.size);
  const ShellVolume& shell = *frame_shell_;
  check_volume_fits(shell.reach(), box, names_.shell, names_.solvent_file,
                    fmt::format("the solute's shape with its shell of {:.6g} Angstrom (reaching "
                                "{:.6g} Angstrom from its centre, solvent frame {})",
                                volume_.size, shell.reach(), solvent_frames_));
  atoms_in_shell(xyz, solvent_labels_, box, box_centre(box), shell, inside_);
  return inside_;
}

void SolutionScattering::check_sphere_holds_solute(double extent, std::int64_t frame) const {
  if (extent >= volume_.size)
    throw InputError({names_.solution_file, names_.radius, -1},
                     fmt::format("the observation sphere of radius {:.6g} Angstrom does not hold "
                                 "the solute: its atoms reach {:.6g} Angstrom from its centre in "
                                 "frame {}",
                                 volume_.size, extent, frame));
}

void SolutionScattering::check_shell_order(bool solvent) const {
  if (volume_.shape != VolumeShape::shell) return;
  // Each solvent frame is cut by a solution frame's shape: the solution's frames come first.
  if (solvent && shapes_.empty())
    throw InputError({names_.solvent_file, names_.shell, -1},
                     "the solution's frames come first: the shell's shape is the solute's in "
                     "each of them");
  if (!solvent && solvent_frames_ > 0)
    throw InputError({names_.solution_file, names_.shell, -1},
                     "the solution's frames come before the solvent's: each solvent frame is cut "
                     "by a solution frame's shape");
}

template <class ExecSpace>
void SolutionScattering::add_solution_frame(const ExecSpace& space,
                                            const std::vector<Vec3<double>>& xyz,
                                            const BoxSpec& box_in) {
  if (!solution_)
    throw InputError({names_.solution_file, "frames", -1}, "start_solution comes first");
  check_atoms(xyz.size(), solution_labels_.size(), names_.solution_file, "solution");
  check_shell_order(false);
  const VolumeAtoms& inside = solution_volume(xyz, checked_box(box_in, names_.solution_file));
  solution_->add_subset(space, inside.xyz, inside.labels);
  solution_uniform_.push_back(uniform_terms(space, inside, shapes_.size() - 1));
  ++solution_frames_;
}

template <class ExecSpace>
void SolutionScattering::add_solvent_frame(const ExecSpace& space,
                                           const std::vector<Vec3<double>>& xyz,
                                           const BoxSpec& box_in) {
  if (!solvent_started_)
    throw InputError({names_.solvent_file, names_.solvent, -1}, "start_solvent comes first");
  check_atoms(xyz.size(), solvent_labels_.size(), names_.solvent_file, "solvent");
  check_shell_order(true);
  const VolumeAtoms& inside = solvent_volume(xyz, checked_box(box_in, names_.solvent_file));
  solvent_->add_subset(space, inside.xyz, inside.labels);
  const std::size_t shape = shapes_.empty() ? 0 : std::size_t(solvent_frames_) % shapes_.size();
  solvent_uniform_.push_back(uniform_terms(space, inside, shape));
  const std::vector<double>& q = solvent_->q();
  solvent_weights_.resize(q.size(), 0.0);
  for (auto t : inside.labels)
    for (std::size_t k = 0; k < q.size(); ++k)
      solvent_weights_[k] += solvent_->weights()[std::size_t(t) * q.size() + k];
  solvent_volume_sum_ += solvent_uniform_.back().volume;
  ++solvent_frames_;
}

ScatteringResult SolutionScattering::result() const {
  if (solution_frames_ == 0)
    throw InputError({names_.solution_file, "frames", -1}, "no solution frame was added");
  if (solvent_frames_ == 0)
    throw InputError({names_.solvent_file, names_.solvent, -1}, "no solvent frame was added");
  if (volume_.shape == VolumeShape::shell && solvent_frames_ < solution_frames_)
    throw InputError(
        {names_.solvent_file, names_.solvent, -1},
        fmt::format("{} solvent frames cut by {} solution frames' shapes: add at least as many "
                    "solvent frames as solution frames (repeat them), so every shape is used",
                    solvent_frames_, solution_frames_));
  // The uniform solvent's scattering per volume: the pure solvent's in its volumes.
  std::vector<double> density(solvent_weights_.size());
  for (std::size_t k = 0; k < density.size(); ++k)
    density[k] = solvent_weights_[k] / solvent_volume_sum_;
  return excess_intensity(
      solution_->result(), solvent_->result(),
      relative_to_uniform(solution_->block_intensities(), solution_uniform_, density),
      relative_to_uniform(solvent_->block_intensities(), solvent_uniform_, density));
}

template <class ExecSpace>
UniformTerms SolutionScattering::uniform_terms(const ExecSpace& space, const VolumeAtoms& inside,
                                               std::size_t shape) {
  const ScatteringJob& job = *solution_;
  if (volume_.shape == VolumeShape::sphere)
    return sphere_terms(inside, volume_.size, job.weights(), job.q());
  const double spacing = shell_point_spacing(settings_.q_max, volume_.size);
  const auto points = shell_points(*frame_shell_, spacing);
  const double cell = spacing * spacing * spacing;
  const std::size_t n_q = job.q().size();
  UniformTerms out;
  out.volume = double(points.size()) * cell;
  out.cross.assign(n_q, 0.0);
  for (std::int32_t t = 0; t < job.types().size(); ++t) {
    std::vector<Vec3<double>> atoms;
    for (std::size_t j = 0; j < inside.xyz.size(); ++j)
      if (inside.labels[j] == t) atoms.push_back(inside.xyz[j]);
    if (atoms.empty()) continue;
    const auto sums = debye_sums(space,
                                 two_sets(atoms.data(), std::int64_t(atoms.size()), points.data(),
                                          std::int64_t(points.size())),
                                 job);
    for (std::size_t k = 0; k < n_q; ++k)
      out.cross[k] += cell * job.weights()[std::size_t(t) * n_q + k] * sums[k];
  }
  // The shape's own term, once per shape: both runs cut by it share it.
  if (shape >= shape_self_.size()) {
    std::vector<double> self(n_q, double(points.size()));
    if (points.size() >= 2) {
      const auto sums = debye_sums(space, one_set(points.data(), std::int64_t(points.size())), job);
      for (std::size_t k = 0; k < n_q; ++k) self[k] += 2 * sums[k];
    }
    for (auto& v : self) v *= cell * cell;
    shape_self_.push_back(std::move(self));
  }
  out.self = shape_self_[shape];
  return out;
}

std::string SolutionScattering::describe_volume() const {
  const std::string volume =
      volume_.shape == VolumeShape::sphere
          ? fmt::format(
                "a sphere of radius {:.6g} Angstrom about the solute's centre (solution) "
                "and the box's centre (solvent)",
                volume_.size)
          : fmt::format(
                "the solute and every atom within {:.6g} Angstrom of a solute atom, per "
                "solution frame; the solvent cut by the same shapes about its box's centre",
                volume_.size);
  return "observation volume: " + volume +
         "; Delta I = <|A_solution - A_uniform|^2> - <|A_solvent - A_uniform|^2> (Koefinger & "
         "Hummer 2013)";
}

template void SolutionScattering::add_solution_frame(const Kokkos::DefaultHostExecutionSpace&,
                                                     const std::vector<Vec3<double>>&,
                                                     const BoxSpec&);
template void SolutionScattering::add_solvent_frame(const Kokkos::DefaultHostExecutionSpace&,
                                                    const std::vector<Vec3<double>>&,
                                                    const BoxSpec&);
#ifdef KOKKOS_ENABLE_CUDA
template void SolutionScattering::add_solution_frame(const Kokkos::Cuda&,
                                                     const std::vector<Vec3<double>>&,
                                                     const BoxSpec&);
template void SolutionScattering::add_solvent_frame(const Kokkos::Cuda&,
                                                    const std::vector<Vec3<double>>&,
                                                    const BoxSpec&);
#endif

}  // namespace kmol
