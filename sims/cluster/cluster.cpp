#include "sims/cluster/cluster.hpp"

#include <cstdlib>

#ifndef VEDETTE_MPI
#define VEDETTE_MPI 0
#endif

#if VEDETTE_MPI
#include <mpi.h>
#endif

namespace vedette::cluster {

namespace {

int g_rank = 0;
int g_size = 1;
[[maybe_unused]] bool g_joined = false;
std::uint64_t g_bytes = 0;

#if VEDETTE_MPI
// Launched by mpirun (Open MPI), or by a PMI launcher (srun, hydra): then
// the process joins the job. Run alone, the MPI binary stays a plain
// single process (no singleton MPI start-up).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

int count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT32_MAX)) abort_job(70);
  return static_cast<int>(n);
}
#endif

}  // namespace

Session::Session([[maybe_unused]] int* argc, [[maybe_unused]] char*** argv) {
#if VEDETTE_MPI
  if (!launched_by_mpi()) return;
  int provided = 0;
  // Only the thread that calls run_harness talks to MPI; its workers never do.
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  g_joined = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#endif
}

Session::~Session() {
#if VEDETTE_MPI
  if (g_joined) MPI_Finalize();
  g_joined = false;
#endif
}

bool built_with_mpi() { return VEDETTE_MPI != 0; }
int rank() { return g_rank; }
int size() { return g_size; }
std::uint64_t bytes_communicated() { return g_bytes; }

void allreduce_sum([[maybe_unused]] std::span<std::int64_t> v) {
#if VEDETTE_MPI
  if (g_size < 2) return;
  g_bytes += v.size_bytes();
  MPI_Allreduce(MPI_IN_PLACE, v.data(), count(v.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
#endif
}

void allreduce_max([[maybe_unused]] std::span<std::int64_t> v) {
#if VEDETTE_MPI
  if (g_size < 2) return;
  g_bytes += v.size_bytes();
  MPI_Allreduce(MPI_IN_PLACE, v.data(), count(v.size()), MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
#endif
}

void broadcast([[maybe_unused]] std::span<std::uint64_t> v, [[maybe_unused]] int root) {
#if VEDETTE_MPI
  if (g_size < 2) return;
  g_bytes += v.size_bytes();
  MPI_Bcast(v.data(), count(v.size()), MPI_UINT64_T, root, MPI_COMM_WORLD);
#endif
}

void broadcast([[maybe_unused]] std::string& text, [[maybe_unused]] int root) {
#if VEDETTE_MPI
  if (g_size < 2) return;
  std::uint64_t n = text.size();
  broadcast(std::span<std::uint64_t>(&n, 1), root);
  text.resize(n);
  g_bytes += n;
  MPI_Bcast(text.data(), count(n), MPI_CHAR, root, MPI_COMM_WORLD);
#endif
}

std::vector<std::int64_t> gather_to_root(std::span<const std::int64_t> mine) {
#if VEDETTE_MPI
  if (g_size >= 2) {
    int n = count(mine.size());
    std::vector<int> counts(g_rank == 0 ? static_cast<std::size_t>(g_size) : 0);
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> displs(counts.size());
    std::size_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      displs[r] = count(total);
      total += static_cast<std::size_t>(counts[r]);
    }
    std::vector<std::int64_t> all(total);
    g_bytes += mine.size_bytes();
    MPI_Gatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, 0, MPI_COMM_WORLD);
    return all;
  }
#endif
  return {mine.begin(), mine.end()};
}

void abort_job(int status) {
#if VEDETTE_MPI
  if (g_joined) MPI_Abort(MPI_COMM_WORLD, status);
#endif
  std::exit(status);
}

}  // namespace vedette::cluster
