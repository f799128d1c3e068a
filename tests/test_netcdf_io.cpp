// AMBER NetCDF trajectories read through libnetcdf: the same frames give the same counts as H5MD
// in cubic, orthorhombic and triclinic cells, classic and NetCDF-4 files alike, and a file
// without `coordinates` is refused by name. Files are written here through libnetcdf.
#include <gtest/gtest.h>
#include <netcdf.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

#include "drivers/library/frame_pipeline.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_writer.hpp"
#include "support/trajectory_counts.hpp"

namespace kmol {
namespace {

std::string scratch(const std::string& name) {
  return testing::TempDir() + "kmol_netcdf_" + std::to_string(::getpid()) + "_" + name;
}

struct Cell {
  const char* name;
  double lengths[3], angles[3];
  Vec3<double> vectors[3];  // what the lengths and angles mean, Angstrom
};

const double d = 26, h = 26 / std::sqrt(2.0);
const Cell cells[] = {
    {"cubic", {24, 24, 24}, {90, 90, 90}, {{24, 0, 0}, {0, 24, 0}, {0, 0, 24}}},
    {"orthorhombic", {22, 25, 28}, {90, 90, 90}, {{22, 0, 0}, {0, 25, 0}, {0, 0, 28}}},
    // The xy-square rhombic dodecahedron: alpha = beta = 60, gamma = 90 degrees.
    {"dodecahedron", {d, d, d}, {60, 60, 90}, {{d, 0, 0}, {0, d, 0}, {d / 2, d / 2, h}}},
};

void ok(int status) { ASSERT_EQ(status, NC_NOERR) << nc_strerror(status); }

// `frames` frames of a random gas in the cell, AMBER convention; positions kept for the check.
void write_amber(const std::string& path, const Cell& c, int atoms, int frames, int format,
                 bool with_coordinates, std::vector<std::vector<float>>* kept) {
  int file, frame, atom, spatial, cell_spatial, cell_angular;
  ok(nc_create(path.c_str(), NC_CLOBBER | format, &file));
  ok(nc_put_att_text(file, NC_GLOBAL, "Conventions", 5, "AMBER"));
  ok(nc_def_dim(file, "frame", NC_UNLIMITED, &frame));
  ok(nc_def_dim(file, "atom", std::size_t(atoms), &atom));
  ok(nc_def_dim(file, "spatial", 3, &spatial));
  ok(nc_def_dim(file, "cell_spatial", 3, &cell_spatial));
  ok(nc_def_dim(file, "cell_angular", 3, &cell_angular));
  int coordinates = -1, lengths, angles, time;
  const int xyz[3] = {frame, atom, spatial}, l[2] = {frame, cell_spatial},
            a[2] = {frame, cell_angular};
  if (with_coordinates) {
    ok(nc_def_var(file, "coordinates", NC_FLOAT, 3, xyz, &coordinates));
    ok(nc_put_att_text(file, coordinates, "units", 8, "angstrom"));
  }
  ok(nc_def_var(file, "time", NC_FLOAT, 1, &frame, &time));
  ok(nc_def_var(file, "cell_lengths", NC_DOUBLE, 2, l, &lengths));
  ok(nc_put_att_text(file, lengths, "units", 8, "angstrom"));
  ok(nc_def_var(file, "cell_angles", NC_DOUBLE, 2, a, &angles));
  ok(nc_put_att_text(file, angles, "units", 6, "degree"));
  ok(nc_enddef(file));
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> u(0, 1);
  for (int f = 0; f < frames; ++f) {
    std::vector<float> x(3 * std::size_t(atoms));
    for (int i = 0; i < atoms; ++i) {
      const double s[3] = {u(random), u(random), u(random)};
      for (int k = 0; k < 3; ++k)
        x[3 * i + k] = float(s[0] * (&c.vectors[0].x)[k] + s[1] * (&c.vectors[1].x)[k] +
                             s[2] * (&c.vectors[2].x)[k]);
    }
    const std::size_t at[3] = {std::size_t(f), 0, 0}, n[3] = {1, std::size_t(atoms), 3};
    const std::size_t cell_n[2] = {1, 3};
    const float t = float(f);
    if (with_coordinates) ok(nc_put_vara_float(file, coordinates, at, n, x.data()));
    ok(nc_put_var1_float(file, time, at, &t));
    ok(nc_put_vara_double(file, lengths, at, cell_n, c.lengths));
    ok(nc_put_vara_double(file, angles, at, cell_n, c.angles));
    if (kept) kept->push_back(std::move(x));
  }
  ok(nc_close(file));
}

TEST(NetcdfIo, SameCountsAsH5mdInEveryCell) {
  const int atoms = 1000, frames = 4;
  for (const Cell& c : cells) {
    for (int format : {NC_64BIT_OFFSET, NC_NETCDF4}) {
      SCOPED_TRACE(std::string(c.name) + (format == NC_NETCDF4 ? " netcdf-4" : " classic"));
      const std::string path = scratch(std::string(c.name) + ".nc");
      std::vector<std::vector<float>> written;
      write_amber(path, c, atoms, frames, format, true, &written);
      const auto reader = io::open_trajectory_file(path);
      EXPECT_EQ(reader->description(), "AMBER NetCDF");
      ASSERT_EQ(reader->n_frames(), frames);
      ASSERT_EQ(reader->n_atoms(), atoms);
      // The cell vectors from lengths and angles; H5MD gets the positions exactly as written.
      const std::string h5 = path + ".h5";
      io::H5mdWriter writer(h5, atoms, {});
      std::vector<Vec3<double>> p(static_cast<std::size_t>(atoms));
      for (int f = 0; f < frames; ++f) {
        const io::FrameInfo info = reader->read_frame(f, p.data());
        for (int v = 0; v < 3; ++v) {
          EXPECT_NEAR(info.box.edges[v].x, c.vectors[v].x, 1e-9);
          EXPECT_NEAR(info.box.edges[v].y, c.vectors[v].y, 1e-9);
          EXPECT_NEAR(info.box.edges[v].z, c.vectors[v].z, 1e-9);
        }
        for (int i = 0; i < atoms; ++i) EXPECT_EQ(p[i].y, double(written[f][3 * i + 1]));
        BoxSpec box = c.angles[0] == 90
                          ? BoxSpec::orthorhombic(c.lengths[0], c.lengths[1], c.lengths[2])
                          : BoxSpec::triclinic(c.vectors[0], c.vectors[1], c.vectors[2]);
        writer.append(io::H5mdFrameView<double>{f, double(f), box, p.data()});
      }
      writer.close();
      const auto h5md = io::open_trajectory_file(h5);
      test::expect_same_counts(*reader, *h5md, 50000u);
      std::remove(h5.c_str());
      std::remove(path.c_str());
    }
  }
}

TEST(NetcdfIo, FileWithoutCoordinatesIsRefusedByName) {
  const std::string path = scratch("nocoordinates.nc");
  write_amber(path, cells[0], 10, 2, NC_64BIT_OFFSET, false, nullptr);
  try {
    io::open_trajectory_file(path);
    ADD_FAILURE() << "a NetCDF file without coordinates was opened";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find("nocoordinates.nc: coordinates: no 'coordinates' variable"),
        std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
}

// A classic file whose header libnetcdf would trust into an endless allocation (an attribute's
// type overwritten, an attribute's length past the file) is refused by kmol's check, naming the
// file and the field, before libnetcdf reads it. All three CDF versions; each file also opens
// whole, so the check refuses only the damage.
TEST(NetcdfIo, DamagedClassicHeaderIsRefusedByName) {
  for (int format : {NC_CLASSIC_MODEL, NC_64BIT_OFFSET, NC_64BIT_DATA}) {
    SCOPED_TRACE(format);
    const std::string path = scratch("header.nc");
    write_amber(path, cells[0], 10, 2, format, true, nullptr);
    EXPECT_EQ(io::open_trajectory_file(path)->n_atoms(), 10);
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), {});
    const std::size_t name = bytes.find("Conventions");
    ASSERT_NE(name, std::string::npos);
    const int width = format == NC_64BIT_DATA ? 8 : 4;
    const struct {
      std::size_t at;
      const char* value;
      const char* expected;
    } damages[] = {
        {name + 12, "\x00\x00\x00\x4d", "header.nc: attribute type: damaged NetCDF header"},
        {name + 16, "\x7f\xff\xff\xff\x7f\xff\xff\xff",
         "header.nc: attribute length: damaged NetCDF header"},
    };
    for (const auto& d : damages) {
      file.seekp(std::streamoff(d.at));
      file.write(d.value, d.at == name + 12 ? 4 : width);
      file.flush();
      try {
        io::open_trajectory_file(path);
        ADD_FAILURE() << "a damaged header was opened";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(d.expected), std::string::npos) << e.what();
      }
      file.seekp(std::streamoff(d.at));
      file.write(bytes.data() + d.at, d.at == name + 12 ? 4 : width);
      file.flush();
    }
  }
  std::remove(scratch("header.nc").c_str());
}

