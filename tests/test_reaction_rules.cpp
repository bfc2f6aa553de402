// The reactions' rules as functions of facts (engine/procedures/reaction_rules.hpp,
// issue 28): the opportunity charge's gates and charge (seed 003 L90-L102),
// the counter-charge, and cavalry being charged (L7, L9-16, L20, L54).
#include <catch2/catch.hpp>

#include "engine/procedures/reaction_rules.hpp"

namespace t_reaction_rules {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

ChargeThrow two(int a, int b) {
  ChargeThrow t;
  t.faces = {a, b, 0, 0};
  t.n = 2;
  return t;
}

std::array<ChargeThrow, 7> dice_of(std::initializer_list<std::pair<ChargeRoll, ChargeThrow>> l) {
  std::array<ChargeThrow, 7> d{};
  for (const auto& [slot, t] : l) d[static_cast<std::size_t>(slot)] = t;
  return d;
}

// A reach at cavalry: in range, with the bonus, the morale check called for.
ChargeReach reach_at(DefenderClass defender, AttackerWeight attacker, ChargedOn side, bool on_horse) {
  ChargeReach a;
  a.reaches = true;
  a.charge_bonus = true;
  a.morale_check = true;
  a.target.target_cavalry = on_horse;
  a.target.target_on_horse = on_horse;
  a.target.defender.defender = defender;
  a.target.defender.attacker = attacker;
  a.target.defender.side = side;
  a.target.charger.defender = DefenderClass::medium_horse;
  a.target.charger.attacker = AttackerWeight::medium;
  a.target.charger.side = ChargedOn::front;
  a.target.charger.both_charging = true;
  return a;
}

}  // namespace

TEST_CASE("reaction rules: who may make an opportunity charge (seed 003 L90-L96)",
          "[reaction][seed003][003-L92-not-yet-moved][003-L96-no-foot-on-horse][003-L96-solo-no-foot-on-horse][003-L34-good-order]") {
  RulesetPtr r = default_ruleset();
  ReactorFacts f;
  f.turn = 2;
  CHECK(reaction_gate(*r, f).allowed);
  // seed 003 L92: the charging unit has not yet moved during the current turn.
  ReactorFacts moved = f;
  moved.moved_this_turn = true;
  CHECK(reaction_gate(*r, moved).rule == "003-L92-not-yet-moved");
  CHECK(reaction_gate_alone(*r, moved).rule == "003-L92-not-yet-moved");
  // seed 003 L34: only in good order.
  ReactorFacts shaken = f;
  shaken.good_order = false;
  CHECK(reaction_gate(*r, shaken).rule == "003-L34-good-order");
  // seed 003 L96: infantry may not opportunity-charge cavalry; cavalry may.
  ReactorFacts foot = f;
  foot.cavalry = false;
  foot.on_horse = false;
  foot.mover_on_horse = true;
  CHECK(reaction_gate(*r, foot).rule == "003-L96-no-foot-on-horse");
  CHECK(reaction_gate_alone(*r, foot).allowed);  // the bar needs the mover
  foot.mover_on_horse = false;
  CHECK(reaction_gate(*r, foot).allowed);
  // seed 003 L100: failed once, no charge for the rest of the turn.
  ReactorFacts barred = f;
  barred.barred_this_turn = true;
  CHECK(reaction_gate(*r, barred).rule == "003-L100-opportunity-failed");
  // seed 003 L3: normal speed the turn after a charge.
  ReactorFacts after = f;
  after.charged_last_turn = true;
  CHECK(reaction_gate(*r, after).rule == "003-L3-normal-speed");
  // seed 003 L34: the target visible to the front rank.
  ReactorFacts unseen = f;
  unseen.mover_visible = false;
  CHECK(reaction_gate(*r, unseen).rule == "003-L34-target-visible");
  // In contact already: no reaction (no seed rule names it).
  ReactorFacts engaged = f;
  engaged.engaged = true;
  CHECK_FALSE(reaction_gate(*r, engaged).allowed);
  // On turn 1 an opportunity charge may still be made (only declarations are barred, seed 003 L24).
  ReactorFacts first = f;
  first.turn = 1;
  CHECK(reaction_gate(*r, first).allowed);
}

