#pragma once
// The D6 Actions Table: (RF, D6, unit state) -> what the unit does, with the
// supplement's limits applied (a third gallop becomes the forced walk; a unit
// that may not gallop takes the switch's pace instead). Each band can also
// say the exact probability of each behaviour.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/fraction.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette {

// What the table needs to remember about a unit from turn to turn.
struct UnitState {
  const UnitType* type = nullptr;  // null: no restrictions
  Pace pace = Pace::halt;          // the pace it moved at last turn
  int gallop_streak = 0;           // turns in a row it has galloped
  bool at_halt() const { return pace == Pace::halt; }
};

enum class PaceAdjust : std::uint8_t {
  none,
  no_gallop,    // the unit may never gallop: switches.no_gallop_pace
  forced_walk,  // galloped gallop_limit.turns in a row: gallop_limit.then
  after_charge, // charged last turn: seed 003's "normal speed" (combat.charge.next_turn_pace)
};

struct Decision {
  const Band* band = nullptr;
  int roll = 0;
  const Behaviour* behaviour = nullptr;
  Pace pace = Pace::halt;  // the pace it moves at this turn, after the limits
  Pace table_pace = Pace::halt;  // the pace before the limits
  PaceAdjust adjust = PaceAdjust::none;
};

// Roll must be 1..6.
Decision decide(const Ruleset& r, int rf, int roll, const UnitState& s);

// The unit's memory after acting on d: its new pace and gallop streak.
// (Whether it ran is d.behaviour->running.)
UnitState after(const UnitState& s, const Decision& d);

// Each behaviour a band can produce, with its exact probability on one D6,
// in order of first appearance in the row.
std::vector<std::pair<const Behaviour*, Fraction>> band_odds(const Ruleset& r, const Band& b, bool at_halt);

// An instruction a player can act on: "Canter 30-40 cm directly away from
// the nearest enemy, then face it."
std::string instruction(const Ruleset& r, const Decision& d);
// Seed 002 L10's "or away from all enemies" in table words, as the engine
// moves (combat.movement.away_from): "directly away from the enemy (with
// enemies on more than one side of it, away from the nearest)".
std::string away_from_enemies_words(const Ruleset& r);
// Why the pace differs from the table's, or "".
std::string adjustment_note(const Ruleset& r, const Decision& d, const UnitState& s);
// Seed 002 L25's turning rate where it binds (issue 28): a mounted move that
// changes course (toward, away from the enemy, to cover), as the engine
// charges it (Engagement::go): "" for a halt or a move straight on.
std::string turning_note(const Ruleset& r, const Decision& d);

// "30-40 cm", "up to 30 cm".
std::string pace_distance(const Ruleset& r, Pace p);

}  // namespace vedette
