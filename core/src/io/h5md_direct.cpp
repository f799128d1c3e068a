#include "h5md_direct.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "kmol/core/io/hdf5_handle.hpp"

namespace kmol::io {

namespace {

// Where one chunk lies, as HDF5's chunk index says.
struct ChunkPlace {
  haddr_t address = HADDR_UNDEF;
  hsize_t size = 0;
  unsigned skipped_filters = 0;  // bit i: filter i of the pipeline was not applied
};

enum class Filter { deflate, shuffle };

// Datasets of more dimensions than this are read through HDF5 (H5MD's have two or three).
constexpr int most_dimensions = 8;

std::string position_text(const std::vector<hsize_t>& origin) {
  std::string text;
  for (hsize_t o : origin) text += (text.empty() ? "" : ", ") + std::to_string(o);
  return "[" + text + "]";
}

}  // namespace

struct DirectRows::Layout {
  std::string path;
  Hid dataset;  // its own reference: chunk addresses are looked up as frames are read
  std::size_t element = 4;
  bool big_endian = false;
  std::vector<hsize_t> dims;
  std::size_t row_values = 0;
  bool chunked = false;
  haddr_t offset = HADDR_UNDEF;  // contiguous data
  std::vector<hsize_t> chunk;    // chunk dimensions
  std::size_t chunk_values = 0;
  std::vector<Filter> filters;  // in the pipeline's order, as they were applied on writing
  std::mutex mutex;             // guards places
  std::map<std::vector<hsize_t>, ChunkPlace> places;  // by the chunk's origin

  std::size_t row_bytes() const { return row_values * element; }
  std::size_t chunk_bytes() const { return chunk_values * element; }
  // A row's chunks cover its values in one piece: the chunk spans every dimension but frames.
  bool whole_rows() const {
    for (std::size_t d = 1; d < dims.size(); ++d)
      if (chunk[d] != dims[d]) return false;
    return true;
  }

