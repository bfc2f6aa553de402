// Seed 001 (man-to-man skirmish cavalry): one golden test per rule, each
// citing it, on tests/data/skirmish/bench.yaml under tables/skirmish.yaml,
// with the dice scripted (tests/skirmish_test_util.hpp). Movement, dismounts,
// firing from horseback and mounted targets here; fear of charge, close
// combat and whole games in tests/test_skirmish_fear.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "bots/skirmish_bots.hpp"
#include "skirmish_test_util.hpp"

namespace t_skirmish {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;
using namespace skirmish_test;

// ------------------------------------------------------------------ data

TEST_CASE("skirmish: tables/skirmish.yaml carries seed 001's numbers") {
  RulesetPtr r = load_ruleset(rules_file());
  REQUIRE(r->skirmish);
  const SkirmishRules& k = *r->skirmish;
  CHECK(k.horse_move.as_in() == Approx(8));        // seed 001, movement
  CHECK(k.obstacle_penalty.as_in() == Approx(1));  // seed 001, obstacles
  CHECK(k.double_move.as_in() == Approx(6));       // seed 001, riding double
  CHECK(k.mount_actions == 1);                     // seed 001, mounting/dismounting
  CHECK(k.horses_per_holder == 5);                 // seed 001, dismounts
  CHECK(k.bolt_at == Wound::suppressed);
  CHECK(k.he_bolt_radius.as_in() == Approx(12));
  CHECK(k.horseback_fire == 12);                   // seed 001, firing from horseback
  CHECK(k.mounted_target == -1);                   // seed 001, mounted infantry as targets
  CHECK(k.moved_step.as_in() == Approx(3));
  CHECK(k.hit_horse == std::array<bool, 6>{true, true, true, true, false, false});
  CHECK(k.horse_mortal_at == Wound::heavy);
  CHECK(k.spill_die == 4);
  CHECK(k.fall_column == "E");                     // seed 001, knocked off horse
  CHECK(k.fall_standing_modifier == 3);
  CHECK(k.fall_moving_modifier == 0);
  CHECK(k.charge_min.as_in() == Approx(6));        // seed 001, fear of charge
  CHECK(k.fear_radius.as_in() == Approx(4));
  CHECK(k.fear_cover_exempt == 5);
  CHECK(k.fear_flee.as_in() == Approx(4));
  CHECK(k.prone_modifier == 5);                    // seed 001, close combat
  CHECK(k.close_combat_sign == ModifierSign::on_the_die);
  CHECK(k.contact_column == "C");
  CHECK(k.rider_close_combat == -4);
  CHECK_FALSE(k.mounted_melee_in_buildings);
  CHECK(k.final_charge_column == "E");             // seed 001, "final charge"
  for (const char* c : {"A", "B", "C", "D", "E"}) CHECK(k.find_column(c));
}

TEST_CASE("skirmish: the default ruleset has no skirmish section and a skirmish scenario refuses it") {
  CHECK_FALSE(default_ruleset()->skirmish);
  SkirmishScenarioPtr s = load_skirmish_scenario(bench_file());
  CHECK_THROWS_AS(with_rules(*s, default_ruleset()), LoadError);
  CHECK_THROWS_AS(load_skirmish_scenario(bench_file(), "builtin:default"), LoadError);
}

// ------------------------------------------------------------------ movement

TEST_CASE("skirmish: seed 001, movement - cavalry moves 8in per action, infantry its base-game move", "[001-L1-eight-inches]") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::move, none, -1, P(2, 50));
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(10));
  CHECK(in_of(t.g.horses()[0].pos.y) == Approx(10));  // the horse goes with him
  t.act(F1, SkAction::Kind::move, none, -1, P(50, 50));
  CHECK(in_of(t.g.figures()[F1].pos.y) == Approx(2 + t.s->sk->foot_move.as_in()));
  CHECK(none.used_up());
}

TEST_CASE("skirmish: seed 001, movement - an obstacle costing infantry an action costs cavalry 1in", "[001-L1-obstacle-penalty]") {
  Table t;
  Script none;
  // Rider 4in short of the stone wall: 4in to it, 1in to cross, 3in beyond.
  t.put(R1, P(2, 16));
  t.act(R1, SkAction::Kind::move, none, -1, P(2, 50));
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(23).margin(1e-4));
  // Infantry 2in short of it stops at it...
  t.put(F1, P(2, 18));
  t.act(F1, SkAction::Kind::move, none, -1, P(2, 50));
  CHECK(in_of(t.g.figures()[F1].pos.y) == Approx(20).margin(1e-3));
  CHECK(in_of(t.g.figures()[F1].pos.y) < 20);
  // ...and at it, crossing it is its whole action.
  t.act(F1, SkAction::Kind::move, none, -1, P(2, 50));
  CHECK(in_of(t.g.figures()[F1].pos.y) == Approx(20.5).margin(1e-3));
  CHECK(t.said("F1 climbs the wall: the whole action"));
}

