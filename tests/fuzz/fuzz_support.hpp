#pragma once
// Shared by the libFuzzer targets: parsers that read from a path get the input as a file.
// Each target accepts InputError (bad input, reported to the user) and nothing else: any other
// exception, a crash, a leak or a sanitizer report is a bug that the fuzzer stops on.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "kmol/core/errors.hpp"

namespace kmol::fuzz {

// Writes the input to a file of this process (in memory where /dev/shm exists), ending `ending`
// because parsers choose the format by extension.
inline std::string input_file(const std::uint8_t* data, std::size_t size,
                              const std::string& ending) {
  const std::string directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  const std::string path = directory + "/kmol-fuzz-" + std::to_string(getpid()) + ending;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

// A target's run: `read` on the input written as a file ending `ending`; its InputError (bad input)
// is accepted, anything else reaches libFuzzer.
template <class Read>
int read_input_file(const std::uint8_t* data, std::size_t size, const std::string& ending,
                    Read read) {
  const std::string path = input_file(data, size, ending);
  try {
    read(path);
  } catch (const InputError&) {
  }
  return 0;
}

}  // namespace kmol::fuzz
