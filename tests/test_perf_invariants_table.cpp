// What the tabletop's eleventh speed pass (issue 32) relies on, checked
// against fresh computations: charge_prospect's corner bearings kept per
// thread (engine/engagement/engagement_charge.cpp) against the same
// questions asked on a new thread, whose table starts empty, at every event
// of real engagements; the tabletop's corners with the kept facing
// direction (engine/board/tabletop.cpp, cover_points and cover_of) against
// corners(); line of sight's hill shortcut against a table whose hills are
// asked the full way; the gap on the tabletop without the virtual call
// against the board's distance; nearest_enemy (kept while nothing changes,
// Battle::NearestMemo, engine/engagement/battle.hpp) against a search from
// the board's distance (the twelfth pass skips far enemies by a lower
// bound on the gap); the kept unit sizes and the tabletop aspect's kept
// bearing against fresh computations; the kept cover and sight answers
// (Tabletop::TerrainId) against tables built afresh, through changes,
// copies and moves of the terrain; and charge_way's skipped walk back
// against the walk.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <thread>
#include <vector>

#include "bots/registry.hpp"
#include "engine/core/dice.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_table {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// Every ordered pair of active enemies' charge prospect at two paces, as bits.
std::vector<std::uint64_t> prospects(const Battle& b) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < b.units().size(); ++i)
    for (std::size_t j = 0; j < b.units().size(); ++j) {
      if (i == j || !b.unit(i).active() || !b.unit(j).active() || !b.enemies(i, j)) continue;
      for (Pace pace : {Pace::walk, Pace::gallop}) {
        const ChargeProspect p = charge_prospect(b, i, j, pace);
        for (double x : {p.turned_deg, p.bearing_deg, p.max_range.as_cm(), p.min_distance.as_cm(), p.forced_move.as_cm()})
          out.push_back(bits(x));
        out.push_back(static_cast<std::uint64_t>(p.in_range) | static_cast<std::uint64_t>(p.in_arc) << 1 |
                      static_cast<std::uint64_t>(p.reaches) << 2 | static_cast<std::uint64_t>(p.charge_bonus) << 3 |
                      static_cast<std::uint64_t>(p.geometry.morale_check) << 4 | static_cast<std::uint64_t>(p.geometry.in_arc) << 5);
      }
    }
  return out;
}

// Battle::footprint's rectangle computed afresh from the unit and the
// ruleset (the twelfth pass keeps it per unit by its depth key,
// Battle::unit_size): frontage and depth, as bits.
std::pair<std::uint64_t, std::uint64_t> fresh_size(const Battle& b, std::size_t i) {
  const Unit& u = b.unit(i);
  const auto& f = b.rules().combat.formations;
  const Base& base = u.on_horse() ? f.cavalry_base : f.infantry_base;
  const int n = std::max(u.figures, 1);
  int files = 1, ranks = 1;
  switch (u.formation) {
    case Formation::line:
      ranks = std::min(f.line_ranks, n);
      files = (n + ranks - 1) / ranks;
      break;
    case Formation::column:
      files = std::min(f.column_files, n);
      ranks = (n + files - 1) / files;
      break;
    case Formation::square: {
      const int side = std::max(1, (n + 3) / 4);
      const double x = (base.frontage * static_cast<double>(side)).as_cm();
      return {bits(x), bits(x)};
    }
  }
  return {bits((base.frontage * static_cast<double>(files)).as_cm()), bits((base.depth * static_cast<double>(ranks)).as_cm())};
}

