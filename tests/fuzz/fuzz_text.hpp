#pragma once
// A mutation for text formats (PDB, GRO, PQR, XYZ, Molden, OpenDX): one to three numbers
// replaced by values that break counts, sizes and arithmetic (0, -1, the integer and float
// limits, subnormals, NaN, infinities), half the time keeping the field's width as fixed-column
// formats need. The rest are libFuzzer's.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace kmol::fuzz {

// [begin, end) of every number in the text (digits with an optional sign, point and exponent).
inline std::vector<std::pair<std::size_t, std::size_t>> numbers(const std::uint8_t* data,
                                                                std::size_t size) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  const auto digit = [&](std::size_t i) { return i < size && std::isdigit(data[i]); };
  for (std::size_t i = 0; i < size;) {
    if (!digit(i) && !(data[i] == '.' && digit(i + 1))) {
      ++i;
      continue;
    }
    std::size_t begin = i > 0 && (data[i - 1] == '-' || data[i - 1] == '+') ? i - 1 : i;
    while (digit(i) || (i < size && data[i] == '.')) ++i;
    if (i < size && (data[i] == 'e' || data[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < size && (data[j] == '-' || data[j] == '+')) ++j;
      if (digit(j)) {
        i = j;
        while (digit(i)) ++i;
      }
    }
    found.emplace_back(begin, i);
  }
  return found;
}

inline std::size_t mutate_text_numbers(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                       unsigned seed) {
  static const char* const special[] = {
      "0",   "-1",   "1e-38",      "1e30",   "2147483648", "9223372036854775808", "nan",
      "inf", "-inf", "4294967295", "3.4e38", "1e-320",     "-2147483649"};
  std::minstd_rand random(seed);
  const auto found = numbers(data, size);
  if (found.empty() || random() % 3 == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::string text(reinterpret_cast<const char*>(data), size);
  const int changes = 1 + int(random() % 3);
  std::vector<std::pair<std::size_t, std::size_t>> chosen;
  for (int c = 0; c < changes; ++c) chosen.push_back(found[random() % found.size()]);
  // Back to front, so that earlier offsets stay valid; a number chosen twice is replaced once.
  std::sort(chosen.rbegin(), chosen.rend());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  for (const auto& [begin, end] : chosen) {
    std::string value = special[random() % (sizeof special / sizeof *special)];
    const std::size_t width = end - begin;
    if (random() % 2 == 0) {
      if (value.size() <= width)
        value.insert(0, width - value.size(), ' ');
      else
        value.resize(width);
    }
    text.replace(begin, width, value);
  }
  if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

}  // namespace kmol::fuzz
