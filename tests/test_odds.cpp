// Multi-turn odds (issue 5, `vedette odds`): the decision process of seed 002's
// Actions Table as a Markov chain (engine/decision/odds.hpp). Exact values are worked
// by hand from seed 002 (docs/seeds.md, "Actions
// Table" and "Cavalry supplement"); the Eigen solver is checked against the
// exact one, and both against a simulation of the same process with Dice.
#include "engine/decision/actions_table.hpp"
#include "engine/core/dice.hpp"
#include "engine/decision/odds.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/decision/ruleset.hpp"
#include "helpers.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace t_odds {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

BehaviourIndex beh(const Ruleset& r, std::string_view id) {
  const Behaviour* b = r.find_behaviour(id);
  REQUIRE(b != nullptr);
  return static_cast<BehaviourIndex>(b - r.behaviours.data());
}

OddsSetup given_rf(int rf, Pace pace = Pace::halt, int galloped = 0, bool ran = false, const UnitType* type = nullptr) {
  OddsSetup s;
  s.rf = rf;
  s.situation.pace = pace;
  s.situation.ran_last_turn = ran;
  s.galloped = galloped;
  s.type = type;
  return s;
}

OddsSetup from_facts(const Situation& sit, int galloped = 0, const UnitType* type = nullptr) {
  OddsSetup s;
  s.situation = sit;
  s.galloped = galloped;
  s.type = type;
  return s;
}

// RF 3 from the facts: enemy in range (+1), enemy to flank or rear (+2).
Situation rf3_at_halt() {
  Situation s;
  s.enemy_in_range = true;
  s.enemy_flank_rear = true;
  return s;
}

struct Run {
  int status;
  std::string out;
};

Run run_vedette(const std::string& args) {
  vtest::RunOptions o;
  o.merge_stderr = true;  // as 2>&1
  vtest::RunResult r = vtest::run_vedette(vtest::words(args), o);
  return {r.status, r.out};
}

}  // namespace

TEST_CASE("odds: one turn is the band's odds exactly (seed 002 Actions Table)", "[odds][002-L55-throw-d6]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  // Every band, moving and at halt (the RF0 row's at-halt cells), both with a
  // given RF and with the RF from facts.
  for (int rf = -2; rf <= 11; ++rf) {
    for (Pace pace : {Pace::halt, Pace::walk}) {
      const OddsChain chain(rules, given_rf(rf, pace));
      REQUIRE(chain.rf(0) == rf);
      const auto exact = exact_turn_odds(chain, 1);
      const auto approx = turn_odds(chain, 1);
      std::vector<Fraction> expected(r.behaviours.size(), Fraction(0));
      for (const auto& [b, p] : band_odds(r, r.band_for(rf), pace == Pace::halt))
        expected[static_cast<std::size_t>(b - r.behaviours.data())] = p;
      for (std::size_t b = 0; b < r.behaviours.size(); ++b) {
        INFO("rf " << rf << " pace " << pace_name(pace) << " behaviour " << r.behaviours[b].id);
        CHECK(exact[0].behaviours[b] == expected[b]);
        CHECK(approx[0].behaviours[b] == Approx(expected[b].value()).margin(1e-15));
      }
    }
  }
  // The seed's own odds, one D6 over the RF6-8 row (flee, canter away, walk
  // to cover twice, halt, continue): 1/6 a face, 2/6 to walk to cover. Issue
  // 29's sweep: the check above compares the engine with the table, so a
  // changed cell passed it.
  {
    const auto b = [&](const char* id) { return static_cast<std::size_t>(r.find_behaviour(id) - r.behaviours.data()); };
    const auto odds = exact_turn_odds(OddsChain(rules, given_rf(7, Pace::walk)), 1)[0].behaviours;
    CHECK(odds[b("flee_gallop")] == Fraction(1, 6));
    CHECK(odds[b("canter_away")] == Fraction(1, 6));
    CHECK(odds[b("walk_to_cover")] == Fraction(1, 3));
    CHECK(odds[b("halt_facing")] == Fraction(1, 6));
    CHECK(odds[b("continue_facing_charge")] == Fraction(1, 6));
  }
  // From facts: hero, raw, in range, 30% casualties, flank: -1 +1 +1 +3 +2 = 6.
  Situation s;
  s.hero = s.raw = s.enemy_in_range = s.enemy_flank_rear = true;
  s.casualties_hundredths = 3000;
  const OddsChain chain(rules, from_facts(s));
  REQUIRE(chain.rf(0) == 6);
  REQUIRE(chain.band(0).id == "rf6_8");
  const auto exact = exact_turn_odds(chain, 1);
  for (const auto& [b, p] : band_odds(r, r.band_for(6), true))
    CHECK(exact[0].behaviours[static_cast<std::size_t>(b - r.behaviours.data())] == p);
}

