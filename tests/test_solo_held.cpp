// Seed 003 L54 in the session's memory (session version 8): a unit struck by
// the player's charge before its own move (the player moved first) never
// makes that move, so it ends the turn at halt, its gallop streak as the
// Actions Table's after() gives for a halt, not having run (the engine's
// step_end). A version 7 file holding such a turn was played with the
// activation's pace kept, and still loads and plays on so.
#include <catch2/catch.hpp>

#include "solo_test_util.hpp"

namespace t_solo_held {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;

namespace {

void ok(const TempDir& dir, const std::vector<std::string>& args) { run_ok(dir, args); }

// The user's trial: Cuirassiers (heavy) at halt in turn 1; in turn 2 its
// table says "Flee at gallop" (it runs), then the initiative goes to the
// player (`player_first`) or the cavalry, the player's unit charges it, it
// stands, and wins the melee.
void struck_turn(const TempDir& dir, bool player_first) {
  ok(dir, {"solo", "new", "h", "--unit", "Cuirassiers:shock,heavy", "--seed", "1", "--physical-dice"});
  ok(dir, {"solo", "activate", "h", "Cuirassiers", "--roll", "3"});
  ok(dir, {"solo", "initiative", "h", "--total", "6", "--roll", "1"});
  ok(dir, {"solo", "end-move", "h"});
  ok(dir, {"solo", "next-turn", "h"});
  Result flee = run({"solo", "activate", "h", "Cuirassiers", "--enemy-in-range", "--enemy-flank-rear", "--casualties", "4", "--roll", "1"},
                    dir.path);
  INFO(flee.out << flee.err);
  REQUIRE(flee.status == 0);
  REQUIRE(contains(flee.out, "Next turn: Cuirassiers counts as running from the enemy (+3)."));
  if (player_first) ok(dir, {"solo", "initiative", "h", "--total", "6", "--roll", "1"});
  else ok(dir, {"solo", "initiative", "h", "--total", "1", "--roll", "6"});
  Result charged = run({"solo", "charged", "h", "Cuirassiers", "--as", "heavy-horse", "--distance", "25cm", "--roll", "6", "6"}, dir.path);
  INFO(charged.out << charged.err);
  REQUIRE(charged.status == 0);
  REQUIRE(contains(charged.out, "cannot move, turn or change frontage for the rest of the turn (seed 003 L54)"));
  ok(dir, {"solo", "end-move", "h"});
  ok(dir, {"solo", "melee", "h", "Cuirassiers", "--their-hits", "1", "--hits", "6"});
  ok(dir, {"solo", "next-turn", "h"});
}

const char* const k_moving_fast = "-1  Unit entirely in cover, or moving at Canter/Gallop (here: moving fast)";
const char* const k_ran = "+3  Running from enemy last turn, or retreating as a result of melee (here: ran last turn)";

}  // namespace

TEST_CASE("solo held: a unit struck by your charge before its own move ends the turn at halt, not having run (seed 003 L54)",
          "[solo][reaction][seed003][003-L54-solo-struck-holds]") {
  TempDir dir;
  struck_turn(dir, true);
  Result st = run({"solo", "status", "h"}, dir.path);
  INFO(st.out << st.err);
  REQUIRE(st.status == 0);
  CHECK(contains(st.out, "Cuirassiers: Shock cavalry (heavy); 12 figures, 5 lost (41.66%)\n      at halt\n"));
  CHECK_FALSE(contains(st.out, "ran from the enemy last turn"));
  CHECK_FALSE(contains(st.out, "galloped"));
  // Its next activation: no -1 for moving fast, no +3 for running.
  Result act = run({"solo", "activate", "h", "Cuirassiers", "--roll", "3"}, dir.path);
  INFO(act.out << act.err);
  REQUIRE(act.status == 0);
  CHECK(contains(act.out, "Risk factor 4  (band RF2-5)"));
  CHECK_FALSE(contains(act.out, k_moving_fast));
  CHECK_FALSE(contains(act.out, k_ran));
  // The file is version 8 (its memory of the struck unit), records the
  // facts the activation was decided on, and reads back.
  const std::string file = slurp(dir.path / "h.vedette.yaml");
  CHECK(contains(file, "\nversion: 8\n"));
  CHECK(contains(file, "facts: {hero: false, raw: false, pace: halt, gallop_streak: 0, ran_last_turn: false, charged_last_turn: false"));
  Result again = run({"solo", "status", "h", "--json"}, dir.path);
  INFO(again.err);
  REQUIRE(again.status == 0);
  // Undo and redo the turn change: the same memory.
  ok(dir, {"solo", "undo", "h"});
  ok(dir, {"solo", "undo", "h"});
  ok(dir, {"solo", "redo", "h"});
  Result redone = run({"solo", "status", "h"}, dir.path);
  REQUIRE(redone.status == 0);
  CHECK(contains(redone.out, "5 lost (41.66%)\n      at halt\n"));
}

TEST_CASE("solo held: the cavalry moved first, so its move was made before your charge struck it: it keeps its activation's pace (seed 003 L54)",
          "[solo][reaction][seed003]") {
  TempDir dir;
  struck_turn(dir, false);
  Result st = run({"solo", "status", "h"}, dir.path);
  INFO(st.out << st.err);
  REQUIRE(st.status == 0);
  CHECK(contains(st.out, "moving at gallop, galloped 1 turn in a row; ran from the enemy last turn"));
  Result act = run({"solo", "activate", "h", "Cuirassiers", "--roll", "3"}, dir.path);
  INFO(act.out << act.err);
  REQUIRE(act.status == 0);
  CHECK(contains(act.out, k_moving_fast));
  CHECK(contains(act.out, k_ran));
  CHECK(contains(slurp(dir.path / "h.vedette.yaml"), "\nversion: 7\n"));
}

TEST_CASE("solo held: a version 7 file whose struck unit kept its activation's pace loads and plays on as it was played (seed 003 L54)",
          "[solo][files][seed003]") {
  TempDir dir;
  // Written by the vedette before version 8 (the user's trial, through its
  // turn 3 activation, which recorded pace gallop and ran last turn).
  fs::copy_file(vtest::data("sessions/held_v7.vedette.yaml"), dir.path / "h.vedette.yaml");
  const std::string before = slurp(dir.path / "h.vedette.yaml");
  REQUIRE(contains(before, "\nversion: 7\n"));
  REQUIRE(contains(before, "facts: {hero: false, raw: false, pace: gallop, gallop_streak: 1, ran_last_turn: true"));
  Result st = run({"solo", "status", "h"}, dir.path);
  INFO(st.out << st.err);
  REQUIRE(st.status == 0);
  CHECK(contains(st.out, "moving at walk; ran from the enemy last turn"));
  // Undo that activation and make it again: the same facts as before.
  ok(dir, {"solo", "undo", "h"});
  Result act = run({"solo", "activate", "h", "Cuirassiers", "--roll", "3"}, dir.path);
  INFO(act.out << act.err);
  REQUIRE(act.status == 0);
  CHECK(contains(act.out, k_moving_fast));
  CHECK(contains(act.out, k_ran));
  // ...and on to the next turn, still version 7.
  ok(dir, {"solo", "next-turn", "h"});
  ok(dir, {"solo", "activate", "h", "Cuirassiers", "--roll", "2"});
  CHECK(contains(slurp(dir.path / "h.vedette.yaml"), "\nversion: 7\n"));
  Result json = run({"solo", "status", "h", "--json"}, dir.path);
  REQUIRE(json.status == 0);
}

}  // namespace t_solo_held