  ChunkPlace place(const std::vector<hsize_t>& origin) {
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = places.find(origin);
    if (found != places.end()) return found->second;
    QuietHdf5 quiet;
    ChunkPlace p;
    if (H5Dget_chunk_info_by_coord(dataset.get(), origin.data(), &p.skipped_filters, &p.address,
                                   &p.size) < 0)
      p.address = HADDR_UNDEF;  // read through H5Dread, which reports what is wrong
    places.emplace(origin, p);
    return p;
  }
};

namespace {

// The dataset's element: an IEEE float of 4 or 8 bytes, little- or big-endian; false otherwise.
bool float_element(hid_t dataset, DirectRows::Layout& l) {
  Hid type(H5Dget_type(dataset));
  if (!type.valid() || H5Tget_class(type.get()) != H5T_FLOAT) return false;
  const std::pair<hid_t, std::pair<std::size_t, bool>> known[] = {{H5T_IEEE_F32LE, {4, false}},
                                                                  {H5T_IEEE_F32BE, {4, true}},
                                                                  {H5T_IEEE_F64LE, {8, false}},
                                                                  {H5T_IEEE_F64BE, {8, true}}};
  for (const auto& [candidate, what] : known)
    if (H5Tequal(type.get(), candidate) > 0) {
      l.element = what.first;
      l.big_endian = what.second;
      return true;
    }
  return false;
}

// deflate and shuffle only (shuffle of the element's own size); false for any other pipeline.
bool known_filters(hid_t properties, DirectRows::Layout& l) {
  const int n = H5Pget_nfilters(properties);
  if (n < 0) return false;
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0, values[8] = {}, config = 0;
    std::size_t n_values = 8;
    char name[64] = {};
    const H5Z_filter_t id = H5Pget_filter2(properties, unsigned(i), &flags, &n_values, values,
                                           sizeof(name), name, &config);
    if (id == H5Z_FILTER_DEFLATE) {
      l.filters.push_back(Filter::deflate);
    } else if (id == H5Z_FILTER_SHUFFLE && n_values >= 1 && values[0] == l.element) {
      l.filters.push_back(Filter::shuffle);
    } else {
      return false;
    }
  }
  return true;
}

// Chunked storage the reader decodes: known filters, every chunk filtered alike.
bool chunk_layout(hid_t properties, DirectRows::Layout& l) {
  l.chunk.assign(l.dims.size(), 0);
  if (H5Pget_chunk(properties, int(l.dims.size()), l.chunk.data()) != int(l.dims.size()))
    return false;
  l.chunk_values = 1;
  for (hsize_t c : l.chunk) {
    if (c == 0) return false;
    l.chunk_values *= std::size_t(c);
  }
  unsigned options = 0;
  if (H5Pget_chunk_opts(properties, &options) < 0 ||
      (options & H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS) != 0)
    return false;
  l.chunked = true;
  return known_filters(properties, l);
}

// Files of the default driver without a user block: HDF5's addresses are then byte offsets.
bool plain_file(hid_t file) {
  Hid access(H5Fget_access_plist(file));
  Hid creation(H5Fget_create_plist(file));
  hsize_t user_block = 0;
  return access.valid() && creation.valid() && H5Pget_driver(access.get()) == H5FD_SEC2 &&
         H5Pget_userblock(creation.get(), &user_block) >= 0 && user_block == 0;
}

std::unique_ptr<DirectRows::Layout> layout_of(hid_t file, hid_t dataset) {
  // Rows are decoded into the processor's byte order as little-endian.
  if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) return nullptr;
  auto l = std::make_unique<DirectRows::Layout>();
  if (!plain_file(file) || !float_element(dataset, *l)) return nullptr;
  l->dims = dataset_shape(dataset);
  if (l->dims.empty() || int(l->dims.size()) > most_dimensions) return nullptr;
  l->row_values = 1;
  for (std::size_t d = 1; d < l->dims.size(); ++d) l->row_values *= std::size_t(l->dims[d]);
  Hid properties(H5Dget_create_plist(dataset));
  if (!properties.valid() || H5Pget_external_count(properties.get()) != 0) return nullptr;
  const H5D_layout_t layout = H5Pget_layout(properties.get());
  if (layout == H5D_CONTIGUOUS) {
    l->offset = H5Dget_offset(dataset);
    if (l->offset == HADDR_UNDEF) return nullptr;  // never written: HDF5 gives fill values
    // The block holds every row (a damaged shape could claim more than it holds, or wrap the
    // offsets): else HDF5 reads it and says what is wrong.
    const hsize_t row = l->row_bytes();
    if (row == 0 || l->dims[0] > std::numeric_limits<hsize_t>::max() / row ||
        H5Dget_storage_size(dataset) != l->dims[0] * row)
      return nullptr;
  } else if (layout != H5D_CHUNKED || !chunk_layout(properties.get(), *l)) {
    return nullptr;  // compact, virtual, or filters only HDF5 knows
  }
  return l;
}

void swap_bytes(unsigned char* p, std::size_t size) {
  for (std::size_t i = 0; i < size / 2; ++i) std::swap(p[i], p[size - 1 - i]);
}

template <class V>
V load(const unsigned char* p, bool big_endian) {
  unsigned char bytes[sizeof(V)];
  std::memcpy(bytes, p, sizeof(V));
  if (big_endian) swap_bytes(bytes, sizeof(V));
  V v;
  std::memcpy(&v, bytes, sizeof(V));
  return v;
}

// HDF5's own double to float conversion (its hard conversion of native types): beyond the
// float's range is infinity, not the nearest float.
float narrowed(double d) {
  if (d > double(FLT_MAX)) return std::numeric_limits<float>::infinity();
  if (d < -double(FLT_MAX)) return -std::numeric_limits<float>::infinity();
  return float(d);
}

// HDF5's shuffle filter undone: byte b of element i was stored at b * n + i.
void unshuffle(const unsigned char* in, unsigned char* out, std::size_t bytes,
               std::size_t element) {
  const std::size_t n = bytes / element;
  for (std::size_t b = 0; b < element; ++b)
    for (std::size_t i = 0; i < n; ++i) out[i * element + b] = in[b * n + i];
  std::memcpy(out + n * element, in + n * element, bytes - n * element);
}

}  // namespace

