// `vedette play`: one engagement of a scenario, told turn by turn.
#include <memory>
#include <ostream>
#include <variant>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/cli/cli.hpp"
#include "sims/cli/play_json.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "sims/cli/skirmish_cli.hpp"

namespace vedette::cli {

namespace {

struct PlayOptions {
  std::string scenario;
  std::string ruleset;
  std::optional<std::uint64_t> seed;
  std::uint64_t index = 0;
  bool json = false;
};

Json value_json(const EventValue& v) {
  return std::visit(
      [](const auto& x) -> Json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Terms>) {
          Json o = Json::object();
          for (const auto& [k, n] : x) o[k] = n;
          return o;
        } else {
          return Json(x);
        }
      },
      v);
}

Json side_json(const SideOutcome& s) {
  return Json{{"units", s.units},
              {"figures_start", s.figures_start},
              {"figures_lost", s.figures_lost},
              {"horses_lost", s.horses_lost},
              {"riders_lost", s.riders_lost},
              {"dismounted_riders", s.dismounted_riders},
              {"routs", s.routs},
              {"destroyed", s.destroyed},
              {"charges", {{"declared", s.charges_declared},
                           {"launched", s.charges_launched},
                           {"short", s.charges_short},
                           {"stood", s.charges_stood},
                           {"broke", s.charges_broke},
                           {"repulsed", s.charges_repulsed}}},
              {"squares_formed", s.squares_formed},
              {"retire_and_reform", s.retire_and_reform},
              {"shooting_hits", s.shooting_hits},
              {"melee_hits", s.melee_hits}};
}

Json outcome_json(const Scenario& s, const Outcome& o) {
  const Ruleset& r = *s.rules;
  Json j;
  j["winner"] = o.winner ? Json(s.sides[*o.winner].name) : Json(nullptr);
  j["reason"] = o.reason;
  j["turns"] = o.turns;
  j["sides"] = Json::object();
  for (std::size_t k = 0; k < 2; ++k) j["sides"][s.sides[k].name] = side_json(o.sides[k]);
  Json bands = Json::object();
  for (std::size_t b = 0; b < o.bands; ++b) {
    Json row = Json::object();
    for (std::size_t h = 0; h < o.behaviours; ++h)
      if (o.chosen_at(b, h)) row[r.behaviours[h].id] = o.chosen_at(b, h);
    if (!row.empty()) bands[r.bands[b].id] = row;
  }
  j["behaviours_by_band"] = bands;
  return j;
}

void print_outcome(std::ostream& out, const Scenario& s, const Outcome& o) {
  const Ruleset& r = *s.rules;
  out << "\nOutcome: " << (o.winner ? s.sides[*o.winner].name + " wins" : std::string("draw")) << " after " << o.turns << " turn"
      << (o.turns == 1 ? "" : "s") << " (" << o.reason << ")\n";
  for (std::size_t k = 0; k < 2; ++k) {
    const SideOutcome& x = o.sides[k];
    out << "  " << s.sides[k].name << ": lost " << x.figures_lost << " of " << x.figures_start << " figures";
    if (x.horses_lost || x.riders_lost) out << " (" << x.horses_lost << " horses, " << x.riders_lost << " riders)";
    out << "; routs " << x.routs << ", destroyed " << x.destroyed << "; charges declared " << x.charges_declared << ", launched "
        << x.charges_launched << ", short " << x.charges_short << ", stood " << x.charges_stood << ", broke " << x.charges_broke
        << ", repulsed " << x.charges_repulsed << "; squares formed " << x.squares_formed << "\n";
  }
  bool any = false;
  for (std::size_t b = 0; b < o.bands; ++b)
    for (std::size_t h = 0; h < o.behaviours; ++h)
      if (o.chosen_at(b, h)) {
        if (!any) out << "  Actions Table choices:\n";
        any = true;
        out << "    " << r.bands[b].label << ": " << r.behaviours[h].id << " x" << o.chosen_at(b, h) << "\n";
      }
}

