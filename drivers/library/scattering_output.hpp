#pragma once
// The outputs of a scattering result, each written atomically:
//   .dat  three columns q I(q) sigma(q), '#' header with the q unit and the run's description;
//   .xvg  Grace, as gmx sans writes it (q in nm^-1, I(q));
//   .h5   q, I, sigma, the error's estimate, every type pair's partial curve (and the structure
//         factors of a periodic system) with the metadata as attributes;
//   .png  log-log and Kratky plots (tools/plot_scattering.py, Debian's matplotlib).
#include <string>
#include <vector>

#include "drivers/library/scattering_job.hpp"

namespace kmol {

struct ScatteringReport {
  const ScatteringResult* result = nullptr;
  std::vector<std::string> header;  // "key: value" lines
  bool nm = false;                  // q in nm^-1 in the .dat
  bool per_atom = false;            // I(q) per atom (periodic systems)
  std::string intensity_unit;       // "e^2" or "fm^2"
};

void write_scattering_dat(const std::string& path, const ScatteringReport& report);
void write_scattering_xvg(const std::string& path, const ScatteringReport& report);
void write_scattering_h5(const std::string& path, const ScatteringReport& report);
void plot_scattering_png(const std::string& path, const ScatteringReport& report);

}  // namespace kmol
