// Solo play (issue 3): scripted multi-turn sessions through the single
// commands, checking each unit's memory against seed 002's rules
// (docs/seeds.md): the +3 after running, the gallop
// limit, mounted infantry never galloping, casualties per full 10%, and undo
// back / redo forward over the append-only history.
#include <catch2/catch.hpp>
#include <sstream>

#include "sims/solo/session.hpp"
#include "solo_test_util.hpp"

namespace t_solo {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;
using nlohmann::json;

namespace {

// Creates a session in `dir` and checks it worked.
void make_game(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"solo", "new", "game"};
  args.insert(args.end(), extra.begin(), extra.end());
  Result r = run(args, dir.path);
  INFO(r.err);
  REQUIRE(r.status == 0);
}

json activate(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"solo", "activate", "game"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("--json");
  Result r = run(args, dir.path);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r.json()["activation"];
}

json status(const TempDir& dir) {
  Result r = run({"solo", "status", "game", "--json"}, dir.path);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return r.json();
}

void next_turn(const TempDir& dir) {
  Result r = run({"solo", "next-turn", "game"}, dir.path);
  INFO(r.err);
  REQUIRE(r.status == 0);
}

int term(const json& a, const std::string& id) {
  for (const auto& t : a["breakdown"])
    if (t["id"] == id) return t["value"].get<int>();
  return 0;
}

}  // namespace

TEST_CASE("solo: new writes a session file with its ruleset hash, roster and memory", "[solo]") {
  TempDir dir;
  // weapon=none: a unit's weapon (its type's musket, else) is a field of version 3.
  make_game(dir, {"--unit", "Lancers:shock,hero,figures=12", "--unit", "Dragoons:mounted-infantry,raw,weapon=none", "--seed", "7"});
  REQUIRE(fs::exists(dir.path / "game.vedette.yaml"));  // .vedette.yaml added: GAME had no extension
  std::string text = slurp(dir.path / "game.vedette.yaml");
  CHECK(contains(text, "format: vedette-session"));
  CHECK(contains(text, "version: 1"));
  CHECK(contains(text, "path: \"builtin:default\""));
  CHECK(contains(text, "hash: \"fnv1a64:"));
  json s = status(dir);
  CHECK(s["turn"] == 1);
  CHECK(s["seed"] == 7);
  REQUIRE(s["units"].size() == 2);
  CHECK(s["units"][0]["name"] == "Lancers");
  CHECK(s["units"][0]["hero"] == true);
  CHECK(s["units"][1]["type"] == "mounted_infantry");  // mounted-infantry accepted
  CHECK(s["units"][1]["raw"] == true);
  CHECK(s["units"][1]["figures"] == 12);
  CHECK(s["units"][0]["pace"] == "halt");

  // Refuses to overwrite without --force, and leaves the file alone.
  Result again = run({"solo", "new", "game", "--unit", "X:shock"}, dir.path);
  CHECK(again.status == 2);
  CHECK(contains(again.err, "already exists"));
  CHECK(slurp(dir.path / "game.vedette.yaml") == text);
  Result forced = run({"solo", "new", "game", "--unit", "X:shock", "--force"}, dir.path);
  CHECK(forced.status == 0);
  CHECK(status(dir)["units"][0]["name"] == "X");
}

TEST_CASE("solo: new refuses bad unit specs with a clear message (exit 2)", "[solo]") {
  TempDir dir;
  auto bad = [&](const std::string& spec, const std::string& says) {
    Result r = run({"solo", "new", "game", "--unit", spec}, dir.path);
    INFO(spec << " -> " << r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, says));
    CHECK_FALSE(fs::exists(dir.path / "game.vedette.yaml"));
  };
  bad("Lancers", "expected NAME:TYPE");
  bad(":shock", "needs a name");
  bad("Lancers:shok", "did you mean 'shock'");
  bad("Lancers:shock,figures=0", "figures must be");
  bad("Lancers:shock,heroic", "unknown option 'heroic'");
  bad("Lancers:shock,hero,hero", "given twice");
  Result two = run({"solo", "new", "game", "--unit", "A:shock", "--unit", "a:shooting"}, dir.path);
  CHECK(two.status == 2);
  CHECK(contains(two.err, "two units are named"));
  Result no_ruleset = run({"solo", "new", "game", "--unit", "A:shock", "--ruleset", "nope.yaml"}, dir.path);
  CHECK(no_ruleset.status == 2);
  CHECK_FALSE(fs::exists(dir.path / "game.vedette.yaml"));
}

