// Risk factors of seed 002 (docs/seeds.md, "Risk
// Factors"), as loaded from the built-in default ruleset:
//   -1: Hero with unit.
//   -1: Unit entirely in cover -- or moving at Canter/Gallop.
//   +1: Enemy in clear sight and within their weapons range of the unit
//   +1: Raw unit in range of any enemy unit in sight.
//   +1: Per 10% of group wounded or killed
//   +2: Enemy to flank or rear and in sight.
//   +3: If running from enemy last turn, or retreating as a result of melee.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "engine/decision/risk_factor.hpp"
#include "engine/decision/ruleset.hpp"
#include "helpers.hpp"

namespace t_risk_factor {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

using RfTerms = std::vector<std::pair<std::string, int>>;

RfTerms terms(const RiskFactor& rf) {
  RfTerms t;
  for (const auto& x : rf.breakdown) t.emplace_back(x.modifier->id, x.value);
  return t;
}

int breakdown_sum(const RiskFactor& rf) {
  int s = 0;
  for (const auto& x : rf.breakdown) s += x.value;
  return s;
}

RiskFactor rf_of(const Situation& s, const Ruleset& r = *default_ruleset()) {
  RiskFactor rf = compute_rf(r, Facts(s));
  // Whatever the situation: the total is the sum of the breakdown, and the
  // allocation-free total agrees.
  REQUIRE(rf.total == breakdown_sum(rf));
  REQUIRE(rf.total == rf_total(r, Facts(s)));
  return rf;
}

Situation at(Pace p) {
  Situation s;
  s.pace = p;
  return s;
}

}  // namespace

TEST_CASE("rf: nothing applies: RF 0 and an empty breakdown", "[rf]") {
  RiskFactor rf = rf_of(Situation{});
  CHECK(rf.total == 0);
  CHECK(rf.breakdown.empty());
  // Walking and enemy merely in sight add nothing either.
  Situation s = at(Pace::walk);
  s.enemy_in_sight = true;
  CHECK(rf_of(s).total == 0);
}

TEST_CASE("rf: seed 002 risk factors - hero with unit -1", "[rf][seed002][002-L41-hero]") {
  Situation s;
  s.hero = true;
  RiskFactor rf = rf_of(s);
  CHECK(rf.total == -1);
  CHECK(terms(rf) == RfTerms{{"hero", -1}});
  CHECK(rf.breakdown[0].reason == "Hero with unit");
}

TEST_CASE("rf: seed 002 risk factors - entirely in cover -1", "[rf][seed002][002-L43-cover]") {
  Situation s;
  s.in_cover = true;
  RiskFactor rf = rf_of(s);
  CHECK(rf.total == -1);
  CHECK(terms(rf) == RfTerms{{"cover_or_fast", -1}});
  CHECK(rf.breakdown[0].reason == "Unit entirely in cover, or moving at Canter/Gallop (here: in cover)");
}

TEST_CASE("rf: seed 002 risk factors - moving at canter or gallop -1 and walk or halt nothing", "[rf][seed002][002-L43-moving-fast]") {
  CHECK(terms(rf_of(at(Pace::canter))) == RfTerms{{"cover_or_fast", -1}});
  CHECK(terms(rf_of(at(Pace::gallop))) == RfTerms{{"cover_or_fast", -1}});
  CHECK(rf_of(at(Pace::walk)).total == 0);
  CHECK(rf_of(at(Pace::halt)).total == 0);
  CHECK(rf_of(at(Pace::gallop)).breakdown[0].reason ==
        "Unit entirely in cover, or moving at Canter/Gallop (here: moving fast)");
}

TEST_CASE("rf: seed 002 risk factors - cover and canter/gallop together: one -1 with stack false", "[rf][seed002][002-L43-one-line]") {
  // The seed lists both on one -1 line; the default switch counts it once.
  const Ruleset& r = *default_ruleset();
  const Modifier* m = nullptr;
  for (const auto& x : r.modifiers)
    if (x.id == "cover_or_fast") m = &x;
  REQUIRE(m);
  CHECK_FALSE(m->stack);
  for (Pace p : {Pace::canter, Pace::gallop}) {
    Situation s = at(p);
    s.in_cover = true;
    RiskFactor rf = rf_of(s);
    CHECK(rf.total == -1);
    CHECK(terms(rf) == RfTerms{{"cover_or_fast", -1}});
    CHECK(rf.breakdown[0].reason == "Unit entirely in cover, or moving at Canter/Gallop (here: in cover, moving fast)");
  }
}

