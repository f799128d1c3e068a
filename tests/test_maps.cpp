// Map files and map comparison: MRC/CCP4 and OpenDX round trips, the MRC header checks (each
// malformed field named), axis orders; the global and local cross-correlation against a
// double-precision brute-force oracle on every backend.
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "kernels/correlation/correlation.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/opendx.hpp"
#include "support/backend_test.hpp"

namespace {

using namespace kmol;

io::ScalarMap random_map(std::int64_t nx, std::int64_t ny, std::int64_t nz, unsigned seed) {
  io::ScalarMap m;
  m.grid = {{-4.5, 2.25, 10}, {1.5, 1.25, 2.0}, {nx, ny, nz}};
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(1, 0.5);
  for (std::int64_t p = 0; p < nx * ny * nz; ++p) m.values.push_back(normal(gen));
  return m;
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "kmol_maps_" + name;
}

std::vector<char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void spill(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(MrcMap, RoundTrip) {
  const io::ScalarMap m = random_map(5, 4, 3, 1);
  const std::string path = temp_path("round.mrc");
  io::write_mrc(path, m);
  const io::ScalarMap back = io::read_mrc(path);
  EXPECT_EQ(back.grid.counts, m.grid.counts);
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(back.grid.spacing[std::size_t(a)], m.grid.spacing[std::size_t(a)], 1e-6);
  EXPECT_NEAR(back.grid.origin.y, 2.25, 1e-6);
  EXPECT_EQ(back.values, m.values);
}

TEST(MrcMap, AxisOrderAndNstartOrigin) {
  // Columns along z, rows along x, sections along y; no origin: nstart * spacing.
  io::ScalarMap m = random_map(2, 3, 4, 2);
  m.grid.origin = {0, 0, 0};
  const std::string path = temp_path("axes.mrc");
  io::write_mrc(path, m);
  std::vector<char> bytes = slurp(path);
  auto put = [&](int word, std::int32_t v) { std::memcpy(bytes.data() + 4 * word, &v, 4); };
  put(0, 4);   // nx: columns (z)
  put(1, 2);   // ny: rows (x)
  put(2, 3);   // nz: sections (y)
  put(4, -1);  // nxstart (z)
  put(16, 3);
  put(17, 1);
  put(18, 2);
  // Values in file order: column (z) fastest, then row (x), then section (y).
  std::vector<float> file;
  for (std::int64_t y = 0; y < 3; ++y)
    for (std::int64_t x = 0; x < 2; ++x)
      for (std::int64_t z = 0; z < 4; ++z)
        file.push_back(m.values[std::size_t((z * 3 + y) * 2 + x)]);
  std::memcpy(bytes.data() + 1024, file.data(), file.size() * 4);
  // The cell stays (x, y, z) = (3, 3.75, 8) A over sampling (2, 3, 4): spacings unchanged.
  spill(path, bytes);
  const io::ScalarMap back = io::read_mrc(path);
  EXPECT_EQ(back.grid.counts, (std::array<std::int64_t, 3>{2, 3, 4}));
  EXPECT_EQ(back.values, m.values);
  EXPECT_NEAR(back.grid.origin.z, -1 * 2.0, 1e-9);
}

// Each corruption is rejected with its field named.
TEST(MrcMap, RejectsMalformedHeadersNamingTheField) {
  const io::ScalarMap m = random_map(4, 4, 4, 3);
  const std::string good = temp_path("good.mrc");
  io::write_mrc(good, m);
  const std::vector<char> original = slurp(good);
  struct Case {
    const char* field;
    std::function<void(std::vector<char>&)> corrupt;
  };
  auto word = [](int w, std::int32_t v) {
    return [w, v](std::vector<char>& b) { std::memcpy(b.data() + 4 * w, &v, 4); };
  };
  auto real = [](int w, float v) {
    return [w, v](std::vector<char>& b) { std::memcpy(b.data() + 4 * w, &v, 4); };
  };
  const std::vector<Case> cases = {
      {"mode", word(3, 3)},
      {"nx", word(0, 0)},
      {"nz", word(2, -5)},
      {"mx", word(7, 0)},
      {"cella", real(11, -2.0f)},
      {"cellb", real(14, 60.0f)},
      {"mapc", word(17, 1)},
      {"map", [](std::vector<char>& b) { std::memcpy(b.data() + 208, "PAM ", 4); }},
      {"machst",
       [](std::vector<char>& b) {
         b[212] = 0x11;
         b[213] = 0x11;
       }},
      {"nsymbt", word(23, -8)},
      {"data", [](std::vector<char>& b) { b.resize(b.size() - 10); }},
      {"data", word(23, 64)},  // an extended header the file does not have
      {"header", [](std::vector<char>& b) { b.resize(600); }},
      // Counts claiming 400 GB in a small file: refused before any allocation (found by fuzzing).
      {"data", word(0, 1 << 30)},
      {"data", word(1, 1 << 20)},
      {"data",
       [](std::vector<char>& b) {  // nx ny nz whose product overflows 64 bits
         const std::int32_t big = std::int32_t(1) << 30;
         for (int w = 0; w < 3; ++w) std::memcpy(b.data() + 4 * w, &big, 4);
       }},
  };
  for (const Case& c : cases) {
    std::vector<char> bytes = original;
    c.corrupt(bytes);
    const std::string path = temp_path(std::string("bad_") + c.field + ".mrc");
    spill(path, bytes);
    try {
      io::read_mrc(path);
      ADD_FAILURE() << "accepted a bad " << c.field;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().field, c.field) << e.what();
      EXPECT_EQ(e.where().file, path);
    }
  }
}

TEST(OpenDxMap, RoundTripAndItemCountChecked) {
  const io::ScalarMap m = random_map(3, 5, 4, 4);
  const std::string path = temp_path("round.dx");
  io::write_opendx(path, m.grid, m.values.data(), "TEST");
  const io::ScalarMap back = io::read_opendx(path);
  EXPECT_EQ(back.grid.counts, m.grid.counts);
  EXPECT_NEAR(back.grid.spacing[1], 1.25, 1e-9);
  ASSERT_EQ(back.values.size(), m.values.size());
  for (std::size_t p = 0; p < m.values.size(); ++p)
    EXPECT_NEAR(back.values[p], m.values[p], 1e-5 * std::abs(m.values[p]));
  std::vector<char> text = slurp(path);
  std::string s(text.begin(), text.end());
  s.replace(s.find("items 60"), 8, "items 61");
  spill(path, std::vector<char>(s.begin(), s.end()));
  try {
    io::read_opendx(path);
    ADD_FAILURE() << "item count mismatch accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().field, "items");
  }
}

// Global and per-tile Pearson coefficients in double, straight from the definition.
double oracle_pearson(const std::vector<std::pair<double, double>>& v) {
  if (v.size() < 2) return 0;
  double ma = 0, mb = 0;
  for (auto [a, b] : v) {
    ma += a;
    mb += b;
  }
  ma /= double(v.size());
  mb /= double(v.size());
  double c = 0, va = 0, vb = 0;
  for (auto [a, b] : v) {
    c += (a - ma) * (b - mb);
    va += (a - ma) * (a - ma);
    vb += (b - mb) * (b - mb);
  }
  return va > 0 && vb > 0 ? c / std::sqrt(va * vb) : 0;
}

KMOL_BACKEND_TEST(CrossCorrelation, GlobalAndLocalMatchOracle) {
  const std::int64_t nx = 19, ny = 17, nz = 10;  // partial tiles on every axis
  const io::ScalarMap ref = random_map(nx, ny, nz, 5);
  io::ScalarMap sim = random_map(nx, ny, nz, 6);
  for (std::size_t p = 0; p < sim.values.size(); ++p)
    sim.values[p] = 0.7f * ref.values[p] + 0.5f * sim.values[p];
  for (const std::optional<double> threshold :
       {std::optional<double>(), std::optional<double>(1.1)}) {
    const Correlation c =
        cross_correlation(ExecSpace(), ref.grid, sim.values.data(), ref.values.data(), {threshold});
    std::vector<std::pair<double, double>> all;
    std::vector<std::vector<std::pair<double, double>>> tiles(std::size_t(3 * 3 * 2));
    for (std::int64_t k = 0; k < nz; ++k)
      for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) {
          const std::size_t p = std::size_t((k * ny + j) * nx + i);
          if (threshold && !(ref.values[p] > *threshold)) continue;
          all.push_back({sim.values[p], ref.values[p]});
          tiles[std::size_t(((k / 8) * 3 + j / 8) * 3 + i / 8)].push_back(
              {sim.values[p], ref.values[p]});
        }
    EXPECT_NEAR(c.global, oracle_pearson(all), 1e-9);
    EXPECT_EQ(c.voxels, std::int64_t(all.size()));
    EXPECT_GT(c.global, 0.5);
    ASSERT_EQ(c.local.size(), tiles.size());
    EXPECT_EQ(c.tiles.counts, (std::array<std::int64_t, 3>{3, 3, 2}));
    EXPECT_NEAR(c.tiles.origin.x, ref.grid.origin.x + 3.5 * ref.grid.spacing[0], 1e-12);
    for (std::size_t t = 0; t < tiles.size(); ++t)
      EXPECT_NEAR(c.local[t], oracle_pearson(tiles[t]), 1e-6) << "tile " << t;
  }
}

KMOL_BACKEND_TEST(CrossCorrelation, IdenticalAndConstantMaps) {
  const io::ScalarMap ref = random_map(9, 8, 8, 7);
  const Correlation same =
      cross_correlation(ExecSpace(), ref.grid, ref.values.data(), ref.values.data(), {});
  EXPECT_NEAR(same.global, 1.0, 1e-12);
  const std::vector<float> flat(ref.values.size(), 2.0f);
  const Correlation constant =
      cross_correlation(ExecSpace(), ref.grid, flat.data(), ref.values.data(), {});
  EXPECT_EQ(constant.global, 0.0);
}

}  // namespace
