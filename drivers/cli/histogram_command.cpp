// kmol histogram: pair-distance histogram and g(r) of one frame (a built-in example or an XYZ
// file), written as CSV.
#include <fmt/core.h>
#include <fmt/os.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/cli/pool_options.hpp"
#include "drivers/library/coordinates.hpp"
#include "drivers/library/device_policy.hpp"
#include "drivers/library/example_systems.hpp"
#include "drivers/library/gpu_runtime.hpp"
#include "drivers/library/pool_pair_histogram.hpp"
#include "drivers/library/result_check.hpp"
#include "drivers/library/xyz_reader.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/views.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/precision.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct HistogramOptions {
  std::string example = "fcc";
  int cells = 6;
  std::int64_t atoms = 4000;
  double length = 40;
  std::string xyz;
  std::vector<double> box_lengths, box_edges;
  double r_min = 0, r_max = 0;
  std::int32_t bins = 200;
  std::string impl = "auto", precision = "single", device = "auto", norm = "rdf",
              out = "histogram.csv";
  int threads = -1;
  PoolOptions pool;
  std::int32_t regions = 1;
  bool force = false, allow_empty = false;
};

// The built-in systems' options mean nothing beside --xyz, and each only for its own system.
void preflight_histogram(const CLI::App& cmd, const HistogramOptions& o) {
  excludes(cmd, "--example", "--xyz");
  needs_mode(cmd, {"--cells"}, o.xyz.empty() && o.example == "fcc", "--example fcc");
  needs_mode(cmd, {"--atoms", "--length"}, o.xyz.empty() && o.example == "gas", "--example gas");
  needs_option(cmd, {"--box", "--box-edges"}, "--xyz");
  excludes(cmd, "--box", "--box-edges");
  needs_mode(cmd, {"--regions"}, o.pool.wanted(), "--gpus or --simulated-gpus");
  RunPlan plan;
  plan.outputs.push_back({o.out, "--out", {".csv"}, 0, !given(cmd, "--out")});
  plan.inputs.push_back(o.xyz);
  plan.force = o.force;
  preflight(plan);
}

ExampleSystem load_system(const HistogramOptions& o) {
  if (o.xyz.empty())
    return o.example == "gas" ? ideal_gas(o.atoms, o.length, 12345) : fcc_crystal(o.cells, 4.05);
  ExampleSystem s;
  s.positions = read_xyz(o.xyz).positions;
  if (!o.box_lengths.empty())
    s.box = BoxSpec::orthorhombic(o.box_lengths[0], o.box_lengths[1], o.box_lengths[2]);
  if (!o.box_edges.empty()) {
    const auto& e = o.box_edges;
    s.box = BoxSpec::triclinic({e[0], e[1], e[2]}, {e[3], e[4], e[5]}, {e[6], e[7], e[8]});
  }
  try {
    validated(s.box);
  } catch (const InputError& e) {
    throw InputError({"", o.box_edges.empty() ? "--box" : "--box-edges", -1}, e.what());
  }
  return s;
}

// One frame on one execution space; a GPU reads the coordinates uploaded to its memory.
template <class T, class Space>
PairHistogramResult count_on(const Space& space, const ExampleSystem& s,
                             const PairHistogramSettings& settings) {
  const ConvertedCoordinates<T> xyz(s.positions);
  return pair_histogram(space, one_set(xyz.data(), xyz.size()), settings);
}

#ifdef KOKKOS_ENABLE_CUDA
template <class T>
PairHistogramResult count_on(const Kokkos::Cuda& gpu, const ExampleSystem& s,
                             const PairHistogramSettings& settings) {
  return pair_histogram(gpu, upload_coordinates<T>(gpu, s.positions), settings);
}
#endif