TEST_CASE("skirmish: seed 001, riding double - 6in per action, never toward known enemy positions, no firing", "[001-L1-riding-double]") {
  Table t;
  Script none;
  REQUIRE(t.g.horses()[2].doubled());  // R3 with P1 behind
  // Away from the squad (which sees them): 6in.
  t.put(R3, P(25, 30));
  t.put(F1, P(25, 50));
  REQUIRE(t.g.sees(F1, R3));
  t.act(R3, SkAction::Kind::move, none, -1, P(25, 0));
  CHECK(in_of(t.g.figures()[R3].pos.y) == Approx(24));
  CHECK(in_of(t.g.figures()[P1].pos.y) == Approx(24));  // the passenger goes with the horse
  CHECK(t.side(0).riding_double_moves == 1);
  // Toward the known enemy: refused, it stays.
  t.act(R3, SkAction::Kind::move, none, -1, P(25, 60));
  CHECK(in_of(t.g.figures()[R3].pos.y) == Approx(24));
  CHECK(t.said("rides double and may not move toward a known enemy"));
  // Neither of them may fire.
  CHECK(t.g.may_fire(R3).has_value());
  CHECK(t.g.may_fire(P1).has_value());
  t.act(P1, SkAction::Kind::fire, none, F1);
  CHECK(t.side(0).shots == 0);
  // Nor may the horse charge.
  t.act(R3, SkAction::Kind::charge, none, F1);
  CHECK(t.side(0).charges == 0);
  CHECK(none.used_up());
}

TEST_CASE("skirmish: seed 001, riding double - an unseen enemy is no known position") {
  Table t;
  Script none;
  // The squad's man is behind the shed: no one of the patrol sees him.
  t.put(R3, P(43, 30));
  t.put(F1, P(43, 50));
  t.put(R1, P(43, 20));
  t.put(R2, P(44, 20));
  for (std::size_t f : {F2, F3, G}) t.g.edit_figure(f, [&](SkFigure& x) { x.health = Health::dead; });
  for (std::size_t f : {R1, R2, R3}) REQUIRE_FALSE(t.g.sees(f, F1));
  REQUIRE_FALSE(t.g.enemy_known(0, t.g.figures()[R3].pos));
  t.act(R3, SkAction::Kind::move, none, -1, P(30, 36));
  CHECK(t.g.figures()[R3].moved_cm == Approx(6 * k_in));
}

TEST_CASE("skirmish: seed 001, mounting and dismounting take one action each") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::dismount, none);
  CHECK_FALSE(t.g.figures()[R1].mounted());
  CHECK_FALSE(t.g.horses()[0].ridden());
  CHECK(t.side(0).dismounts == 1);
  t.act(R1, SkAction::Kind::mount, none);
  CHECK(t.g.figures()[R1].mounted());
  CHECK(t.side(0).mounts == 1);
  // In a turn, dismounting is one of the figure's actions: with two
  // actions it dismounts and then fires, no more.
  struct DismountThenFire final : SkirmishBot {
    mutable int calls = 0;
    SkAction act(const SkirmishGame& g, std::size_t f) const override {
      SkAction a;
      if (f != R2) return a;
      ++calls;
      a.kind = g.figures()[f].mounted() ? SkAction::Kind::dismount : SkAction::Kind::op_fire;
      return a;
    }
  } bot;
  SkirmishGame game(*t.s, {&bot, &bot}, 3, 0);
  game.play_turn();
  CHECK(bot.calls == t.s->sk->actions_per_turn);
  CHECK_FALSE(game.figures()[R2].mounted());
  CHECK(game.figures()[R2].op_fire);
}

