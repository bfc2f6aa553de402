#include "sims/lab/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <exception>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "sims/cluster/cluster.hpp"
#include "sims/io/atomic_file.hpp"

namespace vedette::lab {

// ------------------------------------------------------------------ Sums

Sums::Sums(std::span<const Model* const> models) {
  for (const Model* m : models) tallies.emplace_back(m->schema());
  if (models.size() == 2) paired.emplace(models[0]->schema());
}

void Sums::merge(const Sums& o) {
  if (tallies.size() != o.tallies.size() || paired.has_value() != o.paired.has_value())
    throw std::logic_error("Sums::merge: different shapes");
  for (std::size_t i = 0; i < tallies.size(); ++i) tallies[i].merge(o.tallies[i]);
  if (paired) paired->merge(*o.paired);
}

void Sums::clear() {
  for (auto& t : tallies) t.clear();
  if (paired) paired->clear();
}

namespace {
// The widest 95% half width among outcome counts of n engagements.
double widest_half_width(const std::int64_t* counts, std::size_t outcomes, std::int64_t n) {
  double w = 0;
  for (std::size_t k = 0; k < outcomes; ++k) w = std::max(w, wilson(counts[k], n).half_width());
  return w;
}
}  // namespace

double widest_outcome_half_width(const Tally& t) {
  return widest_half_width(t.sum.data(), t.outcomes, t.n);
}

// --------------------------------------------------------------- signals

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal flag must be lock-free");

extern "C" void on_stop_signal(int sig) { g_signal.store(sig); }

}  // namespace

SignalStop::SignalStop() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a second signal acts as usual
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

