// Seed 000 module in solo play (issue 8): the reaction-table bot (seed 002's
// Actions Table) drives ASL Cavalry, each behaviour said in seed 000's terms:
// MF (13.34), Gallop (13.36), hexes, and Charge legality given the range in
// hexes (13.6). `vedette solo new --module asl` switches it on.
#include <catch2/catch.hpp>

#include "engine/decision/actions_table.hpp"
#include "engine/modules/asl/asl_phrasing.hpp"
#include "solo_test_util.hpp"

namespace t_asl_solo {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using nlohmann::json;

namespace {

const vedette::Ruleset& seed002() { return *vedette::default_ruleset(); }
const vedette::asl::Rules& asl_rules() { return *vedette::asl::default_rules(); }

std::string say(int rf, int roll, vedette::UnitState u = {}) {
  vedette::Decision d = vedette::decide(seed002(), rf, roll, u);
  return vedette::asl::instruction(asl_rules(), seed002(), d, u);
}

}  // namespace

TEST_CASE("asl solo: a gallop is a Gallop declared at the start of the MPh (13.36: 20 MF)", "[asl][solo]") {
  // seed 002 RF6-8, D6 1: "Flee at Gallop from nearest enemy".
  CHECK(say(6, 1) ==
        "Gallop (declare at the start of the phase: allotment 20 MF, Horse CX; NA while in marsh, deep stream, fordable Water Obstacle or if already CX: 13.36) directly away from the nearest enemy, each hex "
        "opening the range.");
}

TEST_CASE("asl solo: walk and canter are MF from the tables, halts stay in the hex, no facing (13.3: no VCA)", "[asl][solo]") {
  // RF2-5, D6 1: "Canter further from the nearest enemy" (faces it in seed 002's terms).
  CHECK(say(2, 1) == "Move up to 12 MF directly away from the nearest enemy, each hex opening the range.");
  // RF2-5, D6 2: walk to cover.
  CHECK(say(2, 2) == "Move up to 6 MF into the nearest hex with cover (a positive TEM) it can reach with them; if there is none, "
                     "directly away from the enemy (with enemies on more than one side of it, away from the nearest).");
  // RF2-5, D6 4: halt facing the nearest enemy.
  CHECK(say(2, 4) == "Stay in its hex (no MF).");
}

TEST_CASE("asl solo: (Charge?) is 13.6's requirements in hexes, Galloping or declaring a Gallop", "[asl][solo]") {
  // RF1, D6 6: "Advance towards nearest enemy at gallop (Charge?)".
  std::string g = say(1, 6);
  CHECK(vedette::asl::pace_phrase(asl_rules(), vedette::Pace::gallop) ==
        "Gallop (declare at the start of the phase: allotment 20 MF, Horse CX; NA while in marsh, deep stream, fordable Water Obstacle or if already CX: 13.36)");
  CHECK(contains(g, "directly toward the nearest enemy, each hex closing the range."));
  CHECK(contains(g, "Charge? Only vs a Known enemy Location in its LOS 3 or more hexes away when declared (at 1-2 hexes: no "
                    "Charge); it is Galloping; it must be able to Gallop into that Location and pay 3 MF more with the cost of "
                    "entering it (13.6)."));
  // RF1, D6 4: "Continue current actions facing the nearest enemy (Charge?)", cantering.
  vedette::UnitState canter;
  canter.pace = vedette::Pace::canter;
  std::string c = say(1, 4, canter);
  CHECK(contains(c, "Carry on as before: Move up to 12 MF in a straight line of hexes, continuing the way it last moved."));
  CHECK(contains(c, "declaring a Gallop with it (+4 MF to 16 MF; NA if the Horse is CX or in marsh, deep stream, fordable Water "
                    "Obstacle)"));
  // Mounted infantry may never gallop (seed 002): no Charge.
  vedette::UnitState mi;
  mi.type = seed002().find_unit_type("mounted_infantry");
  REQUIRE(mi.type);
  std::string m = say(1, 6, mi);
  CHECK(contains(m, "Move up to 12 MF directly toward the nearest enemy"));
  CHECK(contains(m, "No Charge this turn: 13.6 needs Galloping Cavalry, and Mounted infantry may never gallop."));
  // The gallop limit (seed 002): after two gallops, a walk and no Charge.
  vedette::UnitState tired;
  tired.pace = vedette::Pace::gallop;
  tired.gallop_streak = 2;
  std::string t = say(1, 6, tired);
  CHECK(contains(t, "Move up to 6 MF"));
  CHECK(contains(t, "No Charge this turn"));
}

TEST_CASE("asl solo: Galloping to cover names the terrain 13.36 bars", "[asl][solo]") {
  vedette::Decision d;
  d.behaviour = seed002().find_behaviour("walk_to_cover");
  REQUIRE(d.behaviour);
  d.pace = vedette::Pace::gallop;
  std::string s = vedette::asl::instruction(asl_rules(), seed002(), d, {});
  CHECK(contains(s, "(Galloping, not into: woods, woods along a TB, marsh, crag, graveyard, deep stream, fordable Water Obstacle, "
                    "Bypass, across an Abrupt Elevation Change, onto a one-lane bridge; 13.36)"));
}

TEST_CASE("asl solo: `solo new --module asl` records the module and activate speaks ASL", "[asl][solo][commands]") {
  TempDir dir;
  Result n = run({"solo", "new", "game", "--module", "asl", "--unit", "Cossacks:shock", "--unit", "Dragoons:mounted-infantry",
                  "--seed", "3"},
                 dir.path);
  INFO(n.err);
  REQUIRE(n.status == 0);
  CHECK(contains(n.out, "Module: asl"));
  CHECK(contains(slurp(dir.path / "game.vedette.yaml"), "\nmodule: asl\n"));

  // RF 6 (flank +2, in range +1, retreating +3), D6 1: flee at gallop.
  Result a = run({"solo", "activate", "game", "Cossacks", "--enemy-flank-rear", "--enemy-in-range", "--retreated-from-melee",
                  "--roll", "1", "--json"},
                 dir.path);
  INFO(a.err);
  REQUIRE(a.status == 0);
  json act = a.json()["activation"];
  CHECK(act["instruction"] ==
        "Gallop (declare at the start of the phase: allotment 20 MF, Horse CX; NA while in marsh, deep stream, fordable Water Obstacle or if already CX: 13.36) directly away from the nearest enemy, each hex "
        "opening the range.");
  // RF 2 (flank +2), D6 6: gallop toward, "(Charge?)": said in 13.6's terms, not seed 003's form.
  Result c = run({"solo", "activate", "game", "Dragoons", "--enemy-flank-rear", "--roll", "6"}, dir.path);
  INFO(c.err);
  REQUIRE(c.status == 0);
  CHECK(contains(c.out, "Do:    Dragoons: Move up to 12 MF directly toward the nearest enemy, each hex closing the range. No "
                        "Charge this turn: 13.6 needs Galloping Cavalry, and Mounted infantry may never gallop."));
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(st.status == 0);
  CHECK(st.json()["module"] == "asl");
  // No seed 003 charge form is pending.
  Result ch = run({"solo", "charge", "game", "Dragoons", "--decline"}, dir.path);
  CHECK(ch.status == 2);
}

TEST_CASE("asl solo: play says each behaviour in MF, a session without the module is unchanged", "[asl][solo][commands]") {
  TempDir dir;
  REQUIRE(run({"solo", "new", "game", "--module", "asl", "--unit", "Cossacks:shock", "--seed", "5"}, dir.path).status == 0);
  Result p = run({"solo", "play", "game"}, dir.path, "\n\n\n\n\n\n");
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  auto at = p.out.find("Do:");
  REQUIRE(at != std::string::npos);
  std::string line = p.out.substr(at, p.out.find('\n', at) - at);
  CHECK(contains(line, " MF"));
  CHECK_FALSE(contains(line, "cm"));
  // ASL's own phases are the rulebook's: no seed 003 initiative or later steps, no centimetres.
  CHECK_FALSE(contains(p.out, "Initiative"));
  CHECK_FALSE(contains(p.out, " cm"));

  TempDir plain;
  REQUIRE(run({"solo", "new", "game", "--unit", "Cossacks:shock", "--seed", "5"}, plain.path).status == 0);
  CHECK_FALSE(contains(slurp(plain.path / "game.vedette.yaml"), "module:"));
  Result bad = run({"solo", "new", "other", "--module", "dbm", "--unit", "Cossacks:shock"}, plain.path);
  CHECK(bad.status == 2);
}

}  // namespace t_asl_solo
