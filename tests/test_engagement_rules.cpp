// Engagement data in tables/default.yaml: profiles, weapons, combat numbers
// (engine/decision/battle_rules.hpp), and their located loader errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>

#include "engagement_helpers.hpp"
#include "engine/core/diagnostics.hpp"
#include "engine/decision/ruleset.hpp"
#include "engine/engagement/engagement.hpp"

namespace t_engagement_rules {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace vedette;

namespace {

std::string problems(const std::string& file) {
  try {
    load_ruleset(std::string(VEDETTE_TEST_DATA) + "/bad/" + file);
  } catch (const LoadError& e) {
    std::string s;
    for (const auto& d : e.diagnostics()) {
      auto p = d.str();
      s += p.substr(p.find(file)) + "\n";
    }
    return s;
  }
  return "(loaded without error)";
}

}  // namespace

TEST_CASE("rules: default profiles carry seed 002 types and seed 003 classes", "[rules][002-L17-three-sorts]") {
  const Ruleset& r = *default_ruleset();
  const Profile* heavy = r.find_profile("heavy_cavalry");
  REQUIRE(heavy);
  CHECK(heavy->kind == UnitKind::cavalry);
  CHECK(r.unit_types[heavy->unit_type].id == "shock");
  CHECK(heavy->weight == Weight::heavy);
  const Profile* dragoons = r.find_profile("dragoons");
  REQUIRE(dragoons);
  CHECK_FALSE(r.unit_types[dragoons->unit_type].can_gallop);  // seed 002: mounted infantry never gallop
  CHECK(dragoons->foot == FootClass::light_foot);
  // Seed 002 L17: "three sorts of cavalry: Shock Cavalry, Shooting Cavalry
  // and Mounted Infantry", each a profile's type (issue 29's sweep: the
  // light cavalry's sort was not checked).
  std::vector<std::string> sorts;
  for (const auto& t : r.unit_types) sorts.push_back(t.id);
  CHECK(sorts == std::vector<std::string>{"shock", "shooting", "mounted_infantry"});
  CHECK(r.unit_types[dragoons->unit_type].id == "mounted_infantry");
  const Profile* light = r.find_profile("light_cavalry");
  REQUIRE(light);
  CHECK(r.unit_types[light->unit_type].id == "shooting");
  const Profile* pikes = r.find_profile("pikes");
  REQUIRE(pikes);
  CHECK(pikes->pikes);
  CHECK(pikes->move == Length::in(6));  // seed 003's example move
  CHECK(r.charge.declare_initiative_modifier == -2);     // seed 003 (charge section)
  CHECK(r.charge.infantry_square.max_battle_dice == 1);  // seed 004 (charge section)
  CHECK(r.combat.retire.hexes == 2.0);                   // seed 004
}

TEST_CASE("rules: a mounted shooter uses the next range band (seed 002)", "[rules][002-L29-band-further]") {
  const Ruleset& r = *default_ruleset();
  const Profile* lc = r.find_profile("light_cavalry");
  REQUIRE(lc);
  REQUIRE(lc->weapon);
  const Weapon& carbine = r.weapons[*lc->weapon];
  CHECK(carbine.band_at(Length::cm(8), 0) == 0u);
  CHECK(carbine.band_at(Length::cm(8), 1) == 1u);   // one band more distant
  CHECK(carbine.band_at(Length::cm(25), 0) == 2u);
  CHECK_FALSE(carbine.band_at(Length::cm(25), 1));  // beyond the last band
  CHECK_FALSE(carbine.band_at(Length::cm(31), 0));
  CHECK(carbine.reach(0) == Length::cm(30));
  CHECK(carbine.reach(1) == Length::cm(20));
  CHECK(carbine.reach(3) == Length());
}

TEST_CASE("engagement: a mounted shooter shoots as one range band more distant (seed 002)", "[rules][shooting][002-L29-band-further]") {
  RulesetPtr d = default_ruleset();
  const Weapon& carbine = d->weapons[*d->find_profile("light_cavalry")->weapon];
  // Light horse at halt, carbines, heavy foot ahead: the shot's band is the
  // one beyond the gap's own band.
  auto s = vtest::make_scenario(d, {{"C", 0, "light_cavalry", 12, {100, 100}, 0}, {"F", 1, "heavy_foot", 6, {100, 112}, 180}}, 200, 200);
  vtest::ScriptedBot none;
  Engagement g(*s, {&none, &none}, 3, 0);
  EventLog log;
  g.attach(&log);
  g.play_turn();
  const Event* shot = nullptr;
  for (const auto& e : log.events)
    if (e.kind == "shoot" && e.unit == "C") shot = &e;
  REQUIRE(shot);
  const Length gap = Length::cm(vtest::get<double>(*shot, "gap_cm"));
  REQUIRE(carbine.band_at(gap, 0));
  REQUIRE(carbine.band_at(gap, 1));
  CHECK(vtest::get<long long>(*shot, "band") == static_cast<long long>(*carbine.band_at(gap, 1) + 1));
  CHECK(*carbine.band_at(gap, 1) == *carbine.band_at(gap, 0) + 1);
  CHECK(shot->text.find("counting 1 further, mounted") != std::string::npos);
}

TEST_CASE("rules: profile errors are located and all reported", "[rules]") {
  const std::string p = problems("ruleset_profile_errors.yaml");
  // lancers exists in the base: the overlay merges into it.
  CHECK(p ==
        "ruleset_profile_errors.yaml:3:21: unknown weight 'enormous' (expected one of: light, medium, heavy)\n"
        "ruleset_profile_errors.yaml:5:5: profile 'musketeers': an infantry profile needs a move (e.g. 6in)\n"
        "ruleset_profile_errors.yaml:8:13: unknown weapon 'muskett', did you mean 'musket'? (expected one of: musket, carbine, pistol)\n"
        "ruleset_profile_errors.yaml:10:5: profile 'hussar': a cavalry profile needs a weight (seed 003: light, medium or heavy)\n");
}

TEST_CASE("rules: weapon and combat errors are located", "[rules]") {
  const std::string p = problems("ruleset_weapon_errors.yaml");
  CHECK(p.find("ruleset_weapon_errors.yaml:7:14: weapon 'bow' band 2: range bands must get longer") != std::string::npos);
  CHECK(p.find("ruleset_weapon_errors.yaml:9:16: expected a whole number from 1 to 7 for melee hit, found '9'") != std::string::npos);
}

// Seed 002 L10: "walk to take cover ... or away from all enemies". With no
// cover within the move the engine moves as the table's words say
// (combat.movement.away_from, issue 30): directly away from the nearest
// enemy; `centre` moves away from the middle of every enemy. The enemies
// here are below (20 cm) and to the right (40 cm) of the cavalry, so the
// two readings go different ways.
TEST_CASE("engagement: no cover within the move - away from the nearest enemy, or the middle of them all (seed 002 L10)",
          "[engagement][seed002][002-L10-words-away]") {
  auto heading_after_cover_move = [](const RulesetPtr& rules) {
    auto s = vtest::make_scenario(rules,
                                  {{"C", 0, "light_cavalry", 12, {100, 100}, 0},
                                   {"Near", 1, "heavy_foot", 12, {100, 120}, 0},
                                   {"Far", 1, "heavy_foot", 12, {140, 100}, 0}},
                                  300, 300, 3);
    vtest::ScriptedBot cover([](const Battle&, std::size_t) {
      Command c;
      c.move = Move::to_cover;
      c.pace = Pace::walk;
      return c;
    });
    vtest::ScriptedBot hold;
    Engagement g(*s, {&cover, &hold}, 11, 0);
    EventLog log;
    g.attach(&log);
    const Point start = g.battle().unit(0).pos;
    REQUIRE(g.play_turn());
    const Point end = g.battle().unit(0).pos;
    std::string what;
    for (const auto& e : log.events)
      if (e.kind == "move" && e.unit == "C") what = e.text;
    REQUIRE(std::hypot(end.x - start.x, end.y - start.y) > 1.0);  // it moved
    return std::pair{std::atan2(end.y - start.y, end.x - start.x) * 180.0 / 3.14159265358979323846, what};
  };
  // Away from Near (below: +y): straight up, -90 degrees.
  const auto [nearest, nearest_text] = heading_after_cover_move(default_ruleset());
  CHECK(nearest == Approx(-90.0).margin(0.5));
  CHECK(nearest_text.find("moves away from the nearest enemy, Near") != std::string::npos);
  // Away from the middle of Near and Far, (120, 110): up and to the left.
  const auto [centre, centre_text] = heading_after_cover_move(load_ruleset("builtin:default", {{"combat.movement.away_from", "centre"}}));
  CHECK(centre == Approx(std::atan2(-10.0, -20.0) * 180.0 / 3.14159265358979323846).margin(0.5));
  CHECK(centre_text.find("moves away from all enemies") != std::string::npos);
}

}  // namespace t_engagement_rules
