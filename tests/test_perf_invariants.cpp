// What the optimisations of issue 6 rely on, checked against the plain
// computations they replace: the shared prefix of an engagement's streams,
// Battle::depth against the footprint, and the memoised gap and line of
// sight (per pair on the tabletop, per world on hexes, where every unit can
// block) against the board's own answers at every step of real engagements;
// and those of issue 32: the kept charge way (Battle::charge_way) against the
// board's answers, nearest_enemy kept until a unit changes against the
// search on the board's answers, the charge gates' order that lets sight
// be asked last, each unit's reach kept per mount and the occupied hexes
// kept until a unit changes; and the skirmish's (issue 32, fifth pass): within_cm against
// dist_cm <= r, nearest_visible_enemy and enemy_known against plain searches
// at every event of real games.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bots/infantry_bots.hpp"
#include "bots/reaction_bot.hpp"
#include "bots/registry.hpp"
#include "bots/thinking_cavalry.hpp"
#include "bots/skirmish_bots.hpp"
#include "engine/core/dice.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "skirmish_test_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

// Recomputes every pair's gap and sight from the board at each event.
class GeometryCheck final : public Recorder {
 public:
  explicit GeometryCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    if (b.hex()) {
      // Battle::occupied, kept until the engagement changes a unit (issue
      // 32, eleventh pass), against every active unit's hex.
      std::vector<Hex> occupied;
      for (const Unit& u : b.units())
        if (u.active()) occupied.push_back(b.hex()->hex_of(u.pos));
      CHECK(b.occupied() == occupied);
    }
    for (std::size_t i = 0; i < b.units().size(); ++i) {
      CHECK(b.depth(i) == b.footprint(i).depth);
      // Battle::reach, kept per unit and mount (issue 32, eleventh pass),
      // against the rule's expression on the unit as it stands.
      const Unit& u = b.unit(i);
      double reach = 0;
      if (u.profile->weapon && u.active() && !(u.on_horse() && u.type && !u.type->shoots_mounted))
        reach = b.rules().weapons[*u.profile->weapon].reach(u.on_horse() ? b.rules().supplement.mounted_range_band_shift : 0).as_cm();
      CHECK(std::bit_cast<std::uint64_t>(b.reach(i).as_cm()) == std::bit_cast<std::uint64_t>(reach));
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        if (i == j) continue;
        const Point pi = b.unit(i).pos, pj = b.unit(j).pos;
        const double g = b.board().distance(pi, pj).as_cm() - b.footprint(i).depth.as_cm() / 2.0 - b.footprint(j).depth.as_cm() / 2.0;
        CHECK(b.gap(i, j).as_cm() == std::max(0.0, g));
        if (b.board().units_block_sight()) {
          // A hex board: the other active units stand in the way (issue 8).
          std::vector<Point> others;
          for (std::size_t k = 0; k < b.units().size(); ++k)
            if (k != i && k != j && b.unit(k).active()) others.push_back(b.unit(k).pos);
          CHECK(b.sees(i, j) == b.board().line_of_sight_past(pi, pj, others));
        } else {
          CHECK(b.sees(i, j) == b.board().line_of_sight(pi, pj));
        }
        check_way(b, i, j);
        ++checked;
      }
      // nearest_enemy, kept until the engagement changes a unit (issue 32),
      // against the search on the board's own gaps and sight.
      for (bool visible : {false, true}) {
        UnitIndex best = k_no_unit;
        double best_gap = 0;
        for (std::size_t j = 0; j < b.units().size(); ++j) {
          if (!b.unit(j).active() || !b.enemies(i, j)) continue;
          const Point pi = b.unit(i).pos, pj = b.unit(j).pos;
          const double g = std::max(0.0, b.board().distance(pi, pj).as_cm() - b.footprint(i).depth.as_cm() / 2.0 -
                                             b.footprint(j).depth.as_cm() / 2.0);
          if (best != k_no_unit && !(g < best_gap)) continue;
          if (visible) {
            std::vector<Point> others;
            for (std::size_t k = 0; k < b.units().size(); ++k)
              if (k != i && k != j && b.unit(k).active()) others.push_back(b.unit(k).pos);
            if (!(b.board().units_block_sight() ? b.board().line_of_sight_past(pi, pj, others) : b.board().line_of_sight(pi, pj))) continue;
          }
          best = static_cast<UnitIndex>(j);
          best_gap = g;
        }
        CHECK(b.nearest_enemy(i, visible) == best);
      }
    }
  }
  // Battle::charge_way against the board's own answers, as charge_prospect
  // asked them before they were kept (engine/engagement/engagement_charge.cpp).
  static void check_way(const Battle& b, std::size_t i, std::size_t j) {
    const Board& board = b.board();
    const Point from = b.unit(i).pos, to = b.unit(j).pos;
    const Length distance = b.gap(i, j);
    const ChargeWay& w = b.charge_way(i, j, distance);
    const Point d = to - from;
    const double n = norm(d);
    const Point dir = n > 0 ? d * (1.0 / n) : direction(0.0);
    const Point contact = from + dir * distance.as_cm();
    CHECK(std::bit_cast<std::uint64_t>(w.bearing_deg) == std::bit_cast<std::uint64_t>(bearing_deg(from, to)));
    CHECK((w.contact == contact));
    CHECK(w.uphill == board.moves_uphill(from, contact));
    const double into = board.distance(contact, to).as_cm();
    CHECK(w.target_in_terrain == (into > 0 && board.movement_cost(contact, to).as_cm() > into * (1.0 + 1e-9)));
    CHECK(w.cost == board.movement_cost(from, contact));
    CHECK(w.obstacle == board.first_obstacle_crossing(from, contact));
  }
  long checked = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("dice: an engagement's streams share one prefix", "[dice]") {
  for (std::uint64_t seed : {0ULL, 1ULL, 1815ULL, ~0ULL})
    for (std::uint64_t index : {0ULL, 7ULL, 123456789ULL})
      for (Subsystem sub : {Subsystem::decisions, Subsystem::movement, Subsystem::shooting, Subsystem::melee, Subsystem::morale}) {
        Rng a = make_stream(seed, index, sub);
        Rng b = make_stream_from(stream_prefix(seed, index), sub);
        for (int k = 0; k < 8; ++k) CHECK(a() == b());
      }
}

