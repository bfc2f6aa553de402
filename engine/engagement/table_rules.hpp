#pragma once
// The turn sequence's small rules as functions of facts (issue 16: "the
// table is a board too"). The engagement engine asks them with facts from
// its Battle; the solo session asks them with facts it remembers or the
// player gives. So a rule lives once, and solo and simulation cannot drift:
// tests/test_solo_equivalence.cpp plays the same situations both ways.
//
//  * pace_limit: the fastest pace a unit may take this turn (seed 002's
//    gallop limit and mounted infantry's no-gallop; seed 003's "normal
//    speed" the turn after a charge, combat.charge.next_turn_pace).
//  * initiative_total: a side's initiative roll with seed 003's modifier
//    per charge it declared (charge.declaring.initiative_modifier).
//  * initiation_check: seed 003's charge initiation check (L48, L100).
//  * declaration_refusal: whether a unit may declare a charge now (seed 003
//    L24: not on the first turn; L34: only in good order), and which rule
//    forbids it.
#include <optional>
#include <string_view>

#include "engine/decision/ruleset.hpp"

namespace vedette {

struct PaceFacts {
  bool on_horse = true;
  const UnitType* type = nullptr;  // null: no unit-type restriction
  int gallop_streak = 0;           // turns in a row it has galloped
  bool charged_last_turn = false;  // moved a charge move last turn
};
// Why pace_limit lowered the pace (the first limit that applied).
enum class PaceLimit { none, no_gallop, gallop_limit, after_charge };
struct LimitedPace {
  Pace pace = Pace::halt;
  PaceLimit why = PaceLimit::none;
};
LimitedPace limit_pace(const Ruleset& r, const PaceFacts& f, Pace wanted);
inline Pace pace_limit(const Ruleset& r, const PaceFacts& f, Pace wanted) { return limit_pace(r, f, wanted).pace; }

// A side's initiative: its roll plus charge.declaring.initiative_modifier
// for each charge it declared (seed 003).
int initiative_total(const Ruleset& r, int roll, int charges_declared);

// Seed 003's charge initiation check on 2D6: combat.charge.initiation_target,
// less charge.declaring.opportunity_undeclared_modifier for a charge that
// was not declared in step 1.
struct InitiationCheck {
  int need = 0;
  int total = 0;
  bool passed = false;
};
InitiationCheck initiation_check(const Ruleset& r, bool declared, int d1, int d2);

// A charge refused by a rule: the conformance id (docs/conformance.md) and
// the rule in words.
struct ChargeRefusal {
  std::string_view rule;
  std::string_view why;
};
// Step 1's declaration gates that need no geometry, for a front end that
// knows only the unit's memory (the solo session): not on the first turn
// (unless combat.charge.first_turn), only in good order, not the turn after
// a charge. The gates themselves are charge_gate()'s (engine/decision/
// charge.hpp), the one place they live.
std::optional<ChargeRefusal> declaration_refusal(const Ruleset& r, int turn, bool good_order,
                                                 bool charged_last_turn);

}  // namespace vedette
