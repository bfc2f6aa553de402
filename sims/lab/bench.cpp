#include "sims/lab/bench.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <utility>
#include <thread>
#include <vector>

#include "bots/registry.hpp"
#include "bots/skirmish_bots.hpp"
#include "engine/core/content_hash.hpp"
#include "engine/core/dice.hpp"
#include "engine/engagement/engagement.hpp"

namespace vedette::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Indices handed to a thread at a time: fixed, whatever the thread count.
constexpr std::uint64_t k_chunk = 64;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  char bytes[8];
  for (int k = 0; k < 8; ++k) bytes[k] = static_cast<char>(static_cast<std::uint8_t>(v >> (8 * k)));
  return fnv1a64(std::string_view(bytes, 8), h);
}

std::uint64_t mix_int(std::uint64_t h, long long v) { return mix(h, static_cast<std::uint64_t>(v)); }

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

double thread_cpu_seconds() {
  timespec t{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double load_average() {
  std::ifstream in("/proc/loadavg");
  double l = -1;
  if (!(in >> l)) return -1;
  return l;
}

std::string shipped_scenarios_dir() { return VEDETTE_SCENARIOS_DIR; }

std::uint64_t hash_outcome(const Outcome& o, std::uint64_t dice_rolled, std::uint64_t h) {
  h = mix(h, o.winner ? *o.winner : 255U);
  h = mix_int(h, o.turns);
  h = mix(h, dice_rolled);
  for (const SideOutcome& s : o.sides) {
    for (int v : {s.units, s.figures_start, s.figures_lost, s.horses_lost, s.riders_lost, s.dismounted_riders, s.routs, s.destroyed,
                  s.charges_declared, s.charges_launched, s.charges_short, s.charges_stood, s.charges_broke, s.charges_repulsed,
                  s.squares_formed, s.retire_and_reform, s.shooting_hits, s.melee_hits})
      h = mix_int(h, v);
  }
  h = mix(h, o.bands);
  h = mix(h, o.behaviours);
  for (std::uint32_t c : o.chosen) h = mix(h, c);
  return h;
}

std::uint64_t hash_skirmish_outcome(const SkOutcome& o, std::uint64_t h) {
  h = mix(h, o.winner ? *o.winner : 255U);
  h = mix_int(h, o.turns);
  for (const SkSideOutcome& s : o.sides) {
    for (int v : {s.figures, s.figures_out, s.light_wounds, s.shots, s.hits, s.horses_lost, s.horses_bolted, s.riders_spilled,
                  s.light_wound_falls, s.mounts, s.dismounts, s.riding_double_moves, s.charges, s.fear_checks, s.fear_failed,
                  s.caught_in_open, s.close_combats, s.contact_checks_failed, s.final_charges})
      h = mix_int(h, v);
  }
  return h;
}

Signature signature(const std::string& dir) {
  Signature sig;
  sig.hash = k_fnv1a64_basis;
  for (std::string_view file : k_signature_files) {
    const ScenarioPtr s = load_scenario_file(dir + "/" + std::string(file));
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), k_signature_seed, 0);
    for (std::uint64_t i = 0; i < k_signature_engagements; ++i) {
      game.reset(k_signature_seed, i);
      const Outcome& o = game.run();
      sig.hash = hash_outcome(o, game.dice_rolled(), sig.hash);
      sig.dice += game.dice_rolled();
      ++sig.engagements;
    }
  }
  for (std::string_view file : k_signature_skirmish_files) {
    const SkirmishScenarioPtr s = load_skirmish_scenario(dir + "/" + std::string(file));
    const SkirmishPlayers players = make_skirmish_players(*s);
    SkirmishGame game(*s, players.bots(), k_signature_seed, 0);
    for (std::uint64_t i = 0; i < k_signature_engagements; ++i) {
      game.reset(k_signature_seed, i);
      sig.hash = hash_skirmish_outcome(game.run(), sig.hash);
      ++sig.engagements;
    }
  }
  return sig;
}

