#pragma once
// The whole `kmol` command in-process: parses argv, runs the chosen subcommand and returns its
// exit code (docs/errors.md), reporting an error as the command does. main() adds only what
// belongs to a process of its own (MPI, the stop handlers, environment defaults); the fuzz
// targets call this with Kokkos already started, so each command's Runtime is a no-op there.
namespace kmol::cli {

int run(int argc, char** argv);

}  // namespace kmol::cli
