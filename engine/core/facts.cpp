#include "engine/core/facts.hpp"

namespace vedette {

const std::array<FactInfo, k_fact_count> k_facts{{
    {"hero", "a hero is with the unit", false},
    {"in_cover", "the unit is entirely in cover", false},
    {"at_halt", "the unit is at halt", false},
    {"walking", "the unit is moving at walk", false},
    {"cantering", "the unit is moving at canter", false},
    {"galloping", "the unit is moving at gallop", false},
    {"moving_fast", "the unit is moving at canter or gallop", false},
    {"enemy_in_sight", "an enemy is in clear sight", false},
    {"enemy_in_range", "an enemy in clear sight is within weapons range", false},
    {"raw", "the unit is raw", false},
    {"casualties_pct", "percentage of the group wounded or killed", true},
    {"enemy_flank_rear", "an enemy is to the flank or rear, in sight", false},
    {"ran_last_turn", "the unit ran from the enemy last turn", false},
    {"retreated_from_melee", "the unit is retreating as a result of melee", false},
    {"in_enemy_range", "the unit is within the weapons range of an enemy in sight", false},
}};

std::optional<Pace> parse_pace(std::string_view s) {
  for (std::size_t i = 0; i < k_pace_names.size(); ++i)
    if (k_pace_names[i] == s) return static_cast<Pace>(i);
  return std::nullopt;
}

std::optional<Fact> parse_fact(std::string_view s) {
  for (std::size_t i = 0; i < k_fact_count; ++i)
    if (k_facts[i].name == s) return static_cast<Fact>(i);
  return std::nullopt;
}

Facts::Facts(const Situation& s) {
  set(Fact::hero, s.hero);
  set(Fact::in_cover, s.in_cover);
  set(Fact::at_halt, s.pace == Pace::halt);
  set(Fact::walking, s.pace == Pace::walk);
  set(Fact::cantering, s.pace == Pace::canter);
  set(Fact::galloping, s.pace == Pace::gallop);
  set(Fact::moving_fast, s.pace == Pace::canter || s.pace == Pace::gallop);
  set(Fact::enemy_in_sight, s.enemy_in_sight || s.enemy_in_range || s.enemy_flank_rear);
  set(Fact::enemy_in_range, s.enemy_in_range);
  set(Fact::raw, s.raw);
  set(Fact::casualties_pct, s.casualties_hundredths);
  set(Fact::enemy_flank_rear, s.enemy_flank_rear);
  set(Fact::ran_last_turn, s.ran_last_turn);
  set(Fact::retreated_from_melee, s.retreated_from_melee);
  set(Fact::in_enemy_range, s.in_enemy_range.value_or(s.enemy_in_range));
}

std::int32_t casualty_hundredths(int lost, int figures) {
  if (figures <= 0 || lost <= 0) return 0;
  return static_cast<std::int32_t>(static_cast<long long>(lost) * 10000 / figures);
}

}  // namespace vedette
