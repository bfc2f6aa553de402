// What issue 32's fourteenth pass (the movement step and sight) relies on,
// checked at every event of real engagements on the bench's signature
// scenarios: the world of sight Battle::sync_world keeps up to date in part
// (only the units that moved are looked up again; each side's list of
// active units is updated in place while none left or came back) is what
// the units make afresh, and the bearing the pair memo keeps
// (Battle::pair_bearing, which move_unit now asks on the tabletop too) has
// the bits of bearing_deg of the two positions; and Tabletop::line_of_sight,
// which now answers true without its kept answers where no sight-blocking
// area's or hill's box meets the segment, is its computation's answer.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "bots/registry.hpp"
#include "engine/board/tabletop.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_move14 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

class MoveCheck final : public Recorder {
 public:
  explicit MoveCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    // One assertion per difference (hundreds of thousands of asks otherwise).
    if (!b.world_matches_fresh()) {
      ++world_differed;
      CHECK(b.world_matches_fresh());
    }
    ++worlds;
    // The kept places' bits (Engagement::place_bits; hex_go moves its
    // unit's bit itself), where they are current.
    if (g_.place_bits_current()) {
      ++places;
      if (!g_.place_bits_match_fresh()) {
        ++place_differed;
        CHECK(g_.place_bits_match_fresh());
      }
    }
    const std::size_t n = b.units().size();
    const auto* table = dynamic_cast<const Tabletop*>(&b.board());
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t t = 0; t < n; ++t) {
        if (t == i || !b.unit(i).active() || !b.unit(t).active()) continue;
        if (table) {
          const Point pa = b.unit(i).pos, pb = b.unit(t).pos;
          if (table->line_of_sight(pa, pb) != table->line_of_sight_fresh(pa, pb)) {
            ++sight_differed;
            CHECK(table->line_of_sight(pa, pb) == table->line_of_sight_fresh(pa, pb));
          }
          ++sights;
        }
        const double kept = b.kept_bearing(i, t);
        const double fresh = bearing_deg(b.unit(i).pos, b.unit(t).pos);
        if (std::bit_cast<std::uint64_t>(kept) != std::bit_cast<std::uint64_t>(fresh)) {
          ++bearing_differed;
          CHECK(kept == fresh);
        }
        ++bearings;
      }
    }
  }
  long worlds = 0, world_differed = 0, places = 0, place_differed = 0, bearings = 0, bearing_differed = 0, sights = 0, sight_differed = 0;

 private:
  const Engagement& g_;
};

}  // namespace

// The bound before the table is a function of the segment and the terrain
// alone: every pair of a grid of points over each signature tabletop (units
// seldom stand with a sight-blocking area between them), both ways.
TEST_CASE("perf: the tabletop's sight bound answers as the computation on a grid of segments", "[perf][board]") {
  long checked = 0, blocked = 0, differed = 0;
  for (std::string_view file : bench::k_signature_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + std::string(file));
    const auto* table = dynamic_cast<const Tabletop*>(s->board.get());
    if (!table) continue;
    std::vector<Point> grid;
    for (int gx = 0; gx <= 12; ++gx)
      for (int gy = 0; gy <= 12; ++gy) grid.push_back(Point{table->width().as_cm() * gx / 12.0, table->depth().as_cm() * gy / 12.0});
    for (const Point a : grid)
      for (const Point b : grid) {
        const bool fresh = table->line_of_sight_fresh(a, b);
        if ((a == b ? true : fresh) != table->line_of_sight(a, b)) {
          ++differed;
          CHECK(fresh == table->line_of_sight(a, b));
        }
        ++checked;
        if (!fresh) ++blocked;
      }
  }
  CHECK(checked > 10000);
  CHECK(blocked > 100);  // some segments are blocked: the check can tell
  CHECK(differed == 0);
}

TEST_CASE("perf: the kept world of sight, the kept bearings and the tabletop's sight are the fresh ones", "[perf][engagement][hex]") {
  vtest::play_signature_scenarios<MoveCheck>(3, 10, [&](const Scenario& s, const MoveCheck& check) {
    CHECK(check.worlds > 100);
    CHECK(check.bearings > 1000);
    CHECK(check.world_differed == 0);
    CHECK(check.place_differed == 0);
    if (s.hex && s.blocks) CHECK(check.places > 100);
    CHECK(check.bearing_differed == 0);
    CHECK(check.sight_differed == 0);
    if (s.hex) CHECK(check.sights == 0);
    else CHECK(check.sights > 1000);
  });
}

}  // namespace t_perf_invariants_move14