TEST_CASE("odds: two turns by hand at a given RF", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  SECTION("--rf 2 at halt") {
    // Turn 1, RF 2 (RF2-5): canter_away 1/6 (running), walk_to_cover 2/6,
    // halt_facing 1/6, continue_facing_charge 1/6, gallop_advance_charge 1/6.
    // Turn 2: after canter_away RF 2+3 = 5, still RF2-5; every other state
    // rolls on RF 2 (a given RF has no pace modifier): P(run) = 1/6 in all.
    //   has run within 2 = 1/6 + 5/6 x 1/6 = 11/36
    //   charge offered within 2 = 2/6 + 4/6 x 2/6 = 5/9
    const OddsChain chain(rules, given_rf(2));
    const auto e = exact_turn_odds(chain, 2);
    CHECK(e[0].has_run == Fraction(1, 6));
    CHECK(e[1].has_run == Fraction(11, 36));
    CHECK(e[0].charge_offered == Fraction(1, 3));
    CHECK(e[1].charge_offered == Fraction(5, 9));
  }
  SECTION("--rf 4 at halt: running lifts the next turn into RF6-8") {
    // Turn 1, RF 4 (RF2-5) as above. Turn 2: after canter_away (1/6) RF 4+3 = 7,
    // band RF6-8: flee_gallop, canter_away, walk_to_cover x2, halt_facing,
    // continue_facing_charge. Otherwise (5/6) RF 4 again.
    //   flee_gallop on turn 2        = 1/6 x 1/6                = 1/36
    //   gallop_advance_charge turn 2 = 5/6 x 1/6                = 5/36
    //   canter_away on turn 2        = 1/6 x 1/6 + 5/6 x 1/6    = 1/6
    //   walk_to_cover on turn 2      = 1/6 x 2/6 + 5/6 x 2/6    = 1/3
    //   has run within 2             = 1/6 + 5/6 x 1/6          = 11/36
    //   charge offered within 2      = 2/6 + [after canter_away] 1/6 x 1/6
    //                                      + [after walk, halt] 3/6 x 2/6 = 19/36
    const OddsChain chain(rules, given_rf(4));
    const auto e = exact_turn_odds(chain, 2);
    CHECK(e[1].behaviours[beh(r, "flee_gallop")] == Fraction(1, 36));
    CHECK(e[1].behaviours[beh(r, "gallop_advance_charge")] == Fraction(5, 36));
    CHECK(e[1].behaviours[beh(r, "canter_away")] == Fraction(1, 6));
    CHECK(e[1].behaviours[beh(r, "walk_to_cover")] == Fraction(1, 3));
    CHECK(e[1].behaviours[beh(r, "halt_facing")] == Fraction(1, 6));
    CHECK(e[1].behaviours[beh(r, "continue_facing_charge")] == Fraction(1, 6));
    CHECK(e[1].has_run == Fraction(11, 36));
    CHECK(e[1].charge_offered == Fraction(19, 36));
    // Mean RF rolled on turn 2: 1/6 x 7 + 5/6 x 4 = 9/2.
    CHECK(turn_odds(chain, 2)[1].expected_rf == Approx(4.5));
  }
}

TEST_CASE("odds: the running +3 feeds the next turn (seed 002 risk factors)", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  // seed 002: "3: If running from enemy last turn". A unit at RF 4 that ran
  // rolls on RF 7 (RF6-8) the next turn.
  const OddsChain ran(rules, given_rf(4, Pace::canter, 0, true));
  CHECK(ran.running_value() == 3);
  CHECK(ran.rf(0) == 7);
  CHECK(ran.band(0).id == "rf6_8");
  const auto e = exact_turn_odds(ran, 1);
  for (const auto& [b, p] : band_odds(r, r.band_for(7), false))
    CHECK(e[0].behaviours[static_cast<std::size_t>(b - r.behaviours.data())] == p);
  // Inside the chain: every state reached by a running behaviour rolls on RF 7.
  const OddsChain chain(rules, given_rf(4));
  bool saw_ran = false;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    CHECK(chain.rf(i) == (chain.state(i).ran ? 7 : 4));
    saw_ran = saw_ran || chain.state(i).ran;
  }
  CHECK(saw_ran);
  // The value is the ruleset's, not a constant in the code.
  const RulesetPtr five = load_ruleset("builtin:default", {{"modifiers.running.value", "5"}});
  const OddsChain c5(five, given_rf(4, Pace::halt, 0, true));
  CHECK(c5.running_value() == 5);
  CHECK(c5.rf(0) == 9);
}

