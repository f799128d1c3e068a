// H5MD writer and reader: round trips, units, boxes, per-atom data and the errors bad files raise.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/contained_call.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/io/trajectory_reader.hpp"
#include "kmol/core/io/units.hpp"
#include "tests/support/refusal.hpp"

namespace kmol::io {
#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#else
constexpr bool address_sanitizer = false;
#endif

namespace {

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "kmol_h5md_" + std::to_string(::getpid()) + "_" + name;
}

std::vector<Vec3<double>> random_positions(std::int64_t n, double length, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> u(0, length);
  std::vector<Vec3<double>> p(n);
  for (auto& v : p) v = {u(random), u(random), u(random)};
  return p;
}

// Rewrites a string attribute (or removes it when value is empty).
void set_unit(const std::string& path, const std::string& dataset, const std::string& value) {
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  Hid d(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT));
  H5Adelete(d.get(), "unit");
  if (!value.empty()) write_string_attribute(d.get(), "unit", value);
}

TEST(H5md, RoundTripDoubleTriclinicWithEverything) {
  const std::string path = temp_path("round.h5");
  const std::int64_t n = 37, frames = 5;
  H5mdWriterOptions options;
  options.double_precision = true;
  options.velocities = true;
  options.observables = {"potential_energy", "temperature"};
  options.species_names = {"Na", "Cl"};
  std::vector<std::int32_t> species(n);
  for (std::int64_t i = 0; i < n; ++i) species[i] = std::int32_t(i % 2);
  std::vector<std::vector<Vec3<double>>> written;
  {
    H5mdWriter writer(path, n, species, options);
    for (int t = 0; t < frames; ++t) {
      written.push_back(random_positions(n, 10, 7 + t));
      const auto v = random_positions(n, 1, 100 + t);
      const BoxSpec box = BoxSpec::triclinic({10 + t * 0.1, 0, 0}, {1, 11, 0}, {0.5, 0.25, 12});
      writer.append(H5mdFrameView<double>{10 * t, 0.5 * t, box, written.back().data(), v.data()},
                    {-1.5 * t, 300.0 + t});
    }
    std::ifstream not_yet(path);
    EXPECT_FALSE(not_yet.good()) << "the final file must appear only on close";
    writer.close();
  }
  H5mdReader reader(path);
  EXPECT_EQ(reader.particle_group(), "all");
  EXPECT_EQ(reader.n_frames(), frames);
  EXPECT_EQ(reader.n_atoms(), n);
  EXPECT_EQ(reader.box_kind(), BoxKind::triclinic);
  EXPECT_TRUE(reader.box_time_dependent());
  EXPECT_TRUE(reader.has_velocities());
  EXPECT_EQ(reader.species(), species);
  EXPECT_EQ(reader.species_names(), (std::vector<std::string>{"Na", "Cl"}));
  EXPECT_TRUE(reader.warnings().empty());
  std::vector<Vec3<double>> p(n), v(n);
  for (int t = frames - 1; t >= 0; --t) {  // any order: frames are read independently
    const auto info = reader.read_frame(t, p.data(), v.data());
    EXPECT_EQ(info.step, 10 * t);
    EXPECT_DOUBLE_EQ(info.time, 0.5 * t);
    EXPECT_DOUBLE_EQ(info.box.edges[0].x, 10 + t * 0.1);
    EXPECT_DOUBLE_EQ(info.box.edges[2].y, 0.25);
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(p[i].x, written[t][i].x);
      EXPECT_EQ(p[i].z, written[t][i].z);
    }
  }
  std::remove(path.c_str());
}

