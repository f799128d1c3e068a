// kmol example-trajectory: an H5MD trajectory kmol makes itself, so that whole-trajectory analyses
// run without input files: a vibrating fcc crystal (known g(r) peaks) or an ideal gas (g = 1).
#include <fmt/core.h>

#include <cmath>
#include <random>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/cli/option_checks.hpp"
#include "drivers/library/example_systems.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/io/units.hpp"
#include "kmol/core/preflight.hpp"

namespace kmol::cli {
namespace {

struct ExampleTrajectoryOptions {
  std::string example = "fcc", out = "example.h5";
  int cells = 10;
  std::int64_t atoms = 10000, frames = 20;
  std::string length = "50", lattice = "4.05", jitter = "0.1";
  int compression = 0;
  std::uint64_t seed = 2026;
  bool double_precision = false, force = false;
};

int run(const ExampleTrajectoryOptions& o) {
  const double length = io::parse_length(o.length, "--length"),
               a = io::parse_length(o.lattice, "--lattice");
  const double jitter = io::parse_length(o.jitter, "--jitter");
  const ExampleSystem base =
      o.example == "gas" ? ideal_gas(o.atoms, length, o.seed) : fcc_crystal(o.cells, a);
  const std::int64_t n = std::int64_t(base.positions.size());
  // Two species alternating, so that species selections and partial histograms have work.
  std::vector<std::int32_t> species(n);
  for (std::int64_t i = 0; i < n; ++i) species[i] = std::int32_t(i % 2);
  io::H5mdWriterOptions options;
  options.species_names = {"A", "B"};
  options.compression_level = o.compression;
  options.double_precision = o.double_precision;
  io::H5mdWriter writer(o.out, n, species, options);
  std::mt19937_64 random(o.seed);
  std::normal_distribution<double> normal(0, jitter > 0 ? jitter : 1);
  std::vector<Vec3<double>> xyz(base.positions.size());
  for (std::int64_t f = 0; f < o.frames; ++f) {
    if (o.example == "gas") {
      xyz = ideal_gas(n, length, o.seed + std::uint64_t(f)).positions;
    } else {
      for (std::size_t i = 0; i < xyz.size(); ++i)
        xyz[i] = jitter > 0 ? base.positions[i] +
                                  Vec3<double>{normal(random), normal(random), normal(random)}
                            : base.positions[i];
    }
    writer.append(io::H5mdFrameView<double>{f * 100, f * 0.2, base.box, xyz.data()});
  }
  writer.close();
  fmt::print("wrote {}: {} frames of {} atoms ({})\n", o.out, o.frames, n, o.example);
  return 0;
}

}  // namespace

Action add_example_trajectory_command(CLI::App& app) {
  auto o = std::make_shared<ExampleTrajectoryOptions>();
  auto* cmd =
      app.add_subcommand("example-trajectory", "Write a built-in example trajectory (H5MD)");
  cmd->add_option("--example", o->example,
                  "fcc (a vibrating crystal) or gas (independent ideal-gas frames)")
      ->check(CLI::IsMember({"fcc", "gas"}));
  cmd->add_option("--cells", o->cells, "fcc: unit cells per side (4 atoms each)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--lattice", o->lattice, "fcc: lattice constant (Angstrom, or with a unit)");
  cmd->add_option("--jitter", o->jitter,
                  "fcc: standard deviation of each coordinate's displacement");
  cmd->add_option("--atoms", o->atoms, "gas: number of atoms")->check(CLI::PositiveNumber);
  cmd->add_option("--length", o->length, "gas: box side (Angstrom, or with a unit)");
  cmd->add_option("--frames", o->frames, "Number of frames")->check(CLI::PositiveNumber);
  cmd->add_option("--compression", o->compression, "gzip level 0-9 (0: none, fastest to read)")
      ->check(CLI::Range(0, 9));
  cmd->add_option("--seed", o->seed, "Random seed");
  cmd->add_flag("--double", o->double_precision, "Store float64 coordinates (default float32)");
  cmd->add_option("--out", o->out, "Output H5MD file");
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    needs_mode(*cmd, {"--cells", "--lattice", "--jitter"}, o->example == "fcc", "--example fcc");
    needs_mode(*cmd, {"--atoms", "--length"}, o->example == "gas", "--example gas");
    const double atoms = o->example == "gas" ? double(o->atoms) : 4 * std::pow(double(o->cells), 3);
    RunPlan plan;
    plan.outputs.push_back({o->out,
                            "--out",
                            {".h5", ".h5md"},
                            double(o->frames) * atoms * 3 * (o->double_precision ? 8 : 4),
                            !given(*cmd, "--out")});
    plan.memory_bytes = atoms * 3 * 8 * 3;
    plan.size_option = o->example == "gas" ? "--atoms or --frames" : "--cells or --frames";
    plan.force = o->force;
    preflight(plan);
    return run(*o);
  };
}

}  // namespace kmol::cli