// seed 002, risk factors: "3: If running from enemy last turn, or retreating
// as a result of melee." The session remembers the running, the player
// does not say it.
TEST_CASE("solo: seed 002 +3 the turn after running from the enemy", "[solo][seed002]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--seed", "1"});
  // Turn 1: enemy in range (+1) and on the flank (+2): RF 3, band RF2-5; a 1
  // is "Canter further from the nearest enemy", a running behaviour.
  json t1 = activate(dir, {"Lancers", "--enemy-in-range", "--enemy-flank-rear", "--roll", "1"});
  CHECK(t1["rf"] == 3);
  CHECK(t1["band"] == "RF2-5");
  CHECK(t1["behaviour"]["id"] == "canter_away");
  CHECK(t1["behaviour"]["running"] == true);
  // With seed 002 L25's turning rate, said where it binds (issue 28).
  CHECK(t1["instruction"] ==
        "Canter 30-40 cm directly away from the nearest enemy, then face it. Turning (seed 002): each 45 degrees it turns from its "
        "facing uses a quarter of the distance it moves (10 cm of a 40 cm canter); an about face costs nothing, so no turn costs "
        "more than 90 degrees; the turn to face it at the end is free.");
  CHECK(status(dir)["units"][0]["ran_this_turn"] == true);
  next_turn(dir);
  json s2 = status(dir);
  CHECK(s2["turn"] == 2);
  CHECK(s2["units"][0]["ran_last_turn"] == true);
  CHECK(s2["units"][0]["pace"] == "canter");

  // Turn 2: nothing else; +3 for running, -1 for moving at canter: RF 2.
  json t2 = activate(dir, {"Lancers", "--roll", "4"});
  CHECK(t2["facts"]["ran_last_turn"] == true);
  CHECK(term(t2, "running") == 3);
  CHECK(term(t2, "cover_or_fast") == -1);
  CHECK(t2["rf"] == 2);
  CHECK(t2["behaviour"]["id"] == "halt_facing");  // RF2-5, 4: halt facing
  next_turn(dir);

  // Turn 3: it halted last turn (did not run): no +3.
  json t3 = activate(dir, {"Lancers", "--roll", "3"});
  CHECK(t3["facts"]["ran_last_turn"] == false);
  CHECK(term(t3, "running") == 0);
  CHECK(t3["rf"] == 0);

  // Retreating from melee is the same +3 (one +3 even with both: stack false).
  next_turn(dir);
  json t4 = activate(dir, {"Lancers", "--retreated-from-melee", "--roll", "3"});
  CHECK(term(t4, "running") == 3);
}

// seed 002, supplement: "Gallop is only allowed for 2 turns in a row, after
// which the unit may only walk for a turn."
TEST_CASE("solo: seed 002 gallop limit forces a walk on the third turn", "[solo][seed002]") {
  TempDir dir;
  make_game(dir, {"--unit", "Hussars:shock", "--seed", "2"});
  // Turn 1: at halt, enemy in range: RF1; a 6 advances at gallop (Charge?).
  json t1 = activate(dir, {"Hussars", "--enemy-in-range", "--roll", "6"});
  CHECK(t1["rf"] == 1);
  CHECK(t1["behaviour"]["pace"] == "gallop");
  // seed 003 L24: no charge on the first turn, though the cell says "(Charge?)".
  CHECK(t1["behaviour"]["charge_possible"] == false);
  CHECK(t1["charge_refused"] == "no charge may be declared on the first turn of a scenario (seed 003)");
  next_turn(dir);
  CHECK(status(dir)["units"][0]["gallop_streak"] == 1);
  // Turn 2: galloping (-1), in range (+1), flank (+2): RF 2; a 6 gallops again.
  json t2 = activate(dir, {"Hussars", "--enemy-in-range", "--enemy-flank-rear", "--roll", "6"});
  CHECK(t2["rf"] == 2);
  CHECK(t2["behaviour"]["pace"] == "gallop");
  CHECK(t2["pace_limit"] == "none");
  next_turn(dir);
  CHECK(status(dir)["units"][0]["gallop_streak"] == 2);
  // Turn 3: the table says gallop again; the limit makes it a walk.
  json t3 = activate(dir, {"Hussars", "--enemy-in-range", "--enemy-flank-rear", "--roll", "6"});
  CHECK(t3["behaviour"]["table_pace"] == "gallop");
  CHECK(t3["behaviour"]["pace"] == "walk");
  CHECK(t3["pace_limit"] == "forced_walk");
  CHECK(contains(t3["pace_adjustment"].get<std::string>(), "Galloped 2 turns in a row"));
  CHECK(contains(t3["instruction"].get<std::string>(), "Walk 1-30 cm directly toward the nearest enemy"));
  next_turn(dir);
  json s4 = status(dir);
  CHECK(s4["units"][0]["gallop_streak"] == 0);
  CHECK(s4["units"][0]["pace"] == "walk");
  // Turn 4: after the walk it may gallop again (walking: no -1; RF 3).
  json t4 = activate(dir, {"Hussars", "--enemy-in-range", "--enemy-flank-rear", "--roll", "6"});
  CHECK(t4["rf"] == 3);
  CHECK(t4["behaviour"]["pace"] == "gallop");
  CHECK(t4["pace_limit"] == "none");
}

