#pragma once
// Ruleset: everything the rules need that a player may change, loaded from
// tables/*.yaml (with `extends:` overlays) and validated. Immutable once
// loaded; shared read-only by all threads.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/decision/battle_rules.hpp"
#include "engine/decision/charge.hpp"
#include "engine/core/doc.hpp"
#include "engine/core/facts.hpp"
#include "engine/core/length.hpp"
#include "engine/decision/skirmish_rules.hpp"

namespace vedette {

// What a behaviour sets the pace to. `current` keeps the unit's pace.
enum class PaceSpec : std::uint8_t { halt, walk, canter, gallop, current };
inline constexpr std::array<std::string_view, 5> k_pace_spec_names{"halt", "walk", "canter", "gallop", "current"};

enum class Direction : std::uint8_t { keep, toward, away, to_cover, hold };
inline constexpr std::array<std::string_view, 5> k_direction_names{"continue", "toward", "away", "to_cover", "hold"};
inline std::string_view direction_name(Direction d) { return k_direction_names[static_cast<std::size_t>(d)]; }

enum class Target : std::uint8_t { nearest_enemy, nearest_visible_enemy };
inline constexpr std::array<std::string_view, 2> k_target_names{"nearest_enemy", "nearest_visible_enemy"};

// One cell's meaning: the seed's words and what they mean on the table.
struct Behaviour {
  std::string id;
  std::string text;  // the seed's wording
  PaceSpec pace = PaceSpec::current;
  Direction direction = Direction::keep;
  Target target = Target::nearest_enemy;
  bool faces_enemy = false;      // ends facing the nearest enemy
  bool charge_possible = false;  // "(Charge?)"
  bool running = false;          // running from the enemy: +3 next turn
};
using BehaviourIndex = std::uint8_t;

inline constexpr int k_rf_unbounded_low = -1000000;
inline constexpr int k_rf_unbounded_high = 1000000;

// One row of the Actions Table: an RF range and six cells. `at_halt`, when
// present, replaces the cells for a unit at halt (the seed's RF0 row).
struct Band {
  std::string id;
  std::string label;  // "RF2-5"
  std::string text;   // the row's own wording, when the seed gives one
  int min = k_rf_unbounded_low;
  int max = k_rf_unbounded_high;
  std::array<BehaviourIndex, 6> cells{};
  std::optional<std::array<BehaviourIndex, 6>> at_halt;
  bool contains(int rf) const { return rf >= min && rf <= max; }
};

// A risk-factor modifier on named facts.
struct Modifier {
  enum class Kind : std::uint8_t { all, any, per };
  std::string id;
  std::string text;
  int value = 0;
  Kind kind = Kind::all;
  std::vector<Fact> facts;        // all / any: the facts asked about; per: one numeric fact
  bool stack = false;             // any: count value once per fact that holds
  std::int32_t step = 0;          // per: value per full step of the fact (in the fact's units x100)
};

struct PaceRange {
  Length min;
  Length max;
};

struct UnitType {
  std::string id;
  std::string name;
  bool can_gallop = true;
  bool shoots_mounted = true;
  int melee = 0;           // to melee die rolls, always
  int melee_charging = 0;  // to melee die rolls when charging
  // What a player may also call the type ("hussars"), beside its name's
  // parts and its id (issue 30); the solo front reads them.
  std::vector<std::string> words;
  // The weapon a unit of this type carries when the player names none (a
  // weapon's id; "" = none): `vedette solo new` gives it (issue 28).
  std::string default_weapon;
};

struct Supplement {
  std::array<PaceRange, 4> paces{};  // by Pace; halt is 0-0
  int gallop_max_turns = 2;          // gallop only this many turns in a row...
  Pace after_gallop_limit = Pace::walk;  // ...then only this pace for a turn
  int turn_degrees = 45;                  // may turn this much...
  double turn_per_move_fraction = 0.25;   // ...per this fraction of its move
  double turn_per_move_fraction_gallop = 0.5;
  int moving_shoot_arc_degrees = 45;      // moving cavalry shoots front and left only
  // How "front and left 45° arc" is drawn (mounted_shooting.moving_arc):
  // false (front_to_left, the default) = the wedge from straight ahead to
  // moving_shoot_arc_degrees to the left; true (either_side_of_front_left) =
  // the old 90-degree sector, that many degrees either side of the diagonal.
  bool moving_shoot_arc_wide = false;
  int mounted_range_band_shift = 1;       // shoots as this many bands more distant
  std::array<bool, 6> hit_on_horse{};     // by D6 face - 1: true = horse, false = rider
};

enum class WeaponsRange : std::uint8_t { enemy, unit, either };
inline constexpr std::array<std::string_view, 3> k_weapons_range_names{"enemy", "unit", "either"};

struct Switches {
  WeaponsRange weapons_range = WeaponsRange::enemy;
  Pace no_gallop_pace = Pace::canter;  // a unit that may not gallop, told to gallop
};

class Ruleset {
 public:
  std::string name;
  std::string description;
  std::vector<std::string> sources;  // files merged, base first
  LengthUnit units = LengthUnit::cm;
  std::vector<Behaviour> behaviours;
  std::vector<Band> bands;  // sorted by RF, contiguous, covering every integer
  std::vector<Modifier> modifiers;
  std::vector<UnitType> unit_types;
  Supplement supplement;
  Switches switches;
  // Engagements (engine/decision/battle_rules.hpp): optional sections.
  std::vector<Weapon> weapons;
  std::vector<Profile> profiles;
  CombatRules combat;
  ChargeRules charge;  // seed 003's cavalry charge (`charge:`)
  // Seed 001's man-to-man skirmish rules (`skirmish:`, engine/decision/skirmish_rules.hpp).
  std::optional<SkirmishRules> skirmish;