TEST_CASE("skirmish: seed 001, horses enter buildings only through large doors", "[001-L1-large-doors]") {
  Table t;
  Script none;
  // The shed has no large door: the rider stops at its wall.
  t.put(R1, P(43, 36));
  t.act(R1, SkAction::Kind::move, none, -1, P(43, 44));
  CHECK(t.g.building_at(t.g.figures()[R1].pos) == -1);
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(40).margin(0.2));
  // The barn's large door is at (11in, 34in): straight through it, in.
  t.put(R2, P(11, 28));
  t.act(R2, SkAction::Kind::move, none, -1, P(11, 38));
  CHECK(t.g.building_at(t.g.figures()[R2].pos) == 0);
  // Into the barn away from the door: stopped at the wall.
  t.put(R1, P(7, 28));
  t.act(R1, SkAction::Kind::move, none, -1, P(7, 38));
  CHECK(t.g.building_at(t.g.figures()[R1].pos) == -1);
  // A man on foot walks into either.
  t.put(F1, P(43, 38));
  t.act(F1, SkAction::Kind::move, none, -1, P(43, 44));
  CHECK(t.g.building_at(t.g.figures()[F1].pos) == 1);
}

// ------------------------------------------------------------------ dismounts

TEST_CASE("skirmish: seed 001, dismounts - one horse holder for each five horses", "[001-L5-holders]") {
  SkirmishScenario s = *bench_scenario();
  // Seven riders of one side, dismounted in one place, and a holder.
  s.figures.clear();
  for (int i = 0; i < 7; ++i) {
    SkirmishFigureSpec f;
    f.name = "T" + std::to_string(i);
    f.position = P(10, 10);
    f.horse = true;
    s.figures.push_back(f);
  }
  SkirmishGame g(s, {nullptr, nullptr}, 1, 0);
  Script none;
  SkAction dis;
  dis.kind = SkAction::Kind::dismount;
  for (std::size_t i = 0; i < 7; ++i) g.act(i, dis, none);
  for (std::size_t h = 0; h < 7; ++h) CHECK_FALSE(g.attended(h));
  SkAction hold;
  hold.kind = SkAction::Kind::hold_horses;
  g.act(0, hold, none);
  int attended = 0;
  for (std::size_t h = 0; h < 7; ++h) attended += g.attended(h) ? 1 : 0;
  CHECK(attended == 5);
  g.act(1, hold, none);
  attended = 0;
  for (std::size_t h = 0; h < 7; ++h) attended += g.attended(h) ? 1 : 0;
  CHECK(attended == 7);
  // A holder may not fire while holding (choice).
  CHECK(g.may_fire(0).has_value());
}

TEST_CASE("skirmish: seed 001, dismounts - an unattended horse fired at bolts on suppression or better and leaves play", "[001-L5-bolt-suppression]") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::dismount, none);
  t.put(F1, P(2, 14));
  // The hit (d20 1), then the rifle's C column: 15 = suppressed.
  Script dice({1, 15});
  t.act(F1, SkAction::Kind::fire_at_horse, dice, 0);
  CHECK(dice.used_up());
  CHECK(t.g.horses()[0].bolted);
  CHECK_FALSE(t.g.horses()[0].in_play());
  CHECK(t.side(0).horses_bolted == 1);
  // Mounting a bolted horse: there is none to mount.
  t.act(R1, SkAction::Kind::mount, none);
  CHECK_FALSE(t.g.figures()[R1].mounted());
}

TEST_CASE("skirmish: seed 001, dismounts - a held horse does not bolt, and 'none' bolts nothing") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::dismount, none);
  t.put(F1, P(2, 14));
  Script miss_effect({1, 19});  // hit, C column 19: no effect
  t.act(F1, SkAction::Kind::fire_at_horse, miss_effect, 0);
  CHECK_FALSE(t.g.horses()[0].bolted);
  t.act(R2, SkAction::Kind::dismount, none);
  t.put(R2, P(3, 2));
  t.act(R2, SkAction::Kind::hold_horses, none);
  REQUIRE(t.g.attended(0));
  Script suppress({1, 15});
  t.act(F1, SkAction::Kind::fire_at_horse, suppress, 0);
  CHECK_FALSE(t.g.horses()[0].bolted);
}

