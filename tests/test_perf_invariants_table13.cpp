// What the tabletop's thirteenth speed pass (issue 32) relies on, checked
// against the plain computation it skips: Battle::at_edge's bound (a unit
// whose corners cannot reach the edge is not at it, without the corners'
// sincos: engine/engagement/battle.cpp) against the corners of its
// footprint, at every event of real engagements and on units set up on
// and around every edge of the table at many facings and sizes; and the
// gap asked again after only a depth changed (Battle::PairMemo::dist, the
// distance kept with the positions) against the board's distance, with
// nearest_enemy (whose search reads it) against a fresh search; and
// Tabletop::moves_uphill's early no (no hill breaks the segment) against
// the heights along each segment of a sweep over a table with hills.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "bots/registry.hpp"
#include "engine/board/tabletop.hpp"
#include "engine/engagement/engagement.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_table13 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";
constexpr std::array<Edge, 4> k_edges{Edge::bottom, Edge::top, Edge::left, Edge::right};

// at_edge as it was before the bound: any corner of the footprint within
// 1e-6 cm of the edge.
bool at_edge_fresh(const Battle& b, std::size_t i, Edge e) {
  const auto& t = *b.scenario().table;
  const double w = t.width().as_cm(), d = t.depth().as_cm();
  constexpr double tol = 1e-6;
  for (const Point& c : corners(b.footprint(i))) {
    switch (e) {
      case Edge::bottom: if (c.y <= tol) return true; break;
      case Edge::top: if (c.y >= d - tol) return true; break;
      case Edge::left: if (c.x <= tol) return true; break;
      case Edge::right: if (c.x >= w - tol) return true; break;
    }
  }
  return false;
}

// Every unit at every edge, at each event; counts the answers seen.
class EdgeCheck final : public Recorder {
 public:
  explicit EdgeCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    for (std::size_t i = 0; i < b.units().size(); ++i)
      for (const Edge e : k_edges) {
        const bool kept = b.at_edge(i, e), fresh = at_edge_fresh(b, i, e);
        if (kept != fresh) {
          FAIL_CHECK("at_edge differs: unit " << i << " edge " << static_cast<int>(e));
        }
        ++(fresh ? at : away);
      }
  }
  long at = 0, away = 0;

 private:
  const Engagement& g_;
};

// Every ordered pair's gap and every unit's nearest enemy, kept and fresh,
// at each event; counts the pairs asked again at the same positions after
// a depth changed (the kept distance's case).
class GapCheck final : public Recorder {
 public:
  explicit GapCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    const std::size_t n = b.units().size();
    if (last_.size() != n * n) last_.assign(n * n, Last{});
    for (std::size_t i = 0; i < n; ++i) {
      if (!b.unit(i).active()) continue;
      // nearest_enemy first (its search may keep gaps from the distance),
      // against the first unit in index order with the smallest fresh gap.
      for (const bool visible_only : {false, true}) {
        UnitIndex best = k_no_unit;
        double best_gap = 0;
        for (std::size_t j = 0; j < n; ++j) {
          if (!b.unit(j).active() || !b.enemies(i, j)) continue;
          const double g = fresh_gap(b, i, j);
          if (best != k_no_unit && !(g < best_gap)) continue;
          if (visible_only && !b.sees(i, j)) continue;
          best = static_cast<UnitIndex>(j);
          best_gap = g;
        }
        if (b.nearest_enemy(i, visible_only) != best) FAIL_CHECK("nearest_enemy differs: unit " << i);
      }
      for (std::size_t j = 0; j < n; ++j) {
        if (i == j) continue;
        const double fresh = fresh_gap(b, i, j);
        if (std::bit_cast<std::uint64_t>(b.gap(i, j).as_cm()) != std::bit_cast<std::uint64_t>(fresh))
          FAIL_CHECK("gap differs: units " << i << ", " << j);
        Last& l = last_[i * n + j];
        const Point pi = b.unit(i).pos, pj = b.unit(j).pos;
        const double di = b.footprint(i).depth.as_cm(), dj = b.footprint(j).depth.as_cm();
        if (l.seen && l.pi == pi && l.pj == pj && (l.di != di || l.dj != dj)) ++depth_only;
        l = Last{true, pi, pj, di, dj};
      }
    }
  }
  long depth_only = 0;

 private:
  // gap() from the board's distance and the footprints' depths.
  static double fresh_gap(const Battle& b, std::size_t i, std::size_t j) {
    const double g = b.board().distance(b.unit(i).pos, b.unit(j).pos).as_cm() - b.footprint(i).depth.as_cm() / 2.0 -
                     b.footprint(j).depth.as_cm() / 2.0;
    return std::max(0.0, g);
  }
  struct Last {
    bool seen = false;
    Point pi, pj;
    double di = 0, dj = 0;
  };
  std::vector<Last> last_;
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the gap asked again after a depth changed (the kept distance) is the board's, and nearest_enemy a fresh search's",
          "[perf][table][engagement]") {
  long depth_only = 0;
  for (const char* file : {"mounted_infantry_raid.yaml", "wood_edge.yaml", "square_test.yaml", "pike_charge.yaml", "open_field_charge.yaml"}) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + file);
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 5, 0);
    GapCheck check(game);
    game.attach(&check);
    for (std::uint64_t i = 0; i < 4; ++i) {
      game.reset(5, i);
      game.run();
    }
    depth_only += check.depth_only;
  }
  CHECK(depth_only > 0);  // the kept distance's case did come up
}

