// Seed 001 (man-to-man skirmish cavalry): one golden test per rule, each
// citing it, on tests/data/skirmish/bench.yaml under tables/skirmish.yaml,
// with the dice scripted (tests/skirmish_test_util.hpp). Fear of charge,
// close combat, the final charge and whole games here; movement, dismounts,
// firing from horseback and mounted targets in tests/test_skirmish.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "bots/skirmish_bots.hpp"
#include "skirmish_test_util.hpp"

namespace t_skirmish_fear {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace skirmish_test;

TEST_CASE("skirmish: seed 001, fear of charge - a 6in move into contact is a charge: infantry within 4in in the open take a gut check") {
  Table t;
  t.put(R1, P(30, 2));
  t.put(F1, P(30, 10));   // the target, 8in off
  t.put(F2, P(33, 9));    // within 4in of the path
  t.put(F3, P(40, 10));   // 10in off the path: no check
  // Gut checks in figure order: F1 passes (10), F2 passes (5); then the
  // contact: F1 in the open, skill check passes (1); hand to hand: rider
  // 10 + 0 - 4, rifleman 5 + 1: a tie.
  Script dice({10, 5, 1, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(0).charges == 1);
  CHECK(t.side(1).fear_checks == 2);
  CHECK(t.side(1).fear_failed == 0);
  CHECK(t.side(0).close_combats == 1);
}

TEST_CASE("skirmish: seed 001, fear of charge - failing, the man moves up to 4in toward +5 cover", "[001-L13-flee]") {
  Table t;
  t.put(R1, P(43, 28));
  t.put(F1, P(43, 36.5));  // 3.5in short of the shed (cover 5)
  // F1's gut check fails (11 > 10): he runs into the shed; the rider
  // finishes its move toward him but the shed has no large door: no contact.
  Script dice({11});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.g.building_at(t.g.figures()[F1].pos) == 1);
  CHECK(t.g.dist_cm(t.g.figures()[F1].pos, P(43, 36.5)) <= 4 * k_in + 1e-6);
  CHECK(t.side(1).fear_failed == 1);
  CHECK(t.side(1).caught_in_open == 0);
  CHECK(t.side(0).close_combats == 0);
}

TEST_CASE("skirmish: seed 001, fear of charge - cover 4.5in away is out of his 4in: he runs 4in and is caught", "[001-L13-flee]") {
  Table t;
  t.put(R1, P(43, 27));
  t.put(F1, P(43, 35.5));  // 4.5in short of the shed (cover 5)
  // F1's gut check fails (11 > 10): he runs 4in toward the shed and is
  // caught in the open; the rider, 8in on, falls short of him.
  Script dice({11});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).caught_in_open == 1);
  CHECK(t.g.building_at(t.g.figures()[F1].pos) != 1);
  CHECK(t.g.dist_cm(t.g.figures()[F1].pos, P(43, 35.5)) == Approx(4 * k_in).margin(1e-3));
}

TEST_CASE("skirmish: seed 001, fear of charge - with no +5 cover within 4in he is caught in the open") {
  Table t;
  t.put(R1, P(30, 2));
  t.put(F1, P(30, 10));
  // Gut check fails (15); the nearest +5 cover is the barn, 28in off: he
  // runs 4in toward it and is caught in the open; the rider, finishing its
  // move toward him, falls short.
  Script dice({15});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).caught_in_open == 1);
  CHECK(t.g.dist_cm(t.g.figures()[F1].pos, P(30, 10)) == Approx(4 * k_in).margin(1e-3));
  CHECK(t.side(0).close_combats == 0);
}

TEST_CASE("skirmish: seed 001, fear of charge - no check in +5 cover, prone not counted", "[001-L13-gut-check]") {
  Table t;
  t.put(R1, P(10, 13.5));
  t.put(F1, P(10, 21));   // behind the stone wall (+5) as the rider comes
  t.put(F2, P(13, 17));   // in front of it, prone: still in the open
  t.g.edit_figure(F2, [&](SkFigure& x) { x.prone = true; });
  // Only F2 checks (5 passes); contact with F1: behind the wall, in cover:
  // no skill check, straight to hand to hand (a tie).
  Script dice({5, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).fear_checks == 1);
}