// At each event: the prospects asked here (the kept corner bearings warm)
// against the same asked on a new thread (its own table, empty at first).
class ProspectCheck final : public Recorder {
 public:
  explicit ProspectCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    const std::vector<std::uint64_t> warm = prospects(b);
    std::vector<std::uint64_t> cold;
    std::thread th([&] { cold = prospects(b); });
    th.join();
    CHECK(warm == cold);
    // nearest_enemy (kept answers, memoized gaps and sight): the first unit
    // in index order with the smallest gap from the board's own distance,
    // among the seen if asked.
    for (std::size_t i = 0; i < b.units().size(); ++i) {
      if (!b.unit(i).active()) continue;
      for (bool visible_only : {false, true}) {
        const UnitIndex kept = b.nearest_enemy(i, visible_only);
        UnitIndex best = k_no_unit;
        double best_gap = 0;
        for (std::size_t j = 0; j < b.units().size(); ++j) {
          if (!b.unit(j).active() || !b.enemies(i, j)) continue;
          const double g = std::max(0.0, b.board().distance(b.unit(i).pos, b.unit(j).pos).as_cm() -
                                             b.footprint(i).depth.as_cm() / 2.0 - b.footprint(j).depth.as_cm() / 2.0);
          if (best != k_no_unit && !(g < best_gap)) continue;
          if (visible_only && !b.sees(i, j)) continue;
          best = static_cast<UnitIndex>(j);
          best_gap = g;
        }
        CHECK(kept == best);
      }
    }
    // The kept unit sizes (footprint, depth) against fresh ones, and the
    // aspect with the tabletop's kept bearing (Battle::aspect_at) against
    // the board's own (the pair memo warm: asked twice).
    for (std::size_t i = 0; i < b.units().size(); ++i) {
      const Footprint fp = b.footprint(i);
      const auto [frontage, depth] = fresh_size(b, i);
      CHECK(bits(fp.frontage.as_cm()) == frontage);
      CHECK(bits(fp.depth.as_cm()) == depth);
      CHECK(bits(b.depth(i).as_cm()) == depth);
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        if (i == j) continue;
        const Unit& t = b.unit(i);
        const Aspect want = t.in_square() ? Aspect::front : b.board().aspect(t.pos, t.facing, b.unit(j).pos, k_front_half_deg, k_rear_half_deg);
        CHECK(b.aspect_of(i, j) == want);
        CHECK(b.aspect_of(i, j) == want);
      }
    }
    // gap() on the tabletop (Battle::gap_miss reads euclid_cm): the board's own distance.
    for (std::size_t i = 0; i < b.units().size(); ++i)
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        if (i == j) continue;
        const double g = b.board().distance(b.unit(i).pos, b.unit(j).pos).as_cm() - b.footprint(i).depth.as_cm() / 2.0 -
                         b.footprint(j).depth.as_cm() / 2.0;
        CHECK(bits(b.gap(i, j).as_cm()) == bits(std::max(0.0, g)));
      }
    // Battle::charge_way's walk back (skipped on the tabletop when no costly
    // area is near the way): as charge_prospect asked it of the board.
    for (std::size_t i = 0; i < b.units().size(); ++i)
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        if (i == j) continue;
        const Length distance = b.gap(i, j);
        const ChargeWay& w = b.charge_way(i, j, distance);
        const double dist = distance.as_cm();
        std::optional<double> back_at;
        if (dist > 0 && w.cost.as_cm() > dist * (1.0 + 1e-9))
          for (double back = 0; back < dist; back += 0.5)
            if (b.board().special_terrain_at(w.contact - w.dir * back)) {
              back_at = back;
              break;
            }
        CHECK(w.emerges_back_cm == back_at);
      }
    checked += static_cast<long>(warm.size());
  }
  long checked = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: kept corner bearings give charge prospects equal to fresh ones throughout engagements", "[perf][charge][engagement]") {
  for (const char* file : {"mounted_infantry_raid.yaml", "wood_edge.yaml", "square_test.yaml", "pike_charge.yaml", "open_field_charge.yaml"}) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + file);
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 5, 0);
    ProspectCheck check(game);
    game.attach(&check);
    for (std::uint64_t i = 0; i < 3; ++i) {
      game.reset(5, i);
      game.run();
    }
    CHECK(check.checked > 100);
  }
}