TEST_CASE("rf: overlay stack true counts cover and canter/gallop -1 each", "[rf][overlay]") {
  RulesetPtr r = load_ruleset(vtest::data("good/cover_fast_stack.yaml"));
  Situation s = at(Pace::gallop);
  s.in_cover = true;
  CHECK(rf_of(s, *r).total == -2);
  CHECK(terms(rf_of(s, *r)) == RfTerms{{"cover_or_fast", -2}});
  s.pace = Pace::canter;
  CHECK(rf_of(s, *r).total == -2);
  // One of the two alone is still -1.
  CHECK(rf_of(at(Pace::gallop), *r).total == -1);
  Situation c;
  c.in_cover = true;
  CHECK(rf_of(c, *r).total == -1);
  s.pace = Pace::walk;
  CHECK(rf_of(s, *r).total == -1);
}

TEST_CASE("rf: seed 002 risk factors - enemy in sight and in range +1", "[rf][seed002][002-L45-enemy-in-range]") {
  Situation s;
  s.enemy_in_range = true;
  RiskFactor rf = rf_of(s);
  CHECK(rf.total == 1);
  CHECK(terms(rf) == RfTerms{{"enemy_in_range", 1}});
  // In sight but out of range adds nothing.
  Situation t;
  t.enemy_in_sight = true;
  CHECK(rf_of(t).total == 0);
}

TEST_CASE("rf: seed 002 risk factors - raw unit in range +1 and raw alone nothing", "[rf][seed002]") {
  Situation raw;
  raw.raw = true;
  CHECK(rf_of(raw).total == 0);
  CHECK(rf_of(raw).breakdown.empty());
  raw.enemy_in_sight = true;  // in sight, not in range
  CHECK(rf_of(raw).total == 0);
  raw.enemy_in_range = true;
  RiskFactor rf = rf_of(raw);
  CHECK(rf.total == 2);  // enemy in range +1, raw in range +1
  CHECK(terms(rf) == RfTerms{{"enemy_in_range", 1}, {"raw_in_range", 1}});
}

TEST_CASE("rf: casualty_hundredths rounds down to a full hundredth of a percent", "[rf][seed002]") {
  CHECK(casualty_hundredths(2, 30) == 666);   // 6.66%
  CHECK(casualty_hundredths(3, 30) == 1000);  // exactly 10%
  CHECK(casualty_hundredths(5, 30) == 1666);
  CHECK(casualty_hundredths(6, 30) == 2000);
  CHECK(casualty_hundredths(1, 3) == 3333);
  CHECK(casualty_hundredths(2, 3) == 6666);
  CHECK(casualty_hundredths(1, 10) == 1000);
  CHECK(casualty_hundredths(9, 100) == 900);
  CHECK(casualty_hundredths(10, 10) == 10000);
  CHECK(casualty_hundredths(0, 10) == 0);
  CHECK(casualty_hundredths(-2, 10) == 0);
  CHECK(casualty_hundredths(3, 0) == 0);
  CHECK(casualty_hundredths(3, -5) == 0);
  CHECK(casualty_hundredths(1000000, 1000000) == 10000);  // no overflow
}

TEST_CASE("rf: seed 002 risk factors - +1 per FULL 10% of the group wounded or killed", "[rf][seed002][002-L49-casualties]") {
  struct C {
    std::int32_t hundredths;
    int rf;
  };
  for (auto [h, want] : {C{0, 0}, C{1, 0}, C{900, 0}, C{999, 0}, C{1000, 1}, C{1001, 1}, C{1900, 1}, C{1999, 1},
                         C{2000, 2}, C{2500, 2}, C{3000, 3}, C{9999, 9}, C{10000, 10}}) {
    Situation s;
    s.casualties_hundredths = h;
    INFO(h / 100.0 << "% casualties");
    RiskFactor rf = rf_of(s);
    CHECK(rf.total == want);
    if (want == 0) {
      CHECK(rf.breakdown.empty());
    } else {
      CHECK(terms(rf) == RfTerms{{"casualties", want}});
    }
  }
  // Counted figures: 2 of 30 (6.66%) nothing; 3 of 30 (10%) +1; 5 of 30 (16.66%) +1; 6 of 30 (20%) +2.
  auto by_count = [](int lost, int of) {
    Situation s;
    s.casualties_hundredths = casualty_hundredths(lost, of);
    return rf_of(s).total;
  };
  CHECK(by_count(2, 30) == 0);
  CHECK(by_count(3, 30) == 1);
  CHECK(by_count(5, 30) == 1);
  CHECK(by_count(6, 30) == 2);
  CHECK(by_count(1, 12) == 0);  // 8.33%
  CHECK(by_count(2, 12) == 1);  // 16.66%
  CHECK(by_count(3, 12) == 2);  // 25%
  // The reason says the percentage and the count of steps.
  Situation s;
  s.casualties_hundredths = casualty_hundredths(5, 30);
  CHECK(rf_of(s).breakdown[0].reason == "Per 10% of group wounded or killed (16.66%: 1 x 10%)");
  s.casualties_hundredths = 2000;
  CHECK(rf_of(s).breakdown[0].reason == "Per 10% of group wounded or killed (20%: 2 x 10%)");
  s.casualties_hundredths = 1250;
  CHECK(rf_of(s).breakdown[0].reason == "Per 10% of group wounded or killed (12.5%: 1 x 10%)");
}