TEST_CASE("odds: with --rf the pace modifier is not added, from facts it is", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  CHECK(OddsChain(rules, given_rf(2, Pace::gallop, 1)).rf(0) == 2);
  CHECK(OddsChain(rules, given_rf(2, Pace::canter)).rf(0) == 2);
  // From facts, RF 3 at halt. Turn 1 on RF2-5; on turn 2: after canter_away
  // (canter -1, ran +3) RF 5; after gallop_advance_charge (gallop -1) RF 2;
  // after walk_to_cover, halt_facing, continue_facing_charge (still at halt) RF 3.
  // Mean RF on turn 2 = (5 + 3 + 3 + 3 + 3 + 2) / 6 = 19/6.
  const OddsChain chain(rules, from_facts(rf3_at_halt()));
  CHECK(chain.rf(0) == 3);
  const auto odds = turn_odds(chain, 2);
  CHECK(odds[1].expected_rf == Approx(19.0 / 6.0).epsilon(1e-14));
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const ChainState& s = chain.state(i);
    const int fast = (s.pace == Pace::canter || s.pace == Pace::gallop) ? -1 : 0;
    CHECK(chain.rf(i) == 3 + fast + (s.ran ? 3 : 0));
  }
  // RF 6+ (where flee_gallop lives) needs a running unit that is not moving
  // fast: only the gallop limit makes one (seed 002: "Gallop is only allowed
  // for 2 turns in a row, after which the unit may only walk for a turn").
  // Gallop on turns 1 and 2 (1/6 x 2/6: at gallop, continue_facing_charge
  // keeps the gallop), canter_away forced to walk on turn 3 (1/6), RF 3+3 = 6
  // on turn 4 and flee_gallop (1/6): 2/1296 = 1/648. Never before turn 4.
  const BehaviourIndex flee = beh(*rules, "flee_gallop");
  const auto e = exact_turn_odds(chain, 4);
  CHECK(e[0].behaviours[flee] == Fraction(0));
  CHECK(e[1].behaviours[flee] == Fraction(0));
  CHECK(e[2].behaviours[flee] == Fraction(0));
  CHECK(e[3].behaviours[flee] == Fraction(1, 648));
  CHECK_FALSE(chain.possible_within(flee, 3));
  CHECK(chain.possible_within(flee, 4));
}

TEST_CASE("odds: at halt matters in the RF0 row (seed 002 'Up to RF0')", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  const BehaviourIndex adv = beh(r, "advance_nearest_visible");
  const BehaviourIndex cont = beh(r, "continue");
  // No modifier: RF 0. At halt a 6 moves toward the nearest visible enemy
  // (at a walk, the ruleset's choice); after that the unit is moving and the
  // row says continue, at a walk, for ever.
  //   advance on turn 2 = 5/6 x 1/6 = 5/36; walking after turn 2 = 1/6 + 5/36 = 11/36.
  const OddsChain halt(rules, from_facts(Situation{}));
  CHECK(halt.rf(0) == 0);
  const auto e = exact_turn_odds(halt, 2);
  CHECK(e[0].behaviours[adv] == Fraction(1, 6));
  CHECK(e[1].behaviours[adv] == Fraction(5, 36));
  CHECK(e[1].behaviours[cont] == Fraction(31, 36));
  CHECK(e[1].pace[static_cast<std::size_t>(Pace::walk)] == Fraction(11, 36));
  CHECK(e[1].pace[static_cast<std::size_t>(Pace::halt)] == Fraction(25, 36));
  CHECK(e[1].has_run == Fraction(0));
  CHECK(e[1].charge_offered == Fraction(0));
  // A walking unit at RF 0 only continues.
  Situation walking;
  walking.pace = Pace::walk;
  const OddsChain walk(rules, from_facts(walking));
  CHECK_FALSE(walk.possible_within(adv, 100));
  for (const auto& t : exact_turn_odds(walk, 5)) CHECK(t.behaviours[cont] == Fraction(1));
}