TEST_CASE("perf: memoised gap and sight equal the board's answers throughout engagements", "[perf][engagement][heavy]") {
  vtest::play_signature_scenarios<GeometryCheck>(3, 15, [&](const Scenario&, const GeometryCheck& check) {
    CHECK(check.checked > 100);
  });
}

TEST_CASE("perf: charge_gate asks sight last, so skipping it when another gate refuses gives the same answer", "[perf][charge]") {
  // engine/engagement/engagement_charge.cpp's charge_gate(Battle) relies on
  // it: for every input, with the target unseen the answer is the one given
  // with it seen, unless that answer allowed the charge.
  for (int bits = 0; bits < 128; ++bits)
    for (int turn : {1, 2}) {
      ChargeGateInput in;
      in.when = (bits & 1) ? ChargeWhen::opportunity : ChargeWhen::declare;
      in.turn = turn;
      in.first_turn_allowed = (bits & 2) != 0;
      in.good_order = (bits & 4) != 0;
      in.charged_last_turn = (bits & 8) != 0;
      in.barred_this_turn = (bits & 16) != 0;
      in.moved_this_turn = (bits & 32) != 0;
      in.infantry_against_cavalry = (bits & 64) != 0;
      in.target_visible = true;
      const ChargeGate seen = charge_gate(in);
      in.target_visible = false;
      const ChargeGate unseen = charge_gate(in);
      INFO(bits << " turn " << turn);
      CHECK(!unseen.allowed);
      if (!seen.allowed) {
        CHECK(unseen.rule == seen.rule);
        CHECK(unseen.why == seen.why);
      } else {
        CHECK(unseen.rule == "003-L34-target-visible");
      }
    }
}