TEST_CASE("reaction rules: the table's policy and the call (seed 002 '(Charge?)', seed 003 L90)", "[reaction][seed003]") {
  RulesetPtr r = default_ruleset();
  TablePolicyFacts p;
  p.charge_possible = true;
  CHECK(table_policy_opportunity(p));
  TablePolicyFacts no = p;
  no.charge_possible = false;
  CHECK_FALSE(table_policy_opportunity(no));
  TablePolicyFacts off = p;
  off.option_on = false;
  CHECK_FALSE(table_policy_opportunity(off));
  TablePolicyFacts foot = p;
  foot.on_horse = false;
  CHECK_FALSE(table_policy_opportunity(foot));
  ReactorFacts f;
  f.turn = 2;
  CHECK(opportunity_call(*r, f, true, true).charges);
  CHECK_FALSE(opportunity_call(*r, f, false, true).charges);
  CHECK_FALSE(opportunity_call(*r, f, true, false).charges);
  // A halt charges at a walk; the charge allowance at a walk is its top (seed 003 L42: range 1.5x).
  PaceFacts pf;
  CHECK(reaction_pace(*r, pf, Pace::halt) == Pace::walk);
  CHECK(reaction_allowance(*r, true, Length(), Pace::walk).as_cm() == Approx(30));
  CHECK(reaction_allowance(*r, true, Length(), Pace::gallop).as_cm() == Approx(50));
  CHECK(reaction_allowance(*r, false, Length::in(6), Pace::walk).as_cm() == Approx(Length::in(6).as_cm()));
}

TEST_CASE("reaction rules: an undeclared opportunity charge checks at -2 (seed 003 L100) and stops the mover (L98)",
          "[reaction][seed003][003-L100-undeclared-minus-2][003-L98-interrupted-stops]") {
  RulesetPtr r = default_ruleset();
  OpportunityChargeFacts f;
  f.declared = false;
  f.reach = reach_at(DefenderClass::heavy_foot, AttackerWeight::heavy, ChargedOn::flank, false);
  // 2D6 = 5: a declared charge needs 4 (tables/default.yaml), an undeclared one 6.
  {
    ChargeProcedure p = opportunity_procedure(*r, f);
    walk_opportunity(p, f, dice_of({{ChargeRoll::initiation, two(2, 3)}}));
    REQUIRE(p.done());
    CHECK(p.result().initiation.need == 6);
    CHECK(p.result().end == ChargeEnd::no_charge);
    CHECK_FALSE(interrupted_stops(p.result()));
  }
  OpportunityChargeFacts d = f;
  d.declared = true;
  {
    ChargeProcedure p = opportunity_procedure(*r, d);
    // heavy foot charged in the flank by heavy horse: 9, flank -1 -> needs 10 (seed 003 L13, L20).
    const auto need = walk_opportunity(p, d, dice_of({{ChargeRoll::initiation, two(2, 3)}, {ChargeRoll::defender_morale, two(4, 5)}}));
    CHECK(need.kind == ChargeProcedure::Need::Kind::done);
    CHECK(p.result().initiation.need == 4);
    CHECK(p.result().defender_target.target == 10);
    CHECK(p.result().end == ChargeEnd::morale_failed);
    CHECK(interrupted_stops(p.result()));
  }
}