TEST_CASE("odds: mounted infantry never gallops (seed 002 cavalry supplement)", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  const UnitType* mi = r.find_unit_type("mounted_infantry");
  REQUIRE(mi != nullptr);
  for (int rf : {1, 2, 7, 10}) {
    const OddsChain chain(rules, given_rf(rf, Pace::walk, 0, false, mi));
    for (std::size_t i = 0; i < chain.size(); ++i) CHECK(chain.state(i).pace != Pace::gallop);
    const auto exact = exact_turn_odds(chain, 6);
    for (const auto& t : exact) CHECK(t.pace[static_cast<std::size_t>(Pace::gallop)] == Fraction(0));
    // The cell is still chosen (gallop_advance_charge, flee_gallop); only the pace changes.
    const auto first = band_odds(r, r.band_for(rf), false);
    for (const auto& [b, p] : first) CHECK(exact[0].behaviours[static_cast<std::size_t>(b - r.behaviours.data())] == p);
  }
  // RF 2: the gallop cell becomes a canter (switches.no_gallop_pace): canter
  // = canter_away 1/6 + gallop_advance_charge 1/6 on turn 1.
  const auto e = exact_turn_odds(OddsChain(rules, given_rf(2, Pace::walk, 0, false, mi)), 1);
  CHECK(e[0].pace[static_cast<std::size_t>(Pace::canter)] == Fraction(1, 3));
}

TEST_CASE("odds: the gallop limit (seed 002: gallop 2 turns in a row, then walk)", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  const auto gallop = static_cast<std::size_t>(Pace::gallop);
  // Galloped 2 turns in a row at RF 2: no gallop this turn. gallop_advance_charge,
  // continue_facing_charge (current pace) and canter_away all walk: 5/6 walk, 1/6 halt.
  const auto two = exact_turn_odds(OddsChain(rules, given_rf(2, Pace::gallop, 2)), 1);
  CHECK(two[0].pace[gallop] == Fraction(0));
  CHECK(two[0].pace[static_cast<std::size_t>(Pace::walk)] == Fraction(5, 6));
  CHECK(two[0].pace[static_cast<std::size_t>(Pace::halt)] == Fraction(1, 6));
  // Galloped once: gallop again on 2 faces (continue_facing_charge, gallop_advance_charge).
  const OddsChain one(rules, given_rf(2, Pace::gallop, 1));
  const auto e = exact_turn_odds(one, 2);
  CHECK(e[0].pace[gallop] == Fraction(1, 3));
  // Turn 2 gallops only from states that did not gallop on turn 1: 4/6 x 1/6 (gallop_advance_charge).
  CHECK(e[1].pace[gallop] == Fraction(1, 9));
  // In the chain, no state at the limit leads to a gallop.
  for (std::size_t i = 0; i < one.size(); ++i)
    if (one.state(i).gallop_streak >= r.supplement.gallop_max_turns)
      for (const auto& m : one.moves(i)) CHECK(one.state(m.next).pace != Pace::gallop);
  // The limit is the ruleset's: at 3 turns, galloped 2 may gallop again.
  const RulesetPtr three = load_ruleset("builtin:default", {{"gallop_limit.turns", "3"}});
  CHECK(exact_turn_odds(OddsChain(three, given_rf(2, Pace::gallop, 2)), 1)[0].pace[gallop] == Fraction(1, 3));
}

