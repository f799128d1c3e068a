// kmol potential: the electrostatic potential of a PQR structure on a lattice (direct Coulomb,
// cutoff or multiple Debye-Hueckel), written as OpenDX or HDF5, optionally with a heat map of a
// plane.
#include <fmt/core.h>
#include <fmt/os.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/pool_options.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/cluster.hpp"
#include "drivers/library/coordinates.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/map_job.hpp"
#include "drivers/library/map_output.hpp"
#include "drivers/library/pool_potential.hpp"
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/coulomb/water_box.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/io/topology.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/map_check.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {
namespace {

struct PotentialOptions {
  std::string input, example, top, method = "direct", precision = "single", units = "kT/e",
                                   device = "auto", impl = "auto";
  std::string out = "potential.dx", plot, plot_axis = "z";
  double cutoff = 12, ionic_strength = 0.15, temperature = 298.15, dielectric = 0;
  double plot_at = NAN;
  LatticeRequest lattice;  // spacing 0.5, padding 10
  bool faces_only = false, compensated = false, force = false;
  int threads = -1;
  FrameChoice frames;  // of a trajectory input
  std::int64_t atoms = 96600;
  PoolOptions pool;
  std::int64_t slabs = 0;
};

// Options that only mean something in another method or with another option are refused.
void check_option_use(const CLI::App& cmd, const PotentialOptions& o) {
  if (o.input.empty() && o.example.empty())
    throw InputError({"", "input", -1},
                     "give a structure (PQR, H5MD with charges, or a trajectory with --top) or "
                     "--example water");
  excludes(cmd, "input", "--example");
  needs_mode(cmd, {"--atoms"}, !o.example.empty(), "--example water");
  needs_mode(cmd, {"--top", "--frames", "--begin", "--end", "--dt"}, !o.input.empty(),
             "an input file");
  needs_mode(cmd, {"--ionic-strength", "--faces-only"}, o.method == "mdh", "--method mdh");
  needs_mode(cmd, {"--cutoff"}, o.method == "cutoff", "--method cutoff");
  needs_trajectory_input(cmd, {"--frames", "--begin", "--end", "--dt"}, o.input);
  needs_option(cmd, {"--plot-axis", "--plot-at"}, "--plot");
  needs_mode(cmd, {"--slabs"}, o.pool.wanted(), "--gpus or --simulated-gpus");
  excludes(cmd, "--padding", "--origin");
}

void preflight_potential(const CLI::App& cmd, const PotentialOptions& o, const Grid& lattice) {
  const double points = double(lattice.points());
  const double value = o.precision == "double" ? 8 : 4;
  const bool hdf5 = has_extension(o.out, ".h5") || has_extension(o.out, ".hdf5");
  RunPlan plan;
  plan.outputs.push_back({o.out,
                          "--out",
                          {".dx", ".h5", ".hdf5"},
                          points * (hdf5 ? value : 13),
                          !given(cmd, "--out")});
  plan.outputs.push_back({o.plot, "--plot", {".png"}, 0, false});
  if (!o.input.empty()) plan.inputs.push_back(o.input);
  // The map where it is computed, its host copy, and the whole map again when it goes in slabs.
  plan.memory_bytes = 3 * points * value;
  plan.size_option =
      o.lattice.counts.empty() ? fmt::format("--spacing {}", o.lattice.spacing) : "--counts";
  plan.size_cause = lattice_cause(lattice, o.lattice.counts.empty() ? o.input : "");
  plan.force = o.force;
  preflight(plan);
}

// Frame `frame` of an H5MD file with a per-atom charge dataset, in the PQR reader's form. H5MD
// carries no radii: they are 0, and mdh (which needs them) is refused.
io::PqrAtoms read_h5md_charges(const std::string& path, std::int64_t frame, CoulombMethod method) {
  io::H5mdReader reader(path);
  if (reader.charges().empty())
    throw InputError({path, "charge", -1},
                     "the particle group has no charge dataset (needed for a potential)");
  if (method == CoulombMethod::mdh)
    throw InputError({path, "radius", -1},
                     "H5MD files carry no atomic radii, which mdh needs: use a PQR file");
  for (const auto& warning : reader.warnings()) fmt::print(stderr, "kmol: warning: {}\n", warning);
  io::PqrAtoms atoms;
  atoms.positions.resize(std::size_t(reader.n_atoms()));
  reader.read_frame(frame, atoms.positions.data());
  atoms.charges = reader.charges();
  atoms.radii.assign(atoms.size(), 0.0);
  return atoms;
}

// Frame `frame` of any trajectory kmol reads, charges from the topology (a GROMACS TPR, say).
io::PqrAtoms read_trajectory_charges(const std::string& path, const std::string& top,
                                     std::int64_t frame, CoulombMethod method) {
  const io::Topology topology = io::read_topology(top);
  if (topology.charges.empty())
    throw InputError({top, "charges", -1},
                     "the topology has no charges (needed for a potential): use a TPR or PQR");
  if (method == CoulombMethod::mdh)
    throw InputError({top, "radius", -1},
                     "mdh needs atomic radii, which only PQR files carry: use a PQR file");
  const auto reader = io::open_trajectory_file(path);
  if (std::int64_t(topology.size()) != reader->n_atoms())
    throw InputError({top, "", -1}, "has " + std::to_string(topology.size()) +
                                        " atoms, the trajectory " + path + " " +
                                        std::to_string(reader->n_atoms()));
  for (const auto& warning : reader->warnings()) fmt::print(stderr, "kmol: warning: {}\n", warning);
  io::PqrAtoms atoms;
  atoms.positions.resize(std::size_t(reader->n_atoms()));
  reader->read_frame(frame, atoms.positions.data());
  atoms.charges = topology.charges;
  atoms.radii.assign(atoms.size(), 0.0);
  return atoms;
}

// The built-in system: rigid waters at random positions and orientations, 0.1 atoms / A^3 (water's
// density), so that maps of any size run without an input file.
io::PqrAtoms example_waters(std::int64_t atoms) {
  const std::int64_t molecules = std::max<std::int64_t>(1, atoms / 3);
  const double length = std::cbrt(3 * double(molecules) / 0.1);
  coulomb::WaterBox box = coulomb::water_box(molecules, length, 2024);
  io::PqrAtoms out;
  out.positions = std::move(box.positions);
  out.charges = std::move(box.charges);
  out.radii = std::move(box.radii);
  return out;
}

io::PqrAtoms read_atoms(const PotentialOptions& o, CoulombMethod method) {
  if (!o.example.empty()) return example_waters(o.atoms);
  const io::FileKind kind = io::sniff_file(o.input);
  if (kind == io::FileKind::text) {
    if (!o.top.empty())
      throw InputError({o.top, "--top", -1}, "applies to trajectories; " + o.input +
                                                 " is a PQR structure with its own charges");
    return io::read_pqr(o.input);
  }
  if (o.top.empty()) {
    if (kind == io::FileKind::h5md_or_hdf5)
      return read_h5md_charges(o.input, one_frame(o.input, o.frames, "potential"), method);
    throw InputError({o.input, "--top", -1},
                     "is " + io::describe_file(o.input) +
                         ", which has no charges: give them with --top (a TPR, say)");
  }
  return read_trajectory_charges(o.input, o.top, one_frame(o.input, o.frames, "potential"), method);
}

template <class T, class Space>
PotentialMap<T> run_on(const Space& space, const CoulombInput<T>& input, const CoulombSettings& s) {
  return coulomb_potential(space, input, s);
}

// Under MPI: rank r computes its own contiguous range of slabs (on --gpus GPUs, or on one CPU
// worker with every host thread) and rank 0 gathers them.
template <class T>
PotentialMap<T> run_on_ranks(const PotentialOptions& o, const CoulombInput<T>& input,
                             const CoulombSettings& s) {
  const std::int64_t ranks = Cluster::size(), rank = Cluster::rank(), nz = s.lattice.counts[2];
  const std::int64_t slabs = std::min(nz, o.slabs > 0 ? o.slabs : 3 * ranks);
  WorkerPool pool(o.pool.wanted()
                      ? pool_workers(o.pool, 0, 0)
                      : pool_workers(o.pool, 1, Kokkos::DefaultHostExecutionSpace().concurrency()));
  PotentialMap<T> map = coulomb_potential_on_pool(pool, input, s, slabs, slabs * rank / ranks,
                                                  slabs * (rank + 1) / ranks);
  std::vector<std::int64_t> offsets;
  const std::int64_t plane = s.lattice.counts[0] * s.lattice.counts[1] * std::int64_t(sizeof(T));
  for (std::int64_t r = 0; r <= ranks; ++r)
    offsets.push_back(plane * slab_begin(nz, slabs, slabs * r / ranks));
  Cluster::gather_to_root(reinterpret_cast<char*>(map.values.data()), offsets);
  map.launch += " on " + std::to_string(ranks) + " MPI ranks";
  return map;
}

template <class T>
PotentialMap<T> run(const PotentialOptions& o, const CoulombInput<T>& input,
                    const CoulombSettings& s) {
  if (Cluster::size() > 1) return run_on_ranks(o, input, s);
  if (o.pool.wanted()) {
    WorkerPool pool(pool_workers(o.pool, 0, 0));
    return coulomb_potential_on_pool(pool, input, s, o.slabs);
  }
  return with_space(o.device, [&](const auto& space) { return run_on(space, input, s); });
}

// Long maps go in slabs of z planes with a progress bar on a terminal; each slab is an
// independent lattice, so the result is the same.
template <class T>
PotentialMap<T> compute(const PotentialOptions& o, const io::PqrAtoms& atoms,
                        const CoulombSettings& s) {
  const ConvertedCoordinates<T> xyz(atoms.positions);
  const MapValues<T> q = converted_values<T>(atoms.charges.data(), atoms.charges.size());
  const MapValues<T> r = s.method == CoulombMethod::mdh  // the only method that reads radii
                             ? converted_values<T>(atoms.radii.data(), atoms.radii.size())
                             : MapValues<T>();
  const CoulombInput<T> input{xyz.data(), q.data(), r.empty() ? nullptr : r.data(), xyz.size()};
  validate_coulomb(input.n, s, int(sizeof(T)));  // the whole lattice, before any slab of it
  // The pool and the ranks cut their own slabs (they would otherwise see slabs of other origins).
  const std::int64_t slabs =
      o.pool.wanted() || Cluster::size() > 1 ? 1 : slabs_for(s.lattice, potential_work(s, input.n));
  return compute_in_slabs<PotentialMap<T>>(s.lattice, slabs, [&](const Grid& lattice) {
    CoulombSettings part = s;
    part.lattice = lattice;
    return run(o, input, part);
  });
}

template <class T>
int potential(const PotentialOptions& o, const io::PqrAtoms& atoms, const CoulombSettings& s) {
  Kokkos::Timer timer;
  const PotentialMap<T> map = compute<T>(o, atoms, s);
  const double seconds = timer.seconds();
  if (!Cluster::root()) return 0;  // rank 0 writes
  const Grid& l = map.lattice;
  check_map(l, map.values.data(), potential_expectation(o.out, MapNames()));
  const std::string units = to_string(map.units);
  write_map(
      o.out, l, map.values.data(),
      {"POTENTIAL (" + units + ")", "", "potential", {{"units", units}, {"method", o.method}}, {}});
  if (!o.plot.empty())
    plot_plane({o.plot, o.plot_axis, o.plot_at, o.method + " potential", to_string(map.units),
                "potential", NAN, true},
               l, map.values.data());
  const double points = s.faces_only
                            ? double(2 * (l.counts[0] * l.counts[1] + l.counts[1] * l.counts[2] +
                                          l.counts[0] * l.counts[2]))
                            : double(l.points());
  const std::string rate = s.method == CoulombMethod::cutoff
                               ? fmt::format("{:.3g} M points/s", points / seconds * 1e-6)
                               : fmt::format("{:.3g} G atom evaluations/s",
                                             points * double(atoms.size()) / seconds * 1e-9);
  fmt::print(
      "{} atoms (total charge {:+.4f} e), lattice {} x {} x {} at {} A{}, {} in {:.4f} s with {} "
      "({}); {}; "
      "wrote {}\n",
      atoms.size(), atoms.total_charge(), l.counts[0], l.counts[1], l.counts[2], l.spacing[0],
      s.faces_only ? " (faces only)" : "", o.method, seconds, to_string(map.impl_used), map.launch,
      rate, o.out);
  return 0;
}

}  // namespace

Action add_potential_command(CLI::App& app) {
  auto o = std::make_shared<PotentialOptions>();
  auto* cmd = app.add_subcommand("potential",
                                 "Electrostatic potential map of a PQR structure (OpenDX or HDF5)");
  cmd->add_option("input", o->input,
                  "PQR file (charges in e, radii in Angstrom), H5MD with a charge dataset, or any "
                  "trajectory with --top")
      ->check(CLI::ExistingFile);
  cmd->add_option("--example", o->example,
                  "Built-in system instead of a file: water (rigid waters at 0.1 atoms / A^3)")
      ->check(CLI::IsMember({"water"}));
  cmd->add_option("--atoms", o->atoms, "water: number of atoms (rounded down to 3 k)")
      ->check(CLI::PositiveNumber);
  add_one_frame_options(cmd, o->frames, "Trajectory input");
  cmd->add_option("--top", o->top,
                  "Trajectory input: charges from this topology (TPR or PQR, atoms in order)");
  cmd->add_option("--method", o->method,
                  "direct (Coulomb sum), cutoff (NAMD shifting) or mdh (Debye-Hueckel)")
      ->check(CLI::IsMember({"direct", "cutoff", "mdh"}));
  add_lattice_options(cmd, o->lattice);
  cmd->add_option("--cutoff", o->cutoff, "cutoff: radius (Angstrom)");
  cmd->add_option("--ionic-strength", o->ionic_strength,
                  "mdh: ionic strength of a 1:1 salt (mol/L)");
  cmd->add_option("--temperature", o->temperature,
                  "Temperature (K): kT/e units and the Debye length");
  cmd->add_option("--dielectric", o->dielectric,
                  "Relative permittivity (default: 1 for direct/cutoff, 78.54 for mdh)");
  cmd->add_flag("--faces-only", o->faces_only,
                "mdh: only the six boundary faces (APBS' boundary condition)");
  add_precision_option(cmd, o->precision);
  cmd->add_flag("--compensated", o->compensated, "Compensated (Kahan) summation");
  cmd->add_option("--units", o->units, "kT/e, V or kcal/mol/e");
  add_device_option(cmd, o->device);
  cmd->add_option("--impl", o->impl, "auto, kokkos, host or cuda");
  add_pool_options(cmd, o->pool, "slabs of z planes");
  cmd->add_option("--slabs", o->slabs, "With --gpus: slabs of z planes (0: three per GPU)")
      ->check(CLI::NonNegativeNumber);
  add_threads_option(cmd, o->threads);
  cmd->add_option("--out", o->out, "Output map: .dx (OpenDX, APBS' dialect) or .h5 (HDF5)");
  cmd->add_option("--plot", o->plot, "Also draw a heat map of one lattice plane into this PNG");
  add_plane_options(cmd, o->plot_axis, o->plot_at);
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    check_option_use(*cmd, *o);
    if (o->device == "cpu" && o->pool.wanted())
      throw InputError({"", "--gpus", -1}, "needs --device auto or gpu");
    CoulombSettings s;
    s.method = coulomb_method_from_string(o->method);
    const io::PqrAtoms atoms = read_atoms(*o, s.method);
    s.impl = coulomb_impl_from_string(o->impl);
    s.units = potential_units_from_string(o->units);
    s.cutoff = o->cutoff;
    s.ionic_strength = o->ionic_strength;
    s.temperature = o->temperature;
    s.dielectric = o->dielectric;
    s.faces_only = o->faces_only;
    s.compensated = o->compensated;
    if (cmd->count("--dielectric") > 0 && !(o->dielectric > 0))
      throw InputError({"", "--dielectric", -1}, "must be positive");
    s.lattice =
        map_lattice(o->lattice,
                    {atoms.positions.data(), std::int64_t(atoms.size()),
                     atoms.atom_names.empty() ? nullptr : atoms.atom_names.data(), o->input},
                    MapNames());
    preflight_potential(*cmd, *o, s.lattice);
    Runtime runtime({o->threads, -1});
    return o->precision == "double" ? potential<double>(*o, atoms, s)
                                    : potential<float>(*o, atoms, s);
  };
}

}  // namespace kmol::cli