TEST_CASE("skirmish: seed 001, dismounts - any HE hit within 12in and in line of sight bolts unattended horses") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::dismount, none);  // horse 0 at (2, 2)
  t.act(R2, SkAction::Kind::dismount, none);
  t.put(R2, P(30, 2));                        // horse 1 at (6, 2), R2 walks off
  t.g.edit_horse(1, [](SkHorse& h) { h.pos = P(2, 26); });   // walls do not block sight
  t.g.edit_horse(2, [](SkHorse& h) { h.pos = P(43, 47); });  // R3's horse, left north of the shed
  t.g.edit_horse(2, [&](SkHorse& h) { h.riders = {-1, -1}; });
  t.g.edit_figure(R3, [&](SkFigure& x) { x.horse = -1; });
  t.g.edit_figure(P1, [&](SkFigure& x) { x.horse = -1; });
  t.g.he_burst(P(2, 13.5), none);             // 11.5in from horse 0 and 12.5in from horse 1
  CHECK(t.g.horses()[0].bolted);
  CHECK_FALSE(t.g.horses()[1].bolted);
  t.g.he_burst(P(43, 38), none);              // 9in from horse 2, but the shed hides it
  CHECK_FALSE(t.g.horses()[2].bolted);
  CHECK(t.g.horses()[1].bolted == false);
  t.g.he_burst(P(2, 20), none);               // 6in from horse 1, in sight
  CHECK(t.g.horses()[1].bolted);
  CHECK(t.side(0).horses_bolted == 2);
}

TEST_CASE("skirmish: seed 001, dismounts - a rifle grenade's hit bolts horses near its target, a miss does not", "[skirmish][001-L5-he-hit-bolts]") {
  Table t;
  Script none;
  t.act(R1, SkAction::Kind::dismount, none);
  t.put(R1, P(2, 12));  // the man walks 10in off; his horse stays at (2, 2)
  t.put(G, P(2, 30));
  // Seed 001: "any HE hit within 12in": the grenadier misses R1 (d20 20): no bolt.
  Script miss({20});
  t.act(G, SkAction::Kind::fire, miss, R1);
  CHECK(miss.used_up());
  CHECK_FALSE(t.g.horses()[0].bolted);
  // A hit (1; the rifle grenade's 30in band, 6): the burst 10in from the
  // horse bolts it; R1 rolls on column A (20: none).
  Script hit({1, 20});
  t.act(G, SkAction::Kind::fire, hit, R1);
  CHECK(hit.used_up());
  CHECK(t.g.horses()[0].bolted);
  // The same hit 12.5in from the horse: beyond the 12in, it stays.
  Table u;
  Script none2;
  u.act(R1, SkAction::Kind::dismount, none2);
  u.put(R1, P(2, 14.5));
  u.put(G, P(2, 30));
  Script far({1, 20});
  u.act(G, SkAction::Kind::fire, far, R1);
  CHECK(far.used_up());
  CHECK_FALSE(u.g.horses()[0].bolted);
}

// ------------------------------------------------------------------ firing from horseback

TEST_CASE("skirmish: seed 001, firing from horseback - only carbines, SMGs and pistols while moving, at +12", "[001-L7-plus-twelve]") {
  Table t;
  t.put(F1, P(2, 20.5));
  t.put(F2, P(6, 20.5));
  // Standing horses: both may fire, both at +12 (`applies: always`).
  CHECK_FALSE(t.g.may_fire(R1).has_value());
  CHECK_FALSE(t.g.may_fire(R2).has_value());
  CHECK(term(t.g.to_hit_terms(R1, F1, std::nullopt), "from horseback") == 12);
  CHECK(term(t.g.to_hit_terms(R2, F2, std::nullopt), "from horseback") == 12);
  // Moving: the carbine still may, the rifle may not.
  t.moving(R1, 8);
  t.moving(R2, 8);
  CHECK_FALSE(t.g.may_fire(R1).has_value());
  REQUIRE(t.g.may_fire(R2).has_value());
  CHECK(t.g.may_fire(R2)->find("may not be fired on the move") != std::string::npos);
  // R1 fires at F1, 18.5in off and just behind the wall: the carbine's 24in
  // band (6) at +12 and +5 cover: even a 1 misses.
  Script one({1});
  t.g.fire(R1, F1, one);
  CHECK(one.used_up());
  CHECK(t.side(0).hits == 0);
  CHECK(t.side(0).shots == 1);
}

TEST_CASE("skirmish: seed 001, firing from horseback - the +12 only on the move under the `moving` switch") {
  Table t(bench_scenario({{"skirmish.firing_from_horseback.applies", "moving"}}));
  t.put(F1, P(2, 10));
  CHECK(term(t.g.to_hit_terms(R1, F1, std::nullopt), "from horseback") == 0);
  t.moving(R1, 4);
  CHECK(term(t.g.to_hit_terms(R1, F1, std::nullopt), "from horseback") == 12);
}

