// Whole commands in-process: the fuzzer's bytes become a file of one input format, and every kmol
// command that reads that format runs on it through kmol::cli::run, the command line's own path
// (options, validation, reading, computing on the campaign's small sizes, writing outputs into a
// private directory). A refusal (exit 2) or a failed run (exit 1) is fine; a crash, a leak,
// undefined behaviour, a hang, an exit, an exit code kmol does not use or a temporary left behind
// is a bug that the fuzzer stops on.
//
// One binary serves every format: its name (fuzz_command_FORMAT) or KMOL_FUZZ_FORMAT picks one.
// The companion files (the water box's topology, trajectory and map) come from KMOL_FUZZ_SEEDS,
// else the checkout's tests/fuzz/seeds. Binary formats mutate structure-aware: XDR words after
// frame magics (XTC, TRR) or anywhere (TPR, classic NetCDF), HDF5 fields after structure
// signatures (H5MD), numbers in text formats.
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "drivers/cli/run.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/runtime.hpp"
#include "tests/fuzz/fuzz_hdf5.hpp"
#include "tests/fuzz/fuzz_text.hpp"
#include "tests/fuzz/fuzz_xdr.hpp"

namespace {

using Words = std::vector<std::string>;

// One command reading the input: {in} is the input, {tpr}, {gro}, {pdb}, {xtc}, {dx} the
// companions, {out} the output directory. `water` is appended for inputs of the water box;
// `only_water` commands pair the input with water companions, so run only on such inputs.
struct Command {
  Words words;
  Words water;
  bool only_water = false;
};

enum class Mutation { libfuzzer, xtc, trr, xdr, hdf5, text };

struct Format {
  std::string name, ending;
  Mutation mutation;
  std::vector<Command> commands;
};

const Words cpu = {"--device", "cpu", "--threads", "1"};

std::vector<Command> trajectory_commands() {
  return {
      {{"rdf", "{in}", "--bins", "40", "--out", "{out}rdf.xvg", "--csv", "{out}rdf.csv", "--quiet"},
       {"--top", "{tpr}", "--sel1", "name OW"}},
      {{"histograms", "{in}", "--bins", "40", "--out", "{out}hist.h5", "--quiet"},
       {"--top", "{gro}"}},
      {{"potential", "{in}", "--frame", "1", "--spacing", "1.5", "--padding", "2", "--out",
        "{out}pot.dx"},
       {"--top", "{tpr}"},
       true},
      {{"cc", "{in}", "--ref", "{dx}", "--resolution", "4", "--timeline", "{out}cc.csv"}, {}},
      {{"md", "--restart", "{in}", "--steps", "2", "--every", "1", "--out", "{out}md.h5", "--log",
        "{out}md.csv", "--quiet"},
       {}},
  };
}

// The input as a topology of the water box's trajectory.
std::vector<Command> topology_commands(bool charges) {
  std::vector<Command> commands = {
      {{"rdf", "{xtc}", "--top", "{in}", "--sel1", "name OW", "--exclude-same", "molecule",
        "--bins", "40", "--out", "{out}rdf.xvg", "--quiet"},
       {},
       true},
      {{"cc", "{xtc}", "--top", "{in}", "--weight", "mass", "--ref", "{dx}", "--resolution", "4"},
       {},
       true},
  };
  if (charges)
    commands.push_back({{"potential", "{xtc}", "--top", "{in}", "--frame", "1", "--spacing", "1.5",
                         "--padding", "2", "--out", "{out}pot.dx"},
                        {},
                        true});
  return commands;
}

// The input as a structure of its own.
std::vector<Command> structure_commands() {
  return {
      {{"surf", "{in}", "--spacing", "1", "--out", "{out}dens.mrc", "--mesh", "{out}surf.ply"}, {}},
      {{"cc", "{in}", "--ref", "{dx}", "--resolution", "4", "--sim", "{out}sim.mrc"}, {}},
  };
}

std::vector<Command> map_commands() {
  return {
      {{"surf", "--map", "{in}", "--iso", "0.5", "--mesh", "{out}surf.ply"}, {}},
      {{"cc", "{pdb}", "--ref", "{in}", "--resolution", "4", "--local", "{out}local.dx"}, {}},
  };
}

std::vector<Command> joined(std::vector<Command> a, const std::vector<Command>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The campaign's table (tests/fuzz/campaign, COMMANDS).
std::vector<Format> formats() {
  const Command surf_h5md = {{"surf", "{in}", "--frame", "1", "--spacing", "1", "--out",
                              "{out}dens.dx", "--mesh", "{out}surf.ply"},
                             {"--top", "{gro}"}};
  const Command pqr_potential = {
      {"potential", "{in}", "--spacing", "1.5", "--padding", "2", "--out", "{out}pot.dx"}, {}};
  return {
      {"xtc", ".xtc", Mutation::xtc, trajectory_commands()},
      {"trr", ".trr", Mutation::trr, trajectory_commands()},
      {"tng", ".tng", Mutation::libfuzzer, trajectory_commands()},
      {"netcdf", ".nc", Mutation::xdr, trajectory_commands()},
      {"h5md", ".h5", Mutation::hdf5, joined(trajectory_commands(), {surf_h5md})},
      {"tpr", ".tpr", Mutation::xdr, topology_commands(true)},
      {"gro", ".gro", Mutation::text, topology_commands(false)},
      {"pdb", ".pdb", Mutation::text, joined(topology_commands(false), structure_commands())},
      {"pqr", ".pqr", Mutation::text,
       joined(joined(topology_commands(true), structure_commands()), {pqr_potential})},
      {"dx", ".dx", Mutation::text, map_commands()},
      {"mrc", ".mrc", Mutation::libfuzzer, map_commands()},
      {"molden",
       ".molden",
       Mutation::text,
       {{{"orbital", "{in}", "--mo", "homo", "--spacing", "0.5", "--padding", "2", "--out",
          "{out}orb.cube", "--mesh", "{out}orb.ply", "--iso", "0.05"},
         {}}}},
      {"xyz",
       ".xyz",
       Mutation::text,
       {{{"histogram", "--xyz", "{in}", "--box", "12", "12", "12", "--bins", "40", "--out",
          "{out}hist.csv"},
         {}}}},
  };
}

struct Setup {
  Format format;
  std::string directory;  // private: the input, the companions, out/
  std::string input;
};

Setup* setup = nullptr;

[[noreturn]] void give_up(const std::string& why) {
  std::fprintf(stderr, "fuzz_command: %s\n", why.c_str());
  std::exit(1);
}

void copy_file(const std::string& from, const std::string& to) {
  std::ifstream in(from, std::ios::binary);
  std::ofstream out(to, std::ios::binary);
  if (!in || !(out << in.rdbuf())) give_up("cannot copy " + from + " to " + to);
}

std::string chosen_format(const char* program) {
  if (const char* format = std::getenv("KMOL_FUZZ_FORMAT")) return format;
  const std::string name = std::strrchr(program, '/') ? std::strrchr(program, '/') + 1 : program;
  const std::string prefix = "fuzz_command_";
  if (name.compare(0, prefix.size(), prefix) == 0) return name.substr(prefix.size());
  give_up("run as fuzz_command_FORMAT or with KMOL_FUZZ_FORMAT set");
}

// Whether a mutant still comes from the water box: its commands pair it with water companions.
bool is_water(const Setup& s, const std::uint8_t* data, std::size_t size) {
  if (s.format.name == "h5md") {  // kmol's own H5MD seeds hold LJ gases
    static const char marker[] = "MDAnalysis";
    return memmem(data, size, marker, sizeof marker - 1) != nullptr;
  }
  if (s.format.name == "pqr") return memmem(data, size, "OW", 2) != nullptr;  // not the protein
  return true;
}

std::string expanded(const std::string& word, const Setup& s) {
  const std::string seeds = s.directory + "/";
  if (word == "{in}") return s.input;
  if (word == "{tpr}") return seeds + "water.tpr";
  if (word == "{gro}") return seeds + "water.gro";
  if (word == "{pdb}") return seeds + "water.pdb";
  if (word == "{xtc}") return seeds + "water.xtc";
  if (word == "{dx}") return seeds + "water-potential.dx";
  if (word.compare(0, 5, "{out}") == 0) return s.directory + "/out/" + word.substr(5);
  return word;
}

// The command line as typed, for messages.
std::string line(const Words& words) {
  std::string text;
  for (const auto& w : words) text += " '" + w + "'";
  return text;
}

// Removes every output; a temporary among them is a bug (outputs appear whole or not at all).
void clear_outputs(const Setup& s, const Words& command) {
  const std::string out = s.directory + "/out";
  DIR* dir = opendir(out.c_str());
  if (!dir) give_up("cannot list " + out);
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (name.find(".tmp") != std::string::npos || name[0] == '#') {
      std::fprintf(stderr, "fuzz_command: temporary %s left by%s\n", name.c_str(),
                   line(command).c_str());
      std::abort();
    }
    std::remove((out + "/" + name).c_str());
  }
  closedir(dir);
}

void run_command(const Setup& s, const Command& command, bool water) {
  Words words = {"kmol"};
  for (const auto& w : command.words) words.push_back(expanded(w, s));
  if (water)
    for (const auto& w : command.water) words.push_back(expanded(w, s));
  words.insert(words.end(), cpu.begin(), cpu.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const int code = kmol::cli::run(int(words.size()), argv.data());
  static const bool verbose = std::getenv("KMOL_FUZZ_VERBOSE") != nullptr;
  if (verbose)
    std::fprintf(stderr, "fuzz_command: exit %d in %.3f s:%s\n", code,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                 line(words).c_str());
  if (code != 0 && code != 1 && code != 2) {
    std::fprintf(stderr, "fuzz_command: exit code %d from%s\n", code, line(words).c_str());
    std::abort();
  }
  clear_outputs(s, words);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char*** argv) {
  const std::string name = chosen_format((*argv)[0]);
  setup = new Setup;
  for (auto& f : formats())
    if (f.name == name) setup->format = f;
  if (setup->format.name.empty()) give_up("no format " + name);
  const char* seeds = std::getenv("KMOL_FUZZ_SEEDS");
  const std::string from = seeds ? seeds : KMOL_FUZZ_SEEDS;
  std::string directory = (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  directory += "/kmol-fuzz-command-XXXXXX";
  if (!mkdtemp(directory.data())) give_up("cannot make " + directory);
  setup->directory = directory;
  setup->input = directory + "/input" + setup->format.ending;
  for (const char* companion : {"tpr/water.tpr", "gro/water.gro", "pdb/water.pdb", "xtc/water.xtc",
                                "dx/water-potential.dx"})
    copy_file(from + "/" + companion, directory + std::strchr(companion, '/'));
  if (mkdir((directory + "/out").c_str(), 0700) != 0) give_up("cannot make " + directory + "/out");
  std::atexit([] { std::filesystem::remove_all(setup->directory); });
  // Temporaries of kmol and the libraries stay in the private directory.
  setenv("TMPDIR", directory.c_str(), 1);
  setenv("OMP_PROC_BIND", "false", 0);
  // Kokkos once, one thread: every command's own Runtime then finds it started. Never stopped:
  // at exit kmol's caches, made later, are gone before a static Runtime's end would run their
  // release hooks.
  static const kmol::Runtime* runtime = new kmol::Runtime({1, -1});
  (void)runtime;
  // The small size cap: a mutant whose atoms lie far apart asks for a lattice of many millions of
  // points, which a user waits for but a fuzzer takes for a hang; with less counted as free, the
  // preflight refuses it up front, so that refusal is what runs.
  kmol::cap_run_resources(32e6);
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  switch (setup->format.mutation) {
    case Mutation::xtc:
      return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 1995, 22);
    case Mutation::trr:
      return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 1993, 24);
    case Mutation::xdr:
      return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 0, 0);
    case Mutation::hdf5:
      return kmol::fuzz::mutate_hdf5(data, size, max_size, seed);
    case Mutation::text:
      return kmol::fuzz::mutate_text_numbers(data, size, max_size, seed);
    case Mutation::libfuzzer:
      break;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = *setup;
  {
    std::ofstream file(s.input, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    if (!file) give_up("cannot write " + s.input);
  }
  const bool water = is_water(s, data, size);
  for (const auto& command : s.format.commands)
    if (water || !command.only_water) run_command(s, command, water);
  // The XTC index cache belongs to one input: the next input may have the same size and time.
  std::remove((s.directory + "/.input.xtc.kmol-xtc-index").c_str());
  return 0;
}
