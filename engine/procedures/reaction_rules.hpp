#pragma once
// Reactions in the other side's movement step (seed 003, issue 28) as
// functions of facts: an opportunity charge at a unit that moves (L90-L102),
// a counter-charge against a charge (L102), and what happens to cavalry
// that is charged (L7, L9-16, L20, L54). The solo session
// (sims/solo/solo_react.cpp) asks them with the facts the player gives. The
// engagement engine asks from its board: the gates are charge_gate's
// (engine/decision/charge.hpp, for both), the pace and the allowance are
// reaction_pace and reaction_allowance (Engagement::opportunity_charges in
// engine/engagement/engagement_charge.cpp, Battle::charge_allowance), the
// policy is table_policy_opportunity (ReactionTableBot::opportunity_charge,
// bots/reaction_bot.cpp), and the charge is the one procedure. The facts
// wrappers here (reaction_gate's "not on the table", "in contact", "in
// square") repeat the engine's loop's own checks: tests/
// test_reaction_equivalence.cpp plays the same situations both ways.
//
// The charge itself is the one procedure (engine/procedures/charge_procedure.hpp):
// an opportunity charge is a charge not declared in step 1 unless one was
// (L100: -2 on its initiation check); a mover that was charging the unit
// that reacts is met halfway (L102: the procedure's counter-charge).
#include <array>
#include <optional>
#include <string_view>

#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/charge_procedure.hpp"
#include "engine/procedures/table_rules.hpp"