int run_play(const PlayOptions& o, Io& io) {
  if (is_skirmish_file(o.scenario))  // seed 001's figure-by-figure game (sims/cli/skirmish_cli.hpp)
    return play_skirmish(o.scenario, o.ruleset, o.seed ? *o.seed : fresh_seed(), o.index, o.json, io);
  ScenarioPtr sp = load_scenario_file(o.scenario, o.ruleset);
  const Scenario& s = *sp;
  const std::uint64_t seed = o.seed ? *o.seed : fresh_seed();
  Players players = make_players(s);
  Engagement game(s, players.bots(), seed, o.index);
  EventLog log;
  game.attach(&log);
  game.run();
  const Outcome& out = game.outcome();

  if (o.json) {
    Json j;
    j["scenario"] = s.name;
    j["file"] = o.scenario;
    j["ruleset"] = s.rules->name;
    j["seed"] = seed;
    j["index"] = o.index;
    j["sides"] = Json::array();
    for (const auto& sd : s.sides) j["sides"].push_back({{"name", sd.name}, {"bot", sd.bot}, {"edge", std::string(edge_name(sd.edge))}});
    j["events"] = events_json(log.events, "unit");
    j["outcome"] = outcome_json(s, out);
    print_json(io.out, j);
    return 0;
  }

  auto& os = io.out;
  os << "Scenario: " << s.name << " (" << o.scenario << ")\n";
  if (!s.description.empty()) os << "  " << s.description << "\n";
  os << "Ruleset: " << s.rules->name << "; seed " << seed;
  if (o.index) os << ", index " << o.index;
  os << " (--seed " << seed << " repeats this account)\n";
  for (const auto& sd : s.sides) os << "Side " << sd.name << ": " << sd.bot << ", home edge " << edge_name(sd.edge) << "\n";
  for (const UnitSpec& u : s.units) {
    const Profile& p = s.rules->profiles[u.profile];
    os << "  " << u.name << " (" << s.sides[u.side].name << "): " << p.name;
    if (u.artillery) os << (u.horse_artillery ? ", horse artillery" : ", foot artillery");
    os << ", " << u.figures << (s.blocks ? " blocks, " : " figures, ") << formation_name(u.formation) << (u.hero ? ", hero" : "")
       << (u.raw ? ", raw" : "");
    if (u.hex) {
      os << ", on hex [" << HexBoard::col_of(*u.hex) << ", " << u.hex->r << "]";
    } else {
      os << ", at (" << format_length_prose(Length::cm(u.position.x), s.rules->units) << ", "
         << format_length_prose(Length::cm(u.position.y), s.rules->units) << ")";
    }
    os << " facing " << format_number(u.facing) << "\n";
  }
  std::string phase;
  for (const Event& e : log.events) {
    if (e.kind == "turn") {
      os << "\n== " << e.text << " ==\n";
      phase.clear();
      continue;
    }
    if (e.phase != phase && e.phase != "end") {
      phase = e.phase;
      os << " " << phase << ":\n";
    }
    os << (e.phase == "end" ? " " : "   ") << e.text << "\n";
  }
  print_outcome(os, s, out);
  return 0;
}

}  // namespace

void add_play(CLI::App& app, Runner& run) {
  auto o = std::make_shared<PlayOptions>();
  auto* c = app.add_subcommand("play", "Play one engagement of a scenario and tell it turn by turn.");
  c->add_option("scenario", o->scenario, "Scenario YAML file (sims/scenarios/*.yaml)")->required();
  c->add_option("--seed", o->seed, "Seed for the dice: the same seed gives the same account, byte for byte")
      ->check(unsigned_number());
  c->add_option("--index", o->index, "Engagement index under the seed (as the Monte Carlo harness numbers them)")
      ->check(unsigned_number());
  c->add_option("--ruleset", o->ruleset, "Ruleset YAML file instead of the scenario's");
  c->add_flag("--json", o->json, "Print the events and the outcome as JSON");
  c->callback([o, &run] { run = [o](Io& io) { return run_play(*o, io); }; });
}

Json events_json(const std::vector<Event>& events, const char* who) {
  Json ev = Json::array();
  for (const Event& e : events) {
    Json x;
    x["turn"] = e.turn;
    x["phase"] = e.phase;
    x["kind"] = e.kind;
    if (!e.unit.empty()) x[who] = e.unit;
    x["text"] = e.text;
    for (const auto& [k, v] : e.data) x[k] = value_json(v);
    ev.push_back(std::move(x));
  }
  return ev;
}

}  // namespace vedette::cli
