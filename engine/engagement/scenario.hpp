#pragma once
// Scenario: one engagement's setting, read from sims/scenarios/*.yaml: the
// table and its terrain, two sides with their bots, the units with their
// positions and facings, a turn limit and victory conditions. Loaded and
// validated like a ruleset (every problem located; `vedette check`).
// Immutable once loaded; shared by all simulation threads.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "engine/board/hexboard.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/modules/blocks/seed004.hpp"
#include "engine/board/tabletop.hpp"
#include "engine/board/unit.hpp"

namespace vedette {

// Options a side's bot may read (each bot documents which it uses).
struct BotOptions {
  bool form_square = false;          // infantry: form square when charged by cavalry
  bool retire_and_reform = true;     // cavalry: retire and reform when attacked by infantry
  bool opportunity_charges = true;   // make opportunity charges when the chance comes
  bool charge_without_bonus = true;  // reaction_table: "(Charge?)" also from inside the minimum distance
  std::optional<Length> advance_to;  // advance_and_shoot: stop when the nearest enemy is this close
  int withdraw_at_losses_pct = 34;   // thinking_cavalry: pull back past these losses
};

struct SideSpec {
  std::string name;
  Edge edge = Edge::bottom;  // its own table edge: retire and rout toward it
  std::string bot;
  // "automated" (the side the engine plays for a solo player) or "other": the
  // lab matches sides across scenarios by it (`role:`; default: automated for
  // the side whose bot is reaction_table or thinking_cavalry, other for the rest).
  std::string role;
  BotOptions options;
  int command_cards = -1;    // seed 004 block units: its hand (-1: the table's engagement.command_cards)
  Location where;
};

struct UnitSpec {
  std::string name;
  std::uint8_t side = 0;
  std::size_t profile = 0;  // index into the ruleset's profiles
  int figures = 0;
  Point position;           // cm
  double facing = 0.0;      // degrees
  Formation formation = Formation::line;
  bool hero = false;
  bool raw = false;
  bool mounted = true;      // cavalry only
  Pace pace = Pace::halt;   // cavalry on horse: the pace it moved at last (its first turn's facts)
  std::optional<Hex> hex;   // hex boards: its hex (position is the hex's centre)
  bool artillery = false;   // seed 004 block units: an artillery unit (`artillery: foot|horse`)
  bool horse_artillery = false;
  Location where;
};

struct VictoryCondition {
  enum class Kind : std::uint8_t { side_losses, side_routed, reaches_edge };
  Kind kind = Kind::side_routed;
  std::uint8_t winner = 0;
  std::uint8_t side = 0;       // side_losses, side_routed: whose; reaches_edge: the side of `unit`
  int at_least_pct = 0;        // side_losses
  std::optional<std::size_t> unit;  // reaches_edge: one unit, or any unit of `side`
  Edge edge = Edge::bottom;    // reaches_edge
  std::string text;            // "infantry wins: cavalry loses 50% of its figures"
};

struct Scenario {
  std::string name;
  std::string description;
  std::string file;
  RulesetPtr rules;
  std::shared_ptr<const Tabletop> table;   // the tabletop (null on a hex board)
  // What Battle plays on: the tabletop, or the hex board (`board: {type:
  // hex, ...}`, issue 8), then also in `hex`.
  std::shared_ptr<const Board> board;
  std::shared_ptr<const HexBoard> hex;
  // Seed 004's block units and symbol dice (`blocks: tables/seed004.yaml`,
  // hex boards only): the engagement resolves combat by them
  // (engine/engagement/engagement_blocks.cpp). Null: the figure rules.
  Seed004Ptr blocks;
  std::vector<SideSpec> sides;  // exactly two
  std::vector<UnitSpec> units;
  int turns = 12;
  std::vector<VictoryCondition> victory;  // checked in order at the end of each turn
  std::optional<std::uint8_t> at_turn_limit;  // winner when the turns run out; none = draw

  std::optional<std::uint8_t> find_side(std::string_view name) const;
};

using ScenarioPtr = std::shared_ptr<const Scenario>;

// Is this document a scenario (its first key is `scenario`)?
bool is_scenario_file(const std::string& path);

// Loads and validates a scenario. `bot_names` are the bots a side may name
// (bots/registry.hpp); `ruleset_override` replaces the file's `ruleset:`
// when not empty. Throws LoadError listing every problem found.
ScenarioPtr load_scenario(const std::string& path, std::span<const std::string> bot_names,
                          const std::string& ruleset_override = "");

}  // namespace vedette