TEST_CASE("skirmish: seed 001, fear of charge - within 4in of the ride checks, 4.5in off does not", "[001-L13-gut-check]") {
  Table t;
  t.put(R1, P(30, 2));
  t.put(F1, P(30, 10));    // the target
  t.put(F2, P(33.5, 8));   // 3.5in off the ride: checks
  t.put(F3, P(34.5, 6));   // 4.5in off it: no check
  // F1 and F2 check (1, 1); contact F1: skill check (1), hand to hand (a tie).
  Script dice({1, 1, 1, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).fear_checks == 2);
}

TEST_CASE("skirmish: seed 001, fear of charge - a move under 6in into contact is no charge", "[001-L13-charge-six]") {
  Table t;
  t.put(R1, P(30, 6));
  t.put(F1, P(30, 10));   // 4in
  t.put(F2, P(32, 9));
  // No gut checks: the skill check on contact (1), hand to hand (a tie).
  Script dice({1, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(0).charges == 0);
  CHECK(t.side(1).fear_checks == 0);
  CHECK(t.side(0).close_combats == 1);
  // At the limit: a ride of 5.5in is no charge, one of 6in is (the ride
  // stops 0.99in short of the target's centre, rules' contact 1in).
  auto ride = [](double from_y, std::vector<int> faces) {
    Table u;
    u.put(R1, P(30, from_y));
    u.put(F1, P(30, 10));
    Script d(std::move(faces));
    u.act(R1, SkAction::Kind::charge, d, F1);
    CHECK(d.used_up());
    return std::pair<int, int>{u.side(0).charges, u.side(1).fear_checks};
  };
  CHECK(ride(10 - 6.49, {1, 10, 5}) == std::pair<int, int>{0, 0});     // 5.5in: skill check, hand to hand
  CHECK(ride(10 - 6.995, {1, 1, 10, 5}) == std::pair<int, int>{1, 1});  // 6.005in: gut check first
}

TEST_CASE("skirmish: seed 001, fear of charge - one check per charge, not per horse", "[skirmish][001-L13-per-charge]") {
  SECTION("per: turn - two riders charging in a turn are one charge") {
    Table t(bench_scenario({{"skirmish.fear_of_charge.per", "turn"}}));
    t.put(R1, P(30, 2));
    t.put(R2, P(33, 2));
    t.put(F1, P(30, 10));
    t.put(F2, P(33, 10));
    // R1's charge: F1 and F2 check (1, 1); contact F1 (skill 1; a tie).
    // R2's charge on F2: no new check; contact F2 (skill 1; R2's rifle:
    // 10 + 1 - 4 against 6 + 1, a tie).
    Script dice({1, 1, 1, 10, 5, 1, 10, 6});
    t.act(R1, SkAction::Kind::charge, dice, F1);
    t.act(R2, SkAction::Kind::charge, dice, F2);
    CHECK(dice.used_up());
    CHECK(t.side(1).fear_checks == 2);
  }
  SECTION("per: charge (the default) - two riders charging side by side are one charge") {
    // The issue-29 case: R1 and R2 ride 3in apart; F1 and F2 lie within 4in
    // of both rides. One charge, however many horses: each man checks once.
    Table t;
    REQUIRE(t.g.rules().fear_per == FearPer::charge);
    REQUIRE(t.g.rules().fear_together == Length::in(4));
    t.put(R1, P(30, 2));
    t.put(R2, P(33, 2));
    t.put(F1, P(30, 10));
    t.put(F2, P(33, 10));
    Script dice({1, 1, 1, 10, 5, 1, 10, 6});
    t.act(R1, SkAction::Kind::charge, dice, F1);
    t.act(R2, SkAction::Kind::charge, dice, F2);
    CHECK(dice.used_up());
    CHECK(t.side(1).fear_checks == 2);
    CHECK(t.side(0).charges == 2);  // two rides, one charge for the fear
  }
  SECTION("per: charge - rides that do not start side by side are separate charges") {
    Table t;
    const Point a = P(30, 2), b = P(33, 2), far = P(30 + 4.5, 2);
    CHECK(t.g.fear_charge_of(0, a) == 0);
    CHECK(t.g.fear_charge_of(0, b) == 0);     // 3in from a: the same charge
    CHECK(t.g.fear_charge_of(0, far) == 0);   // 1.5in from b: joins it too (side by side along the line)
    CHECK(t.g.fear_charge_of(0, P(60, 2)) == 1);  // far off: another charge
    CHECK(t.g.fear_charge_of(1, a) == 2);     // the other side's ride: its own
    Table turn(bench_scenario({{"skirmish.fear_of_charge.per", "turn"}}));
    CHECK(turn.g.fear_charge_of(0, a) == 0);
    CHECK(turn.g.fear_charge_of(0, P(60, 2)) == 0);  // per turn: every ride of the side is one
  }
}

// ------------------------------------------------------------------ close combat

TEST_CASE("skirmish: seed 001, close combat - infantry in the open take a skill check, failing the C column", "[001-L15-contact-check]") {
  Table t;
  t.put(R1, P(30, 6));
  t.put(F1, P(30, 10));
  // Skill check 11 > 10 fails: C column 10: light; then hand to hand: a tie.
  Script dice({11, 10, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.g.figures()[F1].health == Health::light);
  CHECK(t.side(1).contact_checks_failed == 1);
  CHECK(t.said("ridden down: column C, rolls 10: light"));
}

TEST_CASE("skirmish: seed 001, close combat - a prone man's +5 is on the die (harder), or on the skill under the switch", "[skirmish][001-L15-prone-plus-five]") {
  // The module's convention: a modifier is added to the die, lower is
  // better: +5 on a skill check of 10 needs 5 or less.
  Table t;
  t.put(R1, P(30, 6));
  t.put(F1, P(30, 10));
  t.g.edit_figure(F1, [&](SkFigure& x) { x.prone = true; });
  Script dice({5, 10, 5});  // 5 <= 10 - 5: passes; hand to hand a tie
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).contact_checks_failed == 0);
  CHECK(t.said("against 5: passes"));
  // close_combat.modifiers: on_the_skill: the +5 helps (15 <= 10 + 5).
  Table u(bench_scenario({{"skirmish.close_combat.modifiers", "on_the_skill"}}));
  u.put(R1, P(30, 6));
  u.put(F1, P(30, 10));
  u.g.edit_figure(F1, [&](SkFigure& x) { x.prone = true; });
  Script d2({15, 5, 8});  // hand to hand: rider 5 + 4, rifleman 8 + 1: a tie
  u.act(R1, SkAction::Kind::charge, d2, F1);
  CHECK(d2.used_up());
  CHECK(u.said("against 15: passes"));
}