TEST(H5md, SinglePrecisionOrthorhombicAndOpenBoxes) {
  for (BoxKind kind : {BoxKind::orthorhombic, BoxKind::none}) {
    const std::string path = temp_path("single.h5");
    const auto p = random_positions(100, 20, 3);
    std::vector<Vec3<float>> pf;
    for (const auto& x : p) pf.push_back(x.cast<float>());
    {
      H5mdWriter writer(path, 100, {});
      const BoxSpec box =
          kind == BoxKind::none ? BoxSpec::none() : BoxSpec::orthorhombic(20, 21, 22);
      for (int t = 0; t < 3; ++t) writer.append(H5mdFrameView<float>{t, double(t), box, pf.data()});
      writer.close();
    }
    H5mdReader reader(path);
    EXPECT_EQ(reader.box_kind(),
              kind == BoxKind::none ? BoxKind::none : BoxKind::triclinic);  // as stored
    EXPECT_EQ(reader.frame_info(0).box.kind, kind);  // a diagonal matrix reads as rectangular
    EXPECT_TRUE(reader.species().empty());
    std::vector<Vec3<float>> q(100);
    const auto info = reader.read_frame(2, q.data());
    EXPECT_EQ(q[42].y, pf[42].y);
    if (kind != BoxKind::none) {
      EXPECT_DOUBLE_EQ(volume(info.box), 20.0 * 21 * 22);
    }
    std::remove(path.c_str());
  }
}

TEST(H5md, LengthUnitsAreConverted) {
  const std::string path = temp_path("units.h5");
  const std::vector<Vec3<double>> p{{1, 2, 3}};
  {
    H5mdWriter writer(path, 1, {}, [] {
      H5mdWriterOptions o;
      o.double_precision = true;
      return o;
    }());
    writer.append(H5mdFrameView<double>{0, 0, BoxSpec::orthorhombic(5, 5, 5), p.data()});
    writer.close();
  }
  const std::vector<std::pair<std::string, double>> cases{
      {"nm", 10}, {"pm", 0.01}, {"Ang", 1}, {"A", 1}, {"Angstrom", 1}};
  for (const auto& [unit, factor] : cases) {
    set_unit(path, "particles/all/position/value", unit);
    H5mdReader reader(path);
    std::vector<Vec3<double>> q(1);
    reader.read_frame(0, q.data());
    EXPECT_DOUBLE_EQ(q[0].z, 3 * factor) << unit;
  }
  set_unit(path, "particles/all/position/value", "");
  {
    H5mdReader reader(path);
    ASSERT_EQ(reader.warnings().size(), 1u);
    EXPECT_NE(reader.warnings()[0].find("no unit attribute; assuming Angstrom"), std::string::npos);
  }
  set_unit(path, "particles/all/position/value", "furlong");
  EXPECT_TRUE(test::refused_with([&] { H5mdReader r(path); },
                                 "position/value: unknown length unit 'furlong'"));
  std::remove(path.c_str());
}

TEST(H5md, CommandLineLengths) {
  EXPECT_DOUBLE_EQ(parse_length("12", "--rmax"), 12);
  EXPECT_DOUBLE_EQ(parse_length("12A", "--rmax"), 12);
  EXPECT_DOUBLE_EQ(parse_length("1.2nm", "--rmax"), 12);
  EXPECT_DOUBLE_EQ(parse_length("150pm", "--rmax"), 1.5);
  EXPECT_TRUE(test::refused_with([] { parse_length("3parsec", "--rmax"); },
                                 "--rmax: unknown length unit 'parsec'"));
  EXPECT_TRUE(test::refused_with([] { parse_length("nm", "--rmax"); }, "is not a length"));
}

