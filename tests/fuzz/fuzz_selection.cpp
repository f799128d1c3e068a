// The selection language ("name CA and not (resid 1:10 or species Na)") over a fixed table of
// atoms with every property selections can ask about.
#include <string>

#include "drivers/library/selection.hpp"
#include "kmol/core/errors.hpp"

namespace {

kmol::AtomTable table() {
  kmol::AtomTable t;
  t.n_atoms = 24;
  t.species_names = {"Na", "Cl", "OW"};
  const char* names[] = {"CA", "C", "N", "O", "OW", "HW1", "HW2", "NA"};
  const char* residues[] = {"ALA", "SOL", "NA", "CL"};
  for (int i = 0; i < t.n_atoms; ++i) {
    t.species.push_back(i % 3);
    t.names.push_back(names[i % 8]);
    t.resnames.push_back(residues[(i / 3) % 4]);
    t.resids.push_back(i / 3 - 2);  // negative, zero and positive residue numbers
  }
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kmol::AtomTable atoms = table();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto selected = kmol::select_atoms(text, atoms, "--sel");
    for (std::size_t i = 0; i < selected.size(); ++i)
      if (selected[i] < 0 || selected[i] >= atoms.n_atoms ||
          (i > 0 && selected[i] <= selected[i - 1]))
        std::abort();
  } catch (const kmol::InputError&) {
  }
  return 0;
}
