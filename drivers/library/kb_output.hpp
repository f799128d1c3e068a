#pragma once
// The Kirkwood-Buff integrals of an RDF (kernels/pair_histogram/kirkwood_buff.hpp) as CSV or
// Grace .xvg (by the extension): R and the three integrals in A^3, the fitted G in the header.
#include <string>
#include <vector>

#include "kernels/pair_histogram/kirkwood_buff.hpp"

namespace kmol {

void write_kirkwood_buff(const std::string& path, const KirkwoodBuff& kb,
                         const std::vector<std::string>& header);

}  // namespace kmol