TEST_CASE("perf: the tabletop's corners with the kept direction are corners()' bits", "[perf][geometry]") {
  Tabletop t(Length::cm(120), Length::cm(80));
  t.add_obstacle(Obstacle{"wall", {{10, 38}, {70, 38}}, Length::in(1), 1});
  t.add_area(TerrainArea{"wood", Polygon{{{15, 0}, {105, 0}, {105, 25}, {15, 25}}}, 1, 2.0, true});
  Rng rng = make_stream(1815, 0, Subsystem::movement);
  Dice dice(rng);
  // A few facings asked again and again (the kept table), and new ones.
  const double facings[] = {0.0, -0.0, 90.0, 180.0, 190.0, 270.0, 359.999, -45.0, 1e-300, 33.3};
  for (int k = 0; k < 20000; ++k) {
    const double facing = k % 3 ? facings[dice.d(10) - 1] : dice.d(720000) * 1e-3 - 360.0;
    const Footprint f{{dice.d(120000) * 1e-3, dice.d(80000) * 1e-3}, facing, Length::cm(dice.d(400) * 0.1), Length::cm(dice.d(100) * 0.1)};
    const auto want = corners(f);
    const Tabletop::CoverPoints got = t.cover_points(f);
    for (std::size_t c = 0; c < 4; ++c) {
      CHECK(bits(got.at[c].x) == bits(want[c].x));
      CHECK(bits(got.at[c].y) == bits(want[c].y));
    }
    // cover_of (the kept corners) against cover_of_points on corners()' own.
    Tabletop::CoverPoints plain;
    for (std::size_t c = 0; c < 4; ++c) plain.at[c] = want[c];
    plain.at[4] = f.centre;
    for (std::size_t c = 0; c < 5; ++c) plain.level[c] = t.cover_at(plain.at[c]);
    const Point viewer{dice.d(120000) * 1e-3, dice.d(80000) * 1e-3};
    CHECK(t.cover_of(f, viewer) == t.cover_of_points(plain, viewer));
    CHECK(t.cover_of(f, std::nullopt) == t.cover_of_points(plain, std::nullopt));
  }
}

// line_of_sight skips the endpoints' heights when no sight-blocking hill's
// box meets the segment. Against the same table with one more hill, low
// (it never blocks: no higher than any endpoint's ground) and over the whole
// table, so that every segment meets a hill's box and takes the full way.
TEST_CASE("perf: line of sight past hills answers as the full way does", "[perf][geometry]") {
  Tabletop t(Length::cm(120), Length::cm(80));
  t.add_hill(Hill{"knoll", Circle{{100, 60}, 12}, Length::cm(4), true});
  t.add_hill(Hill{"windmill", Circle{{95, 25}, 14}, Length::cm(5), true});
  t.add_hill(Hill{"ridge", Polygon{{{20, 40}, {60, 40}, {60, 50}, {20, 50}}}, Length::cm(3), true});
  t.add_hill(Hill{"bank", Circle{{30, 10}, 8}, Length::cm(2), false});
  Tabletop full = t;
  full.add_hill(Hill{"everywhere", Circle{{60, 40}, 400}, Length::cm(0), true});
  Rng rng = make_stream(1815, 1, Subsystem::movement);
  Dice dice(rng);
  int blocked = 0;
  for (int k = 0; k < 40000; ++k) {
    const Point a{dice.d(130000) * 1e-3 - 5.0, dice.d(90000) * 1e-3 - 5.0};
    const Point b = k % 4 ? Point{dice.d(130000) * 1e-3 - 5.0, dice.d(90000) * 1e-3 - 5.0} : Point{a.x + dice.d(2001) * 1e-3 - 1.0, a.y};
    const bool want = full.line_of_sight(a, b);
    CHECK(t.line_of_sight(a, b) == want);
    blocked += !want;
  }
  CHECK(blocked > 1000);
}

namespace {

// The terrain of the tests below, built afresh (a new table: no answer kept
// for it), with `extra` more items.
Tabletop make_table(int extra) {
  Tabletop t(Length::cm(120), Length::cm(80));
  t.add_obstacle(Obstacle{"wall", {{10, 38}, {70, 38}}, Length::in(1), 1});
  t.add_area(TerrainArea{"wood", Polygon{{{15, 0}, {105, 0}, {105, 25}, {15, 25}}}, 1, 2.0, true});
  t.add_hill(Hill{"windmill", Circle{{95, 45}, 14}, Length::cm(5), true});
  if (extra >= 1) t.add_area(TerrainArea{"copse", Circle{{60, 60}, 9}, 2, 3.0, true});
  if (extra >= 2) t.add_obstacle(Obstacle{"hedge", {{0, 55}, {120, 50}}, Length::in(2), 1});
  if (extra >= 3) t.set_obstacle_cover_reach(Length::in(2));
  return t;
}

struct Asked {
  std::vector<Footprint> units;
  std::vector<Point> viewers;
};

// The same few places asked again and again, so that kept answers are hit.
Asked places(Dice& dice) {
  Asked a;
  for (int k = 0; k < 24; ++k) {
    a.units.push_back(Footprint{{dice.d(120000) * 1e-3, dice.d(80000) * 1e-3}, dice.d(360) * 1.0, Length::cm(dice.d(300) * 0.1), Length::cm(dice.d(80) * 0.1)});
    a.viewers.push_back(Point{dice.d(120000) * 1e-3, dice.d(80000) * 1e-3});
  }
  return a;
}

// t's cover and sight for `n` questions on the places, against fresh tables.
void check_against_fresh(const Tabletop& t, int extra, const Asked& a, Dice& dice, int n) {
  for (int q = 0; q < n; ++q) {
    const Footprint& f = a.units[dice.d(24) - 1];
    const Point v = a.viewers[dice.d(24) - 1];
    const Tabletop fresh = make_table(extra);
    CHECK(t.cover_of(f, v) == fresh.cover_of(f, v));
    CHECK(t.cover_of(f, std::nullopt) == make_table(extra).cover_of(f, std::nullopt));
    CHECK(t.line_of_sight(f.centre, v) == make_table(extra).line_of_sight(f.centre, v));
  }
}

}  // namespace

