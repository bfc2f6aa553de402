#pragma once
// Player models for the side facing the automated cavalry. Each holds or
// advances, faces the nearest enemy it can see and shoots (the engine's
// shooting step fires every unit that can); they differ in what they do
// when the cavalry comes.
//  * hold_and_shoot: stays where it is. Forms square only with the side
//    option form_square: true.
//  * advance_and_shoot: walks toward the nearest enemy it can see until that
//    enemy is within `advance_to` (default: its weapon's reach; just short of
//    contact with no weapon), then holds. Square as hold_and_shoot.
//  * square_when_charged: hold_and_shoot that always forms square when
//    charged by cavalry (seed 004), and forms line again once no enemy
//    cavalry could reach it with a charge next turn.
//  * pike_and_shoot: hold_and_shoot whose pike units (profile `pikes: true`)
//    declare seed 003's pike charge (L5) on the nearest enemy they see
//    within their charge reach at a walk, other than pikes, when the
//    ruleset turns the optional rule on (charge.pike_charge.enabled) and
//    the charge gates allow (no charge on turn 1, good order, ...).
// Any cavalry on such a side holds and faces the nearest enemy. None of
// these but pike_and_shoot's pikes ever declares or makes a charge.
#include "bots/seed004_policy.hpp"
#include "engine/engagement/policy.hpp"
#include "engine/engagement/scenario.hpp"

namespace vedette {

class InfantryBot final : public Bot {
 public:
  enum class Style : std::uint8_t { hold_and_shoot, advance_and_shoot, square_when_charged, pike_and_shoot };
  InfantryBot(Style s, BotOptions o) : style_(s), o_(o) {}
  std::string_view name() const override;
  void orders(const Battle& b, std::uint8_t side, Dice& dice, std::span<Command> out) const override;
  bool form_square(const Battle& b, std::size_t unit, std::size_t charger) const override;
  bool retire_and_reform(const Battle& b, std::size_t unit, std::size_t attacker) const override {
    return o_.retire_and_reform && (!b.blocks() || blocks_retire_and_reform(b, unit, attacker));  // seed 004's policy on blocks
  }
  // Its opportunity_charge is the default's: it never makes one.
  bool makes_opportunity_charges() const override { return false; }

 private:
  Style style_;
  BotOptions o_;
};

// Could any enemy cavalry on horse reach unit i with a charge next turn, at
// its fastest pace (seed 003 range)?
bool cavalry_threatens(const Battle& b, std::size_t i);

// Seed 003 L5: the enemy pike unit i charges (pike_and_shoot), or k_no_unit.
UnitIndex pike_charge_target(const Battle& b, std::size_t i);

}  // namespace vedette
