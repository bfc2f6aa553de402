// What issue 32's twelfth pass (the cavalry bot's asks) relies on, checked
// against the plain computation it replaces: Battle::situation, whose
// battlefield facts are kept per world in a table across engagements
// (engine/engagement/battle.hpp, the block on the situation kept by world),
// against Battle::situation_fresh at every event of real engagements, on the
// hex boards (where units block sight) and the tabletops.
#include <catch2/catch.hpp>

#include <string>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_asks {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

// Every active unit's situation, kept and fresh, at each event.
class SituationCheck final : public Recorder {
 public:
  explicit SituationCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    for (std::size_t i = 0; i < b.units().size(); ++i) {
      if (!b.unit(i).active()) continue;
      // Asked twice: the second is a hit of the table when the first kept it.
      for (int pass = 0; pass < 2; ++pass) {
        const Situation kept = b.situation(i);
        const Situation fresh = b.situation_fresh(i);
        const bool same = kept.hero == fresh.hero && kept.in_cover == fresh.in_cover && kept.pace == fresh.pace &&
                          kept.enemy_in_sight == fresh.enemy_in_sight && kept.enemy_in_range == fresh.enemy_in_range &&
                          kept.raw == fresh.raw && kept.casualties_hundredths == fresh.casualties_hundredths &&
                          kept.enemy_flank_rear == fresh.enemy_flank_rear && kept.ran_last_turn == fresh.ran_last_turn &&
                          kept.retreated_from_melee == fresh.retreated_from_melee && kept.in_enemy_range == fresh.in_enemy_range;
        // One assertion per ask (millions of them in a sanitized build
        // otherwise); on a difference, each field's, to show which.
        if (!same) {
          ++differed;
          CHECK(kept.in_cover == fresh.in_cover);
          CHECK(kept.enemy_in_sight == fresh.enemy_in_sight);
          CHECK(kept.enemy_in_range == fresh.enemy_in_range);
          CHECK(kept.enemy_flank_rear == fresh.enemy_flank_rear);
          CHECK(kept.in_enemy_range == fresh.in_enemy_range);
          CHECK(same);
        }
        ++checked;
      }
    }
  }
  long checked = 0;
  long differed = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the situation kept by world equals situation_fresh at every event of engagements", "[perf][engagement][hex]") {
  // Enough engagements that worlds recur (every one starts from the same)
  // and the table's entries are taken by other worlds.
  vtest::play_signature_scenarios<SituationCheck>(3, 40, [&](const Scenario&, const SituationCheck& check) {
    CHECK(check.checked > 1000);
    CHECK(check.differed == 0);
  });
}

}  // namespace t_perf_invariants_asks
