// GROMACS trajectories read through libgromacs: the same frames give the same counts as H5MD in
// cubic, orthorhombic and triclinic boxes; XTC random access through a cached index; damaged
// files named by frame. Files are written through libgromacs' own writers.
//
// XTC and TNG store coordinates rounded to a precision (here 0.001 nm): the decoded coordinates
// are compared with the written ones within half of it, and the counts are compared exactly
// against an H5MD file holding the decoded coordinates, so that rounding cannot move a pair
// across a bin edge between the two.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include "core/src/io/gromacs_api.hpp"
#include "core/src/io/spooled_trajectory.hpp"
#include "drivers/library/frame_pipeline.hpp"
#include "gromacs/fileio/trxio.h"
#include "gromacs/trajectory/trajectoryframe.h"
#include "gromacs/utility/arrayref.h"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/io/xtc_index.hpp"
#include "support/refusal.hpp"
#include "support/trajectory_counts.hpp"

namespace kmol {
namespace {

std::string scratch(const std::string& name) {
  return testing::TempDir() + "kmol_gromacs_" + std::to_string(::getpid()) + "_" + name;
}

struct GasFrames {
  std::int64_t atoms = 0;
  std::vector<std::vector<float>> x;  // nm, per frame
  std::vector<std::vector<float>> v;  // nm/ps, per frame; an empty frame is written without
  std::vector<std::array<float, 9>> box;
};

// A random gas in `box` (rows are the box vectors in nm), slightly breathing from frame to frame.
GasFrames gas(std::array<float, 9> box, std::int64_t atoms, std::int64_t frames) {
  GasFrames g;
  g.atoms = atoms;
  std::mt19937_64 random(11);
  std::uniform_real_distribution<float> u(0, 1);
  for (std::int64_t f = 0; f < frames; ++f) {
    std::array<float, 9> b = box;
    for (auto& v : b) v *= 1 + 0.01f * float(f);
    std::vector<float> x(3 * std::size_t(atoms));
    for (std::int64_t i = 0; i < atoms; ++i) {
      const float s[3] = {u(random), u(random), u(random)};
      for (int d = 0; d < 3; ++d) x[3 * i + d] = s[0] * b[d] + s[1] * b[3 + d] + s[2] * b[6 + d];
    }
    g.x.push_back(std::move(x));
    g.box.push_back(b);
  }
  return g;
}

void write_gromacs(const std::string& path, const GasFrames& g, bool tng) {
  t_trxstatus* out = tng ? trjtools_gmx_prepare_tng_writing(path.c_str(), 'w', nullptr, nullptr,
                                                            int(g.atoms), nullptr, {}, nullptr)
                         : open_trx(path.c_str(), "w");
  ASSERT_NE(out, nullptr);
  for (std::size_t f = 0; f < g.x.size(); ++f) {
    t_trxframe fr;
    clear_trxframe(&fr, true);
    fr.natoms = int(g.atoms);
    fr.bX = true;
    std::vector<float> x = g.x[f];
    fr.x = reinterpret_cast<rvec*>(x.data());
    std::vector<float> v = f < g.v.size() ? g.v[f] : std::vector<float>();
    fr.bV = !v.empty();
    fr.v = reinterpret_cast<rvec*>(v.data());
    fr.bBox = true;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) fr.box[a][b] = g.box[f][3 * a + b];
    fr.bStep = fr.bTime = fr.bPrec = true;
    fr.step = std::int64_t(f) * 10;
    fr.time = float(f);
    fr.prec = 1000;
    if (tng)
      write_tng_frame(out, &fr);
    else
      write_trxframe(out, &fr, nullptr);
  }
  close_trx(out);
}

// The decoded frames of any reader, written as H5MD (Angstrom).
std::string decoded_as_h5md(io::TrajectoryReader& reader, const std::string& path) {
  io::H5mdWriter writer(path, reader.n_atoms(), {});
  std::vector<Vec3<double>> p(std::size_t(reader.n_atoms()));
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) {
    const io::FrameInfo info = reader.read_frame(f, p.data());
    writer.append(io::H5mdFrameView<double>{info.step, info.time, info.box, p.data()});
  }
  writer.close();
  return path;
}

struct BoxCase {
  const char* name;
  std::array<float, 9> box;
  BoxKind kind;
};

