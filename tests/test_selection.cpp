// Atom selections: every keyword, the operators and their precedence, and parse errors that point.
#include <gtest/gtest.h>

#include "drivers/library/elements.hpp"
#include "drivers/library/selection.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

AtomTable six_atoms() {
  AtomTable t;
  t.n_atoms = 6;
  t.species = {0, 1, 0, 1, 2, 2};
  t.species_names = {"Na", "Cl", "OW"};
  t.names = {"NA", "CL", "NA", "CL", "OW", "HW1"};
  t.resnames = {"ION", "ION", "ION", "ION", "SOL", "SOL"};
  t.resids = {1, 2, 3, 4, 5, 5};
  return t;
}

std::vector<std::int64_t> sel(const std::string& text) {
  return select_atoms(text, six_atoms(), "--sel1");
}

std::string error_of(const std::string& text, const AtomTable& atoms = six_atoms()) {
  try {
    select_atoms(text, atoms, "--sel1");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

using V = std::vector<std::int64_t>;

TEST(Selection, Keywords) {
  EXPECT_EQ(sel("all"), (V{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(sel("none"), V{});
  EXPECT_EQ(sel("index 1:3"), (V{1, 2, 3}));
  EXPECT_EQ(sel("index 0 5 9:20"), (V{0, 5}));
  EXPECT_EQ(sel("species 1"), (V{1, 3}));
  EXPECT_EQ(sel("species Na OW"), (V{0, 2, 4, 5}));
  EXPECT_EQ(sel("name NA"), (V{0, 2}));
  EXPECT_EQ(sel("name H*"), (V{5}));
  EXPECT_EQ(sel("resname SOL"), (V{4, 5}));
  EXPECT_EQ(sel("resid 2:4"), (V{1, 2, 3}));
}

TEST(Selection, OperatorsAndPrecedence) {
  EXPECT_EQ(sel("not resname SOL"), (V{0, 1, 2, 3}));
  EXPECT_EQ(sel("species 0 or species 1 and index 0:2"), (V{0, 1, 2}));  // and binds tighter
  EXPECT_EQ(sel("(species 0 or species 1) and index 1:2"), (V{1, 2}));
  EXPECT_EQ(sel("not (name NA or name CL) and not name OW"), (V{5}));
  EXPECT_EQ(sel("not not index 3"), (V{3}));
}

TEST(Selection, ErrorsPointAtTheProblem) {
  const std::string open = "index 0:2 and (name NA";  // the caret goes just past the end
  EXPECT_EQ(error_of(open),
            "--sel1: expected ')'\n  " + open + "\n  " + std::string(open.size(), ' ') + "^");
  EXPECT_NE(error_of("nmae CA").find("unknown keyword 'nmae'"), std::string::npos);
  EXPECT_NE(error_of("index 3:1").find("empty range 3:1"), std::string::npos);
  EXPECT_NE(error_of("index a:3").find("expected an integer, found 'a'\n  index a:3\n        ^"),
            std::string::npos);
  EXPECT_NE(error_of("name").find("expected a value after 'name'"), std::string::npos);
  EXPECT_NE(error_of("all and").find("the selection ends"), std::string::npos);
  EXPECT_NE(error_of("all index 2").find("expected 'and', 'or' or the end, found 'index'"),
            std::string::npos);
  EXPECT_NE(error_of("species K").find("no species named 'K'"), std::string::npos);
  EXPECT_NE(error_of("").find("empty selection"), std::string::npos);
  // Deep nesting is refused, not a stack overflow (found by fuzzing).
  EXPECT_NE(error_of(std::string(100000, '(') + "all").find("nested more than 256 levels"),
            std::string::npos);
  std::string nots;
  for (int k = 0; k < 100000; ++k) nots += "not ";
  EXPECT_NE(error_of(nots + "all").find("nested more than 256 levels"), std::string::npos);
  EXPECT_EQ(sel(std::string(200, '(') + "index 1" + std::string(200, ')')), V{1});
  AtomTable bare;
  bare.n_atoms = 3;
  EXPECT_NE(error_of("name CA", bare).find("no names; give a topology with --top"),
            std::string::npos);
  EXPECT_NE(error_of("species 1", bare).find("no species"), std::string::npos);
}

// A water, an ion and two residues of a protein, as a TPR gives them.
AtomTable molecules() {
  AtomTable t;
  t.n_atoms = 8;
  t.names = {"OW", "HW1", "HW2", "NA", "N", "CA", "N", "O5'"};
  t.resnames = {"SOL", "SOL", "SOL", "NA", "ALA", "ALA", "GLY", "DA"};
  t.resids = {1, 1, 1, 2, 10, 10, 11, 12};
  t.types = {"opls_116", "opls_117",  "opls_117", "opls_407",
             "opls_238", "opls_224B", "opls_238", "opls_999"};
  t.elements = {"O", "H", "H", "Na", "N", "C", "N", "O"};
  t.chains = {"", "", "", "", "A", "A", "B", "B"};
  return t;
}

std::vector<std::int64_t> of(const std::string& text) {
  return select_atoms(text, molecules(), "--sel1");
}

TEST(Selection, ResidueRangesInEveryNotation) {
  EXPECT_EQ(of("resid 1-2"), (V{0, 1, 2, 3}));
  EXPECT_EQ(of("resid 1:2"), (V{0, 1, 2, 3}));
  EXPECT_EQ(of("resid 1 to 2"), (V{0, 1, 2, 3}));
  EXPECT_EQ(of("resnum 2 11-12"), (V{3, 6, 7}));
  EXPECT_EQ(of("resid 10 to 11 or resid 1"), (V{0, 1, 2, 4, 5, 6}));
  EXPECT_NE(error_of("resid 5-3").find("empty range 5-3"), std::string::npos);
  EXPECT_NE(error_of("resid to 3").find("'to' goes between two integers"), std::string::npos);
  EXPECT_NE(error_of("resid 1-x").find("expected an integer, found 'x'"), std::string::npos);
}

TEST(Selection, TypesElementsChainsAndClasses) {
  EXPECT_EQ(of("type opls_117"), (V{1, 2}));
  EXPECT_EQ(of("type opls_2*"), (V{4, 5, 6}));
  EXPECT_EQ(of("element O"), (V{0, 7}));
  EXPECT_EQ(of("element Na"), V{3});
  EXPECT_EQ(of("element NA \"o\""), (V{0, 3, 7}));  // symbols in any case
  EXPECT_EQ(of("chain A"), (V{4, 5}));
  EXPECT_EQ(of("protein"), (V{4, 5, 6}));
  EXPECT_EQ(of("water"), (V{0, 1, 2}));
  EXPECT_EQ(of("not water and not protein"), (V{3, 7}));
  EXPECT_NE(error_of("segid PROT", molecules()).find("no segids; segment ids come from"),
            std::string::npos);
  EXPECT_NE(error_of("type X").find("no types; atom types come from a GROMACS TPR"),
            std::string::npos);
}

TEST(Selection, QuotedValuesMatchLiterally) {
  EXPECT_EQ(of("name \"OW\""), V{0});
  EXPECT_EQ(of("name \"O5'\""), V{7});
  EXPECT_EQ(of("name \"H*\""), V{});  // no pattern inside quotes
  EXPECT_EQ(of("name H*"), (V{1, 2}));
  EXPECT_EQ(of("resname \"ALA\" GLY"), (V{4, 5, 6}));
  AtomTable keyword_names = molecules();
  keyword_names.names[3] = "and";
  EXPECT_EQ(select_atoms("name \"and\"", keyword_names, "--sel1"), V{3});
  EXPECT_NE(error_of("name \"OW").find("this quote (\") is not closed"), std::string::npos);
}

TEST(Selection, AroundSelectsByPositionInEachFrame) {
  AtomTable t = molecules();
  const Selection near("around 2.5 resname NA", t, "--sel1");
  EXPECT_TRUE(near.per_frame());
  std::vector<Vec3<double>> x(8, Vec3<double>{50, 50, 50});
  x[3] = {1, 1, 1};    // the ion
  x[0] = {9.5, 1, 1};  // 1.5 Angstrom away through the boundary of a 10 Angstrom box
  x[4] = {1, 4, 1};    // 3 Angstrom away
  const SelectionFrame periodic{x.data(), BoxSpec::orthorhombic(10, 10, 100)};
  EXPECT_EQ(near.atoms(periodic), V{0});
  x[4] = {1, 3.4, 1};
  EXPECT_EQ(near.atoms(periodic), (V{0, 4}));
  const SelectionFrame open{x.data(), BoxSpec::none()};
  EXPECT_EQ(near.atoms(open), V{4});
  EXPECT_EQ(Selection("not around 2.5 resname NA and water", t, "--sel1").atoms(periodic),
            (V{1, 2}));
  EXPECT_FALSE(Selection("water", t, "--sel1").per_frame());
  EXPECT_NE(error_of("around 2.5 resname NA", t).find("selects by position, frame by frame"),
            std::string::npos);
  EXPECT_NE(error_of("around x water").find("expected a distance in Angstrom after 'around'"),
            std::string::npos);
}

TEST(Selection, WhatExistsIsListed) {
  const std::string text = labels_that_exist(molecules());
  EXPECT_NE(text.find("atom names: N (2), "), std::string::npos) << text;
  EXPECT_NE(text.find("residue names: SOL (3), ALA (2)"), std::string::npos) << text;
  EXPECT_NE(text.find("atom types: opls_117 (2)"), std::string::npos) << text;
  AtomTable bare;
  bare.n_atoms = 3;
  EXPECT_NE(labels_that_exist(bare).find("name none of their 3 atoms"), std::string::npos);
}

// `element` selects by what tells each atom's element: the file's symbol, a TPR's atomic number,
// a force field's element mass (not a united atom's), then the name.
TEST(Selection, ElementsOfATopology) {
  io::Topology t;
  t.names = {"X1", "X2", "X3", "C1", "NA", "CA"};
  t.resnames = {"MOL", "MOL", "MOL", "MOL", "NA", "ALA"};
  t.elements = {"Cl", "", "", "", "", ""};
  t.atomic_numbers = {0, 8, 0, 0, 0, 0};
  t.masses = {35.45, 15.999, 14.027, 12.011, 22.99, 0};
  EXPECT_EQ(topology_elements(t), (std::vector<std::string>{"CL", "O", "X", "C", "NA", "C"}));
}

}  // namespace
}  // namespace kmol
