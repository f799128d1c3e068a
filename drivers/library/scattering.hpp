#pragma once
// Scattering intensities from species-pair partial histograms (Debye's equation), the job every
// front end runs (kmol scattering, kmol.Scattering, the C API's kmol_scattering_*).
//
// Atoms are grouped into scattering types (an element; for neutrons exchangeable hydrogens apart,
// since --d2o deuterates them); the pair histogram counts each type pair's distances exactly;
// the transform weighs each bin's centre r_k:
//   solute in vacuum:  I(q) = sum_t N_t w_t(q)^2 + 2 sum_{a<=b} w_a w_b sum_k h_ab[k] sinc(q r_k)
//   periodic system:   I(q)/N = sum_t c_t w_t^2 + (2/N) sum_{a<=b} w_a w_b X_ab(q),
//                      X_ab = sum_k [h_ab[k] - P_ab s_k / V] sinc(q r_k) L(r_k)
// (h: pairs per frame, P_ab: the type pair's pairs, N_a(N_a-1)/2 for like types, s_k: the bin's
// shell volume, L: Lorch's window over the histogram's range R). docs/scattering.md states the
// conventions, the discretisation error and the structure factors derived from X_ab.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/library/scattering_elements.hpp"
#include "kmol/core/box.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

enum class Probe { xray, neutron };
enum class ScatteringSystem { vacuum, periodic };

std::string to_string(Probe probe);

// How a front end names its options in refusals.
struct ScatteringNames {
  std::string q_min = "--qmin", q_max = "--qmax", q_bins = "--qbins", bin_width = "--bin-width";
  std::string accuracy = "--accuracy", d2o = "--d2o", element = "--element", r_max = "--rmax";
  // How a refusal of unknown elements says to set them.
  std::string element_hint = "--element NAME=ELEMENT (e.g. --element OW=O)";
};

struct ScatteringSettings {
  Probe probe = Probe::xray;
  double d2o = 0;                 // D2O fraction of the solvent: deuterates exchangeable H
  double q_min = 0, q_max = 0.5;  // Angstrom^-1, both included
  std::int32_t q_bins = 101;      // points of the q grid
  double bin_width = 0;           // Angstrom; 0: sqrt(24 accuracy) / q_max
  double accuracy = 1e-4;         // (q_max w)^2 / 24: the relative curvature error of a bin
  double r_max = 0;               // Angstrom; 0: from the first frame
  ScatteringNames names;
};

// The largest q w a histogram may serve: beyond it a bin's error exceeds 1/24 of a pair's term.
constexpr double max_q_times_width = 1.0;

// Refuses settings that cannot make a result, naming the option.
void check_settings(const ScatteringSettings& settings);
std::vector<double> q_values(const ScatteringSettings& settings);
// The histogram bin width: the one set (checked against q_max) or the accuracy's.
double histogram_bin_width(const ScatteringSettings& settings);

// What tells each atom's element; a vector the source lacks is empty.
struct AtomIdentity {
  std::vector<std::string> names, resnames, elements;
  std::vector<double> masses;
  std::string source;       // the file that names the atoms, for refusals
  std::string coordinates;  // the file of the first frame's coordinates and box (source if empty)
};

struct ScatteringTypes {
  std::vector<std::string> names;  // "C", "H", "H(exch)"
  std::vector<const ElementData*> elements;
  std::vector<char> exchangeable;  // hydrogens bound to N, O or S (solvent included)
  std::vector<std::int32_t> of_atom;
  std::vector<std::int64_t> atoms;  // per type

  std::int32_t size() const { return std::int32_t(names.size()); }
  std::int32_t pairs() const { return size() * (size() + 1) / 2; }
};

// Elements from --element NAME=EL overrides, then the element column, then masses, then names,
// then --element '*=EL';
// an atom none of them tells is refused with a list of such atoms and the option that sets them.
// Exchangeable hydrogens (neutrons only) are those within 1.25 Angstrom of N, O or S in `xyz`.
ScatteringTypes scattering_types(const AtomIdentity& atoms,
                                 const std::vector<std::string>& overrides,
                                 const std::vector<Vec3<double>>& xyz,
                                 const ScatteringSettings& settings);

// Weights [type][q]: X-ray form factors (electrons) or coherent lengths (fm), exchangeable
// hydrogens (1 - d2o) b_H + d2o b_D.
std::vector<double> type_weights(const ScatteringTypes& types, const ScatteringSettings& settings,
                                 const std::vector<double>& q);