TEST_CASE("skirmish: seed 001, close combat - riders' -4 is on the die: it helps them (lower wins), a switch turns it against them", "[skirmish][001-L15-rider-minus-four]") {
  Table t;
  t.put(R1, P(30, 6));
  t.put(F1, P(30, 10));
  // Skill check passes (1). Hand to hand, lower wins: rider 12 + carbine 0
  // - 4 = 8, rifleman 7 + bayonet 1 = 8: a tie (without the -4 he would lose).
  Script tie({1, 12, 7});
  t.act(R1, SkAction::Kind::charge, tie, F1);
  CHECK(tie.used_up());
  CHECK(t.said("(rider -4)"));
  CHECK(t.said("a tie, no effect"));
  // Rider 12 - 4 = 8 against 8 + 1 = 9: the rider wins; F1 rolls on the B column (20: none).
  Table u;
  u.put(R1, P(30, 6));
  u.put(F1, P(30, 10));
  Script win({1, 12, 8, 20});
  u.act(R1, SkAction::Kind::charge, win, F1);
  CHECK(win.used_up());
  CHECK(u.said("the rider wins"));
  // close_combat.modifiers: on_the_skill: the -4 counts against him: 12 + 4 = 16 > 9.
  Table v(bench_scenario({{"skirmish.close_combat.modifiers", "on_the_skill"}}));
  v.put(R1, P(30, 6));
  v.put(F1, P(30, 10));
  Script lose({1, 12, 8, 18});
  v.act(R1, SkAction::Kind::charge, lose, F1);
  CHECK(lose.used_up());
  CHECK(v.said("(rider +4)"));
  CHECK(v.said("the infantryman wins"));
}

TEST_CASE("skirmish: seed 001, close combat - several infantrymen only when in contact with all at once", "[001-L15-several]") {
  Table t;
  t.put(R1, P(30, 2));
  t.put(F1, P(30, 10));
  t.put(F2, P(30.7, 9.3));  // within contact of where the rider stops (30, 9)
  t.put(F3, P(30, 14));      // further along the line (5in on): not fought, nor within 4in of the path
  // Gut checks F1, F2 (1, 1); contact: F1 skill (1), hand to hand (a tie);
  // F2 skill (1), hand to hand (a tie).
  Script dice({1, 1, 1, 10, 5, 1, 10, 5});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  int fights = 0;
  for (const Event& e : t.log.events) fights += e.kind == "hand to hand" ? 1 : 0;
  CHECK(fights == 2);
}

