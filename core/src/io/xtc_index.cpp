#include "kmol/core/io/xtc_index.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
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
constexpr char cache_magic[8] = {'K', 'M', 'O', 'L', 'X', 'T', 'C', '1'};

std::int32_t big_endian(const unsigned char* p) {
  return std::int32_t(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                      std::uint32_t(p[2]) << 8 | std::uint32_t(p[3]));
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
    const std::int32_t magic = big_endian(&h[0]), natoms = big_endian(&h[4]);
    if (magic != xtc_magic) {
      if (frame == 0)
        throw InputError({path, "frame", 0}, "does not start with the XTC magic number 1995");
      broken("no XTC frame header at byte " + std::to_string(offset) + " (magic " +
             std::to_string(magic) + ")");
      break;
    }
    if (frame == 0) index.n_atoms = natoms;
    if (natoms != index.n_atoms || natoms <= 0 || big_endian(&h[52]) != natoms) {
      broken("the header gives " + std::to_string(natoms) + " atoms, the first frame " +
             std::to_string(index.n_atoms));
      break;
    }
    std::int64_t bytes = 0;
    if (natoms <= 9) {
      bytes = small_header_bytes + 12 * std::int64_t(natoms);
    } else {
      if (std::int64_t(want) < header_bytes) {
        broken("the file ends inside the frame's header");
        break;
      }
      const std::int64_t data = big_endian(&h[88]);
      if (data < 0) {
        broken("negative compressed size");
        break;
      }
      bytes = header_bytes + (data + 3) / 4 * 4;
    }
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
