#include "kmol/core/io/xtc_index.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "kmol/core/errors.hpp"

namespace kmol::io {
namespace {

constexpr std::int32_t xtc_magic = 1995;
// magic, natoms, step, time, box[9], natoms again: then 3 floats per atom for up to 9 atoms, or
// precision, minint[3], maxint[3], smallidx and the byte count of the compressed data.
constexpr std::int64_t small_header_bytes = 56;
constexpr std::int64_t header_bytes = 92;
constexpr char cache_magic[8] = {'K', 'M', 'O', 'L', 'X', 'T', 'C', '2'};

// The format's table of sizes for the small differences between neighbouring atoms: entry i is
// about 2^(i/3), and i is also the number of bits three such differences take.
constexpr std::int32_t magic_sizes[] = {
    0,        0,        0,       0,       0,       0,       0,       0,       0,       8,
    10,       12,       16,      20,      25,      32,      40,      50,      64,      80,
    101,      128,      161,     203,     256,     322,     406,     512,     645,     812,
    1024,     1290,     1625,    2048,    2580,    3250,    4096,    5060,    6501,    8192,
    10321,    13003,    16384,   20642,   26007,   32768,   41285,   52015,   65536,   82570,
    104031,   131072,   165140,  208063,  262144,  330280,  416127,  524287,  660561,  832255,
    1048576,  1321122,  1664510, 2097152, 2642245, 3329021, 4194304, 5284491, 6658042, 8388607,
    10568983, 13316085, 16777216};
constexpr int first_small_index = 9;
constexpr int small_index_end = int(sizeof magic_sizes / sizeof *magic_sizes);

std::int32_t big_endian(const unsigned char* p) {
  return std::int32_t(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                      std::uint32_t(p[2]) << 8 | std::uint32_t(p[3]));
}

// A 64-bit word loaded from memory as the number its bytes, most significant first, spell.
std::uint64_t big_endian_64(std::uint64_t loaded) {
  if constexpr (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) return __builtin_bswap64(loaded);
  return loaded;
}

float big_endian_float(const unsigned char* p) {
  const std::uint32_t bits = std::uint32_t(big_endian(p));
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The compressed block of a frame with more than 9 atoms, as its header describes it.
struct Compressed {
  float precision = 0;
  std::int32_t min[3] = {}, max[3] = {};
  std::uint32_t sizes[3] = {};  // max - min + 1 on each axis
  int small_index = 0;
  std::int64_t bytes = 0;
};

Compressed compressed_of(const unsigned char* h) {
  Compressed c;
  c.precision = big_endian_float(&h[56]);
  for (int k = 0; k < 3; ++k) {
    c.min[k] = big_endian(&h[60 + 4 * k]);
    c.max[k] = big_endian(&h[72 + 4 * k]);
    c.sizes[k] = std::uint32_t(std::int64_t(c.max[k]) - c.min[k] + 1);
  }
  c.small_index = big_endian(&h[84]);
  c.bytes = big_endian(&h[88]);
  return c;
}

// The largest compressed block libgromacs can hold for `n_atoms` atoms (its decoding buffer).
std::int64_t largest_block(std::int32_t n_atoms) {
  const std::int64_t ints = 3 * std::int64_t(n_atoms) <= 48 ? 60 : std::int64_t(3 * n_atoms * 1.2);
  return 4 * (ints - 3);
}

std::string check_compressed(const Compressed& c, std::int32_t n_atoms) {
  // Coordinates are integers below 2^31 divided by the precision: they must stay finite floats.
  if (!std::isfinite(c.precision) || c.precision <= 0 ||
      !std::isfinite(float(2147483648.0 / double(c.precision))))
    return "precision " + std::to_string(c.precision) + " is not a usable positive number";
  // Ranges of 2^30 and more overflow libgromacs' own bit counting (its writer never makes them
  // at sane precisions): they are damage.
  for (int k = 0; k < 3; ++k)
    if (c.max[k] < c.min[k] || std::int64_t(c.max[k]) - c.min[k] + 1 >= (std::int64_t(1) << 30))
      return "coordinate range " + std::to_string(c.min[k]) + " to " + std::to_string(c.max[k]) +
             " is empty or too wide";
  if (c.small_index < first_small_index || c.small_index >= small_index_end)
    return "bit width " + std::to_string(c.small_index) + " is outside the format's table";
  if (c.bytes < 0 || c.bytes > largest_block(n_atoms))
    return "compressed size " + std::to_string(c.bytes) + " bytes does not fit " +
           std::to_string(n_atoms) + " atoms";
  // Every atom takes at least one bit of the block.
  if (8 * c.bytes < n_atoms)
    return "compressed size " + std::to_string(c.bytes) + " bytes is too small for " +
           std::to_string(n_atoms) + " atoms";
  return "";
}

// Bits of a compressed block, most significant first; reading past its end is an error.
class BitReader {
 public:
  BitReader(const unsigned char* data, std::int64_t size) : data_(data), size_(size) {}
  bool overrun() const { return overrun_; }

  // Up to 32 bits as an unsigned number: from one 8-byte big-endian load where the block holds
  // it (n + bit_ <= 39 bits of it), else byte by byte up to the block's end.
  std::uint32_t bits(int n) {
    if (n > 0 && byte_ + 8 <= size_) {
      std::uint64_t window;
      std::memcpy(&window, data_ + byte_, sizeof window);
      window = big_endian_64(window);
      const std::uint32_t value = std::uint32_t((window << bit_) >> (64 - n));
      bit_ += n;
      byte_ += bit_ >> 3;
      bit_ &= 7;
      return value;
    }
    std::uint64_t value = 0;
    while (n > 0) {
      if (byte_ >= size_) {
        overrun_ = true;
        return 0;
      }
      const int left = 8 - bit_, take = std::min(left, n);
      const unsigned chunk = (unsigned(data_[byte_]) >> (left - take)) & ((1u << take) - 1);
      value = value << take | chunk;
      n -= take;
      bit_ += take;
      if (bit_ == 8) {
        bit_ = 0;
        ++byte_;
      }
    }
    return std::uint32_t(value);
  }

  // Three integers packed as one number of `n_bits` bits in mixed radix `sizes`: its bytes come
  // least significant first, and the second and third integers are remainders of dividing it.
  void ints(int n_bits, const std::uint32_t sizes[3], std::int32_t out[3]) {
    // A number of up to 64 bits (every run of small differences, most first atoms) is divided
    // whole, in the narrowest integer that holds it; the long division byte by byte below gives
    // the same remainders and the same low 32 bits of the quotient.
    if (n_bits <= 32) return divide<std::uint32_t>(n_bits, sizes, out);
    if (n_bits <= 64) return divide<std::uint64_t>(n_bits, sizes, out);
    std::uint32_t bytes[32] = {};
    int n_bytes = 0;
    for (; n_bits > 8; n_bits -= 8) bytes[n_bytes++] = bits(8);
    if (n_bits > 0) bytes[n_bytes++] = bits(n_bits);
    for (int i = 2; i > 0; --i) {
      std::uint64_t rest = 0;
      for (int j = n_bytes - 1; j >= 0; --j) {
        rest = rest << 8 | bytes[j];
        bytes[j] = std::uint32_t(rest / sizes[i]);
        rest -= std::uint64_t(bytes[j]) * sizes[i];
      }
      out[i] = std::int32_t(rest);
    }
    out[0] = std::int32_t(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24);
  }

 private:
  template <class U>
  void divide(int n_bits, const std::uint32_t sizes[3], std::int32_t out[3]) {
    U number = 0;
    int shift = 0;
    for (; n_bits > 8; n_bits -= 8, shift += 8) number |= U(bits(8)) << shift;
    number |= U(bits(n_bits)) << shift;
    for (int i = 2; i > 0; --i) {
      out[i] = std::int32_t(number % sizes[i]);
      number /= sizes[i];
    }
    out[0] = std::int32_t(std::uint32_t(number));
  }

  const unsigned char* data_;
  std::int64_t size_, byte_ = 0;
  int bit_ = 0;
  bool overrun_ = false;
};

int bit_length(std::uint64_t v) {
  int n = 0;
  for (; v != 0; v >>= 1) ++n;
  return n;
}

// Bits of the product of the three sizes (at most 72: each is below 2^24 here).
int bits_of_product(const std::uint32_t sizes[3]) {
  const std::uint64_t two = std::uint64_t(sizes[0]) * sizes[1];
  const std::uint64_t low = (two & 0xffffffffu) * sizes[2], high = (two >> 32) * sizes[2];
  const std::uint64_t top = high + (low >> 32);
  return top != 0 ? 32 + bit_length(top) : bit_length(low & 0xffffffffu);
}

std::int32_t wrapped(std::int64_t v) { return std::int32_t(std::uint32_t(std::uint64_t(v))); }

std::string decode_compressed(const Compressed& c, const unsigned char* block, std::int32_t n_atoms,
                              float* xyz) {
  BitReader in(block, c.bytes);
  const bool large = (c.sizes[0] | c.sizes[1] | c.sizes[2]) > 0xffffff;
  int axis_bits[3] = {}, packed_bits = 0;
  if (large)
    for (int k = 0; k < 3; ++k) axis_bits[k] = std::min(32, bit_length(c.sizes[k]));
  else
    packed_bits = bits_of_product(c.sizes);
  int small_index = c.small_index;
  std::int32_t small_half = magic_sizes[small_index] / 2;
  std::int32_t smaller_half = magic_sizes[std::max(first_small_index, small_index - 1)] / 2;
  const float inverse = float(1.0 / double(c.precision));
  float* out = xyz;
  auto emit = [&](const std::int32_t r[3]) {
    for (int k = 0; k < 3; ++k) *out++ = float(r[k]) * inverse;
  };
  std::int32_t run = 0;
  for (std::int32_t atom = 0; atom < n_atoms;) {
    std::int32_t here[3], previous[3];
    if (large)
      for (int k = 0; k < 3; ++k) here[k] = std::int32_t(in.bits(axis_bits[k]));
    else
      in.ints(packed_bits, c.sizes, here);
    ++atom;
    for (int k = 0; k < 3; ++k) previous[k] = here[k] = wrapped(std::int64_t(here[k]) + c.min[k]);
    int change = 0;
    if (in.bits(1) == 1) {
      run = std::int32_t(in.bits(5));
      change = run % 3 - 1;
      run -= run % 3;
    }
    if (atom + run / 3 > n_atoms)
      return "its compressed coordinates hold more than " + std::to_string(n_atoms) + " atoms";
    if (run == 0) emit(here);
    const std::uint32_t small_sizes[3] = {std::uint32_t(magic_sizes[small_index]),
                                          std::uint32_t(magic_sizes[small_index]),
                                          std::uint32_t(magic_sizes[small_index])};
    for (std::int32_t k = 0; k < run; k += 3) {
      std::int32_t next[3];
      in.ints(small_index, small_sizes, next);
      ++atom;
      for (int a = 0; a < 3; ++a)
        next[a] = wrapped(std::int64_t(next[a]) + previous[a] - small_half);
      // The writer swaps the first two atoms of a run (a water's oxygen and first hydrogen).
      if (k == 0) {
        std::swap(next[0], previous[0]);
        std::swap(next[1], previous[1]);
        std::swap(next[2], previous[2]);
        emit(previous);
      } else {
        std::copy(next, next + 3, previous);
      }
      emit(next);
    }
    if (in.overrun()) return "its compressed coordinates end before its last atom";
    if (atom == n_atoms) break;
    small_index += change;
    if (small_index < first_small_index || small_index >= small_index_end)
      return "its compressed coordinates leave the format's table of bit widths";
    if (change < 0) {
      small_half = smaller_half;
      smaller_half = small_index > first_small_index ? magic_sizes[small_index - 1] / 2 : 0;
    } else if (change > 0) {
      smaller_half = small_half;
      small_half = magic_sizes[small_index] / 2;
    }
  }
  return "";
}

struct FileStamp {
  std::int64_t size = 0, mtime_ns = 0, inode = 0;
  bool operator==(const FileStamp& o) const {
    return size == o.size && mtime_ns == o.mtime_ns && inode == o.inode;
  }
};

FileStamp stamp_of(const std::string& path) {
  struct stat s {};
  if (stat(path.c_str(), &s) != 0) throw InputError({path, "", -1}, "cannot open the file");
  return {std::int64_t(s.st_size),
          std::int64_t(s.st_mtim.tv_sec) * 1000000000 + std::int64_t(s.st_mtim.tv_nsec),
          std::int64_t(s.st_ino)};
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// The plain part of every header: magic, atom counts, step, time and box.
std::string read_plain_header(const unsigned char* h, std::int32_t n_atoms, XtcFrameHeader& out) {
  const std::int32_t magic = big_endian(&h[0]), natoms = big_endian(&h[4]);
  if (magic != xtc_magic)
    return "no XTC frame header (magic " + std::to_string(magic) + ", not 1995)";
  if (natoms <= 0 || natoms > INT32_MAX / 3)
    return "the header gives " + std::to_string(natoms) + " atoms";
  if (n_atoms > 0 && natoms != n_atoms)
    return "the header gives " + std::to_string(natoms) + " atoms, the first frame " +
           std::to_string(n_atoms);
  if (big_endian(&h[52]) != natoms)
    return "the header gives " + std::to_string(natoms) + " atoms and then " +
           std::to_string(big_endian(&h[52]));
  out.n_atoms = natoms;
  out.step = big_endian(&h[8]);
  out.time = big_endian_float(&h[12]);
  if (!std::isfinite(out.time)) return "its time is not a finite number";
  for (int k = 0; k < 9; ++k) {
    out.box[k] = big_endian_float(&h[16 + 4 * k]);
    if (!std::isfinite(out.box[k])) return "its box is not finite";
  }
  return "";
}

XtcIndex scan(const std::string& path, std::int64_t size) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw InputError({path, "", -1}, "cannot open the XTC file");
  XtcIndex index;
  std::array<unsigned char, header_bytes> h{};
  std::int64_t offset = 0;
  auto broken = [&](const std::string& why) {
    index.damaged_frame = std::int64_t(index.offsets.size());
    index.damage = why;
  };
  while (offset < size) {
    const std::int64_t frame = std::int64_t(index.offsets.size());
    const std::int64_t available = size - offset;
    const std::size_t want = std::size_t(std::min<std::int64_t>(header_bytes, available));
    if (fseeko(file.get(), offset, SEEK_SET) != 0 ||
        std::fread(h.data(), 1, want, file.get()) != want)
      throw InputError({path, "frame", long(frame)}, "cannot read the file");
    if (want < small_header_bytes) {
      broken(std::to_string(available) + " bytes at the end of the file are not a whole frame");
      break;
    }
    if (frame == 0 && big_endian(&h[0]) != xtc_magic)
      throw InputError({path, "frame", 0}, "does not start with the XTC magic number 1995");
    XtcFrameHeader header;
    const std::string wrong = read_xtc_header(h.data(), std::int64_t(want), index.n_atoms, header);
    if (!wrong.empty()) {
      if (frame == 0) throw InputError({path, "frame", 0}, "damaged: " + wrong);
      broken(wrong + " at byte " + std::to_string(offset));
      break;
    }
    if (frame == 0) index.n_atoms = header.n_atoms;
    const std::int64_t bytes = header.bytes;
    if (offset + bytes > size) {
      broken("the file ends at byte " + std::to_string(size) + ", inside this frame (it needs " +
             std::to_string(bytes) + " bytes from byte " + std::to_string(offset) + ")");
      break;
    }
    index.offsets.push_back(offset);
    offset += bytes;
  }
  return index;
}

template <class T>
void put(std::ofstream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}
template <class T>
bool get(std::ifstream& in, T& v) {
  return bool(in.read(reinterpret_cast<char*>(&v), sizeof v));
}

bool load_cache(const std::string& cache, const FileStamp& stamp, XtcIndex& index) {
  std::ifstream in(cache, std::ios::binary);
  char magic[sizeof cache_magic];
  FileStamp saved;
  std::int64_t frames = 0, damage_length = 0;
  if (!in || !in.read(magic, sizeof magic) || std::memcmp(magic, cache_magic, sizeof magic) != 0 ||
      !get(in, saved.size) || !get(in, saved.mtime_ns) || !get(in, saved.inode) ||
      !(saved == stamp) || !get(in, index.n_atoms) || !get(in, frames) ||
      !get(in, index.damaged_frame) || !get(in, damage_length) || frames < 0 || damage_length < 0 ||
      damage_length > 4096)
    return false;
  index.damage.resize(std::size_t(damage_length));
  index.offsets.resize(std::size_t(frames));
  if (!in.read(index.damage.data(), damage_length) ||
      !in.read(reinterpret_cast<char*>(index.offsets.data()),
               std::streamsize(frames * sizeof(std::int64_t))))
    return false;
  index.from_cache = true;
  return true;
}

// Written to a temporary file and renamed, so that concurrent readers never see half an index.
std::string save_cache(const std::string& cache, const FileStamp& stamp, const XtcIndex& index) {
  const std::string temporary = cache + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out) return "cannot write the frame index " + cache + " (the directory is read-only?)";
    out.write(cache_magic, sizeof cache_magic);
    put(out, stamp.size);
    put(out, stamp.mtime_ns);
    put(out, stamp.inode);
    put(out, index.n_atoms);
    put(out, std::int64_t(index.offsets.size()));
    put(out, index.damaged_frame);
    put(out, std::int64_t(index.damage.size()));
    out.write(index.damage.data(), std::streamsize(index.damage.size()));
    out.write(reinterpret_cast<const char*>(index.offsets.data()),
              std::streamsize(index.offsets.size() * sizeof(std::int64_t)));
    if (!out) {
      std::remove(temporary.c_str());
      return "cannot write the frame index " + cache;
    }
  }
  if (std::rename(temporary.c_str(), cache.c_str()) != 0) {
    std::remove(temporary.c_str());
    return "cannot write the frame index " + cache;
  }
  return "";
}

}  // namespace

