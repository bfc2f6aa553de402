// The engagement engine's scenarios (sims/scenarios/*.yaml), seen by the lab:
// an adapter from the engine's Outcome to the lab's OutcomeRow. The schema:
// outcomes = each side wins, or a draw; metrics = turns, then per side every
// counter of SideOutcome; the band x behaviour matrix of the reaction-table
// bot; one charge funnel per side.
#include <algorithm>
#include <cctype>
#include <iterator>

#include "bots/registry.hpp"
#include "engine/diagnostics.hpp"
#include "engine/engagement.hpp"
#include "sims/lab_model.hpp"

namespace vedette::lab {

namespace {

// SideOutcome's counters, in the order of the CSV columns.
struct Counter {
  const char* id;
  const char* label;
  int SideOutcome::*field;
  MetricKind kind;
};
constexpr Counter k_counters[] = {
    {"figures_lost", "figures lost", &SideOutcome::figures_lost, MetricKind::losses},
    {"horses_lost", "horses lost", &SideOutcome::horses_lost, MetricKind::count},
    {"riders_lost", "riders lost", &SideOutcome::riders_lost, MetricKind::count},
    {"dismounted_riders", "riders left on foot", &SideOutcome::dismounted_riders, MetricKind::count},
    {"routs", "units routed", &SideOutcome::routs, MetricKind::count},
    {"destroyed", "units destroyed", &SideOutcome::destroyed, MetricKind::count},
    {"charges_declared", "charges declared", &SideOutcome::charges_declared, MetricKind::count},
    {"charges_launched", "charges launched", &SideOutcome::charges_launched, MetricKind::count},
    {"charges_short", "charges that fell short", &SideOutcome::charges_short, MetricKind::count},
    {"charges_stood", "charges the defender stood", &SideOutcome::charges_stood, MetricKind::count},
    {"charges_broke", "charges that broke the defender", &SideOutcome::charges_broke, MetricKind::count},
    {"charges_repulsed", "charges repulsed", &SideOutcome::charges_repulsed, MetricKind::count},
    {"squares_formed", "squares formed", &SideOutcome::squares_formed, MetricKind::count},
    {"retire_and_reform", "retire and reform moves", &SideOutcome::retire_and_reform, MetricKind::count},
    {"shooting_hits", "shooting hits scored", &SideOutcome::shooting_hits, MetricKind::count},
    {"melee_hits", "melee hits scored", &SideOutcome::melee_hits, MetricKind::count},
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

Schema engine_schema(const Scenario& s) {
  const Ruleset& r = *s.rules;
  Schema sc;
  sc.title = s.name;
  for (const auto& side : s.sides) {
    sc.outcome_ids.push_back(side.name);
    // "Cavalry wins", "Raiders win".
    sc.outcome_labels.push_back(capitalised(side.name) + (side.name.size() > 1 && side.name.back() == 's' ? " win" : " wins"));
  }
  sc.outcome_ids.push_back("draw");
  sc.outcome_labels.push_back("Draw");
  sc.metrics.push_back({"turns", "Turns", MetricKind::turns, s.turns});
  for (std::size_t k = 0; k < 2; ++k) {
    int figures = 0;
    for (const auto& u : s.units)
      if (u.side == k) figures += u.figures;
    const std::string id = metric_id(s.sides[k].name), name = capitalised(s.sides[k].name);
    for (const auto& c : k_counters) {
      // Seed 004's units are blocks: the same counter, its own word (the id stays, for CSV and JSON readers).
      const std::string label = s.blocks && std::string_view(c.id) == "figures_lost" ? std::string("blocks lost") : std::string(c.label);
      sc.metrics.push_back({id + "_" + c.id, name + ": " + label, c.kind, c.kind == MetricKind::losses ? figures : -1});
    }
  }
  for (const auto& b : r.bands) {
    sc.band_ids.push_back(b.id);
    sc.band_labels.push_back(b.label);
  }
  for (const auto& b : r.behaviours) {
    sc.behaviour_ids.push_back(b.id);
    sc.behaviour_labels.push_back(b.text);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    const std::size_t base = 1 + k * k_per_side;
    auto at = [&](const char* id) {
      for (std::size_t i = 0; i < k_per_side; ++i)
        if (std::string_view(k_counters[i].id) == id) return base + i;
      return base;
    };
    sc.funnels.push_back({metric_id(s.sides[k].name) + "_charges",
                          capitalised(s.sides[k].name) + " charges",
                          // Launched is not a part of declared: it also counts
                          // opportunity charges and counter-charges, never declared.
                          {{"declared", "declared", at("charges_declared"), -1},
                           {"launched", "launched, declared or not", at("charges_launched"), -1},
                           {"short", "fell short (shaken)", at("charges_short"), 1},
                           {"stood", "the defender stood", at("charges_stood"), 1},
                           {"broke", "broke the defender", at("charges_broke"), 1},
                           {"repulsed", "repulsed", at("charges_repulsed"), 1}}});
  }
  return sc;
}

// One per thread: it keeps one Engagement and resets it for each (seed,
// index), so playing allocates nothing (tests/no_alloc).
class EnginePlayer final : public Player {
 public:
  explicit EnginePlayer(const Scenario& s) : players_(make_players(s)), e_(s, players_.bots(), 0, 0) {}
  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    e_.reset(seed, index);
    const Outcome& o = e_.run();
    row.outcome = o.winner ? *o.winner : 2;
    std::int64_t* m = row.metrics.data();
    m[0] = o.turns;
    for (std::size_t k = 0; k < 2; ++k)
      for (std::size_t i = 0; i < k_per_side; ++i) m[1 + k * k_per_side + i] = o.sides[k].*(k_counters[i].field);
    const std::size_t n = std::min(o.chosen.size(), row.chosen.size());
    std::copy_n(o.chosen.begin(), n, row.chosen.begin());
  }

 private:
  Players players_;
  Engagement e_;
};

class EngineModel final : public Model {
 public:
  explicit EngineModel(ScenarioPtr s) : s_(std::move(s)), schema_(engine_schema(*s_)) {}
  const Schema& schema() const override { return schema_; }
  std::unique_ptr<Player> player() const override { return std::make_unique<EnginePlayer>(*s_); }

