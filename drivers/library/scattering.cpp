// The Debye transform of partial histograms, the scattering types and their weights, and the
// Guinier fit (equations in scattering.hpp and docs/scattering.md).
#include "drivers/library/scattering.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "kernels/scattering/debye_terms.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

ErrorContext option(const std::string& name) { return {"", name, -1}; }

// The type pair (a, b), a <= b, of flattened pair index p.
std::pair<std::int32_t, std::int32_t> pair_types(std::int32_t p, std::int32_t n) {
  for (std::int32_t a = 0; a < n; ++a) {
    const std::int32_t row = n - a;
    if (p < row) return {a, a + p};
    p -= row;
  }
  return {n - 1, n - 1};
}

double pairs_of_types(const ScatteringTypes& types, std::int32_t a, std::int32_t b) {
  const double na = double(types.atoms[a]), nb = double(types.atoms[b]);
  return a == b ? na * (na - 1) / 2 : na * nb;
}

}  // namespace

std::string to_string(Probe probe) { return probe == Probe::xray ? "xray" : "neutron"; }

void check_settings(const ScatteringSettings& s) {
  const auto& n = s.names;
  if (!(std::isfinite(s.q_min) && s.q_min >= 0))
    throw InputError(option(n.q_min), fmt::format("must be >= 0, got {}", s.q_min));
  if (!(std::isfinite(s.q_max) && s.q_max > s.q_min))
    throw InputError(option(n.q_max),
                     fmt::format("must be finite and above {} = {} 1/Angstrom, got {}", n.q_min,
                                 s.q_min, s.q_max));
  if (s.q_bins < 2)
    throw InputError(option(n.q_bins), fmt::format("must be at least 2, got {}", s.q_bins));
  if (!(s.d2o >= 0 && s.d2o <= 1))
    throw InputError(option(n.d2o), fmt::format("is a fraction from 0 to 1, got {}", s.d2o));
  if (!(s.accuracy > 0 && s.accuracy <= 0.04))
    throw InputError(option(n.accuracy),
                     fmt::format("must lie in (0, 0.04] (the relative error of a bin's term), "
                                 "got {}",
                                 s.accuracy));
  if (!(std::isfinite(s.r_max) && s.r_max >= 0))
    throw InputError(option(n.r_max), fmt::format("must be >= 0, got {}", s.r_max));
  if (!(std::isfinite(s.bin_width) && s.bin_width >= 0))
    throw InputError(option(n.bin_width), fmt::format("must be >= 0, got {}", s.bin_width));
  if (s.bin_width > 0 && s.q_max * s.bin_width > max_q_times_width)
    throw InputError(
        option(n.bin_width),
        fmt::format("{} Angstrom supports q up to {:.4g} 1/Angstrom (q w <= {}), but {} is {} "
                    "1/Angstrom: use a bin width of at most {:.4g} Angstrom or a smaller {}",
                    s.bin_width, max_q_times_width / s.bin_width, max_q_times_width, n.q_max,
                    s.q_max, max_q_times_width / s.q_max, n.q_max));
}

std::vector<double> q_values(const ScatteringSettings& s) {
  std::vector<double> q(std::size_t(s.q_bins));
  for (std::int32_t k = 0; k < s.q_bins; ++k)
    q[std::size_t(k)] = s.q_min + (s.q_max - s.q_min) * k / (s.q_bins - 1);
  return q;
}

double histogram_bin_width(const ScatteringSettings& s) {
  if (s.bin_width > 0) return s.bin_width;
  return std::sqrt(24 * s.accuracy) / s.q_max;
}

std::vector<double> type_weights(const ScatteringTypes& types, const ScatteringSettings& s,
                                 const std::vector<double>& q) {
  std::vector<double> w;
  w.reserve(std::size_t(types.size()) * q.size());
  for (std::int32_t t = 0; t < types.size(); ++t) {
    const ElementData& e = *types.elements[t];
    for (double qk : q) {
      if (s.probe == Probe::xray) {
        w.push_back(xray_form_factor(e, qk));
      } else if (types.exchangeable[t]) {
        w.push_back((1 - s.d2o) * e.neutron_fm + s.d2o * deuterium_fm);
      } else {
        w.push_back(e.neutron_fm);
      }
    }
  }
  return w;
}

