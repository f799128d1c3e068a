// kmol histograms: every species-pair partial histogram of every frame, summed over intervals of K
// frames and written to HDF5 (compressed, one dataset per interval, species names as attributes),
// the job CADISHI does.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/trajectory_options.hpp"
#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {
namespace {

using io::Hid;

struct HistogramsOptions {
  TrajectoryOptions trajectory;
  bool force = false;
  std::string selection = "all", out = "histograms.h5";
};

void write_histograms(const std::string& path, const HistogramsOptions& o, const Trajectory& t,
                      const RunState& state, const std::vector<std::string>& species,
                      std::int32_t n_species) {
  write_atomically(path, [&](const std::string& temporary) {
    io::QuietHdf5 quiet;
    // No timestamps: equal runs (any number of MPI ranks) write equal bytes.
    const io::FileGroup out = io::create_file_group(temporary, path, "histograms");
    const Hid& group = out.group;
    const Hid untimed = io::untimed_dataset_properties();
    std::vector<std::string> pairs;
    for (std::int32_t a = 0; a < n_species; ++a)
      for (std::int32_t b = a; b < n_species; ++b) pairs.push_back(species[a] + "," + species[b]);
    io::write_string_attribute(group.get(), "creator", "kmol " + kmol_version());
    io::write_string_attribute(group.get(), "trajectory", t.reader->path());
    io::write_string_attribute(group.get(), "selection", o.selection);
    io::write_string_array_attribute(group.get(), "species", species);
    io::write_string_array_attribute(group.get(), "species_pairs", pairs);
    io::write_string_attribute(
        group.get(), "layout",
        "interval_NNNNNN: [species pair][bin] counts of pairs, summed over the interval's frames");
    io::write_int_attribute(group.get(), "interval_frames", {int(state.interval())});
    const std::int32_t bins = o.trajectory.bins;
    std::vector<double> edges(bins + 1);
    const HistogramRange<double> range(t.r_min, t.r_max, bins);
    for (std::int32_t k = 0; k <= bins; ++k) edges[k] = range.edge(k);
    {
      const hsize_t n = edges.size();
      Hid space(H5Screate_simple(1, &n, nullptr));
      Hid d(H5Dcreate2(group.get(), "edges", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                       untimed.get(), H5P_DEFAULT));
      H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, edges.data());
      io::write_string_attribute(d.get(), "unit", "Angstrom");
    }
    const hsize_t dims[2] = {hsize_t(pairs.size()), hsize_t(bins)};
    for (std::int64_t k = 0; k < state.n_intervals(); ++k) {
      Hid space(H5Screate_simple(2, dims, nullptr));
      Hid properties = io::untimed_dataset_properties();
      H5Pset_chunk(properties.get(), 2, dims);
      H5Pset_shuffle(properties.get());
      H5Pset_deflate(properties.get(), 4);
      const std::string name = fmt::format("interval_{:06d}", k);
      Hid d(H5Dcreate2(group.get(), name.c_str(), H5T_STD_U64LE, space.get(), H5P_DEFAULT,
                       properties.get(), H5P_DEFAULT));
      if (H5Dwrite(d.get(), H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                   state.interval_counts(k).data()) < 0)
        throw InputError({path, name, -1}, "cannot write");
      const std::int64_t first = k * state.interval();
      const std::int64_t last =
          std::min<std::int64_t>(first + state.interval(), std::int64_t(t.frames.size())) - 1;
      io::write_int_attribute(d.get(), "first_frame", {int(t.frames[first])});
      io::write_int_attribute(d.get(), "last_frame", {int(t.frames[last])});
      io::write_int_attribute(d.get(), "frames", {int(last - first + 1)});
    }
  });
}

int run_histograms(HistogramsOptions& o) {
  Runtime runtime({o.trajectory.threads, -1});
  TrajectoryOptions& to = o.trajectory;
  Trajectory t = open_trajectory(to);
  FrameJob job;
  job.atoms_a = selected_atoms(o.selection, t.atoms, "--sel");
  // The species the selected atoms have, in the file's numbering order (one species when the
  // file has none): ids no selected atom has get no histograms, so a numbering with gaps, or an
  // id damaged to billions, costs nothing.
  std::vector<std::int32_t> ids;
  for (auto i : job.atoms_a)
    if (!t.atoms.species.empty()) ids.push_back(t.atoms.species[i]);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.empty()) ids.push_back(0);
  const auto n_species = std::int32_t(ids.size());
  std::vector<std::string> names;
  for (std::int32_t id : ids)
    names.push_back(std::size_t(id) < t.atoms.species_names.size() ? t.atoms.species_names[id]
                                                                   : std::to_string(id));
  if (!t.atoms.species.empty()) {
    for (auto i : job.atoms_a)
      job.species.push_back(
          std::int32_t(std::lower_bound(ids.begin(), ids.end(), t.atoms.species[i]) - ids.begin()));
    job.settings.n_species = n_species;
  }
  const std::int64_t n_pairs = std::int64_t(n_species) * (n_species + 1) / 2;
  set_pair_settings(to, t, job);
  to.on_progress = progress_bar(to);
  const auto [state, stats, state_path] = run_resumable(
      t, job, to, n_pairs, o.out, run_fingerprint("histograms sel=" + o.selection, to, t));
  if (!Cluster::root()) {  // rank 0 writes the outputs
    std::remove(state_path.c_str());
    return 0;
  }
  const auto n = std::int64_t(job.atoms_a.size());
  try {
    check_counts(to, state.total(), t, distinct_pairs(n, n, true, 0));
  } catch (...) {
    std::remove(state_path.c_str());  // a refused result leaves nothing, its partial state neither
    throw;
  }
  write_histograms(o.out, o, t, state, names, n_species);
  std::remove(state_path.c_str());
  if (!to.quiet)
    fmt::print("{}\n{} species pairs x {} bins, {} intervals of {} frames; wrote {}\n",
               describe_stats(stats, stats.frames), n_pairs, to.bins, state.n_intervals(),
               to.interval, o.out);
  return 0;
}

void preflight_histograms(const CLI::App& cmd, const HistogramsOptions& o) {
  preflight(trajectory_plan(cmd, o.trajectory, o.out, {".h5", ".hdf5"}, o.force));
}

}  // namespace

Action add_histograms_command(CLI::App& app) {
  auto o = std::make_shared<HistogramsOptions>();
  auto* cmd = app.add_subcommand(
      "histograms", "All species-pair distance histograms, summed per interval of frames, to HDF5");
  add_trajectory_options(cmd, o->trajectory, 10);
  cmd->add_option("--sel", o->selection, "Atoms to include (default all)");
  cmd->add_option("--out", o->out, "HDF5 output");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    preflight_histograms(*cmd, *o);
    return run_histograms(*o);
  };
}

}  // namespace kmol::cli