const BoxCase boxes[] = {
    {"cubic", {2.4f, 0, 0, 0, 2.4f, 0, 0, 0, 2.4f}, BoxKind::orthorhombic},
    {"orthorhombic", {2.2f, 0, 0, 0, 2.5f, 0, 0, 0, 2.8f}, BoxKind::orthorhombic},
    // A rhombic dodecahedron (xy-square), as gmx editconf -bt dodecahedron writes it.
    {"dodecahedron", {2.6f, 0, 0, 0, 2.6f, 0, 1.3f, 1.3f, 1.838478f}, BoxKind::triclinic},
};

TEST(GromacsIo, SameCountsAsH5mdInEveryBox) {
  const std::int64_t atoms = 1200, frames = 5;
  for (const BoxCase& c : boxes) {
    const GasFrames g = gas(c.box, atoms, frames);
    for (const char* format : {"xtc", "trr", "tng"}) {
      SCOPED_TRACE(std::string(c.name) + " " + format);
      const std::string path = scratch(std::string(c.name) + "." + format);
      write_gromacs(path, g, std::string(format) == "tng");
      const auto reader = io::open_trajectory_file(path);
      ASSERT_EQ(reader->n_frames(), frames);
      ASSERT_EQ(reader->n_atoms(), atoms);
      EXPECT_EQ(reader->box_kind(), c.kind);
      // Lossless TRR to float rounding; XTC and TNG within half their 0.001 nm precision.
      const double tolerance = std::string(format) == "trr" ? 1e-5 : 0.0051;
      std::vector<Vec3<double>> p(static_cast<std::size_t>(atoms));
      auto component = [](const Vec3<double>& v, int d) {
        return d == 0 ? v.x : d == 1 ? v.y : v.z;
      };
      for (std::int64_t f = 0; f < frames; ++f) {
        const io::FrameInfo info = reader->read_frame(f, p.data());
        EXPECT_EQ(info.step, 10 * f);
        for (int a = 0; a < 3; ++a)
          for (int d = 0; d < 3; ++d)
            EXPECT_NEAR(component(info.box.edges[a], d), 10.0 * g.box[f][3 * a + d], 1e-5);
        double worst = 0;
        for (std::int64_t i = 0; i < atoms; ++i)
          for (int d = 0; d < 3; ++d)
            worst = std::max(worst, std::abs(component(p[i], d) - 10.0 * g.x[f][3 * i + d]));
        EXPECT_LE(worst, tolerance) << "frame " << f;
      }
      const std::string h5 = decoded_as_h5md(*reader, path + ".h5");
      const auto h5md = io::open_trajectory_file(h5);
      test::expect_same_counts(*reader, *h5md, 100000u);
      std::remove(h5.c_str());
      std::remove(path.c_str());
      std::remove(io::xtc_index_cache_path(path).c_str());
    }
  }
}

TEST(GromacsIo, TruncatedXtcNamesTheFrameAndKeepsTheOnesBefore) {
  const std::string path = scratch("truncated.xtc");
  write_gromacs(path, gas(boxes[0].box, 300, 5), false);
  const auto whole = io::index_xtc(path);
  ASSERT_EQ(whole.offsets.size(), 5u);
  // Cut frame 3 in the middle of its compressed coordinates.
  ASSERT_EQ(::truncate(path.c_str(), off_t(whole.offsets[3] + 120)), 0);
  const auto reader = io::open_trajectory_file(path);
  EXPECT_EQ(reader->n_frames(), 4);  // three whole frames and the damaged one
  std::vector<Vec3<float>> p(300);
  for (std::int64_t f = 0; f < 3; ++f) EXPECT_NO_THROW(reader->read_frame(f, p.data()));
  const std::string what = test::refusal([&] { reader->read_frame(3, p.data()); });
  EXPECT_NE(what.find("frame"), std::string::npos) << what;
  EXPECT_NE(what.find("[3]"), std::string::npos) << what;
  EXPECT_NE(what.find("inside this frame"), std::string::npos) << what;
  // The pipeline delivers the frames before the damage, then stops with the error.
  FrameJob job;
  for (std::int64_t i = 0; i < 300; ++i) job.atoms_a.push_back(i);
  job.settings.r_max = 10;
  job.settings.n_bins = 10;
  PipelineOptions options;
  options.frames = {0, 1, 2, 3};
  // With several readers too: those still reading earlier frames finish them.
  for (int readers : {1, 3}) {
    options.readers = readers;
    std::vector<std::int64_t> delivered;
    options.on_result = [&](const FrameResult& r) { delivered.push_back(r.frame); };
    EXPECT_THROW(run_frame_pipeline(*reader, job, options), InputError);
    std::sort(delivered.begin(), delivered.end());
    EXPECT_EQ(delivered, (std::vector<std::int64_t>{0, 1, 2})) << readers << " readers";
  }
  std::remove(path.c_str());
  std::remove(io::xtc_index_cache_path(path).c_str());
}

