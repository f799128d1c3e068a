#pragma once
// A solute in solution (J. Koefinger and G. Hummer, Phys. Rev. E 87, 052712 (2013)): the excess
// intensity of the solute over the solvent it displaces, the solution's and the pure solvent's
// atoms within the same observation volume V each taken relative to V filled with uniform
// solvent (amplitude A_U = rho_w(q) F_V, F_V(q) = integral over V of exp(i q.r)), as if V were
// embedded in infinite bulk solvent:
//   Delta I(q) = < |A_A - A_U|^2 > - < |A_B - A_U|^2 >,
// each term per frame I - 2 rho_w c + rho_w^2 u with I the Debye intensity of the atoms in V,
// c = <Re A* F_V>_Omega and u = <|F_V|^2>_Omega, and rho_w(q) the pure solvent's scattering per
// volume in its V (docs/scattering.md). Without A_U the cut's edge would leave
// 2 rho_w (c_A - c_B) in Delta I, decaying only as (q R)^-2. Two volumes:
//   sphere: radius R about the solute's centre (solution) and the box's centre (solvent);
//           c = V Phi(q R) sum_j w_j sinc(q |r_j|), u = (V Phi(q R))^2,
//           Phi(x) = 3 (sin x - x cos x) / x^3;
//   shell:  every point within d of a solute atom, per solution frame; the pure solvent is cut
//           by the same shape (the solute's atoms of a solution frame, placed about its box's
//           centre); F_V integrated on a grid of points inside the shape (the atoms' and the
//           points' pair histograms).
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

// Phi(x) = 3 (sin x - x cos x) / x^3: a uniform ball's amplitude over its volume, Phi(0) = 1.
double ball_amplitude(double x);

// S(q) = sum_j w_j(q) sinc(q |r_j|) of atoms given as offsets from a volume's centre; weights
// [type][q].
std::vector<double> mean_amplitude(const VolumeAtoms& atoms, const std::vector<double>& weights,
                                   const std::vector<double>& q);

// A frame's uniform-solvent terms per unit of rho_w: c(q), u(q) (the header's) and V's volume.
struct UniformTerms {
  std::vector<double> cross, self;
  double volume = 0;
};
// The sphere's, from the atoms in it (offsets from its centre); weights [type][q].
UniformTerms sphere_terms(const VolumeAtoms& atoms, double radius,
                          const std::vector<double>& weights, const std::vector<double>& q);
// The points of a cubic grid of `spacing` about the centre that lie in the shell.
std::vector<Vec3<double>> shell_points(const ShellVolume& shell, double spacing);

// A run's frames taken relative to the uniform solvent: the mean over frames of
// I_f - 2 rho_w c_f + rho_w^2 u_f and its standard error (0 from one frame).
BlockMean relative_to_uniform(const std::vector<std::vector<double>>& intensities,
                              const std::vector<UniformTerms>& uniform,
                              const std::vector<double>& density);

// Delta I = A - B with sigma added in quadrature and the runs' discretisation errors linearly;
// the Guinier fit of the difference. `solution` gives the q grid and frames.
ScatteringResult excess_intensity(const ScatteringResult& solution, const ScatteringResult& solvent,
                                  const BlockMean& a, const BlockMean& b);

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
  // The frame's uniform-solvent terms (shell: the volume the last *_volume call cut, its
  // shape's index for the shape's own term).
  template <class ExecSpace>
  UniformTerms uniform_terms(const ExecSpace& space, const VolumeAtoms& inside, std::size_t shape);

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
  std::unique_ptr<ShellVolume> frame_shell_;      // shell: the frame's volume
  std::vector<std::vector<double>> shape_self_;   // shell: u(q) of each shape
  std::vector<UniformTerms> solution_uniform_, solvent_uniform_;  // per frame
  std::vector<double> solvent_weights_;  // sum over solvent frames of sum_j w_j(q) in V
  double solvent_volume_sum_ = 0;        // and of V's volume
  std::int64_t solution_frames_ = 0, solvent_frames_ = 0;
  VolumeAtoms inside_;
};

}  // namespace kmol
