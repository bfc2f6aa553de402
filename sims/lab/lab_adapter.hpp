#pragma once
// What the lab's adapters for the two game engines share: unit scenarios
// (sims/lab/engine_model.cpp, Engagement) and seed 001's skirmishes
// (sims/cli/skirmish_cli.cpp, SkirmishGame). Each game has an outcome struct
// with `winner`, `turns` and `sides[2]` of per-side counters; the lab sees
// it as outcomes (each side wins, or a draw) and metrics (turns, then every
// counter of each side), so the schema, the row and the scenario wrapper
// are written once here over the game's types.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "sims/lab/lab_model.hpp"

namespace vedette::lab {

// A per-side counter of a game's side outcome, as a lab metric.
template <class SideOutcome>
struct Counter {
  const char* id;
  const char* label;
  int SideOutcome::*field;
  MetricKind kind;
};

// A side's name as a metric id prefix: letters, digits and '_'.
inline std::string metric_id(const std::string& side) {
  std::string s = side;
  std::replace_if(s.begin(), s.end(), [](char c) { return !(std::isalnum(static_cast<unsigned char>(c)) || c == '_'); }, '_');
  return s;
}

inline std::string capitalised(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// Outcomes "Cavalry wins", "Raiders win" (one per side), then "Draw"; and
// metric 0, the turns played (at most `turns`).
template <class Sides>
void add_outcomes_and_turns(Schema& sc, const Sides& sides, int turns) {
  std::size_t k = 0;
  for (const auto& side : sides) {
    // Its role: the scenario's `role:` where the game has one (unit
    // scenarios, engine/engagement/scenario.cpp); else the first side is
    // the automated one (seed 001's skirmishes list the patrol first).
    std::string role;
    if constexpr (requires { side.role; }) role = side.role;
    if (role.empty()) role = k == 0 ? "automated" : "other";
    ++k;
    sc.side_names.push_back(side.name);
    sc.side_roles.push_back(role);
    sc.outcome_ids.push_back(side.name);
    sc.outcome_labels.push_back(capitalised(side.name) + (side.name.size() > 1 && side.name.back() == 's' ? " win" : " wins"));
  }
  sc.outcome_ids.push_back("draw");
  sc.outcome_labels.push_back("Draw");
  sc.metrics.push_back({"turns", "Turns", MetricKind::turns, turns});
}

// Metrics 1.., side by side: "<side>_<counter id>", labelled "<Side>:
// <label>" (`relabel(counter)` may give another word; the id stays); a
// losses counter is bounded by the side's figures.
template <class SO, std::size_t N, class Sides, class Relabel>
void add_side_counters(Schema& sc, const Sides& sides, std::array<int, 2> figures, const Counter<SO> (&counters)[N], Relabel relabel) {
  sc.metric_side.resize(sc.metrics.size(), -1);  // turns: the engagement's
  sc.metric_counter.resize(sc.metrics.size());
  for (std::size_t k = 0; k < 2; ++k) {
    const std::string id = metric_id(sides[k].name), name = capitalised(sides[k].name);
    for (const auto& c : counters) {
      sc.metric_side.push_back(static_cast<int>(k));
      sc.metric_counter.push_back(c.id);
      sc.metrics.push_back({id + "_" + c.id, name + ": " + std::string(relabel(c)), c.kind, c.kind == MetricKind::losses ? figures[k] : -1});
    }
  }
}

// The metric index of side k's counter `id` (as add_side_counters laid
// them out); 1 if there is none.
template <class SO, std::size_t N>
std::size_t counter_metric(const Counter<SO> (&counters)[N], std::size_t k, std::string_view id) {
  for (std::size_t i = 0; i < N; ++i)
    if (counters[i].id == id) return 1 + k * N + i;
  return 1;
}

// A game's outcome into the lab's row: the winner (2 = a draw), the turns,
// each side's counters.
template <class GameOutcome, class SO, std::size_t N>
void fill_row(const GameOutcome& o, const Counter<SO> (&counters)[N], OutcomeRow& row) {
  row.outcome = o.winner ? *o.winner : 2;
  std::int64_t* m = row.metrics.data();
  m[0] = o.turns;
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < N; ++i) m[1 + k * N + i] = o.sides[k].*(counters[i].field);
}

// A model: the scenario and its schema; `player()` makes a Play for it (one
// per thread).
template <class ScenarioPtr, class Play>
class GameModel final : public Model {
 public:
  GameModel(ScenarioPtr s, Schema schema) : s_(std::move(s)), schema_(std::move(schema)) {}
  const Schema& schema() const override { return schema_; }
  std::unique_ptr<Player> player() const override { return std::make_unique<Play>(*s_); }

 private:
  ScenarioPtr s_;
  Schema schema_;
};

// A loaded scenario as the lab opens it: `schema(scenario)` describes its
// rows, `with_rules(scenario, rules)` is the same scenario under another
// ruleset, and Play plays it.
template <class ScenarioPtr, class Play, auto schema, auto with_rules>
class GameLab final : public LabScenario {
 public:
  explicit GameLab(ScenarioPtr s) : s_(std::move(s)) {
    ruleset_path_ = s_->rules->sources.empty() ? "builtin:default" : s_->rules->sources.back();
  }
  const std::string& name() const override { return s_->name; }
  const std::string& description() const override { return s_->description; }
  const std::string& file() const override { return s_->file; }
  const std::string& ruleset_path() const override { return ruleset_path_; }
  RulesetPtr rules() const override { return s_->rules; }
  std::unique_ptr<Model> model(RulesetPtr rules) const override {
    ScenarioPtr s = !rules || rules == s_->rules ? s_ : ScenarioPtr(with_rules(*s_, rules));
    Schema sc = schema(*s);
    return std::make_unique<GameModel<ScenarioPtr, Play>>(std::move(s), std::move(sc));
  }

 private:
  ScenarioPtr s_;
  std::string ruleset_path_;
};

}  // namespace vedette::lab
