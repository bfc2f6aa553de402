#pragma once
// The reaction-table bot: drives an automated cavalry unit. It reads the
// unit's facts and memory, rolls one D6 on the dice it is given, and returns
// the table's decision; it never changes the state.
#include "engine/actions_table.hpp"
#include "engine/dice.hpp"
#include "engine/risk_factor.hpp"

namespace vedette {

struct Reaction {
  RiskFactor rf;
  Decision decision;
};

class ReactionBot {
 public:
  explicit ReactionBot(RulesetPtr rules) : rules_(std::move(rules)) {}
  const Ruleset& rules() const { return *rules_; }

  // The RF from the facts, one D6 from `dice`, the table's answer.
  Reaction react(const Facts& facts, const UnitState& unit, Dice& dice) const;
  // The same with the die given (a player's physical roll).
  Reaction react(const Facts& facts, const UnitState& unit, int roll) const;

 private:
  RulesetPtr rules_;
};

}  // namespace vedette
