#pragma once
// The reaction-table bot: drives the automated cavalry. For each unit it
// computes the seed 002 facts from the battlefield, the risk factor, rolls
// one D6 on the dice it is given and reads the Actions Table, then turns the
// decision into a command (move toward / away / to cover / halt, facing,
// "(Charge?)" into a charge declaration). It never changes the state.
#include "engine/decision/actions_table.hpp"
#include "engine/core/dice.hpp"
#include "bots/seed004_policy.hpp"
#include "engine/engagement/policy.hpp"
#include "engine/decision/risk_factor.hpp"
#include "engine/engagement/scenario.hpp"

namespace vedette {

struct Reaction {
  RiskFactor rf;
  Decision decision;
};

// One decision from stated facts (solo play, `vedette react`).
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

// The table's decision for unit `i` as a command on the battlefield.
//  * direction continue/toward/away/to_cover/hold -> Move keep/toward/away/
//    to_cover/hold at the decision's pace; "facing the nearest enemy" ends
//    the move facing it; `running` carries over to next turn's RF.
//  * "(Charge?)": the unit declares a charge when it is mounted and in good
//    order and an enemy it can see is within its charge range and arc now
//    (the nearest such; seed 003); otherwise it carries out the rest. Choice:
//    by default also from inside the minimum distance (no charge bonus);
//    side option charge_without_bonus: false declares only charges that
//    would have the bonus.
//  * Mounted infantry (may not shoot mounted) dismounts when the table halts
//    it with a shot on foot: the nearest enemy it can see within its
//    weapon's reach on foot and in its front arc as it will face
//    (combat.dismount.on_halt). It mounts again before any move.
// Units that are not cavalry under this bot hold and face the nearest enemy.
Command command_for(const Battle& b, std::size_t i, const Decision& d, bool charge_without_bonus = true);

class ReactionTableBot final : public Bot {
 public:
  explicit ReactionTableBot(BotOptions o) : o_(o) {}
  std::string_view name() const override { return "reaction_table"; }
  void orders(const Battle& b, std::uint8_t side, Dice& dice, std::span<Command> out) const override;
  bool form_square(const Battle& b, std::size_t unit, std::size_t charger) const override {
    return o_.form_square && (!b.blocks() || blocks_form_square(b, unit, charger));  // seed 004's policy on blocks
  }
  bool retire_and_reform(const Battle& b, std::size_t unit, std::size_t attacker) const override {
    return o_.retire_and_reform && (!b.blocks() || blocks_retire_and_reform(b, unit, attacker));  // seed 004's policy on blocks
  }
  // Only when this turn's cell says "(Charge?)" (seed 002) and the option is on.
  bool opportunity_charge(const Battle& b, std::size_t unit, std::size_t mover, const Command& own) const override;
  // table_policy_opportunity's first condition is the option.
  bool makes_opportunity_charges() const override { return o_.opportunity_charges; }
  // Its answer reads only the option and the unit's own order (reaction_bot.cpp).
  bool opportunity_charge_cheap() const override { return true; }
  // Options read: form_square (its foot, if any), retire_and_reform,
  // opportunity_charges, charge_without_bonus.

 private:
  BotOptions o_;
};

}  // namespace vedette