TEST_CASE("skirmish: seed 001, close combat - no mounted close combat in buildings unless the scenario says so", "[001-L15-buildings]") {
  Table t;
  t.put(R1, P(11, 30));
  t.put(F1, P(11, 37));  // inside the barn, 7in off through the large door
  Script dice;           // F1 is in the barn (+5 cover): no fear check, and no fight
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.g.building_at(t.g.figures()[R1].pos) == 0);
  CHECK(t.said("mounted in a building: no hand-to-hand"));
  CHECK(t.side(0).close_combats == 0);
  // The scenario allows it.
  SkirmishScenario s = *bench_scenario();
  s.mounted_melee_in_buildings = true;
  SkirmishGame g(s, {nullptr, nullptr}, 1, 0);
  g.edit_figure(R1, [&](SkFigure& x) { x.pos = P(11, 30); });
  g.edit_horse(0, [&](SkHorse& h) { h.pos = P(11, 30); });
  g.edit_figure(F1, [&](SkFigure& x) { x.pos = P(11, 37); });
  Script fight({10, 5});  // in cover: straight to hand to hand (a tie)
  SkAction a;
  a.kind = SkAction::Kind::charge;
  a.target = F1;
  g.act(R1, a, fight);
  CHECK(fight.used_up());
  CHECK(g.outcome().sides[0].close_combats == 1);
}

// ------------------------------------------------------------------ the final charge

TEST_CASE("skirmish: seed 001, final charge - a dying moving horse reaching an infantryman: skill check, or the E column", "[001-L17-final-charge]") {
  SECTION("fails the check") {
    Table t;
    t.put(R1, P(30, 10));
    t.moving(R1, 8, 0);
    t.put(F1, P(30, 13));
    // D4 4: the horse carries on to (30, 14), through F1; his skill check fails (15): E column 3: heavy.
    // Then R1's fall: E column 20: unhurt.
    Script dice({4, 15, 3, 20});
    t.g.hit_horse(0, Wound::heavy, dice);
    CHECK(dice.used_up());
    CHECK(t.side(0).final_charges == 1);
    CHECK(t.g.figures()[F1].health == Health::out);
  }
  SECTION("the E column: a 5 there is a light wound (on D it would be heavy)") {
    // Issue 29's sweep: final_charge.column D passed (a 3 is heavy on both).
    Table t;
    t.put(R1, P(30, 10));
    t.moving(R1, 8, 0);
    t.put(F1, P(30, 13));
    Script dice({4, 15, 5, 20});
    t.g.hit_horse(0, Wound::heavy, dice);
    CHECK(dice.used_up());
    CHECK(t.side(0).final_charges == 1);
    CHECK(t.g.figures()[F1].health == Health::light);
  }
  SECTION("short of him: no final charge") {
    Table t;
    t.put(R1, P(30, 10));
    t.moving(R1, 8, 0);
    t.put(F1, P(30, 16));
    Script dice({2, 20});
    t.g.hit_horse(0, Wound::heavy, dice);
    CHECK(dice.used_up());
    CHECK(t.side(0).final_charges == 0);
  }
  SECTION("a standing horse makes no final charge") {
    Table t;
    t.put(R1, P(30, 10));
    t.put(F1, P(30, 10.5));
    Script dice({20});
    t.g.hit_horse(0, Wound::kia, dice);
    CHECK(dice.used_up());
    CHECK(t.side(0).final_charges == 0);
  }
}

// ------------------------------------------------------------------ whole games

TEST_CASE("skirmish: the village patrol plays the same game from the same seed, and differently from another") {
  const std::string file = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/skirmish/village_patrol.yaml";
  SkirmishScenarioPtr s = load_skirmish_scenario(file);
  SkirmishPlayers p = make_skirmish_players(*s);
  auto texts = [&](std::uint64_t seed) {
    SkirmishGame g(*s, p.bots(), seed, 0);
    EventLog log;
    g.attach(&log);
    g.run();
    std::string all;
    for (const Event& e : log.events) all += e.text + "\n";
    return all;
  };
  CHECK(texts(7) == texts(7));
  CHECK(texts(7) != texts(8));
  // reset() replays exactly what a new game plays.
  SkirmishGame g(*s, p.bots(), 1, 0);
  g.run();
  g.reset(7, 0);
  EventLog log;
  g.attach(&log);
  g.run();
  std::string again;
  for (const Event& e : log.events) again += e.text + "\n";
  CHECK(again == texts(7));
}

