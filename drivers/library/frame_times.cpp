// Frames chosen by time, as gmx's -b, -e and -dt choose them.
#include <fmt/core.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "drivers/library/frame_list.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace {

double time_option(const std::string& text, const char* option) {
  char* end = nullptr;
  const double t = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(t))
    throw InputError({"", option, -1},
                     "'" + text +
                         "' is not a time (a number in the file's time unit, ps for "
                         "GROMACS files)");
  return t;
}

// gmx's test for -dt (bRmod_fd): t - t0 is a whole multiple of dt within float rounding of t.
bool on_step(double t, double t0, double dt) {
  const double tolerance = 2 * FLT_EPSILON;
  const auto multiple = static_cast<long long>((t - t0 + tolerance * t) / dt);
  return std::abs(t - t0 - dt * double(multiple)) <= tolerance * std::abs(t);
}

std::vector<std::int64_t> frames_by_time(const FrameChoice& c, io::TrajectoryReader& reader) {
  const bool has_begin = !c.begin.empty(), has_end = !c.end.empty(), has_dt = !c.dt.empty();
  const double begin = has_begin ? time_option(c.begin, "--begin") : 0;
  const double end = has_end ? time_option(c.end, "--end") : 0;
  const double dt = has_dt ? time_option(c.dt, "--dt") : 0;
  if (has_dt && !(dt > 0)) throw InputError({"", "--dt", -1}, "must be positive");
  if (has_begin && has_end && end < begin)
    throw InputError({"", "--end", -1}, fmt::format("{} is before --begin {}", end, begin));
  std::vector<std::int64_t> frames;
  const std::int64_t n = reader.n_frames();
  const double first = reader.frame_info(0).time;
  double last = first;
  for (std::int64_t f = 0; f < n; ++f) {
    const double t = f == 0 ? first : reader.frame_info(f).time;
    last = t;
    // In single precision, as gmx compares them: an XTC's 0.3 ps (stored as a float) is not
    // after --end 0.3.
    if ((has_begin && float(t) < float(begin)) || (has_end && float(t) > float(end))) continue;
    if (has_dt && !on_step(t, first, dt)) continue;
    frames.push_back(f);
  }
  if (frames.empty())
    throw InputError({reader.path(),
                      has_begin ? "--begin"
                      : has_end ? "--end"
                                : "--dt",
                      -1},
                     fmt::format("{} picks none of the {} frames, whose times run from {} to {}",
                                 c.describe(), n, first, last));
  return frames;
}

}  // namespace

std::string FrameChoice::describe() const {
  if (!by_time()) return frames.empty() ? "::" : frames;
  std::string text;
  for (const auto& [option, value] :
       {std::pair{"--begin", begin}, std::pair{"--end", end}, std::pair{"--dt", dt}})
    if (!value.empty()) text += (text.empty() ? "" : " ") + std::string(option) + " " + value;
  return text;
}

std::vector<std::int64_t> choose_frames(const FrameChoice& c, io::TrajectoryReader& reader) {
  if (c.by_time() && !c.frames.empty())
    throw InputError({"", "--frames", -1},
                     "frames are chosen by position (--frames) or by time (--begin, --end, --dt), "
                     "not both");
  if (c.by_time()) return frames_by_time(c, reader);
  return frame_list(c.frames.empty() ? "::" : c.frames, reader.n_frames(), reader.path());
}

std::int64_t choose_one_frame(const FrameChoice& c, io::TrajectoryReader& reader,
                              const std::string& command) {
  if (!c.end.empty() || !c.dt.empty())
    throw InputError({"", c.end.empty() ? "--dt" : "--end", -1},
                     command +
                         " maps one frame: give --frames N or --begin T (the first frame "
                         "at or after time T)");
  const std::vector<std::int64_t> frames = choose_frames(c, reader);
  if (!c.by_time() && frames.size() != 1)
    throw InputError({"", "--frames", -1},
                     fmt::format("'{}' picks {} frames; {} maps one: give one frame N (-1: the "
                                 "last)",
                                 c.frames, frames.size(), command));
  return frames.front();
}

}  // namespace kmol