namespace {

// Asks every bot that says it makes no opportunity charge whether it would
// make one, for every pair of units at every event, with a command that
// reacted to a "(Charge?)" cell (the most willing one).
class OpportunityCheck final : public Recorder {
 public:
  OpportunityCheck(const Engagement& g, std::vector<const Bot*> bots) : g_(g), bots_(std::move(bots)) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    Command c;
    c.reacted = true;
    for (const Behaviour& h : b.rules().behaviours)
      if (h.charge_possible) c.decision.behaviour = &h;
    for (const Bot* bot : bots_) {
      if (bot->makes_opportunity_charges()) continue;
      for (std::size_t j = 0; j < b.units().size(); ++j)
        for (std::size_t m = 0; m < b.units().size(); ++m) {
          if (j == m) continue;
          INFO(bot->name() << " unit " << j << " mover " << m);
          CHECK_FALSE(bot->opportunity_charge(b, j, m, c));
          ++asked;
        }
    }
  }
  long asked = 0;

 private:
  const Engagement& g_;
  std::vector<const Bot*> bots_;
};

}  // namespace

TEST_CASE("perf: a bot that says it makes no opportunity charges answers no to every one", "[perf][charge]") {
  // Engagement::opportunity_charges asks no charge gate for such a bot's units
  // (engine/engagement/policy.hpp): its no must not depend on the gates.
  BotOptions off;
  off.opportunity_charges = false;
  const ReactionTableBot table_off(off);
  const ThinkingCavalryBot thinking_off(off);
  const InfantryBot hold(InfantryBot::Style::hold_and_shoot, BotOptions{}), advance(InfantryBot::Style::advance_and_shoot, BotOptions{}),
      square(InfantryBot::Style::square_when_charged, BotOptions{}), pikes(InfantryBot::Style::pike_and_shoot, BotOptions{});
  CHECK(ReactionTableBot(BotOptions{}).makes_opportunity_charges());
  CHECK(ThinkingCavalryBot(BotOptions{}).makes_opportunity_charges());
  for (std::string_view file : bench::k_signature_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + std::string(file));
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 5, 0);
    OpportunityCheck check(game, {players.bots()[0], players.bots()[1], &table_off, &thinking_off, &hold, &advance, &square, &pikes});
    game.attach(&check);
    for (std::uint64_t i = 0; i < 4; ++i) {
      game.reset(5, i);
      game.run();
    }
    CHECK(check.asked > 100);
  }
}

TEST_CASE("perf: wrap_deg's shortcut gives the bits fmod gives", "[perf][geometry]") {
  auto reference = [](double deg) {
    double r = std::fmod(deg, 360.0);
    if (r > 180.0) r -= 360.0;
    if (r <= -180.0) r += 360.0;
    return r;
  };
  auto same = [&](double x) { return std::bit_cast<std::uint64_t>(wrap_deg(x)) == std::bit_cast<std::uint64_t>(reference(x)); };
  for (double x : {0.0, -0.0, 180.0, -180.0, 359.999999, 360.0, -360.0, 360.0000001, -359.9999, 720.0, 1e300, -1e-300,
                   std::nextafter(360.0, 0.0), std::nextafter(-360.0, 0.0), std::numeric_limits<double>::infinity()})
    CHECK(same(x));
  CHECK(std::isnan(wrap_deg(std::numeric_limits<double>::quiet_NaN())));
  Rng rng = make_stream(1815, 0, Subsystem::command);
  for (int k = 0; k < 100000; ++k) {
    const double x = (static_cast<double>(rng()) / 4294967296.0 - 0.5) * 2000.0;
    if (!same(x)) FAIL("wrap_deg(" << x << ")");
  }
}

