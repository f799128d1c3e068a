// kmol md: Lennard-Jones molecular dynamics from an FCC start or a frame of a trajectory (H5MD,
// TRR, TNG, XTC, NetCDF), writing an H5MD trajectory, a thermodynamic CSV log and a progress bar.
#include <fmt/core.h>
#include <fmt/os.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/library/device_policy.hpp"
#include "kernels/md/health.hpp"
#include "kernels/md/md.hpp"
#include "kernels/md/validation.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct MdOptions {
  std::int64_t atoms = 4000;
  std::vector<int> cells;
  double density = 0.8442, temperature = 0.72, dt = 0.005, cutoff = 2.5, skin = 0.3, coupling = 1.0;
  std::int64_t steps = 1000, every = 100, log_every = 0, seed = 12345;
  std::string thermostat = "none", impl = "auto", list = "full", precision = "double",
              device = "auto";
  std::string out, log = "md-thermo.csv", restart;
  bool no_velocities = false, write_forces = false, quiet = false, force = false;
  int threads = -1;
};

// Atoms of the run, known before any is made.
std::int64_t planned_atoms(const MdOptions& o, const io::TrajectoryReader* restart) {
  if (restart != nullptr) return restart->n_atoms();
  if (!o.cells.empty()) return 4 * std::int64_t(o.cells[0]) * o.cells[1] * o.cells[2];
  const std::int64_t k = fcc_cells_per_side(o.atoms);
  return 4 * k * k * k;
}

// Options that would be silently ignored in the chosen mode are refused.
void check_option_use(const CLI::App& cmd, const MdOptions& o) {
  excludes(cmd, "--atoms", "--cells");
  needs_mode(cmd, {"--atoms", "--cells", "--density"}, o.restart.empty(),
             "an FCC start, not with --restart");
  needs_mode(cmd, {"--coupling"}, o.thermostat != "none", "--thermostat andersen or langevin");
  needs_mode(cmd, {"--list"}, o.impl == "neighbour" || o.impl == "auto",
             "--impl neighbour (or auto)");
  needs_option(cmd, {"--no-velocities", "--write-forces"}, "--out");
}

void preflight_md(const CLI::App& cmd, const MdOptions& o, const io::TrajectoryReader* restart) {
  const double n = double(planned_atoms(o, restart));
  const double frames = double(o.steps / o.every + 1);
  const double value = o.precision == "single" ? 4 : 8;
  const double per_frame = n * 3 * value * (1 + !o.no_velocities + o.write_forces) + 256;
  RunPlan plan;
  plan.outputs.push_back({o.out, "--out", {".h5", ".h5md"}, frames * per_frame, false});
  const double rows = double(o.steps / (o.log_every > 0 ? o.log_every : o.every) + 1);
  plan.outputs.push_back({o.log, "--log", {}, rows * 120, !given(cmd, "--log")});
  if (!o.restart.empty()) plan.inputs.push_back(o.restart);
  // Positions, velocities and forces, their host copies, and a neighbour list of about 80
  // partners per atom at liquid densities.
  plan.memory_bytes = n * (9 * 2 * value + 80 * 4);
  plan.size_option = "--atoms (or --every for the trajectory)";
  plan.force = o.force;
  preflight(plan);
}

const std::vector<std::string> observable_names = {"temperature", "potential_energy",
                                                   "kinetic_energy", "total_energy", "pressure"};

