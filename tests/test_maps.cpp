// Map files and map comparison: MRC/CCP4 and OpenDX round trips, the MRC header checks (each
// malformed field named), axis orders; the global and local cross-correlation against a
// double-precision brute-force oracle on every backend.
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>

#include "kernels/correlation/correlation.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/map_check.hpp"
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

// An OpenDX file of `counts` ("nx ny nz"), `delta` per axis, `items` and the values given.
std::string opendx_text(const std::string& counts, const std::string& origin,
                        const std::string& delta, const std::string& items,
                        const std::string& values) {
  return "object 1 class gridpositions counts " + counts + "\norigin " + origin + "\ndelta " +
         delta + " 0 0\ndelta 0 " + delta + " 0\ndelta 0 0 " + delta +
         "\nobject 2 class gridconnections counts " + counts +
         "\nobject 3 class array type double rank 0 items " + items + " data follows\n" + values +
         "\n";
}

TEST(OpenDxMap, HeadersAndValuesBeyondTheLimitsAreRefusedNamingTheField) {
  const std::string eight = "1 2 3 4 5 6 7 8";
  struct Case {
    const char* name;
    std::string text;
    const char* field;
  };
  const std::vector<Case> cases = {
      // Counts whose product wraps 64 bits to the item count: refused before any allocation.
      {"wrapping-counts", opendx_text("4294967296 4294967296 1", "0 0 0", "1", "0", ""), "counts"},
      {"counts-past-2^36", opendx_text("100000 100000 100", "0 0 0", "1", "1000000000000", ""),
       "counts"},
      {"more-items-than-bytes", opendx_text("1000 1000 100", "0 0 0", "1", "100000000", eight),
       "data"},
      {"tiny-spacing", opendx_text("2 2 2", "0 0 0", "1e-38", "8", eight), "delta"},
      {"huge-spacing", opendx_text("2 2 2", "0 0 0", "1e30", "8", eight), "delta"},
      {"huge-origin", opendx_text("2 2 2", "0 1e30 0", "1", "8", eight), "origin"},
      {"value-past-float", opendx_text("2 2 2", "0 0 0", "1", "8", "1 2 3 4 5 6 7 3.4e39"), "data"},
      {"value-near-float-limit", opendx_text("2 2 2", "0 0 0", "1", "8", "1 2 3 3.4e38 5 6 7 8"),
       "data"},
  };
  for (const Case& c : cases) {
    const std::string path = temp_path(std::string(c.name) + ".dx");
    spill(path, std::vector<char>(c.text.begin(), c.text.end()));
    try {
      io::read_opendx(path);
      ADD_FAILURE() << "accepted " << c.name;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().field, c.field) << c.name << ": " << e.what();
      EXPECT_EQ(e.where().file, path);
    }
  }
  const std::string path = temp_path("in-range.dx");
  const std::string good = opendx_text("2 2 2", "-1e4 0 5", "0.001", "8", eight);
  spill(path, std::vector<char>(good.begin(), good.end()));
  EXPECT_EQ(io::read_opendx(path).values.size(), 8u);
}

TEST(MrcMap, CellsOriginsAndValuesOutOfRangeAreRefused) {
  const io::ScalarMap m = random_map(4, 4, 4, 5);
  const std::string good = temp_path("range.mrc");
  io::write_mrc(good, m);
  const std::vector<char> original = slurp(good);
  auto real = [](int w, float v) {
    return [w, v](std::vector<char>& b) { std::memcpy(b.data() + 4 * w, &v, 4); };
  };
  const std::vector<std::pair<const char*, std::function<void(std::vector<char>&)>>> cases = {
      {"cella", real(10, 1e-38f)},     {"cella", real(12, 1e30f)},
      {"origin", real(50, 1e30f)},     {"data", real(256 + 7, 3.4e38f)},
      {"data", real(256 + 9, -1e31f)},
  };
  for (const auto& [field, corrupt] : cases) {
    std::vector<char> bytes = original;
    corrupt(bytes);
    const std::string path = temp_path(std::string("range_") + field + ".mrc");
    spill(path, bytes);
    try {
      io::read_mrc(path);
      ADD_FAILURE() << "accepted a bad " << field;
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().field, field) << e.what();
    }
  }
}