// Every frame's counts through the pipeline with `readers` reader threads, by frame, and the
// number of readers that ran.
std::pair<std::vector<std::vector<std::uint64_t>>, int> counts_by_frame(
    io::TrajectoryReader& reader, int readers) {
  FrameJob job;
  for (std::int64_t i = 0; i < reader.n_atoms(); ++i) job.atoms_a.push_back(i);
  job.settings.r_max = 8;
  job.settings.n_bins = 80;
  PipelineOptions options;
  for (std::int64_t f = 0; f < reader.n_frames(); ++f) options.frames.push_back(f);
  options.workers = frame_workers(false, 2);
  options.readers = readers;
  std::vector<std::vector<std::uint64_t>> counts(options.frames.size());
  options.on_result = [&](const FrameResult& r) { counts[std::size_t(r.frame)] = r.counts; };
  const PipelineStats stats = run_frame_pipeline(reader, job, options);
  return {counts, stats.readers};
}

// Frame-parallel decoding: several reader threads, each with its own XTC handle seeking by the
// index, give every frame the counts one reader gives; formats read in order keep one reader.
TEST(GromacsIo, ReaderThreadsDecodeXtcFramesInParallel) {
  const std::string path = scratch("parallel.xtc");
  write_gromacs(path, gas(boxes[2].box, 700, 24), false);
  const auto reader = io::open_trajectory_file(path);
  const auto one = counts_by_frame(*reader, 1);
  EXPECT_EQ(one.second, 1);
  for (const auto& c : one.first) ASSERT_FALSE(c.empty());
  for (int readers : {2, 4}) {
    const auto several = counts_by_frame(*reader, readers);
    EXPECT_EQ(several.second, readers);
    EXPECT_EQ(several.first, one.first) << readers << " readers";
  }
  const std::string trr = scratch("sequential.trr");
  write_gromacs(trr, gas(boxes[0].box, 100, 3), false);
  const auto sequential = io::open_trajectory_file(trr);
  EXPECT_EQ(sequential->another_reader(), nullptr);
  EXPECT_EQ(counts_by_frame(*sequential, 4).second, 1);
  std::remove(trr.c_str());
  std::remove(path.c_str());
  std::remove(io::xtc_index_cache_path(path).c_str());
}

TEST(GromacsIo, XtcIndexIsCachedAndRenewedWhenTheFileChanges) {
  const std::string path = scratch("cached.xtc");
  const std::string cache = io::xtc_index_cache_path(path);
  std::remove(cache.c_str());
  write_gromacs(path, gas(boxes[1].box, 50, 4), false);
  const auto first = io::index_xtc(path);
  EXPECT_FALSE(first.from_cache);
  EXPECT_TRUE(std::ifstream(cache).good());
  const auto second = io::index_xtc(path);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.offsets, first.offsets);
  EXPECT_EQ(second.n_atoms, 50);
  write_gromacs(path, gas(boxes[1].box, 50, 7), false);  // rewritten: other size and time
  const auto third = io::index_xtc(path);
  EXPECT_FALSE(third.from_cache);
  EXPECT_EQ(third.offsets.size(), 7u);
  // Random access through the index reads what sequential reading reads.
  const auto reader = io::open_trajectory_file(path);
  std::vector<Vec3<double>> forward(50), backward(50);
  for (std::int64_t f : {6, 2, 0, 5}) {
    reader->read_frame(f, backward.data());
    const auto fresh = io::open_trajectory_file(path);
    for (std::int64_t k = 0; k <= f; ++k) fresh->read_frame(k, forward.data());
    for (std::size_t i = 0; i < forward.size(); ++i)
      EXPECT_EQ(forward[i].x, backward[i].x) << "frame " << f;
  }
  std::remove(path.c_str());
  std::remove(cache.c_str());
}

