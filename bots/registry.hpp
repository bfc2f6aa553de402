#pragma once
// The bots a scenario can name for a side, and how they are made.
//   reaction_table       the automated cavalry (seed 002 Actions Table)
//   thinking_cavalry     a scripted cavalry commander to compare against
//   hold_and_shoot       infantry that stays and shoots
//   advance_and_shoot    infantry that closes to its weapon's reach and shoots
//   square_when_charged  infantry that stays, shoots, and forms square when charged
#include <array>
#include <memory>
#include <span>
#include <string>

#include "engine/engagement/policy.hpp"
#include "engine/engagement/scenario.hpp"

namespace vedette {

std::span<const std::string> bot_names();

// Throws std::invalid_argument for a name not in bot_names().
std::unique_ptr<Bot> make_bot(const SideSpec& side);

// One bot per side of a scenario.
struct Players {
  std::array<std::unique_ptr<Bot>, 2> owned;
  std::array<const Bot*, 2> bots() const { return {owned[0].get(), owned[1].get()}; }
};
Players make_players(const Scenario& s);

// load_scenario with the bots above.
ScenarioPtr load_scenario_file(const std::string& path, const std::string& ruleset_override = "");

}  // namespace vedette