TEST_CASE("skirmish: over many games of the village patrol every seed 001 rule comes into play") {
  const std::string file = std::string(VEDETTE_SOURCE_DIR) + "/sims/scenarios/skirmish/village_patrol.yaml";
  SkirmishScenarioPtr s = load_skirmish_scenario(file);
  SkirmishPlayers p = make_skirmish_players(*s);
  SkSideOutcome sum{};
  SkirmishGame g(*s, p.bots(), 11, 0);
  // 3,000 games: a man caught in the open is rare (2 in these 3,000 since
  // issue 31 retuned the scenario as a contest; the squad breaks sooner).
  for (std::uint64_t i = 0; i < 3000; ++i) {
    g.reset(11, i);
    const SkOutcome& o = g.run();
    const SkSideOutcome& a = o.sides[0];
    const SkSideOutcome& b = o.sides[1];
    sum.horses_lost += a.horses_lost;
    sum.horses_bolted += a.horses_bolted;
    sum.riders_spilled += a.riders_spilled;
    sum.light_wound_falls += a.light_wound_falls;
    sum.dismounts += a.dismounts;
    sum.charges += a.charges;
    sum.close_combats += a.close_combats;
    sum.final_charges += a.final_charges;
    sum.riding_double_moves += a.riding_double_moves;
    sum.fear_checks += b.fear_checks;
    sum.fear_failed += b.fear_failed;
    sum.caught_in_open += b.caught_in_open;
    sum.contact_checks_failed += b.contact_checks_failed;
  }
  CHECK(sum.horses_lost > 0);
  CHECK(sum.horses_bolted > 0);
  CHECK(sum.riders_spilled > 0);
  CHECK(sum.light_wound_falls > 0);
  CHECK(sum.dismounts > 0);
  CHECK(sum.charges > 0);
  CHECK(sum.close_combats > 0);
  CHECK(sum.final_charges > 0);
  CHECK(sum.riding_double_moves > 0);
  CHECK(sum.fear_checks > 0);
  CHECK(sum.fear_failed > 0);
  CHECK(sum.caught_in_open > 0);
  CHECK(sum.contact_checks_failed > 0);
}

TEST_CASE("skirmish: seed 001, mounted targets - over many real dice two hits in three land on the horse (D6 1-4)") {
  // Statistical: fixed seeds, 4 standard errors around the exact 4/6.
  Table t;
  int horse = 0, rider = 0;
  for (std::uint64_t i = 0; i < 6000; ++i) {
    t.g.reset(20261121, i);
    t.log.events.clear();
    t.put(F1, P(2, 5));  // 3in: the rifle's 9 at -1 hits on 1-10
    Rng rng = make_stream(20261121, i, Subsystem::shooting);
    Dice dice(rng);
    DiceRoller roller(dice);
    t.g.fire(F1, R1, roller);
    horse += t.said("the horse is hit") ? 1 : 0;
    rider += t.said("the rider is hit") ? 1 : 0;
  }
  const double n = horse + rider;
  REQUIRE(n > 2000);
  const double p = 4.0 / 6.0;
  const double se = std::sqrt(p * (1 - p) / n);
  CHECK(std::abs(horse / n - p) < 4 * se);
}

TEST_CASE("skirmish: seed 001, mounted targets - a horse killed by opportunity fire spills its rider along the move it was making") {
  Table t;
  t.put(F1, P(2, 19));
  Script none;
  t.act(F1, SkAction::Kind::op_fire, none);
  // R1 sets off east 8in: F1 fires first (17in: rifle 7; 1 - 1 + 2 = 2: a hit), D6 1: the horse,
  // C column 5: heavy, mortal. The horse was moving (intended 8in): D4 2 onward, east; the fall: E column 20.
  Script dice({1, 1, 5, 2, 20});
  t.act(R1, SkAction::Kind::move, dice, -1, P(20, 2));
  CHECK(dice.used_up());
  CHECK_FALSE(t.g.horses()[0].alive);
  CHECK_FALSE(t.g.figures()[R1].mounted());
  CHECK(in_of(t.g.figures()[R1].pos.x) == Approx(4));
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(2));
}

// ------------------------------------------------------------------ issue 15

