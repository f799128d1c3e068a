// What is computed from RDF counts: Kirkwood-Buff integrals (0 for an ideal gas once corrected,
// -V_s / N in a closed box before), blocking standard errors, and 2-D normalisation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/pair_histogram/binning.hpp"
#include "kernels/pair_histogram/blocking.hpp"
#include "kernels/pair_histogram/gr.hpp"
#include "kernels/pair_histogram/kirkwood_buff.hpp"
#include "kmol/core/errors.hpp"

namespace {

// The counts an ideal gas gives on average over many frames (rounded to whole pairs).
kmol::RdfCountsSummary ideal_gas(bool one_set, int dimensions) {
  kmol::RdfCountsSummary s;
  s.r_min = 0;
  s.r_max = 10;
  s.frames = 1000000;
  s.n_a = 500;
  s.n_b = one_set ? 0 : 300;
  s.one_set = one_set;
  s.dimensions = dimensions;
  const double volume = dimensions == 3 ? 30.0 * 30 * 30 : 30.0 * 30;
  s.mean_inverse_volume = 1 / volume;
  const double pairs = one_set ? 0.5 * 500 * 499 : 500.0 * 300;
  const kmol::HistogramRange<double> range(0, 10, 200);
  for (int k = 0; k < 200; ++k)
    s.counts.push_back(std::uint64_t(
        std::llround(double(s.frames) * pairs *
                     kmol::shell_measure(range.edge(k), range.edge(k + 1), dimensions) / volume)));
  return s;
}

}  // namespace

TEST(KirkwoodBuff, IdealGasIntegratesToZeroOnceCorrected) {
  for (bool one_set : {true, false}) {
    const kmol::RdfCountsSummary s = ideal_gas(one_set, 3);
    const kmol::KirkwoodBuff kb = kmol::kirkwood_buff(s, "--kb");
    ASSERT_EQ(kb.r.size(), 200u);
    const double sphere = M_PI / 6 * 1000;  // diameter 10
    for (std::size_t k = 0; k < kb.r.size(); ++k) {
      EXPECT_NEAR(kb.running[k], 0, 0.05) << k;
      EXPECT_NEAR(kb.finite_volume[k], 0, 0.05) << k;
    }
    EXPECT_NEAR(kb.infinite, 0, 0.05);
    // The closed box's g lacks the reference atom among its partners: -V_s / N, as binomial
    // particle-number fluctuations in a sphere of volume V_s give.
    EXPECT_NEAR(kb.closed.back(), one_set ? -sphere / 500 : 0, 0.01 * sphere / 500);
    EXPECT_DOUBLE_EQ(kb.fit_to, 10);
  }
}

TEST(KirkwoodBuff, RefusesWhatItCannotIntegrate) {
  kmol::RdfCountsSummary s = ideal_gas(true, 3);
  s.mean_inverse_volume = 0;
  EXPECT_THROW(kmol::kirkwood_buff(s, "--kb"), kmol::InputError);  // no box
  s = ideal_gas(true, 3);
  s.r_min = 1;
  EXPECT_THROW(kmol::kirkwood_buff(s, "--kb"), kmol::InputError);
  EXPECT_THROW(kmol::kirkwood_buff(ideal_gas(true, 2), "--kb"), kmol::InputError);
  try {
    kmol::kirkwood_buff(s, "kb");
    FAIL();
  } catch (const kmol::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kb"), std::string::npos) << e.what();
  }
}

TEST(Rdf, TwoDimensionalNormalisationGivesOneForAnIdealGasInAPlane) {
  const kmol::Rdf rdf = kmol::normalize_rdf(ideal_gas(true, 2), kmol::RdfNormalization::rdf);
  for (double g : rdf.g) EXPECT_NEAR(g, 1, 1e-6);
  // n(r) counts the partners within r in the plane: (N - 1) pi r^2 / A.
  EXPECT_NEAR(rdf.coordination.back(), 499 * M_PI * 100 / 900, 1e-3);
}

TEST(Blocking, UncorrelatedBlocksKeepTheirLengthAndTheTextbookError) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0, 1);
  std::vector<std::vector<double>> series(1024, std::vector<double>(3));
  for (auto& row : series)
    for (auto& x : row) x = noise(rng);
  const kmol::BlockingResult r = kmol::blocking_standard_error(series);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.block, 4);
  for (double se : r.standard_error) EXPECT_NEAR(se, 1 / 32.0, 0.2 / 32.0);
}

TEST(Blocking, CorrelatedBlocksAreMergedUntilTheErrorLevelsOff) {
  // AR(1) with phi 0.9: the standard error of the mean is sqrt((1 + phi) / (1 - phi)) ~ 4.4 times
  // the naive one.
  std::mt19937_64 rng(9);
  std::normal_distribution<double> noise(0, std::sqrt(1 - 0.81));
  std::vector<std::vector<double>> series(16384, std::vector<double>(2));
  double x[2] = {0, 0};
  for (auto& row : series)
    for (int k = 0; k < 2; ++k) row[k] = x[k] = 0.9 * x[k] + noise(rng);
  const kmol::BlockingResult r = kmol::blocking_standard_error(series);
  const double want = std::sqrt(19.0) / 128;
  EXPECT_TRUE(r.converged);
  EXPECT_GE(r.block, 8);
  for (double se : r.standard_error) EXPECT_NEAR(se, want, 0.25 * want);
  EXPECT_EQ(r.n_blocks, 16384 / r.block);
}

TEST(Blocking, TwoBlocksGiveTheirSpreadUnconverged) {
  const kmol::BlockingResult r = kmol::blocking_standard_error({{1.0}, {3.0}});
  EXPECT_FALSE(r.converged);
  EXPECT_DOUBLE_EQ(r.standard_error[0], 1.0);
  EXPECT_THROW(kmol::blocking_standard_error({{1.0}}), std::invalid_argument);
}
