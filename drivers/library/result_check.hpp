#pragma once
// Results of the pair-histogram family check themselves before anything is written: a count with no
// pair in the range, an all-zero g(r) or a value that is not finite is never returned as a result.
// Every front end (kmol rdf, histograms, histogram, the Python module, the C API) calls these, each
// naming its own options, so the same result is refused the same way everywhere.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/pair_histogram/gr.hpp"
#include "kmol/core/box.hpp"

namespace kmol {

// How a front end names what changes the result: the range option ("--rmax", "r_max"), the
// option that accepts an empty result ("--allow-empty", "allow_empty=True"), and the unit its
// lengths are given in (Angstrom, or nm with kmol rdf --gmx: unit_per_angstrom 0.1).
struct ResultOptions {
  std::string range = "--rmax";
  std::string allow_empty_option = "--allow-empty";
  bool allow_empty = false;
  std::string unit = "Angstrom";
  double unit_per_angstrom = 1;
  // The file the result comes from, named first in a refusal ("" for arrays), and where a default
  // range came from (minimum_image_radius_origin; "" when the option was given).
  std::string input;
  std::string range_origin;
};

// "the default is the minimum-image radius of the box of frame 3 (12 x 12 x 12 Angstrom)", `where`
// "of frame 3": how a default range follows from a box, for ResultOptions::range_origin.
std::string minimum_image_radius_origin(const BoxSpec& box, const std::string& where);

// Pair counts, summed over every histogram and frame: none in [r_min, r_max) is refused with
// InputError naming the range option, unless allow_empty, where the returned warning says it.
// r_min and r_max in Angstrom; `pairs` is the number of distinct pairs that could have been
// counted (-1: not known). Returns "" for a result with counts.
std::string check_pair_counts(const std::vector<std::uint64_t>& counts, double r_min, double r_max,
                              std::int64_t pairs, const ResultOptions& options);

// A normalised g(r) (or density, or pairs per frame): its counts as check_pair_counts, then every
// value finite and not all zero; what is not finite is refused whatever allow_empty, naming what
// made it so (no distinct pair, no box volume). `summary` is what it was normalised from.
std::string check_rdf(const RdfCountsSummary& summary, const Rdf& rdf,
                      const ResultOptions& options);

// A result's column (`column` as the outputs name it), checked before it is returned or written:
// a NaN or an infinity is a failed run (std::runtime_error, exit 1) naming the column and its
// first such value, never a file or array that silently holds them.
void check_finite(const std::vector<double>& values, const std::string& column);

// Distinct pairs of a selection with itself (each once) or of two selections sharing `shared`
// atoms (an atom is never paired with itself).
std::int64_t distinct_pairs(std::int64_t n_a, std::int64_t n_b, bool one_set, std::int64_t shared);

}  // namespace kmol
