#include "drivers/library/cluster.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "drivers/library/gpu_runtime.hpp"

#ifdef KMOL_HAVE_MPI
#include <mpi.h>
#endif

namespace kmol {
namespace {

int g_rank = 0, g_size = 1, g_local_rank = 0;
[[maybe_unused]] bool g_started = false;

#ifdef KMOL_HAVE_MPI
void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

MPI_Datatype mpi_type(const std::uint64_t*) { return MPI_UINT64_T; }
MPI_Datatype mpi_type(const double*) { return MPI_DOUBLE; }
MPI_Datatype mpi_type(const char*) { return MPI_SIGNED_CHAR; }
#endif

enum class Reduction { sum, max };

// Every rank's `values` combined element by element, in place on every rank (one process: as
// they are).
template <class V>
void all_reduce([[maybe_unused]] std::vector<V>& values, [[maybe_unused]] Reduction reduction,
                [[maybe_unused]] const char* what) {
#ifdef KMOL_HAVE_MPI
  if (g_size > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), mpi_type(values.data()),
                        reduction == Reduction::sum ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD),
          what);
#endif
}

}  // namespace

Cluster::Cluster(int& argc, char**& argv) {
#ifdef KMOL_HAVE_MPI
  // OpenMPI's launcher sets these; without them this is a plain run.
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr && std::getenv("PMIX_RANK") == nullptr) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  g_started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &local);
  MPI_Comm_rank(local, &g_local_rank);
  MPI_Comm_free(&local);
  // Kokkos drives one GPU per process: the ranks of a machine take turns over its GPUs.
  const int gpus = cuda_device_count();
  if (gpus > 0) setenv("KOKKOS_DEVICE_ID", std::to_string(g_local_rank % gpus).c_str(), 0);
#else
  (void)argc;
  (void)argv;
#endif
}

Cluster::~Cluster() {
#ifdef KMOL_HAVE_MPI
  if (g_started) MPI_Finalize();
#endif
}

int Cluster::rank() { return g_rank; }
int Cluster::size() { return g_size; }
int Cluster::local_rank() { return g_local_rank; }

std::string Cluster::describe() {
  return g_size > 1 ? "rank " + std::to_string(g_rank) + " of " + std::to_string(g_size) : "";
}

void Cluster::sum(std::vector<std::uint64_t>& values) {
  all_reduce(values, Reduction::sum, "sum of counts");
}

void Cluster::sum_single_owner(std::vector<double>& values) {
  all_reduce(values, Reduction::sum, "sum of per-frame values");
}

void Cluster::max(std::vector<char>& values) {
  all_reduce(values, Reduction::max, "maximum of flags");
}

void Cluster::gather_to_root(char* data, const std::vector<std::int64_t>& offsets) {
#ifdef KMOL_HAVE_MPI
  if (g_size <= 1) return;
  // In chunks below 2 GiB: MPI counts are ints.
  constexpr std::int64_t chunk = std::int64_t(1) << 30;
  for (int r = 1; r < g_size; ++r)
    for (std::int64_t at = offsets[std::size_t(r)]; at < offsets[std::size_t(r) + 1]; at += chunk) {
      const int n = int(std::min(chunk, offsets[std::size_t(r) + 1] - at));
      if (g_rank == r)
        check(MPI_Send(data + at, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD), "send of a map slab");
      if (g_rank == 0)
        check(MPI_Recv(data + at, n, MPI_BYTE, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "receive of a map slab");
    }
#else
  (void)data;
  (void)offsets;
#endif
}

int Cluster::fail(int exit_code) {
#ifdef KMOL_HAVE_MPI
  if (g_started && g_size > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
  return exit_code;
}

}  // namespace kmol
