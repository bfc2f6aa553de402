#pragma once
// Charge: seed 003's cavalry charge as a mechanism. Its numbers (charge range
// 1.5x the move, the minimum distance, the 45-degree arc, the defender's 2D6
// morale table and modifiers, what failing or falling short costs) are data
// under `charge:` in tables/*.yaml; this file only applies them. Also two
// optional rules, off by default: seed 001's Fear of Charge (a gut check for
// infantry near charging horse) and seed 004's Infantry Square (the square
// rolls one die first; a bounce sends the cavalry back).
//
// Everything called per charge is allocation-free (fixed arrays and bit
// masks), so the engagement engine can call it inside a Monte Carlo loop.
#include <array>
#include <cstdint>
#include <string>
#include <vector>
#include <string_view>

#include "engine/core/dice.hpp"
#include "engine/core/fraction.hpp"
#include "engine/core/length.hpp"

namespace vedette {

struct Doc;
class Diagnostics;

// The columns of seed 003's table: the attacking cavalry.
enum class AttackerWeight : std::uint8_t { light, medium, heavy };
inline constexpr std::array<std::string_view, 3> k_attacker_weight_names{"light", "medium", "heavy"};

// The rows of seed 003's table: the unit being charged. The YAML keys use
// these names (the command line also accepts them with '-' for '_').
enum class DefenderClass : std::uint8_t {
  peasants, light_foot, heavy_foot, elite_foot, light_horse, medium_horse, heavy_horse
};
inline constexpr std::array<std::string_view, 7> k_defender_class_names{
    "peasants", "light_foot", "heavy_foot", "elite_foot", "light_horse", "medium_horse", "heavy_horse"};

enum class DefenderKind : std::uint8_t { foot, horse };
inline constexpr std::array<std::string_view, 2> k_defender_kind_names{"foot", "horse"};

// Where the charge strikes the defender.
enum class ChargedOn : std::uint8_t { front, flank, rear };

// A set of small whole numbers (2D6 totals, die faces 1..31) as bits.
using FaceSet = std::uint32_t;
constexpr bool has_face(FaceSet s, int face) { return face >= 0 && face < 32 && ((s >> face) & 1u) != 0; }

struct DefenderRow {
  std::string text;  // the seed's wording: "Light Foot, Levies"
  // Other words a player may use for the class (a period's vocabulary,
  // issue 30: "line infantry" for heavy_foot). Each comma-separated part of
  // `text` counts too; no word may name two classes.
  std::vector<std::string> words;
  DefenderKind kind = DefenderKind::foot;
  std::array<int, 3> need{};  // 2D6 score to stand, by AttackerWeight
};

// A defender word as compared: lower case, '-' and '_' as spaces, single
// spaces, trimmed ("Line-Infantry " -> "line infantry").
std::string defender_word_key(const std::string& word);
// The comma-separated parts of a row's text: "Light Foot, Levies" ->
// {"Light Foot", "Levies"}.
std::vector<std::string> defender_text_parts(const std::string& text);
// Every word the class answers to, as written: its text's parts, its words,
// then its key ("heavy-foot").
std::vector<std::string> defender_words(const DefenderRow& row, DefenderClass c);

struct FearOfChargeRules {
  bool enabled = false;
  Length charge_min_move;  // a move this long or longer into contact is a charge
  Length range;            // infantry this close to the charging cavalry check
  int exempt_cover = 0;    // ...unless in cover this good or better
  Length flee_distance;    // a failed check moves the infantry up to this toward cover
  int dice = 0;            // number of D6 in the gut check (1 or 2)
  bool pass_at_most = false;  // false: pass on target or more; true: target or less
  int target = 0;
};

struct InfantrySquareRules {
  bool enabled = false;
  int die = 0;             // sides
  FaceSet bounce_on = 0;   // faces that bounce the cavalry
  int max_battle_dice = 0;
  double bounce_back_moves = 0;  // the bounced cavalry falls back this many of its moves
};

// Seed 003's Swiss/Landsknechte pike charge, an optional rule: the seed
// refers to a Loss Table it does not give, so the numbers are ours and the
// rule is off by default (`charge.pike_charge`).
struct PikeChargeRules {
  bool enabled = false;
  int min_files = 0;        // "at least 10 figures in 5 x 2 formation":
  int min_ranks = 0;        //   the mass shock formation
  int loss_dice = 0;        // "roll two dice and consult the Loss Table"
  int stand_target = 0;     // EXAMPLE VALUE: the enemy stands on 2D6 >= this
  double retreat_moves = 0; // "retreats 1 1/2 moves, backs to the enemy, and must rally"
};

// All of `charge:` in a ruleset. No seed number has a default here: the
// loader fills every field from the YAML.
struct ChargeRules {
  // range
  double range_factor = 0;           // charge range = move x this
  double min_distance_fraction = 0;  // minimum distance = min(move x this, cap)
  Length min_distance_cap;
  double arc_degrees = 0;            // either side of the facing
  double max_curve_degrees = 0;
  Length preliminary_manoeuvre;
  // out of reach
  double out_of_reach_move_factor = 0;  // still moves forward move x this
  bool out_of_reach_shaken = false;
  // declaring (read by the turn sequence)
  int declare_initiative_modifier = 0;
  int opportunity_undeclared_modifier = 0;
  // morale
  std::array<DefenderRow, 7> table{};  // by DefenderClass
  int flank_modifier = 0;              // to the dice score
  int rear_modifier = 0;
  std::array<int, 2> both_charging_modifier{};  // by DefenderKind
  bool pikes_facing_stand = false;
  // Who carries the pikes, in the period's words, for the solo front's
  // question (issue 30): morale.pikes_words, else seed 003 L18's own.
  std::string pikes_words;
  FaceSet natural_stand = 0;  // 2D6 totals that always stand
  FaceSet natural_fail = 0;   // 2D6 totals that always fail
  bool check_inside_min_distance = false;
  double failure_retreat_moves = 0;  // of the defender's own move
  bool failure_backs_to_enemy = false;
  bool failure_must_rally = false;
  // optional rules
  FearOfChargeRules fear_of_charge;
  InfantrySquareRules infantry_square;
  PikeChargeRules pike_charge;

