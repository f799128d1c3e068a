// kmol cc: cross-correlation of a structure's simulated density with a reference map (MDFF's
// quality of fit): global Pearson coefficient, local coefficients on 8^3 tiles, and over an H5MD
// trajectory a per-frame timeline.
//
// The simulated map puts a Gaussian on every atom with sigma = 0.225 * resolution, Chimera's molmap
// default (sigma factor 1/(pi sqrt 2)), sampled on the reference map's lattice; of unit height, or
// of the atom's mass with --weight mass (from a TPR, H5MD masses or the elements of PDB/PQR atoms).
#include <fmt/core.h>
#include <fmt/os.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_output.hpp"
#include "kernels/correlation/correlation.hpp"
#include "kernels/density/density.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {
namespace {

constexpr double sigma_per_resolution = 0.225;

struct CcOptions {
  std::string input, top, ref, local, sim, timeline, plot, device = "auto", impl = "auto";
  std::string weight = "unit";
  double resolution = 0, threshold = NAN, cut = 0.01;
  FrameChoice frames;                              // of a trajectory input
  std::int64_t first = -1, last = -1, every = -1;  // refused, translated into --frames
  int threads = -1;
  bool force = false;
};

// At or below this share of the model's atoms inside the map, its cc says little about the fit.
constexpr double meaningful_overlap = 0.5;

// Refuses a model that misses the map, warns when most of it does; both files are named, since
// either may be the one at fault.
void check_overlap(const std::vector<Vec3<float>>& xyz, const io::ScalarMap& ref,
                   const std::string& map_path, const std::string& model,
                   const std::string& frame) {
  const auto& g = ref.grid;
  std::int64_t inside = 0;
  for (const auto& p : xyz) {
    const double x[3] = {p.x - g.origin.x, p.y - g.origin.y, p.z - g.origin.z};
    bool in = true;
    for (int a = 0; a < 3; ++a)
      in = in && x[a] >= 0 &&
           x[a] <= g.spacing[std::size_t(a)] * double(g.counts[std::size_t(a)] - 1);
    inside += in;
  }
  const double share = xyz.empty() ? 0 : double(inside) / double(xyz.size());
  const std::string box =
      fmt::format("the map spans [{:.4g}, {:.4g}] x [{:.4g}, {:.4g}] x [{:.4g}, {:.4g}] A",
                  g.origin.x, g.origin.x + g.spacing[0] * double(g.counts[0] - 1), g.origin.y,
                  g.origin.y + g.spacing[1] * double(g.counts[1] - 1), g.origin.z,
                  g.origin.z + g.spacing[2] * double(g.counts[2] - 1));
  if (inside == 0)
    throw InputError({model, "--ref", -1},
                     "no atom" + frame + " lies inside the reference map " + map_path + " (" + box +
                         "): are the model and map in the same frame of reference?");
  if (share <= meaningful_overlap)
    fmt::print(stderr,
               "kmol: warning: only {:.1f}% of the atoms{} of {} lie inside the reference map "
               "{} ({}); the cc covers little of the model\n",
               100 * share, frame, model, map_path, box);
}

struct FrameResult {
  Correlation cc;
  DensityMap simulated;
  double seconds = 0;
};

// Coordinates are checked where the file and frame are known (the density's own check knows
// neither); `where` is the field and index its error names.
void check_positions(const std::vector<Vec3<float>>& xyz, const ErrorContext& where) {
  for (std::size_t a = 0; a < xyz.size(); ++a)
    if (!std::isfinite(xyz[a].x) || !std::isfinite(xyz[a].y) || !std::isfinite(xyz[a].z))
      throw InputError(where, fmt::format("atom {} has a non-finite coordinate ({}, {}, {})", a,
                                          xyz[a].x, xyz[a].y, xyz[a].z));
}

template <class Values>
bool all_finite(const Values& values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

// Nothing that is not finite is written: the cc of two finite maps lies in [-1, 1], so a
// non-finite result comes from the model's coordinates (a simulated map that overflows) or from
// the reference map's values.
void check_result(const FrameResult& r, const ErrorContext& where, const std::string& ref) {
  if (!all_finite(r.simulated.values))
    throw InputError(where,
                     "the simulated map is not finite: the coordinates lie too far out "
                     "for single precision");
  if (!std::isfinite(r.cc.global) || !all_finite(r.cc.local))
    throw InputError(where, "the cross-correlation is not finite: the reference map " + ref +
                                " holds values that are not finite or too large");
}

template <class Space>
FrameResult compare_on(const Space& space, const std::vector<Vec3<float>>& xyz,
                       const std::vector<float>& sigmas, const std::vector<float>& heights,
                       const io::ScalarMap& ref, const DensitySettings& settings,
                       const CorrelationSettings& cs) {
  Kokkos::Timer timer;
  FrameResult r;
  r.simulated = gaussian_density(space,
                                 {xyz.data(), sigmas.data(), std::int64_t(xyz.size()),
                                  heights.empty() ? nullptr : heights.data()},
                                 settings);
  r.cc = cross_correlation(space, ref.grid, r.simulated.values.data(), ref.values.data(), cs);
  r.seconds = timer.seconds();
  return r;
}

// Every trajectory command chooses frames with --frames or --begin/--end/--dt; the range options
// cc once had are refused with their translation.
void refuse_frame_range_options(const CLI::App& cmd) {
  for (const char* option : {"--first", "--last", "--every"})
    if (given(cmd, option))
      throw UsageError({"", option, -1},
                       "frames are chosen with --frames, as in every kmol command: --frames N for "
                       "one frame (-1: the last), --frames FIRST:LAST+1:EVERY with --timeline, or "
                       "--begin/--end/--dt in the file's time unit");
}

// Frame options only apply to a trajectory.
void check_option_use(const CLI::App& cmd, const CcOptions& o) {
  refuse_frame_range_options(cmd);
  needs_trajectory_input(cmd, {"--frames", "--begin", "--end", "--dt", "--timeline", "--top"},
                         o.input);
  needs_mode(cmd, {"--top"}, o.weight == "mass", "--weight mass");
}

void preflight_cc(const CcOptions& o) {
  const std::vector<std::string> maps = {".dx", ".h5", ".hdf5", ".mrc", ".map", ".ccp4"};
  RunPlan plan;
  plan.outputs.push_back({o.local, "--local", maps, 0, false});
  plan.outputs.push_back({o.sim, "--sim", maps, 0, false});
  plan.outputs.push_back({o.timeline, "--timeline", {".csv"}, 0, false});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  plan.inputs = {o.input, o.ref};
  if (!o.top.empty()) plan.inputs.push_back(o.top);
  plan.force = o.force;
  preflight(plan);
}

// --weight mass: every atom's mass, or an error naming where masses were looked for.
std::vector<float> gaussian_heights(const CcOptions& o, const Structure& s) {
  if (o.weight != "mass") return {};
  if (s.masses.empty())
    throw InputError({o.input, "--weight", -1},
                     "mass needs masses: this input has none (give --top topol.tpr, or a "
                     "PDB, GRO or PQR topology whose atom names give the elements)");
  for (std::size_t a = 0; a < s.masses.size(); ++a)
    if (!(s.masses[a] > 0))
      throw InputError({o.input, "--weight", long(a)},
                       "mass: atom " + std::to_string(a) + " has no known mass in " +
                           s.masses_from + " (an element kmol does not tabulate?)");
  return s.masses;
}

std::string weighting(const CcOptions& o, const Structure& s) {
  return o.weight == "mass" ? "mass-weighted by " + s.masses_from : "unit heights";
}

int cc(const CcOptions& o) {
  const io::ScalarMap ref = read_map(o.ref);
  DensitySettings settings;
  settings.grid = ref.grid;
  settings.scale = 1.0;
  settings.threshold = o.cut;
  settings.impl = density_impl_from_string(o.impl);
  CorrelationSettings cs;
  if (std::isfinite(o.threshold)) cs.threshold = o.threshold;
  const double sigma = sigma_per_resolution * o.resolution;
  std::vector<float> heights;  // empty: unit heights
  auto run = [&](const std::vector<Vec3<float>>& xyz) {
    const std::vector<float> sigmas(xyz.size(), float(sigma));
    return with_space(o.device, [&](const auto& space) {
      return compare_on(space, xyz, sigmas, heights, ref, settings, cs);
    });
  };
  const auto& g = ref.grid;
  const std::string where = fmt::format("{} ({} x {} x {} at {:.4g} A)", o.ref, g.counts[0],
                                        g.counts[1], g.counts[2], g.spacing[0]);
  const bool trajectory = io::sniff_file(o.input) != io::FileKind::text && !o.timeline.empty();
  if (!trajectory) {
    const Structure s = read_structure(o.input, one_frame(o.input, o.frames, "cc"), o.top, 1.5);
    heights = gaussian_heights(o, s);
    check_positions(s.positions, {o.input, "position", -1});
    check_overlap(s.positions, ref, o.ref, o.input, "");
    const FrameResult r = run(s.positions);
    check_result(r, {o.input, "", -1}, o.ref);
    fmt::print(
        "{} atoms ({}) at resolution {} A (sigma {:.4g} A) against {}: cc {:.6f} over {} "
        "voxels{} in {:.4f} s ({})\n",
        s.positions.size(), weighting(o, s), o.resolution, sigma, where, r.cc.global, r.cc.voxels,
        cs.threshold ? fmt::format(" above {}", *cs.threshold) : "", r.seconds, r.simulated.launch);
    if (!o.sim.empty()) {
      check_map(g, r.simulated.values.data(),
                {"simulated density map", o.sim, "an atom coordinate or height out of range", true,
                 "no atom's Gaussian reaches the reference map's lattice"});
      write_map(o.sim, g, r.simulated.values.data(), {"simulated", "", "simulated", {}, {}});
    }
    if (!o.local.empty()) {
      // A tile with a constant map has coefficient 0: an all-zero local map is an answer.
      check_map(r.cc.tiles, r.cc.local.data(),
                {"local cross-correlation map", o.local, "a map value out of range", false, ""});
      write_map(o.local, r.cc.tiles, r.cc.local.data(), {"local_cc", "", "local_cc", {}, {}});
    }
    if (!o.plot.empty())
      plot_plane({o.plot, "z", NAN, "local cross-correlation (8^3 tiles)", "cc", "", NAN, false},
                 r.cc.tiles, r.cc.local.data());
    return 0;
  }
  const auto opened = io::open_trajectory_file(o.input);
  io::TrajectoryReader& reader = *opened;
  const std::vector<std::int64_t> chosen = choose_frames(o.frames, reader);
  const Structure masses =
      o.weight == "mass" ? read_structure(o.input, chosen.front(), o.top, 1.5) : Structure();
  heights = gaussian_heights(o, masses);
  std::vector<Vec3<double>> xyz(std::size_t(reader.n_atoms()));
  std::vector<Vec3<float>> positions(xyz.size());
  double total = 0;
  std::int64_t frames = 0;
  write_atomically(o.timeline, [&](const std::string& temporary) {
    auto out = fmt::output_file(temporary);
    out.print("# kmol cc: {} against {}, resolution {} A (sigma {:.4g} A), {}{}\nframe,time,cc\n",
              o.input, o.ref, o.resolution, sigma, weighting(o, masses),
              cs.threshold ? fmt::format(", voxels above {}", *cs.threshold) : "");
    for (const std::int64_t f : chosen) {
      const io::FrameInfo info = reader.read_frame(f, xyz.data());
      for (std::size_t a = 0; a < xyz.size(); ++a) positions[a] = xyz[a].cast<float>();
      check_positions(positions, {o.input, "frame", long(f)});
      if (f == chosen.front())
        check_overlap(positions, ref, o.ref, o.input, fmt::format(" of frame {}", f));
      const FrameResult r = run(positions);
      check_result(r, {o.input, "frame", long(f)}, o.ref);
      out.print("{},{},{:.8f}\n", f, info.time, r.cc.global);
      total += r.seconds;
      ++frames;
    }
  });
  fmt::print("{} frames of {} ({} atoms) against {}: {:.4f} s per frame; wrote {}\n", frames,
             o.input, reader.n_atoms(), where, total / double(frames), o.timeline);
  if (!o.plot.empty())
    plot_timeline(o.plot, o.timeline,
                  fmt::format("{} vs {} at {} A", o.input, o.ref, o.resolution));
  return 0;
}

}  // namespace

Action add_cc_command(CLI::App& app) {
  auto o = std::make_shared<CcOptions>();
  auto* cmd = app.add_subcommand(
      "cc",
      "Cross-correlation of a structure's simulated density with a reference map "
      "(global, local 8^3 tiles, per-frame timeline)");
  cmd->add_option(
         "input", o->input,
         "Structure: PQR, PDB, or a trajectory (H5MD, XTC, TRR, TNG, NetCDF: frame --frames N, "
         "or the frames --frames a:b:c of a --timeline)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--top", o->top,
                  "Trajectory input with --weight mass: topology in trajectory order (TPR masses; "
                  "PDB, GRO or PQR: by element)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--weight", o->weight,
                  "Height of each atom's Gaussian: unit, or mass (from --top, H5MD masses, or the "
                  "elements of a PDB/PQR input)")
      ->check(CLI::IsMember({"unit", "mass"}));
  cmd->add_option("--ref", o->ref, "Reference map: MRC/CCP4 (.mrc, .map, .ccp4) or OpenDX (.dx)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--resolution", o->resolution,
                  "Resolution of the simulated map (Angstrom; sigma = 0.225 x resolution)")
      ->required();
  cmd->add_option("--threshold", o->threshold,
                  "Count only voxels whose reference value exceeds this");
  cmd->add_option("--cut", o->cut,
                  "Drop each Gaussian where it falls below this fraction of its peak");
  cmd->add_option("--local", o->local,
                  "Write the local cross-correlation (8^3 tiles) map: .dx, .h5 or .mrc");
  cmd->add_option("--sim", o->sim, "Write the simulated map: .dx, .h5 or .mrc");
  cmd->add_option("--timeline", o->timeline, "H5MD input: per-frame CSV (frame,time,cc)");
  cmd->add_option("--frames,--frame", o->frames.frames,
                  "Trajectory input: the frame to compare (N, -1 the last), or with --timeline "
                  "the frames start:stop:step (Python slice; default all)");
  add_time_options(cmd, o->frames.begin, o->frames.end, o->frames.dt);
  // Refused with their translation into --frames (refuse_frame_range_options).
  cmd->add_option("--first", o->first)->group("");
  cmd->add_option("--last", o->last)->group("");
  cmd->add_option("--every", o->every)->group("");
  cmd->add_option("--plot", o->plot,
                  "PNG: the timeline (with --timeline), else a plane of the local map");
  add_device_option(cmd, o->device);
  cmd->add_option("--impl", o->impl, "Density implementation: auto, kokkos or cuda");
  add_threads_option(cmd, o->threads);
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    check_option_use(*cmd, *o);
    preflight_cc(*o);
    if (!(o->resolution > 0))
      throw InputError({"", "--resolution", -1}, "must be positive (Angstrom)");
    if (!(o->cut > 0 && o->cut < 1)) throw InputError({"", "--cut", -1}, "must lie in (0, 1)");
    Runtime runtime({o->threads, -1});
    return cc(*o);
  };
}

}  // namespace kmol::cli
