// One melee as one procedure (engine/procedures/melee_procedure.hpp): the
// order of its dice and what follows them, as the engine and the solo
// session both drive it. The engine's side is held by the bench signature
// (benchmarks/README.md) and the 20,000-engagement scenario hashes
// (tests/test_scenario_hashes.cpp); here, the procedure itself, and the solo
// melee through `vedette solo melee`, which asks it how many dice to roll.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/core/dice.hpp"
#include "engine/decision/charge.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/procedures/combat.hpp"
#include "engine/procedures/melee_procedure.hpp"
#include "helpers.hpp"

namespace t_melee_procedure {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using Kind = MeleeProcedure::Need::Kind;

namespace {

RulesetPtr with_square(int max_battle_dice) {
  auto r = std::make_shared<Ruleset>(*default_ruleset());
  r->charge.infantry_square.enabled = true;
  r->charge.infantry_square.max_battle_dice = max_battle_dice;
  return r;
}

MeleeFacts cavalry_against_foot(const Ruleset& r, int cav_figures, int foot_figures) {
  MeleeFacts f;
  f.attacker = {cav_figures, r.find_unit_type("shock"), true, true};  // charging shock cavalry: +1 (seed 002 L33)
  f.defender = {foot_figures, nullptr, false, false};
  f.attacker_move = Length::cm(20);
  f.defender_move = Length::cm(10);
  f.charge = true;
  f.balance = Length::cm(7);
  return f;
}

}  // namespace

TEST_CASE("melee procedure: both sides roll at once with the attacker's dice first and the charge bonus lowers the need (seed 002 L33)",
          "[melee][procedure][002-L33-shock-charging]") {
  const RulesetPtr r = default_ruleset();
  MeleeProcedure p(*r, cavalry_against_foot(*r, 12, 8));
  auto n = p.next();
  REQUIRE(n.kind == Kind::roll);
  CHECK(n.roll == MeleeRoll::attacker);
  CHECK(n.dice == dice_for(12, r->combat.melee.figures_per_die));
  CHECK(n.need == r->combat.melee.hit - 1);  // the usual need, +1 to each die
  CHECK(n.rule == "002-L33-shock-charging");
  const int na = n.dice;
  std::vector<int> a(static_cast<std::size_t>(na), 6);
  a[0] = 1;  // one miss
  p.roll(MeleeRoll::attacker, a.data(), na);
  n = p.next();
  REQUIRE(n.kind == Kind::roll);
  CHECK(n.roll == MeleeRoll::defender);
  CHECK(n.need == r->combat.melee.hit);  // foot: no modifier
  std::vector<int> d(static_cast<std::size_t>(n.dice), 1);
  p.roll(MeleeRoll::defender, d.data(), n.dice);
  REQUIRE(p.done());
  const MeleeResult& m = p.result();
  CHECK(m.end == MeleeEnd::decided);
  CHECK(m.attacker_hits == na - 1);
  CHECK(m.defender_hits == 0);
  CHECK(m.after.winner == MeleeWinner::attacker);
  // The loser falls back its moves; the victorious charger follows through
  // the balance of its charge move (seed 003 L3).
  CHECK(m.after.defender_back.as_cm() == Approx(10.0 * r->combat.melee.loser_retreat_moves));
  CHECK(m.after.follow_through.as_cm() == Approx(7.0));
}

TEST_CASE("melee procedure: either side's hits may be given first and each once and a tie repulses the attacker",
          "[melee][procedure]") {
  const RulesetPtr r = default_ruleset();
  MeleeProcedure p(*r, cavalry_against_foot(*r, 6, 6));
  p.hits(MeleeRoll::defender, 2);  // the player's count first (the solo session's order)
  CHECK_THROWS_AS(p.hits(MeleeRoll::defender, 1), std::logic_error);
  CHECK(p.next().roll == MeleeRoll::attacker);
  const std::array<int, 2> seven{7, 1};
  CHECK_THROWS_AS(p.roll(MeleeRoll::attacker, seven.data(), p.next().dice), std::out_of_range);
  CHECK_THROWS_AS(p.roll(MeleeRoll::attacker, seven.data(), p.next().dice + 1), std::logic_error);
  p.hits(MeleeRoll::attacker, 2);
  REQUIRE(p.done());
  CHECK(p.result().after.winner == MeleeWinner::tie);
  CHECK(p.result().after.attacker_back.as_cm() == Approx(r->combat.melee.tie_fall_back.as_cm()));
  CHECK_THROWS_AS(p.hits(MeleeRoll::attacker, 0), std::logic_error);
}

TEST_CASE("melee procedure: against a square the square rolls first and a bounce ends it before the cavalry strikes (seed 004)",
          "[melee][procedure][square][004-L41-square-first][004-L44-bounce-flag]") {
  const RulesetPtr r = with_square(1);
  MeleeFacts f = cavalry_against_foot(*r, 12, 8);
  f.form = MeleeForm::square;
  {
    MeleeProcedure p(*r, f);
    const auto n = p.next();
    REQUIRE(n.kind == Kind::roll);
    CHECK(n.roll == MeleeRoll::square_first);
    CHECK(n.dice == 1);  // at most max_battle_dice
    CHECK(n.die == r->charge.infantry_square.die);
    CHECK(n.rule == "004-L41-square-first");
    CHECK_THROWS_AS(p.hits(MeleeRoll::attacker, 1), std::logic_error);  // the cavalry does not strike first
    int flag = 1;
    while (!square_bounces(r->charge, flag)) ++flag;
    p.roll(MeleeRoll::square_first, &flag, 1);
    REQUIRE(p.done());
    CHECK(p.result().end == MeleeEnd::bounced);
    CHECK(p.result().defender_hits == 0);  // a bounce face scores no hit
    CHECK(p.result().square.attacker_back.as_cm() == Approx(20.0 * r->charge.infantry_square.bounce_back_moves));
  }
  {
    // No bounce: the cavalry strikes if the square left it a figure, with at
    // most max_battle_dice dice, then falls back whatever the result.
    MeleeProcedure p(*r, f);
    int hit = 6;
    while (square_bounces(r->charge, hit)) --hit;
    p.roll(MeleeRoll::square_first, &hit, 1);
    REQUIRE(p.next().kind == Kind::fights);
    p.answer_fights(11);
    const auto n = p.next();
    REQUIRE(n.kind == Kind::roll);
    CHECK(n.roll == MeleeRoll::attacker);
    CHECK(n.dice == 1);
    CHECK(n.rule == "004-L46-cavalry-one-die");
    p.hits(MeleeRoll::attacker, 1);
    REQUIRE(p.done());
    CHECK(p.result().end == MeleeEnd::square_repulsed);
    CHECK(p.result().square.attacker_back.as_cm() == Approx(r->combat.melee.tie_fall_back.as_cm()));
    CHECK(p.result().square.square_shaken == (1 > p.result().defender_hits));
  }
  {
    MeleeProcedure p(*r, f);
    p.hits(MeleeRoll::square_first, 1);
    p.answer_fights(0);  // the square's hit took its last figure
    REQUIRE(p.done());
    CHECK(p.result().end == MeleeEnd::attacker_destroyed);
  }
}

TEST_CASE("melee procedure: a player's square faces say the bounce and how many dice may still hit (seed 004)",
          "[melee][procedure][square][004-L44-bounce-flag]") {
  const RulesetPtr r = with_square(2);
  int flag = 1;
  while (!square_bounces(r->charge, flag)) ++flag;
  int plain = 1;
  while (square_bounces(r->charge, plain)) ++plain;
  const SquareFaces both_plain = read_square_faces(*r, {plain, plain});
  CHECK_FALSE(both_plain.bounce);
  CHECK(both_plain.may_hit == 2);
  const SquareFaces one_flag = read_square_faces(*r, {plain, flag});
  CHECK(one_flag.bounce);
  CHECK(one_flag.may_hit == 1);  // a bounce face scores no hit
  CHECK_THROWS_AS(read_square_faces(*r, {}), std::out_of_range);
  CHECK_THROWS_AS(read_square_faces(*r, {plain, plain, plain}), std::out_of_range);  // at most max_battle_dice
  CHECK_THROWS_AS(read_square_faces(*r, {r->charge.infantry_square.die + 1}), std::out_of_range);
  CHECK_THROWS_AS(read_square_faces(*r, {0}), std::out_of_range);

  MeleeFacts f = cavalry_against_foot(*r, 12, 8);
  f.form = MeleeForm::square;
  {
    MeleeProcedure p(*r, f);
    CHECK_THROWS_AS(p.square_faces(one_flag, 2), std::out_of_range);  // two hits from the one die that did not bounce
    p.square_faces(one_flag, 1);
    REQUIRE(p.done());
    CHECK(p.result().end == MeleeEnd::bounced);
    CHECK(p.result().defender_hits == 1);
  }
  {
    MeleeProcedure p(*r, f);
    p.square_faces(both_plain, 2);
    CHECK(p.next().kind == Kind::fights);  // no bounce: the cavalry may still strike
    CHECK(p.result().defender_hits == 2);
  }
}

TEST_CASE("melee procedure: the cavalry's dice against a square are counted from the figures the square's hits left it",
          "[melee][procedure][square][004-L46-cavalry-one-die]") {
  // Two dice at most, a die per figures_per_die figures: a unit brought
  // down to one die's worth of figures strikes with one.
  const RulesetPtr r = with_square(2);
  const int per = r->combat.melee.figures_per_die;
  MeleeFacts f = cavalry_against_foot(*r, per + 1, 8);
  f.form = MeleeForm::square;
  MeleeProcedure p(*r, f);
  p.hits(MeleeRoll::square_first, 1);
  p.answer_fights(per);
  CHECK(p.next().dice == 1);
  MeleeProcedure q(*r, f);
  q.hits(MeleeRoll::square_first, 0);
  q.answer_fights(per + 1);
  CHECK(q.next().dice == 2);
}

TEST_CASE("melee procedure: seed 004's retire and reform: the foot's full dice hit only on the cavalry face",
          "[melee][procedure][004-L8-full-dice][004-L8-cavalry-symbols-only]") {
  const RulesetPtr r = default_ruleset();
  MeleeFacts f;
  f.form = MeleeForm::retire;
  f.attacker = {9, nullptr, false, false};
  f.defender = {6, nullptr, true, false};
  MeleeProcedure p(*r, f);
  const auto n = p.next();
  REQUIRE(n.kind == Kind::roll);
  CHECK(n.dice == dice_for(9, r->combat.melee.figures_per_die));
  CHECK(n.rule == "004-L8-full-dice");
  std::vector<int> faces;
  for (int k = 0; k < n.dice; ++k) faces.push_back(1 + k % 6);
  int want = 0;
  for (int x : faces) want += retire_hit(*r, x);
  p.roll(MeleeRoll::attacker, faces.data(), n.dice);
  REQUIRE(p.done());
  CHECK(p.result().end == MeleeEnd::retired);
  CHECK(p.result().attacker_hits == want);
}

TEST_CASE("melee procedure: thrown from a stream it takes the same dice in the same order as roll_hits", "[melee][procedure]") {
  // The engine throws the attacker's dice, then the defender's, from its
  // melee stream: the hits equal roll_hits on the same stream.
  const RulesetPtr r = default_ruleset();
  const MeleeFacts f = cavalry_against_foot(*r, 12, 10);
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    Rng a = make_stream(seed, 0, Subsystem::melee), b = make_stream(seed, 0, Subsystem::melee);
    Dice da(a), db(b);
    MeleeProcedure p(*r, f);
    std::vector<int> fa, fd;
    p.roll(da, &fa);
    p.roll(da, &fd);
    const MeleeResult& m = p.result();
    CHECK(m.attacker_hits == roll_hits(db, m.attacker.dice, m.attacker.need));
    CHECK(m.defender_hits == roll_hits(db, m.defender.dice, m.defender.need));
    CHECK(static_cast<int>(fa.size()) == m.attacker.dice);
    CHECK(static_cast<int>(fd.size()) == m.defender.dice);
    CHECK(da.rolled() == db.rolled());
  }
}

}  // namespace t_melee_procedure