TEST(MapCheck, NonFiniteAndEmptyMapsAreRefusedNamingTheCause) {
  const Grid grid{{0, 0, 0}, {0.5, 0.5, 0.5}, {2, 3, 4}};
  std::vector<float> values(24, 1.0f);
  const MapExpectation density{"density map", "out.dx", "a radius out of range", true,
                               "no atom reaches the lattice"};
  EXPECT_NO_THROW(check_map(grid, values.data(), density));
  values[grid.index(1, 2, 3)] = NAN;
  values[0] = INFINITY;
  try {
    check_map(grid, values.data(), density);
    ADD_FAILURE() << "NaN map accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("out.dx: the density map has 2 non-finite values of 24"), std::string::npos)
        << what;
    EXPECT_NE(what.find("(0, 0, 0)"), std::string::npos) << what;
    EXPECT_NE(what.find("a radius out of range"), std::string::npos) << what;
  }
  std::vector<double> zeros(24, 0.0);
  EXPECT_THROW(check_map(grid, zeros.data(), density), InputError);
  // A potential of zero charges is zero everywhere: an answer, not an empty map.
  EXPECT_NO_THROW(check_map(grid, zeros.data(), {"potential map", "", "", false, ""}));
  std::vector<std::uint16_t> half(24, 0x3c00);  // 1.0
  EXPECT_NO_THROW(check_half_map(grid, half.data(), density));
  half[5] = 0x7c00;  // infinity: a density past 65504
  EXPECT_THROW(check_half_map(grid, half.data(), density), InputError);
  std::fill(half.begin(), half.end(), std::uint16_t(0x8000));  // -0
  EXPECT_THROW(check_half_map(grid, half.data(), density), InputError);
}

TEST(GridAround, TwoAtomsStretchingTheLatticeTogetherAreNamedUpFront) {
  // Two damaged coordinates on opposite sides: without either alone the lattice is still
  // stretched (the single-atom test passes it), without both it is 101^3 points.
  std::vector<Vec3<double>> xyz;
  for (int i = 0; i < 27; ++i) xyz.push_back({5.0 * (i % 3), 5.0 * (i / 3 % 3), 5.0 * (i / 9)});
  xyz[6] = {0, -2e4, 0};
  xyz[20] = {5, 9e5, 5};
  try {
    grid_around(xyz.data(), std::int64_t(xyz.size()), 1.5, 2);
    ADD_FAILURE() << "a lattice two atoms stretch accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.where().line, 21) << what;
    EXPECT_NE(what.find("atom 21 at (5, 9e+05, 5) A and 1 other atom lie far from the rest"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("the other atoms need 11 x 11 x 11"), std::string::npos) << what;
  }
  // Spread evenly along y, the same span is the spacing's: the lattice is made.
  for (int i = 0; i < 27; ++i) xyz[std::size_t(i)].y = -2e4 + i * (9.2e5 / 26);
  EXPECT_NO_THROW(grid_around(xyz.data(), std::int64_t(xyz.size()), 1.5, 2));
}

TEST(GridAround, AnAtomStretchingTheLatticeIsNamedUpFront) {
  // 27 atoms in a 10 A cube and one 1e5 A away along y: 101 x 200,101 x 101 points at 0.5 A.
  std::vector<Vec3<double>> xyz;
  for (int i = 0; i < 27; ++i) xyz.push_back({5.0 * (i % 3), 5.0 * (i / 3 % 3), 5.0 * (i / 9)});
  const Grid compact = grid_around(xyz.data(), std::int64_t(xyz.size()), 0.5, 20);
  EXPECT_EQ(compact.counts, (std::array<std::int64_t, 3>{101, 101, 101}));
  std::vector<std::string> names(28, "C");
  names[20] = "NA";
  xyz.insert(xyz.begin() + 20, Vec3<double>{5, 1e5, 5});
  try {
    grid_around(xyz.data(), std::int64_t(xyz.size()), 0.5, 20, names.data());
    ADD_FAILURE() << "a lattice stretched 2,000 times accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.where().line, 21) << what;
    EXPECT_NE(what.find("atom 21 (NA) at (5, 1e+05, 5) A"), std::string::npos) << what;
    EXPECT_NE(what.find("101 x 200081 x 101"), std::string::npos) << what;
    EXPECT_NE(what.find("the other atoms need 101 x 101 x 101"), std::string::npos) << what;
    EXPECT_NE(what.find("--spacing"), std::string::npos) << what;
  }
  // Coordinates of 1e30 or 3.4e38: past every limit, named all the same.
  xyz[20] = {5, 3.4e38, 5};
  try {
    grid_around(xyz.data(), std::int64_t(xyz.size()), 0.5, 20);
    ADD_FAILURE() << "an atom at 3.4e38 A accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("atom 21 at (5, 3.4e+38, 5) A"), std::string::npos)
        << e.what();
  }
  // Spread evenly, or of a few atoms, a large lattice is the spacing's, not an atom's: it is made.
  for (auto& p : xyz) p = {p.x * 15, p.y * 15, p.z * 15};
  xyz[20] = {75, 75, 75};
  EXPECT_EQ(grid_around(xyz.data(), std::int64_t(xyz.size()), 0.5, 0).points(), 301 * 301 * 301);
  const Vec3<double> corners[2] = {{0, 0, 0}, {150, 150, 150}};
  EXPECT_EQ(grid_around(corners, 2, 0.5, 0).points(), 301 * 301 * 301);
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
