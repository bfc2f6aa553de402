// The ceiling: D6 per second with the engine and mapping Vedette uses
// (taus88, multiply-shift with rejection: engine/core/dice.hpp), and the cost of
// seeding a stream per (seed, index, subsystem).
#include <benchmark/benchmark.h>

#include "engine/core/dice.hpp"

namespace {

using namespace vedette;

void BM_D6(benchmark::State& state) {
  Rng rng = make_stream(1815, 0, Subsystem::command);
  Dice dice(rng);
  for (auto _ : state) benchmark::DoNotOptimize(dice.d6());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_D6);

// 1000 dice summed per iteration: throughput without the benchmark loop's
// own overhead (the figure the dice floor of `vedette bench` uses).
void BM_D6_x1000(benchmark::State& state) {
  Rng rng = make_stream(1815, 0, Subsystem::command);
  Dice dice(rng);
  for (auto _ : state) {
    int sum = 0;
    for (int k = 0; k < 1000; ++k) sum += dice.d6();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_D6_x1000);

void BM_MakeStream(benchmark::State& state) {
  std::uint64_t index = 0;
  for (auto _ : state) {
    Rng rng = make_stream(1815, index++, Subsystem::melee);
    benchmark::DoNotOptimize(rng);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MakeStream);

}  // namespace