DebyeKernel debye_kernel(const std::vector<double>& q, const DebyeRange& range,
                         ScatteringSystem system, std::int32_t width_factor) {
  DebyeKernel kernel;
  kernel.width_factor = width_factor;
  kernel.bins = (range.bins + width_factor - 1) / width_factor;
  const std::size_t n_q = q.size(), merged = std::size_t(kernel.bins);
  const bool periodic = system == ScatteringSystem::periodic;
  kernel.values.resize(n_q * merged);
  kernel.shell.resize(merged);
  for (std::size_t m = 0; m < merged; ++m) {
    const double r0 = double(m) * width_factor * range.width;
    const double r1 = std::min<double>(double(m + 1) * width_factor, range.bins) * range.width;
    const double r = 0.5 * (r0 + r1);
    kernel.shell[m] = 4.0 / 3.0 * M_PI * (r1 * r1 * r1 - r0 * r0 * r0);
    const double window = periodic ? lorch_window(r, range.r_max) : 1.0;
    for (std::size_t k = 0; k < n_q; ++k) kernel.values[k * merged + m] = sinc(q[k] * r) * window;
  }
  return kernel;
}

DebyeTables debye_tables(const std::vector<double>& q, const DebyeRange& range,
                         ScatteringSystem system) {
  DebyeTables tables{debye_kernel(q, range, system, 1), debye_kernel(q, range, system, 2), {}};
  const std::size_t bins = std::size_t(range.bins);
  tables.slope_squared.resize(q.size() * bins);
  for (std::size_t k = 0; k < q.size(); ++k)
    for (std::size_t bin = 0; bin < bins; ++bin) {
      const double x = q[k] * range.centre(std::int32_t(bin));
      const double slope = x < 1e-4 ? -x / 3 : (std::cos(x) - sinc(x)) / x;
      tables.slope_squared[k * bins + bin] = slope * slope;
    }
  return tables;
}

std::vector<double> pair_sums(const ScatteringTypes& types, const DebyeKernel& kernel,
                              const DebyeRange& range, const PartialCounts& counts,
                              ScatteringSystem system) {
  const std::size_t merged = std::size_t(kernel.bins);
  const std::size_t n_q = kernel.values.size() / std::max<std::size_t>(merged, 1);
  const bool periodic = system == ScatteringSystem::periodic;
  const double frames = double(std::max<std::int64_t>(counts.frames, 1));
  std::vector<double> sums(static_cast<std::size_t>(types.pairs()) * n_q, 0.0);
  std::vector<double> h(merged);
  for (std::int32_t p = 0; p < types.pairs(); ++p) {
    const auto [a, b] = pair_types(p, types.size());
    const double uniform =
        periodic ? pairs_of_types(types, a, b) * counts.mean_inverse_volume : 0.0;
    std::fill(h.begin(), h.end(), 0.0);
    for (std::int32_t k = 0; k < range.bins; ++k)
      h[std::size_t(k / kernel.width_factor)] +=
          counts.counts[std::size_t(p) * std::size_t(range.bins) + std::size_t(k)] / frames;
    for (std::size_t m = 0; m < merged; ++m) h[m] -= uniform * kernel.shell[m];
    for (std::size_t k = 0; k < n_q; ++k) {
      double x = 0;
      const double* row = &kernel.values[k * merged];
      for (std::size_t m = 0; m < merged; ++m) x += h[m] * row[m];
      sums[std::size_t(p) * n_q + k] = x;
    }
  }
  return sums;
}