 private:
  ScenarioPtr s_;
  Schema schema_;
};

class EngineScenario final : public LabScenario {
 public:
  explicit EngineScenario(ScenarioPtr s) : s_(std::move(s)) {
    ruleset_path_ = s_->rules->sources.empty() ? "builtin:default" : s_->rules->sources.back();
  }
  const std::string& name() const override { return s_->name; }
  const std::string& description() const override { return s_->description; }
  const std::string& file() const override { return s_->file; }
  const std::string& ruleset_path() const override { return ruleset_path_; }
  RulesetPtr rules() const override { return s_->rules; }

  // The same scenario under another ruleset: units keep their profiles by id.
  std::unique_ptr<Model> model(RulesetPtr rules) const override {
    if (!rules || rules == s_->rules) return std::make_unique<EngineModel>(s_);
    auto copy = std::make_shared<Scenario>(*s_);
    copy->rules = rules;
    for (auto& u : copy->units) {
      const std::string& id = s_->rules->profiles[u.profile].id;
      const Profile* p = rules->find_profile(id);
      if (!p)
        throw LoadError({rules->sources.empty() ? rules->name : rules->sources.back(), 0, 0},
                        "has no unit profile '" + id + "', which scenario " + s_->file + " uses (unit '" + u.name + "')");
      u.profile = static_cast<std::size_t>(p - rules->profiles.data());
    }
    return std::make_unique<EngineModel>(std::move(copy));
  }

 private:
  ScenarioPtr s_;
  std::string ruleset_path_;
};

}  // namespace

std::unique_ptr<LabScenario> open_engine_scenario(const std::string& path) {
  return std::make_unique<EngineScenario>(load_scenario_file(path));
}

}  // namespace vedette::lab
