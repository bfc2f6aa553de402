// Seed 001's skirmish games in `vedette play` and the balance lab
// (sims/skirmish_cli.hpp). The lab's schema: outcomes = each side wins or a
// draw; metrics = turns, then per side every counter of SkSideOutcome; a
// fear-of-charge funnel per side (checks taken, failed, caught in the
// open); pooled rates (hits per shot, fear checks failed).
#include "sims/skirmish_cli.hpp"

#include <array>
#include <ostream>
#include <string_view>

#include "bots/skirmish_bots.hpp"
#include "engine/diagnostics.hpp"
#include "engine/skirmish.hpp"
#include "sims/lab_adapter.hpp"
#include "sims/play_json.hpp"

namespace vedette::lab {

namespace {

constexpr Counter<SkSideOutcome> k_counters[] = {
    {"figures_out", "figures out of action", &SkSideOutcome::figures_out, MetricKind::losses},
    {"light_wounds", "light wounds", &SkSideOutcome::light_wounds, MetricKind::count},
    {"shots", "shots fired", &SkSideOutcome::shots, MetricKind::count},
    {"hits", "hits scored", &SkSideOutcome::hits, MetricKind::count},
    {"horses_lost", "horses lost (mortally wounded)", &SkSideOutcome::horses_lost, MetricKind::count},
    {"horses_bolted", "unattended horses bolted", &SkSideOutcome::horses_bolted, MetricKind::count},
    {"riders_spilled", "riders spilled or fallen", &SkSideOutcome::riders_spilled, MetricKind::count},
    {"light_wound_falls", "light-wounded riders who fell", &SkSideOutcome::light_wound_falls, MetricKind::count},
    {"mounts", "mountings", &SkSideOutcome::mounts, MetricKind::count},
    {"dismounts", "dismountings", &SkSideOutcome::dismounts, MetricKind::count},
    {"riding_double_moves", "moves riding double", &SkSideOutcome::riding_double_moves, MetricKind::count},
    {"charges", "charges (6in or more into contact)", &SkSideOutcome::charges, MetricKind::count},
    {"fear_checks", "fear of charge checks taken", &SkSideOutcome::fear_checks, MetricKind::count},
    {"fear_failed", "fear of charge checks failed", &SkSideOutcome::fear_failed, MetricKind::count},
    {"caught_in_open", "caught in the open", &SkSideOutcome::caught_in_open, MetricKind::count},
    {"close_combats", "riders' close combats", &SkSideOutcome::close_combats, MetricKind::count},
    {"contact_checks_failed", "ridden-down skill checks failed", &SkSideOutcome::contact_checks_failed, MetricKind::count},
    {"final_charges", "final charges of dying horses", &SkSideOutcome::final_charges, MetricKind::count},
};
Schema skirmish_schema(const SkirmishScenario& s) {
  Schema sc;
  sc.title = s.name;
  add_outcomes_and_turns(sc, s.sides, s.turns);
  std::array<int, 2> figures{};
  for (const auto& f : s.figures) ++figures[f.side];
  add_side_counters(sc, s.sides, figures, k_counters, [](const Counter<SkSideOutcome>& c) { return c.label; });
  for (std::size_t k = 0; k < 2; ++k) {
    auto at = [&](std::string_view id) { return counter_metric(k_counters, k, id); };
    const std::string id = metric_id(s.sides[k].name), name = capitalised(s.sides[k].name);
    sc.funnels.push_back({id + "_fear_of_charge",
                          name + ": fear of charge (seed 001)",
                          {{"checks", "checks taken", at("fear_checks"), -1},
                           {"failed", "failed", at("fear_failed"), 0},
                           {"caught", "caught in the open", at("caught_in_open"), 1}}});
    sc.rates.push_back({id + "_hit_rate", name + ": hits per shot", at("hits"), at("shots")});
    sc.rates.push_back({id + "_fear_failed_rate", name + ": fear of charge checks failed", at("fear_failed"), at("fear_checks")});
  }
  return sc;
}

// One per thread: one game, reset for each (seed, index).
class SkirmishPlayer final : public Player {
 public:
  explicit SkirmishPlayer(const SkirmishScenario& s) : players_(make_skirmish_players(s)), g_(s, players_.bots(), 0, 0) {}
  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    g_.reset(seed, index);
    fill_row(g_.run(), k_counters, row);
  }

 private:
  SkirmishPlayers players_;
  SkirmishGame g_;
};

using SkirmishLab = GameLab<SkirmishScenarioPtr, SkirmishPlayer, skirmish_schema, with_rules>;

}  // namespace

std::unique_ptr<LabScenario> open_skirmish_scenario(const std::string& path) {
  return std::make_unique<SkirmishLab>(load_skirmish_scenario(path));
}

}  // namespace vedette::lab

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
    for (const auto& c : lab::k_counters) j[c.id] = x.*(c.field);
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
