#pragma once
// How a bot answers seed 004's two questions -- form square when cavalry is
// about to melee it? retire and reform when infantry is about to melee it? --
// by a policy switch (tables/seed004.yaml `policy`): `always` (whenever the
// rule allows), `never`, or `by_expected_losses`:
//  * Form square when the infantry's expected blocks lost in square (a
//    command card valued at `card_value_blocks`, plus, when the cavalry is
//    neither bounced nor eliminated by the square's die, its capped dice and
//    the combined-arms artillery's dice hitting the square, a flag costing a
//    block per retreat hex) are fewer than its expected blocks lost in a
//    normal melee (the cavalry's and artillery's dice hitting infantry).
//  * Retire and reform when the cavalry's expected blocks lost retiring (all
//    the dice, only cavalry symbols hit) are fewer than its expected net loss
//    staying: blocks lost to the full melee less the blocks it expects to
//    take back battling back (its dice hitting infantry, when no flag drives
//    it off first; against a square at most 1 die, seed 004).
// The expectations are exact per die (engine/modules/blocks/seed004.hpp p_hit) and ignore
// leaders and cards other than the square's.
#include "engine/engagement/battle.hpp"
#include "engine/modules/blocks/seed004.hpp"

namespace vedette {

struct SquareQuestion {
  int cavalry_blocks = 4;
  int artillery_dice = 0;         // combined arms with the cavalry
  int infantry_blocks = 4;
  int cards_in_hand = 4;
  const HexTerrain* terrain = nullptr;  // the infantry's hex (null: open)
  int cavalry_terrain_reduction = 0;    // dice the square loses for the cavalry's hex
  int square_terrain_reduction = 0;     // dice the cavalry loses for the infantry's hex
};
double expected_loss_in_square(const Seed004Rules& r, const SquareQuestion& q);
double expected_loss_not_in_square(const Seed004Rules& r, const SquareQuestion& q);
// False whenever seed 004 forbids the square (may_form_square).
bool choose_form_square(const Seed004Rules& r, ChoicePolicy p, const SquareQuestion& q);

struct RetireQuestion {
  int infantry_dice = 4;  // after terrain and caps
  int artillery_dice = 0;
  int cavalry_blocks = 4;
  bool allowed = true;    // may_retire_and_reform said none
  // The most dice the cavalry battles back with (seed 004: 1 against an
  // infantry square, square.cavalry_max_dice); negative: one per block.
  int battle_back_max_dice = -1;
};
double expected_loss_retiring(const Seed004Rules& r, const RetireQuestion& q);
double expected_net_loss_staying(const Seed004Rules& r, const RetireQuestion& q);
bool choose_retire_and_reform(const Seed004Rules& r, ChoicePolicy p, const RetireQuestion& q);

// In an engagement over block units (the scenario names `blocks:`): the
// questions built from the battle -- the blocks, the hexes' terrain, the
// hand, the combined-arms dice the engine would add (Battle::
// combined_arms_dice) -- and answered by the table's policy
// (policy.form_square / policy.retire_and_reform). The engine asks only when
// seed 004 allows the choice. Every bot answers through these when
// b.blocks() is set and its own option (form_square, retire_and_reform)
// is on.
bool blocks_form_square(const Battle& b, std::size_t infantry, std::size_t cavalry);
bool blocks_retire_and_reform(const Battle& b, std::size_t cavalry, std::size_t infantry);

}  // namespace vedette