// seed 002, supplement: "Mounted infantry may never move at gallop".
TEST_CASE("solo: seed 002 mounted infantry never gallops", "[solo][seed002]") {
  TempDir dir;
  make_game(dir, {"--unit", "Dragoons:mounted-infantry", "--seed", "3"});
  json t1 = activate(dir, {"Dragoons", "--enemy-in-range", "--roll", "6"});
  CHECK(t1["behaviour"]["table_pace"] == "gallop");
  CHECK(t1["behaviour"]["pace"] == "canter");  // switches.no_gallop_pace
  CHECK(t1["pace_limit"] == "no_gallop");
  next_turn(dir);
  CHECK(status(dir)["units"][0]["gallop_streak"] == 0);
  // RF9+ and a 1: "Flee at Gallop" becomes a canter, still running.
  json t2 = activate(dir, {"Dragoons", "--enemy-in-range", "--enemy-flank-rear", "--retreated-from-melee",
                           "--casualties", "5", "--roll", "1"});
  CHECK(t2["rf"] >= 9);
  CHECK(t2["behaviour"]["id"] == "flee_gallop");
  CHECK(t2["behaviour"]["pace"] == "canter");
  CHECK(t2["behaviour"]["running"] == true);
}

// seed 002, risk factors: "+1 per 10% of group wounded or killed" (per FULL
// 10%: tables/default.yaml).
TEST_CASE("solo: seed 002 casualties add +1 per full 10% as they cross each step", "[solo][seed002]") {
  TempDir dir;
  make_game(dir, {"--unit", "Cuirassiers:shock,figures=20", "--seed", "4"});
  // 1 of 20 = 5%: nothing.
  json t1 = activate(dir, {"Cuirassiers", "--casualties", "1", "--roll", "3"});
  CHECK(t1["facts"]["casualties"] == 1);
  CHECK(term(t1, "casualties") == 0);
  next_turn(dir);
  // 2 of 20 = 10%: +1.
  json t2 = activate(dir, {"Cuirassiers", "--casualties", "1", "--roll", "3"});
  CHECK(t2["facts"]["casualties"] == 2);
  CHECK(term(t2, "casualties") == 1);
  next_turn(dir);
  // The casualties command between activations: 3 of 20 = 15%, still +1.
  Result c = run({"solo", "casualties", "game", "Cuirassiers", "1"}, dir.path);
  REQUIRE(c.status == 0);
  CHECK(contains(c.out, "3 of 20 figures lost"));
  json t3 = activate(dir, {"Cuirassiers", "--roll", "3"});
  CHECK(term(t3, "casualties") == 1);
  next_turn(dir);
  // 4 of 20 = 20%: +2; 6 of 20 = 30%: +3.
  json t4 = activate(dir, {"Cuirassiers", "--casualties", "1", "--roll", "3"});
  CHECK(term(t4, "casualties") == 2);
  next_turn(dir);
  REQUIRE(run({"solo", "casualties", "game", "Cuirassiers", "6", "--total"}, dir.path).status == 0);
  json t5 = activate(dir, {"Cuirassiers", "--roll", "3"});
  CHECK(t5["facts"]["casualties"] == 6);
  CHECK(term(t5, "casualties") == 3);
  // More casualties than figures: refused, nothing written.
  std::string before = slurp(dir.path / "game.vedette.yaml");
  Result too_many = run({"solo", "casualties", "game", "Cuirassiers", "15"}, dir.path);
  CHECK(too_many.status == 2);
  CHECK(contains(too_many.err, "15 more would make 21 casualties, more than it has"));
  CHECK(slurp(dir.path / "game.vedette.yaml") == before);
}

