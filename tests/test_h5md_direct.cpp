// H5MD positions read without HDF5 (core/src/io/h5md_direct.hpp) against H5Dread: the same bits
// for every storage the direct path reads, HDF5's own reads for the rest, several readers at
// once, and damaged storage refused naming the file, the dataset and the frame.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <thread>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "tests/support/refusal.hpp"

namespace kmol::io {
namespace {

constexpr hsize_t frames = 10, atoms = 20;

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "kmol_h5md_direct_" + std::to_string(::getpid()) + "_" + name;
}

// The file's element type. HDF5's type names are macros calling H5open(), kept out of
// brace-initialised tables, which nvcc's front end does not parse.
enum class Element { f32le, f32be, f64le, f64be };

hid_t type_of(Element e) {
  switch (e) {
    case Element::f32le:
      return H5T_IEEE_F32LE;
    case Element::f32be:
      return H5T_IEEE_F32BE;
    case Element::f64le:
      return H5T_IEEE_F64LE;
    default:
      return H5T_IEEE_F64BE;
  }
}

// How particles/all/position/value is stored.
struct Storage {
  std::string name;
  Element type;                // in the file
  std::vector<hsize_t> chunk;  // empty: contiguous
  int deflate = -1;            // level; -1: none
  bool shuffle = false, fletcher32 = false;
  std::string direct;               // H5mdReader::position_storage(): empty when HDF5 reads it
  hsize_t written_frames = frames;  // frames after these are never written (fill values)
};

// Values in nm, with the ones conversions are touchy about: float ties (1 + 2^-24 rounds to
// even), subnormal floats and doubles, negative zero (among the first 50 values of each frame),
// and random coordinates.
std::vector<double> coordinates() {
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> u(-5, 5);
  std::vector<double> v(frames * atoms * 3);
  for (double& x : v) x = u(random);
  const double specials[] = {1 + std::ldexp(1.0, -24),
                             1 + 3 * std::ldexp(1.0, -24),
                             -(1 + std::ldexp(1.0, -24)),
                             -0.0,
                             1e-40,
                             -1e-43,
                             1e-310,
                             std::ldexp(1.0, -149),
                             0.1,
                             1.0 / 3};
  for (hsize_t t = 0; t < frames; ++t)
    for (std::size_t k = 0; k < std::size(specials); ++k) v[t * atoms * 3 + 5 * k] = specials[k];
  return v;
}

void write_positions(const std::string& path, const Storage& s, const std::vector<double>& v,
                     const std::string& unit = "nm") {
  Hid file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  Hid links(H5Pcreate(H5P_LINK_CREATE));
  H5Pset_create_intermediate_group(links.get(), 1);
  const hsize_t dims[3] = {frames, atoms, 3};
  Hid space(H5Screate_simple(3, dims, nullptr));
  Hid properties(H5Pcreate(H5P_DATASET_CREATE));
  if (!s.chunk.empty()) {
    H5Pset_chunk(properties.get(), 3, s.chunk.data());
    if (s.fletcher32) H5Pset_fletcher32(properties.get());
    if (s.shuffle) H5Pset_shuffle(properties.get());
    if (s.deflate >= 0) H5Pset_deflate(properties.get(), unsigned(s.deflate));
  }
  Hid value(H5Dcreate2(file.get(), "particles/all/position/value", type_of(s.type), space.get(),
                       links.get(), properties.get(), H5P_DEFAULT));
  ASSERT_TRUE(value.valid()) << s.name;
  write_string_attribute(value.get(), "unit", unit);
  const hsize_t start[3] = {0, 0, 0}, count[3] = {s.written_frames, atoms, 3};
  Hid part(H5Screate_simple(3, count, nullptr));
  H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
  ASSERT_GE(
      H5Dwrite(value.get(), H5T_NATIVE_DOUBLE, part.get(), space.get(), H5P_DEFAULT, v.data()), 0)
      << s.name;
}

const std::vector<Storage>& storages() {
  static const std::vector<Storage> all{
      {"contiguous float", Element::f32le, {}, -1, false, false, "contiguous"},
      {"contiguous big-endian double", Element::f64be, {}, -1, false, false, "contiguous"},
      {"one frame a chunk, raw", Element::f32le, {1, atoms, 3}, -1, false, false, "chunked raw"},
      {"4 frames a chunk, raw, double",
       Element::f64le,
       {4, atoms, 3},
       -1,
       false,
       false,
       "chunked raw"},
      {"one frame a chunk, deflate, big-endian float",
       Element::f32be,
       {1, atoms, 3},
       6,
       false,
       false,
       "chunked deflate"},
      {"3 frames a chunk, deflate+shuffle, double",
       Element::f64le,
       {3, atoms, 3},
       4,
       true,
       false,
       "chunked deflate+shuffle"},
      {"atoms split over chunks, deflate+shuffle",
       Element::f32le,
       {2, 7, 3},
       1,
       true,
       false,
       "chunked deflate+shuffle"},
      {"every dimension split, shuffle, big-endian double",
       Element::f64be,
       {3, 6, 2},
       -1,
       true,
       false,
       "chunked shuffle"},
      {"deflate level 0, big-endian double",
       Element::f64be,
       {2, atoms, 3},
       0,
       false,
       false,
       "chunked deflate"},
      {"fletcher32: HDF5 reads it", Element::f32le, {1, atoms, 3}, 6, false, true, ""},
      {"chunks never written",
       Element::f32le,
       {2, atoms, 3},
       6,
       true,
       false,
       "chunked deflate+shuffle",
       5}};
  return all;
}

// Every frame of the file, as T, through the direct path or H5Dread.
template <class T>
std::vector<Vec3<T>> all_frames(H5mdReader& reader) {
  std::vector<Vec3<T>> p(frames * atoms);
  for (std::int64_t t = std::int64_t(frames) - 1; t >= 0; --t)
    reader.read_frame(t, p.data() + t * std::int64_t(atoms));
  return p;
}

template <class T>
bool same_bits(const std::vector<Vec3<T>>& a, const std::vector<Vec3<T>>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3<T>)) == 0;
}

