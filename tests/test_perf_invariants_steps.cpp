// What issue 32's twelfth pass (the engagement's steps on hex boards) keeps,
// checked against the computations it replaces at every event of real
// engagements of the hex scenarios: move_to_cover's kept nearest covers
// (Engagement::nearest_cover_kept, engine/engagement/engagement_movement.cpp)
// against HexBoard::nearest_cover.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"

namespace t_perf_invariants_steps {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

const std::string k_dir = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios";
constexpr std::string_view k_hex_files[] = {"hex_line_squares.yaml", "hex_line_no_squares.yaml", "hex_horse_artillery.yaml"};

// At each event: every kept nearest cover against the board's own answer,
// to the bit.
class StepsCheck final : public Recorder {
 public:
  explicit StepsCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    for (const auto& m : g_.kept_covers()) {
      if (!m.valid) continue;
      const Point from{std::bit_cast<double>(m.x), std::bit_cast<double>(m.y)};
      const auto want = b.board().nearest_cover(from, Length::cm(std::bit_cast<double>(m.a)), 1);
      REQUIRE(m.cover.has_value() == want.has_value());
      if (want) {
        CHECK(std::bit_cast<std::uint64_t>(m.cover->x) == std::bit_cast<std::uint64_t>(want->x));
        CHECK(std::bit_cast<std::uint64_t>(m.cover->y) == std::bit_cast<std::uint64_t>(want->y));
      }
      ++covers;
    }
  }
  std::size_t covers = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the steps' kept answers equal fresh computations throughout hex engagements", "[perf][engagement][hex]") {
  for (std::string_view file : k_hex_files) {
    INFO(file);
    const ScenarioPtr s = load_scenario_file(k_dir + "/" + std::string(file));
    const Players players = make_players(*s);
    Engagement game(*s, players.bots(), 3, 0);
    StepsCheck check(game);
    game.attach(&check);
    for (std::uint64_t i = 0; i < 20; ++i) {
      game.reset(3, i);
      game.run();
    }
    CHECK(check.covers > 0);
  }
}

}  // namespace t_perf_invariants_steps
