#pragma once
// The fact flags shared by commands that take a unit's situation (`react`,
// `odds`): --hero, --cover, --pace, --galloped, --enemy-in-range, --raw,
// --casualties, --enemy-flank-rear, --ran-last-turn, --retreated-from-melee,
// --type. Registration, and turning them into the engine's Situation and
// UnitState with the same checks and messages everywhere.
#include <optional>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "engine/decision/actions_table.hpp"
#include "engine/core/facts.hpp"
#include "engine/decision/ruleset.hpp"

namespace vedette::cli {

struct FactFlags {
  bool hero = false, cover = false, enemy_in_range = false, raw = false, flank_rear = false;
  bool ran = false, retreated = false;
  std::string pace = "halt";
  std::string casualties;
  std::string type;
  std::optional<int> galloped;  // default: 1 when --pace gallop (it galloped last turn), else 0
};

// Adds the flags to `c`, writing into `f` (which must outlive the parse).
void add_fact_flags(CLI::App* c, FactFlags& f);

// Whether a flag stating a risk-factor fact was given: everything but the
// unit's own state (--pace, --galloped, --type). --ran-last-turn counts unless
// `ran_is_state` (for `odds`, whose chain adds the running modifier itself).
bool any_rf_fact_flag(const FactFlags& f, bool ran_is_state = false);

// "--percentage" as hundredths of a percent: "12.5" -> 1250. Throws UsageError.
std::int32_t parse_percent(const std::string& s);

// The pace, gallop streak and unit type, checked (a streak needs --pace
// gallop; a type must exist; a unit that may never gallop was not galloping).
// Throws UsageError.
UnitState unit_state_from(const Ruleset& r, const FactFlags& f);

// The situation the flags state (pace included). Throws UsageError.
Situation situation_from(const FactFlags& f);

}  // namespace vedette::cli
