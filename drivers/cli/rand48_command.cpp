// kmol rand48: glibc's lrand48 / mrand48 / drand48 sequence after srand48(seed), generated in
// parallel on the chosen device, written as text (one number a line) or raw binary.
#include <fmt/core.h>
#include <fmt/os.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <memory>
#include <optional>

#include "drivers/cli/commands.hpp"
#include "drivers/cli/common_options.hpp"
#include "drivers/library/device_policy.hpp"
#include "kernels/rng/rand48_fill.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/stop.hpp"

namespace kmol::cli {
namespace {

struct Rand48Options {
  long seed = 0;
  std::int64_t count = 10;
  std::string kind = "lrand48", out, device = "auto";
  bool binary = false, force = false;
  int threads = -1;
};

template <class T>
void write_numbers(const Rand48Options& o, const T* values, std::int64_t n) {
  const bool to_stdout = o.out.empty();
  if (o.binary && to_stdout) throw InputError({"", "--binary", -1}, "needs --out FILE");
  std::optional<TemporaryFile> output;
  if (!to_stdout) output.emplace(o.out, "--out");
  std::FILE* f =
      to_stdout ? stdout : std::fopen(output->temporary().c_str(), o.binary ? "wb" : "w");
  if (!f) throw InputError({o.out, "--out", -1}, "cannot open the output file for writing");
  bool ok = true;
  if (o.binary) {
    ok = std::fwrite(values, sizeof(T), std::size_t(n), f) == std::size_t(n);
  } else {
    fmt::memory_buffer buffer;
    for (std::int64_t i = 0; i < n; ++i) {
      fmt::format_to(std::back_inserter(buffer), "{}\n", values[i]);
      if (buffer.size() > (1 << 20) || i + 1 == n) {
        ok = ok && std::fwrite(buffer.data(), 1, buffer.size(), f) == buffer.size();
        buffer.clear();
      }
    }
  }
  if (to_stdout) return;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) throw InputError({o.out, "--out", -1}, "cannot write the output file");
  output->commit();
}

template <class ExecSpace, class T>
void generate(const ExecSpace& space, const Rand48Options& o) {
  const Rand48Kind kind = rand48_kind_from_string(o.kind);
  Kokkos::View<T*, typename ExecSpace::memory_space> values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("rand48")), o.count);
  rand48_fill(space, rand48_seed_state(o.seed), kind, values);  // first touch, outside the timing
  space.fence();
  Kokkos::Timer timer;
  const auto result = rand48_fill(space, rand48_seed_state(o.seed), kind, values);
  space.fence();
  const double seconds = timer.seconds();
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  write_numbers(o, host.data(), o.count);
  std::fprintf(
      stderr,
      "kmol rand48: %lld %s numbers (seed %ld) on %s, %lld %s streams: %.3f G numbers/s%s%s\n",
      static_cast<long long>(o.count), o.kind.c_str(), o.seed, ExecSpace::name(),
      static_cast<long long>(result.streams), to_string(result.layout).c_str(),
      seconds > 0 ? double(o.count) / seconds * 1e-9 : 0.0, o.out.empty() ? "" : "; wrote ",
      o.out.c_str());
}

template <class ExecSpace>
void generate_on(const ExecSpace& space, const Rand48Options& o) {
  if (o.kind == "drand48")
    generate<ExecSpace, double>(space, o);
  else
    generate<ExecSpace, std::int32_t>(space, o);
}

}  // namespace

Action add_rand48_command(CLI::App& app) {
  auto o = std::make_shared<Rand48Options>();
  auto* cmd = app.add_subcommand("rand48",
                                 "glibc's lrand48/mrand48/drand48 sequence, generated in parallel");
  cmd->add_option("--seed", o->seed, "srand48 seed (its low 32 bits are used, as glibc does)");
  cmd->add_option("--count", o->count, "How many numbers")->check(CLI::NonNegativeNumber);
  cmd->add_option("--kind", o->kind, "lrand48, mrand48 or drand48")
      ->check(CLI::IsMember({"lrand48", "mrand48", "drand48"}));
  cmd->add_option("--out", o->out, "Output file (default: standard output)");
  cmd->add_flag("--binary", o->binary,
                "Raw native-endian int32 (lrand48, mrand48) or float64 (drand48) instead of text");
  add_device_option(cmd, o->device);
  add_threads_option(cmd, o->threads);
  add_force_flag(cmd, o->force);
  return [o, cmd] {
    if (o->binary && o->out.empty()) throw UsageError({"", "--binary", -1}, "needs --out FILE");
    RunPlan plan;
    // Text: up to 20 characters a number; binary: 4 or 8 bytes.
    const double bytes = o->binary ? (o->kind == "drand48" ? 8 : 4) : 20;
    plan.outputs.push_back({o->out, "--out", {}, bytes * double(o->count), false});
    plan.memory_bytes = 8 * double(o->count);
    plan.size_option = "--count";
    plan.force = o->force;
    preflight(plan);
    Runtime runtime({o->threads, -1});
    with_space(o->device, [&](const auto& space) { generate_on(space, *o); });
    return 0;
  };
}

}  // namespace kmol::cli
