// The initiative and the end-of-turn morale step as procedures
// (engine/procedures/turn_procedures.hpp), as the engine and the solo
// session both drive them. The engine's side is held by the bench signature
// and the scenario hashes (tests/test_scenario_hashes.cpp); here, the
// procedures themselves, and the same steps through `vedette solo`.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/turn_procedures.hpp"
#include "helpers.hpp"

namespace t_turn_procedures {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

TEST_CASE("initiative procedure: side 0 rolls then side 1 and each declared charge counts the modifier (seed 003 L24)",
          "[initiative][procedure][003-L24-initiative-minus-2]") {
  const RulesetPtr r = default_ruleset();
  const int dice = r->combat.initiative.dice;
  InitiativeProcedure p(*r, {{2, 0}, -1});
  auto n = p.next();
  REQUIRE(n.kind == InitiativeProcedure::Need::Kind::roll);
  CHECK(n.side == 0);
  CHECK(n.dice == dice);
  CHECK(n.rule == "003-L24-initiative-minus-2");
  std::vector<int> six(static_cast<std::size_t>(dice), 6);
  CHECK_THROWS_AS(p.roll(1, six.data(), dice), std::logic_error);  // side 1 is not asked yet
  CHECK_THROWS_AS(p.roll(0, six.data(), dice + 1), std::logic_error);
  std::vector<int> seven(static_cast<std::size_t>(dice), 7);
  CHECK_THROWS_AS(p.roll(0, seven.data(), dice), std::out_of_range);
  p.roll(0, six.data(), dice);
  CHECK(p.result().roll[0] == 6 * dice);
  CHECK(p.result().total[0] == 6 * dice + 2 * r->charge.declare_initiative_modifier);
  CHECK(p.next().side == 1);
  p.total(1, p.result().total[0]);  // a tie
  REQUIRE(p.done());
  CHECK(p.result().tie);
  CHECK(p.result().first == 0);  // the first turn's tie goes to side 0 (first_to_move)
  InitiativeProcedure q(*r, {{0, 0}, 0});
  q.total(0, 5);
  q.total(1, 5);
  CHECK(q.result().first == 1);  // a tie goes to the side that did not move first last turn
  CHECK_THROWS_AS(q.total(1, 3), std::logic_error);
}

TEST_CASE("initiative procedure: thrown from a stream it takes the same dice in the same order as before", "[initiative][procedure]") {
  const RulesetPtr r = default_ruleset();
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Rng a = make_stream(seed, 0, Subsystem::decisions), b = make_stream(seed, 0, Subsystem::decisions);
    Dice da(a), db(b);
    InitiativeProcedure p(*r, {{1, 0}, -1});
    std::vector<int> f0, f1;
    p.roll(da, &f0);
    p.roll(da, &f1);
    std::array<int, 2> want{};
    for (std::size_t s = 0; s < 2; ++s) {
      int sum = 0;
      for (int k = 0; k < r->combat.initiative.dice; ++k) sum += db.d6();
      want[s] = initiative_total(*r, sum, s == 0 ? 1 : 0);
    }
    CHECK(p.result().total == want);
    CHECK(p.result().first == first_to_move(want, -1));
    CHECK(static_cast<int>(f0.size() + f1.size()) == 2 * r->combat.initiative.dice);
  }
}

TEST_CASE("rally procedure: a unit at the rout threshold routs with no dice and a steady one has nothing to rally from",
          "[rally][procedure]") {
  const RulesetPtr r = default_ruleset();
  const int pct = r->combat.morale.rout_losses_pct;
  RallyProcedure routed(*r, {pct, 100, true});
  CHECK(routed.done());
  CHECK(routed.end() == RallyEnd::routs);
  CHECK(routed.next().kind == RallyProcedure::Need::Kind::done);
  RallyProcedure steady(*r, {pct - 1, 100, false});
  CHECK(steady.end() == RallyEnd::steady);
  const int two[2] = {6, 6};
  CHECK_THROWS_AS(steady.roll(two, 2), std::logic_error);
}

TEST_CASE("rally procedure: an enemy within rally_enemy_clear is asked first and then no dice and else 2D6 against rally_target",
          "[rally][procedure]") {
  const RulesetPtr r = default_ruleset();
  RallyProcedure near(*r, {0, 12, true});
  REQUIRE(near.next().kind == RallyProcedure::Need::Kind::enemy_near);
  const int two[2] = {6, 6};
  CHECK_THROWS_AS(near.roll(two, 2), std::logic_error);  // the question comes first
  near.answer_enemy_near(true);
  CHECK(near.end() == RallyEnd::enemy_near);
  const int need = r->combat.morale.rally_target;
  for (int d1 = 1; d1 <= 6; ++d1)
    for (int d2 = 1; d2 <= 6; ++d2) {
      RallyProcedure p(*r, {0, 12, true});
      p.answer_enemy_near(false);
      REQUIRE(p.next().kind == RallyProcedure::Need::Kind::roll);
      const int f[2] = {d1, d2};
      p.roll(f, 2);
      CHECK(p.end() == (d1 + d2 >= need ? RallyEnd::rallied : RallyEnd::failed));
      CHECK(p.check().total == d1 + d2);
    }
}

}  // namespace t_turn_procedures
