#include "drivers/library/frame_list.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "kmol/core/errors.hpp"

namespace kmol {

std::vector<std::int64_t> frame_list(const std::string& slice, std::int64_t n,
                                     const std::string& file) {
  auto fail = [&](const std::string& why) {
    throw InputError({file, "--frames", -1},
                     "'" + slice + "': " + why + " (expected start:stop:step or one frame)");
  };
  std::vector<std::string> parts{""};
  for (char c : slice) {
    if (c == ':')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  if (parts.size() > 3) fail("too many ':'");
  std::vector<std::optional<std::int64_t>> v;
  for (const auto& p : parts) {
    if (p.empty()) {
      v.push_back(std::nullopt);
      continue;
    }
    char* end = nullptr;
    const long long x = std::strtoll(p.c_str(), &end, 10);
    if (*end != '\0') fail("'" + p + "' is not an integer");
    v.push_back(x);
  }
  auto wrap = [&](std::int64_t x) { return x < 0 ? x + n : x; };
  std::vector<std::int64_t> frames;
  if (parts.size() == 1) {
    if (!v[0]) fail("empty");
    const std::int64_t f = wrap(*v[0]);
    if (f < 0 || f >= n)
      fail("the file has " + std::to_string(n) + (n == 1 ? " frame" : " frames"));
    return {f};
  }
  const std::int64_t step = parts.size() == 3 && v[2] ? *v[2] : 1;
  if (step <= 0) fail("step must be positive");
  const std::int64_t start = std::clamp<std::int64_t>(v[0] ? wrap(*v[0]) : 0, 0, n);
  const std::int64_t stop = std::clamp<std::int64_t>(v[1] ? wrap(*v[1]) : n, 0, n);
  for (std::int64_t f = start; f < stop; f += step) frames.push_back(f);
  if (frames.empty()) fail("selects no frames of the " + std::to_string(n) + " in the file");
  return frames;
}

}  // namespace kmol
