#pragma once
// The turn sequence's small rules as functions of facts (issue 16: "the
// table is a board too"). The engagement engine asks them with facts from
// its Battle; the solo session asks them with facts it remembers or the
// player gives. So a rule lives once; tests/test_solo_equivalence.cpp plays
// the same situations both ways to catch a caller that asks it otherwise.
//
//  * pace_limit: the fastest pace a unit may take this turn (seed 002's
//    gallop limit and mounted infantry's no-gallop; seed 003's "normal
//    speed" the turn after a charge, combat.charge.next_turn_pace).
//  * initiative_total: a side's initiative roll with seed 003's modifier
//    per charge it declared (charge.declaring.initiative_modifier).
//  * initiation_check: seed 003's charge initiation check (L48, L100).
//  * declaration_refusal: whether a unit may declare a charge now (seed 003
//    L24: not on the first turn; L34: only in good order), and which rule
//    forbids it.
//  * first_to_move: who wins the initiative, with the tie-break.
//  * normal_move: the "move" a fall back is counted in.
//  * plan_shot: a shooter's band, dice and score needed (seed 002).
//  * melee_modifier, melee_result, melee_aftermath: one round of melee;
//    square_melee: seed 004's square against horse.
//  * follow_through_balance: what a victorious charger moves on (seed 003).
//  * routs, rally_check: the end-of-turn morale step.
//  * mounted_infantry_order: mounted infantry's dismount and mount (seeds
//    001 and 002, combat.dismount).
#include <array>
#include <optional>
#include <string_view>

#include "engine/decision/ruleset.hpp"