std::unique_ptr<DirectRows> DirectRows::open(hid_t file, hid_t dataset, const std::string& path) {
  if (H5Iinc_ref(dataset) < 0) return nullptr;
  Hid own(dataset);
  std::unique_ptr<Layout> layout = layout_of(file, dataset);
  if (!layout) return nullptr;
  layout->path = path;
  layout->dataset = std::move(own);
  std::unique_ptr<DirectRows> rows(new DirectRows(std::move(layout)));
  if (rows->descriptor_ < 0) return nullptr;
  return rows;
}

DirectRows::DirectRows(std::shared_ptr<Layout> layout)
    : layout_(std::move(layout)),
      descriptor_(::open(layout_->path.c_str(), O_RDONLY | O_CLOEXEC)) {}

DirectRows::~DirectRows() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

std::unique_ptr<DirectRows> DirectRows::another() const {
  std::unique_ptr<DirectRows> rows(new DirectRows(layout_));
  if (rows->descriptor_ < 0) return nullptr;
  return rows;
}

std::string DirectRows::storage() const {
  if (!layout_->chunked) return "contiguous";
  std::string text = "chunked";
  for (std::size_t i = layout_->filters.size(); i-- > 0;)
    text += (i + 1 == layout_->filters.size() ? " " : "+") +
            std::string(layout_->filters[i] == Filter::deflate ? "deflate" : "shuffle");
  return layout_->filters.empty() ? text + " raw" : text;
}

namespace {

// InputError unless `size` bytes at `offset` lie within the file.
void require_within_file(int descriptor, std::uint64_t offset, std::uint64_t size,
                         const ErrorContext& at, const std::string& what) {
  struct stat info {};
  if (fstat(descriptor, &info) != 0 || offset > std::uint64_t(info.st_size) ||
      size > std::uint64_t(info.st_size) - offset)
    throw InputError(at, "cannot read this frame (" + what + ": " + std::to_string(size) +
                             " bytes at byte " + std::to_string(offset) +
                             " end past the end of the file, " + std::to_string(info.st_size) +
                             " bytes; truncated or damaged file?)");
}

// pread of exactly `size` bytes at `offset`, which must lie within the file.
void read_exactly(int descriptor, std::uint64_t offset, std::size_t size, unsigned char* out,
                  const ErrorContext& at, const std::string& what) {
  require_within_file(descriptor, offset, size, at, what);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(descriptor, out + done, size - done, off_t(offset + done));
    if (n <= 0)
      throw InputError(at, "cannot read this frame (" + what + ": reading byte " +
                               std::to_string(offset + done) + " failed; truncated file?)");
    done += std::size_t(n);
  }
}

// zlib's inflate of a whole chunk into exactly `size` bytes.
void inflate_chunk(const std::vector<unsigned char>& in, unsigned char* out, std::size_t size,
                   const ErrorContext& at, const std::string& what) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw RunFailure("zlib: cannot start inflating");
  z.next_in = const_cast<unsigned char*>(in.data());
  z.avail_in = uInt(in.size());
  z.next_out = out;
  z.avail_out = uInt(size);
  const int status = inflate(&z, Z_FINISH);
  const std::string message = z.msg != nullptr ? z.msg : "";
  const std::size_t produced = z.total_out;
  const bool full = z.avail_out == 0, consumed = z.avail_in == 0;
  inflateEnd(&z);
  if (status == Z_STREAM_END && produced == size) return;
  const std::string why =
      status == Z_STREAM_END
          ? "it holds " + std::to_string(produced) + " bytes, expected " + std::to_string(size)
      : status == Z_DATA_ERROR || status == Z_NEED_DICT
          ? "the stream is corrupt" + (message.empty() ? "" : " (" + message + ")")
      : full     ? "it holds more than the chunk's " + std::to_string(size) + " bytes"
      : consumed ? "the stream ends after " + std::to_string(produced) + " of " +
                       std::to_string(size) + " bytes"
                 : "zlib status " + std::to_string(status);
  throw InputError(at, "cannot read this frame (" + what + ": deflate: " + why +
                           "; truncated or damaged file?)");
}

}  // namespace

