// Molden files: atoms, a contracted Gaussian basis and molecular orbitals, then the orbital
// choices of --mo.
#include <sstream>

#include "kernels/orbital/molden.hpp"
#include "kmol/core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const kmol::MoldenData molden = kmol::parse_molden(in, "fuzz.molden");
    for (const auto& mo : molden.orbitals)
      if (int(mo.coefficients.size()) != molden.functions()) std::abort();
    for (const char* which : {"homo", "lumo", "homo-1", "lumo+1", "1"})
      for (const char* spin : {"", "Beta"}) {
        try {
          const int index = kmol::select_orbital(molden, which, spin);
          if (index < 0 || index >= int(molden.orbitals.size())) std::abort();
        } catch (const kmol::InputError&) {
        }
      }
  } catch (const kmol::InputError&) {
  }
  return 0;
}
