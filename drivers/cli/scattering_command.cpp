// kmol scattering: SAXS/WAXS and SANS intensities I(q) from the species-pair partial histograms
// of a trajectory (the frame pipeline) or of one structure file, by Debye's equation
// (docs/scattering.md).
#include <fmt/core.h>

#include <cmath>
#include <cstdio>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/cluster.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/scattering_output.hpp"
#include "drivers/library/scattering_solution.hpp"
#include "drivers/library/structure_file.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/units.hpp"
#include "kmol/core/leading_number.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct ScatteringOptions {
  TrajectoryOptions trajectory;
  ScatteringSettings settings;
  std::string probe = "xray", q_min = "0", q_max = "0.5", q_unit = "A", method = "debye";
  std::vector<std::string> elements;
  std::string selection = "all", out = "scattering.dat", xvg, h5, plot;
  std::string solvent, solvent_top, solute, radius, shell;  // a solute in solution
  bool force = false;
};

// An inverse length in 1/Angstrom: a bare number, or with a unit (1/A, /nm, nm^-1, ...).
double inverse_length(const std::string& text, const std::string& option) {
  const auto [value, used] = leading_number<double>(text);
  std::string unit = text.substr(used);
  if (used == 0 || !std::isfinite(value))
    throw InputError({"", option, -1}, fmt::format("expected a wave number such as 0.5 "
                                                   "(1/Angstrom) or 5/nm, got '{}'",
                                                   text));
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  if (unit.empty() || unit == "/A" || unit == "1/A" || unit == "A^-1" || unit == "/Angstrom" ||
      unit == "1/Angstrom")
    return value;
  if (unit == "/nm" || unit == "1/nm" || unit == "nm^-1") return 0.1 * value;
  throw InputError(
      {"", option, -1},
      fmt::format("unknown unit '{}' in '{}': use 1/A (the default) or 1/nm", unit, text));
}

std::vector<std::string> elements_of_pdb(const std::string& path, std::size_t atoms) {
  if (path.empty() || !is_scattering_structure(path)) return {};
  StructureFrame f = read_structure_file(path);
  return f.atoms.elements.size() == atoms ? f.atoms.elements : std::vector<std::string>{};
}

template <class V>
std::vector<V> gather(const std::vector<V>& values, const std::vector<std::int64_t>& atoms) {
  std::vector<V> out;
  if (values.empty()) return out;
  for (auto i : atoms) out.push_back(values[std::size_t(i)]);
  return out;
}

AtomIdentity identity_of(const Trajectory& t, const TrajectoryOptions& to,
                         const std::vector<std::int64_t>& atoms) {
  AtomIdentity all;
  all.source = to.top.empty() ? to.trajectory : to.top;
  if (t.topology) {
    all.names = t.topology->names;
    all.resnames = t.topology->resnames;
    all.masses = t.topology->masses;
    all.elements = elements_of_pdb(to.top, t.topology->size());
  } else if (!t.atoms.species.empty()) {
    // H5MD species names, which are often the elements.
    for (auto s : t.atoms.species)
      all.names.push_back(std::size_t(s) < t.atoms.species_names.size()
                              ? t.atoms.species_names[std::size_t(s)]
                              : "");
  }
  if (all.masses.empty()) all.masses = t.reader->masses();
  AtomIdentity out;
  out.source = all.source;
  out.coordinates = to.trajectory;
  out.names = gather(all.names, atoms);
  out.resnames = gather(all.resnames, atoms);
  out.elements = gather(all.elements, atoms);
  out.masses = gather(all.masses, atoms);
  return out;
}

ScatteringImpl impl_of(const ScatteringOptions& o, TrajectoryOptions& to) {
  if (o.method == "direct") {
    if (to.impl != "auto")
      throw InputError({"", "--impl", -1},
                       "chooses how Debye's sum runs; --method direct sums "
                       "over wave vectors instead: drop one");
    return ScatteringImpl::waves;
  }
  if (to.impl == "direct") {
    to.impl = "auto";
    return ScatteringImpl::direct;
  }
  if (to.impl == "histogram") to.impl = "auto";
  return ScatteringImpl::histogram;
}