TEST_CASE("perf: the tabletop's kept cover and sight follow changes, copies and moves of the terrain", "[perf][geometry]") {
  Rng rng = make_stream(1815, 2, Subsystem::movement);
  Dice dice(rng);
  const Asked a = places(dice);
  Tabletop t = make_table(0);
  check_against_fresh(t, 0, a, dice, 400);
  // Each change of the terrain: the answers kept for the old one no longer apply.
  t.add_area(TerrainArea{"copse", Circle{{60, 60}, 9}, 2, 3.0, true});
  check_against_fresh(t, 1, a, dice, 400);
  t.add_obstacle(Obstacle{"hedge", {{0, 55}, {120, 50}}, Length::in(2), 1});
  check_against_fresh(t, 2, a, dice, 400);
  // A copy shares the terrain, then goes its own way.
  Tabletop c = t;
  check_against_fresh(c, 2, a, dice, 200);
  c.set_obstacle_cover_reach(Length::in(2));
  check_against_fresh(c, 3, a, dice, 400);
  check_against_fresh(t, 2, a, dice, 200);
  // A move: the moved-to table answers for the terrain, the moved-from one
  // for what is left of it (nothing).
  Tabletop m = std::move(c);
  check_against_fresh(m, 3, a, dice, 200);
  const Tabletop bare(Length::cm(120), Length::cm(80));
  for (std::size_t k = 0; k < a.units.size(); ++k) {
    CHECK(c.cover_of(a.units[k], a.viewers[k]) == bare.cover_of(a.units[k], a.viewers[k]));  // NOLINT(bugprone-use-after-move)
    CHECK(c.line_of_sight(a.units[k].centre, a.viewers[k]) == bare.line_of_sight(a.units[k].centre, a.viewers[k]));  // NOLINT(bugprone-use-after-move)
  }
  c = make_table(1);  // a moved-from table given terrain again
  check_against_fresh(c, 1, a, dice, 200);
}

TEST_CASE("perf: no special terrain along a segment special_terrain_may_meet clears", "[perf][geometry]") {
  const Tabletop t = make_table(1);
  Rng rng = make_stream(1815, 3, Subsystem::movement);
  Dice dice(rng);
  int cleared = 0;
  for (int k = 0; k < 4000; ++k) {
    const Point a{dice.d(130000) * 1e-3 - 5.0, dice.d(90000) * 1e-3 - 5.0};
    const Point b = k % 2 ? Point{dice.d(130000) * 1e-3 - 5.0, dice.d(90000) * 1e-3 - 5.0} : Point{a.x + dice.d(20001) * 1e-3 - 10.0, a.y + dice.d(20001) * 1e-3 - 10.0};
    if (t.special_terrain_may_meet(a, b)) continue;
    ++cleared;
    const double len = euclid_cm(a, b);
    const Point dir = len > 0 ? (b - a) * (1.0 / len) : Point{};
    for (double s = 0; s < len; s += 0.25) CHECK_FALSE(t.special_terrain_at(a + dir * s));
    CHECK_FALSE(t.special_terrain_at(b));
  }
  CHECK(cleared > 500);
}

}  // namespace t_perf_invariants_table