struct DebyeRange {
  double r_max = 0, width = 0;
  std::int32_t bins = 0;
  double centre(std::int32_t k) const { return (k + 0.5) * width; }
};

// Counts summed over frames.
struct PartialCounts {
  std::vector<double> counts;  // [type pair][bin]
  std::int64_t frames = 0;
  double mean_inverse_volume = 0;  // periodic systems
};

// What the transform weighs a bin by, for a q grid and a range: sinc(q r) L(r) at the centre of
// each bin, or of each run of width_factor bins merged (the discretisation error's estimate), and
// the bins' shell volumes. It depends on neither the frames nor the types, so a job builds it once.
struct DebyeKernel {
  std::int32_t width_factor = 1, bins = 0;  // bins: merged bins
  std::vector<double> values;               // [q][merged bin]
  std::vector<double> shell;                // [merged bin]
};
DebyeKernel debye_kernel(const std::vector<double>& q, const DebyeRange& range,
                         ScatteringSystem system, std::int32_t width_factor);

// A job's kernels: the bins, pairs of bins merged, and sinc's squared slope at each bin's centre
// (binning_variance's), [q][bin].
struct DebyeTables {
  DebyeKernel fine, coarse;
  std::vector<double> slope_squared;
};
DebyeTables debye_tables(const std::vector<double>& q, const DebyeRange& range,
                         ScatteringSystem system);

// X_ab(q) (the header's), [type pair][q], per frame, with the kernel's bin width.
std::vector<double> pair_sums(const ScatteringTypes& types, const DebyeKernel& kernel,
                              const DebyeRange& range, const PartialCounts& counts,
                              ScatteringSystem system);

// The variance of the binning's random part in I(q): a pair's distance, uniform in its bin,
// moves its term 2 w_a w_b sinc(q r) by about 2 w_a w_b q sinc'(q r_k) (r - r_k), variance
// (2 w_a w_b q sinc'(q r_k) w)^2 / 12, summed over the pairs and divided by the frames squared
// (the frames' errors independent); per atom squared for a periodic system.
std::vector<double> binning_variance(const ScatteringTypes& types,
                                     const std::vector<double>& weights,
                                     const std::vector<double>& q, const DebyeRange& range,
                                     const DebyeTables& tables, const PartialCounts& counts,
                                     ScatteringSystem system);

// The mean over blocks of a quantity per q and its standard error, the blocks taken as
// independent (0 from fewer than two blocks).
struct BlockMean {
  std::vector<double> mean, sigma;
};
BlockMean block_mean(const std::vector<std::vector<double>>& blocks, std::size_t n_q);

// Intensity and per-pair partial intensities [type pair][q] (the self term in the like pairs);
// atoms: the mean number of atoms of each type in a frame (the self term's).
struct Intensity {
  std::vector<double> total;
  std::vector<double> partial;
};
Intensity combine(const ScatteringTypes& types, const std::vector<double>& weights,
                  std::int32_t n_q, const std::vector<double>& sums, ScatteringSystem system,
                  const std::vector<double>& atoms);

struct GuinierFit {
  bool ok = false;
  double i0 = 0, rg = 0, q_lo = 0, q_hi = 0;
  std::int32_t points = 0;
  std::string why;  // when not ok
};
// ln I = ln I0 - q^2 Rg^2 / 3 + c q^4 over the points with q Rg <= 1.3, iterated to a fixed
// point (the q^4 term, fitted from 6 points on, takes up the curvature that biases a straight
// line's Rg by a percent for compact solutes).
GuinierFit guinier_fit(const std::vector<double>& q, const std::vector<double>& intensity);

// sqrt(sum w_i |r_i - c|^2 / sum w_i), c = sum w_i r_i / sum w_i: the Rg Guinier's law measures.
double weighted_radius_of_gyration(const std::vector<Vec3<double>>& xyz,
                                   const std::vector<double>& weight);

// Structure factors of a periodic system from its pair sums: Faber-Ziman partials
// S_ab = 1 + X_ab N / (N_a N_b) (like pairs 2 X_aa N / N_a^2), Ashcroft-Langreth partials
// S_ab = delta_ab + sqrt(c_a c_b) (S_FZ - 1), and the weighted total (Faber-Ziman).
struct StructureFactors {
  std::vector<double> faber_ziman, ashcroft_langreth;  // [type pair][q]
  std::vector<double> total;
};
StructureFactors structure_factors(const ScatteringTypes& types, const std::vector<double>& weights,
                                   std::int32_t n_q, const std::vector<double>& sums,
                                   const std::vector<double>& intensity_per_atom);

}  // namespace kmol