// md restarts need velocities: TRR and TNG frames carry them where GROMACS wrote them, XTC never.
TEST(GromacsIo, VelocitiesWhereTheFrameHasThem) {
  GasFrames g = gas(boxes[1].box, 40, 3);
  std::mt19937_64 random(5);
  std::normal_distribution<float> speed(0, 0.5f);
  for (std::size_t f = 0; f < 2; ++f) {  // frame 2 has positions only
    g.v.emplace_back(3 * std::size_t(g.atoms));
    for (float& c : g.v.back()) c = speed(random);
  }
  for (const char* format : {"trr", "tng", "xtc"}) {
    SCOPED_TRACE(format);
    const bool xtc = std::string(format) == "xtc";
    const std::string path = scratch(std::string("velocities.") + format);
    write_gromacs(path, g, std::string(format) == "tng");
    const auto reader = io::open_trajectory_file(path);
    ASSERT_EQ(reader->n_frames(), 3);
    std::vector<Vec3<double>> p(40), v(40);
    for (std::int64_t f = 0; f < 3; ++f) {
      const bool expected = !xtc && f < 2;
      EXPECT_EQ(reader->has_velocities(f), expected) << "frame " << f;
      if (!expected) {
        EXPECT_THROW(reader->read_frame_with_velocities(f, p.data(), v.data()), InputError);
        continue;
      }
      const io::FrameInfo info = reader->read_frame_with_velocities(f, p.data(), v.data());
      EXPECT_EQ(info.step, 10 * f);
      // TNG compresses velocities too, at 0.001 nm/ps as written.
      const double tolerance = std::string(format) == "trr" ? 1e-5 : 0.0051;
      for (std::size_t i = 0; i < 40; ++i) {
        EXPECT_NEAR(p[i].x, 10.0 * g.x[f][3 * i], tolerance);
        EXPECT_NEAR(v[i].x, 10.0 * g.v[f][3 * i], tolerance);
        EXPECT_NEAR(v[i].y, 10.0 * g.v[f][3 * i + 1], tolerance);
        EXPECT_NEAR(v[i].z, 10.0 * g.v[f][3 * i + 2], tolerance);
      }
    }
    std::remove(path.c_str());
    std::remove(io::xtc_index_cache_path(path).c_str());
  }
}

TEST(GromacsIo, FormatsAreToldByContent) {
  const GasFrames g = gas(boxes[0].box, 20, 2);
  const std::string misnamed = scratch("really_an_xtc.h5");
  {
    const std::string written = scratch("written.xtc");
    t_fileio* out = open_xtc(written.c_str(), "w");
    for (std::size_t f = 0; f < g.x.size(); ++f)
      write_xtc(out, 20, std::int64_t(f), float(f), reinterpret_cast<const rvec*>(g.box[f].data()),
                reinterpret_cast<const rvec*>(g.x[f].data()), 1000);
    close_xtc(out);
    ASSERT_EQ(std::rename(written.c_str(), misnamed.c_str()), 0);
  }
  const auto reader = io::open_trajectory_file(misnamed);
  EXPECT_EQ(reader->description(), "GROMACS XTC");
  EXPECT_EQ(reader->n_frames(), 2);
  const std::string text = scratch("conf.xtc");
  std::ofstream(text) << "ATOM      1  OW  SOL     1       1.000   2.000   3.000\n";
  const std::string message = test::refusal([&] { io::open_trajectory_file(text); });
  EXPECT_NE(message.find("text starting with 'ATOM      1  OW"), std::string::npos) << message;
  std::remove(misnamed.c_str());
  std::remove(io::xtc_index_cache_path(misnamed).c_str());
  std::remove(text.c_str());
}

}  // namespace
}  // namespace kmol

