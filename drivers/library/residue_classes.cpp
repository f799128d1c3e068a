#include "drivers/library/residue_classes.hpp"

#include <set>

namespace kmol {
namespace {

const std::set<std::string>& protein_residues() {
  static const std::set<std::string> names = [] {
    std::set<std::string> s = {
        "ABU",  "ACE",  "AIB",  "ALA",  "ARG",  "ARGN", "ASH",  "ASN",  "ASN1",  "ASP", "ASP1",
        "ASPH", "ASPP", "CT3",  "CYM",  "CYN",  "CYS",  "CYS1", "CYS2", "CYSH",  "CYX", "DAB",
        "DALA", "GLH",  "GLN",  "GLU",  "GLUH", "GLUP", "GLY",  "HID",  "HIE",   "HIP", "HIS",
        "HIS1", "HISA", "HISB", "HISD", "HISE", "HISH", "HISP", "HSD",  "HSE",   "HSP", "HYP",
        "ILE",  "LEU",  "LSN",  "LYN",  "LYP",  "LYS",  "LYSH", "LYSN", "MELEU", "MET", "MEVAL",
        "NAC",  "NH2",  "NHE",  "NME",  "ORN",  "PGLU", "PHE",  "PHEH", "PHEU",  "PHL", "PRO",
        "SER",  "THR",  "TRP",  "TRPH", "TRPU", "TYR",  "TYRH", "TYRU", "VAL"};
    // Terminal residues: N or C before the amino acid's name (NALA, CLYS, ...).
    for (const char* aa :
         {"ALA",  "ARG", "ASN", "ASP", "ASPH", "CYS",  "CYS2", "DAB", "GLN", "GLU", "GLUH",
          "GLY",  "HID", "HIE", "HIP", "HISD", "HISE", "HISH", "HYP", "ILE", "LEU", "LYS",
          "LYSN", "MET", "ORN", "PHE", "PRO",  "SER",  "THR",  "TRP", "TYR", "VAL"}) {
      s.insert(std::string("N") + aa);
      s.insert(std::string("C") + aa);
    }
    return s;
  }();
  return names;
}

}  // namespace

bool is_protein_residue(const std::string& resname) {
  return protein_residues().count(resname) > 0;
}

bool is_water_residue(const std::string& resname) {
  static const std::set<std::string> names = {"SOL",  "WAT", "HOH",  "H2O", "OHH",  "TIP",
                                              "T3P",  "T4P", "T5P",  "T3H", "TIP3", "TIP4",
                                              "TIP5", "SPC", "SPCE", "TP3", "TP4",  "TP5"};
  return names.count(resname) > 0;
}

}  // namespace kmol
