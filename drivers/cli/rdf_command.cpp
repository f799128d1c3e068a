// kmol rdf: g(r) between two selections over a whole trajectory, through the frame pipeline.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <Kokkos_Core.hpp>

#include <cstdio>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/centres.hpp"
#include "drivers/library/cluster.hpp"
#include "drivers/library/kb_output.hpp"
#include "drivers/library/rdf_block_plan.hpp"
#include "drivers/library/rdf_job.hpp"
#include "drivers/library/rdf_output.hpp"
#include "drivers/library/rdf_selection.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct RdfOptions {
  TrajectoryOptions trajectory;
  bool force = false;
  RdfSelectionOptions selection;  // --sel1, --sel2, --pos1, --pos2, --exclude-same
  std::string norm = "rdf";
  std::string out = "rdf.xvg", csv, h5, plot, kb, cn;
  std::string plane = "none", blocks;  // blocks: "", N or "auto" (rdf_block_plan.hpp)
  bool xy = false;                     // --plane xy, as gmx rdf -xy
  bool gmx = false;                    // gmx rdf's bins, normalisation and units in every output
};

// The job's settings from the options; the trajectory's workers come from --device through the
// same device policy (pipeline_workers), so the job's own count step keeps auto.
RdfSettings rdf_settings(const RdfOptions& o, const Trajectory& t) {
  const TrajectoryOptions& to = o.trajectory;
  RdfSettings s;
  s.r_min = t.r_min;
  s.r_max = t.r_max;
  s.bins = to.bins;
  s.norm = rdf_normalization_from_string(o.norm);
  s.gmx = o.gmx;
  s.periodic = !to.no_pbc;
  s.plane = plane_from_string(o.xy ? "xy" : o.plane);
  s.impl = pair_histogram_impl_from_string(to.impl);
  s.precision = to.precision == "double" ? Precision::double_ : Precision::single;
  s.result = result_options(to, t);
  return s;
}

std::vector<std::string> header(const RdfOptions& o, const Trajectory& t, const RdfJob& job,
                                const RdfSelection& selection) {
  std::vector<std::string> lines = {
      fmt::format("trajectory: {} ({}, {} atoms)", t.reader->path(), t.reader->description(),
                  t.reader->n_atoms()),
      fmt::format("selections: \"{}\" ({} atoms) and \"{}\" ({} atoms){}", o.selection.sel1,
                  selection.pairs.n_a, selection.sel2, selection.pairs.n_b,
                  selection.pairs.one_set ? ", one set: each pair once" : ""),
      fmt::format("positions: {} ({} sites) and {} ({} sites){}",
                  name_of(site_position_names, selection.pos1), selection.pairs.n_a,
                  name_of(site_position_names, selection.pos2), selection.pairs.n_b,
                  selection.sites_a ? "; molecules made whole across the boundaries" : ""),
      fmt::format("frames: {} ({} frames)", o.trajectory.frame_choice().describe(),
                  t.frames.size()),
      fmt::format("excluded: {}", o.selection.exclude_same.empty()
                                      ? "none"
                                      : "pairs in the same " + o.selection.exclude_same)};
  for (auto& line : job.describe()) lines.push_back(std::move(line));
  lines.push_back("command: " + command_line());
  for (const auto& note : t.notes) lines.push_back("note: " + note);
  return lines;
}