TEST(H5md, BadFilesAreNamed) {
  EXPECT_TRUE(test::refused_with([] { H5mdReader r("/nonexistent/t.h5"); },
                                 "/nonexistent/t.h5: no such file"));
  const std::string text = temp_path("text.h5");
  std::ofstream(text) << "not hdf5\n";
  EXPECT_TRUE(test::refused_with([&] { H5mdReader r(text); }, "not an HDF5 file"));
  std::remove(text.c_str());

  const std::string empty = temp_path("empty.h5");
  { Hid f(H5Fcreate(empty.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)); }
  EXPECT_TRUE(test::refused_with([&] { H5mdReader r(empty); }, "no 'particles' group"));
  {
    Hid f(H5Fopen(empty.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    Hid links(H5Pcreate(H5P_LINK_CREATE));
    H5Pset_create_intermediate_group(links.get(), 1);
    Hid g(H5Gcreate2(f.get(), "particles/all/position", links.get(), H5P_DEFAULT, H5P_DEFAULT));
    const hsize_t dims[2] = {4, 3};
    Hid space(H5Screate_simple(2, dims, nullptr));
    Hid d(H5Dcreate2(g.get(), "value", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                     H5P_DEFAULT));
  }
  EXPECT_TRUE(test::refused_with([&] { H5mdReader r(empty); },
                                 "position/value: shape is [4][3], expected [frames][atoms][3]"));
  std::remove(empty.c_str());
}

TEST(H5md, NonFiniteCoordinatesNameFrameAndAtom) {
  const std::string path = temp_path("nan.h5");
  auto p = random_positions(10, 5, 1);
  {
    H5mdWriter writer(path, 10, {});
    writer.append(H5mdFrameView<double>{0, 0, BoxSpec::orthorhombic(5, 5, 5), p.data()});
    // The writer refuses them itself:
    p[7].y = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(test::refused_with(
        [&] {
          writer.append(H5mdFrameView<double>{1, 1, BoxSpec::orthorhombic(5, 5, 5), p.data()});
        },
        "[1] atom 7 has a non-finite coordinate"));
    writer.close();
  }
  {  // so plant one behind its back.
    Hid f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    Hid d(H5Dopen2(f.get(), "particles/all/position/value", H5P_DEFAULT));
    Hid space(H5Dget_space(d.get()));
    const hsize_t start[3] = {0, 3, 2}, count[3] = {1, 1, 1};
    H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Hid one(H5Screate_simple(1, count, nullptr));
    const float inf = std::numeric_limits<float>::infinity();
    H5Dwrite(d.get(), H5T_NATIVE_FLOAT, one.get(), space.get(), H5P_DEFAULT, &inf);
  }
  H5mdReader reader(path);
  std::vector<Vec3<float>> q(10);
  EXPECT_TRUE(test::refused_with([&] { reader.read_frame(0, q.data()); },
                                 "position/value: [0] atom 3 has a non-finite coordinate"));
  std::remove(path.c_str());
}

TEST(H5md, UnclosedWriterLeavesNothing) {
  const std::string path = temp_path("abandoned.h5");
  {
    H5mdWriter writer(path, 2, {});
    const std::vector<Vec3<double>> p{{0, 0, 0}, {1, 1, 1}};
    writer.append(H5mdFrameView<double>{0, 0, BoxSpec::none(), p.data()});
  }
  std::ifstream f(path);
  EXPECT_FALSE(f.good());
}

// A small trajectory with every string attribute kmol reads (units, boundary, species names):
// HDF5 keeps those variable-length strings in the file's global heap.
void write_small(const std::string& path, std::int64_t frames = 3) {
  H5mdWriterOptions options;
  options.species_names = {"Ar"};
  H5mdWriter writer(path, 4, {0, 0, 0, 0}, options);
  const auto p = random_positions(4, 10, 5);
  for (std::int64_t t = 0; t < frames; ++t)
    writer.append(
        H5mdFrameView<double>{t, 0.5 * double(t), BoxSpec::orthorhombic(10, 10, 10), p.data()});
  writer.close();
}

// Sets the byte `offset` bytes after the first occurrence of `signature` in the file.
void damage(const std::string& path, const std::string& signature, std::size_t offset,
            unsigned char value) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t at = bytes.find(signature);
  ASSERT_NE(at, std::string::npos) << signature << " not in " << path;
  file.seekp(std::streamoff(at + offset));
  file.put(char(value));
}

// Overwrites frame t of a [T] dataset.
template <class V>
void set_entry(const std::string& path, const std::string& dataset, hsize_t t, V value,
               hid_t type) {
  Hid f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  Hid d(H5Dopen2(f.get(), dataset.c_str(), H5P_DEFAULT));
  Hid space(H5Dget_space(d.get()));
  const hsize_t count = 1;
  H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &t, nullptr, &count, nullptr);
  Hid one(H5Screate_simple(1, &count, nullptr));
  ASSERT_GE(H5Dwrite(d.get(), type, one.get(), space.get(), H5P_DEFAULT, &value), 0);
}