template <class T>
void expect_direct_equals_hdf5(const std::string& path, const Storage& s,
                               const std::vector<double>& v) {
  H5mdReader direct(path), library(path);
  EXPECT_EQ(direct.position_storage(), s.direct) << s.name;
  library.set_direct_reads(false);
  EXPECT_EQ(library.position_storage(), "");
  const auto a = all_frames<T>(direct), b = all_frames<T>(library);
  EXPECT_TRUE(same_bits(a, b)) << s.name << (sizeof(T) == 4 ? " as float" : " as double");
  // Not only equal: the values written, in Angstrom (fill values, 0, where never written).
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = i / atoms < s.written_frames ? 10 * v[3 * i] : 0;
    ASSERT_NEAR(a[i].x, x, 1e-6 * std::abs(x) + 1e-30) << s.name << " value " << 3 * i;
  }
}

TEST(H5mdDirect, GivesTheBitsOfHdf5ForEveryStorage) {
  const auto v = coordinates();
  for (const Storage& s : storages()) {
    const std::string path = temp_path("storage.h5");
    write_positions(path, s, v);
    expect_direct_equals_hdf5<float>(path, s, v);
    expect_direct_equals_hdf5<double>(path, s, v);
    std::remove(path.c_str());
  }
}

// A double just beyond the float range: HDF5 makes it infinite from little-endian doubles (its
// conversion of native types), so the frame is refused, and converts big-endian ones its own way;
// either way both paths read the frame alike.
TEST(H5mdDirect, DoublesBeyondTheFloatRangeAreReadAlike) {
  auto v = coordinates();
  v[3 * atoms + 5] = double(FLT_MAX) * (1 + std::ldexp(1.0, -30));
  for (Element type : {Element::f64le, Element::f64be}) {
    SCOPED_TRACE(type == Element::f64le ? "little-endian" : "big-endian");
    const std::string path = temp_path("beyond.h5");
    write_positions(path, {"beyond", type, {1, atoms, 3}, -1, false, false, "chunked raw"}, v,
                    "Angstrom");
    H5mdReader direct(path), library(path);
    library.set_direct_reads(false);
    EXPECT_EQ(direct.position_storage(), "chunked raw");
    std::vector<Vec3<float>> p(atoms);
    const std::string a = test::refusal([&] { direct.read_frame(1, p.data()); });
    const std::string b = test::refusal([&] { library.read_frame(1, p.data()); });
    EXPECT_EQ(a, b);
    if (type == Element::f64le) {
      EXPECT_NE(a.find("atom 1 has a non-finite coordinate"), std::string::npos) << a;
    }
    std::remove(path.c_str());
  }
}