int run_rdf(RdfOptions& o) {
  TrajectoryOptions& to = o.trajectory;
  if (o.gmx) {
    to.bare_length_unit = "nm";
    to.bare_length_reason = "the --gmx output unit";
  }
  Runtime runtime({to.threads, -1});
  Trajectory t = open_trajectory(to);
  o.selection.quiet = to.quiet;
  const RdfSelection selection = select_rdf_pairs(t, o.selection);
  if (o.gmx && !o.h5.empty())
    throw InputError({"", "--h5", -1}, "keeps kmol's own bins: run it without --gmx");
  if (!o.kb.empty() && to.no_pbc)
    throw InputError({"", "--kb", -1},
                     "Kirkwood-Buff integrals need a periodic box (its volume sets the densities); "
                     "drop --no-pbc");
  if (o.xy && o.plane != "none" && o.plane != "xy")
    throw InputError({"", "--xy", -1}, "means --plane xy, not --plane " + o.plane);
  RdfJob job(rdf_settings(o, t));
  BlockPlan blocks;
  if (!o.blocks.empty()) {
    blocks = plan_blocks(o.blocks, std::int64_t(t.frames.size()), t.reader->path(), "--blocks");
    to.interval = blocks.frames_per_block;  // each block an interval of the run state
  }

  const std::string command = fmt::format(
      "rdf sel1={} sel2={} exclude={} gmx={} pos1={} pos2={} plane={}", o.selection.sel1,
      selection.sel2, o.selection.exclude_same, o.gmx, name_of(site_position_names, selection.pos1),
      name_of(site_position_names, selection.pos2), o.xy ? "xy" : o.plane);
  to.on_progress = progress_bar(to);
  const auto [state, stats, state_path] = run_resumable(t, rdf_frame_job(job, selection), to, 1,
                                                        o.out, run_fingerprint(command, to, t));
  if (!Cluster::root()) {  // rank 0 writes the outputs
    std::remove(state_path.c_str());
    return 0;
  }
  job.set_totals(selection.pairs, state.total(), std::int64_t(t.frames.size()),
                 state.mean_inverse_volume(), stats.impl);
  RdfResult result;
  try {
    result = job.result();
  } catch (...) {
    std::remove(state_path.c_str());  // a refused result leaves nothing, its partial state neither
    throw;
  }
  if (!result.warning.empty()) fmt::print(stderr, "kmol: warning: {}\n", result.warning);
  RdfReport report = job.report(result);
  report.selections = {o.selection.sel1, selection.sel2};
  report.state = &state;
  report.frames = t.frames;
  report.header = header(o, t, job, selection);
  RdfBlockErrors errors;
  if (!o.blocks.empty()) {
    errors = job.block_errors(interval_blocks(state), blocks.requested);
    report.blocks = &errors;
    for (std::size_t j = 0; j < errors.blocks.size(); ++j)
      report.block_starts.push_back(t.frames[j * std::size_t(blocks.frames_per_block)]);
    report.header.push_back(describe_blocks(errors, blocks));
  }
  if (!o.kb.empty()) write_kirkwood_buff(o.kb, job.kirkwood_buff(), report.header);
  write_rdf_outputs({o.out, o.csv, o.h5, o.plot, o.cn}, report);
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
  plan.outputs.push_back({o.kb, "--kb", {".csv", ".xvg"}, 0, false});
  plan.outputs.push_back({o.cn, "--cn", {".xvg"}, 0, false});
  excludes(cmd, "--interval", "--blocks");  // the blocks set the run state's interval
  needs_option(cmd, {"--cn"}, "--gmx");
  preflight(plan);
}

}  // namespace

Action add_rdf_command(CLI::App& app) {
  auto o = std::make_shared<RdfOptions>();
  auto* cmd =
      app.add_subcommand("rdf", "Radial distribution function g(r) over a whole H5MD trajectory");
  add_trajectory_options(cmd, o->trajectory, 100);
  cmd->add_option(
      "--sel1", o->selection.sel1,
      "First selection (e.g. 'species 0', 'name OW', 'index 0:99 and not resname SOL')");
  cmd->add_option("--sel2", o->selection.sel2,
                  "Second selection (default: the first; then each pair counts once)");
  cmd->add_option("--pos1", o->selection.pos1,
                  "Sites of the first selection, gmx's names: atom, or the centre of mass or "
                  "geometry of each residue's or molecule's selected atoms: res_com, res_cog, "
                  "mol_com, mol_cog (molecules made whole first; needs --top)");
  cmd->add_option("--pos2", o->selection.pos2, "Sites of the second selection (default: --pos1)");
  cmd->add_option("--norm", o->norm, "rdf (g(r)), density or none")
      ->check(CLI::IsMember({"rdf", "density", "none"}));
  cmd->add_option("--exclude-same", o->selection.exclude_same,
                  "Skip pairs within one residue or molecule (needs --top)")
      ->check(CLI::IsMember({"residue", "molecule"}));
  cmd->add_option("--out", o->out, "Grace .xvg output (r, g, n), as gmx rdf writes");
  cmd->add_option("--csv", o->csv, "Also write CSV (r_low, r_high, r_centre, count, g, n)");
  cmd->add_option("--cn", o->cn,
                  "With --gmx: also write the cumulative number n(r) as gmx rdf -cn writes it "
                  "(within r = w, 2 w, ... of a reference position)");
  cmd->add_option("--h5", o->h5,
                  "Also write HDF5: counts, edges, g, n, partial sums per interval, metadata");
  cmd->add_option("--plot", o->plot, "Also plot g(r) and n(r) to this PNG file");
  cmd->add_flag("--gmx", o->gmx,
                "gmx rdf's conventions: r in nm (a bare --rmax is read in nm), --bins bins centred "
                "on multiples of --rmax/--bins from 0, its normalisation and xvg legends "
                "(docs/trajectories.md compares them)");
  cmd->add_option("--plane", o->plane,
                  "Distances within a plane (2-D RDF): xy, xz or yz; the box is periodic along "
                  "its two edges in the plane")
      ->check(CLI::IsMember({"none", "xy", "xz", "yz"}));
  cmd->add_flag("--xy", o->xy, "The same as --plane xy (gmx rdf -xy)");
  cmd->add_option("--kb", o->kb,
                  "Also write Kirkwood-Buff integrals (.csv or .xvg): G(R) with Ganguly-van der "
                  "Vegt's correction, Kruger-Schnell's sphere integrals, the fitted G");
  cmd->add_option("--blocks", o->blocks,
                  "N or auto: g(r) per block of frames (HDF5) and the standard errors of g and n "
                  "per bin as columns in every output; N blocks of equal frames, or auto: "
                  "blocking analysis chooses the block (docs/trajectories.md)");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    preflight_rdf(*cmd, *o);
    return run_rdf(*o);
  };
}

}  // namespace kmol::cli
