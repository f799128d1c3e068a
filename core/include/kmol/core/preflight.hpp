#pragma once
// Checks a run makes before any work (docs/errors.md): every output can be written where it is
// going and has an extension its option knows, no output overwrites an input, and the outputs'
// size and the run's peak memory fit in the free disk and memory. Above those it refuses, above
// a share of them it warns, each time with the estimate and the option that changes it;
// `force` proceeds anyway. An existing file at an output's name, typed or default, is kept
// under a backup name, as GROMACS does, rather than overwritten.
#include <string>
#include <vector>

#include "kmol/core/grid.hpp"

namespace kmol {

struct PlannedOutput {
  std::string path;
  std::string option;                   // the option that names it ("--out")
  std::vector<std::string> extensions;  // accepted endings with the dot; empty: any
  double bytes = 0;                     // estimated size
  bool defaulted = false;               // a default name (said so when it is backed up)
};

struct RunPlan {
  std::vector<PlannedOutput> outputs;
  std::vector<std::string> inputs;  // files the run reads, which no output may replace
  double memory_bytes = 0;          // estimated peak memory
  std::string size_option;          // the option that changes the estimates ("--spacing 0.5")
  std::string size_cause;           // what made them that large (lattice_cause), or empty
  bool force = false;               // proceed past the resource refusals
};

// Throws UsageError (paths, extensions) or ResourceError (size, memory); prints warnings and
// backups on stderr. Outputs with an empty path are skipped.
void preflight(const RunPlan& plan);

// "a lattice of nx x ny x nz points", and " around the atoms of FILE" where FILE is non-empty:
// a map sized by its atoms' extent is large because of where they lie, which the file tells.
std::string lattice_cause(const Grid& lattice, const std::string& atoms_file);

// Caps free_disk_bytes and available_memory_bytes (what preflight counts as free), for every later
// run of this process (bytes; 0 removes the cap): a program embedding kmol (a service, a fuzzer)
// keeps each run within its share, and a larger run is refused up front as on a smaller machine.
void cap_run_resources(double bytes);

// Free bytes for an unprivileged user on the file system holding `directory`; < 0 if unknown.
double free_disk_bytes(const std::string& directory);
// MemAvailable of /proc/meminfo (bytes), capped by the cgroup's limit; < 0 if unknown.
double available_memory_bytes();
// "1.4 GB", "320 MB", "12 kB".
std::string human_bytes(double bytes);
// True if `path` ends with `ending`, ignoring case.
bool has_extension(const std::string& path, const std::string& ending);

}  // namespace kmol
