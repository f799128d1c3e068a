#include "drivers/library/elements.hpp"

#include <cctype>
#include <cmath>
#include <map>

namespace kmol {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

double element_radius(const std::string& element, double fallback) {
  // Bondi, J. Phys. Chem. 68, 441 (1964); Na and K from the same table.
  static const std::map<std::string, double> radii = {
      {"H", 1.20},  {"C", 1.70},  {"N", 1.55},  {"O", 1.52},  {"F", 1.47},
      {"P", 1.80},  {"S", 1.80},  {"CL", 1.75}, {"BR", 1.85}, {"I", 1.98},
      {"SE", 1.90}, {"NA", 2.27}, {"K", 2.75},  {"MG", 1.73}};
  const auto it = radii.find(upper(element));
  return it == radii.end() ? fallback : it->second;
}

double element_mass(const std::string& element) {
  static const std::map<std::string, double> masses = {
      {"H", 1.008},   {"C", 12.011},  {"N", 14.007},  {"O", 15.999},  {"F", 18.998},
      {"NA", 22.990}, {"MG", 24.305}, {"P", 30.974},  {"S", 32.06},   {"CL", 35.45},
      {"K", 39.098},  {"CA", 40.078}, {"MN", 54.938}, {"FE", 55.845}, {"CU", 63.546},
      {"ZN", 65.38},  {"SE", 78.971}, {"BR", 79.904}, {"I", 126.90}};
  const auto it = masses.find(upper(element));
  return it == masses.end() ? NAN : it->second;
}

std::string element_of_name(const std::string& name) {
  std::string letters;
  for (char c : name)
    if (std::isalpha(static_cast<unsigned char>(c)))
      letters += char(std::toupper(static_cast<unsigned char>(c)));
  if (letters.empty()) return "";
  if (!name.empty() && name[0] != ' ' && letters.size() >= 2 &&
      !std::isdigit(static_cast<unsigned char>(name[0]))) {
    const std::string two = letters.substr(0, 2);
    if (two == "CL" || two == "BR" || two == "FE" || two == "ZN" || two == "MG" || two == "NA" ||
        two == "CA")
      return two;
  }
  return letters.substr(0, 1);
}

std::string element_of_trimmed_name(const std::string& name, const std::string& resname) {
  if (upper(name) == upper(resname) && !std::isnan(element_mass(name))) return upper(name);
  return element_of_name(" " + name);  // as a name in column 14: one letter
}

std::vector<std::string> topology_elements(const io::Topology& top) {
  std::vector<std::string> elements;
  for (std::size_t a = 0; a < top.size(); ++a)
    elements.push_back(element_of_trimmed_name(top.names[a], top.resnames[a]));
  return elements;
}

std::vector<float> topology_masses(const io::Topology& top, const std::string& path,
                                   std::string& from) {
  if (!top.masses.empty()) {
    from = path + "'s masses";
    return {top.masses.begin(), top.masses.end()};
  }
  std::vector<float> masses;
  for (const auto& element : topology_elements(top)) masses.push_back(float(element_mass(element)));
  from = "the elements of " + path + "'s atom names";
  return masses;
}

}  // namespace kmol
