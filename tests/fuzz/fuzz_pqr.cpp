// PQR structures (APBS' whitespace form and pdb2pqr's fixed columns).
#include <sstream>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/pqr.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const kmol::io::PqrAtoms atoms = kmol::io::parse_pqr(in, "fuzz.pqr");
    if (atoms.charges.size() != atoms.size() || atoms.radii.size() != atoms.size()) std::abort();
    (void)atoms.total_charge();
  } catch (const kmol::InputError&) {
  }
  return 0;
}
