// Seed 004 choices by policy (bots/seed004_policy.hpp).
#include "bots/seed004_policy.hpp"

#include <algorithm>
#include <cmath>

namespace vedette {

namespace {

double p_flag(const Seed004Rules& r) {
  return p_symbols(r, static_cast<std::uint8_t>(1u << static_cast<unsigned>(Symbol::flag))).value();
}

}  // namespace

double expected_loss_not_in_square(const Seed004Rules& r, const SquareQuestion& q) {
  const int dice = std::max(0, q.cavalry_blocks - q.square_terrain_reduction) + q.artillery_dice;
  return dice * p_hit(r, Arm::infantry, CombatKind::melee, r.sabres(Arm::cavalry)).value();
}

double expected_loss_in_square(const Seed004Rules& r, const SquareQuestion& q) {
  const int square_dice = capped_dice(q.infantry_blocks, r.square_max_dice, q.cavalry_terrain_reduction);
  const double bounce = p_symbols(r, r.square_bounce_on).value();
  const double kill = q.cavalry_blocks <= 1 ? p_hit(r, Arm::cavalry, CombatKind::melee, r.sabres(Arm::infantry)).value() : 0.0;
  // One face is one symbol: "bounced" and "killed by this die" are disjoint
  // unless a symbol does both (then counted once).
  const double p_repulsed_one = std::min(1.0, bounce + kill);
  const double p_attack = std::pow(1.0 - p_repulsed_one, square_dice);
  const int dice = capped_dice(q.cavalry_blocks, r.square_cavalry_max_dice, q.square_terrain_reduction) + q.artillery_dice;
  const double per_die = p_hit(r, Arm::infantry, CombatKind::melee, r.sabres(Arm::cavalry)).value() +
                         p_flag(r) * r.retreat_hexes_per_flag[static_cast<std::size_t>(Arm::infantry)];
  return r.card_value_blocks + p_attack * dice * per_die;
}

bool choose_form_square(const Seed004Rules& r, ChoicePolicy p, const SquareQuestion& q) {
  static const HexTerrain open;
  if (may_form_square(r, q.cards_in_hand, q.terrain ? *q.terrain : open, false, false) != SquareRefusal::none)
    return false;
  switch (p) {
    case ChoicePolicy::always: return true;
    case ChoicePolicy::never: return false;
    case ChoicePolicy::by_expected_losses: return expected_loss_in_square(r, q) < expected_loss_not_in_square(r, q);
  }
  return false;
}

double expected_loss_retiring(const Seed004Rules& r, const RetireQuestion& q) {
  return (q.infantry_dice + q.artillery_dice) * p_retire_hit(r).value();
}

double expected_net_loss_staying(const Seed004Rules& r, const RetireQuestion& q) {
  const int dice = q.infantry_dice + q.artillery_dice;
  const double lost = dice * p_hit(r, Arm::cavalry, CombatKind::melee, r.sabres(Arm::infantry)).value();
  const double stays = std::pow(1.0 - p_flag(r), dice);
  const double left = std::max(0.0, q.cavalry_blocks - lost);
  const double back_dice = q.battle_back_max_dice >= 0 ? std::min(left, static_cast<double>(q.battle_back_max_dice)) : left;
  const double back = stays * back_dice * p_hit(r, Arm::infantry, CombatKind::melee, r.sabres(Arm::cavalry)).value();
  return lost - back;
}

bool choose_retire_and_reform(const Seed004Rules& r, ChoicePolicy p, const RetireQuestion& q) {
  if (!q.allowed) return false;
  switch (p) {
    case ChoicePolicy::always: return true;
    case ChoicePolicy::never: return false;
    case ChoicePolicy::by_expected_losses: return expected_loss_retiring(r, q) < expected_net_loss_staying(r, q);
  }
  return false;
}

bool blocks_form_square(const Battle& b, std::size_t infantry, std::size_t cavalry) {
  const Seed004Rules& r = *b.blocks();
  const HexBoard& hb = *b.hex();
  const Hex ih = b.unit_hex(infantry), ch = b.unit_hex(cavalry);  // hex_of of their positions, kept
  SquareQuestion q;
  q.cavalry_blocks = b.unit(cavalry).figures;
  q.artillery_dice = b.combined_arms_dice(cavalry, infantry);
  q.infantry_blocks = b.unit(infantry).figures;
  q.cards_in_hand = static_cast<int>(b.hand(b.unit(infantry).side).hand.size());
  q.terrain = &hb.terrain(ih);
  q.cavalry_terrain_reduction = hb.terrain(ch).cover;
  q.square_terrain_reduction = hb.terrain(ih).cover;
  return choose_form_square(r, r.form_square_policy, q);
}

bool blocks_retire_and_reform(const Battle& b, std::size_t cavalry, std::size_t infantry) {
  const Seed004Rules& r = *b.blocks();
  const HexBoard& hb = *b.hex();
  const BlockUnit cav = b.block_of(cavalry);
  RetireQuestion q;
  q.infantry_dice = unit_dice(r, b.block_of(infantry), 1, hb.terrain(cav.hex).cover);
  q.artillery_dice = b.combined_arms_dice(infantry, cavalry);
  q.cavalry_blocks = cav.blocks;
  if (b.block_of(infantry).in_square) q.battle_back_max_dice = r.square_cavalry_max_dice;
  // may_retire_and_reform toward its own edge over b.occupied(), kept by Battle
  q.allowed = b.retire_refusal(cavalry) == RetireRefusal::none;
  return choose_retire_and_reform(r, r.retire_policy, q);
}

}  // namespace vedette
