// Seed 003 (docs/seeds.md), Charge: "When a unit
// moves a charge move it must move at normal speed on the following turn."
// A solo session remembers a charge answered in a turn and limits the next
// turn's pace to combat.charge.next_turn_pace, the way the gallop limit is
// kept. These tests play the switch's walk reading
// (tests/data/engagement/next_turn_walk.yaml); tables/default.yaml's default
// is gallop (no pace cap: issue 14 reads "normal speed" as no charge).
#include <catch2/catch.hpp>

#include <algorithm>

#include "sims/solo/session.hpp"
#include "solo_test_util.hpp"

namespace t_solo_charge_pace {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using nlohmann::json;

namespace {

// Lancers roll "Advance towards nearest enemy at gallop (Charge?)" (seed
// 002: RF1, a 6) in turn 2 (seed 003 L24: no charges in turn 1).
void lancers_may_charge(const TempDir& dir) {
  Result n = run({"solo", "new", "game", "--unit", "Lancers:shock,heavy", "--seed", "21", "--ruleset",
                  std::string(VEDETTE_TEST_DATA) + "/engagement/next_turn_walk.yaml"},
                 dir.path);
  INFO(n.err);
  REQUIRE(n.status == 0);
  REQUIRE(run({"solo", "next-turn", "game"}, dir.path).status == 0);
  Result a = run({"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6", "--json"}, dir.path);
  INFO(a.err);
  REQUIRE(a.status == 0);
  REQUIRE(a.json()["activation"]["behaviour"]["pace"] == "gallop");
  REQUIRE(a.json()["activation"]["behaviour"]["charge_possible"] == true);
}

void ok(const TempDir& dir, const std::vector<std::string>& args) {
  Result r = run(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
}

// The next turn's activation on the same facts and the same 6 (gallop).
json next_turn_gallop_roll(const TempDir& dir) {
  ok(dir, {"solo", "next-turn", "game"});
  Result a = run({"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "6", "--json"}, dir.path);
  INFO(a.out << a.err);
  REQUIRE(a.status == 0);
  return a.json()["activation"];
}

json status_unit(const TempDir& dir) { return run({"solo", "status", "game", "--json"}, dir.path).json()["units"][0]; }

}  // namespace

TEST_CASE("solo charge pace: after a charge the unit moves at normal speed the following turn (seed 003)", "[solo][charge][pace]") {
  TempDir dir;
  lancers_may_charge(dir);
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "light-horse"});
  json u = status_unit(dir);
  CHECK(u["charged_this_turn"] == true);
  CHECK(u["charged_last_turn"] == false);

  json t2 = next_turn_gallop_roll(dir);
  CHECK(t2["behaviour"]["table_pace"] == "gallop");
  CHECK(t2["behaviour"]["pace"] == "walk");  // combat.charge.next_turn_pace
  CHECK(t2["pace_limit"] == "after_charge");
  CHECK(t2["facts"]["charged_last_turn"] == true);
  REQUIRE(t2["pace_adjustment"].is_string());
  CHECK(t2["pace_adjustment"].get<std::string>().find("Charged last turn") != std::string::npos);
  CHECK(t2["pace_adjustment"].get<std::string>().find("seed 003") != std::string::npos);
  CHECK(contains(t2["instruction"].get<std::string>(), "walk 1-30 cm"));  // seed 002's walk, as the table's gallop would be
  CHECK(status_unit(dir)["pace"] == "walk");

  // Only the following turn: the turn after, the same 6 gallops again.
  json t3 = next_turn_gallop_roll(dir);
  CHECK(t3["behaviour"]["pace"] == "gallop");
  CHECK(t3["pace_limit"] == "none");
  CHECK(t3["facts"]["charged_last_turn"] == false);
}

TEST_CASE("solo charge pace: a charge that falls short is a charge move too, a declined one is not (seed 003)", "[solo][charge][pace]") {
  SECTION("falls short: it must still move forward, so normal speed next turn") {
    TempDir dir;
    lancers_may_charge(dir);
    ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "80cm", "--defender", "light-horse"});  // range 75cm
    json t2 = next_turn_gallop_roll(dir);
    CHECK(t2["pace_limit"] == "after_charge");
    CHECK(t2["behaviour"]["pace"] == "walk");
  }
  SECTION("declined: no charge move, no limit (the gallop limit alone applies)") {
    TempDir dir;
    lancers_may_charge(dir);
    ok(dir, {"solo", "charge", "game", "Lancers", "--decline"});
    CHECK(status_unit(dir)["charged_this_turn"] == false);
    json t2 = next_turn_gallop_roll(dir);
    CHECK(t2["facts"]["charged_last_turn"] == false);
    CHECK(t2["pace_limit"] != "after_charge");
    CHECK(t2["behaviour"]["pace"] == "gallop");
  }
}

TEST_CASE("solo charge pace: undoing the charge takes the limit back with it (seed 003)", "[solo][charge][pace]") {
  TempDir dir;
  lancers_may_charge(dir);
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "light-horse"});
  ok(dir, {"solo", "undo", "game"});
  CHECK(status_unit(dir)["charged_this_turn"] == false);
  ok(dir, {"solo", "charge", "game", "Lancers", "--decline"});
  json t2 = next_turn_gallop_roll(dir);
  CHECK(t2["behaviour"]["pace"] == "gallop");
  // Redo is gone (a new step was taken); undo the turn's activation and the
  // turn change, take the declined charge back, charge after all.
  ok(dir, {"solo", "undo", "game"});
  ok(dir, {"solo", "undo", "game"});
  ok(dir, {"solo", "undo", "game"});
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "light-horse"});
  json again = next_turn_gallop_roll(dir);
  CHECK(again["behaviour"]["pace"] == "walk");
  CHECK(again["pace_limit"] == "after_charge");
}

TEST_CASE("solo charge pace: the recorded charged_last_turn is checked on reading, and older files without it still load", "[solo][charge][pace][files]") {
  TempDir dir;
  lancers_may_charge(dir);
  ok(dir, {"solo", "charge", "game", "Lancers", "--distance", "40cm", "--defender", "light-horse"});
  (void)next_turn_gallop_roll(dir);
  const fs::path file = dir.path / "game.vedette.yaml";
  const std::string text = slurp(file);
  const std::string key = "charged_last_turn: true";
  const auto at = text.find(key);
  REQUIRE(at != std::string::npos);

  // Hand-edited to false: refused, located at the value.
  std::string edited = text;
  edited.replace(at, key.size(), "charged_last_turn: false");
  spit(file, edited);
  const int line = 1 + static_cast<int>(std::count(edited.begin(), edited.begin() + static_cast<long>(at), '\n'));
  const int column = static_cast<int>(at - edited.rfind('\n', at)) + static_cast<int>(std::string("charged_last_turn: ").size());
  Result bad = run({"solo", "status", "game"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "game.vedette.yaml:" + std::to_string(line) + ":" + std::to_string(column) +
                              ": history #5 (activate): facts.charged_last_turn is false but the session knew true"));

  // Written before the rule was kept: no key. It reads, the pace as played.
  std::string old = text;
  old.erase(at - 2, key.size() + 2);  // ", charged_last_turn: true"
  spit(file, old);
  Result s = run({"solo", "status", "game", "--json"}, dir.path);
  INFO(s.err);
  REQUIRE(s.status == 0);
  CHECK(s.json()["units"][0]["pace"] == "walk");
}

}  // namespace t_solo_charge_pace