ScatteringReport report_of(const ScatteringOptions& o, const ScatteringJob& job,
                           const ScatteringResult& result, std::vector<std::string> header) {
  ScatteringReport report;
  report.result = &result;
  for (const auto& line : job.describe(result)) header.push_back(line);
  if (result.guinier.ok)
    header.push_back(
        fmt::format("guinier: I(0) = {:.6g}, Rg = {:.4f} Angstrom from {} points, "
                    "q {:.4g} to {:.4g} 1/Angstrom",
                    result.guinier.i0, result.guinier.rg, result.guinier.points,
                    result.guinier.q_lo, result.guinier.q_hi));
  header.push_back("command: " + command_line());
  report.header = std::move(header);
  report.nm = o.q_unit == "nm";
  report.per_atom = job.system() == ScatteringSystem::periodic;
  report.intensity_unit = job.settings().probe == Probe::xray ? "e^2" : "fm^2";
  return report;
}

void write_outputs(const ScatteringOptions& o, const ScatteringReport& report) {
  if (!o.plot.empty()) plot_scattering_png(o.plot, report);  // first: the likeliest to fail
  if (!o.h5.empty()) write_scattering_h5(o.h5, report);
  if (!o.xvg.empty()) write_scattering_xvg(o.xvg, report);
  write_scattering_dat(o.out, report);
}

void print_summary(const ScatteringOptions& o, const ScatteringResult& r,
                   const std::string& stats) {
  if (o.trajectory.quiet) return;
  if (!stats.empty()) fmt::print("{}\n", stats);
  fmt::print(
      "I(q): {} points, q {} to {} 1/Angstrom; discretisation error <= {:.2g} of I "
      "(estimate)\n",
      r.q.size(), r.q.front(), r.q.back(), r.max_relative_error);
  if (r.guinier.ok)
    fmt::print(
        "Guinier: I(0) = {:.6g}, Rg = {:.3f} Angstrom ({} points, q {:.4g} to {:.4g} "
        "1/Angstrom)\n",
        r.guinier.i0, r.guinier.rg, r.guinier.points, r.guinier.q_lo, r.guinier.q_hi);
  else if (!r.guinier.why.empty())
    fmt::print("Guinier: no fit ({})\n", r.guinier.why);
  fmt::print("wrote {}\n", o.out);
}

int run_structure(ScatteringOptions& o, ScatteringImpl impl) {
  TrajectoryOptions& to = o.trajectory;
  Runtime runtime({to.threads, -1});
  StructureFrame f = read_structure_file(to.trajectory);
  AtomTable table;
  table.n_atoms = std::int64_t(f.xyz.size());
  table.names = f.atoms.names;
  table.resnames = f.atoms.resnames;
  const auto atoms = selected_atoms(o.selection, table, "--sel");
  AtomIdentity identity;
  identity.source = to.trajectory;
  identity.names = gather(f.atoms.names, atoms);
  identity.resnames = gather(f.atoms.resnames, atoms);
  identity.elements = gather(f.atoms.elements, atoms);
  const auto xyz = gather(f.xyz, atoms);
  const BoxSpec box = to.no_pbc ? BoxSpec::none() : f.box;
  ScatteringJob job(o.settings, identity, o.elements, xyz, box, impl);
  with_space(to.device, [&](const auto& space) { job.add_frame(space, xyz, box); });
  const ScatteringResult result = job.result();
  const std::vector<std::string> header{
      fmt::format("structure: {} ({} atoms, {} selected by \"{}\")", to.trajectory, f.xyz.size(),
                  xyz.size(), o.selection)};
  write_outputs(o, report_of(o, job, result, header));
  print_summary(o, result, "");
  return 0;
}