// ------------------------------------------------------------------ mounted targets

TEST_CASE("skirmish: seed 001, mounted targets - -1 to hit, +1 per 3in moved in the last action or intended against opportunity fire", "[001-L9-mounted-target]") {
  Table t;
  t.put(F1, P(2, 12));
  const Terms still = t.g.to_hit_terms(F1, R1, std::nullopt);
  CHECK(term(still, "mounted target") == -1);
  CHECK(term(still, "movement") == 0);
  t.moving(R1, 8);  // 8in: two full steps of 3in
  CHECK(term(t.g.to_hit_terms(F1, R1, std::nullopt), "movement") == 2);
  t.moving(R1, 9);
  CHECK(term(t.g.to_hit_terms(F1, R1, std::nullopt), "movement") == 3);
  t.moving(R1, 2.9);
  CHECK(term(t.g.to_hit_terms(F1, R1, std::nullopt), "movement") == 0);
  // Opportunity fire counts the movement intended this action.
  const Terms op = t.g.to_hit_terms(F1, R1, 6.5 * k_in);
  CHECK(term(op, "intended movement") == 2);
  CHECK(term(op, "movement") == 0);
  // All other modifiers apply: a prone man on foot is not mounted.
  CHECK(term(t.g.to_hit_terms(R1, F1, std::nullopt), "mounted target") == 0);
}

TEST_CASE("skirmish: seed 001, mounted targets - opportunity fire at a rider as he moves uses his intended movement") {
  Table t;
  t.put(F1, P(2, 19));
  Script none;
  t.act(F1, SkAction::Kind::op_fire, none);
  // R1 rides 8in toward him: F1 fires first, 17in: rifle 7 (24in band); 10 - 1 + 2 = 11 > 7: a miss.
  Script dice({10});
  t.act(R1, SkAction::Kind::move, dice, -1, P(2, 12));
  CHECK(dice.used_up());
  CHECK(t.said("F1 fires on opportunity at R1"));
  CHECK(t.said("intended movement +2"));
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(10));
  CHECK_FALSE(t.g.figures()[F1].op_fire);
}

TEST_CASE("skirmish: seed 001, mounted targets - each hit rolls a D6: 1-4 the horse, 5-6 the rider", "[001-L9-horse-or-rider]") {
  for (int face = 1; face <= 6; ++face) {
    Table t;
    t.put(F1, P(2, 8));
    // Hit (d20 1), the D6, the rifle's C column 10: a light wound.
    // Rider, light: a skill check too (d20 1 passes). Horse: light is ignored.
    std::vector<int> faces{1, face, 10};
    if (face >= 5) faces.push_back(1);
    Script dice(faces);
    t.g.fire(F1, R1, dice);
    CHECK(dice.used_up());
    INFO("D6 " << face);
    if (face <= 4) {
      CHECK(t.said("the horse is hit"));
      CHECK(t.g.figures()[R1].health == Health::fit);
    } else {
      CHECK(t.said("the rider is hit"));
      CHECK(t.g.figures()[R1].health == Health::light);
    }
  }
}

TEST_CASE("skirmish: seed 001, mounted targets - riders ignore suppression", "[001-L9-ignore-suppression]") {
  Table t;
  t.put(F1, P(2, 8));
  Script dice({1, 6, 15});  // hit, rider, C 15: suppressed
  t.g.fire(F1, R1, dice);
  CHECK(dice.used_up());
  CHECK_FALSE(t.g.figures()[R1].suppressed);
  CHECK(t.said("suppression ignored"));
  // On foot, the same result suppresses.
  t.g.hit_figure(F2, Wound::suppressed, dice, "test");
  CHECK(t.g.figures()[F2].suppressed);
}

TEST_CASE("skirmish: seed 001, mounted targets - a light-wounded rider takes a skill check or falls", "[001-L9-light-wound-check]") {
  SECTION("passes: stays in the saddle") {
    Table t;
    Script dice({11});  // skill 11: passes
    t.g.hit_figure(R1, Wound::light, dice, "test");
    CHECK(dice.used_up());
    CHECK(t.g.figures()[R1].mounted());
    CHECK(t.g.figures()[R1].health == Health::light);
  }
  SECTION("fails: knocked off a standing horse, E column +3") {
    Table t;
    // Skill check 12 > 11 fails; the fall: E column, 6 + 3 = 9: light (a second light wound: out, EXAMPLE).
    Script dice({12, 6});
    t.g.hit_figure(R1, Wound::light, dice, "test");
    CHECK(dice.used_up());
    CHECK_FALSE(t.g.figures()[R1].mounted());
    CHECK(t.side(0).light_wound_falls == 1);
    CHECK(t.side(0).riders_spilled == 1);
    CHECK(t.said("column E+3, rolls 6: light"));
    CHECK(t.g.horses()[0].alive);  // the horse stays, riderless
    CHECK_FALSE(t.g.horses()[0].ridden());
  }
}