TEST_CASE("odds: rows sum to 1, events never decrease, Eigen agrees with the exact odds", "[odds]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  Situation mixed = rf3_at_halt();
  mixed.raw = true;
  mixed.casualties_hundredths = 2500;
  std::vector<OddsSetup> setups{given_rf(0),
                                given_rf(2),
                                given_rf(4, Pace::gallop, 1),
                                given_rf(7, Pace::walk, 0, true),
                                given_rf(12),
                                given_rf(3, Pace::canter, 0, false, r.find_unit_type("mounted_infantry")),
                                from_facts(rf3_at_halt()),
                                from_facts(mixed, 0, r.find_unit_type("shock"))};
  for (const auto& setup : setups) {
    const OddsChain chain(rules, setup);
    const Eigen::MatrixXd p = chain.transition();
    for (Eigen::Index i = 0; i < p.rows(); ++i) CHECK(p.row(i).sum() == Approx(1.0).epsilon(1e-15));
    for (std::size_t i = 0; i < chain.size(); ++i) {
      int faces = 0;
      for (const auto& m : chain.moves(i)) faces += m.faces;
      CHECK(faces == 6);
    }
    const auto exact = exact_turn_odds(chain, k_max_exact_turns);
    const auto approx = turn_odds(chain, k_max_exact_turns);
    REQUIRE(exact.size() == approx.size());
    double prev_run = 0, prev_charge = 0;
    for (std::size_t t = 0; t < approx.size(); ++t) {
      const TurnOdds& a = approx[t];
      const ExactTurnOdds& x = exact[t];
      double sum_b = 0, sum_p = 0;
      for (std::size_t b = 0; b < a.behaviours.size(); ++b) {
        sum_b += a.behaviours[b];
        CHECK(std::abs(a.behaviours[b] - x.behaviours[b].value()) < 1e-12);
      }
      for (std::size_t k = 0; k < 4; ++k) {
        sum_p += a.pace[k];
        CHECK(std::abs(a.pace[k] - x.pace[k].value()) < 1e-12);
      }
      CHECK(sum_b == Approx(1.0).epsilon(1e-12));
      CHECK(sum_p == Approx(1.0).epsilon(1e-12));
      CHECK(std::abs(a.has_run - x.has_run.value()) < 1e-12);
      CHECK(std::abs(a.charge_offered - x.charge_offered.value()) < 1e-12);
      CHECK(a.has_run >= prev_run - 1e-15);
      CHECK(a.charge_offered >= prev_charge - 1e-15);
      CHECK(a.has_run <= 1.0 + 1e-12);
      prev_run = a.has_run;
      prev_charge = a.charge_offered;
    }
  }
  CHECK_THROWS_AS(exact_turn_odds(OddsChain(rules, given_rf(2)), k_max_exact_turns + 1), std::out_of_range);
}

TEST_CASE("odds: agree with a simulation of the same process (200,000 units, 5 turns)", "[odds][statistical]") {
  const RulesetPtr rules = default_ruleset();
  const Ruleset& r = *rules;
  // The running modifiers' value for a given RF, read from the ruleset.
  int running = 0;
  for (const auto& m : r.modifiers)
    if (std::find(m.facts.begin(), m.facts.end(), Fact::ran_last_turn) != m.facts.end()) running += m.value;

  Situation mixed = rf3_at_halt();
  mixed.casualties_hundredths = 1000;  // RF 4 at halt, 3 moving fast, up to 6 after running
  mixed.pace = Pace::gallop;           // galloped once already
  const std::vector<OddsSetup> setups{from_facts(rf3_at_halt()),
                                      from_facts(mixed, 1, r.find_unit_type("shock")),
                                      given_rf(5, Pace::gallop, 1),
                                      given_rf(1, Pace::walk, 0, true, r.find_unit_type("mounted_infantry"))};
  constexpr int k_turns = 5;
  constexpr int k_units = 200000;
  std::uint64_t setup_no = 0;
  for (const auto& setup : setups) {
    ++setup_no;
    const OddsChain chain(rules, setup);
    const auto exact = turn_odds(chain, k_turns);

    const std::size_t nb = r.behaviours.size();
    std::vector<std::vector<long>> beh(k_turns, std::vector<long>(nb, 0));
    std::vector<std::array<long, 4>> pace(k_turns, std::array<long, 4>{});
    std::vector<long> run(k_turns, 0), charge(k_turns, 0);
    for (int u = 0; u < k_units; ++u) {
      Rng rng = make_stream(20240517 + setup_no, static_cast<std::uint64_t>(u), Subsystem::decisions);
      Dice dice(rng);
      Situation s = setup.situation;
      UnitState unit;
      unit.type = setup.type;
      unit.pace = s.pace;
      unit.gallop_streak = setup.galloped;
      bool has_run = false, offered = false;
      for (int t = 0; t < k_turns; ++t) {
        const int rf = setup.rf ? *setup.rf + (s.ran_last_turn ? running : 0) : rf_total(r, Facts(s));
        const Decision d = decide(r, rf, dice.d6(), unit);
        unit = after(unit, d);
        s.pace = unit.pace;
        s.ran_last_turn = d.behaviour->running;
        has_run = has_run || d.behaviour->running;
        offered = offered || d.behaviour->charge_possible;
        const auto t_ = static_cast<std::size_t>(t);
        ++beh[t_][static_cast<std::size_t>(d.behaviour - r.behaviours.data())];
        ++pace[t_][static_cast<std::size_t>(unit.pace)];
        run[t_] += has_run;
        charge[t_] += offered;
      }
    }
    auto near = [&](double p, long hits, const std::string& what) {
      const double n = k_units;
      const double se = std::max(std::sqrt(p * (1 - p) / n), 1.0 / n);
      const double sim = static_cast<double>(hits) / n;
      INFO("setup " << setup_no << ": " << what << " exact " << p << " simulated " << sim);
      CHECK(std::abs(sim - p) <= 4 * se);
    };
    for (std::size_t t = 0; t < static_cast<std::size_t>(k_turns); ++t) {
      const std::string turn = "turn " + std::to_string(t + 1) + " ";
      for (std::size_t b = 0; b < nb; ++b) near(exact[t].behaviours[b], beh[t][b], turn + r.behaviours[b].id);
      for (std::size_t k = 0; k < 4; ++k) near(exact[t].pace[k], pace[t][k], turn + std::string(k_pace_names[k]));
      near(exact[t].has_run, run[t], turn + "has_run");
      near(exact[t].charge_offered, charge[t], turn + "charge_offered");
    }
  }
}