int run_trajectory(ScatteringOptions& o, ScatteringImpl impl) {
  TrajectoryOptions& to = o.trajectory;
  Runtime runtime({to.threads, -1});
  const bool auto_range = to.r_max.empty();
  if (auto_range && to.no_pbc) to.r_max = "1e7";  // a solute's range comes from its first frame
  Trajectory t = open_trajectory(to);
  if (!auto_range) o.settings.r_max = t.r_max;
  const auto positions = std::int64_t(t.frames.size());
  if (to.interval == 0) to.interval = std::max<std::int64_t>(1, (positions + 9) / 10);
  const auto atoms = selected_atoms(o.selection, t.atoms, "--sel");
  std::vector<Vec3<double>> frame(std::size_t(t.reader->n_atoms()));
  const io::FrameInfo first = t.reader->read_frame(t.frames.front(), frame.data());
  const BoxSpec box = to.no_pbc ? BoxSpec::none() : first.box;
  ScatteringJob job(o.settings, identity_of(t, to, atoms), o.elements, gather(frame, atoms), box,
                    impl);
  std::string stats;
  if (impl != ScatteringImpl::histogram) {
    for (auto index : t.frames) {
      const io::FrameInfo info = t.reader->read_frame(index, frame.data());
      with_space(to.device, [&](const auto& space) {
        job.add_frame(space, gather(frame, atoms), to.no_pbc ? BoxSpec::none() : info.box);
      });
    }
  } else {
    FrameJob frames;
    const TypeOrder order = type_order(job.types().of_atom);
    for (auto k : order.atoms) frames.atoms_a.push_back(atoms[std::size_t(k)]);
    frames.species = order.labels;
    set_pair_settings(to, t, frames);
    const PairHistogramSettings counts = job.count_settings(box);
    frames.settings.r_min = 0;
    frames.settings.r_max = counts.r_max;
    frames.settings.n_bins = counts.n_bins;
    frames.settings.n_species = counts.n_species;
    const std::string command =
        fmt::format("scattering sel={} types={} bins={} width={:.17g}", o.selection,
                    job.types().size(), counts.n_bins, job.range().width);
    const auto [state, run_stats, state_path] =
        run_resumable(t, frames, to, job.types().pairs(), o.out, run_fingerprint(command, to, t));
    if (!Cluster::root()) {
      std::remove(state_path.c_str());
      return 0;
    }
    for (std::int64_t k = 0; k < state.n_intervals(); ++k) {
      const std::int64_t begin = k * state.interval();
      const std::int64_t n = std::min(state.interval(), positions - begin);
      job.add_counts(state.interval_counts(k), n, n * state.mean_inverse_volume());
    }
    std::remove(state_path.c_str());
    stats = describe_stats(run_stats, run_stats.frames);
  }
  const ScatteringResult result = job.result();
  const std::vector<std::string> header{
      fmt::format("trajectory: {} ({}, {} atoms)", t.reader->path(), t.reader->description(),
                  t.reader->n_atoms()),
      fmt::format("selection: \"{}\" ({} atoms)", o.selection, atoms.size()),
      fmt::format("frames: {} ({} frames)", to.frames, positions)};
  write_outputs(o, report_of(o, job, result, header));
  print_summary(o, result, stats);
  return 0;
}

// The first frame's coordinates, all atoms.
std::vector<Vec3<double>> first_frame(Trajectory& t, BoxSpec& box) {
  std::vector<Vec3<double>> xyz(std::size_t(t.reader->n_atoms()));
  box = t.reader->read_frame(t.frames.front(), xyz.data()).box;
  return xyz;
}

std::vector<std::int64_t> every_atom(std::size_t n) {
  std::vector<std::int64_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = std::int64_t(i);
  return all;
}

ObservationVolume volume_of(const ScatteringOptions& o) {
  ObservationVolume volume;
  if (!o.shell.empty()) {
    if (!o.radius.empty())
      throw InputError({"", "--shell", -1},
                       "chooses the solute plus a solvent shell as the observation volume; "
                       "--radius a sphere: give one");
    volume.shape = VolumeShape::shell;
    volume.size = io::parse_length(o.shell, "--shell");
  } else if (!o.radius.empty()) {
    volume.size = io::parse_length(o.radius, "--radius");
    if (!(volume.size > 0))
      throw InputError({"", "--radius", -1},
                       fmt::format("the sphere's radius must be positive, got {}", o.radius));
  }
  return volume;
}