// The size of the first object in the global heap collection ("GCOL", version, reserved,
// collection size, then the object's index, reference count, reserved and its 8-byte size):
// a huge size sends libhdf5's H5HG_read past the collection (SIGSEGV), a zero one into a loop.
constexpr std::size_t first_heap_object_size = 24;

// An H5MD file h5py wrote (as MDAnalysis does), from the h5md_file fuzz corpus.
void copy_seed(const std::string& name, const std::string& path) {
  std::ifstream in(std::string(KMOL_SOURCE_DIR) + "/tests/fuzz/corpus/h5md_file/" + name,
                   std::ios::binary);
  ASSERT_TRUE(in.good()) << name;
  std::ofstream(path, std::ios::binary) << in.rdbuf();
}

TEST(H5md, DamagedGlobalHeapIsRefusedNotCrashed) {
  const std::string path = temp_path("heap.h5");
  copy_seed("h5py-orthorhombic-with-species.h5", path);
  damage(path, "GCOL", first_heap_object_size + 1, 0xff);
  const std::string message = test::refusal([&] { H5mdReader r(path); });
  // AddressSanitizer reports the child's crash itself and ends it with exit status 1; otherwise
  // the damaged heap ends it by SIGSEGV, or by SIGABRT where glibc's allocator notices first.
  const std::string ending =
      address_sanitizer ? " failed (exit status 1)" : " was killed by signal SIG";
  EXPECT_NE(message.find(path + ": reading its HDF5 structure in a separate process" + ending),
            std::string::npos)
      << message;
  EXPECT_TRUE(test::refused_with([&] { open_trajectory_file(path); }, "the file is damaged"));
  std::remove(path.c_str());
  const std::string intact = temp_path("intact.h5");  // the same file undamaged reads
  copy_seed("h5py-orthorhombic-with-species.h5", intact);
  EXPECT_EQ(H5mdReader(intact).species_names(), (std::vector<std::string>{"Na", "Cl"}));
  std::remove(intact.c_str());
}

TEST(H5md, StructureCheckPassesGoodFilesOnce) {
  const std::string path = temp_path("good.h5");
  write_small(path, 200);
  EXPECT_NO_THROW(H5mdReader::check_structure(path));
  H5mdReader reader(path);  // checked already: no second walk
  EXPECT_EQ(reader.n_frames(), 200);
  std::remove(path.c_str());
}

TEST(H5md, ChildWalkLimitsEndLoopsAndCrashes) {
  ChildLimits limits;
  limits.seconds = 1;
  // AddressSanitizer handles the child's signals and allocations itself and ends it with its own
  // report (exit status 1): there, every fault only has to end the walk unfinished.
  const auto ends = [](ChildOutcome::Kind kind, ChildOutcome::Kind expected) {
    if (address_sanitizer)
      EXPECT_NE(kind, ChildOutcome::finished);
    else
      EXPECT_EQ(kind, expected);
  };
  EXPECT_EQ(run_in_child([] { return std::string("done"); }, limits).reply, "done");
  ends(run_in_child(
           [] {
             for (volatile int i = 0;; i = i + 1) {
             }
             return std::string();
           },
           limits)
           .kind,
       ChildOutcome::timed_out);
  ends(run_in_child(
           [] {
             std::raise(SIGSEGV);
             return std::string();
           },
           limits)
           .kind,
       ChildOutcome::signalled);
  limits.extra_bytes = std::int64_t(64) << 20;
  // The sanitizer's shadow memory needs more address space than a limit would leave: none is set.
  if (!address_sanitizer)
    EXPECT_EQ(run_in_child(
                  [] {
                    std::vector<char> big(std::size_t(1) << 31, 1);
                    return std::string(1, big.back());
                  },
                  limits)
                  .kind,
              ChildOutcome::out_of_memory);
  const ChildOutcome thrown =
      run_in_child([]() -> std::string { throw std::runtime_error("x"); }, limits);
  EXPECT_EQ(thrown.kind, ChildOutcome::failed);
  EXPECT_EQ(thrown.reply, "x");
  const ChildOutcome refused = run_in_child(
      []() -> std::string {
        throw InputError({"f.h5", "", -1}, "bad");
      },
      limits);
  EXPECT_EQ(refused.kind, ChildOutcome::refused);
  EXPECT_NE(refused.reply.find("f.h5"), std::string::npos) << refused.reply;
}

