// Risk-factor + Actions Table decisions per second: facts in, RF total,
// one D6, the table's cell with the gallop limits (engine/decision/risk_factor.hpp,
// engine/decision/actions_table.hpp), as the reaction-table bot makes them; and the
// same starting from the battlefield (Battle::facts: sight, range, cover).
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_common.hpp"
#include "engine/decision/actions_table.hpp"
#include "engine/engagement/battle.hpp"
#include "engine/decision/risk_factor.hpp"

namespace {

using namespace vedette;

// 1024 varied situations from a fixed stream.
std::vector<Facts> sample_facts() {
  Rng rng = make_stream(1815, 0, Subsystem::command);
  Dice d(rng);
  std::vector<Facts> out;
  for (int k = 0; k < 1024; ++k) {
    Situation s;
    s.hero = d.d6() == 6;
    s.in_cover = d.d6() <= 2;
    s.pace = static_cast<Pace>(d.d(4) - 1);
    s.enemy_in_sight = d.d6() <= 4;
    s.enemy_in_range = d.d6() <= 3;
    s.raw = d.d6() == 1;
    s.casualties_hundredths = (d.d6() - 1) * 1000;
    s.enemy_flank_rear = d.d6() == 1;
    s.ran_last_turn = d.d6() == 1;
    s.retreated_from_melee = d.d6() == 1;
    out.emplace_back(s);
  }
  return out;
}

void BM_RiskFactorAndTable(benchmark::State& state) {
  const Ruleset& r = *vbench::loaded(bench::k_default_scenario).scenario->rules;
  const std::vector<Facts> facts = sample_facts();
  Rng rng = make_stream(1815, 1, Subsystem::decisions);
  Dice dice(rng);
  std::size_t k = 0;
  for (auto _ : state) {
    const Facts& f = facts[k++ & 1023];
    const UnitState s{nullptr, f[Fact::galloping] ? Pace::gallop : f[Fact::at_halt] ? Pace::halt : Pace::walk, 0};
    const Decision d = decide(r, rf_total(r, f), dice.d6(), s);
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RiskFactorAndTable);

// Facts from the battlefield: the open-field cavalry's situation at the start.
void BM_FactsFromBattlefield(benchmark::State& state) {
  const Scenario& s = *vbench::loaded(bench::k_default_scenario).scenario;
  const Battle b(s);
  for (auto _ : state) benchmark::DoNotOptimize(b.facts(0));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FactsFromBattlefield);

}  // namespace
