// `vedette play` on seed 001's skirmish scenarios (sims/cli/skirmish_cli.hpp):
// one game told action by action, or as JSON.
#include "sims/cli/skirmish_cli.hpp"

#include <ostream>

#include "bots/skirmish_bots.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "sims/cli/play_json.hpp"
#include "sims/lab/skirmish_model.hpp"

namespace vedette::cli {

int play_skirmish(const std::string& path, const std::string& ruleset, std::uint64_t seed, std::uint64_t index, bool json, Io& io) {
  SkirmishScenarioPtr sp = load_skirmish_scenario(path, ruleset);
  const SkirmishScenario& s = *sp;
  SkirmishPlayers players = make_skirmish_players(s);
  SkirmishGame game(s, players.bots(), seed, index);
  EventLog log;
  game.attach(&log);
  const SkOutcome& out = game.run();
  auto side_json = [](const SkSideOutcome& x) {
    Json j;
    j["figures"] = x.figures;
    for (const auto& c : lab::k_skirmish_counters) j[c.id] = x.*(c.field);
    return j;
  };
  if (json) {
    Json j;
    j["scenario"] = s.name;
    j["file"] = path;
    j["ruleset"] = s.rules->name;
    j["seed"] = seed;
    j["index"] = index;
    j["events"] = events_json(log.events, "figure");
    Json o;
    o["winner"] = out.winner ? Json(s.sides[*out.winner].name) : Json(nullptr);
    o["reason"] = out.reason;
    o["turns"] = out.turns;
    o["sides"] = Json::object();
    for (std::size_t k = 0; k < 2; ++k) o["sides"][s.sides[k].name] = side_json(out.sides[k]);
    j["outcome"] = std::move(o);
    print_json(io.out, j);
    return 0;
  }
  auto& os = io.out;
  os << "Skirmish: " << s.name << " (" << path << ")\n";
  os << "Ruleset: " << s.rules->name << "; seed " << seed;
  if (index) os << ", index " << index;
  os << " (--seed " << seed << " repeats this account)\n";
  for (const auto& sd : s.sides) os << "Side " << sd.name << ": " << sd.bot << ", home edge " << edge_name(sd.edge) << "\n";
  for (const auto& f : s.figures) {
    char at[64];
    std::snprintf(at, sizeof at, "(%.0fin, %.0fin)", f.position.x / 2.54, f.position.y / 2.54);
    os << "  " << f.name << " (" << s.sides[f.side].name << "): skill " << f.skill << ", " << s.sk->weapons[f.weapon].name
       << (f.horse ? ", mounted" : "") << (f.behind.empty() ? "" : ", riding double behind " + f.behind) << ", at " << at << "\n";
  }
  std::string phase;
  for (const Event& e : log.events) {
    if (e.kind == "turn") {
      os << "\n== " << e.text << " ==\n";
      continue;
    }
    os << "   " << e.text << "\n";
  }
  os << "\nOutcome: " << (out.winner ? s.sides[*out.winner].name + " wins" : std::string("draw")) << " after " << out.turns << " turn"
     << (out.turns == 1 ? "" : "s") << " (" << out.reason << ")\n";
  for (std::size_t k = 0; k < 2; ++k) {
    const SkSideOutcome& x = out.sides[k];
    os << "  " << s.sides[k].name << ": " << x.figures_out << " of " << x.figures << " figures out of action, " << x.light_wounds
       << " light wounds; " << x.hits << " hits from " << x.shots << " shots";
    if (x.horses_lost || x.horses_bolted || x.riders_spilled || x.charges)
      os << "; horses lost " << x.horses_lost << ", bolted " << x.horses_bolted << ", riders spilled " << x.riders_spilled << ", charges "
         << x.charges << ", close combats " << x.close_combats << ", final charges " << x.final_charges;
    if (x.fear_checks) os << "; fear of charge checks " << x.fear_checks << ", failed " << x.fear_failed << ", caught in the open " << x.caught_in_open;
    os << "\n";
  }
  return 0;
}

}  // namespace vedette::cli