std::vector<double> binning_variance(const ScatteringTypes& types, const std::vector<double>& w,
                                     const std::vector<double>& q, const DebyeRange& range,
                                     const DebyeTables& tables, const PartialCounts& counts,
                                     ScatteringSystem system) {
  const std::size_t n_q = q.size(), bins = std::size_t(range.bins);
  double n_atoms = 0;
  for (auto n : types.atoms) n_atoms += double(n);
  const double scale = system == ScatteringSystem::periodic ? 1.0 / (n_atoms * n_atoms) : 1.0;
  const double frames = double(std::max<std::int64_t>(counts.frames, 1));
  std::vector<double> out(n_q, 0.0);
  for (std::size_t k = 0; k < n_q; ++k) {
    const double* slope_squared = &tables.slope_squared[k * bins];
    for (std::int32_t p = 0; p < types.pairs(); ++p) {
      const auto [a, b] = pair_types(p, types.size());
      const double weight =
          2 * w[std::size_t(a) * n_q + k] * w[std::size_t(b) * n_q + k] * q[k] * range.width;
      const double* h = &counts.counts[std::size_t(p) * bins];
      double sum = 0;
      for (std::size_t bin = 0; bin < bins; ++bin) sum += h[bin] * slope_squared[bin];
      out[k] += weight * weight * sum / 12;
    }
    out[k] *= scale / (frames * frames);
  }
  return out;
}

BlockMean block_mean(const std::vector<std::vector<double>>& blocks, std::size_t n_q) {
  const std::size_t n = blocks.size();
  BlockMean out{std::vector<double>(n_q, 0.0), std::vector<double>(n_q, 0.0)};
  for (std::size_t k = 0; k < n_q; ++k) {
    for (const auto& b : blocks) out.mean[k] += b[k] / double(n);
    if (n < 2) continue;
    double spread = 0;
    for (const auto& b : blocks) spread += (b[k] - out.mean[k]) * (b[k] - out.mean[k]);
    out.sigma[k] = std::sqrt(spread / double(n * (n - 1)));
  }
  return out;
}

Intensity combine(const ScatteringTypes& types, const std::vector<double>& w, std::int32_t n_q,
                  const std::vector<double>& sums, ScatteringSystem system,
                  const std::vector<double>& atoms) {
  double n_atoms = 0;
  for (auto n : atoms) n_atoms += n;
  const double scale = system == ScatteringSystem::periodic ? 1.0 / n_atoms : 1.0;
  Intensity out;
  out.total.assign(std::size_t(n_q), 0.0);
  out.partial.assign(std::size_t(types.pairs()) * std::size_t(n_q), 0.0);
  for (std::int32_t p = 0; p < types.pairs(); ++p) {
    const auto [a, b] = pair_types(p, types.size());
    for (std::int32_t k = 0; k < n_q; ++k) {
      const double wa = w[std::size_t(a) * std::size_t(n_q) + std::size_t(k)];
      const double wb = w[std::size_t(b) * std::size_t(n_q) + std::size_t(k)];
      const double self = a == b ? atoms[std::size_t(a)] * wa * wa : 0.0;
      const double value =
          scale * (self + 2 * wa * wb * sums[std::size_t(p) * std::size_t(n_q) + std::size_t(k)]);
      out.partial[std::size_t(p) * std::size_t(n_q) + std::size_t(k)] = value;
      out.total[std::size_t(k)] += value;
    }
  }
  return out;
}

StructureFactors structure_factors(const ScatteringTypes& types, const std::vector<double>& w,
                                   std::int32_t n_q, const std::vector<double>& sums,
                                   const std::vector<double>& per_atom) {
  double n_atoms = 0;
  for (auto n : types.atoms) n_atoms += double(n);
  StructureFactors out;
  out.faber_ziman.resize(sums.size());
  out.ashcroft_langreth.resize(sums.size());
  for (std::int32_t p = 0; p < types.pairs(); ++p) {
    const auto [a, b] = pair_types(p, types.size());
    const double na = double(types.atoms[a]), nb = double(types.atoms[b]);
    const double factor = a == b ? 2 * n_atoms / (na * na) : n_atoms / (na * nb);
    const double root = std::sqrt(na * nb) / n_atoms;
    for (std::int32_t k = 0; k < n_q; ++k) {
      const std::size_t i = std::size_t(p) * std::size_t(n_q) + std::size_t(k);
      out.faber_ziman[i] = 1 + factor * sums[i];
      out.ashcroft_langreth[i] = (a == b ? 1.0 : 0.0) + root * factor * sums[i];
    }
  }
  out.total.resize(std::size_t(n_q));
  for (std::int32_t k = 0; k < n_q; ++k) {
    double mean_w = 0, mean_w2 = 0;
    for (std::int32_t t = 0; t < types.size(); ++t) {
      const double c = double(types.atoms[t]) / n_atoms;
      const double wt = w[std::size_t(t) * std::size_t(n_q) + std::size_t(k)];
      mean_w += c * wt;
      mean_w2 += c * wt * wt;
    }
    out.total[std::size_t(k)] = 1 + (per_atom[std::size_t(k)] - mean_w2) / (mean_w * mean_w);
  }
  return out;
}

