// Seed 001's skirmish games in `vedette play` and the balance lab
// (sims/skirmish_cli.hpp). The lab's schema: outcomes = each side wins or a
// draw; metrics = turns, then per side every counter of SkSideOutcome; a
// fear-of-charge funnel per side (checks taken, failed, caught in the
// open); pooled rates (hits per shot, fear checks failed).
#include "sims/skirmish_cli.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <ostream>

#include "bots/skirmish_bots.hpp"
#include "engine/diagnostics.hpp"
#include "engine/skirmish.hpp"
#include "sims/play_json.hpp"

namespace vedette::lab {

namespace {

struct Counter {
  const char* id;
  const char* label;
  int SkSideOutcome::*field;
  MetricKind kind;
};
constexpr Counter k_counters[] = {
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
constexpr std::size_t k_per_side = std::size(k_counters);

std::string metric_id(const std::string& side) {
  std::string s = side;
  std::replace_if(s.begin(), s.end(), [](char c) { return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_'); }, '_');
  return s;
}

std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

Schema skirmish_schema(const SkirmishScenario& s) {
  Schema sc;
  sc.title = s.name;
  for (const auto& side : s.sides) {
    sc.outcome_ids.push_back(side.name);
    sc.outcome_labels.push_back(capitalised(side.name) + (side.name.size() > 1 && side.name.back() == 's' ? " win" : " wins"));
  }
  sc.outcome_ids.push_back("draw");
  sc.outcome_labels.push_back("Draw");
  sc.metrics.push_back({"turns", "Turns", MetricKind::turns, s.turns});
  for (std::size_t k = 0; k < 2; ++k) {
    int figures = 0;
    for (const auto& f : s.figures)
      if (f.side == k) ++figures;
    const std::string id = metric_id(s.sides[k].name), name = capitalised(s.sides[k].name);
    for (const auto& c : k_counters)
      sc.metrics.push_back({id + "_" + c.id, name + ": " + c.label, c.kind, c.kind == MetricKind::losses ? figures : -1});
  }
  auto at = [&](std::size_t k, std::string_view id) {
    for (std::size_t i = 0; i < k_per_side; ++i)
      if (k_counters[i].id == id) return 1 + k * k_per_side + i;
    return std::size_t{1};
  };
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string id = metric_id(s.sides[k].name), name = capitalised(s.sides[k].name);
    sc.funnels.push_back({id + "_fear_of_charge",
                          name + ": fear of charge (seed 001)",
                          {{"checks", "checks taken", at(k, "fear_checks"), -1},
                           {"failed", "failed", at(k, "fear_failed"), 0},
                           {"caught", "caught in the open", at(k, "caught_in_open"), 1}}});
    sc.rates.push_back({id + "_hit_rate", name + ": hits per shot", at(k, "hits"), at(k, "shots")});
    sc.rates.push_back({id + "_fear_failed_rate", name + ": fear of charge checks failed", at(k, "fear_failed"), at(k, "fear_checks")});
  }
  return sc;
}

class SkirmishPlayer final : public Player {
 public:
  explicit SkirmishPlayer(const SkirmishScenario& s) : players_(make_skirmish_players(s)), g_(s, players_.bots(), 0, 0) {}
  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    g_.reset(seed, index);
    const SkOutcome& o = g_.run();
    row.outcome = o.winner ? *o.winner : 2;
    std::int64_t* m = row.metrics.data();
    m[0] = o.turns;
    for (std::size_t k = 0; k < 2; ++k)
      for (std::size_t i = 0; i < k_per_side; ++i) m[1 + k * k_per_side + i] = o.sides[k].*(k_counters[i].field);
  }

 private:
  SkirmishPlayers players_;
  SkirmishGame g_;
};

class SkirmishModel final : public Model {
 public:
  explicit SkirmishModel(SkirmishScenarioPtr s) : s_(std::move(s)), schema_(skirmish_schema(*s_)) {}
  const Schema& schema() const override { return schema_; }
  std::unique_ptr<Player> player() const override { return std::make_unique<SkirmishPlayer>(*s_); }

 private:
  SkirmishScenarioPtr s_;
  Schema schema_;
};

class SkirmishLab final : public LabScenario {
 public:
  explicit SkirmishLab(SkirmishScenarioPtr s) : s_(std::move(s)) {
    ruleset_path_ = s_->rules->sources.empty() ? "builtin:default" : s_->rules->sources.back();
  }
  const std::string& name() const override { return s_->name; }
  const std::string& description() const override { return s_->description; }
  const std::string& file() const override { return s_->file; }
  const std::string& ruleset_path() const override { return ruleset_path_; }
  RulesetPtr rules() const override { return s_->rules; }
  std::unique_ptr<Model> model(RulesetPtr rules) const override {
    if (!rules || rules == s_->rules) return std::make_unique<SkirmishModel>(s_);
    return std::make_unique<SkirmishModel>(with_rules(*s_, rules));
  }

 private:
  SkirmishScenarioPtr s_;
  std::string ruleset_path_;
};

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
