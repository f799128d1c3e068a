#pragma once
// The observation volumes of a solute in solution (docs/scattering.md): a sphere about a centre,
// or the solute plus a solvent shell, every point within a thickness d of a solute atom. Atoms
// are placed as minimum images about the volume's centre, which is exact while the volume lies
// within the box's inscribed sphere about it (checked by the callers).
#include <cstdint>
#include <vector>

#include "kmol/core/box.hpp"

namespace kmol {

// The union of balls of radius `thickness` about the solute's atoms (offsets from the volume's
// centre): membership tests against a cell grid of the atoms, cells at least `thickness` wide.
class ShellVolume {
 public:
  ShellVolume(const std::vector<Vec3<double>>& solute, double thickness);

  // The largest distance of a point of the volume from the centre: max |p_i| + thickness.
  double reach() const { return reach_; }
  // Whether y lies within the thickness of some solute atom (strictly closer).
  bool contains(Vec3<double> y) const;

 private:
  std::int64_t cell_index(std::int32_t i, std::int32_t j, std::int32_t k) const {
    return (std::int64_t(k) * cells_[1] + j) * cells_[0] + i;
  }

  double thickness_ = 0, reach_ = 0, cell_ = 0;
  Vec3<double> low_{0, 0, 0};
  std::int32_t cells_[3] = {1, 1, 1};
  std::vector<std::int64_t> start_;  // atoms of cell c: sorted_[start_[c], start_[c + 1])
  std::vector<Vec3<double>> sorted_;
};

// The atoms of a frame inside a volume about `centre`: their minimum images about it (the
// positions the Debye sum takes) and their type labels.
struct VolumeAtoms {
  std::vector<Vec3<double>> xyz;
  std::vector<std::int32_t> labels;
};

// The atoms within `radius` of `centre` (minimum image).
void atoms_in_sphere(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                     const BoxSpec& box, Vec3<double> centre, double radius, VolumeAtoms& inside);

// The atoms whose minimum image about `centre` lies in `shell`.
void atoms_in_shell(const std::vector<Vec3<double>>& xyz, const std::vector<std::int32_t>& labels,
                    const BoxSpec& box, Vec3<double> centre, const ShellVolume& shell,
                    VolumeAtoms& inside);

// The solute's atoms as offsets from their centre: the mean of the atoms each imaged about the
// previous one in the selection, every atom then imaged about that centre.
std::vector<Vec3<double>> solute_offsets(const std::vector<Vec3<double>>& xyz,
                                         const std::vector<std::int64_t>& solute,
                                         const BoxSpec& box, Vec3<double>& centre);

}  // namespace kmol