namespace vedette {

// ---------------------------------------------------- may it react at all?

// What is known of a unit that might react to an enemy that moves or
// charges it, and of that enemy.
struct ReactorFacts {
  bool active = true;             // on the table
  bool engaged = false;           // in contact already (a melee): it does not react
  bool struck = false;            // seed 003 L54: struck by a charge this turn (fell back since): it may not move
  bool in_square = false;         // seed 004: a square does not move
  int turn = 1;
  bool good_order = true;         // seed 003 L34
  bool charged_last_turn = false; // seed 003 L3: normal speed this turn
  bool barred_this_turn = false;  // failed an initiation check this turn (L48, L100)
  bool moved_this_turn = false;   // L92: "has not yet moved during the current turn"
  bool cavalry = true;            // its kind (mounted or not): L96 bars infantry only
  bool on_horse = true;
  // The enemy it would charge.
  bool mover_active = true;
  bool mover_engaged = false;     // already in contact: no opportunity
  bool mover_on_horse = false;    // L96: infantry may not charge cavalry on horse
  bool mover_visible = true;      // L34: visible to the front rank
};

// Whether a rule lets it react: the engine's gates (charge_gate with
// ChargeWhen::opportunity, engine/decision/charge.hpp) and the checks
// Engagement::opportunity_charges makes before them. `rule` is the
// conformance id that forbids it (empty when allowed; empty too for "not on
// the table", "in contact", which no seed rule names).
struct ReactionGate {
  bool allowed = true;
  std::string_view rule;
  std::string_view why;
};
ReactionGate reaction_gate(const Ruleset& r, const ReactorFacts& f);

// The gates that need no enemy: whether asking about this unit makes sense
// at all (the solo session asks nothing about a unit that fails them).
ReactionGate reaction_gate_alone(const Ruleset& r, const ReactorFacts& f);

// The automated side's choice (the policy): the Actions Table bot
// (bots/reaction_bot.cpp, ReactionTableBot::opportunity_charge) charges when
// the option is on, it is on horse, and this turn's table cell said
// "(Charge?)".
struct TablePolicyFacts {
  bool option_on = true;          // the bot's opportunity_charges option (default true)
  bool on_horse = true;
  bool reacted = true;            // the table was read for it this turn
  bool charge_possible = false;   // its cell says "(Charge?)"
};
bool table_policy_opportunity(const TablePolicyFacts& f);

// The pace it charges at: its commanded pace (a halt charges at a walk),
// limited as any pace (limit_pace); a unit on foot walks.
Pace reaction_pace(const Ruleset& r, const PaceFacts& f, Pace commanded);
// Its charge allowance at that pace (the engine's Battle::charge_allowance):
// on foot its own move; on horse the top of its pace, or of the walk when
// combat.charge.allowance is walk or it halts. Seed 003 L42: the range is
// 1.5 times this.
Length reaction_allowance(const Ruleset& r, bool on_horse, Length foot_move, Pace p);

// ----------------------------------------------- the opportunity charge

// Whether it makes the opportunity charge: allowed by the gates, chosen by
// the policy, and the target within its charge range and arc (the geometry,
// the board's or the table's). `why` says why not in one line.
struct OpportunityCall {
  bool charges = false;
  ReactionGate gate;
  bool wanted = false;
  bool reaches = false;
  std::string_view why;
};
OpportunityCall opportunity_call(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches);

// The opportunity charge through the charge procedure, with the dice given
// (by ChargeRoll: initiation, then the defender's and, both charging
// against horse, the charger's morale check).
struct OpportunityChargeFacts {
  bool declared = false;         // a charge declared for it in step 1 (L100: else -2)
  bool charger_on_horse = true;
  ChargeReach reach;             // where it goes and whom it strikes
  // L102: the mover was itself charging the unit that reacts: the two meet
  // halfway (the procedure's counter-charge, "charging": its check was its own).
  bool mover_charging_it = false;
  bool mover_morale_check = false;  // the mover's own charge calls for a check (both check, L7)
};
// The table's answers to the procedure's questions for this charge (it
// reaches as `reach` says, the mover's own charge as a counter-charge that
// is "charging", contact made).
ChargeAnswers opportunity_answers(const OpportunityChargeFacts& f);
ChargeProcedure::Need walk_opportunity(ChargeProcedure& p, const OpportunityChargeFacts& f,
                                       const std::array<ChargeThrow, 7>& dice);
ChargeProcedure opportunity_procedure(const Ruleset& r, const OpportunityChargeFacts& f);

// Seed 003 L98: the mover whose move an opportunity charge interrupted
// cannot move farther this turn when the charge contacts it.
bool contact_made(ChargeEnd e);
inline bool interrupted_stops(const ChargeResult& res) { return contact_made(res.end); }

// ----------------------------------------------- cavalry being charged

// Its counter-charge against a charge (L100-L102; the engine's
// charge_counter): allowed by the gates with the charger as the mover,
// chosen by the policy, the charger within its own reach. `own_morale_check`:
// its own charge's geometry calls for a check (then both check, L7).
ChargeCounter counter_charge(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches, bool declared,
                             bool own_morale_check);

// The defender class a unit on horse of this weight is (seed 003 L14-L16:
// light, medium, heavy horse), and the attacker weight of a weight.
DefenderClass horse_class(Weight w);
AttackerWeight attacker_weight_of(Weight w);

// What the charge did to the unit charged, after the procedure: it stood
// (melee follows; L54: it cannot move, turn or change frontage for the rest
// of the turn), or it failed its morale check (L7: retreats
// failure_retreat_moves of its own move, backs to the enemy per
// failure_backs_to_enemy, and must rally per failure_must_rally).
struct ChargedAftermath {
  bool struck = false;         // contact stands: melee (L54 holds it)
  bool held = false;           // L54: contact was made, so it may not move, turn or change frontage
                               // for the rest of the turn, even after it fell back (the engine's
                               // Unit::struck_this_turn)
  bool failed = false;         // it failed its morale check
  Length retreat;              // when failed
  bool backs_to_enemy = false;
  bool must_rally = false;     // else shaken
  bool charger_failed = false; // both charging, the charger failed its own check
  Length charger_retreat;
  bool charger_follows_through = false;  // victory before melee (L3)
  bool follows_through = false;  // L3: it counter-charged and the charger alone failed: its victory before melee
};
ChargedAftermath charged_aftermath(const Ruleset& r, const ChargeResult& res, Length defender_move, Length charger_move);

// ------------------------------------------------------------ definitions
// (Header-only: engine/engagement holds at most 20 source files,
// tests/test_layering.cpp.)


inline ReactionGate reaction_gate_alone(const Ruleset& r, const ReactorFacts& f) {
  auto no = [](std::string_view rule, std::string_view why) { return ReactionGate{false, rule, why}; };
  if (!f.active) return no("", "it is not on the table");
  if (f.engaged) return no("", "it is in contact already");
  if (f.struck) return no("003-L54-struck-no-move", "it was struck by a charge this turn and may not move (seed 003 L54)");
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

inline ReactionGate reaction_gate(const Ruleset& r, const ReactorFacts& f) {
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

inline bool table_policy_opportunity(const TablePolicyFacts& f) {
  return f.option_on && f.on_horse && f.reacted && f.charge_possible;
}

inline Pace reaction_pace(const Ruleset& r, const PaceFacts& f, Pace commanded) {
  const Pace p = commanded == Pace::halt ? Pace::walk : commanded;
  return f.on_horse ? limit_pace(r, f, p).pace : Pace::walk;
}

inline Length reaction_allowance(const Ruleset& r, bool on_horse, Length foot_move, Pace p) {
  if (!on_horse) return foot_move;
  if (r.combat.charge.allowance == CombatRules::Allowance::walk || p < Pace::walk) return r.pace_range(Pace::walk).max;
  return r.pace_range(p).max;
}

inline OpportunityCall opportunity_call(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches) {
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

inline ChargeProcedure opportunity_procedure(const Ruleset& r, const OpportunityChargeFacts& f) {
  ChargeFacts cf;
  cf.declared = f.declared;  // L100: -2 when none was declared in step 1
  cf.charger_on_horse = f.charger_on_horse;
  return ChargeProcedure(r, cf);
}

inline ChargeProcedure::Need walk_opportunity(ChargeProcedure& p, const OpportunityChargeFacts& f,
                                       const std::array<ChargeThrow, 7>& dice) {
  return drive_charge(p, opportunity_answers(f), dice);
}

inline ChargeAnswers opportunity_answers(const OpportunityChargeFacts& f) {
  ChargeAnswers a;
  a.reach = f.reach;
  if (f.mover_charging_it) {  // L102: the two meet halfway
    a.counter.kind = CounterCharge::charging;
    a.counter.morale_check = f.mover_morale_check;
  }
  a.contact = true;
  return a;
}

inline bool contact_made(ChargeEnd e) {
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

inline ChargeCounter counter_charge(const Ruleset& r, const ReactorFacts& f, bool wanted, bool reaches, bool declared,
                             bool own_morale_check) {
  ChargeCounter c;
  if (!reaction_gate(r, f).allowed || !wanted || !reaches) return c;
  c.kind = CounterCharge::attempts;
  c.declared = declared;  // L100: no -2 when it declared a charge in step 1
  c.morale_check = own_morale_check;
  return c;
}

inline DefenderClass horse_class(Weight w) {
  return static_cast<DefenderClass>(static_cast<std::size_t>(DefenderClass::light_horse) + static_cast<std::size_t>(w));
}

inline AttackerWeight attacker_weight_of(Weight w) {
  switch (w) {
    case Weight::light: return AttackerWeight::light;
    case Weight::medium: return AttackerWeight::medium;
    case Weight::heavy: return AttackerWeight::heavy;
  }
  return AttackerWeight::medium;
}

inline ChargedAftermath charged_aftermath(const Ruleset& r, const ChargeResult& res, Length defender_move, Length charger_move) {
  const ChargeRules& cr = r.charge;
  ChargedAftermath a;
  a.held = contact_made(res.end);  // L54
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
  a.follows_through = res.counter && res.charger_fails && !res.defender_fails && r.combat.melee.follow_through;  // L3
  return a;
}

}  // namespace vedette