namespace kmol {
namespace {

// Water-like molecules (an oxygen and two hydrogens 0.1 nm from it), in a random gas of them: the
// XTC writer codes such close neighbours as runs of small differences, with its first-two swap.
std::vector<float> waters(std::int64_t molecules, float edge) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<float> u(0, edge), d(-0.1f, 0.1f);
  std::vector<float> x;
  for (std::int64_t m = 0; m < molecules; ++m) {
    const float o[3] = {u(random), u(random), u(random)};
    for (int atom = 0; atom < 3; ++atom)
      for (int k = 0; k < 3; ++k) x.push_back(o[k] + (atom == 0 ? 0 : d(random)));
  }
  return x;
}

void write_frames(const std::string& path, const std::vector<std::vector<float>>& frames,
                  float precision) {
  const float box[9] = {3, 0, 0, 0, 3, 0, 0, 0, 3};
  t_fileio* out = open_xtc(path.c_str(), "w");
  for (std::size_t f = 0; f < frames.size(); ++f)
    write_xtc(out, int(frames[f].size() / 3), std::int64_t(f), float(f) * 0.5f,
              reinterpret_cast<const rvec*>(box), reinterpret_cast<const rvec*>(frames[f].data()),
              precision);
  close_xtc(out);
}

// kmol decodes XTC itself (libgromacs' decoder writes past its buffers on damaged frames): every
// frame gives libgromacs' coordinates bit for bit, for water and gas, several precisions and
// frames of up to 9 atoms (stored uncompressed).
TEST(GromacsIo, XtcDecoderGivesLibgromacsCoordinates) {
  const GasFrames g = gas(boxes[2].box, 500, 1);
  for (float precision : {1000.0f, 100.0f, 1e5f}) {
    const std::vector<std::vector<float>> frames = {waters(400, 3), g.x[0], waters(3, 3),
                                                    waters(1000, 0.5f)};
    for (const auto& frame : frames) {
      const std::string path = scratch("decoder.xtc");
      write_frames(path, {frame}, precision);
      const auto n = int(frame.size() / 3);
      std::vector<float> theirs(frame.size()), ours(frame.size());
      t_fileio* in = open_xtc(path.c_str(), "r");
      std::int64_t step = 0;
      float time = 0, p = 0;
      bool ok = false;
      matrix box;
      ASSERT_NE(
          read_next_xtc(in, n, &step, &time, box, reinterpret_cast<rvec*>(theirs.data()), &p, &ok),
          0);
      close_xtc(in);
      std::ifstream file(path, std::ios::binary);
      const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                             std::istreambuf_iterator<char>());
      io::XtcFrameHeader header;
      EXPECT_EQ(
          io::decode_xtc_frame(bytes.data(), std::int64_t(bytes.size()), n, header, ours.data()),
          "");
      EXPECT_EQ(std::memcmp(ours.data(), theirs.data(), ours.size() * sizeof(float)), 0)
          << n << " atoms, precision " << precision;
      EXPECT_EQ(header.box[4], 3.0f);
      std::remove(path.c_str());
    }
  }
}

// A 32-bit word of a frame's header set to `word` at byte `at` from the frame's start, and what
// the refusal of that frame must say.
struct DamagedWord {
  std::int64_t at;
  std::uint32_t word;
  const char* what;
};

// The word's bytes as XDR stores them (big-endian).
std::array<char, 4> xdr_bytes(std::uint32_t word) {
  return {char(word >> 24), char(word >> 16), char(word >> 8), char(word)};
}

// The XTC frame 1 of a file of three, with the 32-bit word at `at` (from the frame's start) set.
std::string xtc_with_word(const std::string& name, std::int64_t at, std::uint32_t word) {
  const std::string path = scratch(name);
  write_frames(path, {waters(100, 3), waters(100, 3), waters(100, 3)}, 1000);
  const auto index = io::index_xtc(path);
  std::remove(io::xtc_index_cache_path(path).c_str());
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(index.offsets[1] + at);
  f.write(xdr_bytes(word).data(), 4);
  return path;
}

std::uint32_t float_bits(float f) {
  std::uint32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
}

void expect_damaged_frame_1(const std::string& path, const std::string& what) {
  const auto reader = io::open_trajectory_file(path);
  std::vector<Vec3<float>> p(std::size_t(reader->n_atoms()));
  EXPECT_NO_THROW(reader->read_frame(0, p.data())) << what;
  const std::string message = test::refusal([&] { reader->read_frame(1, p.data()); });
  EXPECT_EQ(message.rfind(path + ": frame: [1] damaged: ", 0), 0u) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
  EXPECT_NE(message.find("--frames :1"), std::string::npos) << message;
  std::remove(path.c_str());
  std::remove(io::xtc_index_cache_path(path).c_str());
}