TEST_CASE("perf: at_edge's bound answers as the footprint's corners do throughout engagements", "[perf][table][engagement]") {
  long at = 0;
  for (const char* file : {"mounted_infantry_raid.yaml", "wood_edge.yaml", "square_test.yaml", "pike_charge.yaml", "open_field_charge.yaml"}) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + file);
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 5, 0);
    EdgeCheck check(game);
    game.attach(&check);
    for (std::uint64_t i = 0; i < 4; ++i) {
      game.reset(5, i);
      game.run();
    }
    CHECK(check.away > 100);
    at += check.at;
  }
  CHECK(at > 0);  // some unit did reach an edge
}

TEST_CASE("perf: at_edge's bound answers as the footprint's corners do on and around every edge", "[perf][table]") {
  const ScenarioPtr s = load_scenario_file(k_dir + "/mounted_infantry_raid.yaml");
  const double w = s->table->width().as_cm(), d = s->table->depth().as_cm();
  long at = 0, away = 0, differ = 0;
  // Offsets from an edge to either side of a footprint's reach (half its
  // depth plus half its frontage, some cm) and down to the tolerance.
  const std::array<double, 15> offsets{-3.0, -1e-6, 0.0, 1e-7, 1e-6, 2e-6, 0.5, 1.0, 1.7, 2.5, 3.3, 4.0, 5.0, 7.5, 12.0};
  for (const double facing : {0.0, 17.0, 45.0, 90.0, 133.3, 180.0, 225.0, 271.5, 359.9}) {
    for (const int figures : {1, 5, 12}) {
      for (const Formation formation : {Formation::line, Formation::column, Formation::square}) {
        for (const double off : offsets) {
          // Unit 0 near each edge in turn (and at mid-table along it).
          for (const Point p : {Point{w / 2, off}, Point{w / 2, d - off}, Point{off, d / 2}, Point{w - off, d / 2}}) {
            Scenario v = *s;
            v.units[0].position = p;
            v.units[0].facing = facing;
            v.units[0].figures = figures;
            v.units[0].formation = formation;
            const Battle b(v);
            for (const Edge e : k_edges) {
              const bool fresh = at_edge_fresh(b, 0, e);
              if (b.at_edge(0, e) != fresh) ++differ;
              ++(fresh ? at : away);
            }
          }
        }
      }
    }
  }
  CHECK(differ == 0);
  CHECK(at > 100);
  CHECK(away > 100);
}

TEST_CASE("perf: moves_uphill's early no answers as the heights along the segment do", "[perf][geometry]") {
  Tabletop t(Length::cm(120), Length::cm(80));
  t.add_hill({"hill", Circle{{30, 30}, 15}, Length::cm(5), true});
  t.add_hill({"summit", Circle{{30, 30}, 5}, Length::cm(10), true});
  t.add_hill({"ridge", Polygon{{{70, 50}, {100, 55}, {95, 70}, {72, 66}}}, Length::cm(3), true});
  // Uphill, as the heights say: some step along the segment climbs (by more
  // than a rounding), sampled at n points; nullopt where two samplings
  // disagree (a piece shorter than a step: left out).
  auto climbs = [&](Point a, Point b, int n) {
    double prev = t.height_at(a).as_cm();
    for (int k = 1; k <= n; ++k) {
      const double s = static_cast<double>(k) / n;
      const double h = t.height_at(a + (b - a) * s).as_cm();
      if (h > prev + 1e-6) return true;
      prev = h;
    }
    return false;
  };
  // 4,000 samples a segment; 1,000 in the sanitized build, where this case
  // took 86 s of CI's ASan run (tests/CMakeLists.txt: VEDETTE_SANITIZED).
  // The same segments and the same checks: a coarser sampling only leaves
  // out more segments with a piece shorter than a step.
#ifdef VEDETTE_SANITIZED
  constexpr int k_samples = 1000;
#else
  constexpr int k_samples = 4000;
#endif
  long compared = 0, up = 0, differ = 0;
  for (double x0 = 1; x0 < 120; x0 += 7.3)
    for (double y0 = 1; y0 < 80; y0 += 6.1)
      for (double x1 = 2; x1 < 120; x1 += 9.7)
        for (double y1 = 3; y1 < 80; y1 += 8.9) {
          const Point a{x0, y0}, b{x1, y1};
          const bool r1 = climbs(a, b, k_samples), r2 = climbs(a, b, k_samples + 1);
          if (r1 != r2) continue;
          ++compared;
          if (r1) ++up;
          if (t.moves_uphill(a, b) != r1) ++differ;
        }
  INFO(compared << " segments compared, " << up << " uphill, " << k_samples << " samples a segment");
  CHECK(differ == 0);
  CHECK(compared > 10000);
  CHECK(up > 1000);
  CHECK(compared - up > 1000);
}

}  // namespace t_perf_invariants_table13
