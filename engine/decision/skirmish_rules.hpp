#pragma once
// SkirmishRules: seed 001's man-to-man cavalry rules as data (a ruleset's
// `skirmish:` section, tables/skirmish.yaml), and the base game's numbers
// they lean on (to-hit numbers, the wound table's columns A to E, skill and
// gut checks, cover), which players fill in from their own rulebook: the
// shipped values are EXAMPLES. docs/skirmish.md describes each rule, its
// data, the choice made where the seed is ambiguous, and its test.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/length.hpp"

namespace vedette {

class Diagnostics;
struct Doc;

// A wound table result, least to most severe.
enum class Wound : std::uint8_t { none, suppressed, light, heavy, kia };
inline constexpr std::array<std::string_view, 5> k_wound_names{"none", "suppressed", "light", "heavy", "kia"};
inline std::string_view wound_name(Wound w) { return k_wound_names[static_cast<std::size_t>(w)]; }

// One column of the base game's wound table: roll the die, add the
// modifier, the first row whose `upto` is at least the total gives the
// result (the last row takes everything above). Higher totals are milder
// (choice: seed 001's +3 for a fall from a standing horse must soften it).
struct WoundColumn {
  std::string id;  // "A" .. "E"
  struct Row {
    int upto = 0;
    Wound result = Wound::none;
  };
  std::vector<Row> rows;
  Wound result(int total) const;
};

struct SkirmishWeapon {
  std::string id;
  std::string name;
  struct Band {
    Length to;
    int hit = 0;  // to-hit number: the die plus modifiers must be at most this
  };
  std::vector<Band> bands;   // nearest first
  std::string column;        // wound table column a hit rolls on
  bool fire_while_moving = false;  // seed 001: carbines, SMGs, pistols
  bool he = false;                 // high explosive: unattended horses within reach bolt
  int close_combat = 0;            // base game hand-to-hand modifier (EXAMPLE)
};

// How a mortally wounded moving horse's D4 spill is laid out (seed 001: "in
// line with its last movement"; choice: onward, the way it was going).
enum class SpillDirection : std::uint8_t { onward, back };
inline constexpr std::array<std::string_view, 2> k_spill_names{"onward", "back"};

// When the +12 for firing from horseback applies (seed 001 says "fired from
// horseback ... for firing on the move": choice `always`, switch `moving`).
enum class HorsebackPenalty : std::uint8_t { always, moving };
inline constexpr std::array<std::string_view, 2> k_horseback_penalty_names{"always", "moving"};

// What "Fear of Charge checks are made per charge, not per horse" counts as
// one charge: `charge` (default): the riders of one side that charge in the
// same turn side by side -- each ride starting within `together` of a ride
// already in that charge -- are one charge, however many horses; every man
// within 4in of any of its rides checks once for it (figures act one at a
// time, so a charge of several horses is several rides). `turn`: every ride
// of the side in one turn is one charge, so a man checks at most once a
// turn.
enum class FearPer : std::uint8_t { charge, turn };
inline constexpr std::array<std::string_view, 2> k_fear_per_names{"charge", "turn"};

// The sign convention of seed 001's close-combat modifiers (the rider's -4,
// the prone man's +5). `on_the_die` (default, the module's convention for
// every check: a modifier is added to the die roll and a low roll is good
// for the roller -- to hit, skill checks, hand to hand): the rider's -4
// helps him, the +5 makes a prone man's skill check harder. `on_the_skill`:
// the modifiers are added to the figure's side instead (the -4 hinders the
// rider, the +5 helps the prone man).
enum class ModifierSign : std::uint8_t { on_the_die, on_the_skill };
inline constexpr std::array<std::string_view, 2> k_modifier_sign_names{"on_the_die", "on_the_skill"};

struct SkirmishRules {
  // ---- the base game (EXAMPLE values: fill in your rulebook's) ----
  int die = 20;                    // the die every check rolls
  int actions_per_turn = 2;        // actions a figure spends, one at a time, each turn
  Length foot_move = Length::in(4);  // infantry per action
  int prone_to_hit = 2;            // to-hit modifier against a prone target
  int gut_check_modifier = 0;      // gut check: die <= skill + this
  Length contact = Length::in(1);  // base to base contact: within this, centre to centre
  Length wall_cover_reach = Length::in(2);  // a wall gives its cover to a man within this of it
  std::string hand_to_hand_column = "B";  // the loser of a hand-to-hand round rolls here
  std::vector<SkirmishWeapon> weapons;
  std::vector<WoundColumn> columns;

  // ---- seed 001 ----
  Length horse_move = Length::in(8);         // movement per action
  Length obstacle_penalty = Length::in(1);   // an obstacle costing infantry an action
  Length double_move = Length::in(6);        // riding double
  int mount_actions = 1;                     // mounting or dismounting takes one action
  int horses_per_holder = 5;
  Length holder_reach = Length::in(2);       // choice: a holder holds horses within this
  Wound bolt_at = Wound::suppressed;         // fired at: suppression or better bolts
  Length he_bolt_radius = Length::in(12);
  int horseback_fire = 12;                   // +12 to hit firing from horseback
  HorsebackPenalty horseback_penalty = HorsebackPenalty::always;
  int mounted_target = -1;                   // -1 to hit a mounted target...
  Length moved_step = Length::in(3);         // ...+1 per 3in moved in the last action
  int per_step = 1;
  std::array<bool, 6> hit_horse{true, true, true, true, false, false};  // D6 1-4 horse, 5-6 rider
  bool riders_ignore_suppression = true;
  Wound horse_mortal_at = Wound::heavy;      // horses ignore all but HW and KIA
  int spill_die = 4;
  SpillDirection spill = SpillDirection::onward;
  std::string fall_column = "E";
  int fall_standing_modifier = 3;
  int fall_moving_modifier = 0;
  Length charge_min = Length::in(6);         // a move of 6in or more into close combat is a charge
  Length fear_radius = Length::in(4);
  int fear_cover_exempt = 5;                 // +5 cover (prone not counted)
  Length fear_flee = Length::in(4);
  FearPer fear_per = FearPer::charge;
  Length fear_together = Length::in(4);      // rides starting this close are one charge (`per: charge`)
  ModifierSign close_combat_sign = ModifierSign::on_the_die;
  int prone_modifier = 5;                    // the prone man's skill check (sign: close_combat_sign)
  std::string contact_column = "C";
  int rider_close_combat = -4;
  bool mounted_melee_in_buildings = false;   // a scenario may allow it
  std::string final_charge_column = "E";

  const SkirmishWeapon* find_weapon(std::string_view id) const;
  const WoundColumn* find_column(std::string_view id) const;
};

// Reads a ruleset's `skirmish:` section; errors go to `d` (located).
std::optional<SkirmishRules> read_skirmish_rules(const Doc& node, Diagnostics& d);

}  // namespace vedette
