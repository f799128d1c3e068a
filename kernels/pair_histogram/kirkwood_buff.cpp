#include "kernels/pair_histogram/kirkwood_buff.hpp"

#include <cmath>
#include <sstream>

#include "kernels/pair_histogram/binning.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

void require(bool ok, const std::string& option, const std::string& expected) {
  if (!ok) throw InputError({"", option, -1}, expected);
}

// Sums of (g_k - 1) times the shell integrals of 1, r and r^3 (over r^2 dr): prefix sums from
// which G_V(L) of any L at a bin edge follows in O(1).
struct WeightedSums {
  double s3 = 0, s4 = 0, s6 = 0;

  void add(double excess, double lo, double hi) {
    s3 += excess * (std::pow(hi, 3) - std::pow(lo, 3));
    s4 += excess * (std::pow(hi, 4) - std::pow(lo, 4));
    s6 += excess * (std::pow(hi, 6) - std::pow(lo, 6));
  }
  // 4 pi int (g - 1) r^2 (1 - 3r/(2L) + r^3/(2L^3)) dr over the bins so far.
  double finite_volume(double l) const {
    return 4 * M_PI * (s3 / 3 - 3 * s4 / (8 * l) + s6 / (12 * l * l * l));
  }
};

// Least-squares slope of y on x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
  mx /= double(x.size());
  my /= double(x.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0 ? sxy / sxx : 0;
}

}  // namespace

KirkwoodBuff kirkwood_buff(const RdfCountsSummary& s, const std::string& option) {
  require(s.mean_inverse_volume > 0, option,
          "Kirkwood-Buff integrals need a periodic box: the box's volume sets the densities");
  require(s.dimensions == 3, option, "Kirkwood-Buff integrals are integrals over 3-D distances");
  std::ostringstream r_min;
  r_min << s.r_min;
  require(s.r_min == 0, option,
          "the integrals start at r = 0, and the range starts at " + r_min.str() + " Angstrom");
  require(s.frames > 0 && s.n_a > 0, option, "no frames or no reference atoms");
  const auto n_bins = std::int32_t(s.counts.size());
  const HistogramRange<double> range(s.r_min, s.r_max, n_bins);
  const double volume = 1 / s.mean_inverse_volume;
  const double n_a = double(s.n_a), n_b = s.one_set ? n_a : double(s.n_b);
  // Ordered pairs that can count, per reference atom (m), and a pair's count from each end.
  const double ordered = s.one_set ? n_a * (n_a - 1) - 2 * double(s.excluded_pairs)
                                   : n_a * n_b - double(s.shared_atoms + s.excluded_pairs);
  require(ordered > 0, option, "no pair can count");
  const double m = ordered / n_a, per_pair = s.one_set ? 2.0 : 1.0;

  KirkwoodBuff out;
  WeightedSums corrected, closed;
  double partners = 0;  // n(r) at the bin's lower edge
  for (std::int32_t k = 0; k < n_bins; ++k) {
    const double lo = range.edge(k), hi = range.edge(k + 1), centre = 0.5 * (lo + hi);
    const double shell = shell_measure(lo, hi, 3);
    const double in_shell = per_pair * double(s.counts[k]) / (double(s.frames) * n_a);
    const double g = in_shell * volume / (m * shell);
    const double within = partners + 0.5 * in_shell;  // n(centre)
    const double sphere = 4.0 / 3.0 * M_PI * centre * centre * centre;
    require(sphere < volume && within < m, option,
            "r_max " + std::to_string(s.r_max) +
                " Angstrom reaches beyond the box: the Ganguly-van der Vegt correction counts the "
                "partners within the box (keep 4/3 pi r_max^3 below its volume, " +
                std::to_string(volume) + " A^3)");
    const double g_gv = g * m * (1 - sphere / volume) / (m - within);
    partners += in_shell;
    corrected.add(g_gv - 1, lo, hi);
    closed.add(in_shell * volume / (n_b * shell) - 1, lo, hi);
    out.r.push_back(hi);
    out.running.push_back(4 * M_PI / 3 * corrected.s3);
    out.finite_volume.push_back(corrected.finite_volume(hi));
    out.closed.push_back(closed.finite_volume(hi));
  }
  std::vector<double> x, y;
  for (std::size_t k = 0; k < out.r.size(); ++k)
    if (out.r[k] >= 0.5 * s.r_max) {
      x.push_back(out.r[k]);
      y.push_back(out.r[k] * out.finite_volume[k]);
    }
  if (x.size() >= 2) {
    out.infinite = slope(x, y);
    out.fit_from = x.front();
    out.fit_to = x.back();
  }
  return out;
}

}  // namespace kmol
