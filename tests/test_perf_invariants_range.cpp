// What issue 32's thirteenth pass (the bots' charge searches) relies on,
// checked at every event of real engagements: ChargeRangeBound
// (engine/engagement/engagement.hpp) is a necessary condition of
// charge_prospect's reaches (false only where the prospect does not reach),
// and its max_range is the prospect's, for every ordered pair of active
// enemies and every pace, on the hex boards and the tabletops.
#include <catch2/catch.hpp>

#include <string>

#include "bots/registry.hpp"
#include "engine/engagement/engagement.hpp"
#include "perf_invariants_util.hpp"
#include "sims/lab/bench.hpp"

namespace t_perf_invariants_range {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

class RangeCheck final : public Recorder {
 public:
  explicit RangeCheck(const Engagement& g) : g_(g) {}
  void record(Event) override {
    const Battle& b = g_.battle();
    const std::size_t n = b.units().size();
    for (std::size_t i = 0; i < n; ++i) {
      if (!b.unit(i).active()) continue;
      for (const Pace pace : {Pace::halt, Pace::walk, Pace::canter, Pace::gallop}) {
        const ChargeRangeBound range(b, i, pace);
        for (std::size_t t = 0; t < n; ++t) {
          if (t == i || !b.unit(t).active() || !b.enemies(i, t)) continue;
          const ChargeProspect p = charge_prospect(b, i, t, pace);
          const bool may = range.may_reach(b, t, b.gap(i, t));
          // One assertion per difference (millions of asks otherwise).
          if ((p.reaches && !may) || p.max_range.as_cm() != range.max_range().as_cm()) {
            ++differed;
            CHECK(!(p.reaches && !may));
            CHECK(p.max_range.as_cm() == range.max_range().as_cm());
          }
          ++checked;
          if (p.reaches) ++reached;
          if (!may) ++skipped;
        }
      }
    }
  }
  long checked = 0, reached = 0, skipped = 0, differed = 0;

 private:
  const Engagement& g_;
};

}  // namespace

TEST_CASE("perf: the charge range bound never passes over a prospect that reaches", "[perf][engagement][hex]") {
  vtest::play_signature_scenarios<RangeCheck>(3, 10, [&](const Scenario&, const RangeCheck& check) {
    CHECK(check.checked > 1000);
    CHECK(check.differed == 0);
    // The bound answers: some prospects reach, some are passed over.
    CHECK((check.reached > 0 || check.skipped > 0));
  });
}

}  // namespace t_perf_invariants_range
