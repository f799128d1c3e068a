// Topologies given with --top: PDB or GRO by extension (KMOL_FUZZ_ENDING), as read_topology
// chooses them.
#include "fuzz_support.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = kmol::fuzz::input_file(data, size, KMOL_FUZZ_ENDING);
  try {
    const kmol::io::Topology t = kmol::io::read_topology(path);
    const std::size_t n = t.size();
    if (t.resnames.size() != n || t.resids.size() != n || t.residues.size() != n ||
        t.molecules.size() != n)
      std::abort();
  } catch (const kmol::InputError&) {
  } catch (const kmol::UnsupportedError&) {  // a TPR, which this target reads without libgromacs
  }
  return 0;
}
