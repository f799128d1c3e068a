#pragma once
// The CPU-specialised Lennard-Jones force path (`--impl host`): a half Verlet list (each pair once,
// Newton's third law) over positions copied, each step, into cell order as padded 4-component
// rows, with periodic images of the atoms near the faces in extra cells (so no minimum image per
// pair), swept with AVX2 eight (float) or four (double) partners at a time; each thread adds its
// partners' shares to its own force rows, summed once per step, so there are no atomics. The list
// is rebuilt once some atom has moved more than skin / 2 since the last build. Kokkos-free (plain
// OpenMP threads), like the other host kernels; see docs/md.md.
#include <cstdint>
#include <memory>
#include <string>

#include "kernels/md/lennard_jones.hpp"
#include "kernels/md/runner.hpp"
#include "kmol/core/device.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

// True when this build has the AVX2 sweeps (x86-64-v3 flags); `--impl host` is refused otherwise.
bool lj_host_available();

// The sweeps' evaluator on r2[0..m), all within the cutoff: tests check it against
// ShiftedForceLJ::evaluate bit for bit. Only where lj_host_available().
template <class T>
void lj_lanes_evaluate(const ShiftedForceLJ<T>& lj, const T* r2, int m, T* f_over_r, T* energy);

template <class T>
class LjHostForces {
 public:
  LjHostForces(int atoms, Vec3<double> box, double cutoff, double skin, int threads);
  ~LjHostForces();
  LjHostForces(const LjHostForces&) = delete;
  LjHostForces& operator=(const LjHostForces&) = delete;

  // x, forces: atom-major rows of 3; energy, virial: per atom (each pair's whole share goes to one
  // of its two atoms, so only their sums are the system's).
  void compute(const T* x, T* forces, T* energy, T* virial);
  std::int64_t builds() const;
  std::string launch() const;

  struct State;

 private:
  std::unique_ptr<State> s_;
};

extern template class LjHostForces<float>;
extern template class LjHostForces<double>;

template <>
struct MdForceRunner<MdForceImpl::host> {
  template <class State>
  static std::string run(const Device& device, State& s) {
    auto& host = s.template kept<LjHostForces<typename State::value_type>>(
        s.n, s.box_length, s.settings.cutoff, s.settings.skin, device.host_threads);
    host.compute(s.x.data(), s.out.f.data(), s.out.energy.data(), s.out.virial.data());
    s.list_builds = host.builds();
    return host.launch();
  }
};

}  // namespace kmol