TEST_CASE("solo: undo goes back any number of steps and redo forward and the log keeps everything", "[solo]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--unit", "Hussars:shooting", "--seed", "99"});
  activate(dir, {"Lancers", "--enemy-in-range", "--enemy-flank-rear", "--roll", "1"});  // #1 canter away
  activate(dir, {"Hussars", "--roll", "2"});                                             // #2
  next_turn(dir);                                                                        // #3
  json at_turn2 = status(dir);
  activate(dir, {"Lancers", "--roll", "5"});  // #4
  REQUIRE(run({"solo", "casualties", "game", "Hussars", "2"}, dir.path).status == 0);  // #5
  json before_undo = status(dir);

  // Undo 2: back to the start of turn 2.
  Result u = run({"solo", "undo", "game", "2"}, dir.path);
  INFO(u.err);
  REQUIRE(u.status == 0);
  CHECK(contains(u.out, "Undone: #5"));
  CHECK(contains(u.out, "Undone: #4"));
  json s = status(dir);
  CHECK(s["units"] == at_turn2["units"]);
  // Undo 3 more: through the turn change, back to the very start.
  REQUIRE(run({"solo", "undo", "game", "3"}, dir.path).status == 0);
  s = status(dir);
  CHECK(s["turn"] == 1);
  CHECK(s["units"][0]["pace"] == "halt");
  CHECK(s["units"][0]["acted_in_turn"] == 0);
  CHECK(s["undo"]["steps"] == 0);
  CHECK(s["redo"]["steps"] == 5);
  // Nothing more to undo: exit 2, file unchanged.
  std::string text = slurp(dir.path / "game.vedette.yaml");
  Result none = run({"solo", "undo", "game"}, dir.path);
  CHECK(none.status == 2);
  CHECK(contains(none.err, "only 0 step(s)"));
  CHECK(slurp(dir.path / "game.vedette.yaml") == text);
  // Redo all five: exactly where we were.
  Result r = run({"solo", "redo", "game", "5"}, dir.path);
  INFO(r.err);
  REQUIRE(r.status == 0);
  s = status(dir);
  CHECK(s["turn"] == before_undo["turn"]);
  CHECK(s["units"] == before_undo["units"]);
  CHECK(s["next_roll"] == before_undo["next_roll"]);

  // The log: every event, in order, undone ones marked until redone.
  Result log = run({"solo", "log", "game", "--json"}, dir.path);
  REQUIRE(log.status == 0);
  json events = log.json();
  REQUIRE(events.size() == 5 + 2 + 3 + 5);  // 5 steps, then one event per step undone or redone
  CHECK(events[5]["event"] == "undo");
  CHECK(events[5]["undoes"] == 5);
  CHECK(events[6]["undoes"] == 4);
  CHECK(events[9]["undoes"] == 1);
  CHECK(events[10]["event"] == "redo");
  CHECK(events[10]["redoes"] == 1);
  CHECK(events[14]["redoes"] == 5);
  for (int k = 0; k < 5; ++k) CHECK(events[static_cast<std::size_t>(k)]["in_effect"] == true);

  // A new step after an undo clears what redo could bring back.
  REQUIRE(run({"solo", "undo", "game"}, dir.path).status == 0);
  REQUIRE(run({"solo", "casualties", "game", "Hussars", "1"}, dir.path).status == 0);
  CHECK(status(dir)["redo"]["steps"] == 0);
  Result text_log = run({"solo", "log", "game"}, dir.path);
  CHECK(contains(text_log.out, "[undone]"));
}