// Coordinates finite as stored in nanometres but past float's range in Angstrom are refused by
// the single-precision read, naming the frame; the double-precision read holds them.
TEST(NetcdfIo, CoordinatesThatOverflowOnceScaledAreRefused) {
  const std::string path = scratch("overflow.nc");
  int file, frame, atom, spatial, coordinates;
  ok(nc_create(path.c_str(), NC_CLOBBER, &file));
  ok(nc_def_dim(file, "frame", NC_UNLIMITED, &frame));
  ok(nc_def_dim(file, "atom", 2, &atom));
  ok(nc_def_dim(file, "spatial", 3, &spatial));
  const int xyz[3] = {frame, atom, spatial};
  ok(nc_def_var(file, "coordinates", NC_FLOAT, 3, xyz, &coordinates));
  ok(nc_put_att_text(file, coordinates, "units", 9, "nanometer"));
  ok(nc_enddef(file));
  const float values[6] = {0, 0, 0, 1, 3e38f, 1};
  const std::size_t at[3] = {0, 0, 0}, n[3] = {1, 2, 3};
  ok(nc_put_vara_float(file, coordinates, at, n, values));
  ok(nc_close(file));
  const auto reader = io::open_trajectory_file(path);
  std::vector<Vec3<double>> wide(2);
  reader->read_frame(0, wide.data());
  EXPECT_EQ(wide[1].y, 10 * double(3e38f));
  std::vector<Vec3<float>> narrow(2);
  try {
    reader->read_frame(0, narrow.data());
    ADD_FAILURE() << "an overflowing coordinate was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "overflow.nc: frame: [0] atom 1's coordinates overflow once scaled to Angstrom"),
              std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
}

// md restarts read AMBER velocities: the stored values times scale_factor (AMBER's 20.455 turns
// its internal unit into Angstrom/ps), in every frame.
TEST(NetcdfIo, VelocitiesScaledAsAmberStoresThem) {
  const std::string path = scratch("velocities.nc");
  const int atoms = 30, frames = 2;
  write_amber(path, cells[1], atoms, frames, NC_64BIT_OFFSET, true, nullptr);
  {
    const auto reader = io::open_trajectory_file(path);
    EXPECT_FALSE(reader->has_velocities(0));
  }
  int file, coordinates, velocities;
  ok(nc_open(path.c_str(), NC_WRITE, &file));
  ok(nc_inq_varid(file, "coordinates", &coordinates));
  int dims[3];
  ok(nc_inq_vardimid(file, coordinates, dims));
  ok(nc_redef(file));
  ok(nc_def_var(file, "velocities", NC_FLOAT, 3, dims, &velocities));
  ok(nc_put_att_text(file, velocities, "units", 19, "angstrom/picosecond"));
  const double scale = 20.455;
  ok(nc_put_att_double(file, velocities, "scale_factor", NC_DOUBLE, 1, &scale));
  ok(nc_enddef(file));
  std::vector<float> stored(3 * atoms);
  for (int f = 0; f < frames; ++f) {
    for (int k = 0; k < 3 * atoms; ++k) stored[std::size_t(k)] = 0.01f * float(k - 40 + f);
    const std::size_t at[3] = {std::size_t(f), 0, 0}, n[3] = {1, std::size_t(atoms), 3};
    ok(nc_put_vara_float(file, velocities, at, n, stored.data()));
  }
  ok(nc_close(file));
  const auto reader = io::open_trajectory_file(path);
  std::vector<Vec3<double>> p(atoms), v(atoms);
  for (int f = 0; f < frames; ++f) {
    ASSERT_TRUE(reader->has_velocities(f));
    reader->read_frame_with_velocities(f, p.data(), v.data());
    for (int i = 0; i < atoms; ++i) {
      EXPECT_NEAR(v[i].x, scale * double(0.01f * float(3 * i - 40 + f)), 1e-5);
      EXPECT_NEAR(v[i].z, scale * double(0.01f * float(3 * i + 2 - 40 + f)), 1e-5);
    }
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kmol
