// Battle's questions about seed 004 block units on a hex board
// (engine/engagement/battle.hpp, issue 8).
#include "engine/engagement/battle.hpp"

namespace vedette {

Arm Battle::arm_of(std::size_t i) const {
  if (units_[i].cavalry()) return Arm::cavalry;
  return scenario_->units[i].artillery ? Arm::artillery : Arm::infantry;
}

BlockUnit Battle::block_of(std::size_t i) const {
  const Unit& u = units_[i];
  BlockUnit b;
  b.arm = arm_of(i);
  b.side = u.side;
  b.blocks = u.active() ? u.figures : 0;
  b.hex = unit_hex(i);
  b.horse_artillery = scenario_->units[i].horse_artillery;
  b.in_square = u.in_square();
  b.ordered = fired_[i] == 0;
  return b;
}

bool Battle::adjacent(std::size_t a, std::size_t b) const {
  return hex_distance(unit_hex(a), unit_hex(b)) == 1;
}

const std::vector<Hex>& Battle::occupied() const {
  occupied_.clear();
  for (std::size_t k = 0; k < units_.size(); ++k)
    if (units_[k].active()) occupied_.push_back(unit_hex(k));
  return occupied_;
}

int Battle::combined_arms_dice(std::size_t attacker, std::size_t target, std::vector<UnitIndex>* artillery) const {
  if (artillery) artillery->clear();
  if (!blocks_ || !hex_) return 0;
  const Seed004Rules& r = *blocks_;
  block_units_.clear();
  for (std::size_t k = 0; k < units_.size(); ++k) block_units_.push_back(block_of(k));
  const BlockUnit& melee = block_units_[attacker];
  const BlockUnit& tgt = block_units_[target];
  if (melee.arm == Arm::artillery) return 0;
  // Seed 004: "one or more ordered artillery units may combine their battle
  // dice with the attacking unit": every battery that may, adds.
  int dice = 0;
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const BlockUnit& a = block_units_[k];
    if (a.blocks == 0 || a.side != melee.side || a.arm != Arm::artillery) continue;
    if (combined_arms(r, *hex_, a, melee, tgt, block_units_) != CombinedArmsRefusal::none) continue;
    // The artillery's dice by range, less the target hex's terrain.
    const int n = unit_dice(r, a, hex_distance(a.hex, tgt.hex), hex_->terrain(tgt.hex).cover);
    if (n <= 0) continue;
    if (artillery) artillery->push_back(static_cast<UnitIndex>(k));
    dice += n;
  }
  return dice;
}

}  // namespace vedette