// The honest-dice rule: the roll counter never goes back, and a unit's die
// for a turn, once rolled, is the die it keeps after an undo.
TEST_CASE("solo: an undone roll cannot be fished again: re-activation reuses the die", "[solo]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--seed", "12345"});
  json first = activate(dir, {"Lancers", "--enemy-in-range"});
  CHECK(first["dice"] == "rolled");
  CHECK(first["roll_index"] == 0);
  CHECK(first["roll"] == vedette::solo::solo_roll(12345, 0));
  REQUIRE(run({"solo", "undo", "game"}, dir.path).status == 0);
  // Same unit, same turn, different answers: the same die.
  json again = activate(dir, {"Lancers", "--enemy-flank-rear"});
  CHECK(again["roll"] == first["roll"]);
  CHECK(again["roll_index"] == 0);
  CHECK(again["same_die_as"] == 1);
  CHECK(again["rf"] == 2);
  // A physical roll cannot replace it either.
  REQUIRE(run({"solo", "undo", "game"}, dir.path).status == 0);
  int other = first["roll"].get<int>() % 6 + 1;
  Result fish = run({"solo", "activate", "game", "Lancers", "--roll", std::to_string(other)}, dir.path);
  CHECK(fish.status == 2);
  CHECK(contains(fish.err, "already rolled"));
  // The next turn rolls afresh, from the next number (never reused).
  activate(dir, {"Lancers"});
  next_turn(dir);
  json t2 = activate(dir, {"Lancers"});
  CHECK(t2["roll_index"] == 1);
  CHECK(t2["roll"] == vedette::solo::solo_roll(12345, 1));
  CHECK(status(dir)["next_roll"] == 2);
}

TEST_CASE("solo: activate refuses a unit that has acted, an unknown unit, and physical-dice sessions without --roll",
          "[solo]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--seed", "5", "--physical-dice"});
  Result no_roll = run({"solo", "activate", "game", "Lancers"}, dir.path);
  CHECK(no_roll.status == 2);
  CHECK(contains(no_roll.err, "physical dice"));
  Result ok = run({"solo", "activate", "game", "lancers", "--roll", "3"}, dir.path);  // case-insensitive name
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK(contains(ok.out, "D6: 3  (your roll)"));
  Result twice = run({"solo", "activate", "game", "Lancers", "--roll", "3"}, dir.path);
  CHECK(twice.status == 2);
  CHECK(contains(twice.err, "already acted in turn 1"));
  Result unknown = run({"solo", "activate", "game", "Lancer", "--roll", "3"}, dir.path);
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.err, "did you mean 'Lancers'"));
  Result missing = run({"solo", "status", "nosuchgame"}, dir.path);
  CHECK(missing.status == 2);
  CHECK(contains(missing.err, "no session file nosuchgame.vedette.yaml"));
}

// Issue 30: the orders are far from the move; `solo status` leads with what
// to do now, then each unit's orders this turn, one line each.
TEST_CASE("solo: status leads with the next step and the turn's orders", "[solo]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--unit", "Hussars:shock,light", "--seed", "5", "--physical-dice"});
  REQUIRE(run({"solo", "activate", "game", "Lancers", "--roll", "1"}, dir.path).status == 0);
  Result st = run({"solo", "status", "game"}, dir.path);
  INFO(st.out << st.err);
  REQUIRE(st.status == 0);
  std::istringstream lines(st.out);
  std::string first, second, third, fourth;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  std::getline(lines, fourth);
  CHECK(contains(first, ": turn 1"));
  CHECK(second.rfind("Next: Hussars' activation", 0) == 0);
  CHECK(third == "Orders this turn:");
  CHECK(fourth.rfind("  Lancers: ", 0) == 0);  // the activation's instruction: Lancers has acted, Hussars not
  CHECK(contains(st.out, "acted this turn (#"));
  CHECK(st.out.find("Hussars: ", st.out.find("Orders this turn:")) > st.out.find("Ruleset: "));
}

TEST_CASE("solo: morale is remembered and undoable", "[solo]") {
  TempDir dir;
  make_game(dir, {"--unit", "Lancers:shock", "--seed", "5"});
  REQUIRE(run({"solo", "morale", "game", "Lancers", "shaken", "--reason", "charge fell short"}, dir.path).status == 0);
  CHECK(status(dir)["units"][0]["morale"] == "shaken");
  CHECK(run({"solo", "morale", "game", "Lancers", "wobbly"}, dir.path).status == 2);
  REQUIRE(run({"solo", "undo", "game"}, dir.path).status == 0);
  CHECK(status(dir)["units"][0]["morale"] == "steady");
}

}  // namespace t_solo
