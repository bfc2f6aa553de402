// What issue 32's fourteenth pass (the cavalry bot's decision) relies on,
// checked against the plain computation it replaces: the risk factor by the
// ruleset's compiled table (RfTable, engine/decision/risk_factor.hpp; kept by
// Battle::rf_total, engine/engagement/battle_situation.cpp) against rf_total
// over the modifiers, for every combination of the facts on the shipped
// rulesets and at every event of the signature scenarios' engagements.
#include <catch2/catch.hpp>

#include <string>

#include "bots/registry.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_decide14 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

// Every boolean fact on or off, with casualties at and around the steps:
// the table's total against rf_total's. Returns the differences.
long differences(const Ruleset& r) {
  const RfTable table(r);
  REQUIRE(table.usable());
  long differed = 0;
  const std::int32_t casualties[] = {0, 1, 999, 1000, 1001, 1999, 2000, 2500, 5000, 10000};
  for (std::uint32_t bits = 0; bits < (1U << k_fact_count); ++bits) {
    if ((bits >> static_cast<unsigned>(Fact::casualties_pct) & 1U) != 0) continue;  // numeric: the values below
    for (std::int32_t c : casualties) {
      Facts f;
      for (std::size_t x = 0; x < k_fact_count; ++x) f.set(static_cast<Fact>(x), (bits >> x) & 1U);
      f.set(Fact::casualties_pct, c);
      if (table.total(f) != rf_total(r, f)) ++differed;
    }
  }
  return differed;
}

// Every active cavalry unit's risk factor, by the battle's table and by
// rf_total, at each event.
class RfCheck final : public Recorder {
 public:
  explicit RfCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    for (std::size_t i = 0; i < b.units().size(); ++i) {
      if (!b.unit(i).active() || !b.unit(i).cavalry()) continue;
      const Facts f = b.facts(i);
      if (b.rf_total(f) != rf_total(b.rules(), f)) {
        ++differed;
        CHECK(b.rf_total(f) == rf_total(b.rules(), f));
      }
      ++checked;
    }
  }
  long checked = 0;
  long differed = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the risk factor by RfTable equals rf_total for every combination of facts", "[perf][engine]") {
  CHECK(differences(*default_ruleset()) == 0);
  for (std::string_view file : bench::k_signature_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + std::string(file));
    CHECK(differences(*s->rules) == 0);
  }
  // A stacking modifier (one per fact that holds), as a house rule may have.
  Ruleset r = *default_ruleset();
  for (Modifier& m : r.modifiers)
    if (m.kind == Modifier::Kind::any) m.stack = true;
  CHECK(differences(r) == 0);
}

TEST_CASE("perf: RfTable counts a fact listed twice as rf_total does, and leaves too many facts to rf_total", "[perf][engine]") {
  Ruleset r = *default_ruleset();
  Modifier* any = nullptr;
  for (Modifier& m : r.modifiers)
    if (m.kind == Modifier::Kind::any) any = &m;
  REQUIRE(any != nullptr);
  any->stack = true;
  any->facts.push_back(any->facts.front());  // counted twice by rf_total
  CHECK(differences(r) == 0);
  // An all modifier naming every boolean fact: more than the table holds.
  Modifier every;
  every.kind = Modifier::Kind::all;
  every.value = 1;
  for (std::size_t x = 0; x < k_fact_count; ++x)
    if (static_cast<Fact>(x) != Fact::casualties_pct) every.facts.push_back(static_cast<Fact>(x));
  r.modifiers.push_back(every);
  CHECK_FALSE(RfTable(r).usable());
  CHECK(RfTable(*default_ruleset()).usable());
}

TEST_CASE("perf: Battle::rf_total equals rf_total at every event of engagements", "[perf][engagement][hex]") {
  vtest::play_signature_scenarios<RfCheck>(3, 20, [&](const Scenario&, const RfCheck& check) {
    CHECK(check.checked > 100);
    CHECK(check.differed == 0);
  });
}

}  // namespace t_perf_invariants_decide14
