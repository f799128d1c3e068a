#pragma once
// The portable force implementations' runners: all pairs in team tiles, cell lists rebuilt every
// step, and Verlet lists (full or half) rebuilt once some atom has moved half the skin.
#include <Kokkos_Core.hpp>

#include <string>

#include "kernels/md/kokkos/cell_list.hpp"
#include "kernels/md/kokkos/forces.hpp"
#include "kernels/md/kokkos/neighbour_list.hpp"
#include "kernels/md/md.hpp"
#include "kernels/md/runner.hpp"

namespace kmol {

template <>
struct MdForceRunner<MdForceImpl::all_pairs> {
  template <class ExecSpace, class State>
  static std::string run(const ExecSpace& space, State& s) {
    using Tr = md::Traits<ExecSpace>;
    md::all_pairs_forces(space, s.x, s.out, s.box, s.lj);
    return "all_pairs: team size " + std::to_string(Tr::team_size) + ", block " +
           std::to_string(Tr::block) + ", tile " + std::to_string(Tr::tile);
  }
};

template <>
struct MdForceRunner<MdForceImpl::cells> {
  template <class ExecSpace, class State>
  static std::string run(const ExecSpace& space, State& s) {
    auto& cells = s.template kept<md::CellList<ExecSpace, typename State::value_type>>();
    cells.build(space, s.x, s.box_length, s.settings.cutoff);
    md::cell_forces(space, s.x, cells, s.out, s.box, s.lj);
    return "cells: " + std::to_string(cells.grid.n[0]) + "x" + std::to_string(cells.grid.n[1]) +
           "x" + std::to_string(cells.grid.n[2]);
  }
};

template <>
struct MdForceRunner<MdForceImpl::neighbour> {
  template <class ExecSpace, class T>
  struct Kept {
    md::NeighbourList<ExecSpace, T> list;
    std::string launch;  // described at each build
  };

  template <class ExecSpace, class State>
  static std::string run(const ExecSpace& space, State& s) {
    auto& kept = s.template kept<Kept<ExecSpace, typename State::value_type>>();
    auto& list = kept.list;
    const double half_skin = 0.5 * s.settings.skin;
    if (list.builds == 0 || double(list.largest_move2(space, s.x, s.box)) > half_skin * half_skin) {
      list.kind = s.settings.list == MdList::half ? md::ListKind::half : md::ListKind::full;
      list.build(space, s.x, s.box_length, s.box, s.settings.cutoff + s.settings.skin);
      kept.launch = "neighbour_" + to_string(s.settings.list) + ": skin " +
                    std::to_string(s.settings.skin) + ", capacity " +
                    std::to_string(list.capacity) + ", cells " +
                    std::to_string(list.cells.grid.n[0]) + "^3";
    }
    md::neighbour_forces(space, s.x, list, s.out, s.box, s.lj);
    s.list_builds = list.builds;
    return kept.launch;
  }
};

}  // namespace kmol
