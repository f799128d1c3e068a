// PQR reading: both forms, the records it skips, and errors that name the line and the field.
#include <gtest/gtest.h>

#include <sstream>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/pqr.hpp"

namespace {

using kmol::io::parse_pqr;

kmol::io::PqrAtoms parse(const std::string& text) {
  std::istringstream in(text);
  return parse_pqr(in, "test.pqr");
}

// The InputError a text raises (fails the test if it parses).
kmol::InputError error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const kmol::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return kmol::InputError({}, "");
}

TEST(Pqr, WhitespaceFormWithAndWithoutChain) {
  const auto atoms = parse(
      "REMARK   1 written by hand\n"
      "ATOM      1  N   MET A   1     -11.898  17.803   1.616 -0.3000 1.8240\n"
      "ATOM 2 CA MET 1 1.5 -2.25 3e1 +0.25 1.9\r\n"
      "TER\n"
      "HETATM10001  O   HOH W 999  0 0 0 -0.834 1.7682\n"
      "END\n");
  ASSERT_EQ(atoms.size(), 3u);
  EXPECT_DOUBLE_EQ(atoms.positions[0].x, -11.898);
  EXPECT_DOUBLE_EQ(atoms.positions[0].z, 1.616);
  EXPECT_DOUBLE_EQ(atoms.charges[0], -0.3);
  EXPECT_DOUBLE_EQ(atoms.radii[0], 1.824);
  EXPECT_EQ(atoms.atom_names[0], "N");
  EXPECT_EQ(atoms.residue_names[0], "MET");
  EXPECT_EQ(atoms.chains[0], "A");
  EXPECT_EQ(atoms.residue_ids[0], 1);
  EXPECT_EQ(atoms.chains[1], "");
  EXPECT_DOUBLE_EQ(atoms.positions[1].z, 30.0);
  EXPECT_DOUBLE_EQ(atoms.charges[1], 0.25);
  EXPECT_EQ(atoms.residue_names[2], "HOH");
  EXPECT_EQ(atoms.residue_ids[2], 999);
  EXPECT_NEAR(atoms.total_charge(), -0.884, 1e-12);
}

TEST(Pqr, FixedColumnsWithCoordinatesRunTogether) {
  // pdb2pqr's columns: x, y, z in 31-54 with no space between large negative numbers.
  const auto atoms =
      parse("ATOM   1234  OD1 ASP B 112    -100.123-200.456-300.789 -0.8000 1.4000\n");
  ASSERT_EQ(atoms.size(), 1u);
  EXPECT_DOUBLE_EQ(atoms.positions[0].x, -100.123);
  EXPECT_DOUBLE_EQ(atoms.positions[0].y, -200.456);
  EXPECT_DOUBLE_EQ(atoms.positions[0].z, -300.789);
  EXPECT_DOUBLE_EQ(atoms.charges[0], -0.8);
  EXPECT_EQ(atoms.atom_names[0], "OD1");
  EXPECT_EQ(atoms.residue_names[0], "ASP");
  EXPECT_EQ(atoms.chains[0], "B");
  EXPECT_EQ(atoms.residue_ids[0], 112);
}

TEST(Pqr, FourLetterResidueNamesRunIntoTheChain) {
  // CHARMM's TIP3 fills column 21, so whitespace alone would read "TIP3W" and no chain.
  const auto atoms =
      parse("ATOM      1  OH2 TIP3W   1      10.000  20.000  30.000 -0.8340 1.7682\n");
  ASSERT_EQ(atoms.size(), 1u);
  EXPECT_EQ(atoms.atom_names[0], "OH2");
  EXPECT_EQ(atoms.residue_names[0], "TIP3");
  EXPECT_EQ(atoms.chains[0], "W");
  EXPECT_EQ(atoms.residue_ids[0], 1);
  EXPECT_DOUBLE_EQ(atoms.positions[0].z, 30.0);
  EXPECT_DOUBLE_EQ(atoms.charges[0], -0.834);
}

TEST(Pqr, ErrorsNameTheLineAndTheField) {
  const std::string good = "ATOM 1 N MET 1 0 0 0 0.5 1.5\n";
  auto e = error_of(good + "REMARK\nATOM 2 CA MET 1 0 0 0 x 1.5\n");
  EXPECT_EQ(e.where().file, "test.pqr");
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.where().field, "charge");
  EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();

  e = error_of(good + "ATOM 2 CA MET 1 0 0 0 0.5 -1\n");
  EXPECT_EQ(e.where().field, "radius");
  EXPECT_EQ(e.where().line, 2);

  e = error_of(good + "ATOM 2 CA MET 1 0 nan 0 0.5 1\n");
  EXPECT_EQ(e.where().field, "y");

  e = error_of("ATOM 2 CA MET 1 0 0 0.5 1\n");
  EXPECT_EQ(e.where().field, "record");
  EXPECT_EQ(e.where().line, 1);

  e = error_of("ATOM 2 CA MET A x 0 0 0 0.5 1\n");
  EXPECT_EQ(e.where().field, "residue id");

  // Finite but beyond any atom: a charge of 3.4e38 once filled the map with inf.
  e = error_of(good + "ATOM 2 CA MET 1 0 0 0 3.4e38 1.5\n");
  EXPECT_EQ(e.where().field, "charge");
  EXPECT_NE(std::string(e.what()).find("expected at most 1000 e"), std::string::npos) << e.what();
  EXPECT_EQ(error_of(good + "ATOM 2 CA MET 1 0 0 0 0.5 1e5\n").where().field, "radius");
  EXPECT_EQ(error_of(good + "ATOM 2 CA MET 1 0 4294967295 0 0.5 1\n").where().field, "y");
  EXPECT_EQ(parse(good + "ATOM 2 CA MET 1 -1e6 0 0 -999 999\n").size(), 2u);
}

TEST(Pqr, NoAtomsIsAnError) {
  const auto e = error_of("REMARK nothing here\nEND\n");
  EXPECT_EQ(e.where().field, "atoms");
  EXPECT_THROW(kmol::io::read_pqr("/nonexistent/file.pqr"), kmol::InputError);
}

}  // namespace