TEST_CASE("odds: the command as a user runs it", "[odds][cli]") {
  SECTION("--json") {
    const Run r = run_vedette("odds --rf 4 --turns 3 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["turns"].is_array());
    REQUIRE(j["turns"].size() == 3);
    CHECK(j["start"]["rf"] == 4);
    CHECK(j["running_modifier"] == 3);
    for (std::size_t t = 0; t < 3; ++t) {
      const auto& jt = j["turns"][t];
      CHECK(jt["turn"] == t + 1);
      double sum = 0;
      for (const auto& [id, p] : jt["behaviours"].items()) sum += p.get<double>();
      CHECK(sum == Approx(1.0));
      CHECK(jt["has_run"].is_number());
      CHECK(jt["charge_offered"].is_number());
    }
    // Hand-computed above: 11/36 and 19/36 within 2 turns.
    CHECK(j["turns"][1]["has_run"].get<double>() == Approx(11.0 / 36.0));
    CHECK(j["turns"][1]["charge_offered"].get<double>() == Approx(19.0 / 36.0));
    CHECK(j["turns"][1]["exact"]["has_run"] == "11/36");
    CHECK(j["turns"][1]["behaviours"]["flee_gallop"].get<double>() == Approx(1.0 / 36.0));
  }
  SECTION("text: a table with fractions for short horizons") {
    const Run r = run_vedette("odds --enemy-in-range --enemy-flank-rear --turns 2");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Start: RF 3 (RF2-5)") != std::string::npos);
    CHECK(r.out.find("16.7%") != std::string::npos);
    CHECK(r.out.find("11/36") != std::string::npos);
    CHECK(r.out.find("has run") != std::string::npos);
  }
  SECTION("bad input: exit 2 with a reason") {
    Run r = run_vedette("odds --rf 2 --turns 0");
    CHECK(r.status == 2);
    CHECK(r.out.find("--turns") != std::string::npos);
    r = run_vedette("odds --rf 2 --turns 1001");
    CHECK(r.status == 2);
    CHECK(r.out.find("1 to 1000") != std::string::npos);
    r = run_vedette("odds --rf 2 --hero --turns 2");
    CHECK(r.status == 2);
    CHECK(r.out.find("--rf") != std::string::npos);
    CHECK(run_vedette("odds --rf 2").status == 2);  // --turns is required
    CHECK(run_vedette("odds --type mounted-infantry --pace gallop --turns 2").status == 2);
    // --ran-last-turn is the unit's state, not a fact: allowed with --rf.
    CHECK(run_vedette("odds --rf 4 --ran-last-turn --turns 1").status == 0);
  }
  SECTION("the longest horizon runs") {
    const Run r = run_vedette("odds --rf 5 --turns 1000 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["turns"].size() == 1000);
    CHECK(j["turns"][999]["has_run"].get<double>() == Approx(1.0));
  }
}

}  // namespace t_odds
