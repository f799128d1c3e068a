#include "drivers/library/kb_output.hpp"

#include <fmt/os.h>

#include "drivers/library/atomic_write.hpp"
#include "drivers/library/result_check.hpp"
#include "kmol/core/runtime.hpp"

namespace kmol {
namespace {

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::vector<std::string> described(const KirkwoodBuff& kb, const std::vector<std::string>& header) {
  std::vector<std::string> lines = header;
  lines.push_back(
      "columns: R (A); G(R), the running integral of 4 pi r^2 (g - 1) with Ganguly and van der "
      "Vegt's correction of g (A^3); G_V(R), Kruger and Schnell's integral over a sphere of "
      "diameter R of that g (A^3); the same of the box's own g, which equals the particle-number "
      "fluctuations in such spheres of the same trajectory (A^3)");
  lines.push_back(fmt::format(
      "G (fit of R G_V(R) = G R + F over R in [{:.6g}, {:.6g}] A): {:.6g} A^3 = {:.6g} cm^3/mol",
      kb.fit_from, kb.fit_to, kb.infinite, kb.infinite * cm3_per_mol_per_a3));
  return lines;
}

}  // namespace

void write_kirkwood_buff(const std::string& path, const KirkwoodBuff& kb,
                         const std::vector<std::string>& header) {
  check_finite(kb.running, "G");
  check_finite(kb.finite_volume, "G_V");
  check_finite(kb.closed, "G_V_box");
  check_finite({kb.infinite}, "G (extrapolated)");
  const bool xvg = ends_with(path, ".xvg");
  write_atomically(path, [&](const std::string& temporary) {
    auto f = fmt::output_file(temporary);
    f.print("# kmol {} Kirkwood-Buff integrals; lengths in Angstrom\n", kmol_version());
    for (const auto& line : described(kb, header)) f.print("# {}\n", line);
    if (xvg) {
      f.print("@    title \"Kirkwood-Buff integrals\"\n@    xaxis  label \"R (A)\"\n");
      f.print("@    yaxis  label \"G (A\\S3\\N)\"\n@TYPE xy\n");
      f.print("@ s0 legend \"G(R)\"\n@ s1 legend \"G_V(R)\"\n@ s2 legend \"G_V(R), box\"\n");
    } else {
      f.print("R,G,G_V,G_V_box\n");
    }
    const char* format = xvg ? "{:.6f} {:.8g} {:.8g} {:.8g}\n" : "{:.6f},{:.8g},{:.8g},{:.8g}\n";
    for (std::size_t k = 0; k < kb.r.size(); ++k)
      f.print(fmt::runtime(format), kb.r[k], kb.running[k], kb.finite_volume[k], kb.closed[k]);
  });
}

}  // namespace kmol