int run_solution(ScatteringOptions& o) {
  TrajectoryOptions& to = o.trajectory;
  if (to.no_pbc) throw InputError({"", "--no-pbc", -1}, "--solvent needs periodic boxes");
  if (o.solute.empty())
    throw InputError({"", "--solute", -1}, "--solvent needs the solute's atoms (--solute SEL)");
  Runtime runtime({to.threads, -1});
  SolutionNames names;
  names.solution_file = to.trajectory;
  names.solvent_file = o.solvent;
  SolutionScattering job(o.settings, volume_of(o), names);
  Trajectory t = open_trajectory(to);
  const auto solute = selected_atoms(o.solute, t.atoms, "--solute");
  BoxSpec box;
  const auto xyz = first_frame(t, box);
  job.start_solution(identity_of(t, to, every_atom(xyz.size())), o.elements, solute, xyz, box);

  TrajectorySource solvent_source = to;
  solvent_source.trajectory = o.solvent;
  solvent_source.top = o.solvent_top;
  solvent_source.frames = "::";
  Trajectory s = open_trajectory(solvent_source);
  BoxSpec solvent_box;
  const auto solvent_xyz = first_frame(s, solvent_box);
  TrajectoryOptions solvent_options = to;
  solvent_options.trajectory = o.solvent;
  solvent_options.top = o.solvent_top;
  job.start_solvent(identity_of(s, solvent_options, every_atom(solvent_xyz.size())), o.elements,
                    solvent_xyz, solvent_box);

  std::vector<Vec3<double>> frame(xyz.size()), solvent_frame(solvent_xyz.size());
  for (auto index : t.frames) {
    const BoxSpec b = t.reader->read_frame(index, frame.data()).box;
    with_space(to.device, [&](const auto& space) { job.add_solution_frame(space, frame, b); });
  }
  // A shell cuts each solvent frame by the next solution frame's shape: every shape is used once
  // at least, the solvent's frames repeated where they are fewer.
  const std::size_t n_solvent = s.frames.size();
  const std::size_t passes =
      job.volume().shape == VolumeShape::shell ? std::max(n_solvent, t.frames.size()) : n_solvent;
  for (std::size_t k = 0; k < passes; ++k) {
    const BoxSpec b = s.reader->read_frame(s.frames[k % n_solvent], solvent_frame.data()).box;
    with_space(to.device,
               [&](const auto& space) { job.add_solvent_frame(space, solvent_frame, b); });
  }
  const ScatteringResult result = job.result();
  const std::vector<std::string> header{
      fmt::format("solution: {} ({} frames), solute \"{}\" ({} atoms)", to.trajectory,
                  t.frames.size(), o.solute, solute.size()),
      fmt::format("solvent: {} ({} frames, {} used)", o.solvent, n_solvent, passes),
      job.describe_volume()};
  write_outputs(o, report_of(o, job.solution_job(), result, header));
  print_summary(o, result, "");
  return 0;
}

int run_scattering(const CLI::App& cmd, ScatteringOptions& o) {
  TrajectoryOptions& to = o.trajectory;
  if (given(cmd, "--bins"))
    throw InputError({"", "--bins", -1},
                     "scattering bins its histogram from --qmax and "
                     "--accuracy; set the width with --bin-width");
  if (given(cmd, "--rmin"))
    throw InputError({"", "--rmin", -1}, "Debye's sum takes every pair from r = 0");
  ScatteringSettings& s = o.settings;
  s.probe = o.probe == "neutron" ? Probe::neutron : Probe::xray;
  s.q_min = inverse_length(o.q_min, "--qmin");
  s.q_max = inverse_length(o.q_max, "--qmax");
  if (!given(cmd, "--d2o"))
    s.d2o = 0;
  else if (s.probe == Probe::xray)
    throw InputError({"", "--d2o", -1},
                     "deuteration changes neutron contrast only: add "
                     "--probe neutron");
  check_settings(s);
  const ScatteringImpl impl = impl_of(o, to);
  if (is_scattering_structure(to.trajectory)) {
    if (!to.top.empty())
      throw InputError({"", "--top", -1}, "a structure file names its own atoms");
    return run_structure(o, impl);
  }
  if (!o.solvent.empty()) {
    if (impl != ScatteringImpl::histogram)
      throw InputError({"", "--solvent", -1},
                       "runs the histogram route only (no --impl direct "
                       "or --method direct)");
    return run_solution(o);
  }
  for (const char* option : {"--solute", "--radius", "--shell", "--solvent-top"})
    if (given(cmd, option)) throw InputError({"", option, -1}, "applies only with --solvent");
  if (!given(cmd, "--interval")) to.interval = 0;  // about ten blocks for sigma(q)
  return run_trajectory(o, impl);
}