namespace {

// Plays indices handed out in chunks on `threads` threads for about
// `seconds` of wall time; `make()` gives each thread its game, which
// `play(game, i)` resets to index i and plays, returning (turns, dice).
template <class Make, class Play>
Throughput measure(unsigned threads, double seconds, Make&& make, Play&& play) {
  threads = std::max(1U, threads);
  std::atomic<std::uint64_t> next{0};
  std::vector<Throughput> per(threads);
  const auto t0 = Clock::now();
  auto work = [&](Throughput& out) {
    auto game = make();
    Throughput t;  // counted here, not in `per`: threads would share its cache lines
    const double cpu0 = thread_cpu_seconds();
    do {
      const std::uint64_t first = next.fetch_add(k_chunk, std::memory_order_relaxed);
      for (std::uint64_t i = first; i < first + k_chunk; ++i) {
        const auto [turns, dice] = play(*game, i);
        t.turns += turns;
        t.dice += dice;
        ++t.engagements;
      }
    } while (since(t0) < seconds);
    t.cpu_seconds = thread_cpu_seconds() - cpu0;
    out = t;
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work, std::ref(per[k]));
  work(per[0]);
  for (auto& th : pool) th.join();
  Throughput all;
  all.threads = threads;
  all.seconds = since(t0);
  for (const Throughput& t : per) {
    all.engagements += t.engagements;
    all.dice += t.dice;
    all.turns += t.turns;
    all.cpu_seconds += t.cpu_seconds;
  }
  return all;
}

}  // namespace

Throughput measure_engagements(const Scenario& s, unsigned threads, double seconds, std::uint64_t seed) {
  const Players players = make_players(s);
  return measure(
      threads, seconds, [&] { return std::make_unique<Engagement>(s, players.bots(), seed, 0); },
      [&](Engagement& game, std::uint64_t i) {
        game.reset(seed, i);
        const auto turns = static_cast<std::uint64_t>(game.run().turns);
        return std::pair<std::uint64_t, std::uint64_t>{turns, game.dice_rolled()};
      });
}

Throughput measure_skirmish(const SkirmishScenario& s, unsigned threads, double seconds, std::uint64_t seed) {
  const SkirmishPlayers players = make_skirmish_players(s);
  return measure(
      threads, seconds, [&] { return std::make_unique<SkirmishGame>(s, players.bots(), seed, 0); },
      [&](SkirmishGame& game, std::uint64_t i) {
        game.reset(seed, i);
        const auto turns = static_cast<std::uint64_t>(game.run().turns);
        return std::pair<std::uint64_t, std::uint64_t>{turns, game.dice_rolled()};
      });
}

std::uint64_t play_skirmish(const SkirmishScenario& s, std::uint64_t n, std::uint64_t seed) {
  const SkirmishPlayers players = make_skirmish_players(s);
  SkirmishGame game(s, players.bots(), seed, 0);
  std::uint64_t dice = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    game.reset(seed, i);
    game.run();
    dice += game.dice_rolled();
  }
  return dice;
}

std::uint64_t play_engagements(const Scenario& s, std::uint64_t n, std::uint64_t seed) {
  const Players players = make_players(s);
  Engagement game(s, players.bots(), seed, 0);
  std::uint64_t dice = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    game.reset(seed, i);
    game.run();
    dice += game.dice_rolled();
  }
  return dice;
}

DiceFloor measure_d6_ns(double seconds) {
  Rng rng = make_stream(k_signature_seed, 0, Subsystem::command);
  Dice dice(rng);
  constexpr int k_batch = 1 << 20;
  std::uint64_t sum = 0;
  std::uint64_t rolled = 0;
  const auto t0 = Clock::now();
  const double cpu0 = thread_cpu_seconds();
  do {
    for (int k = 0; k < k_batch; ++k) sum += static_cast<std::uint64_t>(dice.d6());
    rolled += k_batch;
  } while (since(t0) < seconds);
  DiceFloor f;
  f.cpu_ns = (thread_cpu_seconds() - cpu0) * 1e9 / static_cast<double>(rolled);
  f.wall_ns = since(t0) * 1e9 / static_cast<double>(rolled);
  // Keep the sum alive so the loop is not optimised away.
  static std::atomic<std::uint64_t> sink;
  sink.store(sum, std::memory_order_relaxed);
  return f;
}

}  // namespace vedette::bench
