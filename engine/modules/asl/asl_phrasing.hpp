#pragma once
// The seed 002 Actions Table's decisions in seed 000's (ASL Cavalry) terms,
// for `vedette solo new --module asl`: paces as MF and Gallop declarations
// (13.34, 13.36), moves in hexes, cover as terrain a Galloping unit may
// enter, and "(Charge?)" as 13.6's requirements given the range in hexes.
// ASL Cavalry has no facing (13.3: no VCA), so facing is not mentioned.
#include <string>

#include "engine/decision/actions_table.hpp"
#include "engine/modules/asl/asl_cavalry.hpp"

namespace vedette::asl {

// "Move up to 6 MF", "Gallop (declare at the start of the phase: allotment
// 20 MF, Horse CX)"; "" for halt.
std::string pace_phrase(const Rules& a, Pace p);

// Whether the unit may Gallop this turn (seed 002: its type may gallop and
// it has not reached the gallop limit), and if not, why.
bool may_gallop(const Ruleset& r, const Decision& d, const UnitState& before, std::string& why);

// 13.6 in a sentence for this decision: the range in hexes, Galloping or
// declaring a Gallop with the Charge, or why no Charge is possible.
std::string charge_phrase(const Rules& a, const Ruleset& r, const Decision& d, const UnitState& before);

// The whole instruction: "Gallop (declare at the start of the phase:
// allotment 20 MF, Horse CX) directly away from the nearest enemy, each hex
// opening the range."
std::string instruction(const Rules& a, const Ruleset& r, const Decision& d, const UnitState& before);

}  // namespace vedette::asl
