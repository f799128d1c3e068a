// Sites of molecular centres (gmx's res_com, mol_cog, ...), molecules made whole across the
// boundaries, and the frames chosen by position or by time.
#include <gtest/gtest.h>

#include "drivers/library/centres.hpp"
#include "drivers/library/frame_list.hpp"
#include "kmol/core/errors.hpp"
#include "tests/support/refusal.hpp"

namespace kmol {
namespace {

// Two waters bonded as SETTLE bonds them (O-H1, O-H2) and a sodium ion.
io::Topology two_waters_and_an_ion() {
  io::Topology t;
  t.names = {"OW", "HW1", "HW2", "OW", "HW1", "HW2", "NA"};
  t.resnames = {"SOL", "SOL", "SOL", "SOL", "SOL", "SOL", "NA"};
  t.resids = {1, 1, 1, 2, 2, 2, 3};
  t.residues = {0, 0, 0, 1, 1, 1, 2};
  t.molecules = {0, 0, 0, 1, 1, 1, 2};
  t.masses = {15.9994, 1.008, 1.008, 15.9994, 1.008, 1.008, 22.98977};
  t.bonds = {0, 1, 0, 2, 3, 4, 3, 5};
  return t;
}

std::vector<std::int64_t> all_of(const io::Topology& t) {
  std::vector<std::int64_t> a(t.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::int64_t(i);
  return a;
}

TEST(Centres, CentresOfMassOfMoleculesSplitByTheBoundary) {
  const io::Topology t = two_waters_and_an_ion();
  const BoxSpec box = BoxSpec::orthorhombic(10, 10, 10);
  // Water 0 straddles x = 0: its hydrogen H1 sits at 9.5, 0.7 Angstrom from the oxygen at 0.2.
  const std::vector<Vec3<double>> x = {{0.2, 5, 5}, {9.5, 5, 5}, {0.2, 5.9, 5}, {5, 5, 5},
                                       {5.8, 5, 5}, {5, 5.8, 5}, {2, 2, 2}};
  const SiteMap sites = make_sites(all_of(t), SitePosition::mol_com, &t, t.masses, "--pos1");
  ASSERT_EQ(sites.size(), 3);
  std::vector<Vec3<double>> whole(x.size()), out(3);
  site_positions(sites, x.data(), box, whole, out.data());
  const double m = 15.9994 + 2 * 1.008;
  const double split_x = (15.9994 * 0.2 + 1.008 * -0.5 + 1.008 * 0.2) / m;
  EXPECT_NEAR(out[0].x, split_x, 1e-12);
  EXPECT_NEAR(out[0].y, (15.9994 * 5 + 1.008 * 5 + 1.008 * 5.9) / m, 1e-12);
  EXPECT_NEAR(out[1].x, (15.9994 * 5 + 1.008 * 5.8 + 1.008 * 5) / m, 1e-12);
  EXPECT_NEAR(out[2].x, 2, 1e-12);
  // Centres of the selected atoms only (gmx's default for a selection): the oxygens themselves.
  const SiteMap oxygens = make_sites({0, 3}, SitePosition::mol_cog, &t, {}, "--pos1");
  site_positions(oxygens, x.data(), box, whole, out.data());
  EXPECT_EQ(out[0].x, 0.2);
  EXPECT_EQ(out[1].x, 5);
  // Exclusion labels of the sites: their molecules.
  EXPECT_EQ(site_groups(sites, t.molecules), (std::vector<std::int32_t>{0, 1, 2}));
  // Single precision positions come out in single precision, from the same double arithmetic.
  std::vector<Vec3<float>> xf, outf(3);
  for (const auto& p : x) xf.push_back(p.cast<float>());
  site_positions(sites, xf.data(), box, whole, outf.data());
  EXPECT_NEAR(outf[0].x, split_x, 1e-6);
}

TEST(Centres, WithoutBondsResiduesAreJoinedInFileOrder) {
  io::Topology t = two_waters_and_an_ion();
  t.bonds.clear();
  t.masses.clear();
  const std::vector<Vec3<double>> x = {{0.2, 5, 5}, {9.5, 5, 5}, {0.2, 5.9, 5}, {5, 5, 5},
                                       {5.8, 5, 5}, {5, 5.8, 5}, {2, 2, 2}};
  const SiteMap sites = make_sites(all_of(t), SitePosition::res_cog, &t, {}, "--pos1");
  std::vector<Vec3<double>> whole(x.size()), out(3);
  site_positions(sites, x.data(), BoxSpec::orthorhombic(10, 10, 10), whole, out.data());
  EXPECT_NEAR(out[0].x, (0.2 - 0.5 + 0.2) / 3, 1e-12);
  // A residue that spans more than the largest sphere inside the box is refused.
  std::vector<Vec3<double>> long_chain = x;
  long_chain[1] = {3.2, 5, 5};
  long_chain[2] = {6.4, 5, 5};
  EXPECT_TRUE(test::refused_with(
      [&] {
        site_positions(sites, long_chain.data(), BoxSpec::orthorhombic(10, 10, 10), whole,
                       out.data());
      },
      "--pos1: molecule 0 cannot be made whole: without bonds"));
}

TEST(Centres, MistakesAreRefused) {
  io::Topology t = two_waters_and_an_ion();
  EXPECT_TRUE(test::refused_with([&] { make_sites({0}, SitePosition::res_com, &t, {}, "--pos2"); },
                                 "--pos2: res_com: centres of mass need masses"));
  EXPECT_TRUE(
      test::refused_with([&] { make_sites({0}, SitePosition::mol_com, nullptr, {}, "--pos1"); },
                         "give one with --top"));
  io::Topology massless = t;
  massless.masses[6] = 0;
  EXPECT_TRUE(test::refused_with(
      [&] { make_sites({6}, SitePosition::mol_com, &massless, massless.masses, "--pos1"); },
      "have no mass"));
  io::Topology broken = t;
  broken.bonds = {0, 1, 3, 4, 3, 5};  // H2 of the first water bonded to nothing
  EXPECT_TRUE(test::refused_with(
      [&] {
        make_sites({0, 1, 2}, SitePosition::mol_cog, &broken, {}, "--pos1");
      },
      "molecule 0 (atoms 0 to 2, SOL) cannot be made whole: the topology's bonds do not join "
      "atom 2 (HW2)"));
  EXPECT_TRUE(test::refused_with([] { site_position_named("mol_centre", "--pos1"); },
                                 "expected atom, res_com, res_cog, mol_com or mol_cog"));
}

TEST(Centres, ARingBondedToItsOwnImageCannotBeMadeWhole) {
  io::Topology t;
  t.names = {"C1", "C2", "C3"};
  t.resnames = {"RNG", "RNG", "RNG"};
  t.resids = {1, 1, 1};
  t.residues = t.molecules = {0, 0, 0};
  t.bonds = {0, 1, 1, 2, 2, 0};
  const SiteMap sites = make_sites({0, 1, 2}, SitePosition::mol_cog, &t, {}, "--pos1");
  std::vector<Vec3<double>> whole(3), out(1);
  const std::vector<Vec3<double>> ring = {{1, 1, 1}, {2, 1, 1}, {1.5, 2, 1}};
  site_positions(sites, ring.data(), BoxSpec::orthorhombic(10, 10, 10), whole, out.data());
  EXPECT_NEAR(out[0].x, 1.5, 1e-12);
  // Through the box: 0 -> 3.4 -> 6.8 -> (10) 0, each bond 3.2 or 3.4 Angstrom long.
  const std::vector<Vec3<double>> wrapped = {{0, 1, 1}, {3.4, 1, 1}, {6.8, 1, 1}};
  EXPECT_TRUE(test::refused_with(
      [&] {
        site_positions(sites, wrapped.data(), BoxSpec::orthorhombic(10, 10, 10), whole, out.data());
      },
      "closes a ring across the periodic boundary"));
}

// Five frames at t = 0, 2, 4, 6, 8.
class TimedReader : public io::TrajectoryReader {
 public:
  const std::string& path() const override { return path_; }
  std::string description() const override { return "test"; }
  std::int64_t n_frames() const override { return 5; }
  std::int64_t n_atoms() const override { return 1; }
  BoxKind box_kind() const override { return BoxKind::none; }
  io::FrameInfo read_frame(std::int64_t t, Vec3<float>*) override { return frame_info(t); }
  io::FrameInfo read_frame(std::int64_t t, Vec3<double>*) override { return frame_info(t); }
  io::FrameInfo frame_info(std::int64_t t) override {
    io::FrameInfo f;
    f.index = t;
    f.time = 2.0 * double(t);
    return f;
  }

 private:
  std::string path_ = "t.xtc";
};

TEST(Frames, OneSyntaxByPositionOrTime) {
  TimedReader r;
  using F = std::vector<std::int64_t>;
  EXPECT_EQ(choose_frames({}, r), (F{0, 1, 2, 3, 4}));
  EXPECT_EQ(choose_frames({"-2:", "", "", ""}, r), (F{3, 4}));
  EXPECT_EQ(choose_frames({"::2", "", "", ""}, r), (F{0, 2, 4}));
  EXPECT_EQ(choose_frames({"", "2", "6", ""}, r), (F{1, 2, 3}));
  EXPECT_EQ(choose_frames({"", "", "", "4"}, r), (F{0, 2, 4}));
  EXPECT_EQ(choose_frames({"", "3", "", "4"}, r), (F{2, 4}));
  EXPECT_EQ(choose_one_frame({"-1", "", "", ""}, r, "potential"), 4);
  EXPECT_EQ(choose_one_frame({"", "3", "", ""}, r, "potential"), 2);
  EXPECT_TRUE(test::refused_with([&] { choose_frames({"1:", "2", "", ""}, r); }, "not both"));
  EXPECT_TRUE(test::refused_with(
      [&] {
        choose_frames({"", "9", "", ""}, r);
      },
      "t.xtc: --begin: --begin 9 picks none of the 5 frames, whose times run from 0 to 8"));
  EXPECT_TRUE(test::refused_with(
      [&] {
        choose_frames({"", "", "", "0"}, r);
      },
      "--dt: must be positive"));
  EXPECT_TRUE(test::refused_with(
      [&] {
        choose_one_frame({"1:3", "", "", ""}, r, "surf");
      },
      "'1:3' picks 2 frames; surf maps one"));
  EXPECT_TRUE(test::refused_with(
      [&] {
        choose_one_frame({"", "", "4", ""}, r, "surf");
      },
      "--end: surf maps one frame"));
}

}  // namespace
}  // namespace kmol
