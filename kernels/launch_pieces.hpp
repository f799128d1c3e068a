#pragma once
// One kernel's items as a series of launches, so that a cancel (kmol/core/cancel.hpp) stops a
// long map within a second: a launch runs to its end once started, so each launch takes a piece
// of the items [0, total) sized from the pieces before it to last about piece_seconds, and between
// launches the caller's wait (a fence, a stream synchronisation) and a poll for the cancel run.
// The first piece fills the device once; later pieces grow at most piece_growth times, since an
// item's cost varies across a lattice (padding is cheap). Pieces of 0.1 s keep the launches'
// throughput: a fence costs microseconds. Kokkos-free, so raw CUDA units use it too.
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "kmol/core/cancel.hpp"

namespace kmol {

constexpr double piece_seconds = 0.1;
constexpr std::int64_t piece_growth = 4;

// The items of the next piece, from the last piece's size and time: a whole number of granules
// (a GPU's pieces keep whole warps), at least one.
inline std::int64_t next_piece(std::int64_t last_items, double last_seconds, std::int64_t granule) {
  const double rate = double(last_items) / std::max(last_seconds, 1e-6);
  const double wanted = std::min(rate * piece_seconds, double(last_items * piece_growth));
  const std::int64_t granules = std::max<std::int64_t>(1, std::int64_t(wanted) / granule);
  return granules * granule;
}

// Calls launch(begin, end) for consecutive pieces covering [0, total), each followed by wait();
// throws Interrupted naming `what` after the piece during which a cancel was requested.
// first_items: the first piece's size, enough to fill the device once; granule: as next_piece.
template <class Launch, class Wait>
void launch_in_pieces(std::int64_t total, std::int64_t first_items, std::int64_t granule,
                      const char* what, Launch&& launch, Wait&& wait) {
  using Clock = std::chrono::steady_clock;
  granule = std::max<std::int64_t>(1, granule);
  std::int64_t items = std::max<std::int64_t>(1, (first_items + granule - 1) / granule) * granule;
  for (std::int64_t begin = 0; begin < total;) {
    const std::int64_t end = std::min(total, begin + items);
    const auto start = Clock::now();
    launch(begin, end);
    wait();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (cancel_requested()) throw_if_cancelled(what);
    items = next_piece(end - begin, seconds, granule);
    begin = end;
  }
}

}  // namespace kmol
