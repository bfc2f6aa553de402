#include "engine/engagement/table_rules.hpp"

#include "engine/engagement/combat.hpp"

namespace vedette {

LimitedPace limit_pace(const Ruleset& r, const PaceFacts& f, Pace wanted) {
  if (!f.on_horse) return {wanted == Pace::halt ? Pace::halt : Pace::walk, PaceLimit::none};
  LimitedPace out{wanted, PaceLimit::none};
  if (out.pace == Pace::gallop && f.type && !f.type->can_gallop) {  // seed 002
    out.pace = r.switches.no_gallop_pace;
    out.why = PaceLimit::no_gallop;
  }
  if (f.gallop_streak >= r.supplement.gallop_max_turns && out.pace > r.supplement.after_gallop_limit) {
    out.pace = r.supplement.after_gallop_limit;  // seed 002: gallop at most 2 turns in a row
    if (out.why == PaceLimit::none) out.why = PaceLimit::gallop_limit;
  }
  if (f.charged_last_turn && out.pace > r.combat.charge.next_turn_pace) {
    out.pace = r.combat.charge.next_turn_pace;  // seed 003: normal speed after a charge
    if (out.why == PaceLimit::none) out.why = PaceLimit::after_charge;
  }
  return out;
}

int initiative_total(const Ruleset& r, int roll, int charges_declared) {
  return roll + r.charge.declare_initiative_modifier * charges_declared;
}

InitiationCheck initiation_check(const Ruleset& r, bool declared, int d1, int d2) {
  InitiationCheck c;
  c.need = initiation_need(r, declared ? 0 : -r.charge.opportunity_undeclared_modifier);
  c.total = d1 + d2;
  c.passed = c.total >= c.need;
  return c;
}

std::optional<ChargeRefusal> declaration_refusal(const Ruleset& r, int turn, bool good_order, bool charged_last_turn) {
  ChargeGateInput in;
  in.when = ChargeWhen::declare;
  in.turn = turn;
  in.first_turn_allowed = r.combat.charge.first_turn;
  in.good_order = good_order;
  in.charged_last_turn = charged_last_turn;
  const ChargeGate g = charge_gate(in);
  if (g.allowed) return std::nullopt;
  return ChargeRefusal{g.rule, g.why};
}

}  // namespace vedette