namespace {

// The skirmish's questions asked the plain way (hypot and the board's sight
// for every enemy) at every event of a game.
class SkirmishCheck final : public Recorder {
 public:
  explicit SkirmishCheck(const SkirmishGame& g) : g_(g) {}
  void record(Event) override {
    const auto& figs = g_.figures();
    for (std::size_t f = 0; f < figs.size(); ++f) {
      for (const bool foot_only : {false, true}) {
        int best = -1;
        double bd = 1e300;
        for (std::size_t j = 0; j < figs.size(); ++j) {
          const SkFigure& e = figs[j];
          if (e.side == figs[f].side || !e.active() || (foot_only && e.mounted())) continue;
          const double d = euclid_cm(figs[f].pos, e.pos);
          if (d < bd && g_.sees_point(figs[f].pos, e.pos)) {
            bd = d;
            best = static_cast<int>(j);
          }
        }
        CHECK(g_.nearest_visible_enemy(f, foot_only) == best);
      }
      bool any = false;
      double nearest = 1e300;
      for (std::size_t j = 0; j < figs.size(); ++j) {
        if (figs[j].side == figs[f].side || !figs[j].active()) continue;
        bool known = false;
        for (std::size_t k = 0; k < figs.size(); ++k)
          known = known || (figs[k].side == figs[f].side && figs[k].active() && g_.sees_point(figs[k].pos, figs[j].pos));
        if (!known) continue;
        any = true;
        nearest = std::min(nearest, euclid_cm(figs[f].pos, figs[j].pos));
      }
      double got = -1;
      CHECK(g_.enemy_known(figs[f].side, figs[f].pos) == any);
      CHECK(g_.enemy_known(figs[f].side, figs[f].pos, &got) == any);
      CHECK(std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(nearest));
      ++checked;
    }
  }
  int checked = 0;

 private:
  const SkirmishGame& g_;
};

}  // namespace

TEST_CASE("perf: the skirmish's within_cm answers dist_cm <= r, on the boundary too", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  const SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  Rng rng = make_stream(1815, 0, Subsystem::decisions);
  Dice dice(rng);
  int boundary = 0;
  for (int i = 0; i < 20000; ++i) {
    const Point a{dice.d(100000) * 1e-3, dice.d(100000) * 1e-3};
    const Point b{dice.d(100000) * 1e-3, dice.d(100000) * 1e-3};
    const double d = g.dist_cm(a, b);
    // The distance itself and its neighbours (where squares could disagree),
    // then radii around it.
    for (const double r : {d, std::nextafter(d, 0.0), std::nextafter(d, 1e300), d * (1 + 1e-12), d * (1 - 1e-12), d * 1.5, d * 0.5,
                           dice.d(200) * 1.0, 0.0, -1.0}) {
      CHECK(g.within_cm(a, b, r) == (d <= r));
      boundary += r == d;
    }
  }
  CHECK(boundary >= 20000);
  CHECK(g.within_cm({0, 0}, {3, 4}, 5.0));
  CHECK_FALSE(g.within_cm({0, 0}, {3, 4}, std::nextafter(5.0, 0.0)));
}

TEST_CASE("perf: the skirmish's nearest visible enemy and known enemies equal plain searches throughout games", "[perf][skirmish]") {
  skirmish_test::with_patrol_games<SkirmishCheck>([](const SkirmishCheck& check) { CHECK(check.checked > 1000); });
}

namespace {

// The skirmish's kept cover points (issue 32, sixth pass) against the board's
// cover_of at every event of a game: every figure as seen from every other.
class SkirmishCoverCheck final : public Recorder {
 public:
  explicit SkirmishCoverCheck(const SkirmishGame& g) : g_(g) {}
  void record(Event) override {
    const auto& figs = g_.figures();
    const Tabletop& t = *g_.scenario().foot;
    for (std::size_t f = 0; f < figs.size(); ++f) {
      const Footprint fp{figs[f].pos, figs[f].facing, Length::cm(0.5), Length::cm(0.5)};
      CHECK(g_.figure_cover_at(f) == t.cover_at(figs[f].pos));
      for (std::size_t v = 0; v < figs.size(); ++v) {
        const int want = t.cover_of(fp, figs[v].pos);
        CHECK(g_.cover_of(f, figs[v].pos) == want);
        covered += want > 0;
      }
      ++checked;
    }
    for (std::uint8_t side = 0; side < 2; ++side) {
      std::vector<std::size_t> mine;
      for (std::size_t f = 0; f < figs.size(); ++f)
        if (figs[f].side == side) mine.push_back(f);
      CHECK(g_.side_figures(side) == mine);
    }
  }
  int checked = 0;
  long long covered = 0;

 private:
  const SkirmishGame& g_;
};

}  // namespace