std::string read_xtc_header(const unsigned char* h, std::int64_t available, std::int32_t n_atoms,
                            XtcFrameHeader& header) {
  if (available < small_header_bytes) return "the frame's header is cut short";
  const std::string plain = read_plain_header(h, n_atoms, header);
  if (!plain.empty()) return plain;
  if (header.n_atoms <= 9) {
    header.bytes = small_header_bytes + 12 * std::int64_t(header.n_atoms);
    return "";
  }
  if (available < header_bytes) return "the frame's header is cut short";
  const Compressed c = compressed_of(h);
  const std::string wrong = check_compressed(c, header.n_atoms);
  if (!wrong.empty()) return wrong;
  header.bytes = header_bytes + (c.bytes + 3) / 4 * 4;
  return "";
}

std::string decode_xtc_frame(const unsigned char* frame, std::int64_t size, std::int32_t n_atoms,
                             XtcFrameHeader& header, float* xyz) {
  const std::string wrong = read_xtc_header(frame, size, n_atoms, header);
  if (!wrong.empty()) return wrong;
  if (header.bytes > size) return "the frame is cut short";
  if (header.n_atoms <= 9) {
    for (std::int64_t i = 0; i < 3 * std::int64_t(header.n_atoms); ++i) {
      xyz[i] = big_endian_float(&frame[small_header_bytes + 4 * i]);
      if (!std::isfinite(xyz[i])) return "atom " + std::to_string(i / 3) + " is not finite";
    }
    return "";
  }
  return decode_compressed(compressed_of(frame), frame + header_bytes, header.n_atoms, xyz);
}

std::string xtc_index_cache_path(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + name + ".kmol-xtc-index";
}

XtcIndex index_xtc(const std::string& path) {
  const FileStamp stamp = stamp_of(path);
  const std::string cache = xtc_index_cache_path(path);
  XtcIndex index;
  if (load_cache(cache, stamp, index)) return index;
  index = scan(path, stamp.size);
  index.cache_note = save_cache(cache, stamp, index);
  return index;
}

}  // namespace kmol::io