SignalStop::~SignalStop() {
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

const std::atomic<int>& SignalStop::flag() const { return g_signal; }

// --------------------------------------------------------------- harness

namespace {

using Clock = std::chrono::steady_clock;

struct Slot {
  Sums sums;
  std::vector<OutcomeRow> rows;  // k_chunk x models: engagement k's row of model m at k * models + m
  std::uint64_t seq = 0;         // which chunk of this run it holds
  std::uint64_t begin = 0, end = 0, done = 0;
  bool ready = false;
};

std::string thousands(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

// A progress bar redrawn in place (a terminal), or, for the ranks of an MPI
// job (whose stderr mpirun relays through a pipe, into a terminal or a
// batch log alike), a line every 10 seconds from rank 0 with the rate of all
// ranks together.
class Progress {
 public:
  Progress(std::ostream* out, std::uint64_t first, std::uint64_t total, int ranks = 1)
      : out_(out), first_(first), total_(total), ranks_(ranks) {}
  // Part of a longer run: `before` engagements done before this call, `total` in all.
  void whole_run(std::uint64_t before, std::uint64_t total, std::string note) {
    if (total == 0) return;
    first_ += before;
    before_ = before;
    total_ = total;
    note_ = std::move(note);
  }
  void update(std::uint64_t done_here, bool force = false) {
    if (!out_) return;
    const std::uint64_t done = done_here + before_;
    auto now = Clock::now();
    if (ranks_ > 1) {
      if (now - last_ < std::chrono::seconds(10)) return;
    } else if (!force && now - last_ < std::chrono::milliseconds(200)) {
      return;
    }
    if (ranks_ > 1 && last_ == Clock::time_point{}) {  // the first line after 10 s, not at once
      last_ = now;
      return;
    }
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? static_cast<double>(done - first_) / secs : 0;
    const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : NAN;
    if (ranks_ > 1) {
      *out_ << "vedette: " << thousands(done) << " / " << thousands(total_) << " engagements, " << thousands(static_cast<std::uint64_t>(rate))
            << " engagements/s on " << ranks_ << " ranks, " << clock_text(left) << " left\n"
            << std::flush;
      return;
    }
    const int width = 24;
    const int filled = total_ ? static_cast<int>(static_cast<double>(width) * static_cast<double>(done) / static_cast<double>(total_)) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(static_cast<std::size_t>(width), '.');
    *out_ << "\r[" << bar << "] " << thousands(done) << " / " << thousands(total_) << "  "
          << thousands(static_cast<std::uint64_t>(rate)) << " engagements/s  " << clock_text(left) << " left  "
          << (note_.empty() ? "" : note_ + "  ") << std::flush;
  }
  void finish() {
    if (out_ && ranks_ == 1) *out_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream* out_;
  std::uint64_t first_, total_;
  int ranks_;
  std::uint64_t before_ = 0;
  std::string note_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_{};
};

void check_row(const Schema& s, const OutcomeRow& row, std::uint64_t index) {
  if (row.outcome >= s.outcomes())
    throw std::logic_error("engagement " + std::to_string(index) + ": outcome " + std::to_string(row.outcome) + " out of range");
  for (std::size_t m = 0; m < row.metrics.size(); ++m)
    if (row.metrics[m] < 0 || row.metrics[m] >= k_metric_limit)
      throw std::logic_error("engagement " + std::to_string(index) + ": " + s.metrics[m].id + " = " +
                             std::to_string(row.metrics[m]) + " is outside [0, " + std::to_string(k_metric_limit) + ")");
}

// One process: this machine's threads play [next, o.n). The workers claim
// chunks in order into a window of slots; the main thread merges the slots
// in chunk order, so the sums are the same whatever the thread count.
class LocalRun {
 public:
  LocalRun(std::span<const Model* const> models, const HarnessOptions& o, std::uint64_t next)
      : models_(models),
        o_(o),
        next_(next),
        first_chunk_(next / k_chunk),
        chunks_((o.n + k_chunk - 1) / k_chunk - first_chunk_),
        threads_(std::max(1u, static_cast<unsigned>(std::min<std::uint64_t>(o.threads, chunks_)))),
        window_(2 * static_cast<std::size_t>(threads_) + 2),
        nm_(models.size()),
        keep_rows_(static_cast<bool>(o.rows)),
        slots_(window_),
        active_(threads_) {
    for (auto& s : slots_) {
      s.sums = Sums(models);
      for (std::size_t i = 0; i < k_chunk * nm_; ++i) s.rows.emplace_back(models[i % nm_]->schema());
    }
  }

  unsigned threads() const { return threads_; }
  const std::exception_ptr& failure() const { return failure_; }

  // A worker thread: claim the next chunk while the window has room, play it.
  void work() {
    std::vector<std::unique_ptr<Player>> players;
    try {
      for (std::size_t m = 0; m < nm_; ++m) players.push_back(models_[m]->player());
      for (;;) {
        std::uint64_t seq;
        {
          std::unique_lock lk(mu_);
          work_cv_.wait(lk, [&] { return stopped() || claimed_ >= chunks_ || claimed_ < merged_ + window_; });
          if (stopped() || claimed_ >= chunks_) break;
          seq = claimed_++;
        }
        Slot& sl = slots_[seq % window_];
        play_chunk(sl, seq, players);
        {
          std::lock_guard lk(mu_);
          sl.seq = seq;
          sl.ready = true;
        }
        main_cv_.notify_one();
      }
    } catch (...) {
      std::lock_guard lk(mu_);
      if (!failure_) failure_ = std::current_exception();
      stop_all_ = true;
    }
    {
      std::lock_guard lk(mu_);
      --active_;
    }
    main_cv_.notify_one();
    work_cv_.notify_all();
  }

  // The main thread: merge the chunks in order into `res`, with rows,
  // progress, the precision target and checkpoints. Whether it was
  // interrupted by a stop signal.
  bool merge_in_order(HarnessResult& res, Progress& bar) {
    auto last_checkpoint = Clock::now();
    bool interrupted = false;
    while (merged_ < chunks_) {
      Slot& sl = slots_[merged_ % window_];
      bool ready;
      bool idle;
      {
        std::unique_lock lk(mu_);
        main_cv_.wait_for(lk, std::chrono::milliseconds(100), [&] { return (sl.ready && sl.seq == merged_) || active_ == 0; });
        ready = sl.ready && sl.seq == merged_;
        idle = active_ == 0;
      }
      if (o_.stop && o_.stop->load() != 0 && !stop_all_) {
        interrupted = true;
        stop_all_ = true;
        work_cv_.notify_all();
      }
      if (!ready) {
        if (idle) break;  // stopped, and nothing more is coming
        bar.update(res.next);
        continue;
      }
      res.sums.merge(sl.sums);
      if (keep_rows_)
        for (std::uint64_t i = 0; i < sl.done; ++i)
          o_.rows(sl.begin + i, std::span<const OutcomeRow>(&sl.rows[i * nm_], nm_));
      res.next = sl.begin + sl.done;
      const bool full = sl.done == sl.end - sl.begin;
      {
        std::lock_guard lk(mu_);
        sl.ready = false;
        ++merged_;
      }
      work_cv_.notify_all();
      if (!full) break;  // interrupted inside this chunk: the prefix ends here
      if (o_.precision && (res.next % k_chunk == 0 || res.next == o_.n) && res.next >= k_precision_min &&
          widest_outcome_half_width(res.sums.tallies.front()) <= *o_.precision) {
        res.stop = StopReason::precision;
        break;
      }
      if (o_.checkpoint && res.next < o_.n &&
          std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= o_.checkpoint_seconds) {
        o_.checkpoint(res.sums, res.next);
        last_checkpoint = Clock::now();
      }
      bar.update(res.next);
    }
    return interrupted;
  }

  // Tell the workers to stop (the main thread is done, or leaving).
  void stop_workers() {
    stop_all_ = true;
    work_cv_.notify_all();
  }

 private:
  bool stopped() const {
    return stop_all_.load(std::memory_order_relaxed) || (o_.stop && o_.stop->load(std::memory_order_relaxed) != 0);
  }

  // Chunk `seq` of this run into its slot, model by model: each model's
  // player (its engagement and the board tables it keeps) stays in the
  // cache for the whole chunk instead of taking turns with every other
  // model's at each engagement (`vedette sensitivity` plays 17 side by
  // side; benchmarks/README.md, "ninth pass", measured what that cost on a
  // hex board). Engagement i's row is the same whatever was played before it
  // (its dice are make_stream(seed, i, ...), and what a player keeps
  // between calls changes no answer), so the rows are those of playing
  // every model on index i, then i + 1. They are summed in index order
  // after: a stop ends the first model's loop early, and the others play
  // the same prefix (at most a chunk each).
  void play_chunk(Slot& sl, std::uint64_t seq, std::vector<std::unique_ptr<Player>>& players) {
    sl.sums.clear();
    const std::uint64_t c = first_chunk_ + seq;
    sl.begin = std::max(c * k_chunk, next_);
    sl.end = std::min((c + 1) * k_chunk, o_.n);
    std::uint64_t done = sl.end - sl.begin;
    for (std::size_t m = 0; m < nm_; ++m) {
      const Schema& schema = models_[m]->schema();
      for (std::uint64_t k = 0; k < done; ++k) {
        if (m == 0 && stopped()) {  // the other models then play the same prefix
          done = k;
          break;
        }
        OutcomeRow& row = sl.rows[k * nm_ + m];
        row.reset();
        players[m]->play(o_.seed, sl.begin + k, row);
        check_row(schema, row, sl.begin + k);
      }
    }
    for (std::uint64_t k = 0; k < done; ++k) {
      const OutcomeRow* rows = &sl.rows[k * nm_];
      for (std::size_t m = 0; m < nm_; ++m) sl.sums.tallies[m].add(rows[m]);
      if (sl.sums.paired) sl.sums.paired->add(rows[0], rows[1]);
    }
    sl.done = done;
  }

  std::span<const Model* const> models_;
  const HarnessOptions& o_;
  const std::uint64_t next_, first_chunk_, chunks_;
  const unsigned threads_;
  const std::size_t window_, nm_;
  const bool keep_rows_;
  std::vector<Slot> slots_;
  std::mutex mu_;
  std::condition_variable main_cv_, work_cv_;
  std::uint64_t claimed_ = 0, merged_ = 0;
  unsigned active_;
  std::atomic<bool> stop_all_{false};
  std::exception_ptr failure_;
};

HarnessResult run_local(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next) {
  const auto t0 = Clock::now();
  HarnessResult res;
  res.sums = std::move(start);
  res.next = next;
  LocalRun run(models, o, next);

  std::vector<std::thread> pool;
  pool.reserve(run.threads());
  for (unsigned t = 0; t < run.threads(); ++t) pool.emplace_back([&run] { run.work(); });

  // Whatever the main thread throws (a checkpoint or a CSV row that cannot
  // be written), the workers are stopped and joined before it leaves.
  struct Joiner {
    LocalRun& run;
    std::vector<std::thread>& pool;
    ~Joiner() {
      run.stop_workers();
      for (auto& t : pool)
        if (t.joinable()) t.join();
    }
  } joiner{run, pool};

  Progress bar(o.progress, next, o.n);
  bar.whole_run(o.progress_before, o.progress_total, o.progress_note);
  bool interrupted = run.merge_in_order(res, bar);
  run.stop_workers();
  for (auto& t : pool) t.join();
  bar.finish();
  if (run.failure()) std::rethrow_exception(run.failure());
  if (res.stop != StopReason::precision && res.next < o.n) {
    interrupted = true;
  }
  if (interrupted && res.stop != StopReason::precision) res.stop = StopReason::interrupted;
  if (o.checkpoint) o.checkpoint(res.sums, res.next);
  res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}


// ---------------------------------------------------------- MPI ranks
//
// With several ranks (sims/cluster), the run goes in rounds. A round starts
// at the chunk holding `next` and gives each rank, in rank order, one
// contiguous block of whole chunks, which the rank plays with its threads
// (run_local above: the same chunks, streams and order as one process).
// Then, in this order, every rank calls the same collectives:
//   1. a maximum over a small status array: each rank's engagements done in
//      its block (fewer than the block's when it was stopped), with a
//      precision target the outcome counts at each of its chunk ends, a stop
//      signal, a rank that failed;
//   2. from that, every rank computes the same cut: the prefix [0, cut) that
//      one process would have summed (it ends at the first block stopped
//      short, or at the first chunk end where the precision target is met);
//   3. an exact sum (and a maximum, for the metrics' min and max) of every
//      rank's sums inside the cut, so every rank holds the same merged sums
//      of [0, cut) and takes the same decisions afterwards;
//   4. with rows asked for, rank 0 gathers the rows inside the cut, in index
//      order (blocks follow rank order).
// Only rank 0 draws progress, writes checkpoints and gets rows; a failure
// there (a file that cannot be written) is passed on at the next status.

// Each rank's share of a round: at most this many chunks per thread (a
// round is then ~8,000 engagements per thread: rare enough collectives, a
// stop noticed within a fraction of a second).
constexpr std::uint64_t k_round_chunks_per_thread = 32;

// Sums as flat whole numbers: `add` (summed over ranks) and `top` (maxima:
// each max, and each min negated).
template <class AddF, class TopF>
void visit(Sums& s, AddF add, TopF top) {
  for (Tally& t : s.tallies) {
    add(&t.n, 1);
    add(t.sum.data(), t.sum.size());
    const Eigen::Index D = t.cross.rows();
    for (Eigen::Index j = 0; j < D; ++j) add(&t.cross(j, j), D - j);  // the lower triangle, column by column
    add(t.outcome_sum.data(), t.outcome_sum.size());
    add(t.outcome_sumsq.data(), t.outcome_sumsq.size());
    add(t.nonzero.data(), t.nonzero.size());
    for (auto& h : t.hist) add(h.data(), h.size());
    add(t.chosen.data(), t.chosen.size());
    add(t.band_engagements.data(), t.band_engagements.size());
    top(t.min.data(), t.min.size(), true);
    top(t.max.data(), t.max.size(), false);
  }
  if (s.paired) {
    PairedTally& p = *s.paired;
    add(&p.n, 1);
    add(p.sum_d.data(), p.sum_d.size());
    add(p.sumsq_d.data(), p.sumsq_d.size());
    add(p.differ.data(), p.differ.size());
  }
}

void pack(Sums& s, std::vector<std::int64_t>& add, std::vector<std::int64_t>& top) {
  add.clear();
  top.clear();
  visit(
      s, [&](const std::int64_t* p, Eigen::Index n) { add.insert(add.end(), p, p + n); },
      [&](const std::int64_t* p, Eigen::Index n, bool negate) {
        for (Eigen::Index i = 0; i < n; ++i) top.push_back(negate ? -p[i] : p[i]);
      });
}

void unpack(Sums& s, const std::vector<std::int64_t>& add, const std::vector<std::int64_t>& top) {
  std::size_t a = 0, b = 0;
  visit(
      s,
      [&](std::int64_t* p, Eigen::Index n) {
        for (Eigen::Index i = 0; i < n; ++i) p[i] = add[a++];
      },
      [&](std::int64_t* p, Eigen::Index n, bool negate) {
        for (Eigen::Index i = 0; i < n; ++i, ++b) p[i] = negate ? -top[b] : top[b];
      });
}

// A row as whole numbers: outcome, metrics, Actions Table decisions.
std::size_t row_width(const Schema& s) { return 1 + s.metrics.size() + s.bands() * s.behaviours(); }

void pack_row(const OutcomeRow& r, std::vector<std::int64_t>& out) {
  out.push_back(static_cast<std::int64_t>(r.outcome));
  out.insert(out.end(), r.metrics.begin(), r.metrics.end());
  for (std::uint32_t c : r.chosen) out.push_back(c);
}

const std::int64_t* unpack_row(const std::int64_t* p, OutcomeRow& r) {
  r.outcome = static_cast<std::size_t>(*p++);
  for (auto& m : r.metrics) m = *p++;
  for (auto& c : r.chosen) c = static_cast<std::uint32_t>(*p++);
  return p;
}

// A failure on one rank, raised on every rank: the failing rank rethrows its
// own exception, the others one of the same kind with the same message.
[[noreturn]] void raise_everywhere(int failed_rank, const std::exception_ptr& mine) {
  std::string what;
  if (cluster::rank() == failed_rank) {
    try {
      std::rethrow_exception(mine);
    } catch (const AtomicWriteError& e) {
      what = std::string("w") + e.what();
    } catch (const std::logic_error& e) {
      what = std::string("l") + e.what();
    } catch (const std::exception& e) {
      what = std::string("r") + e.what();
    } catch (...) {
      what = "rrank " + std::to_string(failed_rank) + " failed";
    }
  }
  cluster::broadcast(what, failed_rank);
  if (cluster::rank() == failed_rank) std::rethrow_exception(mine);
  const std::string msg = what.empty() ? std::string() : what.substr(1);
  if (!what.empty() && what[0] == 'w') throw AtomicWriteError(msg);
  if (!what.empty() && what[0] == 'l') throw std::logic_error(msg);
  throw std::runtime_error(msg);
}

// Round blocks: the round starting at chunk c0 gives each rank per_rank
// whole chunks, in rank order, clipped to [next, n).
struct RoundBlocks {
  std::uint64_t c0, per_rank, next, n;
  std::pair<std::uint64_t, std::uint64_t> block(std::uint64_t r) const {
    const std::uint64_t b = std::clamp((c0 + r * per_rank) * k_chunk, next, n);
    const std::uint64_t e = std::clamp((c0 + (r + 1) * per_rank) * k_chunk, b, n);
    return std::pair{b, e};
  }
};

// What this rank played of its block in a round.
struct BlockPlayed {
  Sums mine;
  std::uint64_t done = 0;
  std::vector<std::int64_t> ends;  // with a precision target: outcome counts at each chunk end, K per chunk
  std::vector<Sums> snapshots;     // and the sums there
};

// 1. This rank's block, on its threads (its rows packed into rows_mine).
// A failure is kept in `failure`, for the status to raise everywhere.
BlockPlayed play_my_block(std::span<const Model* const> models, const HarnessOptions& o, unsigned threads, std::uint64_t my_begin,
                          std::uint64_t my_end, std::vector<std::int64_t>& rows_mine, std::exception_ptr& failure) {
  const std::size_t K = models.front()->schema().outcomes();
  BlockPlayed p{Sums(models), 0, {}, {}};
  rows_mine.clear();
  if (failure || my_begin >= my_end) return p;
  HarnessOptions lo;
  lo.seed = o.seed;
  lo.n = my_end;
  lo.threads = threads;
  lo.stop = o.stop;
  if (o.precision.has_value()) {
    lo.checkpoint_seconds = 0;  // after every chunk, and at the end
    lo.checkpoint = [&](const Sums& s, std::uint64_t at) {
      if (at == my_begin || (at != my_end && at % k_chunk != 0)) return;  // nothing played, or stopped inside a chunk
      if (!p.snapshots.empty() && p.snapshots.back().n() == s.n()) return;
      const Tally& t = s.tallies.front();
      p.ends.insert(p.ends.end(), t.sum.data(), t.sum.data() + static_cast<std::ptrdiff_t>(K));
      p.snapshots.push_back(s);
    };
  }
  if (o.rows)
    lo.rows = [&](std::uint64_t, std::span<const OutcomeRow> rows) {
      for (const auto& r : rows) pack_row(r, rows_mine);
    };
  try {
    HarnessResult r = run_local(models, lo, Sums(models), my_begin);
    p.mine = std::move(r.sums);
    p.done = r.next - my_begin;
  } catch (...) {
    failure = std::current_exception();
    p.done = 0;
  }
  return p;
}

// 2. The status, the same on every rank after a maximum over them: done per
// rank, [chunk-end counts per rank, `slots` each], the stop signal, the
// failed rank (raised everywhere here).
struct RoundStatus {
  std::vector<std::int64_t> v;
  std::size_t slots = 0;
  std::int64_t done(int r) const { return v[static_cast<std::size_t>(r)]; }
  const std::int64_t* chunk_ends(int r, int R) const { return &v[static_cast<std::size_t>(R) + static_cast<std::size_t>(r) * slots]; }
  std::int64_t signal() const { return v[v.size() - 2]; }
};

void exchange_status(RoundStatus& status, const BlockPlayed& played, const HarnessOptions& o, const std::exception_ptr& failure) {
  const int R = cluster::size();
  const int me = cluster::rank();
  const auto uR = static_cast<std::uint64_t>(R);
  const std::size_t slots = status.slots;
  std::vector<std::int64_t>& v = status.v;
  v.assign(static_cast<std::size_t>(R) * (1 + slots) + 2, 0);
  v[static_cast<std::size_t>(me)] = static_cast<std::int64_t>(played.done);
  std::copy(played.ends.begin(), played.ends.end(), v.begin() + static_cast<std::ptrdiff_t>(uR + static_cast<std::size_t>(me) * slots));
  const std::size_t at_sig = v.size() - 2, at_failed = v.size() - 1;
  v[at_sig] = o.stop ? o.stop->load() : 0;
  v[at_failed] = failure ? me + 1 : 0;
  cluster::allreduce_max(v);
  if (v[at_failed]) raise_everywhere(static_cast<int>(v[at_failed] - 1), failure);
}

// 3. The cut, the same on every rank: the prefix [0, cut) one process would
// have summed.
struct RoundCut {
  std::uint64_t cut = 0;
  int rank = 0;               // the rank whose block holds the cut (R: after every block)
  std::size_t snapshot = 0;   // with precision: which chunk end of that rank
  bool short_block = false;   // that rank's block was stopped short
};

RoundCut find_cut(const RoundBlocks& round, const RoundStatus& status, const Sums& before, const HarnessOptions& o, std::size_t K) {
  const int R = cluster::size();
  const auto uR = static_cast<std::uint64_t>(R);
  const bool precise = o.precision.has_value();
  RoundCut c;
  c.cut = round.block(uR - 1).second;
  c.rank = R;
  std::vector<std::int64_t> counts(before.tallies.front().sum.data(), before.tallies.front().sum.data() + K);
  std::vector<std::int64_t> at_end(K);
  for (int r = 0; r < R && c.rank == R; ++r) {
    const auto [b, e] = round.block(static_cast<std::uint64_t>(r));
    const auto d = static_cast<std::uint64_t>(status.done(r));
    if (precise) {
      // Each chunk end inside what rank r played, as one process checks it.
      const std::int64_t* rc = status.chunk_ends(r, R);
      std::size_t i = 0;
      for (std::uint64_t at = b; at < b + d; ++i) {
        at = std::min((at / k_chunk + 1) * k_chunk, e);
        if (at > b + d) break;  // stopped inside this chunk: not a chunk end
        for (std::size_t k = 0; k < K; ++k) at_end[k] = counts[k] + rc[i * K + k];
        if (at >= k_precision_min && widest_half_width(at_end.data(), K, static_cast<std::int64_t>(at)) <= *o.precision) {
          c.cut = at;
          c.rank = r;
          c.snapshot = i;
          break;
        }
      }
      if (c.rank != R) break;
      if (d == e - b && i > 0) counts = std::vector<std::int64_t>(at_end.begin(), at_end.end());
    }
    if (d < e - b) {
      c.cut = b + d;
      c.rank = r;
      c.short_block = true;
    }
  }
  return c;
}

// 4. The sums of [next, cut), exact, on every rank, added to `sums`.
void merge_round(Sums& sums, BlockPlayed& played, const RoundCut& c, Sums& round, Sums& none, std::vector<std::int64_t>& add,
                 std::vector<std::int64_t>& top) {
  const int me = cluster::rank();
  Sums* contribution = &none;
  if (me < c.rank) contribution = &played.mine;
  else if (me == c.rank) contribution = c.short_block ? &played.mine : &played.snapshots[c.snapshot];
  pack(*contribution, add, top);
  cluster::allreduce_sum(add);
  cluster::allreduce_max(top);
  unpack(round, add, top);
  sums.merge(round);
}

// 5. Rows of [next, cut), to rank 0, in index order, handed to o.rows there.
void pass_rows_to_root(std::span<const Model* const> models, const HarnessOptions& o, std::uint64_t next, std::uint64_t my_begin,
                       const BlockPlayed& played, const RoundCut& c, std::vector<std::int64_t>& rows_mine,
                       std::vector<OutcomeRow>& rows_shown, std::exception_ptr& failure) {
  const int me = cluster::rank();
  std::size_t width = 0;
  for (const Model* m : models) width += row_width(m->schema());
  std::uint64_t keep = 0;
  if (me < c.rank || (me == c.rank && c.short_block)) keep = played.done;
  else if (me == c.rank) keep = c.cut - my_begin;
  rows_mine.resize(static_cast<std::size_t>(keep) * width);
  std::vector<std::int64_t> all = cluster::gather_to_root(rows_mine);
  if (me == 0 && !failure) {
    try {
      const std::int64_t* p = all.data();
      for (std::uint64_t i = next; i < c.cut; ++i) {
        for (std::size_t m = 0; m < models.size(); ++m) p = unpack_row(p, rows_shown[m]);
        o.rows(i, rows_shown);
      }
    } catch (...) {
      failure = std::current_exception();
    }
  }
}

// Rank 0 saves a checkpoint; a failure is kept for the next status.
void checkpoint_on_root(const HarnessOptions& o, const HarnessResult& res, std::exception_ptr& failure) {
  if (cluster::rank() != 0 || failure || !o.checkpoint) return;
  try {
    o.checkpoint(res.sums, res.next);
  } catch (...) {
    failure = std::current_exception();
  }
}

HarnessResult run_ranks(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next) {
  const auto t0 = Clock::now();
  HarnessResult res;
  res.sums = std::move(start);
  res.next = next;
  const int R = cluster::size();
  const int me = cluster::rank();
  const auto uR = static_cast<std::uint64_t>(R);
  const unsigned threads = std::max(1u, o.threads);
  const std::size_t K = models.front()->schema().outcomes();
  const bool keep_rows = static_cast<bool>(o.rows);  // the same on every rank: the commands run alike
  const std::uint64_t last_chunk = (o.n + k_chunk - 1) / k_chunk;

  Progress bar(me == 0 ? o.progress : nullptr, next, o.n, R);
  bar.whole_run(o.progress_before, o.progress_total, o.progress_note);
  auto last_checkpoint = Clock::now();
  std::exception_ptr failure;  // this rank's, raised everywhere at the next status
  int sig = 0;
  RoundStatus status;
  std::vector<std::int64_t> add, top, rows_mine;
  std::vector<OutcomeRow> rows_shown;
  for (const Model* m : models) rows_shown.emplace_back(m->schema());
  Sums round(models), none(models);

  while (res.next < o.n) {
    const std::uint64_t c0 = res.next / k_chunk;
    const std::uint64_t per_rank = std::min<std::uint64_t>(threads * k_round_chunks_per_thread, (last_chunk - c0 + uR - 1) / uR);
    const RoundBlocks blocks{c0, per_rank, res.next, o.n};
    const auto [my_begin, my_end] = blocks.block(static_cast<std::uint64_t>(me));

    BlockPlayed played = play_my_block(models, o, threads, my_begin, my_end, rows_mine, failure);
    status.slots = o.precision.has_value() ? static_cast<std::size_t>(per_rank) * K : 0;
    exchange_status(status, played, o, failure);
    if (status.signal()) sig = static_cast<int>(status.signal());
    const RoundCut c = find_cut(blocks, status, res.sums, o, K);
    if (c.rank != R && !c.short_block) res.stop = StopReason::precision;
    merge_round(res.sums, played, c, round, none, add, top);
    if (keep_rows) pass_rows_to_root(models, o, res.next, my_begin, played, c, rows_mine, rows_shown, failure);

    res.next = c.cut;
    bar.update(res.next);
    if (res.stop == StopReason::precision) break;
    if (c.short_block || sig) {
      res.stop = StopReason::interrupted;
      break;
    }
    if (me == 0 && !failure && o.checkpoint && res.next < o.n &&
        std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= o.checkpoint_seconds) {
      checkpoint_on_root(o, res, failure);
      last_checkpoint = Clock::now();
    }
  }
  bar.finish();
  checkpoint_on_root(o, res, failure);
  // The exchange of a failure alone (after the last round).
  std::int64_t failed[1] = {failure ? me + 1 : 0};
  cluster::allreduce_max(failed);
  if (failed[0]) raise_everywhere(static_cast<int>(failed[0] - 1), failure);
  // A stop on another rank is this rank's stop too: the command reads it
  // from the flag SignalStop gave it.
  if (sig && o.stop == &g_signal && g_signal.load() == 0) g_signal.store(sig);
  res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}

}  // namespace

HarnessResult run_harness(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next) {
  if (models.empty()) throw std::logic_error("run_harness: no model");
  if (o.n > k_max_engagements) throw std::logic_error("run_harness: too many engagements");
  if (next >= o.n) {
    HarnessResult res;
    res.sums = std::move(start);
    res.next = next;
    return res;
  }
  if (cluster::many()) return run_ranks(models, o, std::move(start), next);
  return run_local(models, o, std::move(start), next);
}

}  // namespace vedette::lab
