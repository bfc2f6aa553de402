#pragma once
// The Monte Carlo harness. Engagement i of a run seeded S plays on
// make_stream(S, i, subsystem) only, so its numbers do not depend on which
// thread plays it. Engagements are cut into fixed chunks of k_chunk indices
// (independent of the thread count); std::thread workers play chunks into
// per-chunk accumulators held in a small ring of slots (nothing is allocated
// per engagement); the main thread merges chunks strictly in index order.
// So the summed engagements are always a prefix [0, next) of the run, and a
// precision target, an interruption or a checkpoint is decided on the same
// prefix whatever the thread count. The sums are exact integers besides, so
// the merged numbers are bit-identical for 1, 2 or 8 threads.
//
// On the ranks of an MPI job (VEDETTE_MPI, started by mpirun: see
// sims/cluster) the same call splits the chunks across the ranks, each
// playing its share with its threads, and sums them exactly (harness.cpp,
// "MPI ranks"): every rank returns the same sums of the same prefix as one
// process would, so the reports are byte-identical for any number of ranks
// and threads. Every rank must make the same calls (the commands do: same
// flags, same files, rank 0's seed). Only rank 0 draws progress, calls
// `checkpoint` and gets `rows`; a failure on any rank is thrown on all.
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <vector>

#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace vedette::lab {

inline constexpr std::uint64_t k_chunk = 256;  // engagements per chunk; never depends on threads
// A precision target is first checked once this many engagements are in.
inline constexpr std::uint64_t k_precision_min = 1000;

// What a run sums: one tally per model played and, with two models (a
// comparison on common random numbers), their paired differences.
struct Sums {
  std::vector<Tally> tallies;
  std::optional<PairedTally> paired;

  Sums() = default;
  explicit Sums(std::span<const Model* const> models);
  std::int64_t n() const { return tallies.empty() ? 0 : tallies.front().n; }
  void merge(const Sums& o);
  void clear();
};

enum class StopReason { complete, precision, interrupted };

struct HarnessOptions {
  std::uint64_t seed = 0;
  std::uint64_t n = 0;  // engagements to play (the most, with a precision target)
  unsigned threads = 1;
  // Stop at the first chunk boundary where every outcome probability of the
  // first model has a 95% interval no wider than +/- this (and at least
  // k_precision_min engagements are in).
  std::optional<double> precision;
  // Called by the main thread with the sums of [0, next): every
  // checkpoint_seconds (0: after every chunk; on MPI ranks, after every
  // round), and once at the end. On MPI ranks, on rank 0 only.
  std::function<void(const Sums&, std::uint64_t next)> checkpoint;
  double checkpoint_seconds = 10;
  // Called by the main thread for every engagement, in index order, with the
  // rows of each model (for engagements.csv). Null: no rows are kept. On
  // MPI ranks, on rank 0 only (the others send it theirs).
  std::function<void(std::uint64_t index, std::span<const OutcomeRow> rows)> rows;
  // A progress bar is drawn here when not null (a terminal's stderr).
  std::ostream* progress = nullptr;
  // A run made of several calls (sensitivity's batches): the bar counts
  // progress_before engagements as done before this call, out of
  // progress_total in the whole run (0: this call's own), and ends with
  // progress_note ("variants 17-32 of 283").
  std::uint64_t progress_before = 0, progress_total = 0;
  std::string progress_note;
  // Non-zero: stop at the next engagement boundary (set by a signal handler).
  // On MPI ranks a stop on any rank stops them all, and a SignalStop's flag
  // then holds the signal on every rank.
  const std::atomic<int>* stop = nullptr;
};

struct HarnessResult {
  Sums sums;               // engagements [0, next)
  std::uint64_t next = 0;
  StopReason stop = StopReason::complete;
  double seconds = 0;      // wall time of this call (never in a report file)
};

// Plays engagements [next, o.n) of every model on the same streams, adding to
// `start` (the sums of [0, next), e.g. from a checkpoint). Throws whatever a
// player throws, and std::logic_error when a player fills a row with a value
// out of range.
HarnessResult run_harness(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next);

// The widest 95% half width among the outcome probabilities.
double widest_outcome_half_width(const Tally& t);

// While alive, SIGINT and SIGTERM set flag() (to the signal's number) instead
// of ending the process; a second signal ends it as usual.
class SignalStop {
 public:
  SignalStop();
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;
  const std::atomic<int>& flag() const;
};

}  // namespace vedette::lab