  const Band& band_for(int rf) const;
  const Behaviour& behaviour(BehaviourIndex i) const { return behaviours[i]; }
  const Behaviour* find_behaviour(std::string_view id) const;
  const UnitType* find_unit_type(std::string_view id) const;
  const Profile* find_profile(std::string_view id) const;
  const Weapon* find_weapon(std::string_view id) const;
  const PaceRange& pace_range(Pace p) const { return supplement.paces[static_cast<std::size_t>(p)]; }
};

using RulesetPtr = std::shared_ptr<const Ruleset>;

// A charge as the player measures it at the table (`vedette charge`, the
// solo session, the web page), by seed 003 L40: `distance` to the near edge
// of the target's nearest figure, whose base must lie ENTIRELY within the
// charge range (the depth of the ruleset's cavalry or infantry base, by the
// defender's class, is added for the range; the minimum distance is to the
// near edge, where contact is made); `bearing_deg` off the charger's facing
// to the part of the target NEAREST the facing line (0 when that line
// crosses it), so a target "entirely or partially" within the arc is in it.
ChargeGeometry table_charge_geometry(const Ruleset& r, Length move, Length distance, double bearing_deg,
                                     DefenderClass target);
// The depth of one figure's base of a unit of that defender class.
Length target_base_depth(const Ruleset& r, DefenderClass target);

// Loads a ruleset file (resolving `extends:`), or a built-in one by name
// ("builtin:default"). Throws LoadError listing every problem found.
RulesetPtr load_ruleset(const std::string& path);
// The built-in default ruleset (tables/default.yaml compiled in).
RulesetPtr default_ruleset();
// Loads with path edits applied after merging (`--set PATH=VALUE`).
RulesetPtr load_ruleset(const std::string& path, const std::vector<std::pair<std::string, std::string>>& edits);

// The merged document a ruleset file stands for (its `extends:` chain
// resolved and merged; `extends` removed), before it is read into a Ruleset.
// Throws LoadError as load_ruleset does. `sources`, if given, gets the files
// merged, base first.
Doc load_ruleset_doc(const std::string& path, std::vector<std::string>* sources = nullptr);
// The file a ruleset `extends` (resolved as the loader resolves it: beside
// the file, or builtin:NAME), or "" when it extends nothing.
std::string extends_target(const std::string& path);

// What a ruleset changes against another, setting by setting (dotted paths
// as `--set` takes them). `vedette table --diff`, and the compare and
// sensitivity reports, which start with it.
struct RulesetDiff {
  std::string base, variant;  // the two files (or builtin:NAME)
  std::vector<DocChange> changes;
};
// `variant` against `base` (both files loaded and merged).
RulesetDiff diff_rulesets(const std::string& base, const std::string& variant);
// An overlay against what it extends; `base` is "" (and no changes) for a
// file that extends nothing.
RulesetDiff diff_overlay(const std::string& file);

}  // namespace vedette
