// Issue 28 at the table: the player's move as a step of the turn
// (solo::next_step, `solo end-move`, a resumed `solo play`), a unit caught
// before it moves (seed 003 L98), the turning limit said with the move it
// limits (seed 002 L25), and each unit type's default weapon.
#include <catch2/catch.hpp>

#include "solo_test_util.hpp"

namespace t_solo_your_move {  // the file's own: tests/CMakeLists.txt compiles the test files in batches

using namespace solo_test;

namespace {

void ok(const TempDir& dir, const std::vector<std::string>& args) { run_ok(dir, args); }

// The reactions' game at turn 2 (solo_test_util.hpp), before its initiative.
void turn_two(const TempDir& dir) { reactions_turn_two(dir, false); }

std::string next_step(const TempDir& dir) {
  Result r = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(r.status == 0);
  return r.json()["next_step"]["step"].get<std::string>();
}

}  // namespace

TEST_CASE("solo new: without weapon= a unit carries its type's default_weapon, and weapon=none none (issue 28)", "[solo][weapon]") {
  TempDir dir;
  Result r = run({"solo", "new", "game", "--unit", "Hussars:shooting", "--unit", "Dragoons:mounted-infantry", "--unit",
                  "Lancers:shock", "--unit", "Scouts:shooting,weapon=none", "--unit", "Pistoleers:shooting,weapon=pistol", "--seed", "1"},
                 dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "Hussars: Shooting cavalry, Carbine; 12 figures (assumed; give figures=N for the real number) (its type's "
                        "weapon; give weapon=none if it has none)"));
  CHECK(contains(r.out, "Dragoons: Mounted infantry, Musket; 12 figures"));
  CHECK(contains(r.out, "Dragoons: Mounted infantry, Musket; 12 figures (assumed; give figures=N for the real number) (its type's weapon; give weapon=none"));
  CHECK(contains(r.out, "Lancers: Shock cavalry; 12 figures (assumed; give figures=N for the real number)\n"));
  CHECK(contains(r.out, "Scouts: Shooting cavalry; 12 figures (assumed; give figures=N for the real number)\n"));
  CHECK(contains(r.out, "Pistoleers: Shooting cavalry, Pistols; 12 figures (assumed; give figures=N for the real number)\n"));
  // The weapon is the unit's, written in the session: a later change of the
  // ruleset's default does not arm or disarm it.
  const std::string file = slurp(dir.path / "game.vedette.yaml");
  CHECK(contains(file, "name: \"Hussars\", type: \"shooting\""));
  CHECK(contains(file, "weapon: \"carbine\""));
  CHECK(contains(file, "weapon: \"musket\""));
  Result st = run({"solo", "status", "game", "--json"}, dir.path);
  REQUIRE(st.status == 0);
  const auto units = st.json()["units"];
  REQUIRE(units.size() == 5);
  CHECK(units[0]["weapon"] == "carbine");
  CHECK(units[1]["weapon"] == "musket");
  CHECK(units[2]["weapon"].is_null());
  CHECK(units[3]["weapon"].is_null());
  CHECK(units[4]["weapon"] == "pistol");
}

TEST_CASE("solo new: the default weapon is the ruleset's data, and a house rule changes it (issue 28)",
          "[solo][weapon][seed002][002-L17-solo-default-weapon]") {
  TempDir dir;
  std::ofstream(dir.path / "house.yaml") << "extends: builtin:default\nunit_types:\n  shock:\n    default_weapon: pistol\n"
                                         << "  shooting:\n    default_weapon: none\n";
  Result r = run({"solo", "new", "game", "--ruleset", "house.yaml", "--unit", "Lancers:shock", "--unit", "Hussars:shooting", "--seed", "1"},
                 dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "Lancers: Shock cavalry, Pistols; 12 figures (assumed; give figures=N for the real number) (its type's weapon; give weapon=none"));
  CHECK(contains(r.out, "Hussars: Shooting cavalry; 12 figures (assumed; give figures=N for the real number)\n"));
  // A weapon the ruleset does not have is refused where it is written.
  std::ofstream(dir.path / "bad.yaml") << "extends: builtin:default\nunit_types:\n  shock:\n    default_weapon: lance\n";
  Result bad = run({"solo", "new", "game2", "--ruleset", "bad.yaml", "--unit", "Lancers:shock"}, dir.path);
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "bad.yaml:4:21: unit type 'shock' default_weapon: no weapon 'lance' in the ruleset"));
  CHECK_FALSE(fs::exists(dir.path / "game2.vedette.yaml"));
}

