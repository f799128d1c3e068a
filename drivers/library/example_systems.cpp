#include "drivers/library/example_systems.hpp"

#include <random>

namespace kmol {

ExampleSystem fcc_crystal(int cells, double a) {
  static constexpr double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  ExampleSystem s;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < cells; ++k)
        for (const auto& b : basis)
          s.positions.push_back({(i + b[0]) * a, (j + b[1]) * a, (k + b[2]) * a});
  s.box = BoxSpec::orthorhombic(cells * a, cells * a, cells * a);
  return s;
}

ExampleSystem ideal_gas(std::int64_t atoms, double length, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0, length);
  ExampleSystem s;
  s.positions.resize(atoms);
  for (auto& p : s.positions) p = {uniform(engine), uniform(engine), uniform(engine)};
  s.box = BoxSpec::orthorhombic(length, length, length);
  return s;
}

}  // namespace kmol
