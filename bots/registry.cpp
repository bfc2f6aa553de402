#include "bots/registry.hpp"

#include <stdexcept>

#include "bots/infantry_bots.hpp"
#include "bots/reaction_bot.hpp"
#include "bots/thinking_cavalry.hpp"

namespace vedette {

std::span<const std::string> bot_names() {
  static const std::array<std::string, 6> names{"reaction_table", "thinking_cavalry", "hold_and_shoot", "advance_and_shoot",
                                                "square_when_charged", "pike_and_shoot"};
  return names;
}

std::unique_ptr<Bot> make_bot(const SideSpec& side) {
  const std::string& n = side.bot;
  if (n == "reaction_table") return std::make_unique<ReactionTableBot>(side.options);
  if (n == "thinking_cavalry") return std::make_unique<ThinkingCavalryBot>(side.options);
  if (n == "hold_and_shoot") return std::make_unique<InfantryBot>(InfantryBot::Style::hold_and_shoot, side.options);
  if (n == "advance_and_shoot") return std::make_unique<InfantryBot>(InfantryBot::Style::advance_and_shoot, side.options);
  if (n == "square_when_charged") return std::make_unique<InfantryBot>(InfantryBot::Style::square_when_charged, side.options);
  if (n == "pike_and_shoot") return std::make_unique<InfantryBot>(InfantryBot::Style::pike_and_shoot, side.options);
  throw std::invalid_argument("no bot named '" + n + "'");
}

Players make_players(const Scenario& s) {
  Players p;
  for (std::size_t i = 0; i < 2 && i < s.sides.size(); ++i) p.owned[i] = make_bot(s.sides[i]);
  return p;
}

ScenarioPtr load_scenario_file(const std::string& path, const std::string& ruleset_override) {
  return load_scenario(path, bot_names(), ruleset_override);
}

}  // namespace vedette