// The decoded chunk at `origin`; null when it was never written.
const unsigned char* DirectRows::chunk_bytes(const std::vector<hsize_t>& origin,
                                             const ErrorContext& at) {
  Layout& l = *layout_;
  if (!decoded_.empty() && decoded_origin_ == origin) return decoded_.data();
  const ChunkPlace p = l.place(origin);
  if (p.address == HADDR_UNDEF) return nullptr;
  const std::string what = "the chunk at " + position_text(origin);
  bool filtered = false;
  for (std::size_t i = 0; i < l.filters.size(); ++i)
    filtered = filtered || (p.skipped_filters & (1u << i)) == 0;
  // A chunk stored raw holds exactly its bytes; deflate may add a little to data it cannot shrink.
  const std::size_t size = l.chunk_bytes();
  const std::uint64_t most = filtered ? compressBound(uLong(size)) + 64 : size;
  if ((filtered && p.size > most) || (!filtered && p.size != size))
    throw InputError(at, "cannot read this frame (" + what + " is stored in " +
                             std::to_string(p.size) + " bytes, expected " +
                             (filtered ? "at most " : "") + std::to_string(most) +
                             "; damaged file?)");
  decoded_origin_.clear();
  stored_.resize(std::size_t(p.size));
  read_exactly(descriptor_, p.address, stored_.size(), stored_.data(), at, what);
  // The filters undone in the reverse of the order they were applied in.
  for (std::size_t i = l.filters.size(); i-- > 0;) {
    if ((p.skipped_filters & (1u << i)) != 0) continue;
    scratch_.resize(size);
    if (l.filters[i] == Filter::deflate)
      inflate_chunk(stored_, scratch_.data(), size, at, what);
    else
      unshuffle(stored_.data(), scratch_.data(), size, l.element);
    stored_.swap(scratch_);
  }
  decoded_.swap(stored_);
  decoded_origin_ = origin;
  return decoded_.data();
}

namespace {

// The index of step k of a grid of `counts` (last dimension fastest), from dimension `first` on.
std::vector<hsize_t> grid_step(std::size_t k, const std::vector<hsize_t>& counts,
                               std::size_t first) {
  std::vector<hsize_t> index(counts.size(), 0);
  for (std::size_t d = counts.size(); d-- > first;) {
    index[d] = hsize_t(k) % counts[d];
    k /= std::size_t(counts[d]);
  }
  return index;
}

}  // namespace

// Row t's bytes in the file's order.
const unsigned char* DirectRows::row_bytes(std::int64_t t, const ErrorContext& at, bool& written) {
  Layout& l = *layout_;
  written = true;
  const std::size_t row = l.row_bytes();
  if (!l.chunked) {
    row_.resize(row);
    read_exactly(descriptor_, l.offset + std::uint64_t(t) * row, row, row_.data(), at,
                 "its bytes in the contiguous data");
    return row_.data();
  }
  const std::size_t rank = l.dims.size();
  std::vector<hsize_t> origin(rank, 0);
  origin[0] = hsize_t(t) - hsize_t(t) % l.chunk[0];
  const std::size_t local = std::size_t(hsize_t(t) - origin[0]);
  if (l.whole_rows()) {
    const unsigned char* chunk = chunk_bytes(origin, at);
    written = chunk != nullptr;
    return written ? chunk + local * row : nullptr;
  }
  // Chunks split the row: each one's part is copied into place, in runs along the last dimension.
  row_.resize(row);
  std::vector<hsize_t> chunks(rank, 1);
  std::size_t n_chunks = 1;
  for (std::size_t d = 1; d < rank; ++d) {
    chunks[d] = (l.dims[d] + l.chunk[d] - 1) / l.chunk[d];
    n_chunks *= std::size_t(chunks[d]);
  }
  for (std::size_t c = 0; c < n_chunks; ++c) {
    const std::vector<hsize_t> grid = grid_step(c, chunks, 1);
    std::vector<hsize_t> extent(rank, 1);
    for (std::size_t d = 1; d < rank; ++d) {
      origin[d] = grid[d] * l.chunk[d];
      extent[d] = std::min(l.chunk[d], l.dims[d] - origin[d]);
    }
    const unsigned char* chunk = chunk_bytes(origin, at);
    if (chunk == nullptr) {
      written = false;
      return nullptr;
    }
    std::vector<hsize_t> runs = extent;
    runs[rank - 1] = 1;
    std::size_t n_runs = 1;
    for (std::size_t d = 1; d < rank; ++d) n_runs *= std::size_t(runs[d]);
    for (std::size_t r = 0; r < n_runs; ++r) {
      const std::vector<hsize_t> at_run = grid_step(r, runs, 1);
      std::size_t from = local, to = 0;
      for (std::size_t d = 1; d < rank; ++d) {
        from = from * std::size_t(l.chunk[d]) + std::size_t(at_run[d]);
        to = to * std::size_t(l.dims[d]) + std::size_t(origin[d] + at_run[d]);
      }
      std::memcpy(row_.data() + to * l.element, chunk + from * l.element,
                  std::size_t(extent[rank - 1]) * l.element);
    }
  }
  return row_.data();
}

