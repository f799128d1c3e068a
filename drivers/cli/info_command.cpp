#include <fmt/core.h>

#include "drivers/cli/commands.hpp"
#include "kernels/registry.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol::cli {

Action add_info_command(CLI::App& app) {
  app.add_subcommand("info", "Print the version, backends, devices and implementations");
  return [] {
    Runtime runtime;
    fmt::print("kmol {}\nKokkos {}\nbackends:", kmol_version(), kokkos_version());
    for (const auto& b : enabled_backends()) fmt::print(" {}", b);
    fmt::print("\nhost threads: {}\n", host_threads());
    const auto gpus = gpu_devices();
    if (gpus.empty()) fmt::print("GPUs: none\n");
    for (const auto& d : gpus)
      fmt::print(
          "GPU {}: {} (compute capability {}.{}, {} SMs, {:.1f} GiB, {} KiB shared/block opt-in, "
          "{} KiB constant, {} MHz)\n",
          d.id, d.name, d.compute_major, d.compute_minor, d.multiprocessors,
          double(d.memory_bytes) / (1 << 30), d.shared_memory_per_block_optin / 1024,
          d.constant_memory_bytes / 1024, d.clock_khz / 1000);
    fmt::print("trajectory formats:\n");
    for (const auto& format : io::trajectory_formats()) fmt::print("  {}\n", format);
    fmt::print("algorithms:\n");
    for (const auto& algorithm : algorithm_catalog()) {
      fmt::print("  {}: {}\n", algorithm.name, algorithm.description);
      for (const auto& impl : algorithm.implementations)
        fmt::print("    {:<8} {}; chosen for {}\n", impl.name, impl.supports, impl.chosen_when);
    }
    return 0;
  };
}

}  // namespace kmol::cli