TEST_CASE("solo play: a shooting unit named without a weapon shoots its type's carbine (issue 28)", "[solo][weapon]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting", "--seed", "4"});
  ok(dir, {"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "6"});
  ok(dir, {"solo", "initiative", "game", "--total", "3"});
  ok(dir, {"solo", "end-move", "game"});
  CHECK(next_step(dir) == "shooting");
  Result r = run({"solo", "play", "game"}, dir.path, "q\n");
  INFO(r.out << r.err);
  CHECK(contains(r.out, "Shooting: Hussars (Carbine"));
}

TEST_CASE("solo: your move is a step of the turn: end-move ends it, undo takes it back (seed 003 step 3, issue 28)",
          "[solo][reaction][your-move]") {
  TempDir dir;
  turn_two(dir);
  CHECK(next_step(dir) == "initiative");
  // Before the initiative there is no move to end.
  Result early = run({"solo", "end-move", "game"}, dir.path);
  CHECK(early.status == 2);
  CHECK(contains(early.err, "your move comes after the initiative"));
  ok(dir, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});  // you move first
  CHECK(next_step(dir) == "your_move");
  Result st = run({"solo", "status", "game"}, dir.path);
  CHECK(contains(st.out, "Next: your move: the cavalry answers units of yours that move near it (`solo moved`)"));
  Result end = run({"solo", "end-move", "game"}, dir.path);
  INFO(end.out << end.err);
  REQUIRE(end.status == 0);
  CHECK(contains(end.out, "Your move in turn 2 is over (#"));
  CHECK(next_step(dir) != "your_move");
  CHECK(contains(slurp(dir.path / "game.vedette.yaml"), "event: your_move}"));
  CHECK(contains(slurp(dir.path / "game.vedette.yaml"), "\nversion: 7\n"));
  Result twice = run({"solo", "end-move", "game"}, dir.path);
  CHECK(twice.status == 2);
  CHECK(contains(twice.err, "your move in turn 2 is already over"));
  ok(dir, {"solo", "undo", "game"});
  CHECK(next_step(dir) == "your_move");
  // Redone, then the file said to be version 6: its your_move event is
  // refused where it stands, and nothing is written.
  ok(dir, {"solo", "redo", "game"});
  std::string text = slurp(dir.path / "game.vedette.yaml");
  const auto at = text.find("\nversion: 7\n");
  REQUIRE(at != std::string::npos);
  text.replace(at, 12, "\nversion: 6\n");
  spit(dir.path / "game.vedette.yaml", text);
  Result old = run({"solo", "status", "game"}, dir.path);
  CHECK(old.status == 2);
  CHECK(contains(old.err, "the your_move event is of session version 7, but this file says version 6"));
  CHECK(slurp(dir.path / "game.vedette.yaml") == text);
}

TEST_CASE("solo: when the cavalry moves first, your move comes once its charges are made (seed 003 step 3, issue 28)",
          "[solo][reaction][your-move]") {
  TempDir dir;
  turn_two(dir);
  ok(dir, {"solo", "initiative", "game", "--total", "1", "--roll", "6"});  // the cavalry moves first; it declared no charge
  CHECK(next_step(dir) == "your_move");
  ok(dir, {"solo", "end-move", "game"});
  CHECK(next_step(dir) == "next_turn");  // no weapon, no contact, no rally: the turn is done
}