TEST_CASE("perf: the skirmish's kept cover points answer the board's cover_of throughout games", "[perf][skirmish]") {
  skirmish_test::with_patrol_games<SkirmishCoverCheck>([](const SkirmishCoverCheck& check) {
    CHECK(check.checked > 1000);
    CHECK(check.covered > 1000);  // behind the wall and in the buildings
  });
}

// nearest_visible_enemy and enemy_known keep their answers until a figure
// changes (SkirmishGame::moved_); a change made through the set-up's
// edit_figure() counts as one.
TEST_CASE("perf: the skirmish's kept nearest and known enemies follow changes made through edit_figure()", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  const std::size_t f = 8;  // Cpl Ulrich, of the squad
  REQUIRE(g.figures()[f].side == 1);
  const int first = g.nearest_visible_enemy(f);
  REQUIRE(first >= 0);
  REQUIRE(g.enemy_known(1, g.figures()[f].pos));
  g.edit_figure(static_cast<std::size_t>(first), [&](SkFigure& x) { x.health = Health::out; });
  const int second = g.nearest_visible_enemy(f);
  CHECK(second != first);
  REQUIRE(second >= 0);
  g.edit_figure(static_cast<std::size_t>(first), [&](SkFigure& x) { x.health = Health::fit; });
  CHECK(g.nearest_visible_enemy(f) == first);
  g.edit_figure(static_cast<std::size_t>(second), [&](SkFigure& x) { x.pos = g.figures()[f].pos + Point{0, -1}; });
  CHECK(g.nearest_visible_enemy(f) == second);
  for (const std::size_t j : g.side_figures(0)) g.edit_figure(j, [&](SkFigure& x) { x.health = Health::out; });
  CHECK(g.nearest_visible_enemy(f) == -1);
  CHECK_FALSE(g.enemy_known(1, g.figures()[f].pos));
}

// Tabletop::walk takes the bare table's expressions for a path clear of all
// terrain. Against the full loop: the same table with one more area, of cost
// 1 and no cover, over the whole table, which no path is clear of (where
// areas overlap the highest multiplier applies: the same, as every area of
// the table costs at least 1).
TEST_CASE("perf: a walk clear of all terrain costs and ends where the full walk does, to the bit", "[perf][geometry]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  Rng rng = make_stream(1815, 0, Subsystem::movement);
  Dice dice(rng);
  int clear = 0;
  for (const auto& table : {s->foot, s->horse}) {
    for (const TerrainArea& a : table->areas()) REQUIRE(a.move_cost >= 1.0);
    Tabletop full = *table;
    const double w = table->width().as_cm(), d = table->depth().as_cm();
    full.add_area(TerrainArea{"everywhere", Circle{{w / 2, d / 2}, w + d}, 0, 1.0, false});
    auto same = [](Point p, Point q) { return std::bit_cast<std::uint64_t>(p.x) == std::bit_cast<std::uint64_t>(q.x) && std::bit_cast<std::uint64_t>(p.y) == std::bit_cast<std::uint64_t>(q.y); };
    for (int i = 0; i < 20000; ++i) {
      const Point a{dice.d(100000) * w * 1e-5, dice.d(100000) * d * 1e-5};
      // Long moves, and short ones that often stay in the open.
      const double reach = i % 2 ? w : 10.0;
      const Point b{a.x + (dice.d(100001) - 50001) * reach * 2e-5, a.y + (dice.d(100001) - 50001) * reach * 2e-5};
      const double budget = dice.d(400) * 0.1;
      const double cost = table->movement_cost(a, b).as_cm(), want = full.movement_cost(a, b).as_cm();
      CHECK(std::bit_cast<std::uint64_t>(cost) == std::bit_cast<std::uint64_t>(want));
      if (!same(table->move_toward(a, b, Length::cm(budget)), full.move_toward(a, b, Length::cm(budget)))) FAIL("move_toward from " << a.x << "," << a.y << " to " << b.x << "," << b.y);
      clear += cost == euclid_cm(a, b);
    }
  }
  CHECK(clear > 10000);  // most short moves are in the open
}

}  // namespace t_perf_invariants
