// Games per second of the shipped seed 001 skirmish scenario
// (sims/scenarios/skirmish/village_patrol.yaml), figure by figure, on 1
// thread and on all cores. Each thread keeps one SkirmishGame and resets it
// for each index, as the Monte Carlo does; thread t of n plays indices t,
// t+n, t+2n, ...
#include <benchmark/benchmark.h>

#include <algorithm>
#include <thread>

#include "bench_common.hpp"
#include "bots/skirmish_bots.hpp"
#include "engine/modules/skirmish/skirmish.hpp"

namespace {

using namespace vedette;

constexpr std::string_view k_file = "skirmish/village_patrol.yaml";

struct LoadedSkirmish {
  SkirmishScenarioPtr scenario;
  SkirmishPlayers players;
};

const LoadedSkirmish& loaded() {
  static const LoadedSkirmish l = [] {
    LoadedSkirmish x;
    x.scenario = load_skirmish_scenario(vbench::scenario_path(k_file));
    x.players = make_skirmish_players(*x.scenario);
    return x;
  }();
  return l;
}

void BM_Skirmish(benchmark::State& state) {
  const LoadedSkirmish& l = loaded();
  SkirmishGame game(*l.scenario, l.players.bots(), bench::k_signature_seed, 0);
  std::uint64_t index = static_cast<std::uint64_t>(state.thread_index());
  const auto step = static_cast<std::uint64_t>(state.threads());
  std::uint64_t turns = 0;
  for (auto _ : state) {
    game.reset(bench::k_signature_seed, index);
    index += step;
    turns += static_cast<std::uint64_t>(game.run().turns);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["turns_per_game"] = benchmark::Counter(static_cast<double>(turns), benchmark::Counter::kAvgIterations);
}

const bool registered = [] {
  (void)loaded();  // before any timing thread starts
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  auto* b = benchmark::RegisterBenchmark("BM_Skirmish/village_patrol", BM_Skirmish);
  b->UseRealTime()->Threads(1);
  if (cores > 1) b->Threads(cores);
  return true;
}();

}  // namespace
