#include "engine/engagement/reaction_rules.hpp"

namespace vedette {

ReactionGate reaction_gate_alone(const Ruleset& r, const ReactorFacts& f) {
  auto no = [](std::string_view rule, std::string_view why) { return ReactionGate{false, rule, why}; };
  if (!f.active) return no("", "it is not on the table");
  if (f.engaged) return no("", "it is in contact already");
  if (f.in_square) return no("", "a unit in square may not move (seed 004)");
  ChargeGateInput in;
  in.when = ChargeWhen::opportunity;
  in.turn = f.turn;
  in.first_turn_allowed = r.combat.charge.first_turn;
  in.good_order = f.good_order;
  in.charged_last_turn = f.charged_last_turn;
  in.barred_this_turn = f.barred_this_turn;
  in.moved_this_turn = f.moved_this_turn;
  const ChargeGate g = charge_gate(in);
  if (!g.allowed) return no(g.rule, g.why);
  return {};
}

ReactionGate reaction_gate(const Ruleset& r, const ReactorFacts& f) {
  if (!f.mover_active) return {false, "", "the enemy is not on the table"};
  if (f.mover_engaged) return {false, "", "the enemy is in contact already"};
  if (ReactionGate g = reaction_gate_alone(r, f); !g.allowed) return g;
  // The gates that need the enemy, in charge_gate's order.
  ChargeGateInput in;
  in.when = ChargeWhen::opportunity;
  in.turn = f.turn;
  in.first_turn_allowed = r.combat.charge.first_turn;
  in.infantry_against_cavalry = !f.cavalry && f.mover_on_horse;  // L96
  in.target_visible = f.mover_visible;                           // L34
  const ChargeGate g = charge_gate(in);
  if (!g.allowed) return {false, g.rule, g.why};
  return {};
}

bool table_policy_opportunity(const TablePolicyFacts& f) {
  return f.option_on && f.on_horse && f.reacted && f.charge_possible;
}

Pace reaction_pace(const Ruleset& r, const PaceFacts& f, Pace commanded) {
  const Pace p = commanded == Pace::halt ? Pace::walk : commanded;
  return f.on_horse ? limit_pace(r, f, p).pace : Pace::walk;
}

Length reaction_allowance(const Ruleset& r, bool on_horse, Length foot_move, Pace p) {
  if (!on_horse) return foot_move;
  if (r.combat.charge.allowance == CombatRules::Allowance::walk || p < Pace::walk) return r.pace_range(Pace::walk).max;
  return r.pace_range(p).max;
}

OpportunityCall opportunity_call(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches) {
  OpportunityCall c;
  c.gate = reaction_gate(r, f);
  c.wanted = wanted;
  c.reaches = reaches;
  if (!c.gate.allowed) {
    c.why = c.gate.why;
  } else if (!wanted) {
    c.why = "its table cell this turn does not say \"(Charge?)\": it holds";
  } else if (!reaches) {
    c.why = "the enemy is not within its charge range and arc (seed 003)";
  } else {
    c.charges = true;
  }
  return c;
}

ChargeProcedure opportunity_procedure(const Ruleset& r, const OpportunityChargeFacts& f) {
  ChargeFacts cf;
  cf.declared = f.declared;  // L100: -2 when none was declared in step 1
  cf.charger_on_horse = f.charger_on_horse;
  return ChargeProcedure(r, cf);
}

ChargeProcedure::Need walk_opportunity(ChargeProcedure& p, const OpportunityChargeFacts& f,
                                       const std::array<ChargeThrow, 7>& dice) {
  return drive_charge(p, opportunity_answers(f), dice);
}

ChargeAnswers opportunity_answers(const OpportunityChargeFacts& f) {
  ChargeAnswers a;
  a.reach = f.reach;
  if (f.mover_charging_it) {  // L102: the two meet halfway
    a.counter.kind = CounterCharge::charging;
    a.counter.morale_check = f.mover_morale_check;
  }
  a.contact = true;
  return a;
}

bool contact_made(ChargeEnd e) {
  switch (e) {
    case ChargeEnd::melee:
    case ChargeEnd::morale_failed:
    case ChargeEnd::pike_broke:
    case ChargeEnd::pike_destroyed: return true;
    case ChargeEnd::running:
    case ChargeEnd::no_charge:
    case ChargeEnd::falls_short:
    case ChargeEnd::halted_at_obstacle:
    case ChargeEnd::blocked:
    case ChargeEnd::fled: return false;
  }
  return false;
}

ChargeCounter counter_charge(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches, bool declared,
                             bool own_morale_check) {
  ChargeCounter c;
  if (!reaction_gate(r, f).allowed || !wanted || !reaches) return c;
  c.kind = CounterCharge::attempts;
  c.declared = declared;  // L100: no -2 when it declared a charge in step 1
  c.morale_check = own_morale_check;
  return c;
}

DefenderClass horse_class(Weight w) {
  return static_cast<DefenderClass>(static_cast<std::size_t>(DefenderClass::light_horse) + static_cast<std::size_t>(w));
}

AttackerWeight attacker_weight_of(Weight w) {
  switch (w) {
    case Weight::light: return AttackerWeight::light;
    case Weight::medium: return AttackerWeight::medium;
    case Weight::heavy: return AttackerWeight::heavy;
  }
  return AttackerWeight::medium;
}

ChargedAftermath charged_aftermath(const Ruleset& r, const ChargeResult& res, Length defender_move, Length charger_move) {
  const ChargeRules& cr = r.charge;
  ChargedAftermath a;
  if (res.end == ChargeEnd::melee) {
    a.struck = true;  // L54
    return a;
  }
  if (res.end != ChargeEnd::morale_failed) return a;
  if (res.defender_fails) {
    a.failed = true;
    a.retreat = morale_retreat(cr, defender_move);  // L7: 1 1/2 moves
    a.backs_to_enemy = cr.failure_backs_to_enemy;
    a.must_rally = cr.failure_must_rally;
  }
  if (res.charger_fails) {
    a.charger_failed = true;
    a.charger_retreat = morale_retreat(cr, charger_move);
  }
  a.charger_follows_through = !res.charger_fails && r.combat.melee.follow_through;  // L3: victory before melee
  return a;
}

}  // namespace vedette