TEST_CASE("skirmish: seed 001, knocked off horse - E column +3 from a standing horse, no modifier from a moving one", "[001-L11-fall]") {
  // E column (EXAMPLE): up to 1 kia, 4 heavy, 9 light, 14 suppressed, above none.
  SECTION("standing: 2 + 3 = 5, a light wound") {
    Table t;
    Script dice({2});
    t.g.knocked_off(R1, false, dice);
    CHECK(t.g.figures()[R1].health == Health::light);
  }
  SECTION("standing: 1 + 3 = 4, a heavy wound") {
    Table t;
    Script dice({1});
    t.g.knocked_off(R1, false, dice);
    CHECK(t.g.figures()[R1].health == Health::out);
  }
  SECTION("moving: 2, a heavy wound") {
    Table t;
    Script dice({2});
    t.g.knocked_off(R1, true, dice);
    CHECK(t.g.figures()[R1].health == Health::out);
  }
}

TEST_CASE("skirmish: seed 001, mounted targets - horses ignore all but heavy wounds and kills, which are mortal", "[001-L9-horse-mortal]") {
  for (Wound w : {Wound::suppressed, Wound::light}) {
    Table t;
    Script none;
    t.g.hit_horse(0, w, none);
    CHECK(t.g.horses()[0].alive);
    CHECK(t.g.figures()[R1].mounted());
  }
  for (Wound w : {Wound::heavy, Wound::kia}) {
    Table t;
    Script dice({20});  // standing: the rider spills where hit, E+3 with 20: unhurt
    t.g.hit_horse(0, w, dice);
    CHECK(dice.used_up());
    CHECK_FALSE(t.g.horses()[0].alive);
    CHECK_FALSE(t.g.figures()[R1].mounted());
    CHECK(t.g.figures()[R1].health == Health::fit);
    CHECK(in_of(t.g.figures()[R1].pos.x) == Approx(2));  // where it was hit
    CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(2));
    CHECK(t.side(0).horses_lost == 1);
  }
}

TEST_CASE("skirmish: seed 001, mounted targets - a moving horse spills its rider D4in on in line with its last movement", "[001-L9-spill]") {
  Table t;
  t.put(R1, P(30, 10));
  t.moving(R1, 8, 90);  // it was riding east
  Script dice({3, 20});  // D4 3; the fall: E column, no modifier, 20: unhurt
  t.g.hit_horse(0, Wound::heavy, dice);
  CHECK(dice.used_up());
  REQUIRE(dice.sides.size() == 2);
  CHECK(dice.sides[0] == 4);  // the spill's D4
  CHECK(in_of(t.g.figures()[R1].pos.x) == Approx(33));
  CHECK(in_of(t.g.figures()[R1].pos.y) == Approx(10));
  CHECK(t.said("column E, rolls 20"));
  // Both riders of a horse riding double spill.
  Table u;
  u.put(R3, P(30, 10));
  u.moving(R3, 6, 0);
  Script d2({2, 20, 20});
  u.g.hit_horse(2, Wound::kia, d2);
  CHECK(d2.used_up());
  CHECK(in_of(u.g.figures()[R3].pos.y) == Approx(12));
  CHECK(in_of(u.g.figures()[P1].pos.y) == Approx(12));
  CHECK(u.side(0).riders_spilled == 2);
}

TEST_CASE("skirmish: seed 001, mounted targets - the spill laid back along the line under the `back` switch") {
  Table t(bench_scenario({{"skirmish.mounted_targets.spill", "back"}}));
  t.put(R1, P(30, 10));
  t.moving(R1, 8, 90);
  Script dice({3, 20});
  t.g.hit_horse(0, Wound::heavy, dice);
  CHECK(in_of(t.g.figures()[R1].pos.x) == Approx(27));
}

// ------------------------------------------------------------------ fear of charge

}  // namespace t_skirmish
