#pragma once
// The catalogue of algorithms and their compiled-in implementations, for `kmol info`, the CLI's
// --impl choices and the performance study. Each algorithm describes itself; catalog.cpp lists
// them all in one place.
#include <string>
#include <vector>

namespace kmol {

struct ImplementationSummary {
  std::string name;      // what --impl takes
  std::string supports;  // backends, boxes, precisions, limits
  std::string chosen_when;
};

struct AlgorithmSummary {
  std::string name;
  std::string description;
  std::vector<ImplementationSummary> implementations;
};

std::vector<AlgorithmSummary> algorithm_catalog();

}  // namespace kmol
