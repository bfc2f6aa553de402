// What issue 32's fourteenth pass (the hex engine's fighting steps) relies
// on, checked against the plain computation at every event of real
// engagements: Battle::combined_arms_dice, kept per ordered pair while the
// world's epoch and the fired and square bits it reads keep their values
// (engine/engagement/battle.hpp, ArmsMemo), equals combined_arms_dice_fresh,
// its dice and its list of artillery, for every ordered pair of units.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_fight14 {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

class ArmsCheck final : public Recorder {
 public:
  explicit ArmsCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    const std::size_t n = b.units().size();
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t t = 0; t < n; ++t) {
        if (t == a) continue;
        const int fresh = b.combined_arms_dice_fresh(a, t, &fresh_list_);
        // Asked twice: the second is a hit of the kept answer when the
        // first kept it (the first may be one kept at an earlier event).
        for (int pass = 0; pass < 2; ++pass) {
          const int kept = b.combined_arms_dice(a, t, &kept_list_);
          if (kept != fresh || kept_list_ != fresh_list_) {
            ++differed;
            CHECK(kept == fresh);
            CHECK(kept_list_ == fresh_list_);
          }
          ++checked;
          if (fresh > 0) ++combined;
        }
      }
    }
  }
  long checked = 0, combined = 0, differed = 0;

 private:
  const Engagement& g_;
  std::vector<UnitIndex> kept_list_, fresh_list_;
};

}  // namespace

TEST_CASE("perf: the kept combined-arms dice equal the fresh computation at every event", "[perf][engagement][hex][blocks]") {
  long combined = 0;
  vtest::play_signature_scenarios<ArmsCheck>(3, 20, [&](const Scenario&, const ArmsCheck& check) {
    CHECK(check.checked > 1000);
    CHECK(check.differed == 0);
    combined += check.combined;
  });
  // Some answers are dice (hex_horse_artillery's battery), not only zeros.
  CHECK(combined > 0);
}

}  // namespace t_perf_invariants_fight14
