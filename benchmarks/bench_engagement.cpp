// Engagements per second for every shipped scenario, on 1 thread and on all
// cores, with dice and turns per engagement. Each thread keeps one
// Engagement and resets it for each index, as the Monte Carlo does; thread t
// of n plays indices t, t+n, t+2n, ...
#include <benchmark/benchmark.h>

#include <thread>

#include "bench_common.hpp"
#include "engine/engagement/engagement.hpp"

namespace {

using namespace vedette;

void BM_Engagement(benchmark::State& state, std::string_view file) {
  const vbench::Loaded& l = vbench::loaded(file);
  Engagement game(*l.scenario, l.players.bots(), bench::k_signature_seed, 0);
  std::uint64_t index = static_cast<std::uint64_t>(state.thread_index());
  const auto step = static_cast<std::uint64_t>(state.threads());
  std::uint64_t dice = 0, turns = 0;
  for (auto _ : state) {
    game.reset(bench::k_signature_seed, index);
    index += step;
    turns += static_cast<std::uint64_t>(game.run().turns);
    dice += game.dice_rolled();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["dice_per_engagement"] = benchmark::Counter(static_cast<double>(dice), benchmark::Counter::kAvgIterations);
  state.counters["turns_per_engagement"] = benchmark::Counter(static_cast<double>(turns), benchmark::Counter::kAvgIterations);
}

const bool registered = [] {
  const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  for (std::string_view file : bench::k_signature_files) {
    (void)vbench::loaded(file);
    auto* b = benchmark::RegisterBenchmark(("BM_Engagement/" + std::string(file.substr(0, file.size() - 5))).c_str(),
                                           [file](benchmark::State& s) { BM_Engagement(s, file); });
    b->UseRealTime()->Threads(1);
    if (cores > 1) b->Threads(cores);
  }
  return true;
}();

}  // namespace