// --gpus: the pool's workers; --device all adds one CPU worker on the cores the GPU threads leave.
std::vector<WorkerSpec> histogram_workers(const HistogramOptions& o) {
  const int cores = Kokkos::DefaultHostExecutionSpace().concurrency();
  const int devices = o.pool.gpus >= 0
                          ? int(cuda_devices(o.pool.gpus).size()) + o.pool.simulated_gpus
                          : o.pool.simulated_gpus;
  return pool_workers(o.pool, o.device == "all" ? 1 : 0, std::max(1, cores - devices));
}

// On the pool when there is one (--gpus), else on one execution space.
template <class T>
PairHistogramResult compute(const HistogramOptions& o, const ExampleSystem& s,
                            const PairHistogramSettings& settings, WorkerPool* pool) {
  if (pool == nullptr)
    return with_space(o.device, [&](const auto& space) { return count_on<T>(space, s, settings); });
  const ConvertedCoordinates<T> xyz(s.positions);
  return pair_histogram_on_pool(*pool, one_set(xyz.data(), xyz.size()), settings,
                                TileOptions{2, o.regions});
}

// Writes next to the target and renames, so a failed run never leaves a half-written file.
void write_csv(const std::string& path, const HistogramOptions& o,
               const PairHistogramResult& result, const Rdf& rdf, std::size_t atoms,
               double seconds) {
  TemporaryFile output(path, "--out");
  {
    auto f = fmt::output_file(output.temporary());
    f.print("# kmol {} histogram: {} atoms, one set, {} bins, r in Angstrom [{}, {})\n",
            kmol_version(), atoms, o.bins, o.r_min, o.r_max);
    f.print("# implementation {} ({}), precision {}, {:.6f} s\n", to_string(result.impl_used),
            result.launch, o.precision, seconds);
    f.print("# normalisation {}; n = cumulative coordination number\n", o.norm);
    f.print("r_low,r_high,r_centre,count,g,n\n");
    for (std::int32_t k = 0; k < o.bins; ++k)
      f.print("{:.6f},{:.6f},{:.6f},{},{:.8g},{:.8g}\n", rdf.edges[k], rdf.edges[k + 1],
              rdf.centres[k], result.counts[k], rdf.g[k], rdf.coordination[k]);
  }
  output.commit();
}

}  // namespace

