// The engagement engine's scenarios (sims/scenarios/*.yaml), seen by the lab:
// an adapter from the engine's Outcome to the lab's OutcomeRow. The schema:
// outcomes = each side wins, or a draw; metrics = turns, then per side every
// counter of SideOutcome; the band x behaviour matrix of the reaction-table
// bot; one charge funnel per side.
#include <algorithm>
#include <array>
#include <string_view>

#include "bots/registry.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/lab/lab_adapter.hpp"

namespace vedette::lab {

namespace {

// SideOutcome's counters, in the order of the CSV columns. Not
// dismounted_riders: the engine counts a rider left on foot with each horse
// lost (engine/engagement/engagement_fighting.cpp), so it would only repeat
// horses_lost.
constexpr Counter<SideOutcome> k_engine_counters[] = {
    {"figures_lost", "figures lost", &SideOutcome::figures_lost, MetricKind::losses},
    {"horses_lost", "horses lost", &SideOutcome::horses_lost, MetricKind::count},
    {"riders_lost", "riders lost", &SideOutcome::riders_lost, MetricKind::count},
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

Schema engine_schema(const Scenario& s) {
  const Ruleset& r = *s.rules;
  Schema sc;
  sc.title = s.name;
  add_outcomes_and_turns(sc, s.sides, s.turns);
  std::array<int, 2> figures{};
  for (const auto& u : s.units) figures[u.side] += u.figures;
  // Seed 004's units are blocks: the same counter, its own word (the id stays, for CSV and JSON readers).
  add_side_counters(sc, s.sides, figures, k_engine_counters, [&](const Counter<SideOutcome>& c) {
    return s.blocks && std::string_view(c.id) == "figures_lost" ? "blocks lost" : c.label;
  });
  for (const auto& b : r.bands) {
    sc.band_ids.push_back(b.id);
    sc.band_labels.push_back(b.label);
  }
  for (const auto& b : r.behaviours) {
    sc.behaviour_ids.push_back(b.id);
    sc.behaviour_labels.push_back(b.text);
  }
  for (std::size_t k = 0; k < 2; ++k) {
    auto at = [&](const char* id) { return counter_metric(k_engine_counters, k, id); };
    sc.funnels.push_back({metric_id(s.sides[k].name) + "_charges",
                          capitalised(s.sides[k].name) + " charges",
                          // Launched is not a part of declared: it also counts
                          // opportunity charges and counter-charges, never declared.
                          {{"declared", "declared", at("charges_declared"), -1},
                           {"launched", "launched, declared or not", at("charges_launched"), -1},
                           {"short", "fell short (shaken)", at("charges_short"), 1},
                           {"stood", "the defender stood", at("charges_stood"), 1},
                           {"broke", "broke the defender", at("charges_broke"), 1},
                           // Repulsed is a part of stood: only a charge the defender stood
                           // meets it in melee, and only a melee repulses (engine/engagement/engagement_fighting.cpp).
                           {"repulsed", "repulsed (of those stood)", at("charges_repulsed"), 3}}});
  }
  return sc;
}

// The same scenario under another ruleset: units keep their profiles by id.
ScenarioPtr engine_with_rules(const Scenario& s, RulesetPtr rules) {
  auto copy = std::make_shared<Scenario>(s);
  copy->rules = rules;
  for (auto& u : copy->units) {
    const std::string& id = s.rules->profiles[u.profile].id;
    const Profile* p = rules->find_profile(id);
    if (!p)
      throw LoadError({rules->sources.empty() ? rules->name : rules->sources.back(), 0, 0},
                      "has no unit profile '" + id + "', which scenario " + s.file + " uses (unit '" + u.name + "')");
    u.profile = static_cast<std::size_t>(p - rules->profiles.data());
  }
  return copy;
}

// One per thread: it keeps one Engagement and resets it for each (seed,
// index), so playing allocates nothing (tests/no_alloc).
class EnginePlayer final : public Player {
 public:
  explicit EnginePlayer(const Scenario& s) : players_(make_players(s)), e_(s, players_.bots(), 0, 0) {}
  void play(std::uint64_t seed, std::uint64_t index, OutcomeRow& row) override {
    e_.reset(seed, index);
    const Outcome& o = e_.run();
    fill_row(o, k_engine_counters, row);
    const std::size_t n = std::min(o.chosen.size(), row.chosen.size());
    std::copy_n(o.chosen.begin(), n, row.chosen.begin());
  }

 private:
  Players players_;
  Engagement e_;
};

using EngineScenario = GameLab<ScenarioPtr, EnginePlayer, engine_schema, engine_with_rules>;

}  // namespace

std::unique_ptr<LabScenario> open_engine_scenario(const std::string& path) {
  return std::make_unique<EngineScenario>(load_scenario_file(path));
}

}  // namespace vedette::lab
