#include "drivers/cli/pool_options.hpp"

#include <string>

namespace kmol::cli {

void add_pool_options(CLI::App* cmd, PoolOptions& o, const char* unit_name) {
  cmd->add_option("--gpus", o.gpus,
                  std::string("GPUs sharing the ") + unit_name +
                      ", one persistent worker thread each on raw CUDA (0: every GPU)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--simulated-gpus", o.simulated_gpus,
                  "Testing: host workers standing in for GPUs")
      ->check(CLI::NonNegativeNumber)
      ->group("Testing");
  cmd->add_option(
         "--inject-failures", o.inject_failures,
         std::string("Testing: the first GPU (or simulated GPU) worker fails its first K ") +
             unit_name + ", which other workers redo")
      ->check(CLI::NonNegativeNumber)
      ->group("Testing");
}

}  // namespace kmol::cli