// Row t read straight into `out` where its bytes lie in one piece as stored (contiguous data, or
// a raw chunk holding whole rows); false when they must be gathered or decoded first. The whole
// chunk must lie within the file, as when it is read whole.
bool DirectRows::read_stored_row(std::int64_t t, unsigned char* out, const ErrorContext& at) {
  Layout& l = *layout_;
  const std::uint64_t row = l.row_bytes();
  if (!l.chunked) {
    read_exactly(descriptor_, l.offset + std::uint64_t(t) * row, row, out, at,
                 "its bytes in the contiguous data");
    return true;
  }
  if (!l.whole_rows()) return false;
  std::vector<hsize_t> origin(l.dims.size(), 0);
  origin[0] = hsize_t(t) - hsize_t(t) % l.chunk[0];
  const ChunkPlace p = l.place(origin);
  for (std::size_t i = 0; i < l.filters.size(); ++i)
    if ((p.skipped_filters & (1u << i)) == 0) return false;
  if (p.address == HADDR_UNDEF || p.size != l.chunk_bytes()) return false;
  const std::string what = "the chunk at " + position_text(origin);
  require_within_file(descriptor_, p.address, p.size, at, what);
  read_exactly(descriptor_, p.address + (hsize_t(t) - origin[0]) * row, row, out, at, what);
  return true;
}

template <class T>
bool DirectRows::read_row(std::int64_t t, T* out, const ErrorContext& at) {
  const Layout& l = *layout_;
  // Stored as the run wants it: no copy between the file and the frame.
  if (l.element == sizeof(T) && !l.big_endian &&
      read_stored_row(t, reinterpret_cast<unsigned char*>(out), at))
    return true;
  bool written = true;
  const unsigned char* bytes = row_bytes(t, at, written);
  if (!written) return false;
  const auto begin = std::chrono::steady_clock::now();
  const std::size_t n = l.row_values;
  if (l.element == sizeof(T) && !l.big_endian) {
    std::memcpy(out, bytes, n * sizeof(T));
  } else if (l.element == sizeof(T)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = load<T>(bytes + i * sizeof(T), true);
  } else if (l.element == 4) {  // widening is exact
    for (std::size_t i = 0; i < n; ++i) out[i] = T(load<float>(bytes + 4 * i, l.big_endian));
  } else if (!l.big_endian) {
    for (std::size_t i = 0; i < n; ++i) out[i] = T(narrowed(load<double>(bytes + 8 * i, false)));
  } else {
    // HDF5 narrows big-endian doubles with its own bitwise conversion, whose rounding of ties
    // differs from the processor's: its converter keeps the values H5Dread gives.
    std::vector<double> values(n);
    std::memcpy(values.data(), bytes, n * 8);
    QuietHdf5 quiet;
    if (H5Tconvert(H5T_IEEE_F64BE, H5T_NATIVE_FLOAT, n, values.data(), nullptr, H5P_DEFAULT) < 0)
      return false;
    std::memcpy(out, values.data(), n * sizeof(float));
  }
  convert_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return true;
}

bool DirectRows::read(std::int64_t t, float* out, const ErrorContext& at) {
  return read_row(t, out, at);
}

bool DirectRows::read(std::int64_t t, double* out, const ErrorContext& at) {
  return read_row(t, out, at);
}

}  // namespace kmol::io
