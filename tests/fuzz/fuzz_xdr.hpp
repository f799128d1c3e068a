#pragma once
// A structure-aware mutation for XDR files (GROMACS XTC, TRR, TPR): their headers are big-endian
// 32-bit integers and floats, and byte flips rarely get a size or count past the first check.
// Half the mutations replace one aligned word, preferably inside a frame header (the words after
// a magic number), with a value that breaks sizes and counts: 0, -1, small counts, the word off
// by one or doubled, the integer and float limits, NaN and infinities. The rest are libFuzzer's.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace kmol::fuzz {

inline std::uint32_t word_at(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

inline void put_word(std::uint8_t* p, std::uint32_t w) {
  p[0] = std::uint8_t(w >> 24);
  p[1] = std::uint8_t(w >> 16);
  p[2] = std::uint8_t(w >> 8);
  p[3] = std::uint8_t(w);
}

inline std::uint32_t float_word(float f) {
  std::uint32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
}

// A value for a word that held `old`.
inline std::uint32_t hostile_value(std::uint32_t old, std::minstd_rand& random) {
  const float old_float = [&] {
    float f;
    std::memcpy(&f, &old, sizeof f);
    return f;
  }();
  const std::uint32_t choices[] = {0u,
                                   0xffffffffu,
                                   1u,
                                   9u,
                                   10u,
                                   old + 1,
                                   old - 1,
                                   old * 2,
                                   old + 4,
                                   0x7fffffffu,
                                   0x80000000u,
                                   0x40000000u,
                                   std::uint32_t(random() % 100),
                                   float_word(std::numeric_limits<float>::quiet_NaN()),
                                   float_word(std::numeric_limits<float>::infinity()),
                                   float_word(-std::numeric_limits<float>::infinity()),
                                   float_word(1e-38f),
                                   float_word(1e30f),
                                   float_word(0.0f),
                                   float_word(-1.0f),
                                   float_word(old_float * 1000.0f),
                                   float_word(old_float * 1e-6f)};
  return choices[random() % (sizeof choices / sizeof *choices)];
}

// Offsets of the words that follow each occurrence of `magic` at an aligned offset.
inline std::vector<std::size_t> header_words(const std::uint8_t* data, std::size_t size,
                                             std::uint32_t magic, std::size_t header_words) {
  std::vector<std::size_t> words;
  for (std::size_t at = 0; at + 4 <= size; at += 4)
    if (word_at(data + at) == magic)
      for (std::size_t w = 1; w <= header_words && at + 4 * w + 4 <= size; ++w)
        words.push_back(at + 4 * w);
  return words;
}

// The mutation: `magic` marks frame headers of `header_length` words (0: no frames, any word).
inline std::size_t mutate_xdr(std::uint8_t* data, std::size_t size, std::size_t max_size,
                              unsigned seed, std::uint32_t magic, std::size_t header_length) {
  std::minstd_rand random(seed);
  if (size < 4 || random() % 2 == 0) return LLVMFuzzerMutate(data, size, max_size);
  const int changes = 1 + int(random() % 3);
  for (int c = 0; c < changes; ++c) {
    std::size_t at = 4 * (random() % (size / 4));
    if (header_length > 0 && random() % 4 != 0) {
      const auto words = header_words(data, size, magic, header_length);
      if (!words.empty()) at = words[random() % words.size()];
    }
    put_word(data + at, hostile_value(word_at(data + at), random));
  }
  if (random() % 8 == 0) size = std::size_t(random() % size);  // and sometimes truncated
  return size;
}

}  // namespace kmol::fuzz
