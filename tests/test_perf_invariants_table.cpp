// What the tabletop's eleventh speed pass (issue 32) relies on, checked
// against fresh computations: charge_prospect's corner bearings kept per
// thread (engine/engagement/engagement_charge.cpp) against the same
// questions asked on a new thread, whose table starts empty, at every event
// of real engagements; the tabletop's corners with the kept facing
// direction (engine/board/tabletop.cpp, cover_points and cover_of) against
// corners(); line of sight's hill shortcut against a table whose hills are
// asked the full way; and the gap on the tabletop without the virtual call
// against the board's distance.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
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
    // gap() on the tabletop (Battle::gap_miss reads euclid_cm): the board's own distance.
    for (std::size_t i = 0; i < b.units().size(); ++i)
      for (std::size_t j = 0; j < b.units().size(); ++j) {
        if (i == j) continue;
        const double g = b.board().distance(b.unit(i).pos, b.unit(j).pos).as_cm() - b.footprint(i).depth.as_cm() / 2.0 -
                         b.footprint(j).depth.as_cm() / 2.0;
        CHECK(bits(b.gap(i, j).as_cm()) == bits(std::max(0.0, g)));
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

}  // namespace t_perf_invariants_table