Action add_histogram_command(CLI::App& app) {
  auto o = std::make_shared<HistogramOptions>();
  auto* cmd = app.add_subcommand("histogram", "Pair-distance histogram and g(r) of one frame");
  cmd->add_option("--example", o->example, "Built-in system when no --xyz: fcc (crystal) or gas")
      ->check(CLI::IsMember({"fcc", "gas"}));
  cmd->add_option("--cells", o->cells, "fcc: unit cells per side (4 atoms each)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--atoms", o->atoms, "gas: number of atoms")->check(CLI::PositiveNumber);
  cmd->add_option("--length", o->length, "gas: box side in Angstrom")->check(CLI::PositiveNumber);
  cmd->add_option("--xyz", o->xyz, "Read the first frame of this XYZ file (Angstrom)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--box", o->box_lengths, "Orthorhombic box lengths lx ly lz (with --xyz)")
      ->expected(3);
  cmd->add_option("--box-edges", o->box_edges, "Triclinic edge vectors ax ay az bx by bz cx cy cz")
      ->expected(9);
  cmd->add_option("--rmin", o->r_min, "Smallest distance binned (Angstrom)");
  cmd->add_option("--rmax", o->r_max,
                  "Largest distance binned (Angstrom); default: the box's limit")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--bins", o->bins, "Number of bins");
  cmd->add_option("--impl", o->impl, "auto, kokkos, host, cuda or cells");
  add_precision_option(cmd, o->precision);
  cmd->add_option("--device", o->device,
                  "auto, cpu, gpu, or all (with --gpus: a CPU worker beside the GPUs)")
      ->check(CLI::IsMember({"auto", "cpu", "gpu", "all"}));
  add_pool_options(cmd, o->pool, "tiles of pairs");
  cmd->add_option("--regions", o->regions,
                  "With --gpus: histogram regions per tile (0: one per 32,768 bins)")
      ->check(CLI::NonNegativeNumber);
  add_threads_option(cmd, o->threads);
  cmd->add_option("--norm", o->norm, "rdf, density or none")
      ->check(CLI::IsMember({"rdf", "density", "none"}));
  cmd->add_option("--out", o->out, "Output CSV file");
  add_force_flag(cmd, o->force);
  cmd->add_flag("--allow-empty", o->allow_empty,
                "Write a result with no pair in range (a warning) instead of refusing it");
  return [o, cmd] {
    preflight_histogram(*cmd, *o);
    if (o->device == "all" && !o->pool.wanted())
      throw InputError({"", "--device", -1}, "all: give --gpus N (0: every GPU)");
    if (o->device == "cpu" && o->pool.wanted())
      throw InputError({"", "--gpus", -1}, "needs --device auto, gpu or all");
    // The input is built or read (host code only) while the runtime starts: starting a GPU's
    // context and loading its kernels takes a few hundred milliseconds.
    auto loading = std::async(std::launch::async, [&] { return load_system(*o); });
    Runtime runtime({o->threads, -1});
    const ExampleSystem system = loading.get();
    PairHistogramSettings settings;
    settings.box = system.box;
    settings.r_min = o->r_min;
    if (o->r_max <= 0 && system.box.kind == BoxKind::none)
      throw InputError({"", "--rmax", -1}, "required when there is no periodic box");
    const bool default_range = o->r_max <= 0;
    settings.r_max =
        o->r_max > 0 ? o->r_max : 0.999999 * minimum_image_radius(validated(system.box));
    o->r_max = settings.r_max;
    settings.n_bins = o->bins;
    settings.impl = pair_histogram_impl_from_string(o->impl);
    // The pool's GPU threads bind their devices (a CUDA context each takes a while) before the
    // clock starts, so that the time is the counting's; the setup is reported on its own.
    Kokkos::Timer setup_timer;
    std::optional<WorkerPool> pool;
    if (o->pool.wanted()) pool.emplace(histogram_workers(*o));
    const double setup_seconds = setup_timer.seconds();
    Kokkos::Timer timer;
    const Precision precision = o->precision == "double" ? Precision::double_ : Precision::single;
    WorkerPool* workers = pool ? &*pool : nullptr;
    const auto result = precision == Precision::double_
                            ? compute<double>(*o, system, settings, workers)
                            : compute<float>(*o, system, settings, workers);
    const double seconds = timer.seconds();
    RdfCountsSummary summary{
        result.counts,
        settings.r_min,
        settings.r_max,
        1,
        std::int64_t(system.positions.size()),
        0,
        true,
        0,
        system.box.kind == BoxKind::none ? 0 : 1 / volume(validated(system.box))};
    const Rdf rdf = normalize_rdf(summary, rdf_normalization_from_string(o->norm));
    ResultOptions check;
    check.allow_empty = o->allow_empty;
    check.input = o->xyz;
    if (!o->xyz.empty() && default_range)
      check.range_origin = minimum_image_radius_origin(system.box, "given by --box or --box-edges");
    const std::string warning = check_rdf(summary, rdf, check);
    if (!warning.empty()) fmt::print(stderr, "kmol: warning: {}\n", warning);
    write_csv(o->out, *o, result, rdf, system.positions.size(), seconds);
    const double pairs =
        0.5 * double(system.positions.size()) * double(system.positions.size() - 1);
    const std::string setup =
        pool ? fmt::format("; {} workers set up {:.2f} s before", pool->size(), setup_seconds) : "";
    fmt::print("{} atoms, {:.3g} pairs in {:.4f} s ({:.3f} G pairs/s{}) with {}; wrote {}\n",
               system.positions.size(), pairs, seconds, pairs / seconds * 1e-9, setup,
               to_string(result.impl_used), o->out);
    return 0;
  };
}

}  // namespace kmol::cli
