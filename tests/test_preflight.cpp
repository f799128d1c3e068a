// The machinery every command shares before and around its work: the exit-code policy, the
// preflight's refusals and backups, temporaries and the resume command, and md's health checks.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "kernels/md/health.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/preflight.hpp"
#include "kmol/core/stop.hpp"

namespace {

using namespace kmol;

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/kmol-preflight-XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir = name;
  }
  void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }
  void touch(const std::string& path, const std::string& text = "x") {
    std::ofstream(path) << text;
  }
  bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }
  std::string dir;
};

TEST(ExitCodes, FollowTheErrorKinds) {
  EXPECT_EQ(exit_code(InputError({"f", "x", 1}, "bad")), 2);
  EXPECT_EQ(exit_code(UsageError({"", "--cutoff", -1}, "does not apply")), 2);
  EXPECT_EQ(exit_code(ResourceError({"", "--spacing", -1}, "too big")), 2);
  EXPECT_EQ(exit_code(UnsupportedError("no GPU")), 2);
  EXPECT_EQ(exit_code(RunFailure("blew up")), 1);
  EXPECT_EQ(exit_code(std::runtime_error("other")), 1);
  EXPECT_EQ(exit_code(Interrupted(2, "stopped")), 130);
  EXPECT_EQ(exit_code(Interrupted(15, "stopped")), 143);
}

TEST_F(Scratch, RefusesUnwritableOrUnknownOutputs) {
  auto refuses = [](const RunPlan& plan, const std::string& text) {
    try {
      preflight(plan);
      ADD_FAILURE() << "accepted, expected: " << text;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  RunPlan plan;
  plan.outputs = {{dir + "/missing/out.dx", "--out", {".dx"}, 0, false}};
  refuses(plan, "directory '" + dir + "/missing' does not exist");
  plan.outputs = {{dir + "/out.txt", "--out", {".dx", ".h5"}, 0, false}};
  refuses(plan, "unknown extension: expected .dx or .h5");
  plan.outputs = {{dir, "--out", {}, 0, false}};
  refuses(plan, "is a directory");
  touch(dir + "/in.pqr");
  plan.outputs = {{dir + "/in.pqr", "--out", {}, 0, false}};
  plan.inputs = {dir + "/in.pqr"};
  refuses(plan, "is an input of this run");
  plan.inputs = {};
  plan.outputs = {{dir + "/a.csv", "--out", {}, 0, false}, {dir + "/a.csv", "--log", {}, 0, false}};
  refuses(plan, "also named by --log");
  plan.outputs = {{dir + "/OUT.DX", "--out", {".dx"}, 0, false},
                  {"", "--plot", {".png"}, 0, false}};
  EXPECT_NO_THROW(preflight(plan));  // extensions ignore case; empty paths are not outputs
}

TEST_F(Scratch, RefusesWhatDoesNotFitUnlessForced) {
  RunPlan plan;
  plan.outputs = {{dir + "/huge.dx", "--out", {".dx"}, 1e30, false}};
  plan.size_option = "--spacing 0.01";
  try {
    preflight(plan);
    ADD_FAILURE() << "accepted a 1e30-byte output";
  } catch (const ResourceError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("not enough disk space"), std::string::npos) << text;
    EXPECT_NE(text.find("change --spacing 0.01, or add --force"), std::string::npos) << text;
  }
  plan.outputs[0].bytes = 0;
  plan.memory_bytes = 1e30;
  EXPECT_THROW(preflight(plan), ResourceError);
  plan.force = true;
  EXPECT_NO_THROW(preflight(plan));
  EXPECT_GT(free_disk_bytes(dir), 0);
  EXPECT_GT(available_memory_bytes(), 0);
  EXPECT_EQ(human_bytes(1.4e9), "1.4 GB");
  EXPECT_EQ(human_bytes(512), "512 bytes");
}

TEST_F(Scratch, ACapMakesLessCountAsFreeAndNamesWhatSizedTheRun) {
  RunPlan plan;
  plan.outputs = {{dir + "/map.dx", "--out", {".dx"}, 2e6, false}};
  Grid lattice;
  lattice.counts = {300, 20, 10};
  plan.size_cause = lattice_cause(lattice, "far.pqr");
  EXPECT_NO_THROW(preflight(plan));
  cap_run_resources(1e6);
  EXPECT_EQ(free_disk_bytes(dir), 1e6);
  EXPECT_EQ(available_memory_bytes(), 1e6);
  try {
    preflight(plan);
    ADD_FAILURE() << "a 2 MB output fitted under a 1 MB cap";
  } catch (const ResourceError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("for a lattice of 300 x 20 x 10 points around the atoms of far.pqr (1 MB "
                        "free there)"),
              std::string::npos)
        << text;
  }
  cap_run_resources(0);
  EXPECT_GT(free_disk_bytes(dir), 1e6);
  EXPECT_NO_THROW(preflight(plan));
}

