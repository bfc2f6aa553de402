#include "sims/bench.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "bots/registry.hpp"
#include "engine/content_hash.hpp"
#include "engine/dice.hpp"
#include "engine/engagement.hpp"

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
  return sig;
}

Throughput measure_engagements(const Scenario& s, unsigned threads, double seconds, std::uint64_t seed) {
  threads = std::max(1U, threads);
  const Players players = make_players(s);
  std::atomic<std::uint64_t> next{0};
  std::vector<Throughput> per(threads);
  const auto t0 = Clock::now();
  auto work = [&](Throughput& out) {
    Engagement game(s, players.bots(), seed, 0);
    Throughput t;  // counted here, not in `per`: threads would share its cache lines
    do {
      const std::uint64_t first = next.fetch_add(k_chunk, std::memory_order_relaxed);
      for (std::uint64_t i = first; i < first + k_chunk; ++i) {
        game.reset(seed, i);
        t.turns += static_cast<std::uint64_t>(game.run().turns);
        t.dice += game.dice_rolled();
        ++t.engagements;
      }
    } while (since(t0) < seconds);
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
  }
  return all;
}

double measure_d6_ns(double seconds) {
  Rng rng = make_stream(k_signature_seed, 0, Subsystem::command);
  Dice dice(rng);
  constexpr int k_batch = 1 << 20;
  std::uint64_t sum = 0;
  std::uint64_t rolled = 0;
  const auto t0 = Clock::now();
  do {
    for (int k = 0; k < k_batch; ++k) sum += static_cast<std::uint64_t>(dice.d6());
    rolled += k_batch;
  } while (since(t0) < seconds);
  const double ns = since(t0) * 1e9 / static_cast<double>(rolled);
  // Keep the sum alive so the loop is not optimised away.
  static std::atomic<std::uint64_t> sink;
  sink.store(sum, std::memory_order_relaxed);
  return ns;
}

}  // namespace vedette::bench
