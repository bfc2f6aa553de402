#pragma once
// What tests/test_skirmish.cpp and tests/test_skirmish_fear.cpp share: seed
// 001's bench (tests/data/skirmish/bench.yaml under tables/skirmish.yaml),
// a table to put figures on, and a Roller that hands out given faces and
// fails the test if a rule rolls more or fewer dice than the rule says.
// Also, for tests/test_perf_invariants*.cpp: games of village_patrol played
// with a check attached (with_patrol_games).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/diagnostics.hpp"
#include "bots/skirmish_bots.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "helpers.hpp"

namespace skirmish_test {

using namespace vedette;


inline constexpr double k_in = 2.54;
inline Point P(double x_in, double y_in) { return {x_in * k_in, y_in * k_in}; }
inline double in_of(double cm) { return cm / k_in; }

// Hands out these faces, one per roll; a roll beyond them fails the test.
struct Script final : Roller {
  std::vector<int> faces;
  std::vector<int> sides;
  std::size_t at = 0;
  explicit Script(std::vector<int> f = {}) : faces(std::move(f)) {}
  int d(int s) override {
    if (at >= faces.size()) throw std::runtime_error("the rule rolled more dice than scripted (a d" + std::to_string(s) + ")");
    sides.push_back(s);
    return faces[at++];
  }
  bool used_up() const { return at == faces.size(); }
};

enum Fig : std::size_t { R1, R2, R3, P1, F1, F2, F3, G };

inline std::string bench_file() { return vtest::data("skirmish/bench.yaml"); }
inline std::string rules_file() { return std::string(VEDETTE_SOURCE_DIR) + "/tables/skirmish.yaml"; }

inline SkirmishScenarioPtr bench_scenario(const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  SkirmishScenarioPtr s = load_skirmish_scenario(bench_file());
  if (edits.empty()) return s;
  return with_rules(*s, load_ruleset(rules_file(), edits));
}

struct Table {
  SkirmishScenarioPtr s;
  SkirmishGame g;
  EventLog log;
  explicit Table(SkirmishScenarioPtr sc) : s(std::move(sc)), g(*s, {nullptr, nullptr}, 1, 0) { g.attach(&log); }
  Table() : Table(bench_scenario()) {}

  // Puts a figure (with its horse and whoever rides it) at p.
  void put(std::size_t f, Point p) {
    g.edit_figure(f, [&](SkFigure& x) { x.pos = p; });
    const int horse = g.figures()[f].horse;
    if (horse < 0) return;
    const auto hi = static_cast<std::size_t>(horse);
    g.edit_horse(hi, [&](SkHorse& h) { h.pos = p; });
    for (int r : g.horses()[hi].riders)
      if (r >= 0) g.edit_figure(static_cast<std::size_t>(r), [&](SkFigure& x) { x.pos = p; });
  }
  // The horse `f` rides has moved `in` inches heading `dir` in its last action.
  void moving(std::size_t f, double in, double dir = 0) {
    g.edit_horse(static_cast<std::size_t>(g.figures()[f].horse), [&](SkHorse& h) {
      h.moved_cm = in * k_in;
      h.move_dir = dir;
    });
  }
  void act(std::size_t f, SkAction::Kind k, Roller& dice, int target = -1, Point dest = {}) {
    SkAction a;
    a.kind = k;
    a.target = target;
    a.dest = dest;
    g.act(f, a, dice);
  }
  bool said(const std::string& text) const {
    for (const Event& e : log.events)
      if (e.text.find(text) != std::string::npos) return true;
    return false;
  }
  const SkSideOutcome& side(std::size_t k) const { return g.outcome().sides[k]; }
};

inline long long term(const Terms& t, const std::string& id) {
  for (const auto& [k, v] : t)
    if (k == id) return v;
  return 0;
}


// Plays games 0..19 of village_patrol (sims/scenarios/skirmish/) under seed
// 1815 with a Check (a Recorder made from the game) attached, then hands the
// check to `then`.
template <class Check, class Then>
void with_patrol_games(Then then) {
  const SkirmishScenarioPtr s = load_skirmish_scenario(std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/skirmish/village_patrol.yaml");
  const SkirmishPlayers p = make_skirmish_players(*s);
  SkirmishGame g(*s, p.bots(), 1815, 0);
  Check check(g);
  g.attach(&check);
  for (std::uint64_t i = 0; i < 20; ++i) {
    g.reset(1815, i);
    g.run();
  }
  then(check);
}

}  // namespace skirmish_test
