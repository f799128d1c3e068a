// The library's device policy and RDF job, which the command, the Python module and the C API
// share: one meaning of auto/cpu/gpu/all, frames accumulated exactly (the sum of each frame's
// pair histogram), normalised with the mean 1/V, frames unlike the first refused before they
// count, gmx rdf's half bins, and results checked before anything is returned.
#include <gtest/gtest.h>

#include "drivers/library/device_policy.hpp"
#include "drivers/library/example_systems.hpp"
#include "drivers/library/rdf_job.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"
#include "tests/support/backend_test.hpp"
#include "tests/support/refusal.hpp"

namespace kmol {
namespace {

using test::refusal;

TEST(DevicePolicy, NamesBothWaysAndRefusesOthersNamingTheOption) {
  for (DevicePolicy p :
       {DevicePolicy::automatic, DevicePolicy::cpu, DevicePolicy::gpu, DevicePolicy::all})
    EXPECT_EQ(device_policy_from_string(to_string(p)), p);
  EXPECT_EQ(refusal([] { device_policy_from_string("tpu"); }),
            "--device: expected 'auto', 'cpu', 'gpu' or 'all', not 'tpu'");
  const DeviceOption python{"device", true, false};
  EXPECT_EQ(refusal([&] { device_policy_from_string("all", python); }),
            "device: expected 'auto', 'cpu' or 'gpu', not 'all'");
}

TEST(DevicePolicy, AutoFallsBackToTheHostAndGpuIsRefusedWithoutOne) {
  const bool gpu = test::gpu_present();
  const DevicePlan cpu = plan_devices(DevicePolicy::cpu);
  EXPECT_TRUE(cpu.cpu && !cpu.gpu);
  const DevicePlan automatic = plan_devices(DevicePolicy::automatic);
  EXPECT_EQ(automatic.gpu, gpu);
  EXPECT_EQ(automatic.cpu, !gpu);
  const bool on_host = with_space(DevicePolicy::automatic, [](const auto& space) {
    return runs_on_host<std::decay_t<decltype(space)>>;
  });
  EXPECT_EQ(on_host, !gpu);
  if (gpu) {
    const DevicePlan all = plan_devices(DevicePolicy::all);
    EXPECT_TRUE(all.gpu && all.cpu);
    return;
  }
  EXPECT_EQ(refusal<UnsupportedError>([] {
              plan_devices(DevicePolicy::gpu);
            }).rfind("--device gpu: no GPU (", 0),
            0u);
  EXPECT_EQ(refusal<UnsupportedError>([] {
              plan_devices(DevicePolicy::all, {"device", true, true});
            }).rfind("device='all': no GPU (", 0),
            0u);
}

RdfSettings gas_settings() {
  RdfSettings s;
  s.r_max = 6;
  s.bins = 24;
  s.precision = Precision::double_;
  s.device = DevicePolicy::cpu;
  return s;
}

RdfFrame<double> frame_of(const ExampleSystem& gas) {
  RdfFrame<double> f;
  f.input = one_set(gas.positions.data(), std::int64_t(gas.positions.size()));
  f.box = gas.box;
  return f;
}

TEST(RdfJob, FramesAddUpExactlyAndNormaliseWithTheMeanInverseVolume) {
  // Two boxes of different volume (as under NPT): 1/V is averaged, not V.
  const ExampleSystem small = ideal_gas(300, 18, 1), large = ideal_gas(300, 21, 2);
  RdfJob job(gas_settings());
  job.add_frame(frame_of(small));
  job.add_frame(frame_of(large));
  ASSERT_EQ(job.frames(), 2);

  PairHistogramSettings s = job.count_settings();
  std::vector<std::uint64_t> expected(24, 0);
  for (const ExampleSystem* gas : {&small, &large}) {
    s.box = gas->box;
    const auto one =
        pair_histogram(Kokkos::DefaultHostExecutionSpace(), one_set(gas->positions.data(), 300), s);
    for (std::size_t k = 0; k < expected.size(); ++k) expected[k] += one.counts[k];
  }
  EXPECT_EQ(job.summary().counts, expected);
  std::uint64_t total = 0;
  for (auto c : expected) total += c;
  EXPECT_GT(total, 1000u);  // a real count, not an empty one

  RdfCountsSummary summary = job.summary();
  EXPECT_DOUBLE_EQ(summary.mean_inverse_volume,
                   0.5 * (1 / (18.0 * 18 * 18) + 1 / (21.0 * 21 * 21)));
  const RdfResult result = job.result();
  EXPECT_EQ(result.rdf.g, normalize_rdf(summary, RdfNormalization::rdf).g);
  EXPECT_TRUE(result.warning.empty());
  double tail = 0;
  for (int k = 12; k < 24; ++k) tail += result.rdf.g[k] / 12;
  EXPECT_NEAR(tail, 1, 0.1);  // an ideal gas
}

TEST(RdfJob, AFrameUnlikeTheFirstIsRefusedBeforeItCounts) {
  const ExampleSystem gas = ideal_gas(200, 16, 3);
  RdfSettings s = gas_settings();
  s.names.box = "box";
  s.names.none = "NULL";
  RdfJob job(s);
  job.add_frame(frame_of(gas));
  const auto counts = job.summary().counts;
  RdfFrame<double> without_box = frame_of(gas);
  without_box.box = BoxSpec::none();
  EXPECT_EQ(refusal([&] { job.add_frame(without_box); }),
            "box: frame 1: NULL, but frame 0 had a periodic box: give every frame its box");
  RdfFrame<double> fewer = frame_of(gas);
  fewer.input.n_a = 150;
  EXPECT_EQ(refusal([&] { job.add_frame(fewer); }),
            "a: frame 1: 150 and 0 atoms, but frame 0 had 200 and 0");
  EXPECT_EQ(job.frames(), 1);
  EXPECT_EQ(job.summary().counts, counts);
}

TEST(RdfJob, MoleculesThatExcludeEveryPairAreRefused) {
  const ExampleSystem gas = ideal_gas(50, 12, 4);
  const std::vector<std::int32_t> one_molecule(50, 7);
  RdfFrame<double> f = frame_of(gas);
  f.input.molecule_a = one_molecule.data();
  RdfJob job(gas_settings());
  EXPECT_TRUE(
      test::refused_with([&] { job.add_frame(f); }, "molecules: every one of the 1225 pairs"));
  EXPECT_EQ(job.frames(), 0);
}

TEST(RdfJob, GmxCountsHalfBinsAndReportsItsOwnBins) {
  RdfSettings s = gas_settings();
  s.gmx = true;
  s.bins = 10;
  s.r_max = 5;
  RdfJob job(s);
  const PairHistogramSettings counted = job.count_settings();
  EXPECT_EQ(counted.n_bins, 20);
  EXPECT_DOUBLE_EQ(counted.r_max, 5);
  job.add_frame(frame_of(ideal_gas(300, 15, 5)));
  const RdfResult result = job.result();
  EXPECT_EQ(result.counts, gmx_bin_counts(job.summary().counts));
  EXPECT_EQ(result.rdf.g.size(), 10u);
  // -cn: within (k + 1) w of a reference, both atoms of a pair counting, at r in nm.
  const CumulativeNumber cn = gmx_cumulative_number(job.summary());
  const auto& half = job.summary().counts;
  std::uint64_t within = 0;
  for (int k = 0; k < 10; ++k) {
    within += half[std::size_t(2 * k)] + half[std::size_t(2 * k + 1)];
    EXPECT_DOUBLE_EQ(cn.r[std::size_t(k)], 0.05 * (k + 1));
    EXPECT_DOUBLE_EQ(cn.number[std::size_t(k)], 2.0 * double(within) / 300);
  }
  EXPECT_GT(cn.number.back(), 1);
  s.r_min = 0.5;
  EXPECT_EQ(refusal([&] { RdfJob refused(s); }), "--rmin: --gmx bins start at r = 0");
}

TEST(RdfJob, SettingsAndEmptyResultsAreRefusedNamingTheFrontEndsOptions) {
  RdfSettings s = gas_settings();
  s.bins = 0;
  EXPECT_EQ(refusal([&] { RdfJob refused(s); }), "--bins: must be positive, not 0");
  s = gas_settings();
  s.periodic = false;
  EXPECT_EQ(refusal([&] { RdfJob refused(s); }),
            "--norm: rdf normalisation needs the box volume; with --no-pbc use --norm density or "
            "none");
  s = gas_settings();
  s.r_max = 0.5;  // below every distance of a sparse lattice
  s.result.range = "r_max";
  s.result.allow_empty_option = "allow_empty=True";
  RdfJob empty(s);
  ExampleSystem lattice = fcc_crystal(3, 4.05);
  empty.add_frame(frame_of(lattice));
  EXPECT_TRUE(
      test::refused_with([&] { empty.result(); }, "r_max: no pair within r_max 0.5 Angstrom"));
  empty.allow_empty(true);
  EXPECT_NE(empty.result().warning.find("allow_empty=True"), std::string::npos);
}

}  // namespace
}  // namespace kmol