namespace {

// Least squares of y = c0 + c1 x + c2 x^2 (c2 = 0 with fewer than 6 points), x scaled to [0, 1].
std::array<double, 3> quadratic_fit(const std::vector<double>& x, const std::vector<double>& y) {
  const int terms = x.size() >= 6 ? 3 : 2;
  double scale = 0;
  for (double v : x) scale = std::max(scale, v);
  double m[3][4] = {};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double u = x[i] / scale, p[3] = {1, u, u * u};
    for (int r = 0; r < terms; ++r) {
      for (int c = 0; c < terms; ++c) m[r][c] += p[r] * p[c];
      m[r][3] += p[r] * y[i];
    }
  }
  for (int col = 0; col < terms; ++col)  // Gaussian elimination; the matrix is positive definite
    for (int row = 0; row < terms; ++row) {
      if (row == col) continue;
      const double f = m[row][col] / m[col][col];
      for (int c = 0; c < 4; ++c) m[row][c] -= f * m[col][c];
    }
  std::array<double, 3> out{0, 0, 0};
  for (int r = 0; r < terms; ++r) out[std::size_t(r)] = m[r][3] / m[r][r];
  out[1] /= scale;
  out[2] /= scale * scale;
  return out;
}

}  // namespace

GuinierFit guinier_fit(const std::vector<double>& q, const std::vector<double>& intensity) {
  GuinierFit fit;
  double q_limit = q.size() > 10 ? q[9] : q.back();
  const auto below = [&](double limit) {
    return std::count_if(q.begin(), q.end(), [&](double v) { return v <= limit; });
  };
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<double> x, y;
    for (std::size_t k = 0; k < q.size(); ++k) {
      if (q[k] > q_limit || !(intensity[k] > 0)) continue;
      if (x.empty()) fit.q_lo = q[k];
      fit.q_hi = q[k];
      x.push_back(q[k] * q[k]);
      y.push_back(std::log(intensity[k]));
    }
    if (x.size() < 3) {
      fit.ok = false;
      fit.why = "fewer than 3 positive points with q Rg <= 1.3: lower --qmin or refine --qbins";
      return fit;
    }
    const auto c = quadratic_fit(x, y);
    if (!(c[1] < 0)) {
      fit.ok = false;
      fit.why = "ln I does not fall with q^2 at the lowest q (no Guinier region)";
      return fit;
    }
    fit.rg = std::sqrt(-3 * c[1]);
    fit.i0 = std::exp(c[0]);
    fit.points = std::int32_t(x.size());
    fit.ok = true;
    // Iterated until the points q Rg <= 1.3 selects are the points the fit used.
    const double next = 1.3 / fit.rg;
    if (below(next) == below(q_limit)) break;
    q_limit = next;
  }
  return fit;
}

double weighted_radius_of_gyration(const std::vector<Vec3<double>>& xyz,
                                   const std::vector<double>& weight) {
  double total = 0;
  Vec3<double> centre{0, 0, 0};
  for (std::size_t i = 0; i < xyz.size(); ++i) {
    total += weight[i];
    centre = centre + weight[i] * xyz[i];
  }
  centre = (1.0 / total) * centre;
  double sum = 0;
  for (std::size_t i = 0; i < xyz.size(); ++i) sum += weight[i] * norm2(xyz[i] - centre);
  return std::sqrt(sum / total);
}

}  // namespace kmol
