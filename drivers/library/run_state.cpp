#include "drivers/library/run_state.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "drivers/library/cluster.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/io/hdf5_handle.hpp"
#include "kmol/core/stop.hpp"

namespace kmol {

using io::Hid;

RunState::RunState(std::int64_t positions, std::int64_t values, std::int64_t interval,
                   std::string fingerprint)
    : values_(values),
      interval_(interval),
      fingerprint_(std::move(fingerprint)),
      done_(positions, 0),
      inverse_volume_(positions, 0.0),
      sums_((positions + interval - 1) / interval,
            std::vector<std::uint64_t>(std::size_t(values), 0)) {}

void RunState::add(const FrameResult& r) {
  if (done_[r.position]) return;
  auto& sum = sums_[r.position / interval_];
  for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += r.counts[k];
  inverse_volume_[r.position] = r.inverse_volume;
  done_[r.position] = 1;
}

void RunState::reduce_over_ranks() {
  if (Cluster::size() <= 1) return;
  std::vector<std::uint64_t> flat;
  flat.reserve(sums_.size() * std::size_t(values_));
  for (const auto& sum : sums_) flat.insert(flat.end(), sum.begin(), sum.end());
  Cluster::sum(flat);
  for (std::size_t k = 0; k < sums_.size(); ++k)
    std::copy(flat.begin() + std::ptrdiff_t(k * std::size_t(values_)),
              flat.begin() + std::ptrdiff_t((k + 1) * std::size_t(values_)), sums_[k].begin());
  // A frame is done on one rank only; elsewhere its 1/V is 0, so the sum is that value exactly.
  for (std::size_t p = 0; p < done_.size(); ++p)
    if (!done_[p]) inverse_volume_[p] = 0;
  Cluster::sum_single_owner(inverse_volume_);
  Cluster::max(done_);
}

std::int64_t RunState::frames_done() const {
  std::int64_t n = 0;
  for (char d : done_) n += d ? 1 : 0;
  return n;
}

std::vector<std::uint64_t> RunState::total() const {
  std::vector<std::uint64_t> t(std::size_t(values_), 0);
  for (const auto& s : sums_)
    for (std::size_t k = 0; k < t.size(); ++k) t[k] += s[k];
  return t;
}

bool RunState::resize(std::int64_t positions) {
  for (std::size_t p = std::size_t(positions); p < done_.size(); ++p)
    if (done_[p]) return false;
  done_.resize(std::size_t(positions), 0);
  inverse_volume_.resize(std::size_t(positions), 0.0);
  sums_.resize(std::size_t((positions + interval_ - 1) / interval_),
               std::vector<std::uint64_t>(std::size_t(values_), 0));
  return true;
}

double RunState::mean_inverse_volume() const {
  double sum = 0;
  std::int64_t n = 0;
  for (std::size_t p = 0; p < done_.size(); ++p)
    if (done_[p]) {
      sum += inverse_volume_[p];
      ++n;
    }
  return n > 0 ? sum / double(n) : 0;
}

namespace {

void write_dataset(hid_t file, const char* name, hid_t file_type, hid_t memory_type,
                   std::vector<hsize_t> dims, const void* data) {
  Hid space(H5Screate_simple(int(dims.size()), dims.data(), nullptr));
  Hid dataset(
      H5Dcreate2(file, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!dataset.valid() ||
      H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw std::runtime_error(std::string("cannot write ") + name);
}

template <class V>
std::vector<V> read_dataset(hid_t file, const char* name, hid_t memory_type, std::size_t expected,
                            const std::string& path) {
  Hid dataset(H5Dopen2(file, name, H5P_DEFAULT));
  std::vector<V> values(expected);
  if (!dataset.valid() || io::dataset_shape(dataset.get()).empty() ||
      H5Sget_simple_extent_npoints(Hid(H5Dget_space(dataset.get())).get()) != hssize_t(expected) ||
      H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    throw InputError({path, name, -1}, "unreadable saved state; remove the file to start afresh");
  return values;
}

}  // namespace

void RunState::save(const std::string& path) const {
  TemporaryFile output(path);
  {
    io::QuietHdf5 quiet;
    Hid file(H5Fcreate(output.temporary().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    if (!file.valid()) throw InputError({path, "", -1}, "cannot write the resume state");
    io::write_string_attribute(file.get(), "kmol_run", fingerprint_);
    io::write_int_attribute(file.get(), "interval", {int(interval_)});
    const hsize_t p = done_.size();
    write_dataset(file.get(), "done", H5T_STD_U8LE, H5T_NATIVE_CHAR, {p}, done_.data());
    write_dataset(file.get(), "inverse_volume", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {p},
                  inverse_volume_.data());
    std::vector<std::uint64_t> flat;
    flat.reserve(sums_.size() * std::size_t(values_));
    for (const auto& s : sums_) flat.insert(flat.end(), s.begin(), s.end());
    write_dataset(file.get(), "interval_counts", H5T_STD_U64LE, H5T_NATIVE_UINT64,
                  {hsize_t(sums_.size()), hsize_t(values_)}, flat.data());
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0)
      throw InputError({path, "", -1}, "cannot write the resume state");
  }
  output.commit();
}

std::optional<RunState> RunState::load(const std::string& path, const std::string& fingerprint) {
  if (access(path.c_str(), F_OK) != 0) return std::nullopt;
  io::QuietHdf5 quiet;
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file.valid())
    throw InputError({path, "", -1}, "unreadable resume state; remove the file to start afresh");
  const auto saved = io::read_string_attribute(file.get(), "kmol_run");
  if (saved.empty() || saved[0] != fingerprint)
    throw InputError({path, "", -1}, "holds a partial run with other options (" +
                                         (saved.empty() ? "?" : saved[0]) + ")");
  Hid counts(H5Dopen2(file.get(), "interval_counts", H5P_DEFAULT));
  const auto shape = counts.valid() ? io::dataset_shape(counts.get()) : std::vector<hsize_t>{};
  if (shape.size() != 2)
    throw InputError({path, "interval_counts", -1}, "unreadable saved state; remove the file");
  Hid done_set(H5Dopen2(file.get(), "done", H5P_DEFAULT));
  const auto positions =
      done_set.valid() ? io::dataset_shape(done_set.get()) : std::vector<hsize_t>{};
  if (positions.size() != 1)
    throw InputError({path, "done", -1}, "unreadable saved state; remove the file");
  const std::int64_t p = std::int64_t(positions[0]), values = std::int64_t(shape[1]);
  int interval = 0;
  Hid interval_attribute(H5Aopen(file.get(), "interval", H5P_DEFAULT));
  if (!interval_attribute.valid() ||
      H5Aread(interval_attribute.get(), H5T_NATIVE_INT, &interval) < 0 || interval <= 0 ||
      (p + interval - 1) / interval != std::int64_t(shape[0]))
    throw InputError({path, "interval", -1}, "unreadable saved state; remove the file");
  RunState state(p, values, interval, fingerprint);
  state.done_ = read_dataset<char>(file.get(), "done", H5T_NATIVE_CHAR, std::size_t(p), path);
  state.inverse_volume_ =
      read_dataset<double>(file.get(), "inverse_volume", H5T_NATIVE_DOUBLE, std::size_t(p), path);
  const auto flat = read_dataset<std::uint64_t>(file.get(), "interval_counts", H5T_NATIVE_UINT64,
                                                std::size_t(shape[0]) * std::size_t(values), path);
  state.sums_.assign(shape[0], std::vector<std::uint64_t>(std::size_t(values)));
  for (std::size_t k = 0; k < shape[0]; ++k)
    std::copy(flat.begin() + k * values, flat.begin() + (k + 1) * values, state.sums_[k].begin());
  return state;
}

}  // namespace kmol