void preflight_scattering(const CLI::App& cmd, const ScatteringOptions& o) {
  RunPlan plan = trajectory_plan(cmd, o.trajectory, o.out, {".dat"}, o.force);
  plan.inputs.push_back(o.solvent);
  plan.inputs.push_back(o.solvent_top);
  plan.outputs.push_back({o.xvg, "--xvg", {".xvg"}, 0, false});
  plan.outputs.push_back({o.h5, "--h5", {".h5", ".hdf5"}, 0, false});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  preflight(plan);
}

}  // namespace

Action add_scattering_command(CLI::App& app) {
  auto o = std::make_shared<ScatteringOptions>();
  auto* cmd = app.add_subcommand(
      "scattering",
      "SAXS/WAXS or SANS intensity I(q) by Debye's equation from a trajectory or a PDB/GRO/PQR "
      "structure (docs/scattering.md)");
  add_trajectory_options(cmd, o->trajectory, 1);
  cmd->add_option("--probe", o->probe, "xray (IT92 form factors) or neutron (Sears 1992)")
      ->check(CLI::IsMember({"xray", "neutron"}));
  cmd->add_option("--d2o", o->settings.d2o,
                  "Neutrons: D2O fraction of the solvent, deuterating exchangeable hydrogens "
                  "(bound to N, O, S; water's included)");
  cmd->add_option("--qmin", o->q_min, "Smallest q (1/Angstrom; or with a unit: 0.1/nm)");
  cmd->add_option("--qmax", o->q_max, "Largest q (1/Angstrom; or 5/nm); default 0.5");
  cmd->add_option("--qbins", o->settings.q_bins, "Points of the q grid, both ends included");
  cmd->add_option("--q-unit", o->q_unit, "q unit of the .dat output: A (1/Angstrom) or nm")
      ->check(CLI::IsMember({"A", "nm"}));
  cmd->add_option("--bin-width", o->settings.bin_width,
                  "Histogram bin width (Angstrom); default sqrt(24 accuracy)/qmax; q w <= 1");
  cmd->add_option("--accuracy", o->settings.accuracy,
                  "Relative error of a bin's term, (qmax w)^2/24, that chooses the bin width");
  cmd->add_option("--method", o->method,
                  "debye (pair distances) or direct (a periodic system's |A(k)|^2 over the wave "
                  "vectors its box allows)")
      ->check(CLI::IsMember({"debye", "direct"}));
  cmd->add_option("--element", o->elements,
                  "NAME=ELEMENT for atoms the topology does not tell (repeatable, e.g. OW=O)");
  cmd->add_option("--sel", o->selection, "Atoms that scatter (default all)");
  cmd->add_option("--solvent", o->solvent,
                  "A pure-solvent trajectory: the excess intensity of --solute in solution "
                  "(Koefinger & Hummer 2013)");
  cmd->add_option("--solvent-top", o->solvent_top, "Topology of --solvent");
  cmd->add_option("--solute", o->solute, "With --solvent: the solute's atoms");
  cmd->add_option("--radius", o->radius,
                  "With --solvent: the observation sphere's radius (Angstrom, or 3nm); default "
                  "the solute's extent from its centre + 10 Angstrom");
  cmd->add_option("--shell", o->shell,
                  "With --solvent: the observation volume is the solute and every atom within "
                  "this distance of a solute atom (Angstrom, or 0.7nm), in place of a sphere");
  cmd->add_option("--out", o->out, "Three columns q I(q) sigma(q) (.dat)");
  cmd->add_option("--xvg", o->xvg, "Also write Grace .xvg as gmx sans does (q in 1/nm)");
  cmd->add_option("--h5", o->h5, "Also write HDF5: partial curves, structure factors, metadata");
  cmd->add_option("--plot", o->plot, "Also plot log-log and Kratky to this PNG");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    preflight_scattering(*cmd, *o);
    return run_scattering(*cmd, *o);
  };
}

}  // namespace kmol::cli
