// The generic random-engagement test (docs/style.md: OpenSpiel's RandomSimTest):
// every shipped scenario, with its own bots, played with fixed seeds, while
// invariants are checked at every event and after every turn.
#include <catch2/catch.hpp>

#include <dirent.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "engagement_helpers.hpp"
#include "helpers.hpp"

namespace t_engagement_random {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using vtest::find_data;
using vtest::get;

namespace {

constexpr double kEps = 1e-6;

std::vector<std::string> shipped() {
  const std::string dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";
  std::set<std::string> files;
  DIR* d = ::opendir(dir.c_str());
  while (d && ::readdir(d)) {
  }
  if (d) ::closedir(d);
  d = ::opendir(dir.c_str());
  if (!d) return {};
  while (auto* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 5 && n.compare(n.size() - 5, 5, ".yaml") == 0) files.insert(dir + "/" + n);
  }
  ::closedir(d);
  return {files.begin(), files.end()};
}

std::string render(const EventValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        std::ostringstream o;
        if constexpr (std::is_same_v<T, DiceFaces>) {
          for (auto f : x) o << f << ",";
        } else if constexpr (std::is_same_v<T, Terms>) {
          for (const auto& [k, n] : x) o << k << "=" << n << ",";
        } else {
          o << x;
        }
        return o.str();
      },
      v);
}

std::string render(const Event& e) {
  std::string s = std::to_string(e.turn) + "|" + e.phase + "|" + e.kind + "|" + e.unit + "|" + e.text;
  for (const auto& [k, v] : e.data) s += "|" + k + "=" + render(v);
  return s;
}

// Checks each event as it is recorded, against the live battle.
class Checker final : public Recorder {
 public:
  explicit Checker(const Engagement& g) : g_(g) {}
  void record(Event e) override {
    check(e);
    lines.push_back(render(e));
    events.push_back(std::move(e));
  }
  std::vector<std::string> lines;
  std::vector<Event> events;
  int rf_events = 0, moves = 0, charges = 0;

 private:
  const Unit* unit(const std::string& name) const {
    for (const auto& u : g_.battle().units())
      if (u.name == name) return &u;
    return nullptr;
  }

  void check(const Event& e) {
    INFO(e.text);
    const Ruleset& r = g_.battle().rules();
    // No unit moves further than its pace, its move, or its charge allows.
    if (find_data(e, "distance_cm") && find_data(e, "allowance_cm"))
      CHECK(get<double>(e, "distance_cm") <= get<double>(e, "allowance_cm") + kEps);
    if (e.kind == "move") {
      ++moves;
      const Unit* u = unit(e.unit);
      REQUIRE(u);
      const double a = get<double>(e, "allowance_cm");
      const auto pace = parse_pace(get<std::string>(e, "pace"));
      REQUIRE(pace);
      if (a > 0) {
        const bool by_pace = std::abs(a - r.pace_range(*pace).max.as_cm()) < kEps;
        const bool by_move = std::abs(a - u->profile->move.as_cm()) < kEps;
        CHECK((by_pace || by_move));
      }
      // Seed 002: mounted infantry never gallops.
      if (u->type && !u->type->can_gallop) CHECK(*pace != Pace::gallop);
    }
    // An RF always equals the sum of its breakdown.
    if (e.kind == "rf") {
      ++rf_events;
      long long sum = 0;
      for (const auto& [id, v] : get<Terms>(e, "breakdown")) sum += v;
      CHECK(get<long long>(e, "rf") == sum);
    }
    // Nobody charges from inside the minimum distance with charge bonuses.
    if (e.kind == "charge") {
      ++charges;
      if (get<bool>(e, "bonus")) CHECK(get<double>(e, "distance_cm") > get<double>(e, "min_distance_cm"));
      if (get<bool>(e, "reaches")) CHECK(get<double>(e, "distance_cm") <= get<double>(e, "range_cm") + kEps);
    }
  }

  const Engagement& g_;
};

void check_turn(const Engagement& g) {
  const Battle& b = g.battle();
  const Ruleset& r = b.rules();
  std::array<int, 2> lost{};
  for (std::size_t i = 0; i < b.units().size(); ++i) {
    const Unit& u = b.unit(i);
    INFO(u.name << " turn " << b.turn());
    CHECK(u.figures >= 0);  // figures never negative
    CHECK(u.figures <= u.figures_start);
    CHECK(u.horses_lost >= 0);
    CHECK(u.riders_lost >= 0);
    CHECK(u.horses_lost + u.riders_lost <= u.lost());
    CHECK(u.dismounted_riders == u.horses_lost);
    CHECK(u.gallop_streak >= 0);
    CHECK(u.gallop_streak <= r.supplement.gallop_max_turns);  // seed 002: 2 turns in a row at most
    if (u.type && !u.type->can_gallop) CHECK(u.gallop_streak == 0);
    CHECK(b.board().on_board(u.pos));
    CHECK(std::isfinite(u.facing));
    if (u.figures == 0) CHECK_FALSE(u.active());
    lost[u.side] += u.lost();
  }
  for (std::size_t s = 0; s < 2; ++s) {
    const SideOutcome& o = g.outcome().sides[s];
    CHECK(o.figures_lost == lost[s]);
    CHECK(o.charges_launched <= o.charges_declared + 1000);  // opportunity charges are launched undeclared
    CHECK(o.charges_stood + o.charges_broke + o.charges_short <= o.charges_launched);
  }
}