namespace vedette {

struct PaceFacts {
  bool on_horse = true;
  const UnitType* type = nullptr;  // null: no unit-type restriction
  int gallop_streak = 0;           // turns in a row it has galloped
  bool charged_last_turn = false;  // moved a charge move last turn
};
// Why pace_limit lowered the pace (the first limit that applied).
enum class PaceLimit { none, no_gallop, gallop_limit, after_charge };
struct LimitedPace {
  Pace pace = Pace::halt;
  PaceLimit why = PaceLimit::none;
};
LimitedPace limit_pace(const Ruleset& r, const PaceFacts& f, Pace wanted);
inline Pace pace_limit(const Ruleset& r, const PaceFacts& f, Pace wanted) { return limit_pace(r, f, wanted).pace; }

// A side's initiative: its roll plus charge.declaring.initiative_modifier
// for each charge it declared (seed 003).
int initiative_total(const Ruleset& r, int roll, int charges_declared);

// Seed 003's charge initiation check on 2D6: combat.charge.initiation_target,
// less charge.declaring.opportunity_undeclared_modifier for a charge that
// was not declared in step 1.
struct InitiationCheck {
  int need = 0;
  int total = 0;
  bool passed = false;
};
InitiationCheck initiation_check(const Ruleset& r, bool declared, int d1, int d2);

// A charge refused by a rule: the conformance id (docs/conformance.md) and
// the rule in words.
struct ChargeRefusal {
  std::string_view rule;
  std::string_view why;
};
// Step 1's declaration gates that need no geometry, for a front end that
// knows only the unit's memory (the solo session): not on the first turn
// (unless combat.charge.first_turn), only in good order, not the turn after
// a charge. The gates themselves are charge_gate()'s (engine/decision/
// charge.hpp), the one place they live.
std::optional<ChargeRefusal> declaration_refusal(const Ruleset& r, int turn, bool good_order,
                                                 bool charged_last_turn);

// Initiative: which side (0 or 1) moves first with these totals; a tie goes
// to the side that did not move first last turn (`first_last_turn`, -1 on
// the first turn: then to side 0). Choice: the seeds give no tie-break.
int first_to_move(const std::array<int, 2>& totals, int first_last_turn);

// The "move" a fall back is counted in: cavalry on horse the top of the
// walk; a unit on foot its own move (profiles.*.move).
Length normal_move(const Ruleset& r, bool on_horse, Length foot_move);

// Shooting (seed 002): the band of `w` at this distance (mounted shooters
// count mounted_shooting.range_bands_further bands further), the dice
// (combat.shooting.figures_per_die; a square at most max_battle_dice, seed
// 004) and the score each needs (the band's hit plus
// combat.shooting.cover_penalty per cover level). nullopt: out of reach,
// or mounted and its type may not shoot mounted.
struct ShotFacts {
  int figures = 0;
  bool on_horse = true;
  bool shoots_mounted = true;  // unit_types.*.shoots_mounted
  bool in_square = false;
  Length distance;  // front to front
  int cover = 0;    // the target's cover level, seen from the shooter
};
struct ShotPlan {
  std::size_t band = 0;  // 0-based
  int shift = 0;         // bands counted further (mounted)
  int dice = 0;
  int need = 0;  // over 6: cannot hit
};
std::optional<ShotPlan> plan_shot(const Ruleset& r, const Weapon& w, const ShotFacts& f);
// How far the weapon reaches for this shooter (0: it may not shoot).
Length shot_reach(const Ruleset& r, const Weapon& w, bool on_horse, bool shoots_mounted);

// Mounted infantry (a unit type that may not shoot mounted, seed 002):
// mounting or dismounting takes its whole move (seed 001). On foot, it
// mounts when the Actions Table moves it and stays on foot when the table
// halts it; either way it does not move or charge that turn. Mounted, it
// dismounts when the table halts it (combat.dismount.on_halt) and it has a
// shot on foot: the nearest enemy it can see (the only one it may shoot at,
// seed 002) within its weapon's reach on foot and in its front arc as it
// will face. Other units keep on as they are.
enum class MountedInfantryOrder { as_table, mounts, stays_on_foot, dismounts };
struct MountedInfantryFacts {
  const UnitType* type = nullptr;  // null: no restriction
  bool on_horse = true;
  bool has_weapon = false;
  bool shot_on_foot = false;  // the nearest enemy it can see: within reach on foot, in its front arc
};
MountedInfantryOrder mounted_infantry_order(const Ruleset& r, const MountedInfantryFacts& f, Pace table_pace);
// Whether it would dismount given a shot on foot (everything but
// shot_on_foot): a caller looks for the shot only then.
bool may_dismount_to_shoot(const Ruleset& r, const MountedInfantryFacts& f, Pace table_pace);

// Melee (combat.melee): a unit's die modifier (seed 002, unit_types: its
// type's melee, plus melee_charging with the charge bonus; units on foot
// none), and who won one round: more hits wins; a tie repulses the
// attacker (choice).
int melee_modifier(const UnitType* type, bool on_horse, bool charge_bonus);
enum class MeleeWinner { attacker, defender, tie };
MeleeWinner melee_result(int attacker_hits, int defender_hits);
// What follows the round: the loser falls back
// combat.melee.loser_retreat_moves of its own move and must rally; on a
// tie the attacker falls back combat.melee.tie_fall_back, facing the enemy,
// not shaken; a victorious charger follows through the balance of its
// charge move (combat.melee.follow_through, seed 003).
struct MeleeAftermath {
  MeleeWinner winner = MeleeWinner::tie;
  Length attacker_back;  // 0: stays
  Length defender_back;
  bool attacker_must_rally = false;
  bool defender_must_rally = false;
  Length follow_through;  // the attacker's, when it won a charge
  Length defender_follow_through;  // seed 003 L3: the defender's, when it won having counter-charged
};
// `defender_charge`, `defender_balance`: the defender counter-charged (seed
// 003 L3: a victorious charging unit follows through, whichever side it is).
MeleeAftermath melee_aftermath(const Ruleset& r, int attacker_hits, int defender_hits, Length attacker_move,
                               Length defender_move, bool charge, Length balance, bool defender_charge = false,
                               Length defender_balance = Length());
// Seed 004's Infantry Square against charging horse (charge.infantry_square,
// optional): the square rolls first, at most max_battle_dice dice; a face
// in bounce_on bounces the cavalry back bounce_back_moves of its move before
// it strikes. Otherwise the cavalry strikes with at most max_battle_dice
// dice and, unable to break in (choice), falls back
// combat.melee.tie_fall_back facing the square, which is shaken if it
// scored fewer hits.
int square_melee_dice(const Ruleset& r, int figures);
struct SquareAftermath {
  bool bounced = false;
  Length attacker_back;
  bool square_shaken = false;
};
SquareAftermath square_melee(const Ruleset& r, bool bounce, int attacker_hits, int square_hits, Length attacker_move);

// Seed 003: the balance of the charge move after moving `moved` of its
// `max_range`, when combat.melee.follow_through is on (else 0).
Length follow_through_balance(const Ruleset& r, Length max_range, Length moved);

// Morale (combat.morale): a unit that has lost rout_losses_pct of its
// figures routs; a shaken or retreating unit with no enemy within
// rally_enemy_clear rallies on 2D6 >= rally_target.
bool routs(const Ruleset& r, int lost, int figures_start);
struct RallyCheck {
  int need = 0;
  int total = 0;
  bool rallied = false;
};
RallyCheck rally_check(const Ruleset& r, int d1, int d2);

}  // namespace vedette
