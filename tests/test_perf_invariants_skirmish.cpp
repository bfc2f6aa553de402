// What the skirmish's eleventh pass (issue 32) relies on, checked against the
// computations it replaces: answers kept by the exact bits of their
// arguments (BitsMemo, engine/modules/skirmish/skirmish.hpp) for sight
// lines, cover and the end of a move equal a fresh computation, on random
// points asked again and again and at every event of real games; and a
// direct-mapped table whose keys collide answers right whatever it keeps.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bots/skirmish_bots.hpp"
#include "engine/core/dice.hpp"
#include "engine/modules/skirmish/skirmish.hpp"
#include "skirmish_test_util.hpp"

namespace vedette {

// SkirmishGame's friend: its private path_end (kept) and path_end_now (fresh).
struct SkirmishProbe {
  static Point kept(const SkirmishGame& g, std::size_t f, Point from, Point dest, double allowance) { return g.path_end(f, from, dest, allowance); }
  static Point fresh(const SkirmishGame& g, std::size_t f, Point from, Point dest, double allowance) { return g.path_end_now(f, from, dest, allowance); }
  static std::optional<Point> flee_fresh(const SkirmishGame& g, std::size_t f, Point from) { return g.flee_cover_now(f, from); }
};

}  // namespace vedette

namespace t_perf_invariants_skirmish {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool same_bits(Point a, Point b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }

// A few hundred points over village_patrol's 48in table, on a grid fine
// enough to reach into the barn, the cottage, the orchard and behind the
// walls, so that each is asked many times, in many orders.
std::vector<Point> table_points(Dice& dice, int n) {
  std::vector<Point> pts;
  for (int i = 0; i < n; ++i) pts.push_back({dice.d(97) * 1.27, dice.d(97) * 1.27});
  return pts;
}

}  // namespace

TEST_CASE("perf: a BitsMemo whose keys collide answers each key's own value", "[perf][skirmish]") {
  BitsMemo<2, double> memo(1);  // two slots: nearly every key evicts another
  int computed = 0;
  Rng rng = make_stream(1815, 0, Subsystem::decisions);
  Dice dice(rng);
  for (int i = 0; i < 20000; ++i) {
    const double a = dice.d(7) - 4.0, b = dice.d(5) * 0.5;
    const double got = memo.get({a, b}, [&] {
      ++computed;
      return a * 10 + b;
    });
    CHECK(same_bits(got, a * 10 + b));
  }
  CHECK(computed < 20000);  // some kept
  CHECK(computed > 100);    // and many evicted
  // Keys are bits: 0.0 and -0.0 are two keys.
  BitsMemo<1, int> signs(4);
  CHECK(signs.get({0.0}, [] { return 1; }) == 1);
  CHECK(signs.get({-0.0}, [] { return 2; }) == 2);
  CHECK(signs.get({0.0}, [] { return 3; }) == 1);
}

TEST_CASE("perf: the skirmish's sight kept by the points' bits equals the board's line_of_sight", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  const SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  const Tabletop& t = *s->foot;
  Rng rng = make_stream(1815, 0, Subsystem::movement);
  Dice dice(rng);
  const std::vector<Point> pts = table_points(dice, 300);
  int blocked = 0;
  for (int i = 0; i < 60000; ++i) {
    const Point a = pts[static_cast<std::size_t>(dice.d(300) - 1)], b = pts[static_cast<std::size_t>(dice.d(300) - 1)];
    const bool want = t.line_of_sight(a, b);
    CHECK(g.sees_point(a, b) == want);
    CHECK(g.sees_point(a, b) == want);  // kept
    blocked += !want;
  }
  CHECK(blocked > 1000);  // the buildings block many
}

TEST_CASE("perf: the skirmish's cover kept by place, facing and viewer equals the board's cover_of", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  const Tabletop& t = *s->foot;
  Rng rng = make_stream(1815, 0, Subsystem::shooting);
  Dice dice(rng);
  const std::vector<Point> pts = table_points(dice, 200);
  int covered = 0;
  for (int i = 0; i < 30000; ++i) {
    // Figure 8 placed and turned through the set-up; the same places and
    // facings come back, from other viewers.
    const std::size_t f = 8 + static_cast<std::size_t>(i % 2);
    g.edit_figure(f, [&](SkFigure& y) {
      y.pos = pts[static_cast<std::size_t>(dice.d(200) - 1)];
      y.facing = dice.d(8) * 45.0;
    });
    const SkFigure& x = g.figures()[f];
    const Point viewer = pts[static_cast<std::size_t>(dice.d(200) - 1)];
    const int want = t.cover_of(Footprint{x.pos, x.facing, Length::cm(0.5), Length::cm(0.5)}, viewer);
    CHECK(g.cover_of(f, viewer) == want);
    CHECK(g.figure_cover_at(f) == t.cover_at(x.pos));
    covered += want > 0;
  }
  CHECK(covered > 1000);
}

