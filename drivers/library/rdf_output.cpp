#include "drivers/library/rdf_output.hpp"

#include <fmt/core.h>
#include <fmt/os.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "drivers/library/atomic_write.hpp"
#include "drivers/library/plot_script.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/names.hpp"
#include "kmol/core/runtime.hpp"

#ifndef KMOL_PLOT_SCRIPT
#define KMOL_PLOT_SCRIPT ""
#endif

namespace kmol {

using io::Hid;

namespace {

// The axis label of each normalisation's g.
constexpr Named<RdfNormalization> y_labels[] = {
    {RdfNormalization::rdf, "g(r)"},
    {RdfNormalization::density, "rho(r) (1/Angstrom^3)"},
    {RdfNormalization::none, "pairs per frame"}};

std::string ylabel(RdfNormalization mode) { return name_of(y_labels, mode); }

}  // namespace

// As gmx rdf writes it: r in nm, the selections in the legends.
void write_gmx_xvg(const std::string& path, const RdfReport& report) {
  write_atomically(path, [&](const std::string& temporary) {
    auto f = fmt::output_file(temporary);
    f.print("# This file was created by kmol {} in gmx rdf's conventions\n", kmol_version());
    for (const auto& line : report.header) f.print("# {}\n", line);
    const char* y = report.rdf.mode == RdfNormalization::rdf       ? "g(r)"
                    : report.rdf.mode == RdfNormalization::density ? "number density (nm\\S-3\\N)"
                                                                   : "pairs per nm";
    f.print("@    title \"Radial distribution\"\n");
    f.print("@    xaxis  label \"r (nm)\"\n");
    f.print("@    yaxis  label \"{}\"\n", y);
    f.print("@TYPE xy\n");
    f.print("@ subtitle \"reference {}\"\n", report.selections.at(0));
    f.print("@ legend on\n@ s0 legend \"{}\"\n", report.selections.at(1));
    if (report.blocks) f.print("@ s1 legend \"standard error\"\n");
    for (std::size_t k = 0; k < report.rdf.g.size(); ++k) {
      f.print("{:10.4f} {:12.6f}", report.rdf.centres[k], report.rdf.g[k]);
      if (report.blocks) f.print(" {:12.6f}", report.blocks->g_error[k]);
      f.print("\n");
    }
  });
}

void write_rdf_xvg(const std::string& path, const RdfReport& report) {
  if (report.gmx) return write_gmx_xvg(path, report);
  write_atomically(path, [&](const std::string& temporary) {
    auto f = fmt::output_file(temporary);
    f.print("# This file was created by kmol {}\n", kmol_version());
    for (const auto& line : report.header) f.print("# {}\n", line);
    f.print("# columns: r (Angstrom, bin centre), {}, n(r) (cumulative coordination number){}\n",
            ylabel(report.rdf.mode),
            report.blocks ? ", the standard errors of both (blocks of frames)" : "");
    f.print("@    title \"Radial distribution\"\n");
    f.print("@    xaxis  label \"r (\\cE\\C)\"\n");
    f.print("@    yaxis  label \"{}\"\n", ylabel(report.rdf.mode));
    f.print("@TYPE xy\n");
    f.print("@ s0 legend \"{}\"\n@ s1 legend \"n(r)\"\n", ylabel(report.rdf.mode));
    if (report.blocks)
      f.print("@ s2 legend \"{} standard error\"\n@ s3 legend \"n(r) standard error\"\n",
              ylabel(report.rdf.mode));
    for (std::size_t k = 0; k < report.rdf.g.size(); ++k) {
      f.print("{:12.6f} {:14.8g} {:14.8g}", report.rdf.centres[k], report.rdf.g[k],
              report.rdf.coordination[k]);
      if (report.blocks)
        f.print(" {:14.8g} {:14.8g}", report.blocks->g_error[k],
                report.blocks->coordination_error[k]);
      f.print("\n");
    }
  });
}

void write_rdf_csv(const std::string& path, const RdfReport& report) {
  write_atomically(path, [&](const std::string& temporary) {
    auto f = fmt::output_file(temporary);
    f.print("# kmol {} rdf; r in {}\n", kmol_version(),
            report.gmx ? "nm (gmx rdf's bins and normalisation)" : "Angstrom");
    for (const auto& line : report.header) f.print("# {}\n", line);
    f.print("r_low,r_high,r_centre,count,g,n{}\n", report.blocks ? ",g_std_error,n_std_error" : "");
    for (std::size_t k = 0; k < report.rdf.g.size(); ++k) {
      f.print("{:.6f},{:.6f},{:.6f},{},{:.10g},{:.10g}", report.rdf.edges[k],
              report.rdf.edges[k + 1], report.rdf.centres[k], report.counts[k], report.rdf.g[k],
              report.rdf.coordination[k]);
      if (report.blocks)
        f.print(",{:.10g},{:.10g}", report.blocks->g_error[k],
                report.blocks->coordination_error[k]);
      f.print("\n");
    }
  });
}

namespace {

void dataset(hid_t parent, const char* name, hid_t file_type, hid_t memory_type,
             std::vector<hsize_t> dims, const void* data, const char* unit = nullptr) {
  Hid space(H5Screate_simple(int(dims.size()), dims.data(), nullptr));
  Hid properties = io::untimed_dataset_properties();
  if (dims.size() == 2 && dims[0] > 0 && dims[1] > 0) {
    H5Pset_chunk(properties.get(), 2, dims.data());
    H5Pset_deflate(properties.get(), 4);
  }
  Hid d(
      H5Dcreate2(parent, name, file_type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT));
  if (!d.valid() || H5Dwrite(d.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw std::runtime_error(std::string("cannot write dataset ") + name);
  if (unit) io::write_string_attribute(d.get(), "unit", unit);
}

// The standard errors beside g and n, and each block's g and n with its frames.
void write_blocks(hid_t rdf, const RdfBlockErrors& b, const std::vector<std::int64_t>& starts) {
  const hsize_t n = b.g_error.size(), blocks = b.blocks.size();
  dataset(rdf, "g_std_error", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}, b.g_error.data());
  dataset(rdf, "n_std_error", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}, b.coordination_error.data());
  std::vector<double> g, coordination;
  std::vector<std::int64_t> frames;
  for (const Rdf& block : b.blocks) {
    g.insert(g.end(), block.g.begin(), block.g.end());
    coordination.insert(coordination.end(), block.coordination.begin(), block.coordination.end());
  }
  dataset(rdf, "block_g", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {blocks, n}, g.data());
  dataset(rdf, "block_n", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {blocks, n}, coordination.data());
  dataset(rdf, "block_first_frame", H5T_STD_I64LE, H5T_NATIVE_INT64, {hsize_t(starts.size())},
          starts.data());
  io::write_int_attribute(rdf, "block_frames", {int(b.frames_per_block)});
  io::write_int_attribute(rdf, "error_block_length", {int(b.blocking.block)});
  io::write_int_attribute(rdf, "error_converged", {int(b.blocking.converged)});
}

}  // namespace

void write_rdf_h5(const std::string& path, const RdfReport& report) {
  write_atomically(path, [&](const std::string& temporary) {
    io::QuietHdf5 quiet;
    const io::FileGroup out = io::create_file_group(temporary, path, "rdf");
    const Hid& rdf = out.group;
    io::write_string_attribute(rdf.get(), "creator", "kmol " + kmol_version());
    io::write_header_attributes(rdf.get(), report.header);
    const hsize_t n = report.rdf.g.size();
    dataset(rdf.get(), "edges", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n + 1}, report.rdf.edges.data(),
            "Angstrom");
    dataset(rdf.get(), "centres", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}, report.rdf.centres.data(),
            "Angstrom");
    dataset(rdf.get(), "counts", H5T_STD_U64LE, H5T_NATIVE_UINT64, {n}, report.counts.data());
    dataset(rdf.get(), "g", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}, report.rdf.g.data());
    dataset(rdf.get(), "n", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n}, report.rdf.coordination.data());
    dataset(rdf.get(), "frames", H5T_STD_I64LE, H5T_NATIVE_INT64, {hsize_t(report.frames.size())},
            report.frames.data());
    if (report.state) {
      const RunState& s = *report.state;
      std::vector<std::uint64_t> flat;
      for (std::int64_t k = 0; k < s.n_intervals(); ++k)
        flat.insert(flat.end(), s.interval_counts(k).begin(), s.interval_counts(k).end());
      dataset(rdf.get(), "interval_counts", H5T_STD_U64LE, H5T_NATIVE_UINT64,
              {hsize_t(s.n_intervals()), n}, flat.data());
      io::write_int_attribute(rdf.get(), "interval_frames", {int(s.interval())});
    }
    if (report.blocks) write_blocks(rdf.get(), *report.blocks, report.block_starts);
  });
}