TEST_CASE("solo play: a resumed play asks your move again until it is over (issue 28)", "[solo][reaction][your-move]") {
  TempDir dir;
  turn_two(dir);
  ok(dir, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});  // you move first
  // Quit in the middle of your move: nothing ends it.
  Result first = run({"solo", "play", "game", "--physical-dice"}, dir.path, "q\n");
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  CHECK(contains(first.out, "--- Your move ---"));
  CHECK(contains(first.out, "next: your move"));
  CHECK(next_step(dir) == "your_move");
  // Resumed: your move is asked again; Enter ends it, and the cavalry moves.
  Result again = run({"solo", "play", "game", "--physical-dice"}, dir.path, "\nq\n");
  INFO(again.out << again.err);
  REQUIRE(again.status == 0);
  CHECK(contains(again.out, "--- Your move ---"));
  CHECK(contains(again.out, "Your move is over."));
  CHECK(contains(again.out, "Now the cavalry moves."));
  CHECK(next_step(dir) != "your_move");
}

TEST_CASE("solo moved --kind about-to-move: a unit caught before it moves stays where it is (seed 003 L93, L98)",
          "[solo][reaction][seed003][003-L98-solo-interrupted-stops]") {
  TempDir dir;
  turn_two(dir);
  ok(dir, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});
  Result r = run({"solo", "moved", "game", "--mover", "Foot", "--as", "heavy_foot", "--kind", "about-to-move", "--near",
                  "Cuirassiers=20cm,flank", "--roll", "4", "4", "3", "3"},
                 dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "Cuirassiers makes an opportunity charge on Foot (seed 003 L90)"));
  CHECK(contains(r.out, "Foot is caught before it moves: it stays where it is and cannot move this turn (seed 003 L98)."));
  CHECK_FALSE(contains(r.out, "move is interrupted"));
  // The same in solo play: the first answer's last word says it.
  TempDir dir2;
  turn_two(dir2);
  ok(dir2, {"solo", "initiative", "game", "--total", "6", "--roll", "1"});
  Result p = run({"solo", "play", "game", "--physical-dice"}, dir2.path, "Foot heavy-foot about-to-move\nCuirassiers 20cm flank\n4 4\n3 3\n\nq\n");
  INFO(p.out << p.err);
  REQUIRE(p.status == 0);
  CHECK(contains(p.out, "add about-to-move if it has not moved yet, faced if it only turned"));
  CHECK(contains(p.out, "Foot is caught before it moves: it stays where it is and cannot move this turn."));
}

TEST_CASE("solo: seed 002 L25, the turning limit is said with a move that changes course", "[solo][seed002][002-L25-solo-turning-words]") {
  TempDir dir;
  ok(dir, {"solo", "new", "game", "--unit", "Hussars:shooting,weapon=carbine", "--unit", "Lancers:shock", "--seed", "4"});
  // RF 1, D6 6: a gallop toward the nearest enemy (the table's cell).
  Result a = run({"solo", "activate", "game", "Hussars", "--enemy-in-range", "--roll", "6"}, dir.path);
  INFO(a.out << a.err);
  REQUIRE(a.status == 0);
  CHECK(contains(a.out, "Turning (seed 002): each 45 degrees it turns from its facing uses half of the distance it moves (25 cm of a 50 cm "
                        "gallop); an about face costs nothing, so no turn costs more than 90 degrees."));
  // RF 1, D6 3: a halt, nothing to turn for on the way.
  Result h = run({"solo", "activate", "game", "Lancers", "--enemy-in-range", "--roll", "3"}, dir.path);
  INFO(h.out << h.err);
  REQUIRE(h.status == 0);
  CHECK_FALSE(contains(h.out, "Turning (seed 002)"));
}

}  // namespace t_solo_your_move
