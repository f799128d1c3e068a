#pragma once
// A solute in solution (J. Koefinger and G. Hummer, Phys. Rev. E 87, 052712 (2013)): the excess
// intensity of the solute over the solvent it displaces,
//   Delta I(q) = < I_A(q) > - < I_B(q) >,
// I_A the Debye intensity of every atom of the solution within an observation volume about the
// solute, I_B that of a pure-solvent run's atoms within the same volume. The volume's edge cuts
// both alike, so its form factor cancels when the solvent at its surface is bulk in both runs and
// both runs have the solvent's density and composition (docs/scattering.md). Two volumes:
//   sphere: radius R about the solute's centre (solution) and the box's centre (solvent);
//   shell:  every point within d of a solute atom, per solution frame; the pure solvent is cut
//           by the same shape (the solute's atoms of a solution frame, placed about its box's
//           centre), so both averages run over the same volumes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "drivers/library/scattering_job.hpp"
#include "drivers/library/scattering_volume.hpp"
#include "kmol/core/box.hpp"

namespace kmol {

enum class VolumeShape { sphere, shell };

struct ObservationVolume {
  VolumeShape shape = VolumeShape::sphere;
  double size = 0;  // sphere: radius (0: the solute's extent from its centre + 10 A); shell: d
};

// How a front end names its inputs in refusals.
struct SolutionNames {
  std::string solution_file, solvent_file;  // "" where the front end has none
  std::string radius = "--radius", shell = "--shell", solute = "--solute", solvent = "--solvent";
};

// Refuses an observation volume reaching `reach` from its centre in `box`: past the box's
// inscribed radius its atoms have no one image (InputError naming `option` and `file`).
void check_volume_fits(double reach, const BoxSpec& box, const std::string& option,
                       const std::string& file, const std::string& what);

// The solvent's atoms as labels of the solution's types; refuses a solvent of another
// composition: a type the solution's solvent (its atoms outside the solute) lacks, or lacks it.
std::vector<std::int32_t> solvent_labels(const ScatteringTypes& solution,
                                         const std::vector<char>& in_solute,
                                         const ScatteringTypes& solvent,
                                         const std::string& solvent_file,
                                         const SolutionNames& names);

// Delta I = A - B, sigma and the error's estimate added in quadrature and linearly; the Guinier
// fit of the difference.
ScatteringResult excess_intensity(const ScatteringResult& solution,
                                  const ScatteringResult& solvent);

// The excess-intensity job of every front end. start_solution and start_solvent take each run's
// first frame and make every check that needs no further frame; then frames in any number. In
// shell mode the solution's frames come first: each solvent frame is cut by the next solution
// frame's shape in turn, and the result needs at least as many solvent frames as solution frames
// (repeat them), so every shape is used.
class SolutionScattering {
 public:
  SolutionScattering(ScatteringSettings settings, ObservationVolume volume, SolutionNames names);

  void start_solution(const AtomIdentity& atoms, const std::vector<std::string>& overrides,
                      const std::vector<std::int64_t>& solute,
                      const std::vector<Vec3<double>>& first_xyz, const BoxSpec& box);
  void start_solvent(const AtomIdentity& atoms, const std::vector<std::string>& overrides,
                     const std::vector<Vec3<double>>& first_xyz, const BoxSpec& box);

  template <class ExecSpace>
  void add_solution_frame(const ExecSpace& space, const std::vector<Vec3<double>>& xyz,
                          const BoxSpec& box);
  template <class ExecSpace>
  void add_solvent_frame(const ExecSpace& space, const std::vector<Vec3<double>>& xyz,
                         const BoxSpec& box);

  bool solution_started() const { return solution_ != nullptr; }
  bool solvent_started() const { return solvent_started_; }
  std::int64_t solution_frames() const { return solution_frames_; }
  std::int64_t solvent_frames() const { return solvent_frames_; }
  const ObservationVolume& volume() const { return volume_; }
  const ScatteringJob& solution_job() const;
  std::int64_t solute_atoms() const { return std::int64_t(solute_.size()); }

  ScatteringResult result() const;
  // The volume and the method, for headers.
  std::string describe_volume() const;

 private:
  // The frame's atoms inside the volume (shell: the solute's shape of this frame, recorded).
  const VolumeAtoms& solution_volume(const std::vector<Vec3<double>>& xyz, const BoxSpec& box);
  const VolumeAtoms& solvent_volume(const std::vector<Vec3<double>>& xyz, const BoxSpec& box);
  BoxSpec checked_box(const BoxSpec& box, const std::string& file) const;
  void check_shell_order(bool solvent) const;
  // The sphere must hold every solute atom: one it cut would drop out of Delta I.
  void check_sphere_holds_solute(double extent, std::int64_t frame) const;

  ScatteringSettings settings_;
  ObservationVolume volume_;
  SolutionNames names_;
  std::vector<std::int64_t> solute_;
  std::vector<std::int32_t> solution_labels_, solvent_labels_;
  std::vector<char> in_solute_;
  std::unique_ptr<ScatteringJob> solution_, solvent_;
  double half_range_ = 0;   // the volumes' largest reach the jobs hold
  double first_reach_ = 0;  // the volume's reach in the solution's first frame
  bool solvent_started_ = false;
  std::vector<std::vector<Vec3<float>>> shapes_;  // shell: each solution frame's solute offsets
  std::int64_t solution_frames_ = 0, solvent_frames_ = 0;
  VolumeAtoms inside_;
};

}  // namespace kmol