// Each header field that once sized a libgromacs buffer or division, damaged in frame 1: kmol
// names the frame and the field, the frame before it stays readable.
TEST(GromacsIo, DamagedXtcHeadersAreRefusedBeforeDecoding) {
  const DamagedWord cases[] = {
      {4, 301, "the header gives 301 atoms, the first frame 300"},
      {52, 301, "the header gives 300 atoms and then 301"},
      {12, float_bits(NAN), "its time is not a finite number"},
      {16, float_bits(INFINITY), "its box is not finite"},
      {56, float_bits(0), "precision"},
      {56, float_bits(NAN), "precision"},
      {60, 0x7fffffff, "coordinate range"},
      {84, 200, "bit width 200 is outside the format's table"},
      {84, 3, "bit width 3"},
      {88, 100000, "compressed size 100000 bytes does not fit 300 atoms"},
      {88, 0xfffffff0u, "compressed size -16 bytes"},
      {88, 4, "compressed size 4 bytes is too small for 300 atoms"},
  };
  for (const auto& c : cases)
    expect_damaged_frame_1(xtc_with_word("damaged.xtc", c.at, c.word), c.what);
  // Compressed bits of all ones: runs of ten atoms that overrun the frame's 300, or bits that
  // run out first.
  const std::string path = scratch("bits.xtc");
  write_frames(path, {waters(100, 3), waters(100, 3)}, 1000);
  const auto index = io::index_xtc(path);
  std::remove(io::xtc_index_cache_path(path).c_str());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(index.offsets[1] + 92);
    const std::vector<char> ones(std::size_t(index.offsets[1] - index.offsets[0] - 92), char(-1));
    f.write(ones.data(), std::streamsize(ones.size()));
  }
  const auto reader = io::open_trajectory_file(path);
  std::vector<Vec3<float>> p(300);
  const std::string message = test::refusal([&] { reader->read_frame(1, p.data()); });
  EXPECT_NE(message.find("its compressed coordinates"), std::string::npos) << message;
  std::remove(path.c_str());
  std::remove(io::xtc_index_cache_path(path).c_str());
}

// TRR is read by kmol too: double precision gives the single-precision file's frames, and damaged
// headers (an atom count that grows, sizes past the file or of no precision) are refused.
TEST(GromacsIo, DamagedTrrHeadersAreRefused) {
  const std::string path = scratch("damaged.trr");
  const GasFrames g = gas(boxes[0].box, 50, 3);
  write_gromacs(path, g, false);
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> whole((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  const std::int64_t frame_bytes = std::int64_t(whole.size()) / 3;
  const DamagedWord cases[] = {
      {64, 51, "do not fit 51 atoms in single or double precision"},
      {52, 0x7fffffff, "coordinates 2147483647"},
      {32, 72, "box 72"},
      {24, 8, "it claims to hold an input record"},
      {0, 1994, "no TRR frame header (magic 1994)"},
      {76, float_bits(NAN), "its time is not a finite number"},
  };
  for (const auto& c : cases) {
    std::vector<char> bytes = whole;
    const std::array<char, 4> word = xdr_bytes(c.word);
    std::copy(word.begin(), word.end(), bytes.begin() + frame_bytes + c.at);
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    expect_damaged_frame_1(path, c.what);
  }
  std::ofstream(path, std::ios::binary).write(whole.data(), std::streamsize(frame_bytes + 100));
  expect_damaged_frame_1(path, "inside this frame");
}

// A damaged TNG file whose index holds no frame comes back from its contained reader as an empty
// list with the reason; unpacking it copies nothing (an empty vector's storage may be null).
TEST(SpooledFrames, AnEmptyListComesBackWithItsError) {
  std::string error;
  const auto frames = io::unpack_frames(io::pack_frames({}, "no frame"), error);
  EXPECT_TRUE(frames.empty());
  EXPECT_EQ(error, "no frame");
  io::SpooledFrame one;
  one.atoms = 7;
  const auto back = io::unpack_frames(io::pack_frames({one}, ""), error);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].atoms, 7);
  EXPECT_EQ(error, "");
}

}  // namespace
}  // namespace kmol
