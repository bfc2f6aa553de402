#include "bots/reaction_bot.hpp"

namespace vedette {

Reaction ReactionBot::react(const Facts& facts, const UnitState& unit, Dice& dice) const {
  return react(facts, unit, dice.d6());
}

Reaction ReactionBot::react(const Facts& facts, const UnitState& unit, int roll) const {
  Reaction out;
  out.rf = compute_rf(*rules_, facts);
  out.decision = decide(*rules_, out.rf.total, roll, unit);
  return out;
}

}  // namespace vedette