TEST_CASE("skirmish: seed 001, firing from horseback - a ride then a shot is fire while moving: no rifle, +12", "[skirmish][001-L7-fire-while-moving]") {
  // Seed 001: "Only carbines, SMGs, or pistols may be fired while moving."
  // Reading: the horse moved in the rider's last action.
  Table t(bench_scenario({{"skirmish.firing_from_horseback.applies", "moving"}}));
  t.put(F1, P(30, 30));
  Script none;
  t.act(R2, SkAction::Kind::move, none, -1, P(6, 10));  // the rifleman rides 8in
  REQUIRE(t.g.horses()[1].moved_cm > 0);
  Script no_dice;
  t.act(R2, SkAction::Kind::fire, no_dice, F1);
  CHECK(t.said("may not be fired on the move"));
  CHECK(t.side(0).shots == 0);
  // The shot ends the movement: standing now, he may fire, without the +12 (`moving`).
  CHECK(t.g.horses()[1].moved_cm == 0);
  CHECK_FALSE(t.g.may_fire(R2).has_value());
  // The carbine rides and fires on the move, at +12.
  t.act(R1, SkAction::Kind::move, none, -1, P(2, 10));
  CHECK_FALSE(t.g.may_fire(R1).has_value());
  CHECK(term(t.g.to_hit_terms(R1, F1, std::nullopt), "from horseback") == 12);
}

TEST_CASE("skirmish: seed 001, mounting takes movement.mount_actions actions", "[skirmish][001-L3-mount-one-action]") {
  {
    // The shipped rules: one action, so a dismounted man has no action left to spend on it.
    Table t;
    Script none;
    t.act(R1, SkAction::Kind::dismount, none);
    CHECK_FALSE(t.g.figures()[R1].mounted());
    CHECK(t.g.figures()[R1].busy == 0);
  }
  for (int n : {1, 2}) {
    Table t(bench_scenario({{"skirmish.movement.mount_actions", std::to_string(n)}}));
    Script none;
    t.act(R1, SkAction::Kind::dismount, none);
    CHECK(t.g.figures()[R1].busy == n - 1);
  }
}

TEST_CASE("skirmish: seed 001, a light-wounded rider who fails his skill check falls and stays light-wounded", "[skirmish][001-L9-light-wound-fall]") {
  // Light wound on the rider; skill check 20 fails; a fall from a standing
  // horse: E +3, 20: none. He is on foot and still light-wounded.
  Table u;
  Script fall({20, 20});
  u.g.hit_figure(R1, Wound::light, fall, "test");
  CHECK(fall.used_up());
  CHECK_FALSE(u.g.figures()[R1].mounted());
  CHECK(u.g.figures()[R1].health == Health::light);
  CHECK(u.g.figures()[R1].light_wounds == 1);
  CHECK(u.side(0).light_wound_falls == 1);
}

TEST_CASE("skirmish: seed 001, fear of charge - failing with cover beyond 4in he runs 4in toward it, and is caught", "[skirmish][001-L13-flee-toward-cover]") {
  Table t;
  t.put(R1, P(43, 22));
  t.put(F1, P(43, 30.5));  // 9.5in short of the shed (cover 5)
  // Gut check fails (11): "must immediately move up to four inches towards
  // cover": 4in toward the shed, still in the open: caught. The rider
  // finishes its move toward him (12.5in off): short.
  Script dice({11});
  t.act(R1, SkAction::Kind::charge, dice, F1);
  CHECK(dice.used_up());
  CHECK(t.side(1).caught_in_open == 1);
  CHECK(t.g.dist_cm(t.g.figures()[F1].pos, P(43, 30.5)) == Approx(4 * k_in).margin(1e-3));
  CHECK(t.g.figures()[F1].pos.y > P(43, 30.5).y);
}

TEST_CASE("skirmish: seed 001, fear of charge - a +5 wall is cover to run to (its far side from the charger)", "[skirmish][001-L13-wall-cover]") {
  Table t;
  // The bench's stone wall (+5) runs along y = 20in from x = 0 to 24in. F1
  // stands past its end at (27, 18), a rider comes from (20, 30): the wall's
  // south side near its end covers him from the rider, 3.4in away.
  t.put(F1, P(27, 18));
  const auto c = t.g.flee_cover(F1, P(20, 30));
  REQUIRE(c.has_value());
  CHECK(c->y < P(0, 20).y);
  CHECK(t.g.dist_cm(*c, P(27, 18)) <= 4 * k_in);
}

}  // namespace t_skirmish_fear
