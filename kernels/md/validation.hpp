#pragma once
#include "kernels/md/md.hpp"

namespace kmol::md {

// Throws InputError naming the field for a configuration or settings MD cannot run.
void validate(const MdState& start, const MdSettings& settings);

}  // namespace kmol::md
