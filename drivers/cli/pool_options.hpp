#pragma once
// The command-line options of the worker pool (drivers/library/pool_options.hpp), shared by kmol
// histogram, rdf, histograms and potential.
#include <CLI/CLI.hpp>

#include "drivers/library/pool_options.hpp"

namespace kmol::cli {

void add_pool_options(CLI::App* command, PoolOptions& options, const char* unit_name);

}  // namespace kmol::cli