TEST_CASE("perf: the skirmish's kept end of a move equals path_end computed afresh, on foot and mounted", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  const std::size_t rider = 0, foot = 8;  // Lt Adler starts mounted, Cpl Ulrich on foot
  REQUIRE(g.figures()[rider].mounted());
  REQUIRE_FALSE(g.figures()[foot].mounted());
  Rng rng = make_stream(1815, 0, Subsystem::melee);
  Dice dice(rng);
  const std::vector<Point> pts = table_points(dice, 150);
  int differ = 0;
  for (int i = 0; i < 20000; ++i) {
    const Point from = pts[static_cast<std::size_t>(dice.d(150) - 1)], dest = pts[static_cast<std::size_t>(dice.d(150) - 1)];
    const double allowance = dice.d(4) * 2.0 * 2.54;
    const Point on_horse = SkirmishProbe::kept(g, rider, from, dest, allowance);
    const Point on_foot = SkirmishProbe::kept(g, foot, from, dest, allowance);
    if (!same_bits(on_horse, SkirmishProbe::fresh(g, rider, from, dest, allowance))) FAIL("mounted from " << from.x << "," << from.y << " to " << dest.x << "," << dest.y);
    if (!same_bits(on_foot, SkirmishProbe::fresh(g, foot, from, dest, allowance))) FAIL("on foot from " << from.x << "," << from.y << " to " << dest.x << "," << dest.y);
    differ += !same_bits(on_horse, on_foot);
  }
  CHECK(differ > 100);  // the two tables (walls, doors) part them: the key's rider bit matters
}

TEST_CASE("perf: the skirmish's kept cover to flee to equals flee_cover computed afresh", "[perf][skirmish]") {
  const SkirmishScenarioPtr s = load_skirmish_scenario(k_dir + "/skirmish/village_patrol.yaml");
  SkirmishGame g(*s, {nullptr, nullptr}, 1, 0);
  Rng rng = make_stream(1815, 0, Subsystem::morale);
  Dice dice(rng);
  const std::vector<Point> pts = table_points(dice, 60);
  int found = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::size_t f = 8 + static_cast<std::size_t>(i % 3);
    g.edit_figure(f, [&](SkFigure& x) { x.pos = pts[static_cast<std::size_t>(dice.d(60) - 1)]; });
    const Point from = pts[static_cast<std::size_t>(dice.d(60) - 1)];
    const std::optional<Point> got = g.flee_cover(f, from), want = SkirmishProbe::flee_fresh(g, f, from);
    REQUIRE(got.has_value() == want.has_value());
    if (got && !same_bits(*got, *want)) FAIL("flee from " << from.x << "," << from.y);
    found += got.has_value();
  }
  CHECK(found > 1000);
}

namespace {

// Every figure's sight of every other and cover from every other, asked
// through the kept answers, against the board at every event of a game.
class KeptBitsCheck final : public Recorder {
 public:
  explicit KeptBitsCheck(const SkirmishGame& g) : g_(g) {}
  void record(Event) override {
    const auto& figs = g_.figures();
    const Tabletop& t = *g_.scenario().foot;
    for (std::size_t f = 0; f < figs.size(); ++f)
      for (std::size_t v = 0; v < figs.size(); ++v) {
        CHECK(g_.sees_point(figs[v].pos, figs[f].pos) == t.line_of_sight(figs[v].pos, figs[f].pos));
        CHECK(g_.sees(v, f) == t.line_of_sight(figs[v].pos, figs[f].pos));
        const Footprint fp{figs[f].pos, figs[f].facing, Length::cm(0.5), Length::cm(0.5)};
        CHECK(g_.cover_of(f, figs[v].pos) == t.cover_of(fp, figs[v].pos));
        ++checked;
      }
  }
  long long checked = 0;

 private:
  const SkirmishGame& g_;
};

}  // namespace

TEST_CASE("perf: the skirmish's kept sight and cover equal the board's at every event of games", "[perf][skirmish]") {
  skirmish_test::with_patrol_games<KeptBitsCheck>([](const KeptBitsCheck& check) { CHECK(check.checked > 100000); });
}

}  // namespace t_perf_invariants_skirmish
