// GROMACS TPR: kmol's reading of a run input, which runs libgromacs' deserializer in a child
// process (contained_call), over XDR-aware mutations of a gmx-written file. Whatever the child
// does (crash, exit, allocate without bound, loop) must come back as an InputError, and a
// topology that comes back must be whole.
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include "core/src/io/gromacs_readers.hpp"
#include "fuzz_support.hpp"
#include "fuzz_xdr.hpp"
#include "kmol/core/errors.hpp"

// A size the damaged file makes libgromacs allocate fails as std::bad_alloc, as it does under
// kmol's memory limit in the child (which AddressSanitizer's shadow memory rules out here).
extern "C" const char* __asan_default_options() {
  return "allocator_may_return_null=1:max_allocation_size_mb=2048";
}

// What dies in the child is the child's: libFuzzer's report of it would stand for a crash of the
// target. A sanitizer report in the child still ends it, and the parent refuses the file.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  pthread_atfork(nullptr, nullptr, [] { __sanitizer_set_death_callback(nullptr); });
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned seed) {
  return kmol::fuzz::mutate_xdr(data, size, max_size, seed, 0, 0);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return kmol::fuzz::read_input_file(data, size, ".tpr", [](const std::string& path) {
    const kmol::io::Topology t = kmol::io::gromacs::read_tpr(path);
    const std::size_t n = t.size();
    if (t.resnames.size() != n || t.chains.size() != n || t.resids.size() != n ||
        t.residues.size() != n || t.molecules.size() != n || t.charges.size() != n ||
        t.masses.size() != n)
      std::abort();
  });
}
