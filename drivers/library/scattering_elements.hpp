#pragma once
// The elements a scattering calculation knows: X-ray atomic form factors and neutron coherent
// scattering lengths, and how an atom's element is told from what a topology says about it.
//
// X-ray: f(q) = sum_i a_i exp(-b_i s^2) + c with s = q / (4 pi) (Angstrom^-1), the four-Gaussian
// fits of the International Tables for Crystallography Vol. C (1992), Table 6.1.1.4 ("IT92",
// Cromer-Mann form; the values gemmi and GROMACS' sfactor.dat tabulate), in electrons.
// Neutron: bound coherent scattering lengths of the natural isotope mixtures, V. F. Sears,
// Neutron News 3(3), 26-37 (1992), in fm; deuterium 6.671 fm from the same table.
#include <cstdint>
#include <string>
#include <vector>

namespace kmol {

struct ElementData {
  const char* symbol;
  std::int32_t z;
  double mass;  // standard atomic weight, g/mol
  double a[4], b[4], c;
  double neutron_fm;  // NaN where Sears 1992 gives no coherent length
};

constexpr double deuterium_fm = 6.671;

// The element of a symbol ("C", "Cl", case-insensitive), or null.
const ElementData* element_named(const std::string& symbol);
// The element of atomic number z, or null.
const ElementData* element_of_number(std::int32_t z);
// The element whose standard weight is within 0.1 g/mol of `mass` (hydrogen also for deuterium's
// 2.014 and united-atom masses 13.019/14.027/15.035 of CH, CH2, CH3 are refused: null).
const ElementData* element_of_mass(double mass);
// The element an atom name suggests, as PDB and GRO files name atoms: the leading letters
// ("CA" is carbon alpha, "OW" oxygen, "HW1" hydrogen), tried as two letters only where the name
// is a known ion alone ("NA", "CL", "MG", "ZN", ...), or null.
const ElementData* element_of_atom_name(const std::string& name, const std::string& resname);

// The X-ray form factor at q (Angstrom^-1), electrons.
double xray_form_factor(const ElementData& element, double q);

}  // namespace kmol