  const DefenderRow& row(DefenderClass c) const { return table[static_cast<std::size_t>(c)]; }
  DefenderKind kind(DefenderClass c) const { return row(c).kind; }
};

// Reads `charge:` (the map under that key) into `out`, recording every
// problem, located, in `d`. Unknown keys and unknown defender classes are
// errors with a "did you mean".
void load_charge_rules(const Doc& node, Diagnostics& d, ChargeRules& out);

// ------------------------------------------------------------- geometry

struct ChargeGeometry {
  Length max_range;      // move x range_factor
  Length min_distance;   // min(move x min_distance_fraction, min_distance_cap)
  bool in_range = false;  // distance <= max_range
  bool in_arc = false;    // |bearing| <= arc_degrees
  bool reaches = false;   // in range and in arc: contact is made
  // Contact made after moving MORE than the minimum distance. Inside it
  // "combat still takes place - but the attacking unit receives none of the
  // combat benefits for charging".
  bool charge_bonus = false;
  bool morale_check = false;  // the defender must check morale (see check_inside_min_distance)
  // When the charge does not reach: the unit must still move this far
  // forward (toward the target) and becomes shaken if `shaken`.
  bool out_of_reach = false;
  Length forced_move;
  bool shaken = false;
};

// Seed 003 L42's charge range for a unit whose charge move is `move`: the
// move times the ruleset's charge.range.factor (a 12-inch move could charge
// a target as far as 18 inches away at 1.5). The expression's one place:
// charge_geometry below and the range bound asked before the full question
// (ChargeRangeBound, engine/engagement/engagement_charge.cpp) both call it.
inline Length charge_max_range(const ChargeRules& r, Length move) { return move * r.range_factor; }

// `distance`: from the charging unit (after any preliminary manoeuvre) to the
// nearest figure of the target; `bearing_deg`: the target's direction off the
// unit's facing, any sign, any number of turns. `move` must be positive.
ChargeGeometry charge_geometry(const ChargeRules& r, Length move, Length distance, double bearing_deg);

// The same as the seed words it (003 L40), for a target with extent:
// `distance` is to the near edge of the target's nearest figure, whose base
// is `target_base` deep along the line of the charge: it is in range only if
// that base lies ENTIRELY within the charge range (distance + target_base <=
// range). The target is in the arc if it lies "entirely or partially" in the
// 45 degrees either side of the facing: `bearing_lo_deg`..`bearing_hi_deg`
// (lo <= hi, both off the facing, as seen from the charger) is the angle the
// target's outline covers; any overlap with the arc counts.
struct ChargeTarget {
  Length distance;
  Length target_base;
  double bearing_lo_deg = 0;
  double bearing_hi_deg = 0;
};
ChargeGeometry charge_geometry(const ChargeRules& r, Length move, const ChargeTarget& t);

// Seed 003's terrain on the way, as a player at the table says it: a charge
// may not climb, nor strike a target standing in terrain that costs
// movement; either way it does not reach (and then the out-of-reach rule: it
// moves its forced move forward and may be shaken). An obstacle (fence,
// hedge) on the way leaves the geometry as it is: it calls for a second
// initiation check (L68). The engine reads the same from its board
// (Engagement's charge_prospect).
enum class ChargePath : std::uint8_t { open, obstacle, uphill, into_terrain };
inline constexpr std::array<std::string_view, 4> k_charge_path_names{"open", "obstacle", "uphill", "into_terrain"};
ChargeGeometry with_path(const ChargeRules& r, Length move, ChargeGeometry g, ChargePath path);

// ------------------------------------------------------------ the gates

// Whether a unit may declare a charge now (step 1), or launch one now (a
// declared charge in its move, or an opportunity charge in the enemy's), and
// if not which rule of seed 003 forbids it. The one place these gates live:
// the engagement engine and the solo session both ask it.
enum class ChargeWhen : std::uint8_t { declare, launch_declared, opportunity };
struct ChargeGateInput {
  ChargeWhen when = ChargeWhen::declare;
  int turn = 1;                      // 1-based turn of the scenario
  bool first_turn_allowed = false;   // combat.charge.first_turn (seed 003: false)
  bool good_order = true;            // seed 003 L34
  bool charged_last_turn = false;    // seed 003 L3: normal speed the following turn
  bool barred_this_turn = false;     // failed an initiation check this turn (L48, L100)
  bool moved_this_turn = false;      // opportunity: has it moved yet (L92)
  bool target_visible = true;        // seed 003 L34: to the front rank
  bool infantry_against_cavalry = false;  // opportunity: foot on horse (L96)
};
struct ChargeGate {
  bool allowed = true;
  std::string_view rule;  // the conformance id of the rule that forbids it (empty if allowed)
  std::string_view why;   // the rule in words, for a message
};
ChargeGate charge_gate(const ChargeGateInput& in);

// ---------------------------------------------------------------- morale

struct MoraleSituation {
  DefenderClass defender = DefenderClass::peasants;
  AttackerWeight attacker = AttackerWeight::light;
  ChargedOn side = ChargedOn::front;
  bool both_charging = false;
  // Swiss/Landsknechte pikes or pole arms facing the charging enemy. The
  // caller vouches that they face it; the rule then beats flank or rear.
  bool pikes_facing = false;
};

struct MoraleTarget {
  bool automatic = false;  // stands without rolling (pikes facing)
  int table = 0;           // the table's number
  int modifier = 0;        // total added to the dice score
  int flank_rear = 0;      // the part of `modifier` from flank or rear
  int both_charging = 0;   // the part of `modifier` from both charging
  int target = 0;          // the natural 2D6 needed: table - modifier (may be < 2 or > 12)
};

MoraleTarget morale_target(const ChargeRules& r, const MoraleSituation& s);

// Whether a natural 2D6 total stands. The one decision both the exact odds
// and the dice use.
bool stands_on(const ChargeRules& r, const MoraleTarget& t, int total);

// One 2D6 total with its chance (ways of 36) and whether it stands.
struct MoraleOutcome {
  int total = 0;
  int ways = 0;  // of 36
  bool stands = false;
  Fraction probability() const { return Fraction(ways, 36); }
};
// The 11 totals 2..12. (An automatic stand lists them all as standing.)
std::array<MoraleOutcome, 11> morale_outcomes(const ChargeRules& r, const MoraleTarget& t);
// Ways of 36 that stand, and the exact chance.
int stand_ways(const ChargeRules& r, const MoraleTarget& t);
Fraction p_stand(const ChargeRules& r, const MoraleTarget& t);

struct MoraleResult {
  bool automatic = false;  // no dice rolled
  std::array<int, 2> dice{};
  int total = 0;
  bool stands = false;
};
// Rolls 2D6 (none for an automatic stand).
MoraleResult resolve_morale(const ChargeRules& r, const MoraleTarget& t, Dice& dice);
// The same with the dice given (each 1..6; throws std::out_of_range if not).
MoraleResult resolve_morale(const ChargeRules& r, const MoraleTarget& t, int die1, int die2);

// How far a unit that failed retreats (backs to the enemy): its own move x
// failure_retreat_moves.
Length morale_retreat(const ChargeRules& r, Length defender_move);

// ------------------------------------------- optional: Fear of Charge (001)

// Whether an infantryman `infantry_distance` from cavalry that moved
// `cavalry_move` to contact, in cover `infantry_cover` (0 = none), checks.
bool fear_of_charge_applies(const ChargeRules& r, Length cavalry_move, Length infantry_distance, int infantry_cover);
bool gut_check_passes(const ChargeRules& r, int total);
Fraction p_gut_check_pass(const ChargeRules& r);
struct GutCheck {
  int total = 0;
  bool passes = false;
};
GutCheck resolve_gut_check(const ChargeRules& r, Dice& dice);

// -------------------------------- optional: pike charge (003, Loss Table ours)

// Does a pike charge force the target's Loss Table roll? The charging pikes
// in mass shock formation (files x ranks), the target not pikes itself
// ("other than like troops").
bool pike_charge_applies(const ChargeRules& r, bool charger_pikes, int files, int ranks, bool target_pikes);
bool pike_loss_stands(const ChargeRules& r, int total);
Fraction p_pike_loss_stand(const ChargeRules& r);

// ------------------------------------------ optional: Infantry Square (004)

bool can_form_square(const ChargeRules& r, DefenderClass c);
bool square_bounces(const ChargeRules& r, int face);
Fraction p_square_bounce(const ChargeRules& r);
struct SquareRoll {
  int face = 0;
  bool bounce = false;
};
SquareRoll resolve_square(const ChargeRules& r, Dice& dice);

}  // namespace vedette
