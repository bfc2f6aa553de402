#pragma once
// Facts: what the risk-factor modifiers can ask about a unit's situation.
// The vocabulary is fixed in code (the battlefield must be able to compute
// each one); which facts count, and for how much, is data (tables/).
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vedette {

enum class Pace : std::uint8_t { halt, walk, canter, gallop };
inline constexpr std::array<std::string_view, 4> k_pace_names{"halt", "walk", "canter", "gallop"};
inline std::string_view pace_name(Pace p) { return k_pace_names[static_cast<std::size_t>(p)]; }
std::optional<Pace> parse_pace(std::string_view s);

enum class Fact : std::uint8_t {
  hero,                  // a hero is with the unit
  in_cover,              // the unit is entirely in cover
  at_halt,               // derived from pace
  walking,               // derived from pace
  cantering,             // derived from pace
  galloping,             // derived from pace
  moving_fast,           // derived: cantering or galloping
  enemy_in_sight,        // some enemy is in clear sight
  enemy_in_range,        // an enemy in clear sight is within weapons range (switch: whose range)
  raw,                   // the unit is raw
  casualties_pct,        // numeric: % of the group wounded or killed, in hundredths (12.5% = 1250)
  enemy_flank_rear,      // an enemy to the flank or rear, in sight
  ran_last_turn,         // the unit chose a running behaviour last turn
  retreated_from_melee,  // the unit is retreating as a result of melee
  in_enemy_range,        // the unit is within the weapons range of an enemy in sight (the enemy's range, always)
  count
};
inline constexpr std::size_t k_fact_count = static_cast<std::size_t>(Fact::count);

struct FactInfo {
  std::string_view name;
  std::string_view description;
  bool numeric;
};
extern const std::array<FactInfo, k_fact_count> k_facts;
std::optional<Fact> parse_fact(std::string_view s);
inline std::string_view fact_name(Fact f) { return k_facts[static_cast<std::size_t>(f)].name; }

// A unit's situation as the player or the battlefield states it.
struct Situation {
  bool hero = false;
  bool in_cover = false;
  Pace pace = Pace::halt;
  bool enemy_in_sight = false;
  bool enemy_in_range = false;
  bool raw = false;
  std::int32_t casualties_hundredths = 0;  // 12.5% = 1250
  bool enemy_flank_rear = false;
  bool ran_last_turn = false;
  bool retreated_from_melee = false;
  // Seed 002 L47 "Raw unit in range of any enemy unit in sight": the enemy's
  // weapons reach the unit, whatever the weapons_range switch says for L45.
  // Unset (a player's statement that gives only enemy_in_range): the same
  // as enemy_in_range.
  std::optional<bool> in_enemy_range;
};

// The facts as values: booleans are 0/1, numeric facts their number.
class Facts {
 public:
  Facts() = default;
  explicit Facts(const Situation& s);
  std::int32_t operator[](Fact f) const { return v_[static_cast<std::size_t>(f)]; }
  void set(Fact f, std::int32_t value) { v_[static_cast<std::size_t>(f)] = value; }

 private:
  std::array<std::int32_t, k_fact_count> v_{};
};

// Casualties as a share of the group, in hundredths of a percent, rounded
// down (so "a full 10%" is exact: 3 of 30 is 1000, 2 of 30 is 666).
std::int32_t casualty_hundredths(int lost, int figures);

}  // namespace vedette
