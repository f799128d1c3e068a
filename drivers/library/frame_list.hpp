#pragma once
// Which frames of a trajectory a run visits.
#include <cstdint>
#include <string>
#include <vector>

namespace kmol {

// start:stop:step with Python's meaning (stop excluded, negatives count from the end), or one
// frame. Throws InputError naming --frames.
std::vector<std::int64_t> frame_list(const std::string& slice, std::int64_t n_frames);

}  // namespace kmol