// Like gmx grompp -t: the last frame that has velocities; a file without any (XTC stores none)
// gives its last frame, with fresh Maxwell-Boltzmann velocities at --temperature, and says so.
MdState restart_state(io::TrajectoryReader& reader, const MdOptions& o) {
  const std::int64_t frames = reader.n_frames();
  if (frames == 0) throw InputError({o.restart, "frames", -1}, "has no frames to restart from");
  std::int64_t frame = frames - 1;
  while (frame >= 0 && !reader.has_velocities(frame)) --frame;
  const bool velocities = frame >= 0;
  if (!velocities) frame = frames - 1;
  MdState s;
  s.positions.resize(std::size_t(reader.n_atoms()));
  io::FrameInfo info;
  if (velocities) {
    s.velocities.resize(s.positions.size());
    info = reader.read_frame_with_velocities(frame, s.positions.data(), s.velocities.data());
  } else {
    info = reader.read_frame(frame, s.positions.data());
  }
  const BoxSpec& b = info.box;
  if (b.kind != BoxKind::orthorhombic)
    throw InputError({o.restart, "box", long(frame)},
                     "kmol md needs an orthorhombic periodic box; this frame's is " +
                         std::string(b.kind == BoxKind::none ? "absent" : "triclinic"));
  s.box = {b.edges[0].x, b.edges[1].y, b.edges[2].z};
  if (const auto pair = md::coincident_atoms(s.positions, s.box))
    throw InputError({o.restart, "positions", long(frame)},
                     fmt::format("atoms {} and {} of this frame sit at the same point, where the "
                                 "force between them is infinite (a damaged frame?)",
                                 pair->first, pair->second));
  s.step = info.step;
  s.time = info.time;
  std::string note = ", with its velocities";
  if (!velocities) {
    maxwell_boltzmann(s, o.temperature, o.seed);
    note = fmt::format(
        "; {}: fresh Maxwell-Boltzmann velocities at "
        "--temperature {} (--seed {})",
        frames > 1 ? "no frame of the file has velocities" : "the file stores no velocities",
        o.temperature, o.seed);
  } else if (frame != frames - 1) {
    note += " (the last frame that has them; " +
            (frame + 2 == frames ? fmt::format("frame {} has", frame + 1)
                                 : fmt::format("frames {} to {} have", frame + 1, frames - 1)) +
            " positions only)";
  }
  fmt::print(stderr, "kmol md: restarting from {} ({}) frame {} (step {}, {} atoms){}\n", o.restart,
             reader.description(), frame, s.step, s.positions.size(), note);
  return s;
}

MdState starting_state(const MdOptions& o, io::TrajectoryReader* restart) {
  if (restart != nullptr) return restart_state(*restart, o);
  std::array<int, 3> cells;
  if (!o.cells.empty()) {
    cells = {o.cells[0], o.cells[1], o.cells[2]};
  } else {
    const int k = fcc_cells_per_side(o.atoms);
    cells = {k, k, k};
    if (std::int64_t(4) * k * k * k != o.atoms)
      fmt::print(stderr,
                 "kmol md: --atoms {} rounded to a full FCC lattice of {}^3 cells: {} atoms\n",
                 o.atoms, k, 4 * k * k * k);
  }
  MdState s = fcc_lattice(cells, o.density);
  maxwell_boltzmann(s, o.temperature, o.seed);
  return s;
}

class ThermoLog {
 public:
  ThermoLog(const std::string& path, const std::string& header) : output_(path, "--log") {
    file_.emplace(fmt::output_file(output_.temporary()));
    file_->print("{}", header);
    file_->print("step,time,temperature,potential_energy,kinetic_energy,total_energy,pressure\n");
  }
  void add(const MdThermo& t) {
    file_->print("{},{:.6f},{:.10g},{:.12g},{:.12g},{:.12g},{:.10g}\n", t.step, t.time,
                 t.temperature, t.potential, t.kinetic, t.total, t.pressure);
  }
  void close() {
    file_->close();
    file_.reset();
    output_.commit();
  }

 private:
  TemporaryFile output_;
  std::optional<fmt::ostream> file_;  // closed before output_ removes an unfinished log
};

// A one-line bar on a terminal; nothing when stderr is a file or --quiet.
class ProgressBar {
 public:
  ProgressBar(std::int64_t first, std::int64_t last, std::int64_t atoms, bool show)
      : first_(first),
        last_(last),
        atoms_(atoms),
        show_(show && isatty(fileno(stderr))),
        start_(now()) {}
  void update(std::int64_t step, bool final = false) {
    if (!show_) return;
    const double t = seconds();
    if (!final && t - shown_ < 0.2) return;
    shown_ = t;
    const double done = last_ > first_ ? double(step - first_) / double(last_ - first_) : 1;
    const int width = 30, filled = int(done * width);
    fmt::print(stderr, "\r[{}{}] {:5.1f}%  step {}/{}  {:.2f} M atom-steps/s",
               std::string(filled, '#'), std::string(width - filled, ' '), 100 * done, step, last_,
               t > 0 ? double(atoms_) * double(step - first_) / t * 1e-6 : 0.0);
    if (final) fmt::print(stderr, "\n");
  }
  double seconds() const { return std::chrono::duration<double>(now() - start_).count(); }

 private:
  static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
  std::int64_t first_, last_, atoms_;
  bool show_;
  std::chrono::steady_clock::time_point start_;
  double shown_ = -1;
};

