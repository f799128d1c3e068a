#pragma once
// Radial distribution functions from accumulated pair counts, in the conventions of MDAnalysis'
// InterRDF and GROMACS' gmx rdf:
//   rdf:     g_k = C_k / (F * P * shell_k * <1/V>)      -> 1 for an ideal gas
//   density: rho_k = m * C_k / (F * N_A * shell_k)      (number density of B around an A)
//   none:    C_k / F
// C_k: counts summed over F frames; shell_k = 4/3 pi (r_{k+1}^3 - r_k^3) (in a plane, 2-D RDFs:
// the annulus pi (r_{k+1}^2 - r_k^2), and V the box's area in the plane); P: distinct pairs
// (N_A N_B minus the atoms the selections share, or N (N - 1) / 2 for one set, less excluded
// pairs); <1/V>: mean inverse volume over frames (correct under NPT); m = 2 for one set (each pair
// seen from both atoms), 1 for two sets. n(r_k) is the cumulative coordination number: mean number
// of B atoms within r_{k+1} of an A atom (among the binned pairs).
#include <cstdint>
#include <string>
#include <vector>

namespace kmol {

enum class RdfNormalization { rdf, density, none };

std::string to_string(RdfNormalization mode);
RdfNormalization rdf_normalization_from_string(const std::string& name);

struct RdfCountsSummary {
  std::vector<std::uint64_t> counts;  // one histogram, summed over frames
  double r_min = 0, r_max = 0;
  std::int64_t frames = 0;
  std::int64_t n_a = 0, n_b = 0;  // n_b ignored for one set
  bool one_set = false;
  std::int64_t shared_atoms = 0;    // atoms in both selections (two sets)
  double mean_inverse_volume = 0;   // <1/V> over the frames, 1/A^3
  std::int64_t excluded_pairs = 0;  // distinct pairs not binned (same residue or molecule)
  int dimensions = 3;               // 2: distances in a plane, <1/V> the mean inverse area
};

// The volume between spheres of radii lo and hi (the area between circles in 2-D).
double shell_measure(double lo, double hi, int dimensions);

struct Rdf {
  std::vector<double> edges, centres, g, coordination;
  RdfNormalization mode = RdfNormalization::rdf;
};

Rdf normalize_rdf(const RdfCountsSummary& summary, RdfNormalization mode);

// gmx rdf's conventions (GROMACS 2022), lengths in nm: n bins of width w centred on k w
// (k = 0 .. n-1; the first is [0, w/2)); a pair counts from both of its atoms; rdf divides by
// N_A N_B (N^2 for one set) whatever is excluded or shared; none divides by w, so that the curve
// integrates to pairs per reference atom. `half_bins` holds kmol's counts in 2n bins of width
// w/2 from 0 to n w (lengths in Angstrom), so that every gmx bin is a sum of whole kmol bins and
// the last half bin serves the cumulative number alone.
Rdf gmx_rdf(const RdfCountsSummary& half_bins, RdfNormalization mode);
// The counts of gmx's bins from those half bins (each pair once).
std::vector<std::uint64_t> gmx_bin_counts(const std::vector<std::uint64_t>& half_bins);

// gmx rdf -cn: the mean number of selected positions within r = (k + 1) w of a reference
// position (k = 0 .. n-1, from both atoms of a pair in one set), at r in nm; from the same half
// bins, whose edges fall on every (k + 1) w.
struct CumulativeNumber {
  std::vector<double> r, number;
};
CumulativeNumber gmx_cumulative_number(const RdfCountsSummary& half_bins);

}  // namespace kmol
