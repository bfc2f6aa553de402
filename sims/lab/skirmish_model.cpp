// Seed 001's skirmish games in the balance lab
// (sims/lab/skirmish_model.hpp). The lab's schema: outcomes = each side wins or a
// draw; metrics = turns, then per side every counter of SkSideOutcome; a
// fear-of-charge funnel per side (checks taken, failed, caught in the
// open); pooled rates (hits per shot, fear checks failed).
#include "sims/lab/skirmish_model.hpp"

#include <array>
#include <string_view>

#include "bots/skirmish_bots.hpp"

namespace vedette::lab {

namespace {

Schema skirmish_schema(const SkirmishScenario& s) {
  Schema sc;
  sc.title = s.name;
  add_outcomes_and_turns(sc, s.sides, s.turns);
  std::array<int, 2> figures{};
  for (const auto& f : s.figures) ++figures[f.side];
  add_side_counters(sc, s.sides, figures, k_skirmish_counters, [](const Counter<SkSideOutcome>& c) { return c.label; });
  for (std::size_t k = 0; k < 2; ++k) {
    auto at = [&](std::string_view id) { return counter_metric(k_skirmish_counters, k, id); };
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
    fill_row(g_.run(), k_skirmish_counters, row);
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