template <class ExecSpace, class T>
int simulate(const ExecSpace& space, const MdOptions& o, const MdState& start,
             const MdSettings& settings) {
  MdSimulation<ExecSpace, T> md(space, start, settings);
  const std::int64_t n = md.atoms(), first = start.step, last = start.step + o.steps;
  const std::int64_t log_every = o.log_every > 0 ? o.log_every : o.every;
  std::unique_ptr<io::H5mdWriter> trajectory;
  if (!o.out.empty()) {
    io::H5mdWriterOptions w;
    w.species_names = {"LJ"};
    w.velocities = !o.no_velocities;
    w.forces = o.write_forces;
    w.observables = observable_names;
    w.double_precision = std::is_same_v<T, double>;
    w.creator = "kmol md";
    // Reduced units under the labels analysis tools read (sigma as Angstrom, tau as ps): see
    // docs/md.md.
    w.force_unit = "epsilon sigma-1";
    trajectory =
        std::make_unique<io::H5mdWriter>(o.out, n, std::vector<std::int32_t>(std::size_t(n), 0), w);
  }
  const std::string header = fmt::format(
      "# kmol {} md: {} atoms, box {:.6f} {:.6f} {:.6f}, cutoff {}, skin {}, dt {}, thermostat {}, "
      "precision {}\n"
      "# implementation {}; reduced LJ units; energies per atom\n",
      kmol_version(), n, start.box.x, start.box.y, start.box.z, o.cutoff, o.skin, o.dt,
      o.thermostat, o.precision, to_string(md.impl()));
  ThermoLog log(o.log, header);
  auto record = [&](std::int64_t step) {
    const bool frame = trajectory && ((step - first) % o.every == 0 || step == last);
    const bool row = (step - first) % log_every == 0 || step == last;
    if (!frame && !row) return;
    const MdThermo t = md.thermo();
    if (row) log.add(t);
    if (frame) {
      const MdState s = md.state();
      std::vector<Vec3<double>> f;
      if (o.write_forces) f = md.forces();
      trajectory->append(
          {s.step, s.time, BoxSpec::orthorhombic(s.box.x, s.box.y, s.box.z), s.positions.data(),
           o.no_velocities ? nullptr : s.velocities.data(), o.write_forces ? f.data() : nullptr},
          {t.temperature, t.potential, t.kinetic, t.total, t.pressure});
    }
  };
  ProgressBar bar(first, last, n, !o.quiet);
  MdThermo checked = md.thermo();
  // Whatever ends the run early keeps what was written up to the last good step.
  auto keep_and_stop = [&](std::int64_t step) {
    if (trajectory) trajectory->close();
    log.close();
    return step;
  };
  auto resume_command = [&](std::int64_t step) {
    if (!trajectory || trajectory->frames_written() == 0) return std::string();
    const std::string next = o.out.substr(0, o.out.rfind('.')) + "-from-" + std::to_string(step) +
                             o.out.substr(o.out.rfind('.'));
    return "; resume with: " +
           command_line_with(
               {"--restart", "--steps", "--out", "--atoms", "--cells", "--density"},
               {"--restart", o.out, "--steps", std::to_string(last - step), "--out", next});
  };
  StopPoint stop;
  record(first);
  std::int64_t last_frame = first;
  for (std::int64_t step = first; step < last;) {
    auto next_multiple = [&](std::int64_t k) { return first + ((step - first) / k + 1) * k; };
    std::int64_t next =
        std::min({last, next_multiple(o.every), next_multiple(log_every), step + 50});
    md.run(next - step);
    step = next;
    if ((step - first) % log_every == 0 || step == last) {
      const MdThermo now = md.thermo();
      // The configuration comes to the host only when an atom fails the check on the device.
      const bool suspect = md.first_unphysical_atom(o.dt) >= 0;
      if (auto problem = md_health_problem(checked, now, suspect ? md.state() : MdState{}, o.dt)) {
        keep_and_stop(step);
        throw RunFailure("kmol md stopped: " + *problem + "; " +
                         (trajectory
                              ? fmt::format("{} keeps the frames up to step {}", o.out, last_frame)
                              : std::string("nothing was written but the log")) +
                         fmt::format(" ({} has the rows up to the last check)", o.log));
      }
      checked = now;
    }
    record(step);
    if (trajectory && ((step - first) % o.every == 0 || step == last)) last_frame = step;
    bar.update(step, step == last);
    if (stop_requested() && step < last) {
      keep_and_stop(step);
      stop.check(fmt::format("{}{} kept up to step {}{}", o.log,
                             trajectory ? " and " + o.out : std::string(), step,
                             resume_command(last_frame)));
    }
  }
  const double seconds = bar.seconds();
  if (trajectory) trajectory->close();
  log.close();
  const MdThermo t = md.thermo();
  fmt::print(
      "{} atoms, {} steps in {:.3f} s ({:.3f} M atom-steps/s) with {} ({}, {} list builds); T "
      "{:.4f}, E/N {:.6f}, "
      "P {:.4f}\n",
      n, o.steps, seconds, seconds > 0 ? double(n) * double(o.steps) / seconds * 1e-6 : 0.0,
      to_string(md.impl()), md.launch(), md.list_builds(), t.temperature, t.total, t.pressure);
  fmt::print("wrote {}{}{}\n", o.log, o.out.empty() ? "" : " and ", o.out);
  return 0;
}