TEST_CASE("rf: seed 002 risk factors - enemy to flank or rear +2", "[rf][seed002][002-L51-flank-rear]") {
  Situation s;
  s.enemy_flank_rear = true;
  RiskFactor rf = rf_of(s);
  CHECK(rf.total == 2);
  CHECK(terms(rf) == RfTerms{{"flank_rear", 2}});
  // "and in sight": the fact implies an enemy in sight.
  CHECK(Facts(s)[Fact::enemy_in_sight] == 1);
}

TEST_CASE("rf: seed 002 risk factors - running last turn or retreating from melee +3 once", "[rf][seed002][002-L53-running][002-L53-once]") {
  Situation ran;
  ran.ran_last_turn = true;
  CHECK(terms(rf_of(ran)) == RfTerms{{"running", 3}});
  Situation ret;
  ret.retreated_from_melee = true;
  CHECK(terms(rf_of(ret)) == RfTerms{{"running", 3}});
  Situation both;
  both.ran_last_turn = true;
  both.retreated_from_melee = true;
  CHECK(rf_of(both).total == 3);
  CHECK(terms(rf_of(both)) == RfTerms{{"running", 3}});
  CHECK(rf_of(both).breakdown[0].reason ==
        "Running from enemy last turn, or retreating as a result of melee (here: ran last turn, retreated from melee)");
  // With the stack switch on (an overlay): +3 each.
  RulesetPtr r = load_ruleset(vtest::data("good/running_stack.yaml"));
  CHECK(rf_of(both, *r).total == 6);
  CHECK(rf_of(ran, *r).total == 3);
}

TEST_CASE("rf: seed 002 risk factors - combinations", "[rf][seed002]") {
  // Everything at once: hero -1, cover+gallop -1, in range +1, raw +1,
  // 25% casualties +2, flank +2, running +3 = 7.
  Situation s = at(Pace::gallop);
  s.hero = true;
  s.in_cover = true;
  s.enemy_in_range = true;
  s.raw = true;
  s.casualties_hundredths = 2500;
  s.enemy_flank_rear = true;
  s.ran_last_turn = true;
  s.retreated_from_melee = true;
  RiskFactor rf = rf_of(s);
  CHECK(rf.total == 7);
  // In the order of the ruleset's modifiers.
  CHECK(terms(rf) == RfTerms{{"hero", -1},
                           {"cover_or_fast", -1},
                           {"enemy_in_range", 1},
                           {"raw_in_range", 1},
                           {"casualties", 2},
                           {"flank_rear", 2},
                           {"running", 3}});

  // Hero in cover: -2 (RF0 band).
  Situation calm;
  calm.hero = true;
  calm.in_cover = true;
  CHECK(rf_of(calm).total == -2);

  // A worked situation: cantering raw unit in range, enemy on the flank = -1 +1 +1 +2 = 3.
  Situation w = at(Pace::canter);
  w.raw = true;
  w.enemy_in_range = true;
  w.enemy_flank_rear = true;
  CHECK(rf_of(w).total == 3);
  CHECK(terms(rf_of(w)) == RfTerms{{"cover_or_fast", -1}, {"enemy_in_range", 1}, {"raw_in_range", 1}, {"flank_rear", 2}});
}

