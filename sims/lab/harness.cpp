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
  std::vector<OutcomeRow> rows;  // k_chunk x models, only when rows are asked for
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

// One process: this machine's threads play [next, o.n).
HarnessResult run_local(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next) {
  const auto t0 = Clock::now();
  HarnessResult res;
  res.sums = std::move(start);
  res.next = next;
  const std::uint64_t first_chunk = next / k_chunk;
  const std::uint64_t chunks = (o.n + k_chunk - 1) / k_chunk - first_chunk;
  const unsigned threads = std::max(1u, static_cast<unsigned>(std::min<std::uint64_t>(o.threads, chunks)));
  const std::size_t window = 2 * static_cast<std::size_t>(threads) + 2;
  const std::size_t nm = models.size();
  const bool keep_rows = static_cast<bool>(o.rows);

  std::vector<Slot> slots(window);
  for (auto& s : slots) {
    s.sums = Sums(models);
    if (keep_rows)
      for (std::size_t i = 0; i < k_chunk * nm; ++i) s.rows.emplace_back(models[i % nm]->schema());
  }

  std::mutex mu;
  std::condition_variable main_cv, work_cv;
  std::uint64_t claimed = 0, merged = 0;
  unsigned active = threads;
  std::atomic<bool> stop_all{false};
  std::exception_ptr failure;

  auto stopped = [&] { return stop_all.load(std::memory_order_relaxed) || (o.stop && o.stop->load(std::memory_order_relaxed) != 0); };

  auto worker = [&] {
    std::vector<std::unique_ptr<Player>> players;
    std::vector<OutcomeRow> scratch;
    try {
      for (std::size_t m = 0; m < nm; ++m) {
        players.push_back(models[m]->player());
        scratch.emplace_back(models[m]->schema());
      }
      for (;;) {
        std::uint64_t seq;
        {
          std::unique_lock lk(mu);
          work_cv.wait(lk, [&] { return stopped() || claimed >= chunks || claimed < merged + window; });
          if (stopped() || claimed >= chunks) break;
          seq = claimed++;
        }
        Slot& sl = slots[seq % window];
        sl.sums.clear();
        const std::uint64_t c = first_chunk + seq;
        sl.begin = std::max(c * k_chunk, next);
        sl.end = std::min((c + 1) * k_chunk, o.n);
        sl.done = 0;
        for (std::uint64_t i = sl.begin; i < sl.end; ++i) {
          if (stopped()) break;
          OutcomeRow* rows = keep_rows ? &sl.rows[(i - sl.begin) * nm] : scratch.data();
          for (std::size_t m = 0; m < nm; ++m) {
            rows[m].reset();
            players[m]->play(o.seed, i, rows[m]);
            check_row(models[m]->schema(), rows[m], i);
            sl.sums.tallies[m].add(rows[m]);
          }
          if (sl.sums.paired) sl.sums.paired->add(rows[0], rows[1]);
          ++sl.done;
        }
        {
          std::lock_guard lk(mu);
          sl.seq = seq;
          sl.ready = true;
        }
        main_cv.notify_one();
      }
    } catch (...) {
      std::lock_guard lk(mu);
      if (!failure) failure = std::current_exception();
      stop_all = true;
    }
    {
      std::lock_guard lk(mu);
      --active;
    }
    main_cv.notify_one();
    work_cv.notify_all();
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);

  // Whatever the main thread throws (a checkpoint or a CSV row that cannot
  // be written), the workers are stopped and joined before it leaves.
  struct Joiner {
    std::atomic<bool>& stop;
    std::condition_variable& cv;
    std::vector<std::thread>& pool;
    ~Joiner() {
      stop = true;
      cv.notify_all();
      for (auto& t : pool)
        if (t.joinable()) t.join();
    }
  } joiner{stop_all, work_cv, pool};

  Progress bar(o.progress, next, o.n);
  bar.whole_run(o.progress_before, o.progress_total, o.progress_note);
  auto last_checkpoint = Clock::now();
  bool interrupted = false;
  while (merged < chunks) {
    Slot& sl = slots[merged % window];
    bool ready;
    bool idle;
    {
      std::unique_lock lk(mu);
      main_cv.wait_for(lk, std::chrono::milliseconds(100), [&] { return (sl.ready && sl.seq == merged) || active == 0; });
      ready = sl.ready && sl.seq == merged;
      idle = active == 0;
    }
    if (o.stop && o.stop->load() != 0 && !stop_all) {
      interrupted = true;
      stop_all = true;
      work_cv.notify_all();
    }
    if (!ready) {
      if (idle) break;  // stopped, and nothing more is coming
      bar.update(res.next);
      continue;
    }
    res.sums.merge(sl.sums);
    if (keep_rows)
      for (std::uint64_t i = 0; i < sl.done; ++i)
        o.rows(sl.begin + i, std::span<const OutcomeRow>(&sl.rows[i * nm], nm));
    res.next = sl.begin + sl.done;
    const bool full = sl.done == sl.end - sl.begin;
    {
      std::lock_guard lk(mu);
      sl.ready = false;
      ++merged;
    }
    work_cv.notify_all();
    if (!full) break;  // interrupted inside this chunk: the prefix ends here
    if (o.precision && (res.next % k_chunk == 0 || res.next == o.n) && res.next >= k_precision_min &&
        widest_outcome_half_width(res.sums.tallies.front()) <= *o.precision) {
      res.stop = StopReason::precision;
      break;
    }
    if (o.checkpoint && res.next < o.n &&
        std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= o.checkpoint_seconds) {
      o.checkpoint(res.sums, res.next);
      last_checkpoint = Clock::now();
    }
    bar.update(res.next);
  }
  stop_all = true;
  work_cv.notify_all();
  for (auto& t : pool) t.join();
  bar.finish();
  if (failure) std::rethrow_exception(failure);
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
  const std::size_t nm = models.size();
  const bool keep_rows = static_cast<bool>(o.rows);  // the same on every rank: the commands run alike
  const bool precise = o.precision.has_value();
  const std::uint64_t last_chunk = (o.n + k_chunk - 1) / k_chunk;

  Progress bar(me == 0 ? o.progress : nullptr, next, o.n, R);
  bar.whole_run(o.progress_before, o.progress_total, o.progress_note);
  auto last_checkpoint = Clock::now();
  std::exception_ptr failure;  // this rank's, raised everywhere at the next status
  int sig = 0;
  std::vector<std::int64_t> status, add, top, rows_mine;
  std::vector<OutcomeRow> rows_shown;
  for (const Model* m : models) rows_shown.emplace_back(m->schema());
  Sums round(models), none(models);

  // The exchange of a failure alone (after the last round).
  auto settle = [&] {
    std::int64_t failed[1] = {failure ? me + 1 : 0};
    cluster::allreduce_max(failed);
    if (failed[0]) raise_everywhere(static_cast<int>(failed[0] - 1), failure);
  };

  while (res.next < o.n) {
    const std::uint64_t c0 = res.next / k_chunk;
    const std::uint64_t per_rank = std::min<std::uint64_t>(threads * k_round_chunks_per_thread, (last_chunk - c0 + uR - 1) / uR);
    auto block = [&](std::uint64_t r) {
      const std::uint64_t b = std::clamp((c0 + r * per_rank) * k_chunk, res.next, o.n);
      const std::uint64_t e = std::clamp((c0 + (r + 1) * per_rank) * k_chunk, b, o.n);
      return std::pair{b, e};
    };
    // (Plain variables, not a structured binding: clang 14, the fuzz build's
    // compiler, cannot capture bindings in the lambdas below.)
    const std::pair<std::uint64_t, std::uint64_t> my_block = block(static_cast<std::uint64_t>(me));
    const std::uint64_t my_begin = my_block.first, my_end = my_block.second;

    // 1. This rank's block, on its threads.
    Sums mine(models);
    std::uint64_t done = 0;
    std::vector<std::int64_t> ends;  // with a precision target: outcome counts at each chunk end, K per chunk
    std::vector<Sums> snapshots;     // and the sums there
    rows_mine.clear();
    if (!failure && my_begin < my_end) {
      HarnessOptions lo;
      lo.seed = o.seed;
      lo.n = my_end;
      lo.threads = threads;
      lo.stop = o.stop;
      if (precise) {
        lo.checkpoint_seconds = 0;  // after every chunk, and at the end
        lo.checkpoint = [&](const Sums& s, std::uint64_t at) {
          if (at == my_begin || (at != my_end && at % k_chunk != 0)) return;  // nothing played, or stopped inside a chunk
          if (!snapshots.empty() && snapshots.back().n() == s.n()) return;
          const Tally& t = s.tallies.front();
          ends.insert(ends.end(), t.sum.data(), t.sum.data() + static_cast<std::ptrdiff_t>(K));
          snapshots.push_back(s);
        };
      }
      if (keep_rows)
        lo.rows = [&](std::uint64_t, std::span<const OutcomeRow> rows) {
          for (const auto& r : rows) pack_row(r, rows_mine);
        };
      try {
        HarnessResult r = run_local(models, lo, Sums(models), my_begin);
        mine = std::move(r.sums);
        done = r.next - my_begin;
      } catch (...) {
        failure = std::current_exception();
        done = 0;
      }
    }

    // 2. The status: done per rank, [chunk-end counts per rank], signal, failed rank.
    const std::size_t slots = precise ? static_cast<std::size_t>(per_rank) * K : 0;
    status.assign(static_cast<std::size_t>(R) * (1 + slots) + 2, 0);
    status[static_cast<std::size_t>(me)] = static_cast<std::int64_t>(done);
    std::copy(ends.begin(), ends.end(), status.begin() + static_cast<std::ptrdiff_t>(uR + static_cast<std::size_t>(me) * slots));
    const std::size_t at_sig = status.size() - 2, at_failed = status.size() - 1;
    status[at_sig] = o.stop ? o.stop->load() : 0;
    status[at_failed] = failure ? me + 1 : 0;
    cluster::allreduce_max(status);
    if (status[at_failed]) raise_everywhere(static_cast<int>(status[at_failed] - 1), failure);
    if (status[at_sig]) sig = static_cast<int>(status[at_sig]);

    // 3. The cut, the same on every rank.
    std::uint64_t cut = block(uR - 1).second;
    int cut_rank = R;             // the rank whose block holds the cut (R: after every block)
    std::size_t cut_snapshot = 0;  // with precision: which chunk end of that rank
    bool short_block = false;
    std::vector<std::int64_t> counts(res.sums.tallies.front().sum.data(), res.sums.tallies.front().sum.data() + K);
    std::vector<std::int64_t> at_end(K);
    for (int r = 0; r < R && cut_rank == R; ++r) {
      const auto [b, e] = block(static_cast<std::uint64_t>(r));
      const auto d = static_cast<std::uint64_t>(status[static_cast<std::size_t>(r)]);
      if (precise) {
        // Each chunk end inside what rank r played, as one process checks it.
        const std::int64_t* rc = &status[uR + static_cast<std::size_t>(r) * slots];
        std::size_t i = 0;
        for (std::uint64_t at = b; at < b + d; ++i) {
          at = std::min((at / k_chunk + 1) * k_chunk, e);
          if (at > b + d) break;  // stopped inside this chunk: not a chunk end
          for (std::size_t k = 0; k < K; ++k) at_end[k] = counts[k] + rc[i * K + k];
          if (at >= k_precision_min && widest_half_width(at_end.data(), K, static_cast<std::int64_t>(at)) <= *o.precision) {
            cut = at;
            cut_rank = r;
            cut_snapshot = i;
            break;
          }
        }
        if (cut_rank != R) break;
        if (d == e - b && i > 0) counts = std::vector<std::int64_t>(at_end.begin(), at_end.end());
      }
      if (d < e - b) {
        cut = b + d;
        cut_rank = r;
        short_block = true;
      }
    }
    if (cut_rank != R && !short_block) res.stop = StopReason::precision;

    // 4. The sums of [res.next, cut), exact, on every rank.
    Sums* contribution = &none;
    if (me < cut_rank) contribution = &mine;
    else if (me == cut_rank) contribution = short_block ? &mine : &snapshots[cut_snapshot];
    pack(*contribution, add, top);
    cluster::allreduce_sum(add);
    cluster::allreduce_max(top);
    unpack(round, add, top);
    res.sums.merge(round);

    // 5. Rows, to rank 0, in index order.
    if (keep_rows) {
      std::size_t width = 0;
      for (const Model* m : models) width += row_width(m->schema());
      std::uint64_t keep = 0;
      if (me < cut_rank || (me == cut_rank && short_block)) keep = done;
      else if (me == cut_rank) keep = cut - my_begin;
      rows_mine.resize(static_cast<std::size_t>(keep) * width);
      std::vector<std::int64_t> all = cluster::gather_to_root(rows_mine);
      if (me == 0 && !failure) {
        try {
          const std::int64_t* p = all.data();
          for (std::uint64_t i = res.next; i < cut; ++i) {
            for (std::size_t m = 0; m < nm; ++m) p = unpack_row(p, rows_shown[m]);
            o.rows(i, rows_shown);
          }
        } catch (...) {
          failure = std::current_exception();
        }
      }
    }
    res.next = cut;
    bar.update(res.next);
    if (res.stop == StopReason::precision) break;
    if (short_block || sig) {
      res.stop = StopReason::interrupted;
      break;
    }
    if (me == 0 && !failure && o.checkpoint && res.next < o.n &&
        std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= o.checkpoint_seconds) {
      try {
        o.checkpoint(res.sums, res.next);
      } catch (...) {
        failure = std::current_exception();
      }
      last_checkpoint = Clock::now();
    }
  }
  bar.finish();
  if (me == 0 && !failure && o.checkpoint) {
    try {
      o.checkpoint(res.sums, res.next);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  settle();
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
