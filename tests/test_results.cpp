// Results that check themselves (result_check.hpp) and PDB molecules told as their writers mean
// them: an empty or non-finite result is refused naming the option, or kept with a warning; a PDB
// without TER records between molecules takes its molecules from residues and CONECT bonds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "drivers/library/exclusion.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/topology.hpp"
#include "tests/support/refusal.hpp"

namespace kmol {
namespace {

using test::refusal;

RdfCountsSummary gas_summary(std::vector<std::uint64_t> counts) {
  RdfCountsSummary s;
  s.counts = std::move(counts);
  s.r_min = 0;
  s.r_max = 1.2;
  s.frames = 2;
  s.n_a = 10;
  s.one_set = true;
  s.mean_inverse_volume = 1e-3;
  return s;
}

TEST(ResultCheck, NoPairInRangeIsRefusedNamingTheRangeOption) {
  const auto s = gas_summary({0, 0, 0});
  const Rdf rdf = normalize_rdf(s, RdfNormalization::rdf);
  EXPECT_EQ(refusal([&] { check_rdf(s, rdf, {}); }),
            "--rmax: no pair within --rmax 1.2 Angstrom was counted: every bin is 0 (45 distinct "
            "pairs, all outside it); check the unit and value of --rmax, or use --allow-empty to "
            "accept an empty result");
  ResultOptions allow;
  allow.allow_empty = true;
  EXPECT_NE(check_rdf(s, rdf, allow).find("kept as asked (--allow-empty)"), std::string::npos);
}

TEST(ResultCheck, NanometresAndRminAreNamed) {
  ResultOptions nm;
  nm.unit = "nm";
  nm.unit_per_angstrom = 0.1;
  EXPECT_TRUE(test::refused_with(
      [&] {
        check_pair_counts({0, 0}, 2, 12, -1, nm);
      },
      "no pair in [0.2, 1.2) nm (--rmax) was counted: every bin is 0;"));
}

TEST(ResultCheck, CountsPassAndNonFiniteValuesAreRefusedEvenWhenEmptyIsAllowed) {
  auto s = gas_summary({0, 3, 1});
  Rdf rdf = normalize_rdf(s, RdfNormalization::rdf);
  EXPECT_EQ(check_rdf(s, rdf, {}), "");
  s.mean_inverse_volume = std::numeric_limits<double>::infinity();
  rdf.g[1] = std::nan("");
  ResultOptions allow;
  allow.allow_empty = true;
  EXPECT_TRUE(
      test::refused_with([&] { check_rdf(s, rdf, allow); },
                         "the result is not finite: bin 1 (r = 0.6) is nan; the mean 1/V of the "
                         "boxes is inf"));
}

TEST(ResultCheck, NoDistinctPairSaysSo) {
  EXPECT_TRUE(
      test::refused_with([] { check_pair_counts({0}, 0, 1, 0, {}); },
                         "no pair to count: the selections hold no two distinct atoms; check the "
                         "selections"));
  EXPECT_EQ(distinct_pairs(10, 0, true, 0), 45);
  EXPECT_EQ(distinct_pairs(3, 4, false, 2), 10);
}

TEST(ResultCheck, AnExclusionOfEveryPairIsRefused) {
  EXPECT_EQ(refusal([] { refuse_excluding_every_pair(45, 45, "--exclude-same", "molecule"); }),
            "--exclude-same: every one of the 45 pairs of the selections lies within one "
            "molecule, so none would be counted; check how the atoms are grouped into molecules");
  EXPECT_EQ(refusal([] { refuse_excluding_every_pair(45, 44, "--exclude-same", "molecule"); }),
            "accepted");
}

std::string atom(int serial, int resid) {
  char line[81];
  std::snprintf(line, sizeof(line),
                "ATOM  %5d  OW  SOL A%4d       0.000   0.000   0.000  1.00  0.00           O\n",
                serial, resid);
  return line;
}

// Six atoms, two in each of three residues.
std::string three_residues() {
  std::string text;
  for (int i = 1; i <= 6; ++i) text += atom(i, (i + 1) / 2);
  return text;
}

// The topology of a PDB file holding `text` (the file removed after).
io::Topology pdb_topology(const std::string& name, const std::string& text) {
  const std::string path =
      ::testing::TempDir() + "/" + name + "-" + std::to_string(getpid()) + ".pdb";
  std::ofstream(path) << text;
  io::Topology t = io::read_topology(path);
  std::remove(path.c_str());
  return t;
}

TEST(PdbTopology, WithoutTerRecordsMoleculesAreResidues) {
  const io::Topology t = pdb_topology("no-ter", three_residues() + "TER\nEND\n");
  EXPECT_EQ(t.molecules, (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2}));
  EXPECT_NE(t.note.find("has no TER records between its atoms: molecules are taken from its "
                        "residues (3 molecules)"),
            std::string::npos)
      << t.note;
}

TEST(PdbTopology, ConectBondsJoinResidues) {
  const io::Topology t =
      pdb_topology("conect", three_residues() + "ENDMDL\nCONECT    2    3    5\nEND\n");
  EXPECT_EQ(t.molecules, (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0}));
  EXPECT_NE(t.note.find("residues joined by its CONECT bonds (1 molecule)"), std::string::npos);
}

TEST(PdbTopology, TerRecordsStillEndMolecules) {
  const io::Topology t = pdb_topology(
      "ter", atom(1, 1) + atom(2, 2) + "TER\n" + atom(3, 3) + atom(4, 4) + "TER\nEND\n");
  EXPECT_EQ(t.molecules, (std::vector<std::int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(t.note, "");
}

}  // namespace
}  // namespace kmol
