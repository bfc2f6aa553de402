// Statistics accumulation per engagement (sims/lab/stats.hpp: Tally::add, exact
// integer sums with Eigen), and the lab's whole per-engagement cost: the
// engine playing into an OutcomeRow, then the tally (sims/lab/engine_model.cpp).
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "bench_common.hpp"
#include "sims/lab/lab_model.hpp"
#include "sims/lab/stats.hpp"

namespace {

using namespace vedette;

struct Lab {
  std::unique_ptr<lab::LabScenario> scenario;
  std::unique_ptr<lab::Model> model;
};
const Lab& default_lab() {
  static const Lab l = [] {
    Lab x;
    x.scenario = lab::open_lab_scenario(vbench::scenario_path(bench::k_default_scenario));
    x.model = x.scenario->model(nullptr);
    return x;
  }();
  return l;
}

// 256 real rows of the default scenario, added over and over.
void BM_TallyAdd(benchmark::State& state) {
  const lab::Model& m = *default_lab().model;
  auto player = m.player();
  std::vector<lab::OutcomeRow> rows(256, lab::OutcomeRow(m.schema()));
  for (std::uint64_t i = 0; i < rows.size(); ++i) player->play(bench::k_signature_seed, i, rows[i]);
  lab::Tally tally(m.schema());
  std::size_t k = 0;
  for (auto _ : state) {
    tally.add(rows[k++ & 255]);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(tally.n);
  state.SetItemsProcessed(state.iterations());
  state.counters["figures"] = static_cast<double>(m.schema().dims());
}
BENCHMARK(BM_TallyAdd);

// Play one engagement into a row and tally it: what a harness worker does.
void BM_PlayAndTally(benchmark::State& state) {
  const lab::Model& m = *default_lab().model;
  auto player = m.player();
  lab::OutcomeRow row(m.schema());
  lab::Tally tally(m.schema());
  std::uint64_t index = 0;
  for (auto _ : state) {
    row.reset();
    player->play(bench::k_signature_seed, index++, row);
    tally.add(row);
  }
  benchmark::DoNotOptimize(tally.n);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlayAndTally);

}  // namespace
