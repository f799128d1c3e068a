// Writers of scattering results (scattering_output.hpp).
#include "drivers/library/scattering_output.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "drivers/library/atomic_write.hpp"
#include "drivers/library/plot_script.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"

namespace kmol {
namespace {

using io::Hid;

void write_text(const std::string& path, const std::string& text) {
  write_atomically(path, [&](const std::string& temporary) {
    std::ofstream out(temporary);
    out << text;
    if (!out.flush()) throw InputError({path, "", -1}, "cannot write the file");
  });
}

void write_doubles(hid_t group, const std::string& name, const std::vector<double>& values,
                   std::size_t rows, const std::string& unit) {
  if (values.empty()) return;
  const hsize_t dims[2] = {hsize_t(rows), hsize_t(values.size() / rows)};
  Hid space(H5Screate_simple(rows > 1 ? 2 : 1, rows > 1 ? dims : dims + 1, nullptr));
  Hid properties = io::untimed_dataset_properties();
  Hid d(H5Dcreate2(group, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, properties.get(),
                   H5P_DEFAULT));
  H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  if (!unit.empty()) io::write_string_attribute(d.get(), "unit", unit);
}

}  // namespace

void write_scattering_dat(const std::string& path, const ScatteringReport& report) {
  const ScatteringResult& r = *report.result;
  const double scale = report.nm ? 10.0 : 1.0;
  std::string text;
  for (const auto& line : report.header) text += "# " + line + "\n";
  text += fmt::format("# columns: q ({}), I(q) ({}{}), sigma(q) (standard error over blocks)\n",
                      report.nm ? "1/nm" : "1/Angstrom", report.intensity_unit,
                      report.per_atom ? " per atom" : "");
  for (std::size_t k = 0; k < r.q.size(); ++k)
    text += fmt::format("{:.6f} {:.9e} {:.4e}\n", r.q[k] * scale, r.intensity[k], r.sigma[k]);
  write_text(path, text);
}

void write_scattering_xvg(const std::string& path, const ScatteringReport& report) {
  const ScatteringResult& r = *report.result;
  std::string text;
  for (const auto& line : report.header) text += "# " + line + "\n";
  text += "@    title \"I(q)\"\n@    xaxis  label \"q (nm^-1)\"\n";
  text += fmt::format("@    yaxis  label \"I(q) ({}{})\"\n@TYPE xy\n", report.intensity_unit,
                      report.per_atom ? " per atom" : "");
  for (std::size_t k = 0; k < r.q.size(); ++k)
    text += fmt::format("{:10g}  {:10g}\n", r.q[k] * 10, r.intensity[k]);
  write_text(path, text);
}

void write_scattering_h5(const std::string& path, const ScatteringReport& report) {
  const ScatteringResult& r = *report.result;
  write_atomically(path, [&](const std::string& temporary) {
    io::QuietHdf5 quiet;
    const io::FileGroup out = io::create_file_group(temporary, path, "scattering");
    const Hid& group = out.group;
    io::write_header_attributes(group.get(), report.header);
    io::write_string_array_attribute(group.get(), "pairs", r.pair_names);
    const std::string unit = report.intensity_unit + (report.per_atom ? " per atom" : "");
    write_doubles(group.get(), "q", r.q, 1, "1/Angstrom");
    write_doubles(group.get(), "intensity", r.intensity, 1, unit);
    write_doubles(group.get(), "sigma", r.sigma, 1, unit);
    write_doubles(group.get(), "discretisation_error", r.error, 1, unit);
    write_doubles(group.get(), "partial_intensity", r.partial, r.pair_names.size(), unit);
    if (!r.structure.total.empty()) {
      write_doubles(group.get(), "structure_factor", r.structure.total, 1, "");
      write_doubles(group.get(), "faber_ziman", r.structure.faber_ziman, r.pair_names.size(), "");
      write_doubles(group.get(), "ashcroft_langreth", r.structure.ashcroft_langreth,
                    r.pair_names.size(), "");
    }
  });
}

void plot_scattering_png(const std::string& path, const ScatteringReport& report) {
  const std::string data = path + ".data-" + std::to_string(getpid()) + ".dat";
  ScatteringReport plain = report;
  plain.nm = false;
  write_scattering_dat(data, plain);
  run_plot_script(path, "plot_scattering.py", KMOL_SCATTERING_PLOT_SCRIPT, data, {});
}

}  // namespace kmol
