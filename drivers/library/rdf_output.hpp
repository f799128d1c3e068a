#pragma once
// Outputs of `kmol rdf`: Grace .xvg (as gmx rdf writes), CSV, HDF5 (counts, edges, g, n, partial
// sums per interval and every setting) and a PNG plot. Each is written to a temporary file and
// renamed; every one states that lengths are in Angstrom.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/run_state.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/rdf_blocks.hpp"

namespace kmol {

struct RdfReport {
  std::vector<std::string> header;  // "key: value" lines: command, version, selections, frames, ...
  Rdf rdf;
  std::vector<std::uint64_t> counts;
  const RunState* state = nullptr;  // partial sums per interval (for the HDF5 output)
  std::vector<std::int64_t> frames;
  bool gmx = false;                     // lengths in nm and gmx rdf's xvg legends
  std::vector<std::string> selections;  // as given, for the legends
  // Block averages (--blocks): each block's values and the standard errors of g and n, written
  // as columns beside them; the first frame of each block, for the HDF5 output.
  const RdfBlockErrors* blocks = nullptr;
  std::vector<std::int64_t> block_starts;
  CumulativeNumber cumulative;  // gmx's -cn values (--gmx), or empty
};

void write_rdf_xvg(const std::string& path, const RdfReport& report);
void write_rdf_csv(const std::string& path, const RdfReport& report);
void write_rdf_h5(const std::string& path, const RdfReport& report);
// gmx rdf -cn's file: the cumulative number at r = (k + 1) w, in nm.
void write_gmx_cn_xvg(const std::string& path, const RdfReport& report);
// Runs the plotting script (Debian's python3-matplotlib) on the values.
void plot_rdf_png(const std::string& path, const RdfReport& report);

// Where a run's outputs go (empty: not written).
struct RdfOutputs {
  std::string xvg, csv, h5, plot, cn;
};
// Writes every output named: the plot first, the one most likely to fail (a missing matplotlib).
void write_rdf_outputs(const RdfOutputs& outputs, const RdfReport& report);

}  // namespace kmol
