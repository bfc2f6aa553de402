#pragma once
// thinking_cavalry: a scripted cavalry commander, the "thinking player" to
// compare the automated cavalry against. It plays by the same rules (paces,
// gallop limit, charge range, good order) but chooses instead of rolling:
//  * in poor order, or past `withdraw_at_losses_pct` losses: canter home;
//  * on foot (mounted infantry): mount;
//  * a charge it can make now with the charge bonus on a target that is not
//    in square, not pikes facing it: declare it, at its fastest pace,
//    preferring flank and rear, shaken targets, then the nearest;
//  * an enemy within its own weapon's reach (shooting cavalry): halt and shoot;
//  * otherwise close on the nearest visible enemy not in square at a canter
//    (keeping its gallops for the charge), stopping just outside that
//    enemy's weapon reach (and beyond its own minimum charge distance), ready
//    to charge next turn.
// It makes opportunity charges on the same terms and retires and reforms
// when infantry attacks it (option retire_and_reform).
#include "bots/seed004_policy.hpp"
#include "engine/engagement/policy.hpp"
#include "engine/engagement/scenario.hpp"

namespace vedette {

class ThinkingCavalryBot final : public Bot {
 public:
  explicit ThinkingCavalryBot(BotOptions o) : o_(o) {}
  std::string_view name() const override { return "thinking_cavalry"; }
  void orders(const Battle& b, std::uint8_t side, Dice& dice, std::span<Command> out) const override;
  bool form_square(const Battle& b, std::size_t unit, std::size_t charger) const override {
    return o_.form_square && (!b.blocks() || blocks_form_square(b, unit, charger));  // seed 004's policy on blocks
  }
  bool retire_and_reform(const Battle& b, std::size_t unit, std::size_t attacker) const override {
    return o_.retire_and_reform && (!b.blocks() || blocks_retire_and_reform(b, unit, attacker));  // seed 004's policy on blocks
  }
  bool opportunity_charge(const Battle& b, std::size_t unit, std::size_t mover, const Command& own) const override;
  bool makes_opportunity_charges() const override { return o_.opportunity_charges; }  // its first condition

  // How much it likes charging `target` now (0: it would not), at `pace`.
  static int charge_score(const Battle& b, std::size_t unit, std::size_t target, Pace pace);

 private:
  BotOptions o_;
};

}  // namespace vedette
