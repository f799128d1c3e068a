#pragma once
// The ranks of an MPI job (`mpirun -np P kmol ...`), or one rank. MPI starts only when the
// process runs under mpirun (and the build found MPI), so a plain `kmol` never needs MPI's
// run-time plugins. Only the main thread calls MPI (MPI_THREAD_FUNNELED).
//
// The reductions are exact: integer sums, maxima, and sums of doubles where at most one rank
// holds a nonzero value per element (each frame's 1/V lives on the rank that read the frame).
#include <cstdint>
#include <string>
#include <vector>

namespace kmol {

class Cluster {
 public:
  Cluster(int& argc, char**& argv);  // MPI_Init_thread under mpirun
  ~Cluster();                        // MPI_Finalize
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  static int rank();        // 0 without MPI
  static int size();        // 1 without MPI
  static int local_rank();  // rank among the ranks of this machine (chooses its GPUs)
  static bool root() { return rank() == 0; }
  static std::string describe();  // "rank 1 of 3", or "" for one rank

  static void sum(std::vector<std::uint64_t>& values);  // on every rank
  static void sum_single_owner(std::vector<double>& values);
  static void max(std::vector<char>& values);
  // Rank r holds bytes [offsets[r], offsets[r+1]) of `data` (valid there); afterwards rank 0 holds
  // all.
  static void gather_to_root(char* data, const std::vector<std::int64_t>& offsets);

  // Ends the whole job after an error on this rank (MPI_Abort; never returns when P > 1).
  static int fail(int exit_code);
};

}  // namespace kmol
