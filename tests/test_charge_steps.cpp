// Seed 003's charge as one procedure (engine/procedures/charge_procedure.hpp):
// the order of its steps and dice, as every front drives it. The engine's
// side is held by the bench signature (benchmarks/README.md) and the golden
// tests of tests/test_charge_procedure.cpp; here, the procedure itself, and
// the fronts that drive it with the table's answers: `vedette charge`, the
// solo session's reading of a charge back (replay), and the exact odds.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/charge_odds.hpp"
#include "engine/procedures/charge_procedure.hpp"
#include "helpers.hpp"
#include "solo_test_util.hpp"

namespace t_charge_steps {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using Kind = ChargeProcedure::Need::Kind;

namespace {

// What the procedure asks, step by step, answered with `a` and `face` on
// every die: "roll initiation", "ask reach", ..., then how it ended.
std::vector<std::string> steps(const Ruleset& r, const ChargeFacts& f, const ChargeAnswers& a, int face) {
  ChargeProcedure p(r, f);
  std::vector<std::string> out;
  for (auto n = p.next(); n.kind != Kind::done; n = p.next()) {
    REQUIRE_FALSE(n.rule.empty());  // every step names the rule that asks it
    if (n.kind == Kind::roll) {
      out.push_back("roll " + std::string(k_charge_roll_names[static_cast<std::size_t>(n.roll)]));
      const std::array<int, 4> faces{face, face, face, face};
      p.roll(n.roll, faces.data(), n.dice);
      continue;
    }
    out.push_back("ask " + std::string(k_charge_ask_names[static_cast<std::size_t>(n.ask)]));
    switch (n.ask) {
      case ChargeAsk::reach: p.answer_reach(a.reach); break;
      case ChargeAsk::counter_charge: p.answer_counter(a.counter); break;
      case ChargeAsk::contact: p.answer(n.ask, a.contact); break;
      case ChargeAsk::fear: p.answer(n.ask, a.fear); break;
      case ChargeAsk::refuge: p.answer(n.ask, a.refuge); break;
      case ChargeAsk::square: p.answer(n.ask, a.square); break;
    }
  }
  out.push_back(std::string(k_charge_end_names[static_cast<std::size_t>(p.result().end)]));
  return out;
}

ChargeAnswers foot_answers() {
  ChargeAnswers a;
  a.reach.reaches = true;
  a.reach.charge_bonus = true;
  a.reach.morale_check = true;
  a.reach.target.square_allowed = true;
  a.reach.target.defender = {DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::front, false, false};
  return a;
}

RulesetPtr with_optional_rules() {
  auto r = std::make_shared<Ruleset>(*default_ruleset());
  r->charge.fear_of_charge.enabled = true;
  r->charge.infantry_square.enabled = true;
  return r;
}

}  // namespace

TEST_CASE("charge procedure: the initiation check comes first, and a failure ends the charge (seed 003 L48)",
          "[charge][procedure][003-L48-initiation-check][003-L48-initiation-failed]") {
  const RulesetPtr r = default_ruleset();
  ChargeProcedure p(*r, ChargeFacts{});
  const auto n = p.next();
  REQUIRE(n.kind == Kind::roll);
  CHECK(n.roll == ChargeRoll::initiation);
  CHECK(n.dice == 2);
  CHECK(n.rule == "003-L48-initiation-check");
  const int fail[2] = {1, 2};  // 3: under the need of 4
  p.roll(ChargeRoll::initiation, fail, 2);
  CHECK(p.done());
  CHECK(p.result().end == ChargeEnd::no_charge);
  CHECK(p.result().initiation.need == 4);
  // An undeclared (opportunity) charge: seed 003 L100's -2, asked by that rule.
  ChargeFacts opp;
  opp.declared = false;
  ChargeProcedure q(*r, opp);
  CHECK(q.next().rule == "003-L100-undeclared-minus-2");
  const int five[2] = {2, 3};
  q.roll(ChargeRoll::initiation, five, 2);
  CHECK(q.result().initiation.need == 6);
  CHECK(q.result().end == ChargeEnd::no_charge);
}

TEST_CASE("charge procedure: it takes only the dice it asks for, in its order", "[charge][procedure]") {
  const RulesetPtr r = default_ruleset();
  ChargeProcedure p(*r, ChargeFacts{});
  const int two[2] = {6, 6};
  CHECK_THROWS_AS(p.roll(ChargeRoll::defender_morale, two, 2), std::logic_error);  // the morale check is not next
  CHECK_THROWS_AS(p.answer(ChargeAsk::square, true), std::logic_error);
  const int seven[2] = {7, 1};
  CHECK_THROWS_AS(p.roll(ChargeRoll::initiation, seven, 2), std::out_of_range);
  p.roll(ChargeRoll::initiation, two, 2);
  CHECK(p.next().kind == Kind::ask);
  CHECK(p.next().ask == ChargeAsk::reach);
}

TEST_CASE("charge procedure: the steps in the seeds' order, for foot charged by horse with every optional rule on",
          "[charge][procedure][003-L68-obstacle-check][001-L13-gut-check][004-L26-form-square-choice][003-L7-defender-checks]") {
  const RulesetPtr r = with_optional_rules();
  ChargeAnswers a = foot_answers();
  a.reach.obstacle = true;
  a.fear = true;
  a.refuge = false;  // caught in the open: the charge goes on
  // Every die a 6: each check passes, the gut check too (7+ on 2D6).
  CHECK(steps(*r, ChargeFacts{}, a, 6) ==
        std::vector<std::string>{"roll initiation", "ask reach", "roll obstacle_check", "ask counter_charge", "ask contact",
                                 "ask fear", "roll gut_check", "ask square", "roll defender_morale", "melee"});
  // Every die a 1: the initiation check fails before anything else.
  CHECK(steps(*r, ChargeFacts{}, a, 1) == std::vector<std::string>{"roll initiation", "no_charge"});
  // Formed square: no morale check (seed 004; the engine's reading, L26: the
  // square is chosen as the charge comes in, before seed 003's check).
  a.square = true;
  a.reach.obstacle = false;
  CHECK(steps(*r, ChargeFacts{}, a, 6) ==
        std::vector<std::string>{"roll initiation", "ask reach", "ask counter_charge", "ask contact", "ask fear", "roll gut_check",
                                 "ask square", "melee"});
}

TEST_CASE("charge procedure: both charging against horse, the defender checks, then the charger, whatever the defender rolled (seed 003 L7)",
          "[charge][procedure][003-L7-both-check]") {
  const RulesetPtr r = default_ruleset();
  ChargeAnswers a;
  a.reach = {true, true, true, false, {}};
  a.reach.target.target_cavalry = true;
  a.reach.target.target_on_horse = true;
  a.reach.target.defender = {DefenderClass::light_horse, AttackerWeight::heavy, ChargedOn::flank, false, false};
  a.reach.target.charger = {DefenderClass::heavy_horse, AttackerWeight::light, ChargedOn::front, true, false};
  a.counter.kind = CounterCharge::attempts;
  a.counter.morale_check = true;
  ChargeProcedure p(*r, ChargeFacts{});
  std::array<ChargeThrow, 7> dice{};
  dice[static_cast<std::size_t>(ChargeRoll::initiation)] = {{6, 6, 0, 0}, 2};
  dice[static_cast<std::size_t>(ChargeRoll::counter_initiation)] = {{6, 5, 0, 0}, 2};
  dice[static_cast<std::size_t>(ChargeRoll::defender_morale)] = {{1, 1, 0, 0}, 2};  // fails
  auto next = drive_charge(p, a, dice);
  // The charger's own check is asked although the defender failed.
  REQUIRE(next.kind == Kind::roll);
  CHECK(next.roll == ChargeRoll::charger_morale);
  CHECK(p.result().counter);
  CHECK(p.result().on == ChargedOn::front);  // it turned to face: charged in front, not the flank
  CHECK(p.result().defender_target.both_charging != 0);
  dice[static_cast<std::size_t>(ChargeRoll::charger_morale)] = {{6, 6, 0, 0}, 2};
  drive_charge(p, a, dice);
  CHECK(p.result().end == ChargeEnd::morale_failed);
  CHECK(p.result().defender_fails);
  CHECK_FALSE(p.result().charger_fails);
  // A counter-charger that fails its own initiation check does not
  // counter-charge (L100): the charger is not asked to check.
  ChargeProcedure q(*r, ChargeFacts{});
  dice[static_cast<std::size_t>(ChargeRoll::counter_initiation)] = {{1, 1, 0, 0}, 2};
  drive_charge(q, a, dice);
  CHECK(q.result().counter_barred);
  CHECK_FALSE(q.result().was_thrown(ChargeRoll::charger_morale));
  CHECK(q.result().on == ChargedOn::flank);
}

TEST_CASE("charge odds: the procedure's odds sum to one on every path, engine-only steps too", "[charge][procedure][odds]") {
  const RulesetPtr r = with_optional_rules();
  for (bool pike : {false, true})
    for (bool counter : {false, true})
      for (bool contact : {false, true}) {
        ChargeAnswers a = foot_answers();
        a.reach.target.pike_charge = pike;
        a.counter.kind = counter ? CounterCharge::attempts : CounterCharge::none;
        a.contact = contact;
        a.fear = true;
        a.refuge = true;
        ChargeFacts f;
        f.charger_on_horse = !pike;
        const ChargeOdds o = charge_odds(*r, f, a);
        INFO("pike " << pike << " counter " << counter << " contact " << contact);
        CHECK(o.total() == Fraction(1));
        CHECK((o.blocked == Fraction(0)) == contact);
        CHECK((Fraction(0) < o.pike_broke) == (pike && contact));
      }
}

// `vedette charge` drives the same procedure: with seed 004's square the
// foot form square as the charge comes in and take no morale check (the
// engine's order; before, the command asked for the check first).
TEST_CASE("vedette charge: a square is formed before the morale check and takes none (seed 004 L26)",
          "[charge][procedure][cli][004-L26-form-square-choice]") {
  const std::string square_rules = std::string(VEDETTE_SOURCE_DIR) + "/tables/house-rules/infantry-square.yaml";
  auto args = [&](const std::string& defender, std::vector<std::string> extra) {
    std::vector<std::string> a{"charge", "--ruleset", square_rules, "--move", "12in", "--distance", "10in",
                               "--attacker", "heavy", "--defender", defender};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  auto with = [&](std::vector<std::string> extra) {
    extra.push_back("--json");
    return args("heavy-foot", extra);
  };
  const auto formed = vtest::run_vedette(with({"--square", "--roll", "1", "1"}));
  REQUIRE(formed.status == 0);
  const auto j = nlohmann::json::parse(formed.out);
  CHECK(j["square"] == true);
  CHECK(j["morale_check"] == false);
  CHECK_FALSE(j.contains("stands"));  // no check, no result
  const auto open = vtest::run_vedette(with({"--roll", "1", "1"}));
  REQUIRE(open.status == 0);
  const auto k = nlohmann::json::parse(open.out);
  CHECK(k["square"] == false);
  CHECK(k["stands"] == false);  // 2 on the dice: the check is taken and fails
  CHECK(k["infantry_square"]["may_form"] == true);  // offered although the check failed: it comes first
  // Text: says why there is no morale check.
  const auto t = vtest::run_vedette(args("heavy-foot", {"--square"}));
  REQUIRE(t.status == 0);
  CHECK(t.out.find("No morale check: the foot formed square") != std::string::npos);
  // --square where the rule is off, or for horse: refused, exit 2.
  const auto off = vtest::run_vedette({"charge", "--move", "12in", "--distance", "10in", "--attacker", "heavy", "--defender",
                                       "heavy-foot", "--square"});
  CHECK(off.status == 2);
  CHECK(off.err.find("charge.infantry_square.enabled") != std::string::npos);
  const auto both = vtest::run_vedette(args("heavy-foot", {"--square", "--both-charging"}));
  CHECK(both.status == 2);
  CHECK(both.err.find("forms no square") != std::string::npos);
  const auto hr = vtest::run_vedette(args("light-horse", {"--square"}));
  CHECK(hr.status == 2);
  CHECK(hr.err.find("may not form square") != std::string::npos);
}

// A session is read back by replaying each charge on the procedure with its
// recorded answers and dice: a record the procedure does not give is refused
// where it stands (file, line), and nothing else is needed to catch it.
TEST_CASE("solo: reading a session replays its charges on the charge's procedure", "[solo][charge][procedure][003-L48-solo-initiation]") {
  using namespace solo_test;
  TempDir dir;
  REQUIRE(run({"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21"}, dir.path).status == 0);
  REQUIRE(run({"solo", "next-turn", "game"}, dir.path).status == 0);
  REQUIRE(run({"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6"}, dir.path).status == 0);
  // The player's dice: 1 + 2 fails the initiation check (needs 4).
  const Result c = run({"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "peasants", "--initiation", "1", "2"},
                       dir.path);
  INFO(c.err);
  REQUIRE(c.status == 0);
  REQUIRE(run({"solo", "status", "game"}, dir.path).status == 0);
  const auto file = dir.path / "game.vedette.yaml";
  const std::string good = slurp(file);
  // The record says the check passed: the procedure says its dice fail it.
  std::string text = good;
  const std::string from = "passed: false";
  const auto at = text.find(from, text.find("initiation:"));
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "passed: true");
  spit(file, text);
  const Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "game.vedette.yaml:"));
  CHECK(contains(bad.err, "the initiation check's dice give failed but it is recorded as passed"));
  // The record's dice pass the check it records as failed.
  text = good;
  const std::string dice_from = "initiation: {dice: [1, 2]";
  const auto d = text.find(dice_from);
  REQUIRE(d != std::string::npos);
  text.replace(d, dice_from.size(), "initiation: {dice: [3, 2]");
  spit(file, text);
  const Result other = run({"solo", "undo", "game"}, dir.path);  // a command that needs no rule reads it too
  CHECK(other.status == 2);
  CHECK(contains(other.err, "the initiation check's dice give passed but it is recorded as failed"));
  spit(file, good);
  CHECK(run({"solo", "status", "game"}, dir.path).status == 0);
}

}  // namespace t_charge_steps