template <class ExecSpace>
int simulate_on(const ExecSpace& space, const MdOptions& o, const MdState& start,
                const MdSettings& settings) {
  return o.precision == "single" ? simulate<ExecSpace, float>(space, o, start, settings)
                                 : simulate<ExecSpace, double>(space, o, start, settings);
}

}  // namespace

Action add_md_command(CLI::App& app) {
  auto o = std::make_shared<MdOptions>();
  auto* cmd = app.add_subcommand(
      "md", "Lennard-Jones molecular dynamics (reduced units), H5MD trajectory and CSV log");
  cmd->add_option("--atoms", o->atoms, "Atoms of the FCC start (rounded to 4 k^3)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--cells", o->cells, "FCC unit cells nx ny nz instead of --atoms")
      ->expected(3)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--density", o->density, "Number density of the FCC start");
  cmd->add_option("--temperature", o->temperature, "Starting temperature, and the thermostat's");
  cmd->add_option("--steps", o->steps, "Steps to run (0: evaluate the starting frame)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--dt", o->dt, "Time step");
  cmd->add_option("--cutoff", o->cutoff, "Cutoff r_c of the shifted-force potential");
  cmd->add_option("--skin", o->skin, "Neighbour-list skin");
  cmd->add_option("--thermostat", o->thermostat, "none, andersen or langevin")
      ->check(CLI::IsMember({"none", "andersen", "langevin"}));
  cmd->add_option("--coupling", o->coupling,
                  "Andersen collision frequency or Langevin friction (1/time)");
  cmd->add_option("--seed", o->seed, "rand48 seed of the velocities and thermostat");
  cmd->add_option("--impl", o->impl,
                  "auto, all_pairs, cuda, cells, neighbour, host (alias cpu); neighbour_half and "
                  "neighbour_full also name the list");
  cmd->add_option("--list", o->list,
                  "Neighbour lists of --impl neighbour: full (each atom every partner, no atomics) "
                  "or half (each pair once)")
      ->check(CLI::IsMember({"full", "half"}));
  add_precision_option(cmd, o->precision);
  add_device_option(cmd, o->device);
  add_threads_option(cmd, o->threads);
  cmd->add_option("--out", o->out, "H5MD trajectory file");
  cmd->add_option("--every", o->every, "Steps between trajectory frames")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--log", o->log, "Thermodynamic log (CSV)");
  cmd->add_option("--log-every", o->log_every, "Steps between log rows (default: --every)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--restart", o->restart,
                  "Continue from the last frame with velocities of this trajectory (H5MD, TRR, "
                  "TNG; XTC or a file without velocities: its last frame at --temperature)")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--no-velocities", o->no_velocities, "Leave velocities out of the trajectory");
  cmd->add_flag("--write-forces", o->write_forces, "Also store forces in the trajectory");
  cmd->add_flag("--quiet", o->quiet, "No progress bar");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    check_option_use(*cmd, *o);
    const auto restart = o->restart.empty() ? nullptr : io::open_trajectory_file(o->restart);
    preflight_md(*cmd, *o, restart.get());
    Runtime runtime({o->threads, -1});
    MdSettings settings;
    settings.cutoff = o->cutoff;
    settings.skin = o->skin;
    settings.dt = o->dt;
    settings.thermostat = thermostat_from_string(o->thermostat);
    settings.temperature = o->temperature;
    settings.coupling = o->coupling;
    settings.seed = o->seed;
    settings.list = md_list_from_string(o->list);
    set_md_force(settings, o->impl);
    const MdState start = starting_state(*o, restart.get());
    // Steps count on from the start's within +-2^53, as every reader's steps lie.
    if (o->steps > io::max_exact_step - start.step)
      throw InputError({"", "--steps", -1},
                       fmt::format("{} steps from step {} pass 2^53", o->steps, start.step));
    return with_space(o->device,
                      [&](const auto& space) { return simulate_on(space, *o, start, settings); });
  };
}

}  // namespace kmol::cli
