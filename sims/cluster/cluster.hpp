#pragma once
// The processes of one run. Built with VEDETTE_MPI and launched by mpirun,
// a `vedette` process is one rank of an MPI job; otherwise it is the only
// one (rank 0 of 1) and the collectives below return at once. Every rank
// must call the collectives in the same order (they are called from the
// harness's main thread only). No MPI type appears here: only cluster.cpp
// includes <mpi.h>.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vedette::cluster {

// Joins the MPI job when the binary was built with MPI and mpirun (or a PMI
// launcher) started it; leaves it (MPI_Finalize) when destroyed. One per
// process, made first thing in main().
class Session {
 public:
  Session(int* argc, char*** argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

bool built_with_mpi();
int rank();  // 0 without MPI
int size();  // 1 without MPI
inline bool many() { return size() > 1; }

// Payload bytes this rank has passed through the collectives below since the
// session began (what a run costs the network, for benchmarks/README.md).
std::uint64_t bytes_communicated();

// Element-wise over all ranks, the result on every rank.
void allreduce_sum(std::span<std::int64_t> v);
void allreduce_max(std::span<std::int64_t> v);
// root's values to every rank.
void broadcast(std::span<std::uint64_t> v, int root = 0);
void broadcast(std::string& text, int root);
// Rank 0 gets every rank's values concatenated in rank order; the others get
// an empty vector.
std::vector<std::int64_t> gather_to_root(std::span<const std::int64_t> mine);

// Ends every rank of the job with this status (MPI_Abort); without MPI,
// std::exit.
[[noreturn]] void abort_job(int status);

}  // namespace vedette::cluster
