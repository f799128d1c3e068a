// kmol rdf: g(r) between two selections over a whole trajectory, through the frame pipeline.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <Kokkos_Core.hpp>

#include <cstdio>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/cluster.hpp"
#include "drivers/library/rdf_output.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct RdfOptions {
  TrajectoryOptions trajectory;
  bool force = false;
  std::string sel1 = "all", sel2, norm = "rdf", exclude_same;
  std::string out = "rdf.xvg", csv, h5, plot;
  bool gmx = false;  // gmx rdf's bins, normalisation and units in every output
};

template <class V>
std::vector<V> gather(const std::vector<V>& values, const std::vector<std::int64_t>& atoms) {
  std::vector<V> out;
  out.reserve(atoms.size());
  for (auto i : atoms) out.push_back(values[i]);
  return out;
}

// The pairs the selections and exclusions leave to count; none is refused before the run.
void refuse_no_pairs(const RdfOptions& o, std::int64_t pairs, std::int64_t excluded) {
  if (!o.exclude_same.empty())
    refuse_excluding_every_pair(pairs, excluded, "--exclude-same", o.exclude_same);
  if (pairs <= 0)
    throw InputError({"", "--sel1", -1},
                     "'" + o.sel1 + "' selects one atom and there is no --sel2: there is no pair");
}

// The result checked before anything is written: every value finite, some pair counted (or
// --allow-empty, warned about), in the lengths the outputs use.
void check_result(const RdfOptions& o, const Trajectory& t, RdfCountsSummary summary,
                  const Rdf& rdf) {
  ResultOptions options = result_options(o.trajectory, t);
  if (o.gmx) {
    options.unit = "nm";
    options.unit_per_angstrom = 0.1;
  }
  summary.r_max = t.r_max;  // as given (--gmx counts in half bins to a shorter one)
  const std::string warning = check_rdf(summary, rdf, options);
  if (!warning.empty()) fmt::print(stderr, "kmol: warning: {}\n", warning);
}

int run_rdf(RdfOptions& o) {
  TrajectoryOptions& to = o.trajectory;
  if (o.gmx) {
    to.bare_length_unit = "nm";
    to.bare_length_reason = "the --gmx output unit";
  }
  Runtime runtime({to.threads, -1});
  Trajectory t = open_trajectory(to);
  FrameJob job;
  job.atoms_a = selected_atoms(o.sel1, t.atoms, "--sel1");
  const std::string sel2 = o.sel2.empty() ? o.sel1 : o.sel2;
  const auto atoms_b = selected_atoms(sel2, t.atoms, "--sel2");
  const bool one_set = atoms_b == job.atoms_a;
  if (!one_set) job.atoms_b = atoms_b;

  std::int64_t shared = 0, excluded = 0;
  if (!one_set) {
    std::vector<char> in_a(std::size_t(t.atoms.n_atoms), 0);
    for (auto i : job.atoms_a) in_a[i] = 1;
    for (auto j : job.atoms_b) shared += in_a[j];
  }
  if (!o.exclude_same.empty()) {
    const auto& groups = grouping(t, o.exclude_same);
    if (o.exclude_same == "molecule" && !t.topology->note.empty() && !to.quiet)
      fmt::print(stderr, "kmol: note: {}\n", t.topology->note);
    job.molecule_a = gather(groups, job.atoms_a);
    if (!one_set) job.molecule_b = gather(groups, job.atoms_b);
    excluded = excluded_pairs(job.molecule_a, job.molecule_b, one_set) - shared;
  } else if (shared > 0) {
    // An atom in both selections is not paired with itself: label every atom as its own group.
    std::vector<std::int32_t> self(std::size_t(t.atoms.n_atoms));
    for (std::size_t i = 0; i < self.size(); ++i) self[i] = std::int32_t(i);
    job.molecule_a = gather(self, job.atoms_a);
    job.molecule_b = gather(self, job.atoms_b);
  }

  refuse_no_pairs(o,
                  distinct_pairs(std::int64_t(job.atoms_a.size()), std::int64_t(atoms_b.size()),
                                 one_set, shared),
                  excluded);

  set_pair_settings(to, t, job);
  if (o.gmx) {
    // gmx's bins are centred on multiples of the width: count in half bins and add pairs of them.
    if (t.r_min != 0) throw InputError({"", "--rmin", -1}, "--gmx bins start at r = 0");
    if (!o.h5.empty())
      throw InputError({"", "--h5", -1}, "keeps kmol's own bins: run it without --gmx");
    job.settings.r_max = t.r_max - 0.5 * t.r_max / to.bins;
    job.settings.n_bins = 2 * to.bins - 1;
  }
  const RdfNormalization norm = rdf_normalization_from_string(o.norm);
  if (norm == RdfNormalization::rdf && to.no_pbc)
    throw InputError(
        {"", "--norm", -1},
        "rdf normalisation needs the box volume; with --no-pbc use --norm density or none");

  const std::int64_t positions = std::int64_t(t.frames.size());
  const std::string command =
      fmt::format("rdf sel1={} sel2={} exclude={} gmx={}", o.sel1, sel2, o.exclude_same, o.gmx);
  const auto [state, stats, state_path] =
      run_resumable(t, job, to, 1, o.out, run_fingerprint(command, to, t));
  if (!Cluster::root()) {  // rank 0 writes the outputs
    std::remove(state_path.c_str());
    return 0;
  }

  RdfCountsSummary summary;
  summary.counts = state.total();
  summary.r_min = t.r_min;
  summary.r_max = job.settings.r_max;
  summary.frames = positions;
  summary.n_a = std::int64_t(job.atoms_a.size());
  summary.n_b = std::int64_t(atoms_b.size());
  summary.one_set = one_set;
  summary.shared_atoms = shared;
  summary.excluded_pairs = excluded;
  summary.mean_inverse_volume = state.mean_inverse_volume();
  RdfReport report;
  report.rdf = o.gmx ? gmx_rdf(summary, norm) : normalize_rdf(summary, norm);
  try {
    check_result(o, t, summary, report.rdf);
  } catch (...) {
    std::remove(state_path.c_str());  // a refused result leaves nothing, its partial state neither
    throw;
  }
  report.counts = o.gmx ? gmx_bin_counts(summary.counts) : summary.counts;
  report.gmx = o.gmx;
  report.selections = {o.sel1, sel2};
  report.state = &state;
  report.frames = t.frames;
  report.header = {
      fmt::format("trajectory: {} ({}, {} atoms)", t.reader->path(), t.reader->description(),
                  t.reader->n_atoms()),
      fmt::format("selections: \"{}\" ({} atoms) and \"{}\" ({} atoms){}", o.sel1,
                  job.atoms_a.size(), sel2, atoms_b.size(),
                  one_set ? ", one set: each pair once" : ""),
      fmt::format("frames: {} ({} frames)", to.frames, positions),
      o.gmx ? fmt::format("range: {} bins of {:.6g} nm centred on 0 to {:.6g} nm (gmx rdf's bins)",
                          to.bins, 0.1 * t.r_max / to.bins, 0.1 * t.r_max * (to.bins - 1) / to.bins)
            : fmt::format("range: [{}, {}) Angstrom in {} bins of {:.6g} Angstrom", t.r_min,
                          t.r_max, to.bins, (t.r_max - t.r_min) / to.bins),
      fmt::format("normalisation: {} ({})", o.norm,
                  o.gmx ? "gmx rdf's: pairs from both atoms over N_A N_B, excluded pairs included"
                  : norm == RdfNormalization::rdf
                      ? "1 for an ideal gas, with the mean 1/V over frames"
                  : norm == RdfNormalization::density
                      ? "number density of the second selection around the first"
                      : "pairs per frame"),
      fmt::format("excluded: {}",
                  o.exclude_same.empty() ? "none" : "pairs in the same " + o.exclude_same),
      fmt::format("boundaries: {}",
                  to.no_pbc ? "none (plain distances)" : "periodic, minimum image"),
      fmt::format("precision: {}; implementation {}", to.precision, stats.impl),
      "command: " + command_line()};
  for (const auto& note : t.notes) report.header.push_back("note: " + note);
  // The plot first: it is the output most likely to fail (a missing matplotlib).
  if (!o.plot.empty()) plot_rdf_png(o.plot, report);
  if (!o.h5.empty()) write_rdf_h5(o.h5, report);
  if (!o.csv.empty()) write_rdf_csv(o.csv, report);
  write_rdf_xvg(o.out, report);
  std::remove(state_path.c_str());
  if (!to.quiet) {
    for (const auto& note : t.notes) fmt::print("{}\n", note);
    fmt::print("{}\nwrote {}\n", describe_stats(stats, stats.frames), o.out);
  }
  return 0;
}

