#include "kmol/core/io/elements.hpp"

#include <cctype>
#include <cmath>

namespace kmol::io {
namespace {

struct Element {
  const char* symbol;
  double mass;  // standard atomic weight, g/mol (IUPAC 2013, conventional values)
};

// Atomic numbers 1 to 56, the elements of biomolecular and materials simulations; index z - 1.
constexpr Element elements[] = {
    {"H", 1.008},   {"He", 4.0026}, {"Li", 6.94},   {"Be", 9.0122}, {"B", 10.81},   {"C", 12.011},
    {"N", 14.007},  {"O", 15.999},  {"F", 18.998},  {"Ne", 20.180}, {"Na", 22.990}, {"Mg", 24.305},
    {"Al", 26.982}, {"Si", 28.085}, {"P", 30.974},  {"S", 32.06},   {"Cl", 35.45},  {"Ar", 39.948},
    {"K", 39.098},  {"Ca", 40.078}, {"Sc", 44.956}, {"Ti", 47.867}, {"V", 50.942},  {"Cr", 51.996},
    {"Mn", 54.938}, {"Fe", 55.845}, {"Co", 58.933}, {"Ni", 58.693}, {"Cu", 63.546}, {"Zn", 65.38},
    {"Ga", 69.723}, {"Ge", 72.630}, {"As", 74.922}, {"Se", 78.971}, {"Br", 79.904}, {"Kr", 83.798},
    {"Rb", 85.468}, {"Sr", 87.62},  {"Y", 88.906},  {"Zr", 91.224}, {"Nb", 92.906}, {"Mo", 95.95},
    {"Tc", 98.0},   {"Ru", 101.07}, {"Rh", 102.91}, {"Pd", 106.42}, {"Ag", 107.87}, {"Cd", 112.41},
    {"In", 114.82}, {"Sn", 118.71}, {"Sb", 121.76}, {"Te", 127.60}, {"I", 126.90},  {"Xe", 131.29},
    {"Cs", 132.91}, {"Ba", 137.33}};

std::string capitalised(const std::string& letters) {
  std::string s;
  for (std::size_t i = 0; i < letters.size(); ++i)
    s += char(i == 0 ? std::toupper((unsigned char)letters[i])
                     : std::tolower((unsigned char)letters[i]));
  return s;
}

bool known(const std::string& symbol) {
  for (const Element& e : elements)
    if (symbol == e.symbol) return true;
  return false;
}

}  // namespace

std::string element_of_number(int z) {
  if (z < 1 || z > int(std::size(elements))) return "";
  return elements[z - 1].symbol;
}

double mass_of_element(const std::string& symbol) {
  const std::string s = capitalised(symbol);
  for (const Element& e : elements)
    if (s == e.symbol) return e.mass;
  return std::nan("");
}

std::string element_of_mass(double mass) {
  const Element* nearest = nullptr;
  for (const Element& e : elements)
    if (std::abs(mass - e.mass) < 0.1 &&
        (!nearest || std::abs(mass - e.mass) < std::abs(mass - nearest->mass)))
      nearest = &e;
  return nearest ? nearest->symbol : "";
}

std::string element_of_name(const std::string& name, const std::string& resname) {
  std::size_t i = 0;
  while (i < name.size() && std::isdigit((unsigned char)name[i])) ++i;
  std::string letters;
  for (std::size_t k = i; k < name.size() && std::isalpha((unsigned char)name[k]); ++k)
    letters += name[k];
  if (letters.empty()) return "";
  const bool ion = letters.size() == name.size() - i && capitalised(name) == capitalised(resname);
  if (ion && letters.size() <= 2 && known(capitalised(letters))) return capitalised(letters);
  const std::string first = capitalised(letters.substr(0, 1));
  return known(first) ? first : "";
}

}  // namespace kmol::io