TEST_F(Scratch, BacksUpEveryExistingOutput) {
  touch(dir + "/potential.dx", "first");
  RunPlan plan;
  plan.outputs = {{dir + "/potential.dx", "--out", {".dx"}, 0, true}};
  preflight(plan);
  EXPECT_FALSE(exists(dir + "/potential.dx"));
  EXPECT_TRUE(exists(dir + "/#potential.dx.1#"));
  touch(dir + "/potential.dx", "second");
  preflight(plan);
  EXPECT_TRUE(exists(dir + "/#potential.dx.2#"));
  // A typed name is kept the same way: nothing is lost to a repeated command.
  touch(dir + "/named.dx", "kept");
  plan.outputs = {{dir + "/named.dx", "--out", {".dx"}, 0, false}};
  preflight(plan);
  EXPECT_FALSE(exists(dir + "/named.dx"));
  EXPECT_TRUE(exists(dir + "/#named.dx.1#"));
  // A pipe (or a device such as /dev/null) is written through, not renamed.
  ASSERT_EQ(mkfifo((dir + "/pipe.dx").c_str(), 0600), 0);
  plan.outputs = {{dir + "/pipe.dx", "--out", {".dx"}, 0, false}};
  EXPECT_NO_THROW(preflight(plan));
  EXPECT_TRUE(exists(dir + "/pipe.dx"));
  EXPECT_FALSE(exists(dir + "/#pipe.dx.1#"));
}

TEST_F(Scratch, TemporariesAreRemovedUnlessCommitted) {
  std::string temporary;
  {
    TemporaryFile out(dir + "/a.csv", "--out");
    temporary = out.temporary();
    EXPECT_NE(temporary.find(std::to_string(getpid())), std::string::npos);
    touch(temporary);
  }
  EXPECT_FALSE(exists(temporary));
  EXPECT_FALSE(exists(dir + "/a.csv"));
  {
    TemporaryFile out(dir + "/b.png", "--plot", ".png");
    EXPECT_EQ(out.temporary().substr(out.temporary().size() - 4), ".png");
    touch(out.temporary(), "image");
    out.commit();
  }
  EXPECT_TRUE(exists(dir + "/b.png"));
  TemporaryFile missing(dir + "/c.csv", "--out");  // nothing written: commit says so
  EXPECT_THROW(missing.commit(), InputError);
}

TEST(ResumeCommand, DropsAndAppendsOptions) {
  char* argv[] = {const_cast<char*>("kmol"),
                  const_cast<char*>("md"),
                  const_cast<char*>("--steps"),
                  const_cast<char*>("100"),
                  const_cast<char*>("--cells"),
                  const_cast<char*>("2"),
                  const_cast<char*>("2"),
                  const_cast<char*>("2"),
                  const_cast<char*>("--out=run.h5"),
                  const_cast<char*>("--origin"),
                  const_cast<char*>("-1.5"),
                  const_cast<char*>("--title"),
                  const_cast<char*>("it's")};
  install_stop_handlers(13, argv);
  EXPECT_EQ(command_line(),
            "kmol md --steps 100 --cells 2 2 2 --out=run.h5 --origin -1.5 --title "
            "'it'\\''s'");
  EXPECT_EQ(command_line_with({"--steps", "--cells", "--out"}, {"--steps", "40"}),
            "kmol md --origin -1.5 --title 'it'\\''s' --steps 40");
  EXPECT_FALSE(stop_requested());
}

MdState lattice(double box) {
  MdState s;
  s.box = {box, box, box};
  s.positions = {{1, 1, 1}, {2, 2, 2}};
  s.velocities = {{0.1, 0, 0}, {0, -0.1, 0}};
  return s;
}

TEST(MdHealth, NamesTheStepTheQuantityAndTheTimeStep) {
  MdThermo before, now;
  before.step = 0;
  before.total = -3;
  before.temperature = 0.7;
  now = before;
  now.step = 100;
  EXPECT_FALSE(md_health_problem(before, now, lattice(10), 0.005));
  now.total = NAN;
  auto problem = md_health_problem(before, now, lattice(10), 0.005);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("step 100: the total energy per atom is nan"), std::string::npos);
  EXPECT_NE(problem->find("--dt 0.005"), std::string::npos);
  now.total = -3 + 31;  // 10 x max(1, 3, 0.7) = 30
  problem = md_health_problem(before, now, lattice(10), 0.005);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("jumped from -3"), std::string::npos) << *problem;
  now.total = -3 + 29;
  EXPECT_FALSE(md_health_problem(before, now, lattice(10), 0.005));
  MdState s = lattice(10);
  s.positions[1].z = 21;
  problem = md_health_problem(before, before, s, 0.005);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("atom 1 is at z = 21"), std::string::npos) << *problem;
  s = lattice(10);
  s.velocities[0].x = 1001;  // 5.005 per step of 0.005, over half of the box of 10
  problem = md_health_problem(before, before, s, 0.005);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("atom 0 moves"), std::string::npos) << *problem;
}

}  // namespace