TEST(H5mdDirect, ReadersOnSeveralThreadsReadTheSameFrames) {
  const auto v = coordinates();
  const Storage& s = storages()[5];  // deflate+shuffle, 3 frames a chunk
  const std::string path = temp_path("threads.h5");
  write_positions(path, s, v);
  H5mdReader first(path), library(path);
  library.set_direct_reads(false);
  const auto expected = all_frames<float>(library);
  std::vector<std::unique_ptr<H5mdReader>> readers;
  for (int r = 0; r < 4; ++r) readers.push_back(r == 0 ? nullptr : first.another());
  std::vector<Vec3<float>> got(frames * atoms);
  std::vector<std::thread> threads;
  for (int r = 0; r < 4; ++r)
    threads.emplace_back([&, r] {
      H5mdReader& reader = r == 0 ? first : *readers[std::size_t(r)];
      for (int pass = 0; pass < 20; ++pass)
        for (hsize_t t = hsize_t(r); t < frames; t += 4)
          reader.read_frame(std::int64_t(t), got.data() + t * atoms);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(readers[1]->position_storage(), "chunked deflate+shuffle");
  EXPECT_TRUE(same_bits(got, expected));
  std::remove(path.c_str());
}

// Where the chunk of the last frame lies in the file.
haddr_t last_chunk_address(const std::string& path) {
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  Hid value(H5Dopen2(file.get(), "particles/all/position/value", H5P_DEFAULT));
  const hsize_t origin[3] = {frames - 1, 0, 0};
  unsigned mask = 0;
  hsize_t size = 0;
  haddr_t address = HADDR_UNDEF;
  EXPECT_GE(H5Dget_chunk_info_by_coord(value.get(), origin, &mask, &address, &size), 0);
  return address;
}

// Rewrites the size the chunk index gives the last frame's chunk: the 4 bytes that open the
// key before its address in the chunks' B-tree node ("TREE", type 1), whose keys of a rank-3
// dataset hold the size, the filter mask and four 8-byte offsets.
void set_last_chunk_size(const std::string& path, std::uint32_t size) {
  const haddr_t address = last_chunk_address(path);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t tree = bytes.find(std::string("TREE\x01", 5));
  std::string key(8, '\0');
  std::memcpy(key.data(), &address, 8);
  const std::size_t at = bytes.find(key, tree);
  ASSERT_TRUE(tree != std::string::npos && at != std::string::npos && at > tree + 40);
  file.seekp(std::streamoff(at - 40));
  file.write(reinterpret_cast<const char*>(&size), 4);
}

// The refusal of frame t of a damaged file, read directly.
std::string refusal_of(const std::string& path, std::int64_t t,
                       const std::function<void()>& damage) {
  H5mdReader reader(path);
  EXPECT_FALSE(reader.position_storage().empty());
  damage();
  std::vector<Vec3<float>> p(atoms);
  return test::refusal([&] { reader.read_frame(t, p.data()); });
}

TEST(H5mdDirect, DamagedStorageIsRefusedNamingFileDatasetAndFrame) {
  const auto v = coordinates();
  const std::string path = temp_path("damaged.h5");
  const std::string where = path + ": particles/all/position/value: [9] cannot read this frame (";
  // Contiguous and chunked data cut short once open: the frame's bytes lie past the end.
  for (const std::size_t k : {0, 2}) {
    write_positions(path, storages()[k], v);
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const auto size = off_t(in.tellg());
    const std::string message =
        refusal_of(path, 9, [&] { ASSERT_EQ(::truncate(path.c_str(), size - 100), 0); });
    EXPECT_NE(message.find(where), std::string::npos) << message;
    EXPECT_NE(message.find("end past the end of the file, " + std::to_string(size - 100) +
                           " bytes; truncated or damaged file?)"),
              std::string::npos)
        << message;
  }
  // A deflate stream overwritten: zlib's refusal, never a crash or a hang.
  write_positions(path, storages()[4], v);
  const haddr_t address = last_chunk_address(path);
  const std::string message = refusal_of(path, 9, [&] {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(std::streamoff(address + 2));
    for (int i = 0; i < 32; ++i) file.put(char(0xff));
  });
  EXPECT_NE(message.find(where + "the chunk at [9, 0, 0]: deflate: "), std::string::npos)
      << message;
  std::remove(path.c_str());
}

// A chunk index giving a raw chunk another size than its bytes, or a deflated one more than
// deflate can make of them, is refused before anything is read.
TEST(H5mdDirect, ChunksOfImpossibleSizesAreRefused) {
  const auto v = coordinates();
  const std::string path = temp_path("sizes.h5");
  const std::string where = path + ": particles/all/position/value: [9] cannot read this frame (";
  write_positions(path, storages()[2], v);  // raw, one frame of 20 x 3 floats a chunk
  set_last_chunk_size(path, 200);
  EXPECT_EQ(refusal_of(path, 9, [] {}),
            where + "the chunk at [9, 0, 0] is stored in 200 bytes, expected 240; damaged file?)");
  write_positions(path, storages()[4], v);  // deflate
  set_last_chunk_size(path, 1000000);
  const std::string message = refusal_of(path, 9, [] {});
  EXPECT_NE(message.find(where + "the chunk at [9, 0, 0] is stored in 1000000 bytes, expected at "
                                 "most "),
            std::string::npos)
      << message;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kmol::io
