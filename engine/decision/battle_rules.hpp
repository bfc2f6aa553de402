#pragma once
// Battle rules: what an engagement needs beyond the Actions Table. Unit
// profiles (seed 002 cavalry types, seed 003 horse weights and foot classes),
// weapons with range bands, and the combat numbers (initiative, charges,
// shooting, melee, morale, seed 004's square and retire-and-reform). Read from
// the `weapons`, `profiles` and `combat` sections of tables/*.yaml by
// engine/decision/battle_rules.cpp; every default equals tables/default.yaml.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/facts.hpp"
#include "engine/core/length.hpp"

namespace vedette {

class Ruleset;
struct Doc;
class Diagnostics;

enum class UnitKind : std::uint8_t { cavalry, infantry };
inline constexpr std::array<std::string_view, 2> k_unit_kind_names{"cavalry", "infantry"};

// Seed 003's horse classes: a cavalry unit's row when charged, its column
// when charging.
enum class Weight : std::uint8_t { light, medium, heavy };
inline constexpr std::array<std::string_view, 3> k_weight_names{"light", "medium", "heavy"};

// Seed 003's foot classes (rows of the charge morale table).
enum class FootClass : std::uint8_t { peasants, light_foot, heavy_foot, elite_foot };
inline constexpr std::array<std::string_view, 4> k_foot_class_names{"peasants", "light_foot", "heavy_foot", "elite_foot"};

// One range band: targets at most `to` away (front to front) are in it; a
// shooting die hits on `hit` or more.
struct RangeBand {
  Length to;
  int hit = 6;
};

struct Weapon {
  std::string id;
  std::string name;
  std::vector<RangeBand> bands;  // nearest first, `to` strictly increasing

  // The band used at distance d by a shooter that counts `shift` bands more
  // distant (seed 002: mounted figures shoot one band further); nullopt when
  // out of range.
  std::optional<std::size_t> band_at(Length d, int shift) const;
  // The farthest distance at which it can hit with that shift (0 if never).
  Length reach(int shift) const {
    const auto s = static_cast<std::size_t>(shift < 0 ? 0 : shift);
    if (s >= bands.size()) return Length();
    return bands[bands.size() - 1 - s].to;
  }
};

struct Profile {
  std::string id;
  std::string name;
  UnitKind kind = UnitKind::infantry;
  std::size_t unit_type = 0;            // cavalry: index into Ruleset::unit_types
  Weight weight = Weight::medium;       // cavalry
  FootClass foot = FootClass::heavy_foot;  // infantry; mounted infantry on foot
  bool pikes = false;                   // seed 003: pikes facing the enemy stand any charge
  Length move;                          // infantry's move; mounted infantry's move on foot
  std::optional<std::size_t> weapon;    // index into Ruleset::weapons
};

struct Base {
  Length frontage;
  Length depth;
};

struct CombatRules {
  struct Formations {
    Base cavalry_base{Length::mm(25), Length::mm(50)};
    Base infantry_base{Length::mm(20), Length::mm(20)};
    int line_ranks = 2;
    int column_files = 4;
  } formations;

  // Seed 002 L10's "away from all enemies" when no cover is in reach: away
  // from the nearest enemy (what a player lays a tape along), or from the
  // middle of every enemy (the reading before issue 30).
  enum class AwayFrom : std::uint8_t { nearest, centre };
  struct Movement {
    bool about_face_free = true;          // an about-face costs nothing (turning rates apply to the rest)
    Length stand_off = Length::cm(1);     // moves that are not charges stop this short of an enemy
    AwayFrom away_from = AwayFrom::nearest;
  } movement;

  struct Initiative {
    int dice = 1;  // D6 per side (seed 003's -2 per declaration: charge.declaring)
  } initiative;

  enum class Allowance : std::uint8_t { pace, walk };
  struct Charge {
    bool first_turn = false;       // seed 003: no declarations on the first turn
    Allowance allowance = Allowance::pace;
    int initiation_target = 4;     // 2D6 >= this (seed 003's -2 undeclared: charge.declaring)
    Pace next_turn_pace = Pace::walk;  // seed 003: normal speed on the following turn
  } charge;

  struct Shooting {
    int figures_per_die = 2;
    double arc_half_degrees = 45.0;
    int cover_penalty = 1;  // to the score needed, per cover level
  } shooting;

  struct Melee {
    int figures_per_die = 1;
    int hit = 4;
    double loser_retreat_moves = 1.5;
    Length tie_fall_back = Length::cm(10);
    bool follow_through = true;  // seed 003
  } melee;

  struct Morale {
    int rout_losses_pct = 50;
    int rally_target = 7;          // 2D6 >= this
    Length rally_enemy_clear = Length::cm(15);
  } morale;

  Length hex = Length::cm(10);  // one hex of seed 004 on the table

  struct Retire {
    double hexes = 2.0;  // seed 004
    std::array<bool, 6> hit_faces{false, false, false, false, false, true};
  } retire;

  struct Dismount {
    bool on_halt = true;
  } dismount;
};

// Section readers, called by the ruleset loader (one call per top-level key).
// Each records located errors in `d`; weapons must be read before profiles.
void read_weapons(const Doc& n, Diagnostics& d, Ruleset& r);
void read_profiles(const Doc& n, Diagnostics& d, Ruleset& r);
void read_combat(const Doc& n, Diagnostics& d, Ruleset& r);

}  // namespace vedette