void plot_rdf_png(const std::string& path, const RdfReport& report) {
  // The script reads a CSV of the values; both temporary files live beside the plot.
  const std::string data = path + ".data-" + std::to_string(getpid()) + ".csv";
  write_rdf_csv(data, report);
  std::string title;
  for (const auto& line : report.header)
    if (line.rfind("selections: ", 0) == 0) title = line.substr(12);
  run_plot_script(path, "plot_rdf.py", KMOL_PLOT_SCRIPT, data, {ylabel(report.rdf.mode), title});
}

void write_gmx_cn_xvg(const std::string& path, const RdfReport& report) {
  write_atomically(path, [&](const std::string& temporary) {
    auto f = fmt::output_file(temporary);
    f.print("# This file was created by kmol {} in gmx rdf's conventions (-cn)\n", kmol_version());
    for (const auto& line : report.header) f.print("# {}\n", line);
    f.print("@    title \"Cumulative Number RDF\"\n");
    f.print("@    xaxis  label \"r (nm)\"\n");
    f.print("@    yaxis  label \"number\"\n");
    f.print("@TYPE xy\n");
    f.print("@ subtitle \"reference {}\"\n", report.selections.at(0));
    f.print("@ legend on\n@ s0 legend \"{}\"\n", report.selections.at(1));
    const CumulativeNumber& cn = report.cumulative;
    for (std::size_t k = 0; k < cn.r.size(); ++k)
      f.print("{:10.4f} {:12.6f}\n", cn.r[k], cn.number[k]);
  });
}

void write_rdf_outputs(const RdfOutputs& outputs, const RdfReport& report) {
  if (report.blocks) {
    check_finite(report.blocks->g_error, "g_std_error");
    check_finite(report.blocks->coordination_error, "n_std_error");
  }
  check_finite(report.cumulative.number, "cumulative number (--cn)");
  if (!outputs.plot.empty()) plot_rdf_png(outputs.plot, report);
  if (!outputs.h5.empty()) write_rdf_h5(outputs.h5, report);
  if (!outputs.csv.empty()) write_rdf_csv(outputs.csv, report);
  if (!outputs.cn.empty()) write_gmx_cn_xvg(outputs.cn, report);
  if (!outputs.xvg.empty()) write_rdf_xvg(outputs.xvg, report);
}

}  // namespace kmol
