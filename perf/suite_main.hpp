#pragma once
// The main of a benchmark executable that runs one suite alone (for GPU machines, where a CUDA
// build of every suite is not needed): --kmol_smoke swaps the suite's size for a tiny one (the
// ctest that keeps it from rotting), and the JSON context names the versions and devices.
#include <cstdint>

namespace kmol::bench {

int run_suite(int argc, char** argv, std::int64_t size, std::int64_t smoke_size,
              void (*register_suite)(std::int64_t));

}  // namespace kmol::bench