TEST_CASE("reaction rules: a mover charging the unit that reacts is met halfway, both check (seed 003 L102, L7)",
          "[reaction][seed003][003-L102-meet-halfway][003-L7-both-check]") {
  RulesetPtr r = default_ruleset();
  OpportunityChargeFacts f;
  f.declared = false;
  f.reach = reach_at(DefenderClass::medium_horse, AttackerWeight::medium, ChargedOn::flank, true);
  f.mover_charging_it = true;
  f.mover_morale_check = true;
  ChargeProcedure p = opportunity_procedure(*r, f);
  walk_opportunity(p, f, dice_of({{ChargeRoll::initiation, two(4, 4)}, {ChargeRoll::defender_morale, two(1, 1)},
                                  {ChargeRoll::charger_morale, two(3, 3)}}));
  REQUIRE(p.done());
  CHECK(p.result().counter);
  CHECK(p.result().on == ChargedOn::front);  // turned to face: charged in front
  CHECK(p.result().defender_target.target == 3);  // medium v medium 5, both charging horse +2
  CHECK(p.result().defender_fails);               // 2 < 3
  CHECK(p.result().charger_checks);
  CHECK_FALSE(p.result().charger_fails);
}

TEST_CASE("reaction rules: cavalry charged: its table row, the attacker's weight, flank and rear (seed 003 L7, L14-16, L20)",
          "[reaction][seed003][003-L7-defender-checks][003-L20-flank][003-L20-rear]") {
  RulesetPtr r = default_ruleset();
  // Seed 003 L14-16: light/medium/heavy horse charged by light/medium/heavy cavalry.
  const int table[3][3] = {{5, 6, 7}, {4, 5, 6}, {3, 4, 5}};
  const int side_mod[3] = {0, 1, 2};
  for (Weight defender : {Weight::light, Weight::medium, Weight::heavy})
    for (Weight attacker : {Weight::light, Weight::medium, Weight::heavy})
      for (ChargedOn side : {ChargedOn::front, ChargedOn::flank, ChargedOn::rear}) {
        const int want = table[static_cast<int>(defender)][static_cast<int>(attacker)] + side_mod[static_cast<int>(side)];
        INFO("defender " << static_cast<int>(defender) << " attacker " << static_cast<int>(attacker) << " side " << static_cast<int>(side));
        OpportunityChargeFacts f;
        f.declared = true;
        f.reach = reach_at(horse_class(defender), attacker_weight_of(attacker), side, true);
        for (const bool pass : {true, false}) {
          // The lowest total that stands, and one less.
          const int total = pass ? std::max(2, want) : want - 1;
          if (total < 2 || total > 12) continue;
          ChargeProcedure p = opportunity_procedure(*r, f);
          walk_opportunity(p, f, dice_of({{ChargeRoll::initiation, two(6, 6)},
                                          {ChargeRoll::defender_morale, two(total > 6 ? 6 : 1, total > 6 ? total - 6 : total - 1)}}));
          REQUIRE(p.done());
          CHECK(p.result().defender_target.target == want);
          CHECK(p.result().defender_fails == !pass);
          const ChargedAftermath a = charged_aftermath(*r, p.result(), Length::cm(30), Length::cm(30));
          if (pass) {
            CHECK(a.struck);  // seed 003 L54: held in place
            CHECK_FALSE(a.failed);
          } else {
            CHECK(a.failed);
            CHECK(a.retreat.as_cm() == Approx(45));  // seed 003 L7: 1 1/2 of its 30cm move
            CHECK(a.backs_to_enemy);
            CHECK(a.must_rally);
            CHECK_FALSE(a.struck);
          }
        }
      }
}

TEST_CASE("reaction rules: a counter-charge needs the gates, the policy and the reach (seed 003 L100-L102)",
          "[reaction][seed003][003-L100-opportunity-check]") {
  RulesetPtr r = default_ruleset();
  ReactorFacts f;
  f.turn = 2;
  f.mover_on_horse = true;
  CHECK(counter_charge(*r, f, true, true, false, true).kind == CounterCharge::attempts);
  CHECK_FALSE(counter_charge(*r, f, true, true, false, true).declared);
  CHECK(counter_charge(*r, f, true, true, true, true).declared);
  CHECK(counter_charge(*r, f, false, true, false, true).kind == CounterCharge::none);
  CHECK(counter_charge(*r, f, true, false, false, true).kind == CounterCharge::none);
  ReactorFacts moved = f;
  moved.moved_this_turn = true;
  CHECK(counter_charge(*r, moved, true, true, false, true).kind == CounterCharge::none);
}

}  // namespace t_reaction_rules