TEST_CASE("rf: total equals the sum of the breakdown and the seed's arithmetic in every situation", "[rf][seed002][002-L37-rf-added]") {
  // An independent reading of seed 002's list, checked against the engine
  // for every combination of the facts.
  RulesetPtr stacked = load_ruleset(vtest::data("good/cover_fast_stack.yaml"));
  int combos = 0;
  for (int bits = 0; bits < (1 << 8); ++bits) {
    for (Pace p : {Pace::halt, Pace::walk, Pace::canter, Pace::gallop}) {
      for (std::int32_t cas : {0, 999, 1000, 1999, 2000, 3333, 10000}) {
        Situation s;
        s.hero = bits & 1;
        s.in_cover = bits & 2;
        s.enemy_in_sight = bits & 4;
        s.enemy_in_range = bits & 8;
        s.raw = bits & 16;
        s.enemy_flank_rear = bits & 32;
        s.ran_last_turn = bits & 64;
        s.retreated_from_melee = bits & 128;
        s.pace = p;
        s.casualties_hundredths = cas;
        bool fast = p == Pace::canter || p == Pace::gallop;
        int expected = -(s.hero ? 1 : 0) - ((s.in_cover || fast) ? 1 : 0) + (s.enemy_in_range ? 1 : 0) +
                       ((s.raw && s.enemy_in_range) ? 1 : 0) + cas / 1000 + (s.enemy_flank_rear ? 2 : 0) +
                       ((s.ran_last_turn || s.retreated_from_melee) ? 3 : 0);
        RiskFactor rf = rf_of(s);  // checks total == sum of breakdown == rf_total
        if (rf.total != expected) {
          INFO("bits " << bits << " pace " << pace_name(p) << " casualties " << cas);
          CHECK(rf.total == expected);
        }
        // Each term is non-zero and names a distinct modifier.
        for (std::size_t i = 0; i < rf.breakdown.size(); ++i) {
          if (rf.breakdown[i].value == 0) CHECK(rf.breakdown[i].value != 0);
          for (std::size_t j = i + 1; j < rf.breakdown.size(); ++j)
            if (rf.breakdown[i].modifier == rf.breakdown[j].modifier) CHECK(rf.breakdown[i].modifier != rf.breakdown[j].modifier);
        }
        int expected_stacked = expected + ((s.in_cover || fast) ? 1 : 0) - (s.in_cover ? 1 : 0) - (fast ? 1 : 0);
        int got_stacked = rf_of(s, *stacked).total;
        if (got_stacked != expected_stacked) CHECK(got_stacked == expected_stacked);
        ++combos;
      }
    }
  }
  CHECK(combos == 256 * 4 * 7);
}

TEST_CASE("rf: modifier_value applies all any and per kinds", "[rf]") {
  Modifier all{"m", "t", 2, Modifier::Kind::all, {Fact::raw, Fact::enemy_in_range}, false, 0};
  Modifier any{"m", "t", -1, Modifier::Kind::any, {Fact::in_cover, Fact::moving_fast}, false, 0};
  Modifier any_stack{"m", "t", -1, Modifier::Kind::any, {Fact::in_cover, Fact::moving_fast}, true, 0};
  Modifier per{"m", "t", 1, Modifier::Kind::per, {Fact::casualties_pct}, false, 1000};
  Facts f;
  CHECK(modifier_value(all, f) == 0);
  CHECK(modifier_value(any, f) == 0);
  CHECK(modifier_value(any_stack, f) == 0);
  CHECK(modifier_value(per, f) == 0);
  f.set(Fact::raw, 1);
  CHECK(modifier_value(all, f) == 0);
  f.set(Fact::enemy_in_range, 1);
  CHECK(modifier_value(all, f) == 2);
  f.set(Fact::in_cover, 1);
  CHECK(modifier_value(any, f) == -1);
  CHECK(modifier_value(any_stack, f) == -1);
  f.set(Fact::moving_fast, 1);
  CHECK(modifier_value(any, f) == -1);
  CHECK(modifier_value(any_stack, f) == -2);
  f.set(Fact::casualties_pct, 2999);
  CHECK(modifier_value(per, f) == 2);
  f.set(Fact::casualties_pct, -500);  // nonsense input adds nothing rather than subtracting
  CHECK(modifier_value(per, f) == 0);
}

TEST_CASE("rf: the default ruleset's modifiers are the seed's seven lines", "[rf][seed002]") {
  const Ruleset& r = *default_ruleset();
  RfTerms t;
  for (const auto& m : r.modifiers) t.emplace_back(m.id, m.value);
  CHECK(t == RfTerms{{"hero", -1},
                   {"cover_or_fast", -1},
                   {"enemy_in_range", 1},
                   {"raw_in_range", 1},
                   {"casualties", 1},
                   {"flank_rear", 2},
                   {"running", 3}});
  for (const auto& m : r.modifiers)
    if (m.id == "casualties") {
      CHECK(m.kind == Modifier::Kind::per);
      CHECK(m.step == 1000);  // 10% in hundredths
    }
}

TEST_CASE("rf: facts derived from the situation", "[rf]") {
  Situation s = at(Pace::canter);
  s.enemy_in_range = true;
  Facts f(s);
  CHECK(f[Fact::cantering] == 1);
  CHECK(f[Fact::moving_fast] == 1);
  CHECK(f[Fact::galloping] == 0);
  CHECK(f[Fact::at_halt] == 0);
  CHECK(f[Fact::enemy_in_sight] == 1);  // in range implies in sight
  Facts h{Situation{}};
  CHECK(h[Fact::at_halt] == 1);
  CHECK(h[Fact::moving_fast] == 0);
  CHECK(h[Fact::enemy_in_sight] == 0);
}

}  // namespace t_risk_factor