TEST(H5md, NonFiniteTimesAndOverflowingStepsAreRefused) {
  const std::string path = temp_path("clock.h5");
  write_small(path);
  set_entry(path, "particles/all/position/time", 1, std::numeric_limits<double>::quiet_NaN(),
            H5T_NATIVE_DOUBLE);
  set_entry(path, "particles/all/position/step", 2, std::numeric_limits<std::int64_t>::max(),
            H5T_NATIVE_INT64);
  H5mdReader reader(path);
  EXPECT_EQ(reader.frame_info(0).time, 0.0);
  EXPECT_TRUE(test::refused_with(
      [&] { reader.frame_info(1); },
      path + ": particles/all/position/time: [1] is nan: expected a finite number"));
  EXPECT_TRUE(
      test::refused_with([&] { reader.frame_info(2); },
                         "particles/all/position/step: [2] 9223372036854775808.000000 is beyond"));
  std::remove(path.c_str());
}

TEST(H5md, TinyAndHugeBoxEdgesAreRefusedNamingTheFrame) {
  const std::string path = temp_path("tiny.h5");
  write_small(path);
  {
    Hid f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    Hid d(H5Dopen2(f.get(), "particles/all/box/edges/value", H5P_DEFAULT));
    std::vector<double> edges(27, 0.0);
    for (int t = 0; t < 3; ++t)
      for (int i = 0; i < 3; ++i) edges[9 * t + 4 * i] = 10;
    edges[9 * 1 + 4] = 1e-320;
    edges[9 * 2 + 8] = 1e30;
    H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, edges.data());
  }
  H5mdReader reader(path);
  EXPECT_NO_THROW(reader.frame_info(0));
  EXPECT_TRUE(test::refused_with(
      [&] { reader.frame_info(1); },
      "particles/all/box/edges/value: [1] box: an edge of length 1e-320 Angstrom"));
  EXPECT_TRUE(
      test::refused_with([&] { reader.frame_info(2); }, "an edge of length 1e+30 Angstrom"));
  std::remove(path.c_str());
}

TEST(H5md, DamagedCompressedFrameIsAnInputErrorWithoutHdf5Printing) {
  const std::string path = temp_path("deflated.h5");
  {
    H5mdWriter writer(path, 500, {});  // compressed, as kmol md writes
    for (int t = 0; t < 2; ++t) {
      const auto p = random_positions(500, 10, 9 + t);
      writer.append(H5mdFrameView<double>{t, double(t), BoxSpec::none(), p.data()});
    }
    writer.close();
  }
  {  // zero the middle of the file: the deflate streams of the positions' chunks
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(0, std::ios::end);
    const std::streamoff size = file.tellg();
    file.seekp(size / 2);
    for (int i = 0; i < 256; ++i) file.put('\0');
  }
  testing::internal::CaptureStderr();
  std::string message;
  {
    H5mdReader reader(path);
    std::vector<Vec3<float>> q(500);
    for (int t = 0; t < 2 && message.empty(); ++t) try {
        reader.read_frame(t, q.data());
      } catch (const InputError& e) {
        message = e.what();
      }
  }
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("position/value: ["), std::string::npos) << message;
  EXPECT_NE(message.find("cannot read this frame"), std::string::npos) << message;
  EXPECT_EQ(printed.find("HDF5-DIAG"), std::string::npos) << printed;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kmol::io
