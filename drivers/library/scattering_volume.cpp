// Observation volumes (scattering_volume.hpp).
#include "drivers/library/scattering_volume.hpp"

#include <algorithm>
#include <cmath>

namespace kmol {
namespace {

// At most this many cells along an edge: a thin shell about a large solute widens its cells
// beyond the thickness instead of growing the grid without bound.
constexpr double max_cells_per_edge = 128;

std::int32_t clamp_cell(double f, std::int32_t n) {
  return std::int32_t(std::min<double>(std::max<double>(f, 0.0), n - 1));
}

}  // namespace

ShellVolume::ShellVolume(const std::vector<Vec3<double>>& solute, double thickness)
    : thickness_(thickness) {
  Vec3<double> high = solute.front();
  low_ = solute.front();
  double farthest = 0;
  for (const auto& p : solute) {
    low_ = {std::min(low_.x, p.x), std::min(low_.y, p.y), std::min(low_.z, p.z)};
    high = {std::max(high.x, p.x), std::max(high.y, p.y), std::max(high.z, p.z)};
    farthest = std::max(farthest, norm2(p));
  }
  reach_ = std::sqrt(farthest) + thickness;
  const Vec3<double> span = high - low_;
  const double widest = std::max({span.x, span.y, span.z});
  cell_ = std::max(thickness, widest / max_cells_per_edge);
  const double spans[3] = {span.x, span.y, span.z};
  for (int a = 0; a < 3; ++a) cells_[a] = std::int32_t(spans[a] / cell_) + 1;
  std::vector<std::int64_t> cell_of(solute.size());
  start_.assign(std::size_t(cells_[0]) * cells_[1] * cells_[2] + 1, 0);
  for (std::size_t n = 0; n < solute.size(); ++n) {
    const Vec3<double> f = (1.0 / cell_) * (solute[n] - low_);
    cell_of[n] = cell_index(clamp_cell(f.x, cells_[0]), clamp_cell(f.y, cells_[1]),
                            clamp_cell(f.z, cells_[2]));
    ++start_[std::size_t(cell_of[n]) + 1];
  }
  for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
  std::vector<std::int64_t> next(start_.begin(), start_.end() - 1);
  sorted_.resize(solute.size());
  for (std::size_t n = 0; n < solute.size(); ++n)
    sorted_[std::size_t(next[std::size_t(cell_of[n])]++)] = solute[n];
}

bool ShellVolume::contains(Vec3<double> y) const {
  if (!(norm2(y) < reach_ * reach_)) return false;
  const Vec3<double> f = (1.0 / cell_) * (y - low_);
  const double fs[3] = {std::floor(f.x), std::floor(f.y), std::floor(f.z)};
  std::int32_t lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    // Cells are at least the thickness wide: a ball about y meets its cell's neighbours only.
    if (fs[a] < -1 || fs[a] > cells_[a]) return false;
    lo[a] = std::max(std::int32_t(fs[a]) - 1, 0);
    hi[a] = std::min(std::int32_t(fs[a]) + 1, cells_[a] - 1);
  }
  const double limit = thickness_ * thickness_;
  for (std::int32_t k = lo[2]; k <= hi[2]; ++k)
    for (std::int32_t j = lo[1]; j <= hi[1]; ++j)
      for (std::int32_t i = lo[0]; i <= hi[0]; ++i) {
        const std::int64_t c = cell_index(i, j, k);
        for (std::int64_t n = start_[std::size_t(c)]; n < start_[std::size_t(c) + 1]; ++n)
          if (norm2(y - sorted_[std::size_t(n)]) < limit) return true;
      }
  return false;
}

void atoms_in_sphere(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                     const BoxSpec& box, Vec3<double> centre, double radius, VolumeAtoms& inside) {
  inside.xyz.clear();
  inside.labels.clear();
  visit_box<double>(box, [&](const auto& wrap) {
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      const Vec3<double> d = wrap.minimum_image(xyz[i] - centre);
      if (norm2(d) < radius * radius) {
        inside.xyz.push_back(d);
        inside.labels.push_back(labels[i]);
      }
    }
  });
}

void atoms_in_shell(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                    const BoxSpec& box, Vec3<double> centre, const ShellVolume& shell,
                    VolumeAtoms& inside) {
  inside.xyz.clear();
  inside.labels.clear();
  visit_box<double>(box, [&](const auto& wrap) {
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      const Vec3<double> d = wrap.minimum_image(xyz[i] - centre);
      if (shell.contains(d)) {
        inside.xyz.push_back(d);
        inside.labels.push_back(labels[i]);
      }
    }
  });
}

std::vector<Vec3<double>> solute_offsets(const std::vector<Vec3<double>>& xyz,
                                         const std::vector<std::int64_t>& solute,
                                         const BoxSpec& box, Vec3<double>& centre) {
  // Each atom is imaged about the one before it in the selection (a molecule's atoms follow
  // their bonds), so a solute wider than half the box stays whole; the mean of that chain is
  // the centre, and every atom is then imaged about the centre, which is exact while the
  // solute lies within half a box of it (the volume checks ask more).
  const Vec3<double> anchor = xyz[std::size_t(solute.front())];
  std::vector<Vec3<double>> offsets;
  offsets.reserve(solute.size());
  visit_box<double>(box, [&](const auto& wrap) {
    Vec3<double> chain{0, 0, 0}, sum{0, 0, 0};
    Vec3<double> previous = anchor;
    for (auto i : solute) {
      const Vec3<double> x = xyz[std::size_t(i)];
      chain = chain + wrap.minimum_image(x - previous);
      previous = x;
      sum = sum + chain;
    }
    centre = anchor + (1.0 / double(solute.size())) * sum;
    for (auto i : solute) offsets.push_back(wrap.minimum_image(xyz[std::size_t(i)] - centre));
  });
  return offsets;
}

}  // namespace kmol
