// Atom selections: every keyword, the operators and their precedence, and parse errors that point.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kmol
