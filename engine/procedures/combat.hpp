#pragma once
// Combat: the small rolling rules of an engagement (initiative, the charge
// initiation check, shooting and melee dice, where a hit on a mounted figure
// lands, rallying), each with its exact odds computed from the same decision
// the dice use, so tests can enumerate them. The numbers are data
// (tables/default.yaml `combat`, `hits_on_mounted`); this file only applies
// them.
#include <cstdint>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/core/fraction.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette {

// One D6 scoring `need` or more (need <= 1 always, need > 6 never).
bool d6_meets(int face, int need);
Fraction p_d6_at_least(int need);
// 2D6 totalling `need` or more: ways out of 36, and the chance.
int ways_2d6_at_least(int need);
Fraction p_2d6_at_least(int need);

// Exact distribution of hits from `n` dice each hitting with chance `p`:
// element k is P(k hits). n at most 24 (exact in 64-bit fractions).
std::vector<Fraction> hits_distribution(int n, Fraction p);

// Dice thrown by `figures` figures at `figures_per_die` (rounded up).
int dice_for(int figures, int figures_per_die);

// Seed 002: "Hits on Mounted figures are on the horse (1-4), or rider (5,6)".
enum class HitOn : std::uint8_t { horse, rider };
HitOn hit_location(const Ruleset& r, int face);
Fraction p_hit_on_horse(const Ruleset& r);
HitOn roll_hit_location(const Ruleset& r, Dice& dice, int* face = nullptr);

// Throws `n` D6 and counts those scoring `need` or more (faces into `faces`
// when given, for the account).
int roll_hits(Dice& dice, int n, int need, std::vector<int>* faces = nullptr);

// The score a melee die needs: combat.melee.hit less the die modifier
// (seed 002: charging shock cavalry +1, mounted infantry -1).
int melee_need(const Ruleset& r, int modifier);
// The score a shooting die needs at this band against this cover.
int shooting_need(const Ruleset& r, int band_hit, int cover_level);

// Seed 003's charge initiation check: 2D6 >= combat.charge.initiation_target,
// plus `extra` (an undeclared opportunity charge).
int initiation_need(const Ruleset& r, int extra);
Fraction p_initiation(const Ruleset& r, int extra);

// Initiative (seed 003 step 2): each side rolls combat.initiative.dice D6
// plus charge.declaring.initiative_modifier per charge it declared; the
// higher moves first, a tie going to `wins_ties`. The chance that the side
// declaring `mine` charges moves first against one declaring `theirs`.
Fraction p_moves_first(const Ruleset& r, int mine, int theirs, bool wins_ties);

// A shaken or retreating unit rallies on 2D6 >= combat.morale.rally_target.
Fraction p_rally(const Ruleset& r);

// Seed 004's retire and reform: the infantry's dice hit only on these faces.
bool retire_hit(const Ruleset& r, int face);
Fraction p_retire_hit(const Ruleset& r);

}  // namespace vedette