void preflight_rdf(const CLI::App& cmd, const RdfOptions& o) {
  RunPlan plan = trajectory_plan(cmd, o.trajectory, o.out, {".xvg"}, o.force);
  plan.outputs.push_back({o.csv, "--csv", {".csv"}, 0, false});
  plan.outputs.push_back({o.h5, "--h5", {".h5", ".hdf5"}, 0, false});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  preflight(plan);
}

}  // namespace

Action add_rdf_command(CLI::App& app) {
  auto o = std::make_shared<RdfOptions>();
  auto* cmd =
      app.add_subcommand("rdf", "Radial distribution function g(r) over a whole H5MD trajectory");
  add_trajectory_options(cmd, o->trajectory, 100);
  cmd->add_option(
      "--sel1", o->sel1,
      "First selection (e.g. 'species 0', 'name OW', 'index 0:99 and not resname SOL')");
  cmd->add_option("--sel2", o->sel2,
                  "Second selection (default: the first; then each pair counts once)");
  cmd->add_option("--norm", o->norm, "rdf (g(r)), density or none")
      ->check(CLI::IsMember({"rdf", "density", "none"}));
  cmd->add_option("--exclude-same", o->exclude_same,
                  "Skip pairs within one residue or molecule (needs --top)")
      ->check(CLI::IsMember({"residue", "molecule"}));
  cmd->add_option("--out", o->out, "Grace .xvg output (r, g, n), as gmx rdf writes");
  cmd->add_option("--csv", o->csv, "Also write CSV (r_low, r_high, r_centre, count, g, n)");
  cmd->add_option("--h5", o->h5,
                  "Also write HDF5: counts, edges, g, n, partial sums per interval, metadata");
  cmd->add_option("--plot", o->plot, "Also plot g(r) and n(r) to this PNG file");
  cmd->add_flag("--gmx", o->gmx,
                "gmx rdf's conventions: r in nm (a bare --rmax is read in nm), --bins bins centred "
                "on multiples of --rmax/--bins from 0, its normalisation and xvg legends "
                "(docs/trajectories.md compares them)");
  cmd->add_flag("--force", o->force, "Run even where the preflight estimates refuse it");
  return [o, cmd] {
    preflight_rdf(*cmd, *o);
    return run_rdf(*o);
  };
}

}  // namespace kmol::cli
