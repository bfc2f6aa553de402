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

double widest_outcome_half_width(const Tally& t) {
  double w = 0;
  for (std::size_t k = 0; k < t.outcomes; ++k) w = std::max(w, wilson(t.outcome_count(k), t.n).half_width());
  return w;
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

class Progress {
 public:
  Progress(std::ostream* out, std::uint64_t first, std::uint64_t total) : out_(out), first_(first), total_(total) {}
  void update(std::uint64_t done, bool force = false) {
    if (!out_) return;
    auto now = Clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? static_cast<double>(done - first_) / secs : 0;
    const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : NAN;
    const int width = 24;
    const int filled = total_ ? static_cast<int>(static_cast<double>(width) * static_cast<double>(done) / static_cast<double>(total_)) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(static_cast<std::size_t>(width), '.');
    *out_ << "\r[" << bar << "] " << thousands(done) << " / " << thousands(total_) << "  "
          << thousands(static_cast<std::uint64_t>(rate)) << " engagements/s  " << clock_text(left) << " left  " << std::flush;
  }
  void finish() {
    if (out_) *out_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream* out_;
  std::uint64_t first_, total_;
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

}  // namespace

HarnessResult run_harness(std::span<const Model* const> models, const HarnessOptions& o, Sums start, std::uint64_t next) {
  const auto t0 = Clock::now();
  HarnessResult res;
  res.sums = std::move(start);
  res.next = next;
  if (models.empty()) throw std::logic_error("run_harness: no model");
  if (o.n > k_max_engagements) throw std::logic_error("run_harness: too many engagements");
  if (next >= o.n) {
    res.seconds = 0;
    return res;
  }
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

}  // namespace vedette::lab