struct Run {
  std::vector<std::string> lines;
  Outcome outcome;
  int rf = 0, moves = 0, charges = 0;
};

Run play(const Scenario& s, std::uint64_t seed) {
  Players p = make_players(s);
  Engagement g(s, p.bots(), seed, 0);
  Checker c(g);
  g.attach(&c);
  while (g.play_turn()) check_turn(g);
  check_turn(g);
  CHECK(g.finished());
  CHECK(g.outcome().turns <= s.turns);
  return {c.lines, g.outcome(), c.rf_events, c.moves, c.charges};
}

}  // namespace

TEST_CASE("engagement: random engagements over every shipped scenario keep the invariants", "[engagement][random]") {
  const auto files = shipped();
  REQUIRE(files.size() >= 5);
  int rf = 0, moves = 0, charges = 0;
  for (const auto& f : files) {
    ScenarioPtr s = load_scenario_file(f);
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      INFO(f << " seed " << seed);
      const Run a = play(*s, seed);
      rf += a.rf;
      moves += a.moves;
      charges += a.charges;
      // The replay is identical when run twice.
      const Run b = play(*s, seed);
      CHECK(a.lines == b.lines);
      CHECK(a.outcome.winner == b.outcome.winner);
      CHECK(a.outcome.turns == b.outcome.turns);
      CHECK(a.outcome.chosen == b.outcome.chosen);
    }
  }
  // The runs did exercise the rules.
  CHECK(rf > 100);
  CHECK(moves > 500);
  CHECK(charges > 10);
}

TEST_CASE("engagement: a recorder changes nothing - without one the outcome is the same", "[engagement][random]") {
  for (const auto& f : shipped()) {
    ScenarioPtr s = load_scenario_file(f);
    Players p = make_players(*s);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      INFO(f << " seed " << seed);
      Engagement quiet(*s, p.bots(), seed, 3);
      const Outcome a = quiet.run();
      Engagement loud(*s, p.bots(), seed, 3);
      EventLog log;
      loud.attach(&log);
      const Outcome b = loud.run();
      CHECK(a.winner == b.winner);
      CHECK(a.turns == b.turns);
      CHECK(a.sides[0].figures_lost == b.sides[0].figures_lost);
      CHECK(a.sides[1].figures_lost == b.sides[1].figures_lost);
      CHECK(a.chosen == b.chosen);
    }
  }
}

TEST_CASE("engagement: different indices under one seed give different engagements", "[engagement][random]") {
  ScenarioPtr s = load_scenario_file(std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/open_field_charge.yaml");
  Players p = make_players(*s);
  std::set<std::string> accounts;
  for (std::uint64_t k = 0; k < 20; ++k) {
    Engagement g(*s, p.bots(), 11, k);
    EventLog log;
    g.attach(&log);
    g.run();
    std::string all;
    for (const auto& e : log.events) all += e.text + "\n";
    accounts.insert(all);
  }
  CHECK(accounts.size() > 10);
}

TEST_CASE("play: the same seed gives the same account, byte for byte, in text and JSON", "[engagement][cli]") {
  const std::string scenario = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/square_test.yaml";
  const auto a = vtest::run_vedette({"play", scenario, "--seed", "42"});
  const auto b = vtest::run_vedette({"play", scenario, "--seed", "42"});
  REQUIRE(a.status == 0);
  CHECK(a.err.empty());
  CHECK(a.out == b.out);
  CHECK(a.out.find("Ruleset: seed-002-cavalry-with-squares; seed 42 (--seed 42 repeats this account)") != std::string::npos);
  CHECK(a.out.find("== Turn 1 of 10 ==") != std::string::npos);
  CHECK(a.out.find("\nOutcome: ") != std::string::npos);
  const auto j1 = vtest::run_vedette({"play", scenario, "--seed", "42", "--json"});
  const auto j2 = vtest::run_vedette({"play", scenario, "--seed", "42", "--json"});
  REQUIRE(j1.status == 0);
  CHECK(j1.out == j2.out);
  CHECK(j1.out.find("\"events\": [") != std::string::npos);
  CHECK(j1.out.find("\"outcome\": {") != std::string::npos);
  CHECK(j1.out.find("\"behaviours_by_band\"") != std::string::npos);
  const auto c = vtest::run_vedette({"play", scenario, "--seed", "43"});
  CHECK(c.out != a.out);
  // A bad scenario: exit 2 and a located message.
  const auto bad = vtest::run_vedette({"play", vtest::data("bad/scenario_unknown_bot.yaml"), "--seed", "1"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("scenario_unknown_bot.yaml:4:29: unknown bot 'reaction_tabel'") != std::string::npos);
  // No seed: one is drawn and printed so the account can be repeated.
  const auto fresh = vtest::run_vedette({"play", scenario});
  CHECK(fresh.status == 0);
  CHECK(fresh.out.find(" repeats this account)") != std::string::npos);
}

}  // namespace t_engagement_random
