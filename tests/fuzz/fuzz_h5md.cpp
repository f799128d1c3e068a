// The H5MD reader, through an in-memory HDF5 file image. The input chooses the file's layout
// (groups, shapes and types of position, box, step, time and per-atom data, unit attributes) and
// its numbers, so the fuzzer explores what the reader makes of H5MD files rather than the HDF5
// library's own file-format parser.
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>

#include <string>
#include <vector>

#include "kmol/core/errors.hpp"
#include "kmol/core/io/h5md_reader.hpp"
#include "kmol/core/io/hdf5_handle.hpp"

namespace {

using kmol::io::Hid;

hid_t pick_type(FuzzedDataProvider& in) {
  const hid_t types[] = {H5T_IEEE_F32LE, H5T_IEEE_F64LE, H5T_STD_I32LE, H5T_STD_I64LE,
                         H5T_STD_U8LE};
  return types[in.ConsumeIntegralInRange<int>(0, 4)];
}

std::vector<hsize_t> pick_shape(FuzzedDataProvider& in, std::vector<hsize_t> usual) {
  if (in.ConsumeBool()) return usual;  // mostly the shape H5MD asks for, else anything small
  std::vector<hsize_t> shape(std::size_t(in.ConsumeIntegralInRange<int>(0, 4)));
  for (auto& d : shape) d = in.ConsumeIntegralInRange<hsize_t>(0, 5);
  return shape;
}

void dataset(FuzzedDataProvider& in, hid_t where, const char* name, std::vector<hsize_t> usual) {
  const std::vector<hsize_t> shape = pick_shape(in, usual);
  Hid space(shape.empty() ? H5Screate(H5S_SCALAR)
                          : H5Screate_simple(int(shape.size()), shape.data(), nullptr));
  hsize_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<double> values(n);
  for (auto& v : values)
    v = in.ConsumeBool() ? in.ConsumeFloatingPoint<double>()
                         : double(in.ConsumeIntegralInRange<int>(-3, 40));
  Hid set(
      H5Dcreate2(where, name, pick_type(in), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (set.valid() && n > 0)
    H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  if (set.valid() && in.ConsumeBool()) {
    const char* units[] = {"Angstrom", "nm", "pm", "A", "furlong", "", "ps"};
    kmol::io::write_string_attribute(set.get(), "unit", units[in.ConsumeIntegralInRange(0, 6)]);
  }
}

Hid group(hid_t where, const char* name) {
  return Hid(H5Gcreate2(where, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
}

// An H5MD-like file built from the input, as an image in memory.
std::vector<unsigned char> build(FuzzedDataProvider& in) {
  Hid access(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_fapl_core(access.get(), 1 << 16, 0);
  Hid file(H5Fcreate("fuzz.h5", H5F_ACC_TRUNC, H5P_DEFAULT, access.get()));
  const hsize_t frames = in.ConsumeIntegralInRange<hsize_t>(0, 4),
                atoms = in.ConsumeIntegralInRange<hsize_t>(0, 6);
  if (in.ConsumeBool()) {
    Hid particles = group(file.get(), "particles");
    const int groups = in.ConsumeIntegralInRange(1, 2);
    for (int g = 0; g < groups; ++g) {
      Hid atoms_group = group(particles.get(), g == 0 ? "all" : "water");
      if (in.ConsumeBool()) {
        Hid position = group(atoms_group.get(), "position");
        dataset(in, position.get(), "value", {frames, atoms, 3});
        if (in.ConsumeBool()) dataset(in, position.get(), "step", {frames});
        if (in.ConsumeBool()) dataset(in, position.get(), "time", {frames});
      }
      if (in.ConsumeBool()) {
        Hid velocity = group(atoms_group.get(), "velocity");
        dataset(in, velocity.get(), "value", {frames, atoms, 3});
      }
      if (in.ConsumeBool()) {
        Hid box = group(atoms_group.get(), "box");
        if (in.ConsumeBool())
          kmol::io::write_int_attribute(box.get(), "dimension", {in.ConsumeIntegralInRange(0, 4)});
        if (in.ConsumeBool()) {
          std::vector<std::string> boundary;
          const int n = in.ConsumeIntegralInRange(0, 4);
          for (int d = 0; d < n; ++d) boundary.push_back(in.ConsumeBool() ? "periodic" : "none");
          kmol::io::write_string_array_attribute(box.get(), "boundary", boundary);
        }
        if (in.ConsumeBool()) {
          dataset(in, box.get(), "edges", {3});
        } else if (in.ConsumeBool()) {
          Hid edges = group(box.get(), "edges");
          dataset(in, edges.get(), "value", {frames, 3, 3});
          if (in.ConsumeBool()) dataset(in, edges.get(), "step", {frames});
        }
      }
      for (const char* name : {"species", "charge", "mass", "id"})
        if (in.ConsumeBool()) dataset(in, atoms_group.get(), name, {atoms});
    }
  }
  H5Fflush(file.get(), H5F_SCOPE_GLOBAL);
  const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
  std::vector<unsigned char> image(size > 0 ? std::size_t(size) : 0);
  if (size > 0) H5Fget_file_image(file.get(), image.data(), image.size());
  return image;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  std::vector<unsigned char> image;
  {
    kmol::io::QuietHdf5 quiet;  // layouts HDF5 itself refuses are simply left out
    image = build(in);
  }
  if (image.empty()) return 0;
  try {
    const std::string group = in.ConsumeBool() ? "" : "water";
    kmol::io::H5mdReader reader(image.data(), image.size(), "fuzz.h5", group);
    const std::int64_t n = reader.n_atoms();
    std::vector<kmol::Vec3<double>> positions(static_cast<std::size_t>(n)),
        velocities(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < reader.n_frames(); ++t) {
      (void)reader.frame_info(t);
      reader.read_frame(t, positions.data(), reader.has_velocities() ? velocities.data() : nullptr);
    }
  } catch (const kmol::InputError&) {
  }
  return 0;
}
